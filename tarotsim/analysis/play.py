"""Which contracts were the same play: the same cards played, so the same outcome on every deal.

In a sweep the card play may not depend on the contract: with Prise and Garde the taker
takes the same chien, makes the same écart and every seat plays the same cards. Two
contracts are then *the same play*: on every deal the attack ends with the same card
points and bouts, and the contract is made or failed alike. Their scores differ only by
the multiplier (RULES.md §8: Garde scores twice Prise, the poignée bonus aside, which is
not multiplied), so their success rates are equal by construction and comparing them
says nothing about the hands: the higher multiplier wins wherever taking pays at all.

A play is keyed per record by :func:`play_keys`; :func:`same_play_as` compares the keys of
two contracts deal by deal.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tarotsim.analysis.loading import contract_codes, contracts_present, require_columns

PLAY_COLUMNS = ("made", "attack_points", "attack_bouts")
"""Record columns that together fix the outcome of the play (``made`` is required)."""


def play_keys(played: pd.DataFrame) -> np.ndarray:
    """int64[n_rows]: one number per record that is equal exactly when the play's outcome is.

    Built from the :data:`PLAY_COLUMNS` the records hold: card points (in half points),
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


def same_play_as(played: pd.DataFrame) -> dict[str, str]:
    """For each contract played exactly like a lower one, that lower contract.

    Parameters
    ----------
    played : pandas.DataFrame
        Played records (see :func:`tarotsim.analysis.loading.played_rows`) with ``deal``,
        ``contract`` and ``made``; ``attack_points`` and ``attack_bouts`` are used when
        present.

    Returns
    -------
    dict of str to str
        ``{higher: lower}`` for every contract whose records match those of a lower
        contract on the very same deals, play outcome for play outcome; the lowest such
        contract is named. Empty when the records hold one contract per deal (not a sweep).
    """
    require_columns(played, ["deal", "contract"], what="the same-play test")
    keys = play_keys(played)
    deals = played["deal"].to_numpy()
    present = contracts_present(played)
    codes = contract_codes(played, present)
    by_contract: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for i, con in enumerate(present):
        mine = codes == i
        order = np.argsort(deals[mine], kind="stable")
        by_contract[con] = (deals[mine][order], keys[mine][order])
    same: dict[str, str] = {}
    for i, high in enumerate(present):
        deals_high, keys_high = by_contract[high]
        if len(deals_high) == 0 or np.any(np.diff(deals_high) == 0):
            continue
        for low in present[:i]:
            deals_low, keys_low = by_contract[low]
            if np.array_equal(deals_low, deals_high) and np.array_equal(keys_low, keys_high):
                same[high] = low
                break
    return same
