"""One hand, analysed: should this hand pass, or bid Prise, Garde, Garde sans or Garde contre?

[`analyse_hand`][tarotsim.hand.analyse_hand] deals the unseen cards again ``deals`` times, uniformly given the hand
(``tarotsim.dealing``: the same deals as ``deal(deals, fixed={0: hand}, seed=seed)``), and
plays every deal once per contract with the hand's seat as the taker, as a sweep does (the
same cards and random stream under every contract), every seat playing ``strategy``. For
passing (score 0) and each contract it gives the success rate, the mean taker score and the
chance of losing more than 100 points, each with a 95 % interval:

- rates (success, a loss over 100): Wilson score intervals
  ([`tarotsim.analysis.intervals.wilson_interval`][tarotsim.analysis.intervals.wilson_interval]);
- mean scores: Student's t interval, ``mean ± t(0.975, n − 1) · sd / sqrt(n)``;
- the best choice against the runner-up: the paired interval of their per-deal score
  differences, as [`tarotsim.analysis.best_contract`][tarotsim.analysis.best_contract] makes it (which is called here);
  the choice is *decided* when that interval lies above 0.

Deals where another seat is dealt the Petit alone (a petit sec) are thrown in at a table and
left out; their number is reported. It also gives Chavey's count of the hand, with and
without the distribution bonus, and what the ``chavey``, ``learned`` (given a bidder file)
and ``montecarlo`` bidders wish from this seat.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tarotsim.analysis.best import best_contract
from tarotsim.analysis.intervals import Z95, wilson_interval
from tarotsim.analysis.tables import interval_text, number_text
from tarotsim.cards import format_cards, parse_cards, to_mask
from tarotsim.config import RunConfig, check_count, make_config
from tarotsim.dealing import check_players, fixed_words
from tarotsim.defaults import HAND_DEALS as DEFAULT_DEALS
from tarotsim.kernels.chavey import distribution_points, hand_points
from tarotsim.kernels.deal import is_petit_sec
from tarotsim.kernels.dealing import N_FIXED
from tarotsim.kernels.hand import montecarlo_totals, seat_wish
from tarotsim.kernels.state import C_DEALER, C_FIXED, C_FIXED_ON
from tarotsim.labels import CONTRACT_NAMES, CONTRACTS, ThrownIn, parse_contract
from tarotsim.run.engine import play_deals, using_threads
from tarotsim.run.files import write_atomic, write_text_atomic
from tarotsim.run.records import to_frame
from tarotsim.run.seeding import SeedLike, resolve_seed, run_key
from tarotsim.strategy import Strategy, to_strategy

SEAT = 0
"""The seat the hand is put in; its position in the auction is set by the dealer."""
PASS = CONTRACT_NAMES[0]
BIG_LOSS = 100
"""The loss (game points) whose chance is reported: the taker scores below minus this."""


def parse_hand(hand: str | Iterable[str], players: int) -> list[int]:
    """The card ids of a hand as dealt at `players` players.

    Card names are read by [`tarotsim.cards.parse_cards`][tarotsim.cards.parse_cards] (English or French notation).

    Raises
    ------
    ValueError
        Naming the cards given more than once, or saying how many cards are missing or too
        many for the table.
    """
    hand_size, _ = check_players(players)
    cards = parse_cards(hand, what="hand")
    if len(cards) != hand_size:
        short = hand_size - len(cards)
        what = f"{short} card{'s' * (short != 1)} missing" if short > 0 else f"{-short} too many"
        raise ValueError(f"a hand at {players} players holds {hand_size} cards, got {len(cards)}: {what}")
    return cards


def strategy_of(strategy: Strategy | str | None) -> Strategy:
    """The strategy of every seat: a [`Strategy`][tarotsim.strategy.Strategy], a spec, or None
    for the default one (heuristic card play, the expert écart, Chavey's bids)."""
    if strategy is None:
        return Strategy()
    if isinstance(strategy, str):
        return Strategy.parse(strategy)
    return to_strategy(strategy)


@dataclass(frozen=True)
class HandAnalysis:
    """The result of [`analyse_hand`][tarotsim.hand.analyse_hand].

    Attributes
    ----------
    hand : list of str
        The hand's cards (sorted names).
    players : int
    position : int or None
        The seat's turn to speak (0 first, players − 1 the dealer), None: every position in turn.
    strategy : str
        Every seat's strategy (its spec).
    seed : int
    deals : int
        Deals played (thrown-in deals left out).
    thrown_in : int
        Deals thrown in because another seat held the Petit alone.
    contracts : pandas.DataFrame
        One row per choice (``pass`` then the contracts): ``contract``, ``rate``,
        ``rate_low``, ``rate_high`` (success, fraction), ``mean``, ``mean_low``,
        ``mean_high`` (taker score, game points), ``loss``, ``loss_low``, ``loss_high``
        (chance of scoring below −100). Passing scores 0 and has no success rate (NaN).
    best, runner_up : str
        The choice with the highest mean score, and the next one.
    diff, diff_low, diff_high : float
        Paired mean difference best − runner-up and its 95 % interval (game points).
    decided : bool
        Whether that interval lies above 0 ([`tarotsim.analysis.best_contract`][tarotsim.analysis.best_contract]).
    chavey, chavey_distribution : int
        Chavey's count, without and with the distribution bonus.
    bids : dict
        Bidder name → the contract it wishes from this seat (``pass`` or a contract),
        speaking at `position` (first when None) after seats that all passed; the
        ``montecarlo`` bidder decides on the stream of deal 0 of the seed.
    montecarlo_means : dict
        The ``montecarlo`` bidder's mean playout score by contract, and ``worlds``.
    scores : pandas.DataFrame
        The taker's score on each played deal (rows) under each contract (columns).
    """

    hand: list[str]
    players: int
    position: int | None
    strategy: str
    seed: int
    deals: int
    thrown_in: int
    contracts: pd.DataFrame
    best: str
    runner_up: str
    diff: float
    diff_low: float
    diff_high: float
    decided: bool
    chavey: int
    chavey_distribution: int
    bids: dict[str, str] = field(default_factory=dict)
    montecarlo_means: dict[str, float] = field(default_factory=dict)
    scores: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``tarotsim hand --json`` (NaN written as null)."""

        def clean(value: Any) -> Any:
            if isinstance(value, (float, np.floating)):
                return None if math.isnan(value) else float(value)
            if isinstance(value, (np.integer,)):
                return int(value)
            if isinstance(value, (np.bool_,)):
                return bool(value)
            return value

        rows = [{k: clean(v) for k, v in row.items()} for row in self.contracts.to_dict("records")]
        return {
            "hand": " ".join(self.hand),
            "players": self.players,
            "position": self.position,
            "strategy": self.strategy,
            "seed": self.seed,
            "deals": self.deals,
            "thrown_in": self.thrown_in,
            "contracts": rows,
            "best": self.best,
            "runner_up": self.runner_up,
            "diff": clean(self.diff),
            "diff_low": clean(self.diff_low),
            "diff_high": clean(self.diff_high),
            "decided": bool(self.decided),
            "chavey": self.chavey,
            "chavey_distribution": self.chavey_distribution,
            "bids": dict(self.bids),
            "montecarlo_means": {k: clean(v) for k, v in self.montecarlo_means.items()},
        }

    def to_json(self) -> str:
        """[`to_dict`][tarotsim.hand.HandAnalysis.to_dict] as JSON text."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def text(self) -> str:
        """The analysis as the command line prints it."""
        where = "every position in turn" if self.position is None else f"position {self.position}"
        lines = [
            f"hand: {' '.join(self.hand)}",
            f"{self.players} players, {where}; every seat plays {self.strategy}",
            f"{self.deals:,} deals of the unseen cards (seed {self.seed}; {self.thrown_in} thrown in "
            "for a petit sec, left out)",
            "",
            f"{'choice':<13} {'success (95%)':<22} {'mean score (95%)':<26} {'loses > 100 (95%)'}",
        ]
        for row in self.contracts.itertuples(index=False):
            rate = (
                "-"
                if math.isnan(row.rate)
                else f"{row.rate:6.1%} ({row.rate_low:.1%} to {row.rate_high:.1%})"
            )
            mean = f"{number_text(row.mean, '+7.1f')} ({interval_text(row.mean_low, row.mean_high, '+.1f')})"
            loss = f"{row.loss:6.1%} ({row.loss_low:.1%} to {row.loss_high:.1%})"
            lines.append(f"{row.contract:<13} {rate:<22} {mean:<26} {loss}")
        verdict = "decided" if self.decided else "not decided"
        lines += [
            "",
            f"best: {self.best} ({verdict}: {self.best} − {self.runner_up} = {self.diff:+.1f} points a deal, "
            f"95% paired interval {interval_text(self.diff_low, self.diff_high, '+.1f')})",
            f"Chavey's count: {self.chavey} ({self.chavey_distribution} with the distribution bonus)",
            "bidders from this seat: " + ", ".join(f"{name} {bid}" for name, bid in self.bids.items()),
        ]
        if self.montecarlo_means:
            worlds = int(self.montecarlo_means.get("worlds", 0))
            means = ", ".join(f"{c} {v:+.1f}" for c, v in self.montecarlo_means.items() if c != "worlds")
            lines.append(f"  montecarlo playout means over {worlds} worlds: {means}")
        lines += [
            "",
            "intervals: Wilson for rates, Student's t for mean scores, paired normal for best − runner-up",
        ]
        return "\n".join(lines)

    def write_page(self, directory: str | os.PathLike[str]) -> Path:
        """Write ``hand.md`` and its figure ``scores.png`` (the score distribution of each
        contract) into `directory`; returns the page's path."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        fig, ax = plt.subplots(figsize=(7, 4))
        low = float(np.nanmin(self.scores.to_numpy())) if len(self.scores) else -1.0
        high = float(np.nanmax(self.scores.to_numpy())) if len(self.scores) else 1.0
        bins = np.linspace(min(low, -1.0), max(high, 1.0), 41).tolist()
        for contract in self.scores.columns:
            ax.hist(self.scores[contract].dropna(), bins=bins, histtype="step", label=contract, linewidth=1.5)
        ax.axvline(0, color="grey", linewidth=0.8)
        ax.set_xlabel("taker score (game points)")
        ax.set_ylabel("deals")
        ax.set_title("Score of the hand's seat, by contract")
        ax.legend()
        fig.tight_layout()
        write_atomic(out / "scores.png", lambda tmp: fig.savefig(tmp, format="png", dpi=100))
        plt.close(fig)
        table = ["| choice | success | 95% | mean score | 95% | loses > 100 |", "|---|---|---|---|---|---|"]
        for row in self.contracts.itertuples(index=False):
            rate = "–" if math.isnan(row.rate) else f"{row.rate:.1%}"
            band = "–" if math.isnan(row.rate) else f"{row.rate_low:.1%} – {row.rate_high:.1%}"
            table.append(
                f"| {row.contract} | {rate} | {band} | {row.mean:+.1f} | {row.mean_low:+.1f} – "
                f"{row.mean_high:+.1f} | {row.loss:.1%} |"
            )
        page = "\n".join(
            [
                "# One hand, analysed",
                "",
                "```text",
                self.text(),
                "```",
                "",
                *table,
                "",
                "![Score of the hand's seat, by contract](scores.png)",
                "",
            ]
        )
        path = out / "hand.md"
        write_text_atomic(path, page)
        return path


def _mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())
    if n < 2:
        return mean, math.nan, math.nan
    from scipy import stats

    half = float(stats.t.ppf(0.975, n - 1)) * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def _table(scores: pd.DataFrame, made: pd.DataFrame) -> pd.DataFrame:
    rows = []
    n = len(scores)
    rows.append({"contract": PASS, "rate": math.nan, "rate_low": math.nan, "rate_high": math.nan})
    rows[0] |= {
        "mean": 0.0,
        "mean_low": 0.0,
        "mean_high": 0.0,
        "loss": 0.0,
        "loss_low": 0.0,
        "loss_high": 0.0,
    }
    for contract in scores.columns:
        values = scores[contract].to_numpy(dtype=float)
        wins = int(made[contract].sum())
        losses = int((values < -BIG_LOSS).sum())
        rate_low, rate_high = wilson_interval(wins, n)
        loss_low, loss_high = wilson_interval(losses, n)
        mean, mean_low, mean_high = _mean_interval(values)
        rows.append(
            {
                "contract": contract,
                "rate": wins / n,
                "rate_low": float(rate_low),
                "rate_high": float(rate_high),
                "mean": mean,
                "mean_low": mean_low,
                "mean_high": mean_high,
                "loss": losses / n,
                "loss_low": float(loss_low),
                "loss_high": float(loss_high),
            }
        )
    return pd.DataFrame(rows)


def hand_config(strategy: Strategy, players: int, cards: list[int], position: int | None) -> np.ndarray:
    """The run configuration of the analysis: every seat plays `strategy`, the hand's seat
    (`SEAT`) takes and is given `cards`, and deals the dealer of `position` (None:
    deal ``i`` is dealt by ``i % players``)."""
    config = make_config(None, {"players": players, "strategies": (strategy,) * players})
    cfg = replace(config, forced_taker=SEAT, forced_contract=CONTRACTS[0]).to_array()
    cfg[C_FIXED : C_FIXED + N_FIXED] = fixed_words({SEAT: [format_cards([c])[0] for c in cards]}, players)
    cfg[C_FIXED_ON] = 1
    if position is not None:
        cfg[C_DEALER] = 1 + dealer_of(position, players)
    return cfg


def dealer_of(position: int, players: int) -> int:
    """The dealer that makes `SEAT` speak at `position` (0: first, after the dealer)."""
    return (SEAT - position - 1) % players


def _bids(
    word0: np.uint64, word1: np.uint64, players: int, position: int | None, bidder: str | None, seed: int
) -> tuple[dict[str, str], dict[str, float]]:
    bids: dict[str, str] = {}
    chavey = RunConfig(players=players).to_array()
    bids["chavey"] = CONTRACT_NAMES[seat_wish(word0, word1, chavey, SEAT)]
    if bidder is not None:
        learned = RunConfig(players=players, bid_policy="learned", bidder=bidder).to_array()
        bids["learned"] = CONTRACT_NAMES[seat_wish(word0, word1, learned, SEAT)]
    strategy = Strategy(bid="montecarlo", ecart="expert")
    cfgs = RunConfig(players=players, strategies=(strategy,) * players).to_array()[None, :]
    totals = np.zeros(len(CONTRACT_NAMES), dtype=np.int64)
    dealer = dealer_of(0 if position is None else position, players)
    worlds = montecarlo_totals(word0, word1, cfgs, SEAT, dealer, run_key(seed), 0, totals)
    means = {c: totals[1 + i] / worlds for i, c in enumerate(CONTRACTS)} if worlds else {}
    wish = 0
    if worlds:
        best = 0
        for code in range(1, len(CONTRACT_NAMES)):
            if totals[code] > best:
                best, wish = int(totals[code]), code
    bids["montecarlo"] = CONTRACT_NAMES[wish]
    return bids, {**means, "worlds": float(worlds)}


def analyse_hand(
    hand: str | Iterable[str],
    *,
    players: int = 4,
    position: int | None = None,
    strategy: Strategy | str | None = None,
    deals: int = DEFAULT_DEALS,
    seed: SeedLike = 0,
    bidder: str | os.PathLike[str] | None = None,
    threads: int | None = None,
) -> HandAnalysis:
    """Analyse one hand: the outcome of passing and of each contract, over deals of the unseen cards.

    Parameters
    ----------
    hand : str or iterable of str
        The hand's cards, e.g. ``"T21 T18 T15 T12 T9 T7 T4 T2 EX KH QH 5H KS 8S 3S 9D 2D 4C"``
        (English or French notation, [`tarotsim.cards`][tarotsim.cards]).
    players : int, optional
        3, 4 or 5 (default 4).
    position : int, optional
        The seat's turn to speak: 0 speaks first (and leads the first trick), ``players − 1``
        is the dealer. Default: every position in turn (deal ``i`` is dealt by seat ``i % players``).
    strategy : Strategy or str, optional
        Every seat's strategy; a spec is read over heuristic play and the expert écart
        (``play=pimc`` keeps the expert écart). Default: heuristic play, expert écart.
    deals : int, optional
        Deals of the unseen cards (default 2,000).
    seed : int, numpy.random.Generator or None, optional
        The same seed gives the same deals and results.
    bidder : str or path, optional
        A ``learned`` bidder file (``tarotsim fit-bidder``): its wish is reported too.
    threads : int, optional
        Threads to use (default: all).

    Returns
    -------
    HandAnalysis

    Raises
    ------
    ValueError
        For a wrong hand (naming repeated cards, or how many are missing), a petit sec
        (thrown in: nothing to analyse), a position off the table, or a bad strategy.
    """
    cards = parse_hand(hand, players)
    if position is not None:
        if (
            isinstance(position, bool)
            or not isinstance(position, (int, np.integer))
            or not 0 <= position < players
        ):
            raise ValueError(
                f"position must be 0 (first to speak) to {players - 1} (the dealer), got {position!r}"
            )
        position = int(position)
    deals = check_count(deals, "deals", minimum=1)
    chosen = strategy_of(strategy)
    chosen.check(players)
    word0, word1 = to_mask(cards)
    if is_petit_sec(word1):
        raise ValueError("this hand holds the Petit alone (a petit sec): the deal is thrown in")
    used_seed = resolve_seed(seed)
    cfg = hand_config(chosen, players, cards, position)
    codes = np.array([parse_contract(c) for c in CONTRACTS], dtype=np.int64)
    with using_threads(threads):
        rec = play_deals(0, deals, run_key(used_seed), cfg, contracts=codes)
    frame = to_frame(rec, 0, players, per_deal=len(codes), hand_known=True)
    played = frame[frame["thrown_in"] == ThrownIn.NONE.label]
    n_thrown = deals - played["deal"].nunique()
    if played.empty:
        raise ValueError("every deal was thrown in for a petit sec: deal more")
    scores = played.pivot(index="deal", columns="contract", values="taker_score").astype(float)
    made = played.pivot(index="deal", columns="contract", values="made").astype(bool)
    scores.columns = scores.columns.astype(str)
    made.columns = made.columns.astype(str)
    table = _table(scores, made)
    best = best_contract(frame, by="taker_bouts", min_n=30, z=Z95).iloc[0]
    bids, mc_means = _bids(
        word0, word1, players, position, None if bidder is None else os.fspath(bidder), used_seed
    )
    return HandAnalysis(
        hand=format_cards(cards),
        players=players,
        position=position,
        strategy=str(chosen),
        seed=used_seed,
        deals=len(scores),
        thrown_in=int(n_thrown),
        contracts=table,
        best=str(best["best"]),
        runner_up=str(best["runner_up"]),
        diff=float(best["diff"]),
        diff_low=float(best["diff_low"]),
        diff_high=float(best["diff_high"]),
        decided=bool(best["decided"]),
        chavey=int(hand_points(word0, word1)),
        chavey_distribution=int(hand_points(word0, word1) + distribution_points(word0)),
        bids=bids,
        montecarlo_means=mc_means,
        scores=scores,
    )
