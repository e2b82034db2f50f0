"""Constrained dealing: exact laws of the dealt cards, exact probabilities, bad conditions."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from scipy import stats

from tarotsim.cli import main
from tarotsim.engine.cards import N_CARDS, PETIT, TRUMP_21, format_card, parse_card
from tarotsim.engine.chavey import evaluate_hand
from tarotsim.engine.dealing import (
    _rows,
    condition_probability,
    deal,
    drawn_law,
    fixed_probability,
    fixed_words,
    parse_fixed_option,
    parse_where_option,
    where_ranges,
)


def _chi2_pvalue(observed: np.ndarray, expected: np.ndarray) -> float:
    expected = expected * observed.sum() / expected.sum()
    return float(stats.chisquare(observed, expected).pvalue)


def test_same_seed_same_deals_and_every_card_once() -> None:
    a = deal(500, seed=3, fixed={1: "T21 KS"}, where={0: {"trumps": (5, 9)}})
    b = deal(500, seed=3, fixed={1: "T21 KS"}, where={0: {"trumps": (5, 9)}})
    c = deal(500, seed=4, fixed={1: "T21 KS"}, where={0: {"trumps": (5, 9)}})
    assert np.array_equal(a.hands, b.hands) and np.array_equal(a.chien, b.chien)
    assert not np.array_equal(a.hands, c.hands)
    assert a.hands.dtype == np.int16 and a.hands.shape == (500, 4, 18) and a.chien.shape == (500, 6)
    every = np.concatenate([a.hands.reshape(500, -1), a.chien], axis=1)
    assert (np.sort(every, axis=1) == np.arange(N_CARDS)).all()
    assert all({parse_card("T21"), parse_card("KS")} <= set(row.tolist()) for row in a.hands[:, 1])
    trumps = ((a.hands[:, 0] >= 56) & (a.hands[:, 0] <= 76)).sum(axis=1)
    assert trumps.min() >= 5 and trumps.max() <= 9
    assert (a.dealer == np.arange(500) % 4).all()
    assert (deal(3, dealer=2).dealer == 2).all()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_holder_of_a_free_card_is_uniform_over_the_free_places(players: int) -> None:
    """Seat 0 holds three given cards: the King of spades is in a seat or the chien in
    proportion to its free places (chi-square at a fixed seed)."""
    deals = deal(20_000, players=players, seed=11, fixed={0: "T21 T1 EX", "chien": "QH"})
    king = parse_card("KS")
    hand, chien = deals.hands.shape[2], deals.chien.shape[1]
    holder = np.where((deals.hands == king).any(axis=2), np.arange(players), -1).max(axis=1)
    holder[(deals.chien == king).any(axis=1)] = players
    observed = np.bincount(holder, minlength=players + 1)
    free = np.array([hand - 3] + [hand] * (players - 1) + [chien - 1], dtype=float)
    assert _chi2_pvalue(observed, free) > 1e-3
    assert (deals.hands[:, 0, :] == parse_card("T21")).any(axis=1).all()
    assert (deals.chien == parse_card("QH")).any(axis=1).all()


def _trumps(hands: np.ndarray) -> np.ndarray:
    return ((hands >= 56) & (hands <= 76)).sum(axis=-1)


def test_trump_length_is_hypergeometric() -> None:
    deals = deal(20_000, seed=5)
    observed = np.bincount(_trumps(deals.hands[:, 2]), minlength=19)
    expected = stats.hypergeom(78, 21, 18).pmf(np.arange(19))
    keep = expected * 20_000 >= 5  # pool the tails for the chi-square test
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    assert _chi2_pvalue(obs, exp) > 1e-3


def test_a_range_gives_the_conditional_law() -> None:
    """Trumps 7-10 with the 21 given: the trump length follows the hypergeometric law of the
    17 free cards, cut to the range; the probability is that law's mass times 18/78."""
    deals = deal(10_000, seed=8, fixed={0: "T21"}, where={0: {"trumps": (7, 10)}})
    lengths = _trumps(deals.hands[:, 0])
    law = stats.hypergeom(77, 20, 17).pmf(np.arange(6, 10))  # other trumps among the 17 free cards
    observed = np.bincount(lengths - 7, minlength=4)
    assert _chi2_pvalue(observed, law) > 1e-3
    assert deals.probability.exact
    assert deals.probability.value == pytest.approx(18 / 78 * law.sum(), rel=1e-12)


def test_fixed_probability_counts_the_deals() -> None:
    words = fixed_words({0: "T21", 1: "T1", "chien": "EX"}, 4)
    assert fixed_probability(words, 4) == Fraction(18, 78) * Fraction(18, 77) * Fraction(6, 76)
    assert deal(2, fixed={0: "KS QS"}).probability.value == pytest.approx(18 * 17 / (78 * 77))


def _brute_force(players: int, fixed: dict, where: dict, draws: int) -> float:
    """The share of unconditioned deals (with the fixed cards) that meet the ranges, by simulation."""
    deals = deal(draws, players=players, seed=99, fixed=fixed)
    hand = deals.hands[:, 0].astype(int)
    ok = np.ones(draws, dtype=bool)
    spec = where[0]
    if "trumps" in spec:
        ok &= (_trumps(hand) >= spec["trumps"][0]) & (_trumps(hand) <= spec["trumps"][1])
    if "bouts" in spec:
        b = np.isin(hand, [PETIT, TRUMP_21, 77]).sum(axis=1)
        ok &= (b >= spec["bouts"][0]) & (b <= spec["bouts"][1])
    if "kings" in spec:
        k = ((hand < 56) & (hand % 14 == 13)).sum(axis=1)
        ok &= (k >= spec["kings"][0]) & (k <= spec["kings"][1])
    for suit, (lo, hi) in spec.get("suit_length", {}).items():
        s = "SHDC".index(suit)
        length = ((hand < 56) & (hand // 14 == s)).sum(axis=1)
        ok &= (length >= lo) & (length <= hi)
    return float(ok.mean())


@pytest.mark.parametrize(
    "players, fixed, where",
    [
        (4, {}, {0: {"trumps": (6, 9), "bouts": (1, 2), "kings": (1, 4)}}),
        (4, {0: "T21 KS", 1: "EX"}, {0: {"bouts": (2, 3), "suit_length": {"S": (3, 14), "H": (0, 2)}}}),
        (5, {"chien": "T1 T2"}, {0: {"trumps": (4, 15), "suit_length": {"C": (0, 3)}}}),
    ],
)
def test_counted_probability_matches_simulation(players: int, fixed: dict, where: dict) -> None:
    words = fixed_words(fixed, players)
    exact = condition_probability(words, players, *where_ranges(where, players))
    assert exact is not None
    draws = 40_000
    share = _brute_force(players, fixed, where, draws)
    sd = float(np.sqrt(float(exact) * (1 - float(exact)) / draws))
    assert abs(share - float(exact)) < 4.5 * sd


def test_counted_probability_of_trumps_alone_is_hypergeometric() -> None:
    p = condition_probability(fixed_words(None, 4), 4, *where_ranges({2: {"trumps": (8, 10)}}, 4))
    expected = sum(Fraction(comb(21, t) * comb(57, 18 - t), comb(78, 18)) for t in range(8, 11))
    assert p == expected


def test_estimated_probability_has_an_interval() -> None:
    deals = deal(300, seed=2, where={0: {"hand_points": (50, 200)}})
    prob = deals.probability
    assert not prob.exact and prob.trials > 300
    assert prob.low < prob.value < prob.high
    points = [evaluate_hand([format_card(c) for c in hand]) for hand in deals.hands[:50, 0]]
    assert min(points) >= 50
    assert "estimated" in str(prob) and "exact" in str(deal(1, fixed={0: "KS"}).probability)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"fixed": {0: "KS", 1: "KS"}}, "KS is given twice"),
        ({"fixed": {0: "KS KS"}}, "KS appears twice"),
        ({"fixed": {4: "KS"}}, "seats 0 to 3"),
        ({"fixed": {"chien": "1S 2S 3S 4S 5S 6S 7S"}}, "chien holds 6 cards"),
        ({"fixed": {0: "ZZ"}}, "'ZZ' is not a card"),
        ({"where": {0: {"trumps": (5, 19)}}}, r"low <= high <= 18"),
        ({"where": {0: {"trumps": (9, 5)}}}, "low <= high"),
        ({"where": {0: {"colour": 2}}}, "unknown feature 'colour'"),
        ({"where": {0: {"suit_length": {"X": 2}}}}, "unknown suit 'X'"),
        ({"where": {0: {"bouts": 3}}, "fixed": {1: "EX"}}, "no deal meets this condition"),
        ({"where": {0: {"hand_points": (150, 200)}}}, "too rare"),
        ({"players": 6}, "players must be 3, 4 or 5"),
    ],
)
def test_bad_conditions_are_one_line_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message) as err:
        deal(10, **kwargs)
    assert "\n" not in str(err.value)


def test_rare_counted_conditions_are_dealt_without_rejection() -> None:
    """18 trumps in 18 cards holds in about 6 deals in 10**15: drawn from its counts, each deal
    is made once, and the ranges left to rejection (another seat's) are checked on those deals."""
    deals = deal(300, seed=4, where={0: {"trumps": 18}, 1: {"kings": (1, 4)}})
    assert (_trumps(deals.hands[:, 0]) == 18).all()
    assert (((deals.hands[:, 1] < 56) & (deals.hands[:, 1] % 14 == 13)).sum(axis=1) >= 1).all()
    alone = deal(300, seed=4, where={0: {"trumps": 18}})
    assert (alone.tries == 1).all() and alone.probability.exact
    assert alone.probability.value == pytest.approx(comb(21, 18) / comb(78, 18), rel=1e-12)
    assert (
        not deals.probability.exact
        and deals.probability.low < deals.probability.value < deals.probability.high
    )
    assert deals.probability.high < alone.probability.value


def test_rare_rejected_condition_bound() -> None:
    """Chavey's count of 80 or more is met by rejection: a million such deals would need more
    trial deals than the budget, refused before dealing."""
    with pytest.raises(ValueError, match="trial deals"):
        deal(1_000_000, where={0: {"hand_points": (70, 200)}})


def _seat_features(hands: np.ndarray) -> dict[str, np.ndarray]:
    """Trumps, bouts, Kings and each suit's length of hands (int16[n, cards])."""
    h = hands.astype(int)
    suit = np.where(h < 56, h // 14, -1)
    out = {
        "trumps": _trumps(h),
        "bouts": np.isin(h, [PETIT, TRUMP_21, 77]).sum(axis=1),
        "kings": ((h < 56) & (h % 14 == 13)).sum(axis=1),
    }
    out.update({f"suit_{s}": (suit == s).sum(axis=1) for s in range(4)})
    return out


def _meets(hands: np.ndarray, where: dict) -> np.ndarray:
    """Which deals (hands int16[n, seats, cards]) meet ``where`` (as `deal` reads it)."""
    ok = np.ones(len(hands), dtype=bool)
    for seat, ranges in where.items():
        features = _seat_features(hands[:, seat])
        flat = {k: v for k, v in ranges.items() if k != "suit_length"}
        flat.update({f"suit_{'SHDC'.index(s)}": v for s, v in ranges.get("suit_length", {}).items()})
        for name, (lo, hi) in flat.items():
            ok &= (features[name] >= lo) & (features[name] <= hi)
    return ok


def _rejection_reference(players: int, fixed: dict, where: dict, n: int) -> np.ndarray:
    """Hands of ``n`` deals dealt as the former sampler dealt them: plain deals holding the fixed
    cards, kept when every range holds (the law of dealing each deal again until they hold)."""
    kept: list[np.ndarray] = []
    seed = 1000
    while sum(len(k) for k in kept) < n:
        plain = deal(200_000, players=players, seed=seed, fixed=fixed)
        kept.append(plain.hands[_meets(plain.hands, where)])
        seed += 1
    return np.concatenate(kept)[:n]


def test_french_notation_in_fixed() -> None:
    a = deal(5, seed=1, fixed={0: "RP 21 Excuse"})
    b = deal(5, seed=1, fixed={0: ["KS", "T21", "EX"]})
    assert np.array_equal(a.hands, b.hands)


def test_command_line_conditions() -> None:
    assert parse_fixed_option(["0=T21 T1 EX", "chien=KS"]) == {0: "T21 T1 EX", "chien": "KS"}
    assert parse_where_option(["0:bouts=2,trumps=8-10,S=0-1", "2:Co=5-14"]) == {
        0: {"bouts": 2, "trumps": (8, 10), "suit_length": {"S": (0, 1)}},
        2: {"suit_length": {"CO": (5, 14)}},
    }
    for bad in (["0=KS", "0=QS"], ["x=KS"], ["KS"]):
        with pytest.raises(ValueError, match="--fixed"):
            parse_fixed_option(bad)
    for bad in (["bouts=2"], ["0:bouts=two"], ["0:trumps=8-"], ["0:bouts=1,bouts=2"]):
        with pytest.raises(ValueError, match="--where"):
            parse_where_option(bad)


def test_deal_command(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "deals.jsonl"
    args = ["deal", "--deals", "4", "--fixed", "0=21 1 Excuse", "--where", "0:trumps=8-10", "--out", str(out)]
    assert main(args) == 0
    assert "(exact)" in capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 4 and all({"T21", "T1", "EX"} <= set(row["hands"][0]) for row in rows)
    assert main(["deal", "--where", "0:colour=2"]) == 2
    assert "unknown feature 'colour'" in capsys.readouterr().err


def test_deals_do_not_depend_on_the_thread_count() -> None:
    import numba

    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = deal(3000, seed=9, where={1: {"kings": (2, 4)}})
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
        every = deal(3000, seed=9, where={1: {"kings": (2, 4)}})
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one.hands, every.hands) and np.array_equal(one.tries, every.tries)


LAW_CASES = [
    (4, {0: "T21 KS", 1: "EX"}, {0: {"bouts": (2, 3), "suit_length": {"S": (3, 14), "H": (0, 2)}}}),
    (5, {"chien": "T1 T2"}, {0: {"trumps": (4, 9), "kings": (1, 2), "suit_length": {"C": (0, 3)}}}),
    (3, {}, {1: {"trumps": (10, 13), "bouts": (1, 3)}}),
    (4, {2: "QD"}, {0: {"trumps": (6, 9)}, 2: {"kings": (2, 4)}}),
]


def _pooled(a: np.ndarray, b: np.ndarray) -> float:
    """Chi-square p-value that two samples of a small whole-number feature share one law
    (values seen fewer than 10 times in all pooled into their neighbour)."""
    values = np.union1d(a, b)
    table = np.array([[np.sum(x == v) for v in values] for x in (a, b)])
    while table.shape[1] > 1 and table.sum(axis=0).min() < 10:
        j = int(np.argmin(table.sum(axis=0)))
        k = j - 1 if j > 0 else 1
        table[:, k] += table[:, j]
        table = np.delete(table, j, axis=1)
    if table.shape[1] == 1:
        return 1.0
    return float(stats.chi2_contingency(table).pvalue)


@pytest.mark.parametrize("players, fixed, where", LAW_CASES)
def test_drawing_from_the_counts_gives_the_law_of_rejection(players: int, fixed: dict, where: dict) -> None:
    """The deals drawn from the law of the counts (and by rejection for another seat's ranges)
    against plain deals kept when they meet the ranges, the law the former sampler dealt by
    rejection: each seat's trumps, bouts, Kings and suit lengths, and the share of deals in
    which each card is in each seat's hand (chi-square at fixed seeds, 4,000 deals)."""
    n = 4000
    drawn = deal(n, players=players, seed=21, fixed=fixed, where=where).hands
    reference = _rejection_reference(players, fixed, where, n)
    assert _meets(drawn, where).all()
    pvalues = []
    for seat in range(players):
        mine, theirs = _seat_features(drawn[:, seat]), _seat_features(reference[:, seat])
        pvalues += [_pooled(mine[name], theirs[name]) for name in mine]
        held = [np.bincount(h[:, seat].ravel(), minlength=N_CARDS) for h in (drawn, reference)]
        seen = (held[0] + held[1]) >= 10
        pvalues.append(float(stats.chi2_contingency(np.array(held)[:, seen]).pvalue))
    # Bonferroni over the tests made: none may reject the common law at 0.1 % together
    assert min(pvalues) > 1e-3 / len(pvalues), min(pvalues)


@pytest.mark.parametrize("players, fixed, where", LAW_CASES[:3])
def test_count_vectors_follow_their_exact_law(players: int, fixed: dict, where: dict) -> None:
    """The drawn seat's counts (the Petit and 21, other trumps, Excuse, Kings) against their exact
    probabilities (`count_law`), by chi-square on 20,000 deals."""
    words = fixed_words(fixed, players)
    low, high, asked = where_ranges(where, players)
    law = drawn_law(words, players, low, high, asked)
    assert law is not None and law.probability == condition_probability(words, players, low, high, asked)
    hands = deal(20_000, players=players, seed=5, fixed=fixed, where=where).hands[:, law.seat].astype(int)
    own = set(_rows(words, players)[law.seat])
    free = np.isin(hands, list(own), invert=True)
    counts = np.stack(
        [
            (free & np.isin(hands, [PETIT, TRUMP_21])).sum(axis=1),
            (free & (hands >= 56) & (hands <= 76) & ~np.isin(hands, [PETIT, TRUMP_21])).sum(axis=1),
            (free & (hands == 77)).sum(axis=1),
            (free & (hands < 56) & (hands % 14 == 13)).sum(axis=1),
        ],
        axis=1,
    )
    index = {v[:4]: i for i, v in enumerate(law.vectors)}
    observed = np.bincount([index[tuple(int(x) for x in row)] for row in counts], minlength=len(index))
    expected = np.array(law.hands, dtype=float)
    keep = expected / expected.sum() * len(hands) >= 5
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    assert _chi2_pvalue(obs, exp) > 1e-3
