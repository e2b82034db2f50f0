"""One hand, analysed: should this hand pass, or bid Prise, Garde, Garde sans or Garde contre,
and should it announce the chelem?

`analyse_hand` deals the unseen cards again ``deals`` times, uniformly given the hand
(``tarotsim.engine.dealing``: the same deals as ``deal(deals, fixed={0: hand}, seed=seed)``), and
plays every deal once per choice with the hand's seat as the taker, as a sweep does (the
same cards and random stream under every choice), every seat playing ``strategy``. The
choices are passing (score 0), each contract without announcing the chelem, and each
contract with the chelem announced where a trial shows the hand can make it (`TRIAL_DEALS`).
For each it gives the success rate, the mean taker score, the chance of losing more than
100 points and the chance of winning every trick, each with a 95 % interval:

- rates: Wilson score intervals (`tarotsim.base.intervals.wilson_interval`);
- mean scores: Student's t interval, ``mean ± t(0.975, n − 1) · sd / sqrt(n)``;
- the best choice (highest mean score, ties to the choice listed first, as
  `tarotsim.analysis.best.rank_choices` ranks them) against the runner-up: the paired
  normal interval of their per-deal score differences
  (`tarotsim.base.intervals.paired_interval`). The choice is *decided* when that
  interval lies above 0 and at least `MIN_DEALS` deals were played. When the two are
  *the same play* (two contracts, both announcing or both not, whose attack ends every deal
  with the same points, bouts and result: Prise and Garde when the card play ignores the
  contract) they differ only by the multiplier, so the per-deal difference is the multiplied
  part of their score (poignées and chelem bonus, not multiplied, cancel) times the
  difference of the multipliers: the higher contract is better exactly when that part is
  positive on average, and the same interval settles it (`REASONS`).

Deals where another seat is dealt the Petit alone (a petit sec) are thrown in at a table and
left out; their number is reported. It also gives Chavey's count of the hand, with and
without the distribution bonus, the card the taker calls (5 players), and what the
``chavey``, ``learned`` (given a bidder file) and ``montecarlo`` bidders wish from this seat.
The hand and the cards named are written in the hand's own notation (English or French,
`tarotsim.engine.cards.notation_of`) unless another is asked for.
"""

from __future__ import annotations

import json
import math
import os
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tarotsim.analysis.best import rank_choices
from tarotsim.analysis.same_play import play_keys
from tarotsim.analysis.tables import interval_text, number_text
from tarotsim.base.defaults import HAND_DEALS as DEFAULT_DEALS
from tarotsim.base.files import folder_written, write_atomic, write_text_atomic
from tarotsim.base.intervals import Z95, paired_interval, wilson_interval
from tarotsim.base.seeding import SeedLike, resolve_seed, run_key
from tarotsim.engine.cards import check_notation, format_cards, notation_of, parse_cards, to_mask
from tarotsim.engine.dealing import check_players, fixed_words
from tarotsim.engine.kernels.chavey import distribution_points, hand_points
from tarotsim.engine.kernels.deal import is_petit_sec
from tarotsim.engine.kernels.dealing import N_FIXED
from tarotsim.engine.kernels.state import (
    C_DEALER,
    C_FIXED,
    C_FIXED_ON,
    C_PLAYERS,
    P_CHELEM_POLICY,
    P_CHELEM_THRESHOLD,
    seat_slot,
)
from tarotsim.engine.labels import CONTRACT_NAMES, CONTRACTS, MULTIPLIERS, Side, ThrownIn, parse_contract
from tarotsim.engine.records import to_frame
from tarotsim.interfaces.python_players import play_step_by_step
from tarotsim.players import policies as R
from tarotsim.players.config import RunConfig, check_count, make_config
from tarotsim.players.kernels.hand import montecarlo_totals, seat_wish
from tarotsim.players.strategy import POLICY_DEFAULTS, Strategy, to_strategy
from tarotsim.runs.runner import config_rows, play_deals, using_threads

SEAT = 0
"""The seat the hand is put in; its position in the auction is set by the dealer."""
PASS = CONTRACT_NAMES[0]
BIG_LOSS = 100
"""The loss (game points) whose chance is reported: the taker scores below minus this."""
CHELEM_SUFFIX = "+chelem"
"""A choice that announces the chelem is named after its contract and this: ``garde+chelem``."""
TRIAL_DEALS = 50
"""Announcing the chelem is first played under every contract on this many deals (the first
ones; all of them when fewer) and offered under a contract only when it was made on one of
them. It can pay only when made at least a third of the time (docs/rules.md §8: +400 made,
−200 missed, against at most +200 unannounced); a hand that makes it a third of the time
misses it on 50 deals in a row with probability (2/3)^50 ≈ 1.6e-9."""
MIN_DEALS = 30
"""With fewer played deals the best choice is never decided (``min_n`` of
`tarotsim.analysis.best_contract`)."""
WIDTH = 100
"""The widest line `HandAnalysis.text` prints (characters)."""
REASONS = (
    "interval above 0",
    "interval reaches 0",
    "same play, interval above 0",
    "same play, interval reaches 0",
    f"fewer than {MIN_DEALS} deals",
)
"""Why the best choice is decided or not (``HandAnalysis.reason``): the paired interval of
best − runner-up lies above 0 (decided) or reaches 0; ``same play``: the two are the same
play and differ by their multipliers only (the module's docstring); too few deals."""


def parse_hand(hand: str | Iterable[str], players: int) -> list[int]:
    """The card ids of a hand as dealt at `players` players.

    Card names are read by `tarotsim.engine.cards.parse_cards` (English or French notation).

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
    """The strategy of every seat: a `Strategy`, a spec, or None
    for the default one (heuristic card play, the expert écart, Chavey's bids)."""
    if strategy is None:
        return Strategy()
    if isinstance(strategy, str):
        return Strategy.parse(strategy)
    return to_strategy(strategy)


@dataclass(frozen=True)
class HandAnalysis:
    """The result of `analyse_hand`.

    Attributes
    ----------
    hand : list of str
        The hand's cards (sorted names, in `notation`).
    notation : str
        The notation of the cards named: ``"english"`` (``KS``) or ``"french"`` (``RP``).
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
        One row per choice (``pass``, the contracts, then the contracts with the chelem
        announced where offered): ``choice`` (its name), ``contract``, ``chelem_announced``
        (bool), ``rate``, ``rate_low``, ``rate_high`` (the contract made, fraction),
        ``mean``, ``mean_low``, ``mean_high`` (taker score, game points), ``loss``,
        ``loss_low``, ``loss_high`` (chance of scoring below −100), ``chelem``,
        ``chelem_low``, ``chelem_high`` (chance that the attack wins every trick). Passing
        scores 0 and has no success or chelem rate (NaN).
    best, runner_up : str
        The choice with the highest mean score, and the next one.
    diff, diff_low, diff_high : float
        Paired mean difference best − runner-up and its 95 % interval (game points).
    decided : bool
        Whether the choice is settled: at least `MIN_DEALS` deals and that interval
        above 0.
    same_play : bool
        Whether best and runner-up are the same play, multipliers apart (module docstring).
    reason : str
        Why it is decided or not, one of `REASONS`.
    chelem_trial : dict
        The trial of the announced chelem (`TRIAL_DEALS`): ``deals`` played, and
        ``made``, the deals where it was made, by contract.
    called : dict or None
        5 players: the card the taker calls (name in `notation`) → deals; None otherwise.
    chavey, chavey_distribution : int
        Chavey's count, without and with the distribution bonus.
    bids : dict
        Bidder name → the contract it wishes from this seat (``pass`` or a contract),
        speaking at `position` (first when None) after seats that all passed; the
        ``montecarlo`` bidder decides on the stream of deal 0 of the seed.
    montecarlo_means : dict
        The ``montecarlo`` bidder's mean playout score by contract, and ``worlds``.
    scores : pandas.DataFrame
        The taker's score on each played deal (rows) under each choice but passing (columns).
    """

    hand: list[str]
    notation: str
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
    same_play: bool
    reason: str
    chelem_trial: dict[str, Any]
    called: dict[str, int] | None
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
            "notation": self.notation,
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
            "same_play": bool(self.same_play),
            "reason": self.reason,
            "chelem_trial": {"deals": self.chelem_trial["deals"], "made": dict(self.chelem_trial["made"])},
            "called": None if self.called is None else dict(self.called),
            "chavey": self.chavey,
            "chavey_distribution": self.chavey_distribution,
            "bids": dict(self.bids),
            "montecarlo_means": {k: clean(v) for k, v in self.montecarlo_means.items()},
        }

    def to_json(self) -> str:
        """`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def verdict(self) -> str:
        """The best choice, whether it is decided and why, in words (one paragraph)."""
        best, runner = self.best, self.runner_up
        interval = interval_text(self.diff_low, self.diff_high, "+.1f") or "not known"
        text = (
            f"best: {best}, {'decided' if self.decided else 'not decided'}: {best} − {runner} = "
            f"{number_text(self.diff, '+.1f')} points a deal, 95% interval {interval}"
        )
        if self.reason == REASONS[-1]:
            text += f"; fewer than {MIN_DEALS} deals never decide"
        elif self.decided:
            text += ", above 0"
        else:
            text += ", which reaches 0: deal more, or the two are worth the same"
        if self.same_play:
            low, high = sorted((best, runner), key=lambda choice: MULTIPLIERS[_contract_of(choice)])
            m_low, m_high = MULTIPLIERS[_contract_of(low)], MULTIPLIERS[_contract_of(high)]
            times = "" if m_high == 2 * m_low else f"{(m_high - m_low) / m_low:g} × "
            text += (
                f". {best} and {runner} are the same play (the same cards on every deal), so "
                f"{high} − {low} is {times}the {low}'s score less its poignées and chelem bonus: "
                f"{high} is better exactly when that is above 0 on average"
            )
        return text

    def text(self) -> str:
        """The analysis as the command line prints it, every line within `WIDTH` characters."""
        where = "every position in turn" if self.position is None else f"position {self.position}"
        lines = [
            f"hand: {' '.join(self.hand)}",
            f"{self.players} players, {where}; every seat plays {self.strategy}",
            f"{self.deals:,} deals of the unseen cards (seed {self.seed}; {self.thrown_in} thrown in "
            "for a petit sec, left out)",
        ]
        if self.called is not None:
            total = sum(self.called.values())
            calls = sorted(self.called.items(), key=lambda item: -item[1])
            if len(calls) == 1:
                lines.append(f"the taker calls {calls[0][0]} on every deal")
            else:
                shares = ", ".join(f"{card} on {count / total:.1%}" for card, count in calls)
                lines.append(f"the taker calls {shares} of the deals")
        header = ("choice", "success (95%)", "mean score (95%)", "loses > 100 (95%)")
        cells: list[tuple[str, ...]] = [header]
        table = self.contracts
        means = [number_text(mean, "+.1f") for mean in table["mean"]]
        mean_width = max(map(len, means))
        for row, mean in zip(table.itertuples(index=False), means, strict=True):
            rate = "-" if math.isnan(row.rate) else _rate_text(row.rate, row.rate_low, row.rate_high)
            mean_text = f"{mean.rjust(mean_width)} ({interval_text(row.mean_low, row.mean_high, '+.1f')})"
            cells.append((row.choice, rate, mean_text, _rate_text(row.loss, row.loss_low, row.loss_high)))
        widths = [max(len(cell[i]) for cell in cells) for i in range(len(header))]
        lines.append("")
        for cell in cells:
            lines.append(
                " ".join(text.ljust(width) for text, width in zip(cell, widths, strict=True)).rstrip()
            )
        lines += ["", self.verdict(), self._chelem_text()]
        lines += [
            f"Chavey's count: {self.chavey} ({self.chavey_distribution} with the distribution bonus)",
            "bidders from this seat: " + ", ".join(f"{name} {bid}" for name, bid in self.bids.items()),
        ]
        if self.montecarlo_means:
            worlds = int(self.montecarlo_means.get("worlds", 0))
            playouts = ", ".join(
                f"{c} {number_text(v, '+.1f')}" for c, v in self.montecarlo_means.items() if c != "worlds"
            )
            lines.append(f"  montecarlo playout means over {worlds} worlds: {playouts}")
        lines += [
            "",
            "intervals: Wilson for rates, Student's t for mean scores, paired normal for best − runner-up",
        ]
        wrapped = []
        for line in lines:
            if len(line) <= WIDTH:
                wrapped.append(line)
                continue
            indent = " " * (len(line) - len(line.lstrip()) + 2)
            wrapped += textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_on_hyphens=False)
        return "\n".join(wrapped)

    def _chelem_text(self) -> str:
        """What the chelem trial found, and how often each announced chelem was made."""
        trial, made = self.chelem_trial["deals"], self.chelem_trial["made"]
        announced = self.contracts[self.contracts["chelem_announced"]]
        if announced.empty:
            return f"chelem: not offered (announced, it was made on none of {trial} trial deals)"
        rates = ", ".join(
            f"{row.contract} {_rate_text(row.chelem, row.chelem_low, row.chelem_high).lstrip()}"
            for row in announced.itertuples(index=False)
        )
        left = [c for c in CONTRACTS if made[c] == 0]
        not_offered = (
            f"; not offered under {', '.join(left)} (made on none of {trial} trial deals)" if left else ""
        )
        return f"chelem made when announced (95%): {rates}{not_offered}"

    def write_page(self, directory: str | os.PathLike[str]) -> Path:
        """Write ``hand.md`` and its figure ``scores.png`` (the score distribution of each
        choice) into `directory`; returns the page's path. A failed write leaves nothing behind
        (`tarotsim.base.files.folder_written`)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        with folder_written(directory, what="the hand's folder") as out:  # a failed write leaves nothing
            fig, ax = plt.subplots(figsize=(7, 4))
            low = float(np.nanmin(self.scores.to_numpy())) if len(self.scores) else -1.0
            high = float(np.nanmax(self.scores.to_numpy())) if len(self.scores) else 1.0
            bins = np.linspace(min(low, -1.0), max(high, 1.0), 41).tolist()
            for choice in self.scores.columns:
                ax.hist(self.scores[choice].dropna(), bins=bins, histtype="step", label=choice, linewidth=1.5)
            ax.axvline(0, color="grey", linewidth=0.8)
            ax.set_xlabel("taker score (game points)")
            ax.set_ylabel("deals")
            ax.set_title("Score of the hand's seat, by choice")
            ax.legend()
            fig.tight_layout()
            write_atomic(out / "scores.png", lambda tmp: fig.savefig(tmp, format="png", dpi=100))
            plt.close(fig)
            table = [
                "| choice | success | 95% | mean score | 95% | loses > 100 |",
                "|---|---|---|---|---|---|",
            ]
            for row in self.contracts.itertuples(index=False):
                rate = "–" if math.isnan(row.rate) else f"{row.rate:.1%}"
                band = "–" if math.isnan(row.rate) else f"{row.rate_low:.1%} – {row.rate_high:.1%}"
                table.append(
                    f"| {row.choice} | {rate} | {band} | {row.mean:+.1f} | {row.mean_low:+.1f} – "
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
                    "![Score of the hand's seat, by choice](scores.png)",
                    "",
                ]
            )
            path = out / "hand.md"
            write_text_atomic(path, page)
            return path


def _rate_text(rate: float, low: float, high: float) -> str:
    """A rate and its interval: ``77.0% (75.2% to 78.8%)``."""
    return f"{rate:6.1%} ({low:.1%} to {high:.1%})"


def _contract_of(choice: str) -> str:
    """The contract of a choice's name (``garde+chelem`` → ``garde``)."""
    return choice.removesuffix(CHELEM_SUFFIX)


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


def _table(scores: pd.DataFrame, made: pd.DataFrame, chelem: pd.DataFrame) -> pd.DataFrame:
    """The table of choices: passing, then every column of `scores` (a choice; `made` and
    `chelem`: bool, the contract made and every trick won by the attack, deal by deal)."""
    n = len(scores)
    nan = math.nan
    rows: list[dict[str, Any]] = [
        {
            "choice": PASS,
            "contract": PASS,
            "chelem_announced": False,
            "rate": nan,
            "rate_low": nan,
            "rate_high": nan,
            "mean": 0.0,
            "mean_low": 0.0,
            "mean_high": 0.0,
            "loss": 0.0,
            "loss_low": 0.0,
            "loss_high": 0.0,
            "chelem": nan,
            "chelem_low": nan,
            "chelem_high": nan,
        }
    ]

    def rate(name: str, count: int) -> dict[str, float]:
        low, high = wilson_interval(count, n)
        return {name: count / n, f"{name}_low": float(low), f"{name}_high": float(high)}

    for choice in scores.columns:
        values = scores[choice].to_numpy(dtype=float)
        mean, mean_low, mean_high = _mean_interval(values)
        rows.append(
            {
                "choice": choice,
                "contract": _contract_of(choice),
                "chelem_announced": choice.endswith(CHELEM_SUFFIX),
                **rate("rate", int(made[choice].sum())),
                "mean": mean,
                "mean_low": mean_low,
                "mean_high": mean_high,
                **rate("loss", int((values < -BIG_LOSS).sum())),
                **rate("chelem", int(chelem[choice].sum())),
            }
        )
    return pd.DataFrame(rows)


def _compare(scores: pd.DataFrame, plays: pd.DataFrame) -> dict[str, Any]:
    """The best choice of `scores` (deals × choices; passing scores 0), the runner-up, their
    paired difference and its interval, whether they are the same play (`plays`: the play key of
    every deal and choice, `tarotsim.analysis.same_play.play_keys`), and the verdict."""
    choices = [PASS, *scores.columns]
    means = pd.DataFrame([{PASS: 0.0, **{c: float(scores[c].mean()) for c in scores.columns}}])
    ranked = rank_choices(means, choices).iloc[0]
    best, runner = str(ranked["best"]), str(ranked["runner_up"])

    def score(choice: str) -> np.ndarray:
        return np.zeros(len(scores)) if choice == PASS else scores[choice].to_numpy(dtype=float)

    diff, low, high = paired_interval(score(best) - score(runner), Z95)
    same = (
        PASS not in (best, runner)
        and best.endswith(CHELEM_SUFFIX) == runner.endswith(CHELEM_SUFFIX)
        and bool((plays[best] == plays[runner]).all())
    )
    above = bool(low > 0)  # False when the bound is NaN
    if len(scores) < MIN_DEALS:
        reason = REASONS[-1]
    else:
        reason = REASONS[(2 if same else 0) + (0 if above else 1)]
    return {
        "best": best,
        "runner_up": runner,
        "diff": diff,
        "diff_low": low,
        "diff_high": high,
        "decided": above and len(scores) >= MIN_DEALS,
        "same_play": same,
        "reason": reason,
    }


def hand_config(strategy: Strategy, players: int, cards: list[int], position: int | None) -> np.ndarray:
    """The run configuration of the analysis: every seat plays `strategy`, the hand's seat
    (`SEAT`) takes and is given `cards`, and deals the dealer of `position` (None:
    deal ``i`` is dealt by ``i % players``)."""
    config = make_config(None, {"players": players, "strategies": (strategy,) * players})
    cfg = replace(config, forced_taker=SEAT, forced_contract=CONTRACTS[0]).to_array()
    cfg[C_FIXED : C_FIXED + N_FIXED] = fixed_words({SEAT: [format_cards([c])[0] for c in cards]}, players)
    cfg[C_FIXED_ON] = 1
    if position is not None:
        cfg[C_DEALER] = 1 + dealer_speaking_at(position, players)
    return cfg


def announcing(cfg: np.ndarray) -> np.ndarray:
    """`cfg` with the taker (`SEAT`) announcing the chelem on every deal: the
    ``overwhelming`` policy from a count of 0."""
    out = cfg.copy()
    out[seat_slot(SEAT, P_CHELEM_POLICY)] = R.policy("chelem", "overwhelming").code
    out[seat_slot(SEAT, P_CHELEM_THRESHOLD)] = 0
    return out


def dealer_speaking_at(position: int, players: int) -> int:
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
    dealer = dealer_speaking_at(0 if position is None else position, players)
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


def _played(
    first: int,
    deals: int,
    key: np.ndarray,
    cfg: np.ndarray,
    contracts: list[str],
    strategy: Strategy,
    suffix: str,
) -> pd.DataFrame:
    """The records of deals ``first … first + deals − 1`` played under each of `contracts`, thrown-in
    deals left out, with the ``choice`` column: the contract's name and `suffix`. A strategy
    with a Python player has its deals played step by step (``interfaces.python_players.play_step_by_step``)."""
    codes = np.array([parse_contract(c) for c in contracts], dtype=np.int64)
    players = int(cfg[C_PLAYERS])
    if strategy.player is None:
        rec = play_deals(first, deals, key, cfg, contracts=codes)
    else:
        rows = [(strategy,) * players] * len(codes)
        rec = play_step_by_step(first, deals, key, config_rows(cfg, codes), rows)
    frame = to_frame(rec, first, players, per_deal=len(codes), hand_known=True)
    frame = frame[frame["thrown_in"] == ThrownIn.NONE.label]
    contract = frame["contract"].cat
    names = np.array([c + suffix for c in contract.categories], dtype=object)
    return frame.assign(choice=names[contract.codes.to_numpy()])


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
    notation: str | None = None,
) -> HandAnalysis:
    """Analyse one hand: the outcome of passing and of each contract, without and with the
    chelem announced, over deals of the unseen cards.

    Parameters
    ----------
    hand : str or iterable of str
        The hand's cards, e.g. ``"T21 T18 T15 T12 T9 T7 T4 T2 EX KH QH 5H KS 8S 3S 9D 2D 4C"``
        (English or French notation, `tarotsim.engine.cards`).
    players : int, optional
        3, 4 or 5 (default 4).
    position : int, optional
        The seat's turn to speak: 0 speaks first (and leads the first trick), ``players − 1``
        is the dealer. Default: every position in turn (deal ``i`` is dealt by seat ``i % players``).
    strategy : Strategy or str, optional
        Every seat's strategy; a spec is read over heuristic play and the expert écart
        (``play=pimc`` keeps the expert écart). Default: heuristic play, expert écart. Its
        ``chelem`` policy stays ``never``: the analysis weighs announcing the chelem itself.
    deals : int, optional
        Deals of the unseen cards (default 2,000).
    seed : int, numpy.random.Generator or None, optional
        The same seed gives the same deals and results.
    bidder : str or path, optional
        A ``learned`` bidder file (``tarotsim fit-bidder``): its wish is reported too.
    threads : int, optional
        Threads to use (default: all).
    notation : {"english", "french"}, optional
        The notation of the cards in the result (default: the one `hand` is written in,
        `tarotsim.engine.cards.notation_of`).

    Returns
    -------
    HandAnalysis

    Raises
    ------
    ValueError
        For a wrong hand (naming repeated cards, or how many are missing), a petit sec
        (thrown in: nothing to analyse), a position off the table, a bad strategy or one
        that announces chelems, or an unknown notation.
    """
    cards = parse_hand(hand, players)
    notation = notation_of(hand) if notation is None else check_notation(notation)
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
    if chosen.chelem != POLICY_DEFAULTS["chelem"]:
        raise ValueError(
            f"the hand's analysis weighs announcing the chelem itself: leave chelem={chosen.chelem} "
            "out of the strategy"
        )
    word0, word1 = to_mask(cards)
    if is_petit_sec(word1):
        raise ValueError("this hand holds the Petit alone (a petit sec): the deal is thrown in")
    used_seed = resolve_seed(seed)
    key = run_key(used_seed)
    cfg = hand_config(chosen, players, cards, position)
    trial = min(deals, TRIAL_DEALS)
    with using_threads(threads):
        played = _played(0, deals, key, cfg, list(CONTRACTS), chosen, "")
        if played.empty:
            raise ValueError("every deal was thrown in for a petit sec: deal more")
        tried = _played(0, trial, key, announcing(cfg), list(CONTRACTS), chosen, CHELEM_SUFFIX)
        slams = tried[tried["chelem"] == Side.ATTACK.label]
        made = {c: int((slams["contract"] == c).sum()) for c in CONTRACTS}
        offered = [c for c in CONTRACTS if made[c] > 0]
        announced = [tried[tried["contract"].isin(offered)]]
        if offered and deals > trial:
            announced.append(
                _played(trial, deals - trial, key, announcing(cfg), offered, chosen, CHELEM_SUFFIX)
            )
    frame = pd.concat([played, *announced], ignore_index=True)
    choices = [*CONTRACTS, *(c + CHELEM_SUFFIX for c in offered)]
    n_thrown = deals - played["deal"].nunique()

    columns = {
        "score": frame["taker_score"].to_numpy(dtype=float),
        "made": frame["made"].to_numpy(dtype=bool),
        "slam": (frame["chelem"] == Side.ATTACK.label).to_numpy(dtype=bool, na_value=False),
        "play": play_keys(frame),
    }
    wide = pd.DataFrame({"deal": frame["deal"].to_numpy(), "choice": frame["choice"].to_numpy(), **columns})
    wide = wide.pivot(index="deal", columns="choice", values=list(columns))

    def by_deal(name: str) -> pd.DataFrame:
        return wide[name][choices].rename_axis(columns=None)

    scores = by_deal("score")
    table = _table(scores, by_deal("made").astype(bool), by_deal("slam").astype(bool))
    verdict = _compare(scores, by_deal("play"))
    called = None
    if players == 5:
        first = played[played["contract"] == CONTRACTS[0]]["called_card"].astype(int)
        called = {
            format_cards([card], notation=notation)[0]: int(count)
            for card, count in first.value_counts(sort=False).sort_index().items()
        }
    bids, mc_means = _bids(
        word0, word1, players, position, None if bidder is None else os.fspath(bidder), used_seed
    )
    return HandAnalysis(
        hand=format_cards(cards, notation=notation),
        notation=notation,
        players=players,
        position=position,
        strategy=str(chosen),
        seed=used_seed,
        deals=len(scores),
        thrown_in=int(n_thrown),
        contracts=table,
        **verdict,
        chelem_trial={"deals": int(tried["deal"].nunique()), "made": made},
        called=called,
        chavey=int(hand_points(word0, word1)),
        chavey_distribution=int(hand_points(word0, word1) + distribution_points(word0)),
        bids=bids,
        montecarlo_means=mc_means,
        scores=scores,
    )
