"""The timing library: how tarotsim measures its speed, and the kernels it measures with.

- `tarotsim.bench.timing`: the method, for a machine others share (interleaved rounds,
  medians with their interval, min–max, ratios from same-round pairs) and ``machine()``;
- `tarotsim.bench.works`: what is timed (the engine, a deal stopped after a stage,
  the bare playout loop, ``simulate()``, records, Parquet chunks, the pure-Python rules,
  the start-up);
- `tarotsim.bench.headline`: the figures of ``tarotsim bench``, in under a minute;
- `tarotsim.bench.stages` and `tarotsim.bench.baseline`: the Numba kernels of
  a deal stopped after each stage and of the bare playout loop.

``benchmarks/bench_engine.py`` builds the full suite that writes ``reports/`` on them.
"""
