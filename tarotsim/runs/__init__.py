"""Runs: what a run is (spec), the parallel runner, the run store (the only reader and writer
of run directories), Dask, ``simulate`` and ``sweep``, traces."""
