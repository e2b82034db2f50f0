"""A first learning experiment: MaskablePPO learns the card play of one seat at 4 players.

The agent plays seat 0's cards in `tarotsim.interfaces.gym.TarotEnv` (``agent_decisions=("play",)``):
its bids, écart, poignées and chelem are the heuristic's, as are the three other seats; the
reward is seat 0's score when the deal ends. sb3-contrib's ``MaskablePPO`` trains on it for
``--steps`` card decisions; the script then

1. writes the learning curve (mean reward of the deals that ended in each twelfth of the
   training, with its 95 % interval, normal approximation over those deals) beside
   two levels measured on the same run of deals: seat 0 playing its cards as the heuristic
   does, and at random (``tarotsim.simulate``, the same seed, so the same deals);
2. duels the trained policy, playing the card play of the heuristic's strategy, against
   the heuristic (``tarotsim.duel``, duplicate: the same deals with the learned player in
   each seat in turn) and prints the edge with its 95 % interval, beside random card play's
   edge on the same deals.

It needs torch, Stable-Baselines3 and sb3-contrib, which the test install does not bring
(torch's default wheel is a download of several GB; take the CPU build)::

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install stable-baselines3 sb3-contrib
    python examples/train_maskable_ppo.py --steps 100000 --out ppo-run

Every draw comes from ``--seed``: the deals, the network's initial weights and PPO's
sampling (torch on one thread), so a rerun on the same versions gives the same curve.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

import tarotsim

PLAYERS = 4
SEAT = 0
HEURISTIC = "play=heuristic,ecart=expert"
BINS = 12
"""Points of the learning curve: the deals ended in each twelfth of the training."""


def _levels(deals: int, seed: int) -> dict[str, tuple[float, float]]:
    """Seat 0's mean score per deal (and its 95 % half-width, normal approximation over deals)
    on deals 0 … deals-1 of the run with ``seed``, when it plays its cards as the heuristic
    does and at random, everything else heuristic; only the deals played are averaged (the
    environment skips a deal thrown in before the agent's first card)."""
    levels = {}
    for name, play in (("heuristic", "heuristic"), ("random", "random")):
        seats = [f"play={play},ecart=expert"] + [HEURISTIC] * (PLAYERS - 1)
        records = tarotsim.simulate(deals, seed=seed, players=PLAYERS, strategies=seats, progress=False)
        scores = records.loc[records["thrown_in"] == "none", "score_0"].to_numpy(dtype=float)
        levels[name] = (float(scores.mean()), float(1.96 * scores.std(ddof=1) / np.sqrt(len(scores))))
    return levels


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--steps", type=int, default=100_000, help="card decisions to train on (default 100000)"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the deals and of the training (default 0)"
    )
    parser.add_argument(
        "--duel-deals", type=int, default=2_000, help="deals of the final duel (default 2000)"
    )
    parser.add_argument(
        "--out", default="ppo-run", help="folder for curve.png and result.json (default ppo-run)"
    )
    args = parser.parse_args()
    for name in ("steps", "duel_deals"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be a positive integer, got {getattr(args, name)}")
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import BaseCallback
        from stable_baselines3.common.monitor import Monitor
    except ImportError:
        print(
            "this example needs torch, Stable-Baselines3 and sb3-contrib: "
            "pip install torch --index-url https://download.pytorch.org/whl/cpu && "
            "pip install stable-baselines3 sb3-contrib",
            file=sys.stderr,
        )
        return 2
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tarotsim.interfaces.game import Observation
    from tarotsim.interfaces.gym import TarotEnv

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)

    class Rewards(BaseCallback):
        """Each deal's reward, with the decisions trained on when it ended."""

        def __init__(self) -> None:
            super().__init__()
            self.ended: list[tuple[int, float]] = []

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                if "episode" in info:
                    self.ended.append((self.num_timesteps, float(info["episode"]["r"])))
            return True

    env = Monitor(
        TarotEnv(PLAYERS, seat=SEAT, agent_decisions=("play",), opponents=HEURISTIC, seed=args.seed)
    )
    model = MaskablePPO("MlpPolicy", env, n_steps=2048, batch_size=256, seed=args.seed, verbose=0)
    rewards = Rewards()
    started = time.process_time()
    model.learn(total_timesteps=args.steps, callback=rewards)
    train_cpu = time.process_time() - started
    deals_seen = len(rewards.ended)
    print(f"trained on {args.steps} card decisions ({deals_seen} deals) in {train_cpu:.0f} CPU s")

    levels = _levels(max(deals_seen, 1_000), args.seed)
    names = tarotsim.actions(PLAYERS)
    index = {name: i for i, name in enumerate(names)}

    def learned(observation: Observation) -> str:
        mask = np.zeros(len(names), dtype=bool)
        mask[[index[a] for a in observation.legal_actions]] = True
        action, _ = model.predict(observation.tensor(), action_masks=mask, deterministic=True)
        return names[int(action)]

    mine = tarotsim.Strategy(play=learned, ecart="expert", name="maskable-ppo")
    duel = tarotsim.duel(
        mine, HEURISTIC, args.duel_deals, seed=args.seed + 1, players=PLAYERS, progress=False
    )
    edge, low, high = duel.edge, duel.low, duel.high
    print(duel.summary())
    random = tarotsim.duel(
        "play=random,ecart=expert",
        HEURISTIC,
        args.duel_deals,
        seed=args.seed + 1,
        players=PLAYERS,
        progress=False,
    )
    print(
        f"on the same deals, random card play's edge: {random.edge:+.2f} ({random.low:+.2f} to {random.high:+.2f})"
    )

    ended = np.array(rewards.ended)
    edges = np.linspace(0, args.steps, BINS + 1)
    points = []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        r = ended[(ended[:, 0] > lo) & (ended[:, 0] <= hi), 1]
        if len(r) > 1:
            points.append((int(hi), float(r.mean()), float(1.96 * r.std(ddof=1) / np.sqrt(len(r))), len(r)))
    steps = [p[0] for p in points]
    means = np.array([p[1] for p in points])
    halves = np.array([p[2] for p in points])
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(
        steps, means, marker="o", label=f"MaskablePPO: deals ended in each {args.steps // BINS:,} decisions"
    )
    ax.fill_between(steps, means - halves, means + halves, alpha=0.2)
    for name, style in (("heuristic", "--"), ("random", ":")):
        mean, half = levels[name]
        ax.axhline(
            mean, linestyle=style, color="grey", label=f"seat 0 plays as the {name}: {mean:+.1f} ± {half:.1f}"
        )
    ax.set_xlabel("card decisions trained on")
    ax.set_ylabel("seat 0's mean score per deal (points)")
    ax.set_title(f"MaskablePPO, seat 0's card play at {PLAYERS} players (seed {args.seed})")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=110)
    result = {
        "steps": args.steps,
        "seed": args.seed,
        "train_cpu_seconds": round(train_cpu, 1),
        "curve": [{"steps": s, "mean": m, "half_width": h, "deals": n} for s, m, h, n in points],
        "levels": {k: {"mean": v[0], "half_width": v[1]} for k, v in levels.items()},
        "duel": {"deals": args.duel_deals, "edge": edge, "low": low, "high": high},
        "random_duel": {"edge": random.edge, "low": random.low, "high": random.high},
    }
    (out / "result.json").write_text(json.dumps(result, indent=2))
    print(f"wrote {out / 'curve.png'} and {out / 'result.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
