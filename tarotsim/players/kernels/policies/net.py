"""The ``net`` card-play policy: a small neural network, learned from the ``pimc`` search
player's cards and then by reinforcement learning against the heuristic
(``examples/train_net.py``), evaluated here in Numba.

The seat's ``SeatView`` and its legal cards become a compact input (``players.kernels.policies.mlp``:
0/1 planes of the 78 cards and a few scalars, given as the list of its non-zero entries). A
multilayer perceptron with two hidden layers (ReLU) scores the legal cards. One plane of the
input is the card the heuristic would play; the seat plays that card unless the network scores
its best card (the lowest id among equal scores) more than `MARGIN` above it, so the network
leaves the heuristic only where it is sure (deterministic; it never draws from the deal's
random stream). The first layer is a sum of the rows of the active
inputs, so the input's size costs memory, not time.

The weights ship with the package (``tarotsim/data/net_play.npz``, stored as float16, used
as float32) and are read once, at import, into module-level arrays. Numba freezes a global
array into the compiled code as a constant, and its on-disk cache judges a kernel fresh by
the sources alone: so ``WEIGHTS_SHA256`` holds the file's digest, a weights file that differs
fails the import, and the edit of this line that goes with new weights recompiles every
kernel that plays ``net`` (``tarotsim._jit`` stamps the kernels with their sources).

The game loop runs without reference counting (``_nrt=False``): the network's working
arrays are on the stack of ``net_card`` (``_stack``), not allocated.
"""

from __future__ import annotations

import hashlib
import io
from importlib import resources

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from tarotsim._jit import njit
from tarotsim.engine.cards import N_CARDS, N_SUIT_CARDS
from tarotsim.engine.kernels.bits import lowest_bit, popcount
from tarotsim.engine.kernels.view import SeatView
from tarotsim.players.kernels.policies.heuristic import heuristic_card
from tarotsim.players.kernels.policies.mlp import LAYERS, MAX_ACTIVE, N_INPUT, features, forward

WEIGHTS_FILE = "data/net_play.npz"
"""The weights, in the package: the arrays of ``mlp.LAYERS``."""
WEIGHTS_SHA256 = "330dbc7626a5c58874624c24836a266de8685c7d1ef07e745e2109a7d73fd041"
"""The SHA-256 of the weights file: changed with it (see the module docstring)."""
MARGIN = 2.0
"""How much more the network must score a card than the heuristic's card to play it rather than
the heuristic's (chosen among 0, 1, 2, 3 and 4 by duels against the heuristic on the 4,000
deals of seed 11, for the shipped weights: ``reports/learned-player.md``)."""
FROZEN_BYTES = 10**6
"""The largest global array Numba freezes into the compiled code (float32 bytes); a larger one
is read by its address, and no kernel that reads it can be cached."""


def load_weights(data: bytes) -> tuple[np.ndarray, ...]:
    """The network's arrays (float32, C order, in `LAYERS` order) from the bytes of an npz file.

    Raises
    ------
    ValueError
        When an array is missing or the shapes do not chain (``w1`` must have N_INPUT rows,
        ``w3`` 78).
    """
    with np.load(io.BytesIO(data)) as z:
        missing = [name for name in LAYERS if name not in z.files]
        if missing:
            raise ValueError(f"the net's weights lack {', '.join(missing)}")
        w1, b1, w2, b2, w3, b3 = (np.ascontiguousarray(z[name], dtype=np.float32) for name in LAYERS)
    h1, h2 = w1.shape[1], w2.shape[1]
    if w1.shape != (N_INPUT, h1) or b1.shape != (h1,) or w2.shape != (h1, h2) or b2.shape != (h2,):
        raise ValueError(f"the net's hidden layers do not chain: w1 {w1.shape}, w2 {w2.shape}")
    if w3.shape != (N_CARDS, h2) or b3.shape != (N_CARDS,):
        raise ValueError(f"the net's output layer must score {N_CARDS} cards: w3 {w3.shape}")
    if w1.nbytes > FROZEN_BYTES or w2.nbytes > FROZEN_BYTES:
        raise ValueError(
            f"the net's layers must hold at most {FROZEN_BYTES} bytes each, w1 holds {w1.nbytes}"
        )
    return w1, b1, w2, b2, w3, b3


def _shipped() -> tuple[np.ndarray, ...]:
    data = resources.files("tarotsim").joinpath(WEIGHTS_FILE).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != WEIGHTS_SHA256:
        raise ValueError(
            f"tarotsim/{WEIGHTS_FILE} has SHA-256 {digest}, kernels/policies/net.py expects "
            f"{WEIGHTS_SHA256}: set WEIGHTS_SHA256 to the new file's digest"
        )
    return load_weights(data)


WEIGHTS = _shipped()
"""The shipped network's arrays (``mlp.LAYERS``), float32."""
W1, B1, W2, B2, W3, B3 = WEIGHTS
HIDDEN1 = W1.shape[1]
HIDDEN2 = W2.shape[1]


@intrinsic
def _stack(typingctx, size, dtype):  # type: ignore[no-untyped-def]
    """A 1-d array of ``size`` (a literal int) values of ``dtype`` on the stack of the calling
    function (``cgutils.alloca_once``: made once, at its entry), owned by no one: scratch that
    lives until that function returns, with no allocation and no reference count."""
    if not isinstance(size, types.IntegerLiteral):
        return None
    count = size.literal_value
    element_type = dtype.dtype
    array_type = types.Array(element_type, 1, "C")

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        element = context.get_value_type(element_type)
        itemsize = context.get_abi_sizeof(element)
        array = make_array(array_type)(context, builder)
        populate_array(
            array,
            data=cgutils.alloca_once(builder, element, size=count),
            shape=[context.get_constant(types.intp, count)],
            strides=[context.get_constant(types.intp, itemsize)],
            itemsize=context.get_constant(types.intp, itemsize),
            meminfo=None,
        )
        return array._getvalue()

    return array_type(size, dtype), codegen


@njit(_nrt=False)
def net_card(v: SeatView, legal0: np.uint64, legal1: np.uint64, cfg: np.ndarray) -> int:
    """The card the ``net`` policy plays for the seat of ``v`` from its legal cards, with its
    options ``cfg``: the heuristic's card (``heuristic.heuristic_card``, also part of the
    input), unless the network scores its best card more than `MARGIN` above it; a lone legal
    card at once."""
    if popcount(legal0) + popcount(legal1) == 1:
        return lowest_bit(legal0) if legal0 else N_SUIT_CARDS + lowest_bit(legal1)
    idx = _stack(MAX_ACTIVE, np.int32)
    val = _stack(MAX_ACTIVE, np.float32)
    h1 = _stack(HIDDEN1, np.float32)
    h2 = _stack(HIDDEN2, np.float32)
    scores = _stack(N_CARDS, np.float32)
    n = features(v, legal0, legal1, cfg, idx, val)
    best = forward(idx, val, n, W1, B1, W2, B2, W3, B3, h1, h2, scores, legal0, legal1)
    hint = heuristic_card(v, legal0, legal1, cfg)
    return best if scores[best] - scores[hint] > MARGIN else hint
