"""The OpenSpiel game: OpenSpiel's own conformance checks, exact resampling, IS-MCTS to the end."""

from __future__ import annotations

import importlib
import io
import random
import sys
import unittest

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel game needs the openspiel extra")

import tarotsim.interfaces.openspiel as tarot_spiel  # noqa: E402
from tarotsim import Game  # noqa: E402


def _game(players: int, dealer: int = 0) -> pyspiel.Game:
    return pyspiel.load_game("python_french_tarot", {"players": players, "dealer": dealer})


def _random_states(game: pyspiel.Game, games: int, seed: int) -> list[pyspiel.State]:
    """Every state along ``games`` random trajectories, chance and terminal states included."""
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = game.new_initial_state()
        while True:
            states.append(state)
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(outcomes, probs)[0]
            else:
                action = rng.choice(state.legal_actions())
            state = state.child(action)
    return states


@pytest.mark.parametrize("players", [3, 4, 5])
def test_openspiel_random_sim_test(players: int) -> None:
    pyspiel.random_sim_test(_game(players, dealer=players - 1), num_sims=3, serialize=True, verbose=False)


def test_openspiel_integration_api_test() -> None:
    """OpenSpiel's integration ``api_test`` on the game: its checks on a sampled part of the
    tree as they stand, and those of its full-tree checks that do not need the whole tree
    (too large to enumerate), run on every state of random trajectories instead."""
    from open_spiel.integration_tests import api_test

    game = _game(4)
    partial = type(
        "FrenchTarotPartialTree",
        (api_test.EnforceAPIOnPartialTreeBase,),
        {"game_name": "python_french_tarot", "game": game},
    )
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(partial)

    class FrenchTarotSampledTree(api_test.EnforceAPIOnFullTreeBase):
        game_name = "python_french_tarot"

        @classmethod
        def setUpClass(cls) -> None:
            cls.game = _game(5)
            cls.all_states = _random_states(cls.game, 3, seed=1)

    for name in (
        "test_legal_actions_empty",
        "test_current_player_returns_terminal_player_on_terminal_nodes",
        "test_information_state_no_argument_raises_on_terminal_nodes",
        "test_constant_sum",
        "test_information_state_functions_raises_on_chance_nodes",
        "test_current_player_infosets_no_overlap_between_players",
    ):
        suite.addTest(FrenchTarotSampledTree(name))
    result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
    assert result.wasSuccessful(), [str(e[1])[-2000:] for e in result.errors + result.failures]
    assert result.testsRun == 11


@pytest.mark.parametrize("players", [3, 4, 5])
def test_resampled_states_look_the_same_to_the_seat_and_play_on(players: int) -> None:
    """At many decisions of random deals: a resampled state has the seat's information
    state (and legal actions when it is to act), replays legally and plays to the end."""
    game = _game(players)
    rng = random.Random(players)
    generator = np.random.default_rng(players)
    checked = 0
    for state in _random_states(game, 4, seed=players):
        if state.is_terminal() or (state.is_chance_node() and rng.random() > 0.05):
            continue
        if not state.is_chance_node() and rng.random() > 0.4:
            continue
        seat = state.current_player() if not state.is_chance_node() else rng.randrange(players)
        for who in {seat, rng.randrange(players)}:
            new = tarot_spiel.resample(state, who, generator)
            assert new.information_state_string(who) == state.information_state_string(who)
            assert new.information_state_tensor(who) == state.information_state_tensor(who)
            assert new.current_player() == state.current_player()
            if who == state.current_player():
                assert new.legal_actions() == state.legal_actions()
            checked += 1
        while not new.is_terminal():
            if new.is_chance_node():
                new.apply_action(new.chance_outcomes()[0][0])
            else:
                new.apply_action(rng.choice(new.legal_actions()))
        assert sum(new.returns()) == 0
    assert checked > 40


def test_resampling_spreads_the_unseen_cards() -> None:
    """The seat to speak first: the chien holds 6 of the 60 cards it cannot see in every
    draw, each of them as often as the others."""
    game = _game(4)
    state = tarot_spiel.deal_state(game, *_hands(Game(4, seed=0, deal=1)))
    seat = state.current_player()
    mine = set(state.tarot.observation(seat).hand)
    generator = np.random.default_rng(0)
    counts: dict[str, int] = {}
    for _ in range(300):
        new = tarot_spiel.resample(state, seat, generator)
        chien = _chien(new)
        assert len(chien) == 6 and not chien & mine
        for card in chien:
            counts[card] = counts.get(card, 0) + 1
    assert len(counts) == 60
    # each unseen card is in the chien with probability 6/60: 30 times in 300 draws
    chi2 = sum((c - 30) ** 2 / 30 for c in counts.values())
    assert chi2 < 100  # 59 degrees of freedom: P(chi2 > 100) < 0.001


def test_ismcts_plays_a_deal_to_the_end() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = _game(4)
    state = tarot_spiel.deal_state(game, *_hands(Game(4, seed=0, deal=0)))
    random_state = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=random_state)
    rng = random.Random(0)
    decisions = 0
    while not state.is_terminal():
        if state.current_player() in (0, 2):
            action = bot.step(state)
            decisions += 1
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
    assert decisions >= 18 and sum(state.returns()) == 0


def test_an_action_out_of_range_is_refused_naming_the_legal_actions() -> None:
    """Negative or too large ids were taken as Python indices (-160 played ``pass``) or
    raised a bare IndexError: refused as an illegal action is, the state unchanged."""
    state = tarot_spiel.deal_state(_game(4), *_hands(Game(4, seed=0, deal=0)))
    history, text = state.history(), str(state)
    for bad in (-160, -2, 160, 10**6):  # -1, kInvalidAction, OpenSpiel refuses itself
        with pytest.raises(
            ValueError, match=r"cannot play -?\d+, not an action number.*legal actions: 0 \(pass\)"
        ):
            state.apply_action(bad)
    with pytest.raises(ValueError, match=r"cannot play action 5 \(ecart:1S\)"):
        state.apply_action(5)
    assert state.history() == history and str(state) == text
    state.apply_action(1)
    assert state.moves[-1][1] == "prise"


def test_deal_state_deals_the_given_cards() -> None:
    tarot = Game(5, seed=7, deal=2)
    state = tarot_spiel.deal_state(_game(5, dealer=tarot.dealer), *_hands(tarot))
    assert not state.is_chance_node()
    for seat in range(5):
        assert state.tarot.observation(seat).hand == tarot.observation(seat).hand
    assert state.information_state_string(1) == tarot.observation(1).info_string()
    assert state.observation_tensor(1) == pytest.approx(tarot.observation(1).tensor().tolist())
    with pytest.raises(ValueError, match="dealt twice"):
        tarot_spiel.deal_state(_game(5), [["KS"]] * 5, [])


def test_observation_types_split_public_and_private_information() -> None:
    from open_spiel.python.observation import make_observation

    game = _game(4)
    state = tarot_spiel.deal_state(game, *_hands(Game(4, seed=0, deal=0)))
    hand = state.tarot.observation(0).hand
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    private = make_observation(game, pyspiel.IIGObservationType(public_info=False, perfect_recall=False))
    everything = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS),
    )
    assert hand[0] not in public.string_from(state, 0).split()
    assert "hand" not in public.dict and "hand" in private.dict and "bids" not in private.dict
    assert hand[0] in private.string_from(state, 0).split()
    everything.set_from(state, 0)
    assert everything.dict["deal"].sum() == 78
    assert game.information_state_tensor_size() == game.observation_tensor_size() + 78 * 24 + 6 * 78


def test_public_text_and_info_string_share_the_table_lines_word_for_word() -> None:
    """The public observation's text and the seat's ``info_string`` mid-play, pinned: both
    write the lines from the bids to the trick in play with ``Observation.table_lines``."""
    from open_spiel.python.observation import make_observation

    game = _game(4)
    state = tarot_spiel.deal_state(game, *_hands(Game(4, seed=0, deal=0)))
    rng = random.Random(3)
    for _ in range(14):
        state.apply_action(rng.choice(state.legal_actions()))
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    table = [
        "bids prise garde garde_sans garde_contre",
        "contract garde_contre taker 0 called None partner None",
    ]
    tricks = ["poignees  |  |  | ", "trick 1: 1S 4S JS 3S > 3", "trick 3: 10D CD EX QD > 2", "in play 2: T11"]
    assert public.string_from(state, 1).split("\n") == [
        "4 players, dealer 0, phase play",
        *table,
        "chelem False",
        "chien -",
        "ecart shown ",
        *tricks,
    ]
    assert state.tarot.observation(1).info_string().split("\n") == [
        "seat 1 of 4, dealer 0, phase play",
        "hand 6S 10S CS QS 5H JH 1D 3D 4D 8D T1 T3 T9 T10 T20 T21",
        *table,
        "attack False chelem False",
        "chien -",
        "ecart ",
        *tricks,
        "legal ",
    ]


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="players must be 3, 4 or 5"):
        _game(6)
    with pytest.raises(Exception, match="dealer must be a seat"):
        _game(4, dealer=4)


def test_without_openspiel_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "tarotsim.interfaces.openspiel")
    with pytest.raises(ImportError, match=r"extra 'openspiel'\): pip install open-spiel"):
        importlib.import_module("tarotsim.interfaces.openspiel")


def _hands(tarot: Game) -> tuple[list[list[str]], list[str]]:
    """The cards ``tarot`` deals: each seat's hand, the chien."""
    played = tarot.clone()
    while not played.over:
        played.apply(played.legal_actions()[0])
    trace = played.to_trace()
    return trace["hands"], trace["chien"]


def _chien(state: pyspiel.State) -> set[str]:
    spec = state.spec
    return {tarot_spiel._NAMES[c] for c in range(78) if state._holder[c] == spec.players}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_state_drawn_from_an_observation_shows_the_seat_that_observation(players: int) -> None:
    """At every decision of deals played by the heuristic (poignées shown and all): the
    drawn state's observation of the seat to act is the observation, and it is to act."""
    generator = np.random.default_rng(players)
    for deal in range(2):
        tarot = Game(players, seed=11, deal=deal)
        while not tarot.over:
            observation = tarot.observation()
            state = tarot_spiel.state_from_observation(observation, generator)
            assert state.observation_string(observation.seat) == observation.info_string()
            assert state.current_player() == observation.seat
            tarot.apply(tarot.ask("play=heuristic,ecart=expert,poignee=smart"))


def test_ismcts_sits_at_tarotsim_s_table_reproducibly() -> None:
    from tarotsim import Strategy, duel

    def play() -> object:
        player = tarot_spiel.ismcts_player(4, seed=3)
        result = duel(
            Strategy(play=player, ecart="expert"), "play=heuristic,ecart=expert", 1, seed=2, players=3
        )
        assert player.decisions == 3 * 24
        return result.records

    first, second = play(), play()
    assert first.equals(second)


def _own_history(state: pyspiel.State, player: int) -> list[tuple[str, int]]:
    """The seat's information states and actions along the history of ``state``."""
    replay = state.get_game().new_initial_state()
    own = []
    for action in state.history():
        if not replay.is_chance_node() and replay.current_player() == player:
            own.append((replay.information_state_string(player), action))
        replay.apply_action(action)
    return own


@pytest.mark.parametrize("players", [4, 5])
def test_perfect_recall_across_resampled_histories(players: int) -> None:
    """OpenSpiel's perfect-recall check (``api_test._assert_is_perfect_recall``) on histories
    that share an information state: a state and its resamplings give the seat the same
    sequence of its own information states and actions."""
    generator = np.random.default_rng(players)
    rng = random.Random(players)
    checked = 0
    for state in _random_states(_game(players), 2, seed=10 + players):
        if state.is_terminal() or state.is_chance_node() or rng.random() > 0.15:
            continue
        seat = state.current_player()
        own = _own_history(state, seat)
        for _ in range(3):
            assert _own_history(tarot_spiel.resample(state, seat, generator), seat) == own
            checked += 1
    assert checked > 30
