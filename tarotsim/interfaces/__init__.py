"""The interfaces: a deal one decision at a time. ``Game`` and its ``Observation``,
``VecEnv``, Python players, the no-peeking check, Gymnasium, PettingZoo and OpenSpiel: thin
adapters over the deal machine."""
