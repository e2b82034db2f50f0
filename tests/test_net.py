"""The ``net`` card player: the kernel's network is the shipped weights' network, it reads only
its seat's view, and a weights file that does not fit is refused with a message."""

from __future__ import annotations

import io
from importlib import resources

import numpy as np
import pytest

from tarotsim import Game
from tarotsim.engine.cards import card_id, from_mask
from tarotsim.interfaces.game import strategy_cfg
from tarotsim.interfaces.testing import check_no_peeking
from tarotsim.players.kernels.policies import net
from tarotsim.players.kernels.policies.mlp import F_HINT, LAYERS, MAX_ACTIVE, N_INPUT, features, forward


def _numpy_scores(idx: np.ndarray, val: np.ndarray, weights: tuple[np.ndarray, ...]) -> np.ndarray:
    """The 78 scores of a dense numpy forward pass (float64) of the input's entries."""
    w1, b1, w2, b2, w3, b3 = (w.astype(np.float64) for w in weights)
    x = np.zeros(N_INPUT)
    np.add.at(x, idx, val)
    h1 = np.maximum(x @ w1 + b1, 0)
    h2 = np.maximum(h1 @ w2 + b2, 0)
    return w3 @ h2 + b3


def test_the_kernel_plays_the_numpy_network_of_the_shipped_weights() -> None:
    shipped = net.load_weights(resources.files("tarotsim").joinpath(net.WEIGHTS_FILE).read_bytes())
    assert all(a.dtype == np.float32 for a in shipped)
    idx = np.zeros(MAX_ACTIVE, np.int32)
    val = np.zeros(MAX_ACTIVE, np.float32)
    h1 = np.zeros(net.HIDDEN1, np.float32)
    h2 = np.zeros(net.HIDDEN2, np.float32)
    scores = np.zeros(78, np.float32)
    net_cfg = strategy_cfg("play=net", 4)
    decisions = 0
    followed = 0
    for deal in range(3):
        game = Game(4, seed=11, deal=deal)
        while not game.over:
            observation = game.observation()
            action = game.ask("play=net")
            if observation.phase == "play" and len(observation.legal_actions) > 1:
                _, _, legal0, legal1, _ = observation._decision
                n = features(observation._view, np.uint64(legal0), np.uint64(legal1), net_cfg, idx, val)
                assert 0 < n <= MAX_ACTIVE and (idx[:n] < N_INPUT).all()
                expected = _numpy_scores(idx[:n], val[:n], shipped)
                legal = from_mask(legal0, legal1)
                card = forward(
                    idx, val, n, *net.WEIGHTS, h1, h2, scores, np.uint64(legal0), np.uint64(legal1)
                )
                np.testing.assert_allclose(scores[legal], expected[legal], rtol=1e-4, atol=1e-4)
                best = max(legal, key=lambda c: (expected[c], -c))
                assert card == best
                (hint,) = [i - F_HINT for i in idx[:n] if F_HINT <= i < F_HINT + 78]
                assert card_id(action) == (best if expected[best] - expected[hint] > net.MARGIN else hint)
                followed += card_id(action) == hint
                decisions += 1
            game.apply(action)
    assert decisions > 50
    assert 0 < followed < decisions  # the network leaves the heuristic's card at times, not always


def test_net_decides_from_what_its_seat_knows() -> None:
    report = check_no_peeking("play=net", deals=6, seed=4, redeals=2)
    assert report.by_phase.get("play", 0) > 20


def _npz(**arrays: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def test_weights_that_do_not_fit_are_refused() -> None:
    good = dict(zip(LAYERS, net.WEIGHTS, strict=True))
    assert len(net.load_weights(_npz(**good))) == 6
    with pytest.raises(ValueError, match="lack b3"):
        net.load_weights(_npz(**{k: a for k, a in good.items() if k != "b3"}))
    with pytest.raises(ValueError, match="do not chain"):
        net.load_weights(_npz(**{**good, "w1": good["w1"][:-1]}))
    with pytest.raises(ValueError, match="score 78 cards"):
        net.load_weights(_npz(**{**good, "w3": good["w3"][:-1], "b3": good["b3"][:-1]}))
    with pytest.raises(ValueError, match="at most"):
        wide = np.zeros((N_INPUT, 256), np.float32)
        net.load_weights(
            _npz(**{**good, "w1": wide, "b1": np.zeros(256, np.float32), "w2": np.zeros((256, 128))})
        )


@pytest.mark.slow
def test_the_training_scripts_measure_is_the_duel(monkeypatch: pytest.MonkeyPatch) -> None:
    """``examples/train_net.py`` chooses its weights and margin by its own kernel's edge over
    the heuristic (``rollout``, no torch needed): the same per-deal edge as ``tarotsim.duel``."""
    from pathlib import Path

    import tarotsim
    from tarotsim.analysis.duel import deal_edges

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "examples"))
    import train_net

    _, reward = train_net.rollout(7, 0, 24, net.WEIGHTS, net.MARGIN, False, 1)
    result = tarotsim.duel("play=net", "play=heuristic", 24, seed=7, threads=1, progress=False)
    np.testing.assert_allclose(reward.reshape(-1, 4).mean(axis=1), deal_edges(result.records, 4))
