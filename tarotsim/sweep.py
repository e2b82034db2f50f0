"""The public ``sweep()``: every deal played once per contract by the same seat."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from tarotsim.config import RunConfig
from tarotsim.labels import CONTRACTS
from tarotsim.run.engine import check_count, show_progress, using_threads
from tarotsim.run.seeding import SeedLike, resolve_seed
from tarotsim.run.spec import RunSpec


def sweep(
    deals: int,
    *,
    seed: SeedLike,
    seat: int = 0,
    contracts: Sequence[str] = CONTRACTS,
    players: int = 4,
    policy: str = "heuristic",
    attack_policy: str | None = None,
    defence_policy: str | None = None,
    ecart_policy: str = "expert",
    poignee_policy: str = "always",
    chelem_policy: str = "never",
    threads: int | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Counterfactual contract sweep: seat ``seat`` takes each contract on every deal.

    The same cards are played out once per contract by the same policies (common random
    numbers), so contracts are compared on identical hands. Petit-sec deals are thrown in
    and marked, never played.

    Returns
    -------
    pandas.DataFrame
        One row per (deal, contract), with the columns of ``tarotsim.simulate``
        (``taker_trumps``, ``taker_bouts``, ``taker_kings``, ``hand_points``,
        ``attack_points``, ``made``, ``margin``, ``taker_score`` …).
    """
    check_count(deals, "deals")
    if isinstance(contracts, str):
        contracts = [c for c in contracts.split(",") if c]
    config = RunConfig(
        players=players,
        policy=policy,
        attack_policy=attack_policy,
        defence_policy=defence_policy,
        ecart_policy=ecart_policy,
        poignee_policy=poignee_policy,
        chelem_policy=chelem_policy,
    )
    used_seed = resolve_seed(seed)
    if deals == 0:
        raise ValueError("a sweep needs at least one deal")
    spec = RunSpec(kind="sweep", seed=used_seed, deals=deals, config=config, chunk_deals=deals,
                   contracts=tuple(contracts), seat=seat)
    with using_threads(threads):
        frame = spec.compute_chunk(0, progress=show_progress(progress, deals))
    frame.attrs["seed"] = used_seed
    frame.attrs["config"] = config.as_dict()
    frame.attrs["contracts"] = list(spec.contracts)
    frame.attrs["seat"] = seat
    return frame
