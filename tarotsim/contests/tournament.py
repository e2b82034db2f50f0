"""Tournaments: strategies dueled in a ladder or a round robin, with each one's cost per deal.

A tournament plays duplicate duels (`tarotsim.duel`) between named strategies at one or
more table sizes:

- a **ladder** takes the strategies in order, weakest first: each rung is dueled against the
  one below it and against a reference (by default the heuristic), A being the rung;
- a **round robin** duels every pair, A being the later of the two in the order given.

Every duel of a table size plays the same deals (the tournament's seed), of a fixed number
or, with ``until_decided``, until a sequential test of the edge is decided
(`tarotsim.analysis.sequential`), ``deals`` being the cap. Each strategy's **cost** is its
CPU time per deal, with that strategy in every seat, over the heuristic's in the same
tournament and on the same deals (``cost_deals`` deals, timed in ``cost_repeats``
interleaved rounds, `measure_costs`): the median of the rounds' ratios, with the 95 %
distribution-free interval of that median (from 6 rounds up).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from tarotsim.analysis.sequential import Sprt
from tarotsim.base.defaults import COST_DEALS, COST_REPEATS, LOOK_EVERY, REFERENCE
from tarotsim.base.defaults import TOURNAMENT_FORMATS as FORMATS
from tarotsim.base.seeding import SeedLike, resolve_seed
from tarotsim.engine.labels import check_players
from tarotsim.players.config import RunConfig, check_count
from tarotsim.players.strategy import Strategy, to_strategy

if TYPE_CHECKING:
    from tarotsim.report.document import Document

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")
"""A strategy's name in a tournament (also a folder name under ``out``)."""
PAIR_COLUMNS = [
    "players",
    "a",
    "b",
    "deals",
    "edge",
    "edge_low",
    "edge_high",
    "verdict",
    "a_cost",
    "a_cost_low",
    "a_cost_high",
    "b_cost",
    "b_cost_low",
    "b_cost_high",
    "a_spec",
    "b_spec",
]
"""The columns of `tournament`'s table."""


def _strategies(players: object) -> dict[str, Strategy]:
    if not isinstance(players, Mapping):
        raise TypeError(f"players is a mapping of names to strategies, got {type(players).__name__}")
    if len(players) < 2:
        raise ValueError(f"a tournament needs at least two strategies, got {len(players)}")
    named: dict[str, Strategy] = {}
    for name, spec in players.items():
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise ValueError(
                f"a strategy's name is letters, digits and _.+- (starting with a letter or digit), got {name!r}"
            )
        try:
            named[name] = to_strategy(spec)
        except ValueError as err:
            raise ValueError(f"strategy {name}: {err}") from None
    specs = [str(s) for s in named.values()]
    for name, strategy in named.items():
        if specs.count(str(strategy)) > 1:
            raise ValueError(f"strategy {name} ({strategy}) is given twice, under two names")
    return named


def pairings(names: Sequence[str], format: str, reference: str | None = None) -> list[tuple[str, str]]:
    """The duels (A, B) of a tournament of the strategies ``names``, in order.

    ``"ladder"``: each name against the one before it, then each against ``reference`` (a
    name, unless None) where that duel is not played already; ``"round-robin"``: every pair,
    A the later name.

    Raises
    ------
    ValueError
        For an unknown format.
    """
    if format not in FORMATS:
        raise ValueError(f"a tournament's format is one of {', '.join(FORMATS)}, got {format!r}")
    if format == "round-robin":
        return [(names[j], names[i]) for j in range(len(names)) for i in range(j)]
    pairs = [(names[i], names[i - 1]) for i in range(1, len(names))]
    if reference is not None:
        played = {frozenset(pair) for pair in pairs}
        pairs += [
            (name, reference)
            for name in names
            if name != reference and frozenset((name, reference)) not in played
        ]
    return pairs


def _table_sizes(table_sizes: object) -> tuple[int, ...]:
    if isinstance(table_sizes, int) and not isinstance(table_sizes, bool):
        table_sizes = (table_sizes,)
    if not isinstance(table_sizes, Sequence) or not table_sizes:
        raise TypeError(f"table_sizes is a sequence of table sizes (3, 4, 5), got {table_sizes!r}")
    sizes = tuple(check_players(p) for p in table_sizes)
    if len(set(sizes)) != len(sizes):
        raise ValueError(f"a table size is given twice in {list(sizes)}")
    return sizes


def measure_costs(
    strategies: Mapping[str, Strategy], players: int, *, deals: int, repeats: int, seed: int
) -> dict[str, tuple[float, float | None, float | None]]:
    """Each strategy's CPU time per deal, every seat playing it, over the heuristic's.

    Each round times, on one thread, every strategy (and the heuristic) in turn, in
    alternating order, after one untimed run of each: the CPU time of ``deals`` deals less
    that of one deal (what a call costs whatever its size), over ``deals − 1``. Returns, per name, the median over ``repeats`` rounds of the ratio to
    the heuristic's time in the same round, and the 95 % interval of that median (None, None
    with under 6 rounds: `tarotsim.bench.timing.median_interval`).
    """
    import gc
    import time

    import numpy as np

    from tarotsim.bench.timing import CPU_TICK, Spread
    from tarotsim.runs.simulate import simulate

    unit = to_strategy(REFERENCE)
    unit_name = next((name for name, s in strategies.items() if str(s) == str(unit)), None)
    timed: dict[str | None, RunConfig] = {
        name: RunConfig(players=players, strategies=(s,) * players) for name, s in strategies.items()
    }
    if unit_name is None:
        timed[None] = RunConfig(players=players, strategies=(unit,) * players)

    def cpu_seconds(config: RunConfig, count: int) -> float:
        started = time.process_time()
        simulate(count, seed=seed, config=config, threads=1, progress=False)
        return time.process_time() - started

    for config in timed.values():
        cpu_seconds(config, 2)  # loads the kernels
    per_deal = {name: np.zeros(repeats) for name in timed}
    order = list(timed)
    for index in range(repeats):
        for name in order if index % 2 == 0 else reversed(order):
            gc.collect()
            fixed = cpu_seconds(timed[name], 1)
            per_deal[name][index] = max(cpu_seconds(timed[name], deals) - fixed, CPU_TICK) / (deals - 1)
    costs = {}
    for name in strategies:
        spread = Spread.of(per_deal[name] / per_deal[unit_name])
        costs[name] = (spread.median, spread.low, spread.high)
    return costs


def _cost_columns(side: str, cost: tuple[float, float | None, float | None]) -> dict[str, float | None]:
    return dict(zip((f"{side}_cost", f"{side}_cost_low", f"{side}_cost_high"), cost, strict=True))


def tournament(
    players: Mapping[str, Strategy | str],
    deals: int,
    *,
    seed: SeedLike,
    format: str = "ladder",
    table_sizes: Sequence[int] | int = (4,),
    reference: Strategy | str | None = None,
    until_decided: Sprt | tuple[float, float] | None = None,
    look_every: int = LOOK_EVERY,
    cost_deals: int = COST_DEALS,
    cost_repeats: int = COST_REPEATS,
    threads: int | None = None,
    out: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Duel named strategies in a ladder or a round robin; each pair's edge and each one's cost.

    Parameters
    ----------
    players
        Names (letters, digits and ``_.+-``) mapped to strategies (a
        [`Strategy`][tarotsim.players.strategy.Strategy] or its spec), in order, weakest first for a
        ladder.
    deals
        Deals of each duel, each played once with A in each seat; with ``until_decided``, the
        most deals of each.
    seed
        As for `tarotsim.duel`; every duel of a table size plays the same deals.
    format
        ``"ladder"`` (each strategy against the one before it and against ``reference``) or
        ``"round-robin"`` (every pair).
    table_sizes
        The table sizes to play (3, 4, 5): every duel at each.
    reference
        A ladder's reference strategy (default the heuristic, `REFERENCE`): the one of
        ``players`` with its spec, or else one more strategy, named ``reference``. Not for a
        round robin.
    until_decided, look_every
        Stop each duel once this sequential test is decided, as for `tarotsim.duel`.
    cost_deals, cost_repeats
        Deals per round and rounds of the cost's timing (`measure_costs`).
    threads
        Threads of the duels (the cost is timed on one).
    out
        A folder for ``tournament.json`` and ``tournament.md`` (`write_tournament`) and each
        duel's run directory, ``duels/<players>p-<A>-vs-<B>``: the same call resumes the
        duels (the costs are timed again).
    progress
        Show a progress bar of duels (default: on a terminal).

    Returns
    -------
    pandas.DataFrame
        One row per duel and table size (`PAIR_COLUMNS`): ``players``, ``a``, ``b`` (names),
        ``deals`` (played), ``edge``, ``edge_low``, ``edge_high`` (A's edge over B, game points
        per deal, 95 % interval), ``verdict`` (``"A"``, ``"B"`` or ``"not decided"`` with
        ``until_decided``, else None), ``a_cost``, ``a_cost_low``, ``a_cost_high`` and the
        same for B (cost per deal in heuristic deals, 95 % interval, None with under 6
        rounds), ``a_spec``, ``b_spec``. ``attrs`` holds the tournament's settings.

    Raises
    ------
    ValueError, TypeError
        For fewer than two strategies, a bad name, strategy, format, table size or count, a
        strategy given twice, a reference with a round robin, or a strategy that cannot be
        played at a table size.
    """
    from tarotsim.contests.duel import check_sprt, duel

    named = _strategies(players)
    sizes = _table_sizes(table_sizes)
    deals = check_count(deals, "deals", minimum=1)
    cost_deals = check_count(cost_deals, "cost_deals", minimum=2)
    cost_repeats = check_count(cost_repeats, "cost_repeats", minimum=1)
    test = None if until_decided is None else check_sprt(until_decided)
    if format == "round-robin" and reference is not None:
        raise ValueError("a round robin plays every pair: it has no reference (a ladder's)")
    rungs = list(named)
    reference_name = None
    if format == "ladder":
        unit = to_strategy(REFERENCE if reference is None else reference)
        reference_name = next((n for n, s in named.items() if str(s) == str(unit)), None)
        if reference_name is None:
            if "reference" in named:
                raise ValueError(
                    "the name 'reference' is the ladder's reference: give it its spec, or another name"
                )
            reference_name = "reference"
            named[reference_name] = unit
    pairs = pairings(rungs, format, reference_name)
    for p in sizes:
        for name, strategy in named.items():
            try:
                strategy.check(p)
            except ValueError as err:
                raise ValueError(f"strategy {name}: {err}") from None
    seed = resolve_seed(seed)
    root = None if out is None else Path(out)
    bar = None
    if progress is None:
        import sys

        progress = sys.stderr.isatty()
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(pairs) * len(sizes), unit="duel", desc="tournament")
    rows: list[dict[str, Any]] = []
    try:
        for p in sizes:
            costs = measure_costs(named, p, deals=cost_deals, repeats=cost_repeats, seed=seed)
            for a, b in pairs:
                result = duel(
                    named[a],
                    named[b],
                    deals,
                    seed=seed,
                    players=p,
                    threads=threads,
                    out=None if root is None else root / "duels" / f"{p}p-{a}-vs-{b}",
                    until_decided=test,
                    look_every=look_every,
                    progress=False,
                )
                rows.append(
                    {
                        "players": p,
                        "a": a,
                        "b": b,
                        "deals": result.n,
                        "edge": result.edge,
                        "edge_low": result.low,
                        "edge_high": result.high,
                        "verdict": None if result.decision is None else result.decision.verdict,
                        **_cost_columns("a", costs[a]),
                        **_cost_columns("b", costs[b]),
                        "a_spec": str(named[a]),
                        "b_spec": str(named[b]),
                    }
                )
                if bar is not None:
                    bar.update()
    finally:
        if bar is not None:
            bar.close()
    frame = pd.DataFrame(rows, columns=PAIR_COLUMNS)
    frame.attrs = {
        "format": format,
        "seed": seed,
        "deals": deals,
        "table_sizes": list(sizes),
        "reference": reference_name,
        "until_decided": None
        if test is None
        else {
            "edge0": test.edge0,
            "edge1": test.edge1,
            "alpha": test.alpha,
            "beta": test.beta,
            "look_every": look_every,
        },
        "cost_deals": cost_deals,
        "cost_repeats": cost_repeats,
        "strategies": {name: str(s) for name, s in named.items()},
    }
    if root is not None:
        write_tournament(frame, root)
    return frame


def player_costs(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per strategy and table size of a `tournament`'s table: ``players``, ``name``,
    ``spec``, ``cost``, ``cost_low``, ``cost_high`` (CPU time per deal in heuristic deals)."""
    sides = [
        frame[
            ["players", side, f"{side}_spec", f"{side}_cost", f"{side}_cost_low", f"{side}_cost_high"]
        ].set_axis(["players", "name", "spec", "cost", "cost_low", "cost_high"], axis=1)
        for side in ("a", "b")
    ]
    order = {name: index for index, name in enumerate(frame.attrs.get("strategies", {}))}
    costs = pd.concat(sides, ignore_index=True).drop_duplicates(["players", "name"])
    costs = costs.assign(_order=costs["name"].map(order)).sort_values(["players", "_order"], kind="stable")
    return costs.drop(columns="_order").reset_index(drop=True)


def _json_value(value: object) -> object:
    """A cell for JSON: None for a missing number."""
    if value is None or (isinstance(value, float) and value != value):
        return None
    return value.item() if hasattr(value, "item") else value


def tournament_json(frame: pd.DataFrame) -> dict[str, Any]:
    """A `tournament`'s table for JSON: its settings, the machine the costs were timed on,
    one entry per duel and one per strategy and table size (missing numbers are null)."""
    from tarotsim.bench.timing import machine

    def records(table: pd.DataFrame) -> list[dict[str, object]]:
        return [{k: _json_value(v) for k, v in row.items()} for row in table.to_dict("records")]

    return {
        "tournament": dict(frame.attrs),
        "machine": machine(),
        "duels": records(frame[[c for c in PAIR_COLUMNS if c not in ("a_spec", "b_spec")]]),
        "strategies": records(player_costs(frame)),
    }


def tournament_document(frame: pd.DataFrame) -> Document:
    """A `tournament`'s table as a [`Document`][tarotsim.report.document.Document]."""
    from tarotsim.report.document import Code, Document

    settings = frame.attrs
    doc = Document("Tournament")
    doc.heading(1, f"Tournament: {settings['format']}")
    test = settings["until_decided"]
    how = (
        f"each of {settings['deals']:,} deals"
        if test is None
        else (
            f"until a sequential test was decided (H0: A's edge <= {test['edge0']:g}, H1: A's edge >= "
            f"{test['edge1']:g} points per deal, error rates {test['alpha']:g} and {test['beta']:g}, a look "
            f"every {test['look_every']:,} deals, at most {settings['deals']:,} deals)"
        )
    )
    doc.paragraph(
        f"Duplicate duels at {', '.join(str(p) for p in settings['table_sizes'])} players, seed "
        f"{settings['seed']}, {how}: every deal played once with A in each seat and B in the others. "
        "The edge is A's mean score per deal over the rotations (game points), with its 95% interval "
        "(normal approximation over deals; approximate after a sequential stop)."
    )
    shown = frame[["players", "a", "b", "deals", "edge", "edge_low", "edge_high", "verdict"]]
    doc.table(shown, ".2f")
    doc.heading(2, "Cost per deal")
    doc.paragraph(
        "CPU time per deal with the strategy in every seat, in heuristic deals: the median over "
        f"{settings['cost_repeats']} interleaved rounds of {settings['cost_deals']:,} deals on one thread "
        "of the strategy's time over the heuristic's, with the 95% distribution-free interval of that "
        "median (from 6 rounds)."
    )
    doc.table(player_costs(frame).drop(columns="spec"), ".2f")
    doc.heading(2, "Strategies")
    doc.bullets(*((f"{name}: ", Code(spec)) for name, spec in settings["strategies"].items()))
    doc.heading(2, "Words used")
    doc.glossary()
    return doc


def write_tournament(frame: pd.DataFrame, folder: str | os.PathLike[str]) -> Path:
    """Write a `tournament`'s ``tournament.json`` (`tournament_json`) and ``tournament.md``
    into ``folder`` (made if needed); returns the folder.

    Raises
    ------
    ValueError
        If the folder cannot be made or written.
    """
    import json

    from tarotsim.base.files import write_text_atomic

    root = Path(folder)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"cannot make the tournament folder {root}: {err.strerror or err}") from None
    write_text_atomic(root / "tournament.json", json.dumps(tournament_json(frame), indent=2) + "\n")
    write_text_atomic(root / "tournament.md", tournament_document(frame).markdown())
    return root
