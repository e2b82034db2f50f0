"""The public runs, ``simulate()`` and ``sweep()``: one run path.

Both take a [`RunConfig`][tarotsim.players.config.RunConfig] (or its fields as keywords), make a
`RunSpec` of it and compute its records as one chunk with
``RunSpec.compute_chunk``, the function every chunk of a run directory comes from too:
a run in memory and a run on disk with the same seed and configuration hold the same
records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

import pandas as pd

from tarotsim.base.notices import compile_notices
from tarotsim.base.seeding import SeedLike, resolve_seed
from tarotsim.engine.labels import CONTRACTS
from tarotsim.engine.records import add_matches
from tarotsim.players.config import RunConfig, RunOptions, check_count, make_config
from tarotsim.runs.runner import show_progress, using_threads
from tarotsim.runs.spec import RunSpec
from tarotsim.runs.strata import canonical_where, check_stratify, strata, where_text


def _records(spec: RunSpec, threads: int | None, progress: bool | None) -> pd.DataFrame:
    """The records of ``spec`` in memory, with the seed and configuration in ``attrs``."""
    with using_threads(threads), compile_notices(progress is not False):
        frame = spec.compute_chunk(0, progress=show_progress(progress, spec.deals, spec.progress_step))
    frame.attrs["seed"] = spec.seed
    frame.attrs["config"] = spec.config.as_dict()
    return frame


def simulate(
    deals: int,
    *,
    seed: SeedLike,
    config: RunConfig | None = None,
    match_deals: int | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    **options: Unpack[RunOptions],
) -> pd.DataFrame:
    """Deal, bid and play ``deals`` deals; one row per deal, thrown-in deals included and marked.

    Parameters
    ----------
    deals
        Number of deals (>= 0). Deal ``i`` is dealt by seat ``i % players``.
    seed
        An int, a ``numpy.random.Generator`` (an int seed is drawn from it) or None
        (fresh entropy). The seed used is in ``df.attrs["seed"]``; the same seed gives the
        same records whatever the number of threads.
    config
        The table and its policies (default ``RunConfig()``: 4 players, heuristic card play,
        Chavey's bids, the expert écart).
    **options
        Instead of ``config``, its fields as keywords: ``players=5, policy="heuristic"``,
        or ``strategies=[s0, s1, s2, s3]``, one [`Strategy`][tarotsim.players.strategy.Strategy] (or
        spec) per seat, which adds each seat's ``strategy_<seat>`` label to the records.
    match_deals
        Group deals into matches of this many deals: adds ``match`` and each seat's
        running ``total_<seat>`` within its match.
    threads
        Threads to use (default: all that Numba may start).
    progress
        Show a progress bar (default: on a terminal, for long runs). ``False`` also hides
        the notice said once on stderr when the kernels must be compiled first.

    Returns
    -------
    pandas.DataFrame
        The record columns of ``tarotsim.engine.records.COLUMNS``, one row per deal; the seed
        and the configuration are in ``attrs``.
    """
    deals = check_count(deals, "deals")
    config = make_config(config, options)
    if match_deals is not None:
        match_deals = check_count(match_deals, "match_deals", minimum=1)
    spec = RunSpec(
        kind="simulate", seed=resolve_seed(seed), deals=deals, config=config, chunk_deals=max(deals, 1)
    )
    frame = _records(spec, threads, progress)
    if match_deals is not None:
        add_matches(frame, match_deals, config.players)
    return frame


def sweep(
    deals: int | None,
    *,
    seed: SeedLike,
    seat: int = 0,
    contracts: Sequence[str] | str = CONTRACTS,
    where: Mapping[Any, Mapping[str, Any]] | None = None,
    stratify: Sequence[str] | str = (),
    per_cell: int | None = None,
    config: RunConfig | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    **options: Unpack[RunOptions],
) -> pd.DataFrame:
    """Counterfactual contract sweep: seat ``seat`` takes each contract on every deal.

    The same cards are played out once per contract by the same policies (common random
    numbers), so contracts are compared on identical hands. Petit-sec deals are thrown in
    and marked, never played.

    Parameters
    ----------
    deals
        Number of deals (>= 0); each gives one row per contract.
    seed
        As for [`simulate`][tarotsim.runs.simulate.simulate].
    seat
        The seat that takes every contract.
    contracts
        Contract labels (``engine.labels.CONTRACTS``, default all), in the order of the rows of
        a deal; a string is split at commas.
    where
        Play only deals whose hands meet these ranges, as `tarotsim.deal` reads them:
        ``{0: {"bouts": 2, "trumps": (8, 10)}}`` (seats are the table's; the taking seat is
        `seat`). Each deal is dealt uniformly among those that meet them.
    stratify
        Columns of the taking seat's hand (``taker_bouts``, ``taker_trumps``,
        ``taker_kings``; a string is split at commas): the deals are split into one cell per
        combination of their values (within `where`), each cell dealt in turn; cells that no
        deal falls in are left out (``attrs["skipped"]``).
    per_cell
        With `stratify`: deals per cell, in place of `deals` (which must then be None).
    config
        The table and its policies (default ``RunConfig()``, as for [`simulate`][tarotsim.runs.simulate.simulate]). Its
        dealing must be shuffled; its bid thresholds do not matter (the taker and the
        contract are set).
    **options
        Instead of ``config``, its fields as keywords.
    threads, progress
        As for [`simulate`][tarotsim.runs.simulate.simulate].

    Returns
    -------
    pandas.DataFrame
        One row per (deal, contract), with the columns of [`simulate`][tarotsim.runs.simulate.simulate], and ``weight``
        when conditioned (`where`) or stratified: the deal's cell probability over the cell's
        deals (`tarotsim.runs.strata`); the analysis functions weigh the rows by it.
        ``attrs`` holds the seed, the configuration, the contracts and the seat, and for a
        conditioned sweep ``where``, ``stratify``, ``cells`` (a DataFrame: each cell's values,
        probability, deals and seed) and ``skipped`` (the number of cells left out).

    Raises
    ------
    ValueError, TypeError
        For a bad option; for a condition no deal meets, one whose ranges left to rejection
        (Chavey's count, or a seat besides the one drawn from its counts) are too rare, or a
        stratified condition whose cells cannot be counted exactly.
    """
    config = make_config(config, options)
    if isinstance(contracts, str):
        contracts = [c.strip() for c in contracts.split(",")]
        if "" in contracts:
            raise ValueError(f"contracts has an empty item (two commas, or one at an end): {contracts!r}")
    used_seed = resolve_seed(seed)
    deals = stratified_deals(deals, per_cell, stratify, seed=used_seed, seat=seat, where=where, config=config)
    spec = RunSpec(
        kind="sweep",
        seed=used_seed,
        deals=deals,
        config=config,
        chunk_deals=max(deals, 1),
        contracts=tuple(contracts),
        seat=seat,
        where=canonical_where(where, config.players),
        stratify=check_stratify(stratify),
    )
    frame = _records(spec, threads, progress)
    frame.attrs["contracts"] = list(spec.contracts)
    frame.attrs["seat"] = spec.seat
    if spec.strata is not None:
        frame.attrs["where"] = where_text(spec.where)
        frame.attrs["stratify"] = list(spec.stratify)
        frame.attrs["cells"] = cells_table(spec)
        frame.attrs["skipped"] = spec.strata.skipped
    return frame


def stratified_deals(
    deals: int | None,
    per_cell: int | None,
    stratify: Sequence[str] | str,
    *,
    seed: int,
    seat: int,
    where: Any,
    config: RunConfig,
) -> int:
    """A sweep's deal count: `deals`, or `per_cell` times its cells when stratified.

    Raises
    ------
    ValueError
        When both or neither are given, or `per_cell` without `stratify`.
    """
    columns = check_stratify(stratify)
    if per_cell is None:
        if deals is None:
            raise ValueError("give the number of deals (or per_cell, with stratify)")
        return check_count(deals, "deals")
    if deals is not None:
        raise ValueError("give deals or per_cell, not both")
    if not columns:
        raise ValueError("per_cell goes with stratify: the deals of each cell")
    per_cell = check_count(per_cell, "per_cell", minimum=1)
    cells = strata(
        seed=seed,
        players=config.players,
        seat=seat,
        where=canonical_where(where, config.players),
        stratify=columns,
        deals=0,
    )
    return per_cell * len(cells.cells)


def cells_table(spec: RunSpec) -> pd.DataFrame:
    """The cells of a conditioned sweep: the values of its stratify columns, ``where`` (the
    cell's condition), ``probability``, ``exact``, ``deals`` (in the run), ``weight`` (per deal)
    and ``seed`` (``tarotsim.deal(where=…, seed=…)`` deals them)."""
    if spec.strata is None:
        raise ValueError("not a conditioned sweep: it has no cells")
    weights = spec.strata.weights(spec.deals)
    rows = []
    for i, cell in enumerate(spec.strata.cells):
        row: dict[str, Any] = dict(zip(spec.stratify, cell.values, strict=True))
        row.update(
            where=where_text(cell.where),
            probability=cell.probability.value,
            exact=cell.probability.exact,
            deals=spec.strata.deals_of(i, spec.deals),
            weight=float(weights[i]),
            seed=cell.seed,
        )
        rows.append(row)
    return pd.DataFrame(rows)
