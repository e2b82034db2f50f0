"""Runs: seeding, the parallel engine, the record-column registry, what a run is (spec), the
run store (the only reader and writer of run directories), Dask."""
