"""Runs: seeding, the parallel engine, records and their column registry, the run store, Dask."""
