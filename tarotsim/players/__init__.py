"""The players: who decides. The registry of policies, strategies and the table's
configuration, the learned bidder's file, user players; in ``kernels``, the built-in
policies, the search players, the deal machine that asks each seat's policy, and a deal
played by its seats."""
