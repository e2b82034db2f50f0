"""The policy registry: the files written from it, the kernels' slots and codes it names."""

from __future__ import annotations

import numpy as np
import pytest

from tarotsim.engine.kernels import state as S
from tarotsim.players import policies
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.policies import codes
from tarotsim.players.policies import DECISIONS, OPTIONS, POLICY_SLOTS, POLICY_TABLE
from tarotsim.players.policy_files import derived_files
from tarotsim.players.strategy import KEYS, Strategy


@pytest.mark.parametrize("path", sorted(derived_files(), key=str), ids=lambda p: p.name)
def test_the_files_written_from_the_registry_are_up_to_date(path) -> None:
    assert path.read_text(encoding="utf-8") == derived_files()[path], (
        "run python -m tarotsim.players.policy_files"
    )


def test_every_policy_has_its_kernel_code_and_codes_are_distinct_per_decision() -> None:
    constants = {name: value for name, value in vars(codes).items() if name.isupper()}
    assert constants == {p.constant: p.code for p in POLICY_TABLE.values()}
    for decision in DECISIONS:
        found = [p.code for p in POLICY_TABLE.values() if p.decision == decision]
        assert sorted(found) == list(range(len(found))), decision
    assert policies.PLAY_POLICIES["heuristic"] == codes.PLAY_HEURISTIC
    assert policies.CHELEM_POLICIES == {
        "never": codes.CHELEM_NEVER,
        "overwhelming": codes.CHELEM_OVERWHELMING,
        "search": codes.CHELEM_SEARCH,
    }


def test_every_slot_of_a_seat_block_belongs_to_the_registry_once() -> None:
    slots = {name: value for name, value in vars(S).items() if name.startswith("P_")}
    used: dict[int, str] = {}
    for decision, name in POLICY_SLOTS.items():
        used[slots[name]] = decision
    used[S.P_PLAY_DEFENCE] = "play (defence)"
    for option in OPTIONS.values():
        assert option.slot in slots, option.name
        width = 4 if option.kind == "thresholds" else 1
        for index in range(option.index, option.index + width):
            assert index not in used, f"{option.name} and {used[index]} share slot {index}"
            used[index] = option.name
    assert set(slots.values()) <= set(used), "a P_* slot that no policy or option of the registry names"
    assert max(i for i in used if i != S.P_LEARNED_0) < S.P_LEARNED_0 < S.N_SEAT_CFG


def test_every_option_is_read_by_a_policy_and_has_a_default_in_range() -> None:
    for option in OPTIONS.values():
        assert option.readers(), option.name
        assert all(p.decision == option.decision for p in option.readers())
        if option.kind == "count":
            option.check(option.default)
    assert set(KEYS) == {"act", *DECISIONS, "params", "attack_play", "defence_play", "name", *OPTIONS}


def test_a_policy_that_searches_makes_the_run_search() -> None:
    searching = [p for p in POLICY_TABLE.values() if p.searches]
    assert {(p.decision, p.name) for p in searching} == {
        ("play", "pimc"),
        ("bid", "montecarlo"),
        *((d, "search") for d in ("call", "ecart", "poignee", "chelem")),
    }
    assert not policies.searches(RunConfig().to_array())
    for p in searching:
        strategy = Strategy(**{p.decision: p.name})
        assert strategy.searches
        cfg = RunConfig(strategies=[Strategy()] * 3 + [strategy]).to_array()
        assert policies.searches(cfg) and policies.searches(np.stack([RunConfig().to_array(), cfg]))
    assert Strategy(defence_play="pimc").searches


def test_every_non_searching_card_play_may_be_a_rollout() -> None:
    plays = [p for p in POLICY_TABLE.values() if p.decision == "play"]
    assert all(p.rollout != p.searches for p in plays)
    assert set(OPTIONS["rollout"].names()) == {p.name for p in plays if p.rollout}
    assert set(OPTIONS["bid_rollout"].names()) == {p.name for p in plays}  # the bidder's may search
