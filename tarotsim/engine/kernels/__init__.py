"""The engine's Numba kernels: arrays and scalars in, arrays out. No pandas, no I/O."""
