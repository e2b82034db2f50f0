"""The players' Numba kernels: the built-in policies (``policies``), the search players
(``search``), Numba user functions, the deal machine (``machine``: the phases of a deal, one
dispatch per decision, the trick loop), a run's deal played by its seats and the one
``decide`` (``seats``), the bidders' wishes with one given hand. Arrays and scalars in, arrays
out; no pandas, no I/O."""
