"""The runs' Numba kernel: blocks of deals played in parallel, records indexed by deal."""
