"""How fast a small torch network plays in a duel: asked in batches, and one observation at a time.

A multilayer perceptron (``TENSOR_LENGTH`` → 128 → 128 → the table's actions, ReLU, random
weights from ``--seed``, torch on one thread) plays seat A's card play in a duplicate duel
against the heuristic at 4 players: once as a batched player (``act_batch``: every game
waiting on it in one forward pass) and once as a one-at-a-time player (``act``: one forward
pass per observation). Figures: the network's decisions per second of the process's CPU
time for the whole duel (the kernels playing the other seats included), median and range
of ``--rounds`` interleaved rounds, and their ratio.

Needs torch (``pip install torch --index-url https://download.pytorch.org/whl/cpu``)::

    python benchmarks/bench_batched_player.py --deals 400 --rounds 5 --out reports/batched-player.md
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

import tarotsim
from tarotsim.bench.timing import cpu_name
from tarotsim.interfaces.game import TENSOR_LENGTH, Observation

PLAYERS = 4
HEURISTIC = "play=heuristic,ecart=expert"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400, help="deals of each duel (default 400)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the weights and the deals (default 0)")
    parser.add_argument("--out", default=None, help="write the table to this Markdown file")
    args = parser.parse_args()
    for name in ("deals", "rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be a positive integer, got {getattr(args, name)}")
    try:
        import torch
    except ImportError:
        print(
            "this benchmark needs torch: pip install torch --index-url https://download.pytorch.org/whl/cpu",
            file=sys.stderr,
        )
        return 2
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    names = tarotsim.actions(PLAYERS)
    index = {name: i for i, name in enumerate(names)}
    net = torch.nn.Sequential(
        torch.nn.Linear(TENSOR_LENGTH, 128),
        torch.nn.ReLU(),
        torch.nn.Linear(128, 128),
        torch.nn.ReLU(),
        torch.nn.Linear(128, len(names)),
    )

    class Net:
        """The network as a player, counting the decisions it makes."""

        name = "mlp"

        def __init__(self) -> None:
            self.decisions = 0

        @torch.no_grad()
        def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
            self.decisions += len(observations)
            scores = net(torch.from_numpy(observations)).numpy()
            return np.where(masks, scores, -np.inf).argmax(axis=1)

    class OneByOne:
        """The same network asked about one observation at a time."""

        name = "mlp-one-by-one"

        def __init__(self) -> None:
            self.decisions = 0

        @torch.no_grad()
        def act(self, observation: Observation) -> str:
            self.decisions += 1
            scores = net(torch.from_numpy(observation.tensor()[None, :])).numpy()[0]
            legal = [index[a] for a in observation.legal_actions]
            return names[legal[int(np.argmax(scores[legal]))]]

    def rate(player: Net | OneByOne, deals: int) -> float:
        started = time.process_time()
        tarotsim.duel(
            tarotsim.Strategy(play=player, ecart="expert"),
            HEURISTIC,
            deals,
            seed=args.seed,
            players=PLAYERS,
            progress=False,
        )
        return player.decisions / (time.process_time() - started)

    rate(Net(), 8)  # compile or load the kernels first
    rate(OneByOne(), 2)
    batched, single = [], []
    for _ in range(args.rounds):
        batched.append(rate(Net(), args.deals))
        single.append(rate(OneByOne(), max(1, args.deals // 10)))
    batched_a, single_a = np.array(batched), np.array(single)
    rows = [
        ("batched (act_batch), decisions/CPU s", batched_a),
        ("one at a time (act), decisions/CPU s", single_a),
    ]
    lines = [
        "# A small torch network in a duel: batched against one at a time",
        "",
        f"`python benchmarks/bench_batched_player.py --deals {args.deals} --rounds {args.rounds} --seed {args.seed}`:",
        f"an MLP {TENSOR_LENGTH} → 128 → 128 → {len(names)} (torch {torch.__version__}, one thread) plays seat A's",
        f"cards in a duplicate duel against the heuristic at {PLAYERS} players ({args.deals} deals batched,",
        f"{max(1, args.deals // 10)} one at a time); decisions of the network per CPU second of the whole duel,",
        f"median and range over {args.rounds} interleaved rounds.",
        "",
        f"Machine: {cpu_name()}; Python {platform.python_version()}, tarotsim {tarotsim.__version__}.",
        "",
        "| player | median | min–max |",
        "|---|---:|---:|",
    ]
    for label, values in rows:
        lines.append(f"| {label} | {np.median(values):,.0f} | {values.min():,.0f}–{values.max():,.0f} |")
    ratio = batched_a / single_a
    lines.append(
        f"| batched / one at a time (per round) | {np.median(ratio):.1f} | {ratio.min():.1f}–{ratio.max():.1f} |"
    )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
