"""Bidders proven in duplicate duels, the refitted count, and what each bidder costs: writes reports/bidding.md.

Measures, at 4 players, and at 3 and 5 when a bidder file for that size exists
(``reports/bidder-3p.json``, ``bidder-5p.json``), with heuristic card play and the expert
écart everywhere:

- Chavey's count refitted on a sweep (``tarotsim.analysis.count_fit``), each contract's
  taker score regressed on the dealt-hand features, in Chavey's units (the 21 worth 10) with
  95 % delta-method intervals, beside his published weights;
- duplicate duels (``tarotsim.duel``, same deals for every duel): ``learned`` against
  ``chavey``, and, when ``montecarlo`` is among ``players.policies.BID_POLICIES``, ``montecarlo``
  against ``chavey`` and ``learned`` against ``montecarlo``: A's edge with its paired 95 %
  interval, how often each bidder takes, which contract, and its success rate;
- a second look at learned against montecarlo at 5 players: montecarlo in a single seat
  among learned bidders (at 5 and 4), the montecarlo seats at more worlds, each side's takes
  split by contested and lone auctions, and the duel's roles (``puzzle_section``);
- speed: deals per CPU second of ``simulate`` with every seat bidding by each bidder,
  measured in turn (chavey, learned, …, chavey, learned, …) on one thread, best of
  ``--repeats``, as a ratio to ``chavey`` from the same rounds.

The learned bidder at ``n`` players is the file ``--bidders/bidder-{n}p.json`` (``tarotsim
fit-bidder SWEEP --out FILE``); the refitted count is fitted on the 4-player ``--sweep``
(read-only: a sample of deals is read from it).

    nice -n 5 .venv/bin/python benchmarks/bench_bidding.py [--deals 100000] [--sweep DIR] [--bidders reports]

Duels are computed chunk by chunk (``--chunk-deals``): with ``--cache DIR`` every finished
chunk is kept, so the same command resumes; ``--stop-at HH:MM`` (UTC) starts no montecarlo
chunk after that time (the first size of ``--players`` excepted) and reports each duel on
the deals it finished (a duel's first k deals do not depend on its length).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
import pandas as pd

import tarotsim
from tarotsim.analysis.count_fit import count_table, sweep_sample, verdict
from tarotsim.base.intervals import Z95
from tarotsim.bench.timing import machine
from tarotsim.contests.duel import INTERVAL, DuelResult, duel_spec
from tarotsim.engine.labels import CONTRACTS, HAND_FEATURE_MEANINGS, ThrownIn
from tarotsim.players.bidder import load_bidder
from tarotsim.players.policies import BID_POLICIES
from tarotsim.players.strategy import DEFAULT_BID_WORLDS
from tarotsim.runs.runner import using_threads

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "reports"
PLAYERS = 4
"""The table size of the refitted count and of the speed measurement."""
SIZES = (3, 4, 5)
PLAY = "play=heuristic,ecart=expert"
HEURISTIC_PLAY_VERSIONS = ("0.2.0", "0.3.0")
"""The tarotsim versions whose heuristic plays as this one's (it changed in 0.2.0):
sweeps made by them fit bidders to the play their duels use."""
MONTECARLO = "montecarlo"


def strategies(bidder: Path) -> dict[str, str]:
    """Each bidder's strategy spec, named by its bid policy; ``montecarlo`` once it exists."""
    specs = {
        "chavey": f"{PLAY},bid=chavey,name=chavey",
        "learned": f"{PLAY},bid=learned,bidder={bidder},name=learned",
    }
    if MONTECARLO in BID_POLICIES:
        specs[MONTECARLO] = f"{PLAY},bid={MONTECARLO},name={MONTECARLO}"
    return specs


def _cell(weight: float, low: float, high: float) -> str:
    if pd.isna(weight):
        return "—"
    return f"{weight:+.1f} [{low:+.1f}, {high:+.1f}]"


def count_section(sweep: str, sample: int, sample_seed: int) -> tuple[list[str], dict[str, dict[str, int]]]:
    """The refitted count of each contract beside Chavey's weights, and the verdict counts."""
    drawn = sweep_sample(sweep, sample=sample, sample_seed=sample_seed)
    tables = {c: count_table(drawn, contract=c).set_index("feature") for c in CONTRACTS}
    header = "| feature | what it counts | Chavey | " + " | ".join(CONTRACTS) + " |"
    lines = [header, "|---|---|---:|" + "---|" * len(CONTRACTS)]
    for feature, meaning in HAND_FEATURE_MEANINGS.items():
        published = [tables[c].loc[feature, "published"] for c in CONTRACTS]
        shown = "/".join(sorted({"—" if pd.isna(p) else f"{p:g}" for p in published}, key=len))
        cells = [_cell(*(tables[c].loc[feature, k] for k in ("weight", "low", "high"))) for c in CONTRACTS]
        lines.append(f"| `{feature}` | {meaning} | {shown} | " + " | ".join(cells) + " |")
    verdicts: dict[str, dict[str, int]] = {}
    for c in CONTRACTS:
        said = tables[c].reset_index().apply(verdict, axis=1).str.split(":").str[0]
        verdicts[c] = {v: int(n) for v, n in said.value_counts().items()}
    n = {c: tables[c].attrs["n"] for c in CONTRACTS}
    lines += ["", "Deals fitted per contract: " + ", ".join(f"{c} {n[c]:,}" for c in CONTRACTS) + "."]
    return lines, verdicts


def contract_lines(result: DuelResult, names: tuple[str, str]) -> list[str]:
    """How often each bidder takes each contract, its success rate and mean taker score."""
    lines = [
        "| contract | " + " | ".join(f"{n} takes % | {n} made % | {n} as taker" for n in names) + " |",
        "|---|" + "---:|---:|---:|" * 2,
    ]
    for _, row in result.by_contract.iterrows():
        cells = []
        for side in ("a", "b"):
            made, mean = row[f"{side}_made"], row[f"{side}_mean"]
            cells += [
                f"{100 * row[f'{side}_rate']:.2f}",
                "—" if math.isnan(made) else f"{100 * made:.1f}",
                "—" if math.isnan(mean) else f"{mean:+.1f}",
            ]
        lines.append(f"| {row['contract']} | " + " | ".join(cells) + " |")
    return lines


def bidder_path(folder: Path, players: int) -> Path:
    """The learned bidder's file at ``players`` players."""
    return folder / f"bidder-{players}p.json"


EDGE_HEADER = [
    "| players | A against B | deals | A's edge | 95% interval | A takes % | B takes % | A made % | B made % |",
    "|---:|---|---:|---:|---|---:|---:|---:|---:|",
]


def duel_key(spec) -> str:
    """What a duel's chunks depend on (its identity less its deal count), hashed: the cache folder's name."""
    identity = {k: v for k, v in spec.identity().items() if k != "deals"}
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


@dataclass
class Job:
    """One duel computed chunk by chunk, in deal order; with a cache folder each finished chunk is
    kept there (parquet), so that the same command resumes an interrupted run. The first ``k``
    deals of a duel are the same whatever its deal count (a deal's cards and stream follow the
    seed and the deal's number only), so a duel stopped early is a duel on its finished deals."""

    players: int
    a: str
    b: str
    specs: dict[str, str]
    deals: int
    seed: int
    chunk: int
    cache: Path | None
    frames: list[pd.DataFrame] = field(default_factory=list)
    cpu: float = 0.0
    cached_cpu: float = 0.0

    def __post_init__(self) -> None:
        self.spec = duel_spec(
            self.specs[self.a],
            self.specs[self.b],
            self.deals,
            seed=self.seed,
            players=self.players,
            chunk_deals=min(self.chunk, self.deals),
        )

    @property
    def done(self) -> int:
        """Deals finished."""
        return sum(len(f) for f in self.frames) // self.players

    @property
    def finished(self) -> bool:
        return len(self.frames) == self.spec.n_chunks

    def _path(self, index: int) -> Path | None:
        if self.cache is None:
            return None
        first, count = self.spec.chunk_range(index)
        return self.cache / duel_key(self.spec) / f"{first:08d}-{count}.parquet"

    def load_cached(self) -> None:
        """Take the finished chunks the cache holds, in deal order."""
        while not self.finished and (path := self._path(len(self.frames))) is not None and path.exists():
            self.frames.append(pd.read_parquet(path))
            seconds = path.with_suffix(".cpu")
            if seconds.exists():
                self.cached_cpu += float(seconds.read_text())

    def advance(self) -> None:
        """Compute the next chunk (or take it from the cache)."""
        self.load_cached()
        if self.finished:
            return
        index = len(self.frames)
        started = time.process_time()
        frame = self.spec.compute_chunk(index)
        self.cpu += time.process_time() - started
        path = self._path(index)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(".tmp")
            frame.to_parquet(partial)
            partial.replace(path)
            path.with_suffix(".cpu").write_text(f"{time.process_time() - started:.3f}")
        self.frames.append(frame)

    def records(self) -> pd.DataFrame:
        return pd.concat(self.frames, ignore_index=True)

    def result(self) -> DuelResult:
        """The duel on the deals finished so far."""
        return DuelResult.from_records(
            self.records(), self.spec.duel[0], self.spec.duel[1], players=self.players, seed=self.seed
        )


def edge_row(job: Job, result: DuelResult) -> str:
    """A duel's row of the edge table: A's edge with its interval, how often each side takes, and made."""
    taker = result.by_role.set_index("role").loc["taker"]
    by = result.by_contract
    made = {
        s: float((by[f"{s}_made"].fillna(0) * by[f"{s}_n"]).sum() / max(by[f"{s}_n"].sum(), 1)) for s in "ab"
    }
    short = "" if job.done == job.deals else f" of {job.deals:,}"
    return (
        f"| {job.players} | {job.a} against {job.b} | {job.done:,}{short} | {result.edge:+.3f} | "
        f"[{result.low:+.3f}, {result.high:+.3f}] | {100 * taker.a_rate:.2f} | {100 * taker.b_rate:.2f} | "
        f"{100 * made['a']:.1f} | {100 * made['b']:.1f} |"
    )


def duel_jobs(
    specs: dict[str, str], players: int, deals: int, mc_deals: int, seed: int, chunk: int, cache: Path | None
) -> list[Job]:
    """The duels at ``players`` players: learned against chavey, and the montecarlo ones when it exists."""
    pairs = [("learned", "chavey")]
    if MONTECARLO in specs:
        pairs += [(MONTECARLO, "chavey"), ("learned", MONTECARLO)]
    return [
        Job(players, a, b, specs, mc_deals if MONTECARLO in (a, b) else deals, seed, chunk, cache)
        for a, b in pairs
    ]


def duel_lines(jobs: list[Job]) -> tuple[list[str], list[str], dict[tuple[int, str, str], DuelResult]]:
    """The duels' edge rows and, per duel, the by-contract breakdown (duels with no deal done left out)."""
    edge_lines: list[str] = []
    detail: list[str] = []
    results = {}
    for job in jobs:
        if not job.done:
            continue
        result = job.result()
        results[job.players, job.a, job.b] = result
        edge_lines.append(edge_row(job, result))
        detail += [
            f"### {job.players} players: {job.a} (A) against {job.b} (B), {job.done:,} deals",
            "",
            *contract_lines(result, (job.a, job.b)),
            "",
        ]
    return edge_lines, detail, results


def _ratio(
    values: np.ndarray, weights: np.ndarray, deal: np.ndarray, n_deals: int
) -> tuple[float, float, float]:
    """The mean of ``values`` over the rows weighted by ``weights`` (0/1), with its 95 % interval,
    the deal being the unit drawn (delta method on per-deal sums; rows of a deal are correlated)."""
    sums = np.bincount(deal, weights=values * weights, minlength=n_deals)
    counts = np.bincount(deal, weights=weights, minlength=n_deals)
    total = counts.sum()
    if total == 0:
        return math.nan, math.nan, math.nan
    mean = sums.sum() / total
    deviations = (sums - mean * counts) / (total / n_deals)
    half = Z95 * float(deviations.std(ddof=1)) / math.sqrt(n_deals)
    return mean, mean - half, mean + half


def _fmt(mean: float, low: float, high: float, scale: float = 1.0, digits: int = 1) -> str:
    if math.isnan(mean):
        return "—"
    return f"{scale * mean:+.{digits}f} [{scale * low:+.{digits}f}, {scale * high:+.{digits}f}]"


def _pct(mean: float, low: float, high: float) -> str:
    if math.isnan(mean):
        return "—"
    return f"{100 * mean:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def auction_stats(results: dict[tuple[int, str, str], DuelResult]) -> dict[tuple, tuple]:
    """Each side's takes in the montecarlo duels, split by whether another seat also wished to bid
    (``others_bid``): (players, a, b, side, split) → (rate per seat, made (mean, low, high), mean
    taker score (mean, low, high))."""
    out = {}
    for (players, a, b), result in results.items():
        if not any(name.startswith(MONTECARLO) for name in (a, b)):
            continue
        rec = result.records
        deal = pd.factorize(rec["deal"])[0]
        n_deals = int(deal.max()) + 1
        played = (rec["thrown_in"] == ThrownIn.NONE.label).to_numpy()
        taker = rec["taker"].to_numpy(np.int64, na_value=-1)
        a_takes = played & (taker == rec["a_seat"].to_numpy())
        contested = (rec["others_bid"].astype(str) != "pass").to_numpy()
        made = rec["made"].to_numpy(float, na_value=0.0)
        score = rec["taker_score"].to_numpy(float, na_value=0.0)
        for side, takes, seats in (("A", a_takes, 1), ("B", played & ~a_takes, players - 1)):
            for split, mask in (
                ("alone", ~contested),
                ("contested", contested),
                ("all", np.ones(len(rec), bool)),
            ):
                w = (takes & mask).astype(float)
                out[players, a, b, side, split] = (
                    w.sum() / (len(rec) * seats),
                    _ratio(made, w, deal, n_deals),
                    _ratio(score, w, deal, n_deals),
                )
    return out


def auction_lines(stats: dict[tuple, tuple]) -> list[str]:
    """The table of `auction_stats`."""
    lines = [
        "| players | duel | taker | auction | takes % per seat | made % | mean taker score |",
        "|---:|---|---|---|---:|---|---|",
    ]
    for (players, a, b, side, split), (rate, made, score) in stats.items():
        name = a if side == "A" else b
        lines.append(
            f"| {players} | {a} against {b} | {side}: {name} | {split} | {100 * rate:.2f} | {_pct(*made)} | {_fmt(*score)} |"
        )
    return lines


def _edge(result: DuelResult) -> str:
    return f"{result.edge:+.2f} [{result.low:+.2f}, {result.high:+.2f}]"


def puzzle_findings(
    results: dict[tuple[int, str, str], DuelResult],
    stats: dict[tuple, tuple],
    gain: tuple[int, float, float, float] | None,
    read: tuple[int, float, float, float] | None,
) -> list[str]:
    """What the puzzle's measurements say, each with its interval (sentences chosen by the intervals)."""
    n5, n4 = PUZZLE_PLAYERS, PLAYERS
    out = []
    alone5, alone4 = results.get((n5, MONTECARLO, "learned")), results.get((n4, MONTECARLO, "learned"))
    if alone5 is not None:
        said = (
            f"montecarlo loses to learned at {n5} players even in a single seat, so the loss is not (only) "
            "montecarlo seats outbidding each other"
            if alone5.high < 0
            else "alone, montecarlo beats learned: the loss comes from montecarlo seats bidding against each other"
            if alone5.low > 0
            else "alone, the two bidders are not told apart"
        )
        at4 = f" ({_edge(alone4)} at {n4} players)" if alone4 is not None else ""
        out.append(
            f"- One montecarlo seat among learned ones (`montecarlo against learned`, {alone5.n:,} deals): montecarlo's "
            f"edge {_edge(alone5)} at {n5} players{at4}: {said}."
        )
    mc5, lone = (n5, "learned", MONTECARLO, "B"), (n5, MONTECARLO, "learned", "B")
    if (*mc5, "contested") in stats and (*lone, "contested") in stats:

        def take(key: tuple, split: str) -> str:
            rate, made, score = stats[(*key, split)]
            return f"{100 * rate:.1f}% per seat, made (%) {_pct(*made)}, mean taker score {_fmt(*score)}"

        out.append(
            f"- At {n5} players montecarlo's seats take in contested auctions (another seat wished a contract too) "
            f"{take(mc5, 'contested')}, and alone {take(mc5, 'alone')} (`learned against montecarlo`); the learned "
            f"seats of `montecarlo against learned` take contested {take(lone, 'contested')}, alone "
            f"{take(lone, 'alone')}."
        )
        four = (n4, "learned", MONTECARLO, "B", "contested")
        duel4 = results.get((n4, "learned", MONTECARLO))
        if four in stats and duel4 is not None:
            ties = "ties" if duel4.low <= 0 <= duel4.high else "does not tie"
            out.append(
                f"- At {n4} players montecarlo's seats of `learned against montecarlo` take in contested auctions "
                f"{100 * stats[four][0]:.2f}% per seat (against {100 * stats[(*mc5, 'contested')][0]:.1f}% at {n5}), "
                f"and that duel {ties} ({_edge(duel4)})."
            )
    if gain is not None:
        n, mean, low, high = gain
        said = (
            "part of the loss is the noise of the 32-world estimates, which the auction selects (a seat "
            "overcalls when its estimate is high by chance, the winner's curse) and more worlds reduce"
            if high < 0
            else "more worlds make montecarlo worse here"
            if low > 0
            else "no effect of more worlds is measured (the interval holds 0)"
        )
        out.append(
            f"- Montecarlo seats at `bid_worlds={PUZZLE_WORLDS}` instead of {DEFAULT_BID_WORLDS} change learned's edge "
            f"by {mean:+.2f} [{low:+.2f}, {high:+.2f}] on the same {n:,} deals: {said}."
        )
    if read is not None:
        n, mean, low, high = read
        said = (
            "reading the bids heard as a Chavey bidder's is part of montecarlo's loss against learned"
            if low > 0
            else "the looser reading makes montecarlo worse, so its misreading of learned's bids is not what loses"
            if high < 0
            else "no effect of the reading is measured (the interval holds 0)"
        )
        out.append(
            f"- A montecarlo seat that reads the earlier speakers' bids by the bands {LEARNED_BANDS} (Chavey "
            "counts at which a Chavey bidder takes each contract about as often as learned does at "
            f"{n5} players; how often, not which hands) instead of the published ones changes its edge against learned by "
            f"{mean:+.2f} [{low:+.2f}, {high:+.2f}] on the same {n:,} deals (paired)"
            + (
                f", {mean / -alone5.edge:.0%} of its loss ({alone5.edge:+.2f})"
                if alone5 is not None and alone5.edge < 0
                else ""
            )
            + f": {said}."
        )
    versus = results.get((n5, "learned", "chavey"))
    if versus is not None and read is None:
        taker = versus.by_role.set_index("role").loc["taker"]
        out.append(
            "- Not tested: the montecarlo bidder reads a bid it heard as a Chavey bidder's (its model of the "
            "earlier speakers), while learned seats at "
            f"{n5} players take {100 * taker.a_rate:.1f}% of their deals against Chavey's {100 * taker.b_rate:.1f}% "
            "(`learned against chavey`): facing learned seats, its picture of a bidder's hand is wrong, and "
            "that may be why its contested takes fail; telling it apart would need a montecarlo bidder whose "
            "model of the others is the learned bidder."
        )
    return out


def role_lines(results: dict[tuple[int, str, str], DuelResult]) -> list[str]:
    """A's and B's mean score per role in the duels of learned against montecarlo (``by_role``)."""
    lines = [
        "| players | role | A (learned) rate % | A mean | B (montecarlo) rate % per seat | B mean | A − B, 95% interval | A's share of the edge |",
        "|---:|---|---:|---:|---:|---:|---|---:|",
    ]
    for (players, a, b), result in results.items():
        if (a, b) != ("learned", MONTECARLO):
            continue
        for _, row in result.by_role.iterrows():
            if row["role"] == "thrown_in":
                continue
            lines.append(
                f"| {players} | {row['role']} | {100 * row['a_rate']:.2f} | {row['a_mean']:+.1f} | "
                f"{100 * row['b_rate']:.2f} | {row['b_mean']:+.1f} | "
                f"{_fmt(row['a_minus_b'], row['a_minus_b_low'], row['a_minus_b_high'])} | "
                f"{row['a_rate'] * row['a_mean']:+.2f} |"
            )
    return lines


def per_deal_edge(records: pd.DataFrame, players: int) -> pd.Series:
    """A's mean score over a deal's rotations, per deal."""
    seat = records["a_seat"].to_numpy()
    scores = records[[f"score_{s}" for s in range(players)]].to_numpy(float)
    a_score = scores[np.arange(len(seat)), seat]
    return pd.Series(a_score, index=records["deal"].to_numpy()).groupby(level=0).mean()


def paired_gain(new: DuelResult, old: DuelResult, players: int) -> tuple[int, float, float, float]:
    """The mean per-deal difference of two duels' edges on their common deals, with its 95 % interval."""
    both = pd.concat(
        [per_deal_edge(new.records, players), per_deal_edge(old.records, players)], axis=1, join="inner"
    )
    diff = (both.iloc[:, 0] - both.iloc[:, 1]).to_numpy()
    half = Z95 * float(diff.std(ddof=1)) / math.sqrt(len(diff))
    mean = float(diff.mean())
    return len(diff), mean, mean - half, mean + half


def speed_section(specs: dict[str, str], deals: int, repeats: int, seed: int) -> list[str]:
    """Deals per CPU second of ``simulate`` with every seat on each bidder, one thread, in turn."""
    calls = {
        name: (
            lambda spec=spec: tarotsim.simulate(
                deals, seed=seed, strategies=[spec] * PLAYERS, threads=1, progress=False
            )
        )
        for name, spec in specs.items()
    }
    played = {  # the first call also compiles and warms up
        name: float((call()["thrown_in"] == ThrownIn.NONE.label).mean()) for name, call in calls.items()
    }
    best = dict.fromkeys(calls, math.inf)
    ratios: dict[str, list[float]] = {name: [] for name in calls}
    with using_threads(1):
        for _ in range(repeats):
            cpu = {}
            for name, call in calls.items():
                started = time.process_time()
                call()
                cpu[name] = time.process_time() - started
                best[name] = min(best[name], cpu[name])
            for name in calls:
                ratios[name].append(cpu["chavey"] / cpu[name])
    lines = [
        "| bidder | deals played % | deals per CPU s (best) | speed relative to chavey (median of rounds) | rounds |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in calls:
        lines.append(
            f"| {name} | {100 * played[name]:.1f} | {deals / best[name]:,.0f} | {float(np.median(ratios[name])):.3f} | {repeats} |"
        )
        print(lines[-1], flush=True)
    return lines


PUZZLE_PLAYERS = 5
"""The table size of the puzzle: learned beat montecarlo there in the 10,000-deal duels, not at 4."""
PUZZLE_WORLDS = 64
"""The montecarlo seats' worlds in the puzzle's duel of learned against more worlds."""
LEARNED_BANDS = "27/28/37/49"
"""Chavey counts at which a Chavey bidder at 5 players would take about as often as the learned
bidder does, contract by contract (in the 300,000-deal duel of learned against chavey, seed 7,
tarotsim 0.1.0, learned takes 32.4 % of its deals, Garde or above 31.3 %, Garde sans or above
16.0 %, Garde contre 2.9 %): the quantiles of the dealt Chavey count (with the distribution
bonus for the last two) in the 5-player sweep the 5-player bidder was fitted on. Given to a
montecarlo seat as ``bid_thresholds``: the bands by which it reads the earlier speakers' bids."""
BANDS = f"{MONTECARLO}_bands"


def puzzle_jobs(args: argparse.Namespace, sizes: list[int]) -> list[Job]:
    """The puzzle's duels: montecarlo alone among learned bidders (at 5 and 4 players), the same
    at 5 with a montecarlo seat that reads the bids heard by bands as loose as learned's bidding,
    and learned against montecarlo seats with more worlds (5 players)."""
    if MONTECARLO not in BID_POLICIES:
        return []
    jobs = []
    for n in (PUZZLE_PLAYERS, PLAYERS):
        if n in sizes and args.puzzle_deals:
            specs = strategies(bidder_path(args.bidders, n))
            jobs.append(
                Job(
                    n,
                    MONTECARLO,
                    "learned",
                    specs,
                    args.puzzle_deals,
                    args.seed,
                    args.chunk_deals,
                    args.cache,
                )
            )
    if PUZZLE_PLAYERS in sizes and args.puzzle_deals:
        specs = strategies(bidder_path(args.bidders, PUZZLE_PLAYERS))
        specs[BANDS] = f"{PLAY},bid={MONTECARLO},bid_thresholds={LEARNED_BANDS},name={BANDS}"
        jobs.append(
            Job(
                PUZZLE_PLAYERS,
                BANDS,
                "learned",
                specs,
                args.puzzle_deals,
                args.seed,
                args.chunk_deals,
                args.cache,
            )
        )
    if PUZZLE_PLAYERS in sizes and args.worlds_deals:
        specs = strategies(bidder_path(args.bidders, PUZZLE_PLAYERS))
        name = f"{MONTECARLO}{PUZZLE_WORLDS}"
        specs[name] = f"{PLAY},bid={MONTECARLO},bid_worlds={PUZZLE_WORLDS},name={name}"
        jobs.append(
            Job(
                PUZZLE_PLAYERS,
                "learned",
                name,
                specs,
                args.worlds_deals,
                args.seed,
                args.chunk_deals,
                args.cache,
            )
        )
    return jobs


def puzzle_section(
    puzzle: list[Job], results: dict[tuple[int, str, str], DuelResult], args: argparse.Namespace
) -> list[str]:
    """A second look at learned against montecarlo at 5 players, from the duels' records and the puzzle's duels."""
    n5 = PUZZLE_PLAYERS
    main = results.get((n5, "learned", MONTECARLO))
    done = {(j.players, j.a, j.b): (j, j.result()) for j in puzzle if j.done}
    if main is None and not done:
        return []
    edge = list(EDGE_HEADER)
    for (players, a, b), result in sorted(results.items()):
        if (a, b) == ("learned", MONTECARLO):
            edge.append(
                f"| {players} | {a} against {b} (the duel above) | {result.n:,} | {result.edge:+.3f} | "
                f"[{result.low:+.3f}, {result.high:+.3f}] | | | | |"
            )
    for job, result in done.values():
        edge.append(edge_row(job, result))
    lines = [
        f"## A second look at {n5} players: learned against montecarlo",
        "",
        f"In a duel A holds one seat and B the other {n5 - 1}: in `learned against montecarlo` at {n5} players",
        f"{n5 - 1} montecarlo seats bid against each other and one learned seat, while in `montecarlo against",
        "chavey` the montecarlo seat bids alone among Chavey bidders. The montecarlo bidder models the",
        "earlier speakers as bidding by Chavey's count, and wishes only contracts above the bid it heard.",
        "Duels added to look at it, on the same deals (seed above), each computed by this script:",
        "",
        f"- `montecarlo against learned`: one montecarlo seat among learned bidders ({args.puzzle_deals:,} deals asked);",
        f"- `{BANDS} against learned`: the same with a montecarlo seat that reads the bids it hears by the "
        f"bands `bid_thresholds={LEARNED_BANDS}`, as loose as learned's bidding (below; {args.puzzle_deals:,} deals asked);",
        f"- `learned against {MONTECARLO}{PUZZLE_WORLDS}`: the montecarlo seats at `bid_worlds={PUZZLE_WORLDS}`"
        f" instead of {DEFAULT_BID_WORLDS} ({args.worlds_deals:,} deals asked).",
        "",
        *edge,
        "",
    ]
    everything = {**results, **{k: v[1] for k, v in done.items()}}
    stats = auction_stats(everything)
    worlds = done.get((n5, "learned", f"{MONTECARLO}{PUZZLE_WORLDS}"))
    bands, alone = done.get((n5, BANDS, "learned")), done.get((n5, MONTECARLO, "learned"))
    read = None if bands is None or alone is None else paired_gain(bands[1], alone[1], n5)
    gain = None
    if worlds is not None and main is not None:
        gain = paired_gain(worlds[1], main, n5)
        n, mean, low, high = gain
        lines += [
            f"Learned's edge against {PUZZLE_WORLDS}-world montecarlo seats minus its edge against "
            f"{DEFAULT_BID_WORLDS}-world ones, on the same {n:,} deals (paired, normal approximation over deals): "
            f"**{mean:+.2f} [{low:+.2f}, {high:+.2f}]** points per deal.",
            "",
        ]
    lines += [
        "How each side's takes go, split by whether another seat also wished to bid (`others_bid`:",
        "`alone`, none did; `contested`, another seat wished a contract too, the taker bid above it or",
        "was not outbid). Takes % per seat and row; made % and mean taker score (game points) with 95%",
        "intervals, the deal as the unit (delta method on per-deal sums):",
        "",
        *auction_lines(stats),
        "",
        "Where learned's edge against montecarlo comes from: A's (learned's) and B's (montecarlo's,",
        "per seat) rate and mean score in each role (`tarotsim.duel` `by_role`, 95% interval of the",
        "difference), and A's rate × mean, whose sum over the roles is the edge:",
        "",
        *role_lines(results),
        "",
        "What these measurements say:",
        "",
        *puzzle_findings(everything, stats, gain, read),
        "",
    ]
    return lines


def run_jobs(jobs: list[Job], stop: dt.datetime | None, what: str) -> None:
    """Advance ``jobs`` chunk by chunk, in turn, until each is finished or ``stop`` has passed."""
    for job in jobs:
        job.load_cached()
    while True:
        waiting = [job for job in jobs if not job.finished]
        if not waiting:
            return
        if stop is not None and dt.datetime.now(dt.UTC) >= stop:
            print(
                f"stop time passed: {what} left at " + ", ".join(f"{j.done:,}" for j in waiting), flush=True
            )
            return
        for job in waiting:
            job.advance()
            print(
                f"{job.players}p {job.a} against {job.b}: {job.done:,} of {job.deals:,} deals "
                f"({job.cpu:.0f} CPU s this run) {time.strftime('%H:%M:%S')}",
                flush=True,
            )


def stop_time(text: str | None) -> dt.datetime | None:
    """The next ``HH:MM`` UTC (today), or None."""
    if text is None:
        return None
    hours, minutes = (int(x) for x in text.split(":"))
    return dt.datetime.now(dt.UTC).replace(hour=hours, minute=minutes, second=0, microsecond=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="deals per duel (learned against chavey)")
    parser.add_argument("--mc-deals", type=int, default=10_000, help="deals per duel involving montecarlo")
    parser.add_argument(
        "--players",
        default="4,3,5",
        help="table sizes (those with a bidder file), in the order of their montecarlo duels: the first "
        "size's to the end, then the puzzle's duels, then the other sizes' chunk by chunk in turn",
    )
    parser.add_argument("--threads", type=int, default=None, help="threads of the duels (default: Numba's)")
    parser.add_argument("--chunk-deals", type=int, default=5_000, help="deals per chunk of a duel")
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="folder keeping each duel's finished chunks: the same command resumes",
    )
    parser.add_argument(
        "--stop-at",
        default=None,
        help="HH:MM UTC: no montecarlo chunk is started after it but the first size's; a duel stopped "
        "early is reported on the deals it finished",
    )
    parser.add_argument(
        "--puzzle-deals",
        type=int,
        default=10_000,
        help="deals of the lone montecarlo duels (montecarlo against learned)",
    )
    parser.add_argument(
        "--worlds-deals",
        type=int,
        default=3_000,
        help=f"deals of learned against montecarlo at bid_worlds={PUZZLE_WORLDS}, {PUZZLE_PLAYERS} players",
    )
    parser.add_argument(
        "--sweep",
        default="runs/sweep-10M",
        help="sweep the count is refitted on (made by `tarotsim sweep --deals 10000000 --seed 2024 --out runs/sweep-10M`)",
    )
    parser.add_argument("--sample", type=int, default=1_000_000, help="deals sampled from the sweep")
    parser.add_argument("--sample-seed", type=int, default=0)
    parser.add_argument(
        "--bidders", type=Path, default=REPORTS, help="folder of the learned bidders' files, bidder-<n>p.json"
    )
    parser.add_argument("--speed-deals", type=int, default=10_000, help="deals per speed measurement")
    parser.add_argument("--repeats", type=int, default=5, help="rounds of the speed measurement")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the duels' deals")
    parser.add_argument("--out", type=Path, default=REPORTS / "bidding.md")
    args = parser.parse_args()
    started = time.perf_counter()
    cpu_started = time.process_time()
    stop = stop_time(args.stop_at)
    folder = os.path.relpath(args.bidders, ROOT) if args.bidders.is_absolute() else str(args.bidders)
    asked = [int(x) for x in args.players.split(",")]
    sizes = [n for n in asked if n == PLAYERS or bidder_path(args.bidders, n).exists()]
    bidders = {n: load_bidder(bidder_path(args.bidders, n)) for n in sizes}
    for n, bidder in bidders.items():
        bidder.check(n, path=bidder_path(args.bidders, n))
    jobs = {
        n: duel_jobs(
            strategies(bidder_path(args.bidders, n)),
            n,
            args.deals,
            args.mc_deals,
            args.seed,
            args.chunk_deals,
            args.cache,
        )
        for n in sizes
    }
    puzzle = puzzle_jobs(args, sizes)
    with using_threads(args.threads or numba.config.NUMBA_NUM_THREADS):
        run_jobs(
            [j for n in sizes for j in jobs[n] if MONTECARLO not in (j.a, j.b)],
            None,
            "learned against chavey",
        )
        run_jobs([j for j in jobs[sizes[0]] if MONTECARLO in (j.a, j.b)], None, f"{sizes[0]} players")
        run_jobs(puzzle, stop, "the puzzle's duels")
        run_jobs([j for n in sizes[1:] for j in jobs[n] if MONTECARLO in (j.a, j.b)], stop, "the other sizes")
    ordered = [j for n in sorted(sizes) for j in jobs[n]]
    edge_lines, detail, results = duel_lines(ordered)
    edge_lines = list(EDGE_HEADER) + edge_lines
    puzzle_text = puzzle_section(puzzle, results, args)
    duel_cpu = sum(j.cpu for j in ordered + puzzle)
    cached_cpu = sum(j.cached_cpu for j in ordered + puzzle)
    count_lines, verdicts = count_section(args.sweep, args.sample, args.sample_seed)
    specs = strategies(bidder_path(args.bidders, PLAYERS))
    speed_lines = speed_section(specs, args.speed_deals, args.repeats, args.seed)
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"
    about = machine()
    command = (
        f"nice -n 5 .venv/bin/python benchmarks/bench_bidding.py --deals {args.deals} --mc-deals {args.mc_deals} "
        f"--players {args.players} --threads {args.threads} --chunk-deals {args.chunk_deals} "
        + (f"--cache {args.cache} " if args.cache else "")
        + (f"--stop-at {args.stop_at} " if args.stop_at else "")
        + f"--puzzle-deals {args.puzzle_deals} --worlds-deals {args.worlds_deals} "
        f"--sweep {args.sweep} --sample {args.sample} --sample-seed {args.sample_seed} --bidders {folder} "
        f"--speed-deals {args.speed_deals} --repeats {args.repeats} --seed {args.seed}"
    )
    sources = [
        f"  - {n} players: `{bidder_path(Path(folder), n)}`, fitted on {b.source.get('sample', 0):,} deals "
        f"sampled (seed {b.source.get('sample_seed')}) from the {b.source.get('deals', 0):,}-deal sweep "
        f"`{b.source.get('run')}` (seed {b.source.get('seed')}; `tarotsim sweep --deals {b.source.get('deals')} "
        f"--players {n} --seed {b.source.get('seed')} --out DIR` makes it again);"
        for n, b in bidders.items()
    ]
    missing = [n for n in SIZES if n not in bidders]
    left_out = (
        f"No bidder file at {', '.join(map(str, missing))} players, so those duels are left out."
        if missing
        else "Every table size has its bidder file."
    )
    montecarlo = (
        "`montecarlo` is among the bid policies, so its duels are in the table."
        if MONTECARLO in specs
        else "`montecarlo` is not among this tarotsim's bid policies (`players.policies.BID_POLICIES`), so its duels "
        "are left out; the script adds them once it is."
    )
    made_by = {}
    for run in dict.fromkeys([args.sweep] + [str(b.source.get("run")) for b in bidders.values()]):
        try:
            made_by[run] = json.loads((Path(run) / "manifest.json").read_text())["run"]["tarotsim"]
        except (OSError, ValueError, KeyError):
            made_by[run] = "an unknown version (no manifest here)"
    versions_made = ", ".join(f"`{run}` {version}" for run, version in made_by.items())
    same_play = all(version in HEURISTIC_PLAY_VERSIONS for version in made_by.values())
    tally = "; ".join(
        f"{c}: " + ", ".join(f"{n} {v}" for v, n in sorted(verdicts[c].items())) for c in CONTRACTS
    )
    text = [
        "# Bidding: the learned bidder against Chavey's count, in duplicate duels",
        "",
        f"Written by `{command}` in {time.perf_counter() - started:.0f} s "
        f"({time.process_time() - cpu_started:.0f} CPU s of this process) on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in about.items()) + f" (load average {load} at the end).",
        "",
        "## The bidders",
        "",
        "- `chavey`: Chavey's count against the published bands (40/56/71/81 at 4 players, scaled by",
        "  the cards in a hand at 3 and 5; the distribution bonus for Garde sans and Garde contre).",
        "- `learned`: a bidder file (`tarotsim fit-bidder`): per contract, the taker's score regressed on",
        "  the dealt-hand features by OLS; it wishes the contract with the highest predicted score, and",
        "  passes when none is above 0. One file per table size:",
        *sources,
        f"  {left_out}",
        f"- {montecarlo}",
        "",
        "Every seat plays the heuristic with the expert écart; a seat bids its wish only if it beats the",
        "bid so far (docs/rules.md §3).",
        "",
        "## Duels",
        "",
        "A duel plays every deal once with A in each seat and B in the others, on the same cards",
        "(`tarotsim.duel`). A's edge is its mean score per deal over the rotations, in game points;",
        f"the interval is 95%, {INTERVAL} (deals are independent; the rotations of a deal are",
        '"paired" inside it). "takes %" is how often a seat of A (of B) takes; "made %" the success',
        f"rate of those takes. Every duel uses the same deals (seed {args.seed}).",
        "",
        f"Each duel is computed in chunks of {args.chunk_deals:,} deals on {args.threads or numba.config.NUMBA_NUM_THREADS} "
        f"thread(s), {duel_cpu:,.0f} CPU s for the chunks computed by this run"
        + (
            f"; the chunks found in the cache were read, not computed again ({cached_cpu:,.0f} CPU s when they "
            "were computed, one thread each)"
            if args.cache
            else ""
        )
        + ". A deal's cards and random stream follow the seed and the deal's number only, so the first",
        "k deals of a duel are the same whatever its length: a duel stopped at `--stop-at` is a duel on",
        'its first k deals, and its "deals" cell says "k of N" then.',
        "",
        *edge_lines,
        "",
        "Which contract each bidder takes, how often (% of its seats' deals), its success rate and",
        "its mean score as taker (game points):",
        "",
        *detail,
        *puzzle_text,
        f"## Chavey's count refitted on `{args.sweep}`",
        "",
        f"{args.sample:,} deals sampled (seed {args.sample_seed}) from the sweep, seat 0's hand dealt again",
        "from the run's seed and checked against the recorded Chavey count; each contract's taker score",
        "regressed on the features by OLS (statsmodels, HC1 covariance), scaled so that the 21 is worth 10;",
        "95% intervals by the delta method. Chavey's weight is his published one (— where he has none:",
        "the voids and singletons below Garde sans); his count also adds 2 for the 21 as a major trump,",
        "so his 21 is worth 12 in all. Verdicts (the published weight inside or outside the interval):",
        tally + ".",
        "",
        *count_lines,
        "",
        f"## Speed, {args.speed_deals:,} deals, one thread",
        "",
        "`simulate` with every seat on one bidder, the bidders timed in turn in each round; deals",
        "per CPU second of the best round, and each bidder's speed relative to `chavey` in the same",
        "round (median over rounds). The machine is shared, so CPU time is what counts. A deal that",
        "every seat passes is not played, so a bidder that passes more often runs faster for that",
        'alone: "deals played %" says how often the deals were played under each bidder.',
        "",
        *speed_lines,
        "",
        "## Remaining biases",
        "",
        "- The learned bidder is fitted on a sweep where seat 0 takes and the others defend with the",
        "  heuristic: it predicts the score of a taker whom nobody outbids; in a real auction a seat",
        "  that passes may still defend against a bid from another seat, which the fit does not see.",
        "- The duels' deals (seed above) are not those of the sweeps the bidders were fitted on (their",
        "  seeds differ): the edges are measured out of sample.",
        "- The count's regression is linear in the features Chavey scores; interactions he does not",
        "  score (e.g. long trumps with a void) are left out of both.",
        f"- The duels are played by tarotsim {tarotsim.__version__}'s heuristic; the sweeps the bidders and the",
        f"  count were fitted on were made by (their manifests) {versions_made}: {'the same play' if same_play else 'another play (the heuristic changed in 0.2.0), so the bidders predict the scores of a slightly different play'}.",
        "- The montecarlo bidder's own rule (Chavey's count for the earlier speakers) is fixed; the",
        "  duels measure it as it is, not the best a Monte Carlo bidder could do.",
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(text), encoding="utf-8")
    print(f"wrote {args.out}")
    print(json.dumps({"seconds": round(time.perf_counter() - started)}))


if __name__ == "__main__":
    main()
