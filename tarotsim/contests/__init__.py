"""Contests: duplicate duels and tournaments of strategies, and a duel's report."""
