"""The public ``simulate()``: validate → seed → play in parallel blocks → DataFrame."""

from __future__ import annotations

import pandas as pd

from tarotsim.config import RunConfig
from tarotsim.labels import DEFAULT_CHELEM_THRESHOLD
from tarotsim.run.engine import check_count, play, show_progress, using_threads
from tarotsim.run.records import to_frame
from tarotsim.run.seeding import SeedLike, resolve_seed, run_key


def simulate(
    deals: int,
    *,
    seed: SeedLike,
    players: int = 4,
    policy: str = "random",
    attack_policy: str | None = None,
    defence_policy: str | None = None,
    bid_policy: str = "chavey",
    ecart_policy: str = "simple",
    poignee_policy: str = "always",
    chelem_policy: str = "never",
    bid_thresholds: tuple[int, int, int, int] | None = None,
    chelem_threshold: int = DEFAULT_CHELEM_THRESHOLD,
    dealing: str = "shuffled",
    match_deals: int | None = None,
    threads: int | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Deal and play ``deals`` deals; one row per deal, thrown-in deals included and marked.

    Parameters
    ----------
    deals
        Number of deals (>= 0). Deal ``i`` is dealt by seat ``i % players``.
    seed
        An int, a ``numpy.random.Generator`` (an int seed is drawn from it) or None
        (fresh entropy). The seed used is in ``df.attrs["seed"]``; the same seed gives the
        same records whatever the number of threads.
    players
        Number of players.
    policy, attack_policy, defence_policy
        Card-play policy of every seat, and overrides for the attack or the defence.
    bid_policy, ecart_policy, poignee_policy, chelem_policy
        Names of the bidding, écart, poignée and chelem-announcement policies.
    bid_thresholds
        Chavey counts from which the ``chavey`` bidder wishes a Prise, Garde, Garde sans
        and Garde contre (default: 40, 56, 71, 81 at 4 players, scaled by hand size).
    chelem_threshold
        Count (with the distribution bonus) from which ``chelem_policy="overwhelming"``
        announces a chelem.
    dealing
        ``"shuffled"`` (a uniformly random deal every time) or ``"unshuffled"`` (the casual
        table: the last deal's tricks gathered, cut and dealt in packets; RULES.md §10).
    match_deals
        Group deals into matches of this many deals: adds ``match`` (match number) and
        ``total_0`` … (each seat's cumulative score within its match).
    threads
        Threads to use (default: all that Numba may start).
    progress
        Show a progress bar (default: on a terminal, for long runs).

    Returns
    -------
    pandas.DataFrame
        Columns ``deal``, ``dealer``, ``thrown_in``, ``taker``, ``contract``, ``taker_trumps``,
        ``taker_bouts``, ``taker_kings``, ``hand_points``, ``attack_points`` (points),
        ``attack_bouts``, ``made``, ``margin`` (points), ``petit_au_bout``, ``chelem``,
        ``chelem_announced``, ``poignee_points``, ``poignees``, ``attack_tricks``,
        ``per_defender``, ``score_0`` … ``score_{players-1}`` and ``taker_score`` (points).
    """
    deals = check_count(deals, "deals")
    config = RunConfig(
        players=players,
        policy=policy,
        attack_policy=attack_policy,
        defence_policy=defence_policy,
        bid_policy=bid_policy,
        ecart_policy=ecart_policy,
        poignee_policy=poignee_policy,
        chelem_policy=chelem_policy,
        bid_thresholds=bid_thresholds,
        chelem_threshold=chelem_threshold,
        dealing=dealing,
    )
    if match_deals is not None:
        match_deals = check_count(match_deals, "match_deals", minimum=1)
    used_seed = resolve_seed(seed)
    with using_threads(threads):
        rec = play(0, deals, run_key(used_seed), config.to_array(), progress=show_progress(progress, deals))
    frame = to_frame(rec, 0, config.players)
    if match_deals is not None:
        add_matches(frame, match_deals, config.players)
    frame.attrs["seed"] = used_seed
    frame.attrs["config"] = config.as_dict()
    return frame


def add_matches(frame: pd.DataFrame, match_deals: int, players: int) -> None:
    """Add ``match`` and the cumulative scores ``total_<seat>`` within each match, in place."""
    frame["match"] = (frame["deal"] // match_deals).astype("int64")
    grouped = frame.groupby("match", sort=False)
    for seat in range(players):
        frame[f"total_{seat}"] = grouped[f"score_{seat}"].cumsum().astype("int64")
