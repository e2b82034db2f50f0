"""Which contracts were the same play: the same cards played, so the same outcome on every deal.

In a sweep the card play may not depend on the contract: with Prise and Garde the taker
takes the same chien, makes the same écart and every seat plays the same cards. Two
contracts are then *the same play*: on every deal the attack ends with the same card
points and bouts, and the contract is made or failed alike. Their scores differ only by
the multiplier (docs/rules.md §8: Garde scores twice Prise, the poignée bonus aside, which is
not multiplied), so their success rates are equal by construction and comparing them
says nothing about the hands: the higher multiplier wins wherever taking pays at all.

A play is keyed per record by `play_keys`; [`same_play_as`][tarotsim.analysis.same_play.same_play_as] compares the keys of
two contracts deal by deal, chunk by chunk (`SamePlay`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from tarotsim.analysis.loading import Data, require_columns
from tarotsim.analysis.reduction import Chunk, Reduction, open_chunks, plan, reduce_records
from tarotsim.engine.labels import CONTRACTS

PLAY_COLUMNS = ("made", "attack_points", "attack_bouts")
"""Record columns that together fix the outcome of the play (``made`` is required)."""


def play_keys(played: pd.DataFrame) -> np.ndarray:
    """int64[n_rows]: one number per record that is equal exactly when the play's outcome is.

    Built from the `PLAY_COLUMNS` the records hold: card points (in half points),
    bouts and made. Records without ``attack_points`` or ``attack_bouts`` are keyed on
    what they have.
    """
    require_columns(played, ["made"], what="the same-play test")
    key = played["made"].to_numpy(dtype=bool).astype(np.int64)
    if "attack_bouts" in played.columns:
        key = key + 2 * played["attack_bouts"].to_numpy(dtype=np.int64)
    if "attack_points" in played.columns:
        half_points = np.rint(2.0 * played["attack_points"].to_numpy(dtype=float)).astype(np.int64)
        key = key + 8 * half_points
    return key


class SamePlay(Reduction):
    """Per contract, its played rows and whether a deal repeats; per pair, whether they play alike.

    The result is a tuple ``(rows, repeats, alike)``: int64[n_contracts] played rows,
    bool[n_contracts] whether a deal is recorded twice under the contract, and
    bool[n_contracts, n_contracts] whether the lower contract (row) and the higher one
    (column) hold the same deals with the same play keys, in every chunk so far (contracts
    in the order of [`CONTRACTS`][tarotsim.engine.labels.CONTRACTS]). A deal lies in one chunk, so the
    chunks' answers combine with *and*.
    """

    columns = ("deal", "contract", "thrown_in", *PLAY_COLUMNS)
    key = "same_play"

    def partial(self, chunk: Chunk) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        played = chunk.played
        require_columns(played, ["deal", "contract"], what="the same-play test")
        keys = play_keys(played)
        deals = played["deal"].to_numpy()
        n = len(CONTRACTS)
        by_contract = []
        for i in range(n):
            mine = chunk.codes == i
            order = np.argsort(deals[mine], kind="stable")
            by_contract.append((deals[mine][order], keys[mine][order]))
        rows = np.array([len(d) for d, _ in by_contract], dtype=np.int64)
        repeats = np.array([bool(np.any(np.diff(d) == 0)) for d, _ in by_contract])
        alike = np.zeros((n, n), dtype=bool)
        for high in range(n):
            for low in range(high):
                alike[low, high] = np.array_equal(
                    by_contract[low][0], by_contract[high][0]
                ) and np.array_equal(by_contract[low][1], by_contract[high][1])
        return rows, repeats, alike

    def merge(self, partials: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> tuple[np.ndarray, ...]:
        return (
            np.sum([p[0] for p in partials], axis=0).astype(np.int64),
            np.any([p[1] for p in partials], axis=0),
            np.all([p[2] for p in partials], axis=0),
        )


def same_play_from(result: tuple[np.ndarray, ...]) -> dict[str, str]:
    """The ``{higher: lower}`` contracts played alike, from a `SamePlay` result."""
    rows, repeats, alike = result
    same: dict[str, str] = {}
    for high, name in enumerate(CONTRACTS):
        if rows[high] == 0 or repeats[high]:
            continue
        for low in range(high):
            if rows[low] > 0 and alike[low, high]:
                same[name] = CONTRACTS[low]
                break
    return same


def same_play_as(data: Data, *, client: Any = None) -> dict[str, str]:
    """For each contract played exactly like a lower one, that lower contract.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Records (thrown-in rows are left out) or a run directory, with ``deal``,
        ``contract`` and ``made``; ``attack_points`` and ``attack_bouts`` are used when
        present.
    client : distributed.Client or str, optional
        Reduce the chunks of a run directory on this Dask cluster (see
        [`tarotsim.analysis.reduction.reduce_records`][tarotsim.analysis.reduction.reduce_records]).

    Returns
    -------
    dict of str to str
        ``{higher: lower}`` for every contract whose records match those of a lower
        contract on the very same deals, play outcome for play outcome; the lowest such
        contract is named. Empty when the records hold one contract per deal (not a sweep).
    """
    chunks = open_chunks(data, ["deal", "contract", "made"], what="the same-play test")
    results = reduce_records(chunks, plan(SamePlay()), what="the same-play test", client=client)
    return same_play_from(results[SamePlay.key])
