"""Train the ``net`` card player: imitation of ``pimc``, then imitation rounds on its own play.

Writes the weights that ``play=net`` plays (``tarotsim/data/net_play.npz``; set the digest it
prints as ``WEIGHTS_SHA256`` in ``tarotsim/kernels/policies/net.py``). Needs torch, the
``learn`` extra (``docs/research.md``, "The learned card player"); a seed reproduces the weights on the same
machine and versions. With the defaults, about 8 minutes on a busy 2-core machine, a third
of them compiling.

1. Positions: deals at 4 players, every seat played by ``pimc`` (its defaults), the other
   decisions by the default policies; at each card decision with a choice, the seat's input
   (``kernels.policies.mlp.features``, the same as ``play=net`` reads) and the card
   ``pimc`` chose.
2. Imitation: the network (``kernels.policies.net``: the input's active rows summed, two
   hidden ReLU layers) fitted by cross-entropy over the legal cards (Adam).
3. With ``--rounds N`` (default 0, as the shipped weights were made), imitation rounds
   (DAgger): the network as trained so far plays every seat of new deals, and
   ``pimc`` says at each decision which card it would have played there; those positions join
   the data and the network is fitted again. The network thus learns ``pimc``'s answer in the
   positions its own play leads to, which plain imitation never shows it. No reward is used:
   these rounds are imitation, not reinforcement learning.
4. Export: float16 weights in the npz layout of ``kernels.policies.mlp.LAYERS``.

Its input and the weights change together: the script imports the game, which loads the shipped
weights, so after a change of the input (``mlp.N_INPUT``) it needs weights of the new shape in
place first (any values). Run (the venv with the ``learn`` extra)::

    python examples/train_net.py --seed 2026 --out tarotsim/data/net_play.npz
"""

from __future__ import annotations

import argparse
import hashlib
import io
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numba
import numpy as np

from tarotsim import Strategy
from tarotsim.game import strategy_cfg
from tarotsim.kernels.bits import lowest_bit, popcount
from tarotsim.kernels.policies.mlp import F_HINT, LAYERS, MAX_ACTIVE, N_INPUT, features, forward
from tarotsim.kernels.rng import next_u64, seed_substream
from tarotsim.kernels.search.pimc import pimc_card
from tarotsim.kernels.search.scratch import note_deal
from tarotsim.kernels.search.searching import new_search
from tarotsim.kernels.state import N_LOG, N_REC, R_SCORE, new_state
from tarotsim.kernels.stepwise import N_POS, PH_OVER, Q_PHASE, Q_SEAT, advance, run_until, start
from tarotsim.kernels.view import seat_view
from tarotsim.run.seeding import run_key

PLAYERS = 4
ALL_SEATS = (1 << PLAYERS) - 1
BLOCK = 8
"""Deals per call of the recording kernel (one search scratch each)."""


@numba.njit(nogil=True, cache=True)
def _record(key, first, count, cfg, cfgs, net, w1, b1, w2, b2, w3, b3, idx, val, nnz, label, legal):  # type: ignore[no-untyped-def]
    """Play deals ``first … first + count - 1`` of the run ``key``; at each card decision with a
    choice, record the input and ``pimc``'s card. The card played is ``pimc``'s, or the
    network's (``w1`` … ``b3``) when ``net``. Returns the positions recorded."""
    search = new_search(cfgs)
    tb = new_state()
    pos = np.zeros(N_POS, dtype=np.int64)
    laid = np.zeros(2, dtype=np.uint64)
    rec = np.zeros(N_REC, dtype=np.int64)
    log = np.zeros(N_LOG, dtype=np.int64)
    moves = np.zeros(2, dtype=np.uint64)
    h1 = np.zeros(w1.shape[1], dtype=np.float32)
    h2 = np.zeros(w2.shape[1], dtype=np.float32)
    scores = np.zeros(78, dtype=np.float32)
    ki = np.zeros(MAX_ACTIVE, dtype=np.int32)
    kv = np.zeros(MAX_ACTIVE, dtype=np.float32)
    rows = 0
    top = 0
    for deal in range(first, first + count):
        note_deal(search.play, key, deal)
        start(tb, cfg, pos, laid, rec, log, moves, key, deal, 0)
        while True:
            run_until(tb, cfg, pos, laid, rec, log, moves, ALL_SEATS, 0)
            if pos[Q_PHASE] == PH_OVER:
                break
            seat = pos[Q_SEAT]
            v = seat_view(tb, seat)
            card = pimc_card(v, moves[0], moves[1], cfg, search.play)
            play = card
            if popcount(moves[0]) + popcount(moves[1]) > 1:
                n = features(v, moves[0], moves[1], cfg, ki, kv)
                for a in range(n):
                    idx[top + a] = ki[a]
                    val[top + a] = kv[a]
                top += n
                nnz[rows] = n
                label[rows] = card
                legal[rows, 0] = moves[0]
                legal[rows, 1] = moves[1]
                rows += 1
                if net:
                    play = forward(ki, kv, n, w1, b1, w2, b2, w3, b3, h1, h2, scores, moves[0], moves[1])
            advance(tb, cfg, pos, laid, rec, log, moves, play)
    return rows


def record(seed: int, first: int, deals: int, weights: tuple[np.ndarray, ...] | None, threads: int) -> dict:
    """Positions of deals ``first … first + deals - 1`` (see ``_record``), in blocks on ``threads`` threads."""
    key = run_key(seed)
    cfg = strategy_cfg(Strategy(play="pimc"), PLAYERS)
    cfgs = cfg.reshape(1, -1)
    net = weights is not None
    if weights is None:
        weights = (np.zeros((1, 1), np.float32), np.zeros(1, np.float32)) * 2 + (
            np.zeros((78, 1), np.float32),
            np.zeros(78, np.float32),
        )
    per_block = BLOCK * 80

    def block(b: int) -> tuple[np.ndarray, ...]:
        idx = np.zeros(per_block * MAX_ACTIVE, np.int32)
        val = np.zeros(per_block * MAX_ACTIVE, np.float32)
        nnz = np.zeros(per_block, np.int64)
        label = np.zeros(per_block, np.int64)
        legal = np.zeros((per_block, 2), np.uint64)
        start_deal = first + b * BLOCK
        count = min(BLOCK, first + deals - start_deal)
        rows = _record(key, start_deal, count, cfg, cfgs, net, *weights, idx, val, nnz, label, legal)
        top = int(nnz[:rows].sum())
        return (
            idx[:top].astype(np.int16),
            val[:top].astype(np.float16),
            nnz[:rows],
            label[:rows],
            legal[:rows],
        )

    blocks = (deals + BLOCK - 1) // BLOCK
    t0 = time.time()
    parts = []
    with ThreadPoolExecutor(threads) as pool:
        for i, part in enumerate(pool.map(block, range(blocks))):
            parts.append(part)
            if (i + 1) % max(1, blocks // 10) == 0:
                print(f"  {(i + 1) * BLOCK} deals, {time.time() - t0:.0f} s", flush=True)
    return {
        "idx": np.concatenate([p[0] for p in parts]),
        "val": np.concatenate([p[1] for p in parts]),
        "nnz": np.concatenate([p[2] for p in parts]),
        "label": np.concatenate([p[3] for p in parts]),
        "legal": np.concatenate([p[4] for p in parts]),
    }


@numba.njit(nogil=True, cache=True)
def _rollout(  # type: ignore[no-untyped-def]
    key, first, count, cfg, w1, b1, w2, b2, w3, b3, margin, temperature, idx, val, nnz, act, hint, legal, episode, reward
):
    """Play deals ``first … first + count - 1`` of the run ``key`` once with every seat on the
    policies of ``cfg`` (the baseline), then once for each seat k with k's cards chosen by the
    network (``w1`` … ``b3``), the rest by ``cfg``. ``reward[e]``, episode ``e = (deal - first)
    * PLAYERS + k``: seat k's score minus its score in the baseline. With ``temperature`` 0,
    ``play=net``'s rule (``policies.net.net_card``, the margin ``margin``); above 0, a card drawn
    from the softmax of (score + ``margin`` for the heuristic's card) / ``temperature`` over
    the legal cards (from the deal's sub-stream 1 + k, apart from the deal's own draws), and
    each such decision with a choice recorded (input, card, heuristic's card, legal cards;
    ``nnz[row]`` its inputs, ``act[row]`` its card, ``hint``, ``legal``, ``episode``). Returns the
    rows recorded."""
    tb = new_state()
    pos = np.zeros(N_POS, dtype=np.int64)
    laid = np.zeros(2, dtype=np.uint64)
    rec = np.zeros(N_REC, dtype=np.int64)
    log = np.zeros(N_LOG, dtype=np.int64)
    moves = np.zeros(2, dtype=np.uint64)
    own = np.zeros(4, dtype=np.uint64)
    h1 = np.zeros(w1.shape[1], dtype=np.float32)
    h2 = np.zeros(w2.shape[1], dtype=np.float32)
    scores = np.zeros(78, dtype=np.float32)
    ki = np.zeros(MAX_ACTIVE, dtype=np.int32)
    kv = np.zeros(MAX_ACTIVE, dtype=np.float32)
    base = np.zeros(PLAYERS, dtype=np.int64)
    rows = 0
    top = 0
    for deal in range(first, first + count):
        start(tb, cfg, pos, laid, rec, log, moves, key, deal, 0)
        run_until(tb, cfg, pos, laid, rec, log, moves, 0, 0)
        for k in range(PLAYERS):
            base[k] = rec[R_SCORE + k]
        for k in range(PLAYERS):
            seed_substream(own, key, deal, 1 + k)
            start(tb, cfg, pos, laid, rec, log, moves, key, deal, 0)
            while True:
                run_until(tb, cfg, pos, laid, rec, log, moves, 1 << k, 0)
                if pos[Q_PHASE] == PH_OVER:
                    break
                if popcount(moves[0]) + popcount(moves[1]) == 1:
                    play = lowest_bit(moves[0]) if moves[0] else 56 + lowest_bit(moves[1])
                    advance(tb, cfg, pos, laid, rec, log, moves, play)
                    continue
                v = seat_view(tb, k)
                n = features(v, moves[0], moves[1], cfg, ki, kv)
                best = forward(ki, kv, n, w1, b1, w2, b2, w3, b3, h1, h2, scores, moves[0], moves[1])
                h = 0
                for a in range(n):
                    if F_HINT <= ki[a] < F_HINT + 78:
                        h = ki[a] - F_HINT
                if temperature == 0:
                    play = best if scores[best] - scores[h] > margin else h
                else:
                    scores[h] += margin
                    top_score = scores[h]
                    for word, offset in ((moves[0], 0), (moves[1], 56)):
                        while word:
                            top_score = max(top_score, scores[offset + lowest_bit(word)])
                            word &= word - np.uint64(1)
                    total = 0.0
                    for word, offset in ((moves[0], 0), (moves[1], 56)):
                        while word:
                            card = offset + lowest_bit(word)
                            word &= word - np.uint64(1)
                            scores[card] = np.exp((scores[card] - top_score) / temperature)
                            total += scores[card]
                    u = (next_u64(own) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total
                    play = -1
                    for word, offset in ((moves[0], 0), (moves[1], 56)):
                        while word:
                            card = offset + lowest_bit(word)
                            word &= word - np.uint64(1)
                            if play < 0 or u >= 0:
                                play = card
                            u -= scores[card]
                    for a in range(n):
                        idx[top + a] = ki[a]
                        val[top + a] = kv[a]
                    top += n
                    nnz[rows] = n
                    act[rows] = play
                    hint[rows] = h
                    legal[rows, 0] = moves[0]
                    legal[rows, 1] = moves[1]
                    episode[rows] = (deal - first) * PLAYERS + k
                    rows += 1
                advance(tb, cfg, pos, laid, rec, log, moves, play)
            reward[(deal - first) * PLAYERS + k] = rec[R_SCORE + k] - base[k]
    return rows


def rollout(
    seed: int, first: int, deals: int, weights: tuple[np.ndarray, ...], margin: float, temperature: float, threads: int
) -> tuple[dict, np.ndarray]:
    """The positions and rewards of ``_rollout`` over deals ``first … first + deals - 1`` of
    the run ``seed``, in blocks on ``threads`` threads: a dict as ``record``'s (``label``: the
    card played) with ``hint`` and ``episode`` (each row's episode), and the rewards
    (float[deals * PLAYERS], game points)."""
    key = run_key(seed)
    cfg = strategy_cfg(Strategy(play="heuristic"), PLAYERS)
    per_block = BLOCK * PLAYERS * 20 if temperature > 0 else 1

    def block(b: int) -> tuple[np.ndarray, ...]:
        idx = np.zeros(per_block * MAX_ACTIVE, np.int32)
        val = np.zeros(per_block * MAX_ACTIVE, np.float32)
        nnz = np.zeros(per_block, np.int64)
        act = np.zeros(per_block, np.int64)
        hint = np.zeros(per_block, np.int64)
        legal = np.zeros((per_block, 2), np.uint64)
        episode = np.zeros(per_block, np.int64)
        start_deal = first + b * BLOCK
        count = min(BLOCK, first + deals - start_deal)
        reward = np.zeros(count * PLAYERS, np.int64)
        rows = _rollout(
            key, start_deal, count, cfg, *weights, margin, temperature, idx, val, nnz, act, hint, legal, episode, reward
        )
        top = int(nnz[:rows].sum())
        return (
            idx[:top],
            val[:top],
            nnz[:rows],
            act[:rows],
            hint[:rows],
            legal[:rows],
            episode[:rows] + b * BLOCK * PLAYERS,
            reward,
        )

    blocks = (deals + BLOCK - 1) // BLOCK
    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(block, range(blocks)))
    data = {
        name: np.concatenate([p[i] for p in parts])
        for i, name in enumerate(("idx", "val", "nnz", "label", "hint", "legal", "episode"))
    }
    return data, np.concatenate([p[7] for p in parts]).astype(np.float64)


def merge(a: dict, b: dict) -> dict:
    return {k: np.concatenate([a[k], b[k]]) for k in a}


def legal_mask(legal: np.ndarray) -> np.ndarray:
    """bool[n, 78] from the card sets' two words."""
    bits0 = (legal[:, :1] >> np.arange(56, dtype=np.uint64)) & np.uint64(1)
    bits1 = (legal[:, 1:] >> np.arange(22, dtype=np.uint64)) & np.uint64(1)
    return np.concatenate([bits0, bits1], axis=1).astype(bool)


def train(data: dict, model, epochs: int, lr: float, seed: int, batch: int = 512) -> None:  # type: ignore[no-untyped-def]
    import torch

    offsets = np.concatenate([[0], np.cumsum(data["nnz"])]).astype(np.int64)
    idx = torch.from_numpy(data["idx"].astype(np.int64))
    val = torch.from_numpy(data["val"].astype(np.float32))
    mask = torch.from_numpy(legal_mask(data["legal"]))
    label = torch.from_numpy(data["label"])
    n = len(label)
    g = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    steps = epochs * ((n + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    holdout = n // 20  # the last 5%: reported, not fitted
    fit = n - holdout
    for epoch in range(epochs):
        order = torch.randperm(fit, generator=g)
        model.train()
        total = 0.0
        for s in range(0, fit, batch):
            rows = order[s : s + batch]
            logits = model(*_gather(rows, offsets, idx, val))
            logits = logits.masked_fill(~mask[rows], -1e9)
            loss = torch.nn.functional.cross_entropy(logits, label[rows])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(rows)
        model.eval()
        with torch.no_grad():
            rows = torch.arange(fit, n)
            logits = model(*_gather(rows, offsets, idx, val)).masked_fill(~mask[rows], -1e9)
            agree = float((logits.argmax(1) == label[rows]).float().mean())
        print(
            f"  epoch {epoch + 1}: loss {total / fit:.4f}, held-out agreement with pimc {agree:.3f}",
            flush=True,
        )


def _gather(rows, offsets, idx, val):  # type: ignore[no-untyped-def]
    import torch

    starts = torch.from_numpy(offsets)[rows]
    lengths = torch.from_numpy(offsets[1:] - offsets[:-1])[rows]
    flat = torch.repeat_interleave(starts - torch.cumsum(lengths, 0) + lengths, lengths) + torch.arange(
        int(lengths.sum())
    )
    bag = torch.cat([torch.zeros(1, dtype=torch.int64), torch.cumsum(lengths, 0)[:-1]])
    return idx[flat], val[flat], bag


def make_model(h1: int, h2: int):  # type: ignore[no-untyped-def]
    import torch

    class Net(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.first = torch.nn.EmbeddingBag(N_INPUT, h1, mode="sum")
            self.b1 = torch.nn.Parameter(torch.zeros(h1))
            self.second = torch.nn.Linear(h1, h2)
            self.out = torch.nn.Linear(h2, 78)
            torch.nn.init.normal_(self.first.weight, std=(2.0 / 150) ** 0.5)

        def forward(self, idx, val, bag):  # type: ignore[no-untyped-def]
            x = torch.relu(self.first(idx, bag, per_sample_weights=val) + self.b1)
            return self.out(torch.relu(self.second(x)))

    return Net()


def export(model) -> tuple[np.ndarray, ...]:  # type: ignore[no-untyped-def]
    """The layers as ``kernels.policies.net`` reads them, rounded to float16 and back."""
    w = (
        model.first.weight.detach().numpy(),
        model.b1.detach().numpy(),
        model.second.weight.detach().numpy().T,
        model.second.bias.detach().numpy(),
        model.out.weight.detach().numpy(),
        model.out.bias.detach().numpy(),
    )
    return tuple(np.ascontiguousarray(a.astype(np.float16).astype(np.float32)) for a in w)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--deals", type=int, default=3000, help="deals of pimc imitation data")
    p.add_argument("--rounds", type=int, default=0, help="imitation rounds on the network's own play")
    p.add_argument("--round-deals", type=int, default=1500)
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--round-epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--hidden", type=int, nargs=2, default=(160, 128))
    p.add_argument("--threads", type=int, default=2, help="threads that record positions")
    p.add_argument(
        "--torch-threads",
        type=int,
        default=1,
        help="torch's threads (more spin idle on a busy machine, and change the weights' rounding)",
    )
    p.add_argument("--data", type=Path, help="keep the positions here (npz) and read them back")
    p.add_argument("--out", type=Path, default=Path("tarotsim/data/net_play.npz"))
    args = p.parse_args(argv)
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    t0 = time.time()
    if args.data is not None and args.data.exists():
        with np.load(args.data) as z:
            data = {k: z[k] for k in z.files}
        print(f"positions read back from {args.data}: {len(data['label'])}")
    else:
        print(f"recording {args.deals} deals of pimc play", flush=True)
        data = record(args.seed, 0, args.deals, None, args.threads)
        if args.data is not None:
            np.savez(args.data, **data)
    print(f"{len(data['label'])} positions, {time.time() - t0:.0f} s", flush=True)
    model = make_model(*args.hidden)
    train(data, model, args.epochs, args.lr, args.seed)
    for r in range(args.rounds):
        first = (r + 1) * 1_000_000
        print(f"round {r + 1}: the network plays {args.round_deals} deals, pimc labels them", flush=True)
        more = record(args.seed, first, args.round_deals, export(model), args.threads)
        data = merge(data, more)
        print(f"  {len(data['label'])} positions, {time.time() - t0:.0f} s", flush=True)
        train(data, model, args.round_epochs, args.lr / 2, args.seed + r + 1)
    w1, b1, w2, b2, w3, b3 = export(model)
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        **{k: a.astype(np.float16) for k, a in zip(LAYERS, (w1, b1, w2, b2, w3, b3), strict=True)},
    )
    args.out.write_bytes(buffer.getvalue())
    print(f"wrote {args.out} ({len(buffer.getvalue())} bytes) in {time.time() - t0:.0f} s")
    print(f'WEIGHTS_SHA256 = "{hashlib.sha256(buffer.getvalue()).hexdigest()}"')
    return 0


if __name__ == "__main__":
    sys.exit(main())
