"""FFT scoring: the worked examples of docs/rules.md §8, hand-made cases, and the reference."""

import random

import pytest

from tarotsim.engine.scoring import score_deal
from tests import reference as ref


@pytest.mark.parametrize(
    ("kwargs", "d", "taker"),
    [
        (dict(contract="garde", attack_points=47, attack_bouts=2), 62, 186),
        (dict(contract="garde", attack_points=56, attack_bouts=2), 80, 240),
        (
            dict(
                contract="garde",
                attack_points=49,
                attack_bouts=2,
                poignees=["simple"],
                petit_au_bout="attack",
            ),
            106,
            318,
        ),
    ],
)
def test_worked_examples(kwargs, d, taker):
    result = score_deal(**kwargs)
    assert (result.per_defender, result.taker) == (d, taker)


@pytest.mark.parametrize(
    ("points", "made", "margin"),
    [(40.5, False, 1), (41.5, True, 1), (41, True, 0), (40, False, 1), (35.5, False, 6)],
)
def test_margin_rounds_half_points_up_for_the_winner(points, made, margin):
    result = score_deal(contract="prise", attack_points=points, attack_bouts=2)
    assert (result.made, result.margin) == (made, margin)


def test_petit_au_bout_counts_whatever_the_result():
    failed = score_deal(contract="garde_sans", attack_points=30, attack_bouts=1, petit_au_bout="attack")
    assert failed.per_defender == -(25 + 21) * 4 + 40
    defended = score_deal(contract="prise", attack_points=60, attack_bouts=1, petit_au_bout="defence")
    assert defended.per_defender == (25 + 9) - 10


def test_poignees_go_to_the_winning_side_unmultiplied():
    lost = score_deal(
        contract="garde_contre", attack_points=40, attack_bouts=1, poignees=["double", "simple"]
    )
    assert lost.per_defender == -(25 + 11) * 6 - 50


@pytest.mark.parametrize(
    ("announced", "chelem", "bonus"),
    [
        (True, "attack", 400),
        (False, "attack", 200),
        (True, None, -200),
        (False, "defence", -200),
        (True, "defence", -200),
    ],
)
def test_chelem_bonuses(announced, chelem, bonus):
    points = {"attack": 91, "defence": 0, None: 60}[chelem]
    bouts = {"attack": 3, "defence": 0, None: 2}[chelem]
    plain = score_deal(contract="prise", attack_points=points, attack_bouts=bouts)
    result = score_deal(
        contract="prise", attack_points=points, attack_bouts=bouts, chelem_announced=announced, chelem=chelem
    )
    assert result.per_defender - plain.per_defender == bonus


@pytest.mark.parametrize(
    ("players", "alone", "share"), [(3, False, 2), (4, False, 3), (5, False, 2), (5, True, 4)]
)
def test_settlement_by_table_size(players, alone, share):
    result = score_deal(
        players=players, contract="garde", attack_points=47, attack_bouts=2, taker_alone=alone
    )
    assert result.taker == share * 62


def test_random_scores_agree_with_reference():
    rng = random.Random(5)
    contracts = ["prise", "garde", "garde_sans", "garde_contre"]
    sizes = ["simple", "double", "triple"]
    for _ in range(20_000):
        players = rng.choice([3, 4, 5])
        alone = players == 5 and rng.random() < 0.3
        args = dict(
            contract=rng.choice(contracts),
            attack_bouts=rng.randint(0, 3),
            petit_au_bout=rng.choice([None, "attack", "defence"]),
            poignees=[rng.choice(sizes) for _ in range(rng.randint(0, 2))],
            chelem_announced=rng.random() < 0.1,
            chelem=rng.choice([None, None, None, "attack", "defence"]),
        )
        low, high = 9 * args["attack_bouts"], 182 - 9 * (3 - args["attack_bouts"])  # each bout is 4.5 points
        chien = {3: 6, 4: 6, 5: 3}[players]
        if (
            args["chelem"] == "attack"
        ):  # the defence holds at most the Excuse (and the chien in a Garde contre)
            low = max(low, 182 - 9 * (1 + (chien if args["contract"] == "garde_contre" else 0)))
        elif args["chelem"] == "defence":
            high = min(high, 9 * (1 + (0 if args["contract"] == "garde_contre" else chien)))
        if low > high:
            continue
        half = rng.randint(low, high)
        got = score_deal(players=players, attack_points=half / 2, taker_alone=alone, **args)
        want = ref.score_deal(players, attack_half_points=half, taker_alone=alone, **args)
        assert (got.made, got.margin, got.per_defender, got.taker) == (
            want["made"],
            want["margin"],
            want["per_defender"],
            want["taker_score"],
        )


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(contract="petite", attack_points=50, attack_bouts=1), ValueError, "unknown contract"),
        (dict(contract="garde", attack_points=91.5, attack_bouts=1), ValueError, "between 0 and 91"),
        (dict(contract="garde", attack_points=50.25, attack_bouts=1), ValueError, "steps of 0.5"),
        (dict(contract="garde", attack_points=50, attack_bouts=4), ValueError, "attack_bouts"),
        (dict(contract="garde", attack_points=50, attack_bouts=1, poignees=["quad"]), ValueError, "poign"),
        (dict(contract="garde", attack_points=50, attack_bouts=1, poignees="simple"), TypeError, "sequence"),
        (dict(contract="garde", attack_points=50, attack_bouts=1, chelem="both"), ValueError, "chelem"),
        (dict(contract="garde", attack_points="50", attack_bouts=1), TypeError, "number"),
        (dict(players=6, contract="garde", attack_points=50, attack_bouts=1), ValueError, "3, 4 or 5"),
        (dict(contract="garde", attack_points=50, attack_bouts=1, taker_alone=True), ValueError, "5 players"),
        (
            dict(contract="garde", attack_points=0, attack_bouts=3),
            ValueError,
            "3 bouts .* 13.5 to 91 points, got 0",
        ),
        (dict(contract="garde", attack_points=89, attack_bouts=1), ValueError, "1 bouts .* 4.5 to 82 points"),
        (
            dict(contract="garde", attack_points=10, attack_bouts=0, chelem="attack"),
            ValueError,
            "chelem by the attack .* at least 86.5 points, got 10",
        ),
        (
            dict(contract="garde_contre", attack_points=59, attack_bouts=2, chelem="attack"),
            ValueError,
            "at least 59.5 points",
        ),
        (
            dict(contract="prise", attack_points=32, attack_bouts=1, chelem="defence"),
            ValueError,
            "chelem by the defence .* at most 31.5 points",
        ),
        (
            dict(players=5, contract="garde_contre", attack_points=5, attack_bouts=1, chelem="defence"),
            ValueError,
            "at most 4.5 points",
        ),
    ],
)
def test_bad_input_is_explained(kwargs, error, message):
    with pytest.raises(error, match=message):
        score_deal(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(contract="garde_contre", attack_points=59.5, attack_bouts=2, chelem="attack"),
        dict(contract="garde", attack_points=86.5, attack_bouts=2, chelem="attack", chelem_announced=True),
        dict(contract="prise", attack_points=31.5, attack_bouts=1, chelem="defence"),
        dict(contract="garde", attack_points=13.5, attack_bouts=3),
        dict(contract="garde_sans", attack_points=77.5, attack_bouts=0),
    ],
)
def test_the_extreme_possible_results_are_scored_as_the_reference_does(kwargs):
    got = score_deal(**kwargs)
    args = {k: v for k, v in kwargs.items() if k != "attack_points"}
    want = ref.score_deal(
        4,
        attack_half_points=int(kwargs["attack_points"] * 2),
        taker_alone=False,
        **{"petit_au_bout": None, "poignees": [], "chelem_announced": False, "chelem": None, **args},
    )
    assert (got.made, got.margin, got.per_defender, got.taker) == (
        want["made"],
        want["margin"],
        want["per_defender"],
        want["taker_score"],
    )
