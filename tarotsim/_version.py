"""The version of tarotsim, in a module of its own so that any module can read it without
importing the public API (``tarotsim/__init__.py``)."""

__version__ = "0.3.0"
