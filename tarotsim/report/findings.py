"""The report's answers: the analysis tables turned into the short findings it opens with.

Each function takes tables of [`tarotsim.analysis`][tarotsim.analysis] and returns text (bullet items of
[`Document`][tarotsim.report.document.Document]) or a compact table; none computes a statistic
of its own, so every number it writes can be found, with how it was made, further down
the report.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from tarotsim import analysis
from tarotsim.analysis.fits import NOT_REACHED, PASSED_ALREADY
from tarotsim.engine.labels import MULTIPLIERS
from tarotsim.report import glossary
from tarotsim.report.document import Code, Inline, Link
from tarotsim.report.style import contract_name

COMPANION_REPORTS = (
    ("strength.md", "how strong these players are"),
    ("bias.md", "how they bias these numbers"),
)
"""Reports on the players that the report links to when they sit beside it (file, link text)."""


def interval_text(value: float, low: float, high: float, fmt: str = ".1f") -> str:
    """``"8.4 (8.3 to 8.5)"``: an estimate and its interval (`estimate`);
    ``""`` when there is no estimate."""
    return glossary.estimate(value, low, high, fmt)


def same_play_groups(contracts: Sequence[str], same_play: dict[str, str]) -> list[list[str]]:
    """Contract labels grouped by play, low to high (Prise with Garde when they are the same play)."""
    groups: dict[str, list[str]] = {}
    for con in contracts:
        groups.setdefault(same_play.get(con, con), []).append(con)
    return list(groups.values())


def _bouts_header(bouts: object) -> str:
    return f"{bouts} bout" + ("" if bouts == 1 else "s")


def _missing(note: str, what: str, fitted_from: float, fitted_to: float) -> str:
    """Text of a threshold that was not found, from the part of `note` about `what`."""
    for part in note.split("; "):
        if part.startswith(what) and NOT_REACHED in part:
            return f"> {fitted_to:g}"
        if part.startswith(what) and PASSED_ALREADY in part:
            return f"≤ {fitted_from:g}"
    return ""


def _break_even(fit: pd.Series) -> str:
    """A fitted break-even in words: ``"46.2 (45.1 to 47.3)"``, ``"> 60"`` (not reached over the
    fitted range), ``"≤ 20"`` (passed already at its start), or why there is none."""
    text = interval_text(fit["break_even"], fit["break_even_low"], fit["break_even_high"])
    if text:
        return text
    if fit["degree"] == 0:
        return f"none (no fit: too few deals, {int(fit['n_total']):,} played)"
    return _missing(fit["note"], "break-even", fit["fitted_from"], fit["fitted_to"]) or "none (see the note)"


def threshold_grid(fitted: pd.DataFrame, same_play: dict[str, str], *, rate: float = 0.5) -> pd.DataFrame:
    """The fitted trump thresholds as one compact table: a row per threshold, a column per bout count.

    Contracts that are the same play share their success row; each contract has its own
    break-even row (the poignée bonus is not multiplied, so those differ a little). A
    cell reads ``"8.4 (8.3 to 8.5)"``, ``"> 11"`` (not reached up to the longest fitted
    length), ``"≤ 2"`` (already reached at the shortest) or is blank (not fitted).
    """
    bouts = sorted(fitted["taker_bouts"].unique())
    rows = []
    contracts = list(dict.fromkeys(fitted["contract"]))

    def cells(con: str, prefix: str, what: str) -> dict[str, str]:
        mine = fitted[fitted["contract"] == con].set_index("taker_bouts")
        out = {}
        for b in bouts:
            if b not in mine.index:
                out[_bouts_header(b)] = ""
                continue
            r = mine.loc[b]
            text = interval_text(r[prefix], r[f"{prefix}_low"], r[f"{prefix}_high"])
            out[_bouts_header(b)] = text or _missing(r["note"], what, r["fitted_from"], r["fitted_to"])
        return out

    for group in same_play_groups(contracts, same_play):
        names = " = ".join(contract_name(c) for c in group)
        rows.append({"threshold": f"{names}: {rate:.0%} success", **cells(group[0], "threshold", "success")})
        for con in group:
            rows.append(
                {"threshold": f"{contract_name(con)}: break-even", **cells(con, "break_even", "break-even")}
            )
    return pd.DataFrame(rows, columns=["threshold", *(_bouts_header(b) for b in bouts)])


def _cell_status(row: Any) -> str:
    if row.decided:
        return contract_name(row.best)
    if row.same_play:
        return f"{contract_name(row.best)} = {contract_name(row.runner_up)} (the same play)"
    return f"{contract_name(row.best)} or {contract_name(row.runner_up)}, undecided"


def best_by_shape(best: pd.DataFrame, min_n: int) -> list[str]:
    """One line per bout count: the best choice over runs of trump lengths, undecided runs said so.

    Cells with fewer than `min_n` deals are left out (the line says which lengths).
    """
    lines = []
    for bouts, part in best.groupby("taker_bouts", sort=True):
        part = part.sort_values("taker_trumps")
        runs: list[tuple[str, int, int]] = []
        thin = [int(t) for t in part.loc[part["low_n"], "taker_trumps"]]
        for row in part[~part["low_n"]].itertuples(index=False):
            status, trumps = _cell_status(row), int(row.taker_trumps)
            if runs and runs[-1][0] == status and runs[-1][2] == trumps - 1:
                runs[-1] = (status, runs[-1][1], trumps)
            else:
                runs.append((status, trumps, trumps))
        text = "; ".join(f"{s} with {lo}" + (f"–{hi}" if hi > lo else "") + " trumps" for s, lo, hi in runs)
        if thin:
            text += f" (fewer than {min_n} deals at {', '.join(map(str, thin))} trumps)"
        lines.append(f"{_bouts_header(bouts)}: {text or 'no cell with enough deals'}.")
    return lines


def band_findings(
    points: dict[str, pd.DataFrame],
    fitted_points: dict[str, pd.DataFrame],
    same_play: dict[str, str],
    contracts: Sequence[str],
) -> list[tuple[Inline, ...]]:
    """Bullet items setting each published band against the run, on the count it was made on.

    `points` and `fitted_points` hold, by hand-point scale (record column), the tables of
    [`tarotsim.analysis.hand_points_thresholds`][tarotsim.analysis.hand_points_thresholds] and of
    [`tarotsim.analysis.thresholds`][tarotsim.analysis.thresholds] with ``x`` that scale and no grouping; a scale
    the records lack is absent, and the bands made on it are said to be left uncompared.
    """
    items: list[tuple[Inline, ...]] = []
    unscaled = [c for c in contracts if analysis.BAND_SCALES[c] not in points]
    lowest = contracts[0] if contracts else None
    for con in contracts:
        scale = analysis.BAND_SCALES[con]
        if con in unscaled:
            continue
        band = analysis.PUBLISHED_HAND_POINTS[con]
        row = points[scale].set_index("contract").loc[con]
        fit = fitted_points[scale].set_index("contract").loc[con]
        name = contract_name(con).capitalize()
        if con in same_play:
            lower = contract_name(same_play[con])
            ratio = MULTIPLIERS[con] / MULTIPLIERS[same_play[con]]
            items.append(
                (
                    f"{name}: its published {band} cannot be tested by this sweep. Its players play "
                    f"{name} exactly as {lower.capitalize()}, so it scores {ratio:g}× {lower.capitalize()}'s "
                    f"card score on every deal and leads {lower.capitalize()} wherever taking pays at all. "
                    f"Its own fitted break-even: {_break_even(fit)} {glossary.words(scale)}.",
                )
            )
        elif con == lowest:
            value, spread = _binned(row, "positive_from")
            items.append(
                (
                    f"{name} pays (beats passing) from {_from(value, scale)} ({spread}), fitted break-even {_break_even(fit)}; "
                    f"published {band} on the same count. This is the comparison with the published bands "
                    f"that a sweep can make for {name}.",
                )
            )
        else:
            value, spread = _binned(row, "best_from")
            items.append(
                (
                    f"{name} is the best choice from {_from(value, scale)} ({spread}), against the published {band} on the same count.",
                )
            )
    if unscaled:
        names = " and ".join(contract_name(c).capitalize() for c in unscaled)
        bands = " and ".join(str(analysis.PUBLISHED_HAND_POINTS[c]) for c in unscaled)
        scale = analysis.BAND_SCALES[unscaled[0]]
        items.append(
            (
                f"{names}: the published {bands} count the distribution bonus (voids, singletons); "
                f"these records have no {glossary.words(scale)}, so they are not compared: on the count without the bonus every hand reads "
                "lower, and the run's thresholds would look several points below those bands for no reason.",
            )
        )
    return items


def _from(value: str, scale: str) -> str:
    """``"46 hand points"``, or ``"nowhere in the hands seen, on hand points"``."""
    words = glossary.words(scale)
    return f"{value} {words}" if value else f"nowhere in the hands seen, on {words}"


def _binned(row: pd.Series, name: str) -> tuple[str, str]:
    """A hand-point threshold read from bins, and its resampled interval in words."""
    value, low, high = row[name], row[f"{name}_low"], row[f"{name}_high"]
    if math.isnan(value):
        return "", "read from bins of hand points"
    if low == high == value:
        return f"{value:.0f}", "a bin edge; every resample of the bin means gives the same bin"
    bounds = glossary.interval(low, high, ".0f") or "open"
    return f"{value:.0f}", f"a bin edge; resampled 95%: {bounds}"


def same_play_paragraph(same_play: dict[str, str]) -> tuple[Inline, ...]:
    """Why a lower contract is never best when a higher one is the same play, and what would change it."""
    pairs = ", ".join(
        f"{contract_name(h).capitalize()} as {contract_name(lo).capitalize()}" for h, lo in same_play.items()
    )
    low, high = next((lo, h) for h, lo in same_play.items())
    return (
        f"Why {contract_name(low).capitalize()} is never best here: in this sweep the players play "
        f"{pairs}, card for card (same chien, same écart, same play), because their play does not "
        "depend on the contract. The two are then the same play at different multipliers: "
        f"{contract_name(high).capitalize()} scores {MULTIPLIERS[high] // MULTIPLIERS[low]}× the card score "
        "(the poignée bonus, not multiplied, aside), has the same success rate, and beats "
        f"{contract_name(low).capitalize()} on average wherever taking pays, save where the poignée bonus "
        f"alone lifts {contract_name(low).capitalize()}'s mean above 0. Their success tables are "
        "therefore shown once, and the best-contract map marks such cells as undecided. What would "
        f"change it: players that adapt to the contract (a {contract_name(high)} taker keeping more "
        "safety, a defence that attacks a higher contract harder), which a sweep of these players "
        "cannot show.",
    )


def players_paragraph(config: dict[str, Any], kind: str, out_dir: Path) -> tuple[Inline, ...]:
    """What the players are, how that biases the numbers, and links to reports on them if any."""
    policy = config.get("policy")
    attack = config.get("attack_policy") or policy
    defence = config.get("defence_policy") or policy
    parts: list[Inline] = [
        "The players: card play ",
        Code(f"{attack}"),
        " in attack and ",
        Code(f"{defence}"),
        " in defence, écart ",
        Code(f"{config.get('ecart_policy')}"),
        ", poignées ",
        Code(f"{config.get('poignee_policy')}"),
        ", chelem ",
        Code(f"{config.get('chelem_policy')}"),
        ". Every number here is what these players get, not what a human table would: a "
        "defence stronger than theirs lowers every success rate and pushes every threshold up, "
        "a stronger attack does the reverse. ",
    ]
    if kind == "sweep":
        parts.append(
            "In a sweep one seat takes every deal under every contract, whatever the auction: it also "
            "plays hands another seat would have outbid, and every position at the table is mixed, "
            "which no real auction allows. "
        )
    else:
        parts += [
            "Contracts were chosen by the ",
            Code(f"{config.get('bid_policy')}"),
            " bidder, so each is seen only on the hands it was bid with. ",
        ]
    links = [(name, text) for name, text in COMPANION_REPORTS if _companion(out_dir, name)]
    if links:
        parts.append("See ")
        for i, (name, text) in enumerate(links):
            parts.append(Link(text, _companion(out_dir, name)))
            parts.append(" and " if i < len(links) - 1 else ".")
    else:
        parts.append(
            "The players' strength against human players is unmeasured: read the thresholds as "
            "those of these players."
        )
    return tuple(parts)


def _companion(out_dir: Path, name: str) -> str:
    """Relative link from the report to the companion report `name`, or ``""`` if there is none."""
    if (out_dir / name).is_file():
        return name
    if (out_dir.parent / name).is_file():
        return f"../{name}"
    return ""


def auction_table(
    by_auction: pd.DataFrame, key: str, *, uncontested: pd.Series | None = None
) -> pd.DataFrame:
    """A sweep's mean taker score by a feature of the auction: a row per value of `key`, a
    column per contract.

    `by_auction` is [`tarotsim.analysis.success_table`][tarotsim.analysis.success_table] grouped by `key`
    (``others_bid``, shown by contract name, or ``speaker_position``). A cell reads
    ``"31.2 (28.0 to 34.4)"``: the mean taker score and its 95% normal interval (from
    ``score_se``). ``deals`` is the played deals of the row. `uncontested`, by value of `key`, is the share of those deals on which
    no other seat would bid (an ``uncontested`` column, in percent), when given. The report
    shows these headers in words (`auction_headers`).
    """
    contracts = list(dict.fromkeys(by_auction["contract"]))
    values = list(dict.fromkeys(by_auction.sort_values(key)[key]))
    rows = []
    for value in values:
        mine = by_auction[by_auction[key] == value].set_index("contract")
        shown = contract_name(value) if isinstance(value, str) else value
        row: dict[str, object] = {key: shown, "deals": f"{int(mine['n'].max()):,}"}
        if uncontested is not None:
            row["uncontested"] = f"{100 * float(uncontested.get(value, 0.0)):.0f}%"
        for con in contracts:
            if con not in mine.index:
                row[contract_name(con)] = ""
                continue
            r = mine.loc[con]
            half = analysis.Z95 * r["score_se"]
            row[contract_name(con)] = interval_text(
                r["mean_score"], r["mean_score"] - half, r["mean_score"] + half
            )
        rows.append(row)
    return pd.DataFrame(rows)


def auction_headers(table: pd.DataFrame) -> pd.DataFrame:
    """An `auction_table` with its column names in words (contract names stay as they are)."""
    named = [c for c in table.columns if c in glossary.GLOSSARY]
    return table.rename(columns={c: glossary.words(c) for c in named})
