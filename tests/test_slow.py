"""Long statistical and exhaustive runs, left out of the default suite: pytest -m slow."""

import math

import numpy as np
import pytest

from tarotsim.base.seeding import run_key
from tarotsim.players.config import RunConfig
from tarotsim.runs.trace import iter_traces
from tests import reference as ref

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    ("players", "policy", "deals"),
    [(4, "random", 50_000), (4, "heuristic", 50_000), (3, "heuristic", 15_000), (5, "heuristic", 15_000)],
)
def test_many_traced_deals_pass_the_reference(players, policy, deals):
    config = RunConfig(
        players=players, policy=policy, ecart_policy="expert" if policy == "heuristic" else "simple"
    )
    for trace in iter_traces(deals, run_key(31), config):
        ref.check_trace(trace)


def _upper_tail(stat: float, dof: int) -> float:
    z = ((stat / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def _chi_square_p(counts: np.ndarray, law: np.ndarray) -> float:
    expected = law * counts.sum()
    keep = expected >= 5
    observed, expect = counts[keep], expected[keep]
    if expected[~keep].sum() > 0:  # pool the rare values into one cell
        observed = np.append(observed, counts[~keep].sum())
        expect = np.append(expect, expected[~keep].sum())
    stat = float(((observed - expect) ** 2 / expect).sum())
    return _upper_tail(stat, len(observed) - 1)


def test_every_seat_gets_the_exact_laws_of_trumps_and_bouts():
    from tarotsim.engine.kernels import state as S
    from tarotsim.runs.trace import traced_block

    deals = 1_000_000
    _, _, masks = traced_block(0, deals, run_key(77), RunConfig(players=4).to_array())
    trumps_law = np.array(
        [math.comb(21, k) * math.comb(57, 18 - k) / math.comb(78, 18) if k <= 18 else 0.0 for k in range(22)]
    )
    bouts_law = np.array([math.comb(3, k) * math.comb(75, 18 - k) / math.comb(78, 18) for k in range(4)])
    for seat in range(4):
        word1 = masks[:, S.M_DEALT + 2 * seat + 1]
        trumps = np.bitwise_count(word1 & np.uint64((1 << 21) - 1)).astype(np.int64)
        bouts = np.bitwise_count(word1 & np.uint64(1 | 1 << 20 | 1 << 21)).astype(np.int64)
        assert _chi_square_p(np.bincount(trumps, minlength=22), trumps_law) > 1e-4
        assert _chi_square_p(np.bincount(bouts, minlength=4), bouts_law) > 1e-4
