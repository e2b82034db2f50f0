"""Train the ``net`` card player: imitation of ``pimc``, then reinforcement learning against the heuristic.

Writes the weights that ``play=net`` plays (``tarotsim/data/net_play.npz``; set the digest it
prints as ``WEIGHTS_SHA256`` in ``tarotsim/players/kernels/policies/net.py``). Needs torch, the
``learn`` extra (``docs/research.md``, "The learned card player"); a seed reproduces the weights on the same
machine and versions. With the defaults, about 25 minutes on a busy 2-core machine.

1. Positions: deals at 4 players, every seat played by ``pimc`` (its defaults), the other
   decisions by the default policies; at each card decision with a choice, the seat's input
   (``players.kernels.policies.mlp.features``, the same as ``play=net`` reads) and the card
   ``pimc`` chose.
2. Imitation: the network (``players.kernels.policies.net``: the input's active rows summed, two
   hidden ReLU layers) fitted by cross-entropy over the legal cards (Adam).
3. With ``--rounds N`` (default 0), imitation rounds (DAgger): the network as trained so far
   plays every seat of new deals, and ``pimc`` says at each decision which card it would have
   played there; those positions join the data and the network is fitted again. No reward is
   used: these rounds are imitation.
4. Reinforcement learning (``--rl-deals N``, default 16,000): rounds of new deals where one
   seat plays ``play=net``'s rule (the heuristic's card unless the network scores its best
   card more than ``--margin`` above it) with the network as it is, the other seats the
   heuristic. At each of that seat's card decisions with a choice, every other legal card is
   tried in turn and the deal played on by the same players, from the deal's own cards and
   random stream: the seat's score with that card minus its score with the rule's card is the
   card's gain there (``_rollout``). Each round fits the network to raise the expected gain of
   the softmax of its scores (the heuristic's card with the margin added), with a
   KL(imitation || network) term that keeps it near the imitation. Every few rounds the rule is
   measured against the heuristic (duplicate, as ``tarotsim.duel``) on the deals of
   ``--select-seed``, and the weights that measured best there are kept; another seed's deals
   judge them (``benchmarks/bench_net.py``, seed 7).
5. Export: float16 weights in the npz layout of ``players.kernels.policies.mlp.LAYERS``.

``--measure FILE …`` instead prints each weights file's edge over the heuristic on the deals of
``--select-seed`` with each of ``--margins``, and its paired difference to the first: how the
margin and the shipped weights were chosen.

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
from tarotsim.base.seeding import run_key
from tarotsim.engine.kernels.bits import lowest_bit, popcount
from tarotsim.engine.kernels.state import N_LOG, N_REC, PH_OVER, Q_PHASE, Q_SEAT, R_SCORE, new_state
from tarotsim.engine.kernels.view import seat_view
from tarotsim.interfaces.game import strategy_cfg
from tarotsim.players.kernels.machine import apply, start
from tarotsim.players.kernels.policies.mlp import F_HINT, LAYERS, MAX_ACTIVE, N_INPUT, features, forward
from tarotsim.players.kernels.policies.net import load_weights
from tarotsim.players.kernels.search.pimc import pimc_card
from tarotsim.players.kernels.search.scratch import note_deal
from tarotsim.players.kernels.search.searching import new_search
from tarotsim.players.kernels.seats import run_until

PLAYERS = 4
ALL_SEATS = (1 << PLAYERS) - 1
BLOCK = 8
"""Deals per call of the recording kernel (one search scratch each)."""
RL_SCALE = 20.0
"""Game points per unit of gain in the reinforcement learning's objective."""
RL_FIRST = 10_000_000
"""The first deal of the run that reinforcement learning plays (after any imitation data's)."""


@numba.njit(nogil=True, cache=True)
def _record(key, first, count, cfg, cfgs, net, w1, b1, w2, b2, w3, b3, idx, val, nnz, label, legal):  # type: ignore[no-untyped-def]
    """Play deals ``first … first + count - 1`` of the run ``key``; at each card decision with a
    choice, record the input and ``pimc``'s card. The card played is ``pimc``'s, or the
    network's (``w1`` … ``b3``) when ``net``. Returns the positions recorded."""
    search = new_search(cfgs)
    tb = new_state()
    pos = tb.pos
    moves = tb.legal
    rec = np.zeros(N_REC, dtype=np.int64)
    log = np.zeros(N_LOG, dtype=np.int64)
    h1 = np.zeros(w1.shape[1], dtype=np.float32)
    h2 = np.zeros(w2.shape[1], dtype=np.float32)
    scores = np.zeros(78, dtype=np.float32)
    ki = np.zeros(MAX_ACTIVE, dtype=np.int32)
    kv = np.zeros(MAX_ACTIVE, dtype=np.float32)
    rows = 0
    top = 0
    for deal in range(first, first + count):
        note_deal(search.play, key, deal)
        start(tb, cfg, rec, log, key, deal, 0)
        while True:
            run_until(tb, cfg, rec, log, None, None, ALL_SEATS, 0)
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
            apply(tb, cfg, rec, log, play)
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
def _play_seat(tb, cfg, rec, log, key, deal, k, net, margin, cards, upto, card, ki, kv, scratch):  # type: ignore[no-untyped-def]
    """Play deal ``deal`` of the run ``key`` with seat ``k``'s cards chosen by ``play=net``'s rule
    (``players.kernels.policies.net.net_card``; ``net``: the layers ``w1`` … ``b3``, the margin ``margin``), the
    rest by the policies of ``cfg``; but seat k's first ``upto`` cards are ``cards[:upto]`` and
    its next ``card`` (when ``card >= 0``). Every card of seat k goes to ``cards``. Returns its
    score."""
    w1, b1, w2, b2, w3, b3 = net
    h1, h2, scores = scratch
    pos = tb.pos
    moves = tb.legal
    start(tb, cfg, rec, log, key, deal, 0)
    turn = 0
    while True:
        run_until(tb, cfg, rec, log, None, None, 1 << k, 0)
        if pos[Q_PHASE] == PH_OVER:
            return rec[R_SCORE + k]
        if turn < upto:
            play = cards[turn]
        elif turn == upto and card >= 0:
            play = card
        elif popcount(moves[0]) + popcount(moves[1]) == 1:
            play = lowest_bit(moves[0]) if moves[0] else 56 + lowest_bit(moves[1])
        else:
            n = features(seat_view(tb, k), moves[0], moves[1], cfg, ki, kv)
            best = forward(ki, kv, n, w1, b1, w2, b2, w3, b3, h1, h2, scores, moves[0], moves[1])
            h = 0
            for a in range(n):
                if F_HINT <= ki[a] < F_HINT + 78:
                    h = ki[a] - F_HINT
            play = best if scores[best] - scores[h] > margin else h
        cards[turn] = play
        turn += 1
        apply(tb, cfg, rec, log, play)


@numba.njit(nogil=True, cache=True)
def _rollout(key, first, count, cfg, net, margin, explore, idx, val, nnz, hint, legal, gain, reward):  # type: ignore[no-untyped-def]
    """Play deals ``first … first + count - 1`` of the run ``key`` once with every seat on the
    policies of ``cfg`` (the baseline), then once for each seat k with k's cards by the network
    (``_play_seat``), the rest by ``cfg``: ``reward[e]``, episode ``e = (deal - first) * PLAYERS
    + k``, is seat k's score minus its baseline score. With ``explore``, at each of seat k's
    card decisions with a choice, each other legal card is tried in its place, the deal played
    on by the same players: ``gain[row, card]`` is seat k's score with that card minus its score
    with the network's, and the row holds the decision's input (``idx``, ``val``, ``nnz[row]``
    of them), the heuristic's card (``hint``) and the legal cards. Returns the rows."""
    tb = new_state()
    pos = tb.pos
    moves = tb.legal
    rec = np.zeros(N_REC, dtype=np.int64)
    log = np.zeros(N_LOG, dtype=np.int64)
    scratch = (
        np.zeros(net[0].shape[1], dtype=np.float32),
        np.zeros(net[2].shape[1], dtype=np.float32),
        np.zeros(78, dtype=np.float32),
    )
    ki = np.zeros(MAX_ACTIVE, dtype=np.int32)
    kv = np.zeros(MAX_ACTIVE, dtype=np.float32)
    cards = np.zeros(24, dtype=np.int64)
    tried = np.zeros(24, dtype=np.int64)
    base = np.zeros(PLAYERS, dtype=np.int64)
    rows = 0
    top = 0
    for deal in range(first, first + count):
        start(tb, cfg, rec, log, key, deal, 0)
        run_until(tb, cfg, rec, log, None, None, 0, 0)
        for k in range(PLAYERS):
            base[k] = rec[R_SCORE + k]
        for k in range(PLAYERS):
            score = _play_seat(tb, cfg, rec, log, key, deal, k, net, margin, cards, 0, -1, ki, kv, scratch)
            reward[(deal - first) * PLAYERS + k] = score - base[k]
            if not explore:
                continue
            turns = 0
            for t in range(24):  # seat k's cards, the network's: replayed up to each decision
                tried[t] = cards[t]
            start(tb, cfg, rec, log, key, deal, 0)
            while True:
                run_until(tb, cfg, rec, log, None, None, 1 << k, 0)
                if pos[Q_PHASE] == PH_OVER:
                    break
                if popcount(moves[0]) + popcount(moves[1]) > 1:
                    n = features(seat_view(tb, k), moves[0], moves[1], cfg, ki, kv)
                    for a in range(n):
                        idx[top + a] = ki[a]
                        val[top + a] = kv[a]
                        if F_HINT <= ki[a] < F_HINT + 78:
                            hint[rows] = ki[a] - F_HINT
                    top += n
                    nnz[rows] = n
                    legal[rows, 0] = moves[0]
                    legal[rows, 1] = moves[1]
                    for word, offset in ((moves[0], 0), (moves[1], 56)):
                        while word:
                            card = offset + lowest_bit(word)
                            word &= word - np.uint64(1)
                            if card != tried[turns]:
                                other = _play_seat(
                                    tb,
                                    cfg,
                                    rec,
                                    log,
                                    key,
                                    deal,
                                    k,
                                    net,
                                    margin,
                                    cards,
                                    turns,
                                    card,
                                    ki,
                                    kv,
                                    scratch,
                                )
                                gain[rows, card] = other - score
                    for t in range(24):
                        cards[t] = tried[t]
                    rows += 1
                    start(tb, cfg, rec, log, key, deal, 0)  # back to the decision
                    for t in range(turns):
                        run_until(tb, cfg, rec, log, None, None, 1 << k, 0)
                        apply(tb, cfg, rec, log, tried[t])
                    run_until(tb, cfg, rec, log, None, None, 1 << k, 0)
                apply(tb, cfg, rec, log, tried[turns])
                turns += 1
    return rows


def rollout(
    seed: int,
    first: int,
    deals: int,
    weights: tuple[np.ndarray, ...],
    margin: float,
    explore: bool,
    threads: int,
) -> tuple[dict, np.ndarray]:
    """The rows and rewards of ``_rollout`` over deals ``first … first + deals - 1`` of the run
    ``seed``, in blocks on ``threads`` threads: a dict of the rows (``idx``, ``val``, ``nnz``,
    ``hint``, ``legal``, ``gain``: float32[rows, 78]), and the rewards (float[deals * PLAYERS],
    game points)."""
    key = run_key(seed)
    cfg = strategy_cfg(Strategy(play="heuristic"), PLAYERS)
    per_block = BLOCK * PLAYERS * 24 if explore else 1

    def block(b: int) -> tuple[np.ndarray, ...]:
        idx = np.zeros(per_block * MAX_ACTIVE, np.int32)
        val = np.zeros(per_block * MAX_ACTIVE, np.float32)
        nnz = np.zeros(per_block, np.int64)
        hint = np.zeros(per_block, np.int64)
        legal = np.zeros((per_block, 2), np.uint64)
        gain = np.zeros((per_block, 78), np.float32)
        start_deal = first + b * BLOCK
        count = min(BLOCK, first + deals - start_deal)
        reward = np.zeros(count * PLAYERS, np.int64)
        rows = _rollout(
            key, start_deal, count, cfg, weights, margin, explore, idx, val, nnz, hint, legal, gain, reward
        )
        top = int(nnz[:rows].sum())
        return idx[:top], val[:top], nnz[:rows], hint[:rows], legal[:rows], gain[:rows], reward

    blocks = (deals + BLOCK - 1) // BLOCK
    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(block, range(blocks)))
    data = {
        name: np.concatenate([p[i] for p in parts])
        for i, name in enumerate(("idx", "val", "nnz", "hint", "legal", "gain"))
    }
    return data, np.concatenate([p[6] for p in parts]).astype(np.float64)


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


def reinforce(model, args, t0: float) -> None:  # type: ignore[no-untyped-def]
    """Reinforcement learning against the heuristic, from the deals' scores: rounds of
    ``args.rl_batch`` new deals, each played once per seat with that seat on ``play=net``'s rule
    with the network as it is and the heuristic in the other seats; at each of its card decisions
    with a choice every other legal card is tried, the deal played on by the same players, and
    its gain (the seat's score with it minus with the network's card, ``_rollout``) is known.
    Each round fits the network to raise the expected gain of the softmax of its scores (the
    heuristic's card with ``args.margin`` added, as the rule plays them), ``args.rl_epochs``
    passes in batches of 256, less ``args.rl_kl`` times KL(imitation || network) of the same
    softmax, which keeps the imitation. Every ``args.rl_eval`` rounds, and at the end, the rule
    is measured against the heuristic on the deals of ``args.select_seed``: the weights that
    measured best there are kept in ``model``."""
    import copy

    import torch

    reference = copy.deepcopy(model).eval()
    opt = torch.optim.Adam(model.parameters(), lr=args.rl_lr)
    g = torch.Generator().manual_seed(args.seed)

    def measure() -> np.ndarray:
        _, r = rollout(
            args.select_seed, 0, args.select_deals, layers(model), args.margin, False, args.threads
        )
        return r.reshape(-1, PLAYERS).mean(axis=1)

    def interval(e: np.ndarray) -> str:
        return f"{e.mean():+.2f} (± {1.96 * e.std(ddof=1) / np.sqrt(len(e)):.2f})"

    before = measure()
    best = (float(before.mean()), 0, copy.deepcopy(model.state_dict()))
    print(f"  before: edge {interval(before)} on the deals of seed {args.select_seed}", flush=True)
    rounds = args.rl_deals // args.rl_batch
    for r in range(rounds):
        data, reward = rollout(
            args.seed,
            RL_FIRST + r * args.rl_batch,
            args.rl_batch,
            layers(model),
            args.margin,
            True,
            args.threads,
        )
        offsets = np.concatenate([[0], np.cumsum(data["nnz"])]).astype(np.int64)
        idx = torch.from_numpy(data["idx"].astype(np.int64))
        val = torch.from_numpy(data["val"])
        mask = torch.from_numpy(legal_mask(data["legal"]))
        bonus = torch.nn.functional.one_hot(torch.from_numpy(data["hint"]), 78).float() * args.margin
        gain = torch.from_numpy(data["gain"]) / RL_SCALE
        n = len(data["nnz"])
        model.train()
        for _ in range(args.rl_epochs):
            order = torch.randperm(n, generator=g)
            for s in range(0, n, 256):
                rows = order[s : s + 256]
                inputs = _gather(rows, offsets, idx, val)
                with torch.no_grad():
                    ref = torch.log_softmax(
                        (reference(*inputs) + bonus[rows]).masked_fill(~mask[rows], -1e9), 1
                    )
                logp = torch.log_softmax((model(*inputs) + bonus[rows]).masked_fill(~mask[rows], -1e9), 1)
                expected = (logp.exp() * gain[rows]).sum(1).mean()
                kl = (ref.exp() * (ref - logp)).masked_fill(~mask[rows], 0).sum(1).mean()
                loss = -expected + args.rl_kl * kl
                opt.zero_grad()
                loss.backward()
                opt.step()
        if (r + 1) % args.rl_eval == 0 or r + 1 == rounds:
            edges = measure()
            if edges.mean() > best[0]:
                best = (float(edges.mean()), r + 1, copy.deepcopy(model.state_dict()))
            print(
                f"  {(r + 1) * args.rl_batch} deals, {n} decisions in the last: edge in them {reward.mean():+.2f}, "
                f"expected gain {float(expected.detach()) * RL_SCALE:+.2f}, KL {float(kl.detach()):.4f}; edge {interval(edges)}, "
                f"over the start {interval(edges - before)} on the deals of seed {args.select_seed}, {time.time() - t0:.0f} s",
                flush=True,
            )
    model.load_state_dict(best[2])
    print(f"  kept the weights after {best[1] * args.rl_batch} deals: edge {best[0]:+.2f}", flush=True)


def layers(model) -> tuple[np.ndarray, ...]:  # type: ignore[no-untyped-def]
    """The layers as ``players.kernels.policies.net`` reads them (float32, C order), unrounded."""
    w = (
        model.first.weight.detach().numpy(),
        model.b1.detach().numpy(),
        model.second.weight.detach().numpy().T,
        model.second.bias.detach().numpy(),
        model.out.weight.detach().numpy(),
        model.out.bias.detach().numpy(),
    )
    return tuple(np.ascontiguousarray(a, dtype=np.float32) for a in w)


def load_model(model, weights: tuple[np.ndarray, ...]) -> None:  # type: ignore[no-untyped-def]
    """Set ``model``'s layers to ``weights`` (``mlp.LAYERS`` order, as ``layers`` gives them)."""
    import torch

    w1, b1, w2, b2, w3, b3 = (torch.from_numpy(np.array(a, dtype=np.float32)) for a in weights)
    with torch.no_grad():
        model.first.weight.copy_(w1)
        model.b1.copy_(b1)
        model.second.weight.copy_(w2.T)
        model.second.bias.copy_(b2)
        model.out.weight.copy_(w3)
        model.out.bias.copy_(b3)


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
    """The layers as ``players.kernels.policies.net`` reads them, rounded to float16 and back."""
    return tuple(np.ascontiguousarray(a.astype(np.float16).astype(np.float32)) for a in layers(model))


def measure(files: list[Path], margins: list[float], seed: int, deals: int, threads: int) -> None:
    """Print each weights file's edge over the heuristic with each margin (``play=net``'s rule,
    duplicate at 4 players, deals ``0 … deals - 1`` of ``seed``: the same deals and edge as
    ``tarotsim.duel``), and its paired difference to the first file with the first margin."""
    first = None
    for path in files:
        weights = load_weights(path.read_bytes())
        for margin in margins:
            _, r = rollout(seed, 0, deals, weights, margin, False, threads)
            e = r.reshape(-1, PLAYERS).mean(axis=1)
            if first is None:
                first = e
            d = e - first
            z = 1.96 / np.sqrt(deals)
            print(
                f"{path} margin {margin:g}: edge {e.mean():+.2f} [{e.mean() - z * e.std(ddof=1):+.2f}, "
                f"{e.mean() + z * e.std(ddof=1):+.2f}], over the first {d.mean():+.2f} "
                f"[{d.mean() - z * d.std(ddof=1):+.2f}, {d.mean() + z * d.std(ddof=1):+.2f}]",
                flush=True,
            )


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
    p.add_argument(
        "--start", type=Path, help="start reinforcement learning from these weights (npz), not imitation"
    )
    p.add_argument(
        "--rl-deals", type=int, default=16000, help="deals of reinforcement learning against the heuristic"
    )
    p.add_argument("--rl-batch", type=int, default=64, help="deals per round of reinforcement learning")
    p.add_argument("--rl-epochs", type=int, default=1, help="passes over each round's decisions")
    p.add_argument("--rl-lr", type=float, default=3e-4)
    p.add_argument("--rl-kl", type=float, default=1.0, help="weight of KL(imitation || network)")
    p.add_argument("--rl-eval", type=int, default=20, help="rounds between measures")
    p.add_argument(
        "--margin", type=float, default=2.0, help="play=net's MARGIN, in the rollouts and the measures"
    )
    p.add_argument("--select-seed", type=int, default=11, help="the deals that choose among the weights")
    p.add_argument("--select-deals", type=int, default=4000)
    p.add_argument("--data", type=Path, help="keep the positions here (npz) and read them back")
    p.add_argument("--out", type=Path, default=Path("tarotsim/data/net_play.npz"))
    p.add_argument(
        "--measure",
        type=Path,
        nargs="+",
        help="measure these weights files on the deals of --select-seed (with each --margins) and stop",
    )
    p.add_argument("--margins", type=float, nargs="+", default=(2.0,))
    args = p.parse_args(argv)
    if args.measure:
        measure(args.measure, list(args.margins), args.select_seed, args.select_deals, args.threads)
        return 0
    if args.start is not None and args.rounds:
        p.error("--rounds needs the imitation data: not with --start")
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    t0 = time.time()
    model = make_model(*args.hidden)
    if args.start is not None:
        load_model(model, load_weights(args.start.read_bytes()))
        print(f"weights read from {args.start}")
    elif args.data is not None and args.data.exists():
        with np.load(args.data) as z:
            data = {k: z[k] for k in z.files}
        print(f"positions read back from {args.data}: {len(data['label'])}")
    else:
        print(f"recording {args.deals} deals of pimc play", flush=True)
        data = record(args.seed, 0, args.deals, None, args.threads)
        if args.data is not None:
            np.savez(args.data, **data)
    if args.start is None:
        print(f"{len(data['label'])} positions, {time.time() - t0:.0f} s", flush=True)
        train(data, model, args.epochs, args.lr, args.seed)
    for r in range(args.rounds):
        first = (r + 1) * 1_000_000
        print(f"round {r + 1}: the network plays {args.round_deals} deals, pimc labels them", flush=True)
        more = record(args.seed, first, args.round_deals, export(model), args.threads)
        data = merge(data, more)
        print(f"  {len(data['label'])} positions, {time.time() - t0:.0f} s", flush=True)
        train(data, model, args.round_epochs, args.lr / 2, args.seed + r + 1)
    if args.rl_deals > 0:
        load_model(model, export(model))  # from the imitation's weights as shipped: the same with --start
        print(f"reinforcement learning: {args.rl_deals} deals against the heuristic", flush=True)
        reinforce(model, args, t0)
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
