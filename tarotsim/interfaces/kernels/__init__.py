"""The interfaces' Numba kernel: many deals stepped at once, one decision at a time, for
``VecEnv`` (``vector``). Arrays and scalars in, arrays out; no pandas, no I/O."""
