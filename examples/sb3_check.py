"""Stable-Baselines3's own checker on tarotsim's Gymnasium environment (outside the test suite).

Stable-Baselines3 needs torch, which no tarotsim extra installs. Where it is installed
(pip install stable-baselines3 sb3-contrib), this runs ``stable_baselines3.common.env_checker.check_env``
on ``tarotsim.interfaces.gym.TarotEnv`` (every decision, and a forced garde with the card play only)
and, with sb3-contrib, checks that ``MaskablePPO`` finds the action masks and trains a few
hundred steps. Without Stable-Baselines3 it says how to install it and exits with status 2.

    python examples/sb3_check.py [--steps 256]
"""

from __future__ import annotations

import argparse
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=256, help="MaskablePPO steps (sb3-contrib), default 256")
    args = parser.parse_args()
    if args.steps < 1:
        parser.error(f"--steps must be a positive integer, got {args.steps}")
    try:
        from stable_baselines3.common.env_checker import check_env
    except ImportError:
        print(
            "Stable-Baselines3 is not installed (it needs torch, a large download): "
            "pip install stable-baselines3 sb3-contrib",
            file=sys.stderr,
        )
        return 2

    from tarotsim.interfaces.gym import TarotEnv

    setups = {
        "every decision": {},
        "card play of a forced garde": {"agent_decisions": ("play",), "taker": 0, "contract": "garde"},
    }
    for name, options in setups.items():
        check_env(TarotEnv(4, seat=0, **options), warn=True)
        print(f"Stable-Baselines3 check_env: TarotEnv, {name}: passed")
    try:
        from sb3_contrib import MaskablePPO
        from sb3_contrib.common.maskable.utils import is_masking_supported
    except ImportError:
        print("sb3-contrib is not installed: MaskablePPO not tried (pip install sb3-contrib)")
        return 0
    env = TarotEnv(4, seat=0, agent_decisions=("play",), taker=0, contract="garde", illegal="raise")
    if not is_masking_supported(env):
        print("MaskablePPO does not find TarotEnv's action_masks()", file=sys.stderr)
        return 1
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, seed=0, verbose=0)
    model.learn(total_timesteps=args.steps)  # illegal="raise": a masked policy never errs
    print(f"MaskablePPO: {args.steps} steps with action masks, no illegal action")
    return 0


if __name__ == "__main__":
    sys.exit(main())
