"""The base layer: what every layer may use (the command line's defaults, files written
whole, a user's seed to the run key, confidence intervals, the notice said while a kernel
compiles)."""
