"""Run speed of this checkout against an earlier commit, timed in the same interleaved rounds.

Answers "did this change slow the engine down?" with an interval: the earlier commit is
exported (``git archive``) into ``build/versions/COMMIT``, and each tree runs in a worker
process of its own (this Python, with ``PYTHONPATH`` set to the tree), which compiles or
loads its kernels, then times ``tarotsim.simulate(DEALS, seed=ROUND, policy=…, threads=1)``
by its own CPU time whenever it is asked. In round r both trees play the same deals (seed
r), this tree first in even rounds and last in odd ones, one after the other, never at the
same time; the ratio this tree / the other is taken within each round and summarised as
``tarotsim.bench.timing`` summarises every figure: median, distribution-free 95% interval,
min–max. A ratio of 1 means unchanged; its interval says how closely that was measured.

    .venv/bin/python benchmarks/bench_versions.py --against COMMIT [--rounds 15] [--deals 50000]
        [--policies random,heuristic,pimc=200]

``--policies`` names card-play policies, each with its deals per timing after ``=`` where it
differs from ``--deals`` (search players are slow), and ``env:rows``, ``env:tensor`` or
``env:compact`` for ``VecEnv`` steps (the count after ``=`` is then steps). Writes ``reports/versions.md``. Both
trees must be able to run ``tarotsim.simulate`` with these keywords.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tarotsim.bench.timing import Spread, machine
from tarotsim.interfaces.vecenv import OBSERVATIONS
from tarotsim.players.policies import PLAY_POLICIES

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "reports" / "versions.md"
EXPORTS = ROOT / "build" / "versions"
COMMAND = ".venv/bin/python benchmarks/bench_versions.py"
DEALS = 50_000
ROUNDS = 15
WARM_UP_DEALS = 1_000

ENV_GAMES = 1024
ENV_PREFIX = "env:"
WORKER = f"""
import sys, time
import numpy as np
import tarotsim
print(tarotsim.__file__, tarotsim.__version__, flush=True)
for line in sys.stdin:
    policy, seed, deals = line.split()
    if policy.startswith({ENV_PREFIX!r}):
        env = tarotsim.VecEnv({ENV_GAMES}, 4, agent_seats=(0, 1, 2, 3), observations=policy[{len(ENV_PREFIX)}:],
                              seed=int(seed), threads=1)
        obs, mask = env.reset()
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(int(deals)):
            obs, mask, rewards, done = env.step(np.argmax(mask, axis=1))
    else:
        cpu, wall = time.process_time(), time.perf_counter()
        tarotsim.simulate(int(deals), seed=int(seed), policy=policy, threads=1, progress=False)
    print(time.process_time() - cpu, time.perf_counter() - wall, flush=True)
"""
"""The worker's program: says which tarotsim it imported, then answers each line
``POLICY SEED DEALS`` with the CPU and wall-clock seconds of that simulate call, or, for
``env:OBSERVATIONS``, of ``DEALS`` steps of a ``VecEnv`` of ``ENV_GAMES`` 4-player games with
every seat an agent, each game taking its first legal action (the loop's ``argmax`` included)."""


class Tree:
    """A worker process running one tree's tarotsim."""

    def __init__(self, label: str, root: Path) -> None:
        environment = dict(os.environ, PYTHONPATH=str(root), NUMBA_NUM_THREADS="1")
        self.label = label
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER],
            env=environment,
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        imported, self.version = self._answer().split()
        if not Path(imported).resolve().is_relative_to(root.resolve()):
            raise SystemExit(f"the {label} worker imported {imported}, not the tree in {root}")

    def _answer(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.label} worker stopped (its error is above)")
        return line

    def time(self, policy: str, seed: int, deals: int) -> tuple[float, float]:
        """(CPU seconds, wall-clock seconds) of one simulate call in this tree."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{policy} {seed} {deals}\n")
        self.process.stdin.flush()
        cpu, wall = self._answer().split()
        return float(cpu), float(wall)

    def warm_up(self, policies: dict[str, int]) -> None:
        """One untimed call per policy (``WARM_UP_DEALS`` deals, or its deals per timing where
        fewer): its kernels compiled or loaded, its memory touched."""
        for policy, deals in policies.items():
            self.time(policy, 0, min(deals, WARM_UP_DEALS))

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def this_commit() -> str:
    """This checkout's commit, marked where its tracked files hold uncommitted changes."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    changed = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
    )
    return head.stdout.strip() + (" with uncommitted changes" if changed.stdout.strip() else "")


def export(commit: str) -> tuple[Path, str]:
    """The tree of ``commit`` under ``build/versions`` (exported once, kept for the next run:
    its compiled kernels are cached beside its sources), and the commit's full hash.

    Raises
    ------
    ValueError
        If ``commit`` names no commit of this repository.
    """
    resolved = subprocess.run(
        ["git", "rev-parse", "--verify", f"{commit}^{{commit}}"], cwd=ROOT, capture_output=True, text=True
    )
    if resolved.returncode != 0:
        raise ValueError(f"--against: {commit!r} is not a commit of this repository")
    full = resolved.stdout.strip()
    tree = EXPORTS / full
    if not (tree / "tarotsim" / "__init__.py").exists():
        tree.mkdir(parents=True, exist_ok=True)
        archive = tree.with_suffix(".tar")
        subprocess.run(["git", "archive", "--output", str(archive), full], cwd=ROOT, check=True)
        with tarfile.open(archive) as packed:
            packed.extractall(tree, filter="data")
        archive.unlink()
    return tree, full


@dataclass(frozen=True)
class Comparison:
    """CPU seconds of each tree's timings of one policy, round by round (float64[rounds])."""

    policy: str
    deals: int
    this: np.ndarray
    other: np.ndarray

    def ratio(self) -> Spread:
        """This tree's deals per CPU second over the other's, round by round."""
        return Spread.of(self.other / self.this)

    def rate(self, seconds: np.ndarray) -> Spread:
        """Deals (or, for an environment row, decisions) per CPU second, round by round."""
        per_timing = self.deals * ENV_GAMES if self.policy.startswith(ENV_PREFIX) else self.deals
        return Spread.of(per_timing / seconds)


def policies_of(text: str, deals: int) -> dict[str, int]:
    """``"random,pimc=200"`` → ``{"random": deals, "pimc": 200}``; ``env:rows=100`` (or
    ``env:tensor``, ``env:compact``): 100 steps of the environment (``WORKER``).

    Raises
    ------
    ValueError
        If a name is not a card-play policy, a count not a positive whole number, or none is named.
    """
    chosen: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, count = item.partition("=")
        if name.startswith(ENV_PREFIX):
            if name[len(ENV_PREFIX) :] not in OBSERVATIONS:
                raise ValueError(
                    f"--policies: {name!r}: the observations must be one of {', '.join(OBSERVATIONS)}"
                )
        elif name not in PLAY_POLICIES:
            raise ValueError(f"--policies: {name!r} is not a card-play policy ({', '.join(PLAY_POLICIES)})")
        if count and not (count.isdigit() and int(count) > 0):
            raise ValueError(f"--policies: the deals after {name}= must be a positive whole number")
        chosen[name] = int(count) if count else deals
    if not chosen:
        raise ValueError("--policies names no policy")
    return chosen


def compare(this_root: Path, other_root: Path, policies: dict[str, int], rounds: int) -> list[Comparison]:
    """Each round starts a worker of each tree (a process's memory layout changes its speed by
    a few per cent, so one pair of processes for all rounds would be one draw of that), warms
    each policy up once, then times every policy in both, alternating which tree goes first."""
    seconds = {(policy, label): np.zeros(rounds) for policy in policies for label in ("this", "other")}
    for index in range(rounds):
        trees = [Tree("this", this_root), Tree("other", other_root)]
        try:
            for tree in trees:
                tree.warm_up(policies)
            order = trees if index % 2 == 0 else trees[::-1]
            for policy, deals in policies.items():
                for tree in order:
                    seconds[policy, tree.label][index] = tree.time(policy, index + 1, deals)[0]
        finally:
            for tree in trees:
                tree.close()
        print(f"round {index + 1} of {rounds} timed", file=sys.stderr, flush=True)
    return [
        Comparison(policy, deals, seconds[policy, "this"], seconds[policy, "other"])
        for policy, deals in policies.items()
    ]


def _interval(spread: Spread, digits: int) -> str:
    if spread.low is None or spread.high is None:
        return "none (under 6 rounds)"
    return f"{spread.low:,.{digits}f}–{spread.high:,.{digits}f}"


def report(
    comparisons: list[Comparison],
    *,
    commit: str,
    this_version: str,
    other_version: str,
    minutes: float,
) -> str:
    facts = machine()
    rounds = len(comparisons[0].this)
    lines = [
        "# Run speed of this tree against an earlier commit",
        "",
        f"Made by `{' '.join([COMMAND, *sys.argv[1:]])}` in {minutes:.1f} minutes on the machine below, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        "",
        f"This tree (tarotsim {this_version}, the working tree of this checkout, `{this_commit()}`) against commit "
        f"`{commit}` "
        f"(tarotsim {other_version}). Each round started a worker process of each tree (a process's memory "
        f"layout alone moves its speed by a few per cent, so fresh processes make that part of the spread "
        f"rather than a bias), which timed `tarotsim.simulate(deals, seed=round, policy=…, threads=1, "
        f"progress=False)` by its CPU time (`time.process_time`) after one untimed call "
        f"per policy ({WARM_UP_DEALS:,} deals, or the deals per timing where fewer). In round r both trees played the same deals (seed r), one after "
        f"the other, this tree first in even rounds and last in odd ones. The ratio is this tree's deals per CPU second over the other's, taken within each round; "
        f"beside its median, the distribution-free 95% interval of the median (`scipy.stats.quantile_test`, as "
        f"every figure of `reports/benchmarks.md`) and the min–max over the {rounds} rounds. The interval takes "
        f"the rounds as independent draws; a drift of the machine's speed within a round still adds noise to "
        f"its ratio.",
        "",
        f"An `env:OBSERVATIONS` row times steps of a `VecEnv` of {ENV_GAMES:,} 4-player games, every seat an "
        f"agent, each taking its first legal action: its counts are steps, and its rates decisions "
        f"(games × steps) per CPU second.",
        "",
        "| policy | deals per timing | this tree: deals/CPU s | the other: deals/CPU s | ratio | 95% CI | min–max |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for item in comparisons:
        ratio = item.ratio()
        lines.append(
            f"| {item.policy} | {item.deals:,} | {item.rate(item.this).median:,.0f} | "
            f"{item.rate(item.other).median:,.0f} | **{ratio.median:.3f}** | {_interval(ratio, 3)} | "
            f"{ratio.min:.3f}–{ratio.max:.3f} |"
        )
    lines += [
        "",
        "| machine | |",
        "| --- | --- |",
        f"| cpu | {facts['cpu']} |",
        f"| cores | {facts['cores']} |",
        f"| load average (1 min), at the end | {facts['load_average']} |",
        *(f"| {name} | {version} |" for name, version in facts["versions"].items() if name != "tarotsim"),
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the earlier commit (a hash, tag or branch)")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"rounds (default {ROUNDS})")
    parser.add_argument("--deals", type=int, default=DEALS, help=f"deals per timing (default {DEALS})")
    parser.add_argument(
        "--policies",
        default="random,heuristic",
        help="card-play policies, comma-separated, each optionally with its own deals per timing: "
        "random,heuristic,pimc=200 (default random,heuristic)",
    )
    args = parser.parse_args()
    if args.rounds < 1 or args.deals < 1:
        parser.error("--rounds and --deals must be positive")
    try:
        policies = policies_of(args.policies, args.deals)
        other_root, commit = export(args.against)
    except ValueError as error:
        parser.error(str(error))
    started = time.perf_counter()
    print("compiling or loading each tree's kernels", file=sys.stderr, flush=True)
    versions = []
    for label, root in (("this", ROOT), ("other", other_root)):
        tree = Tree(label, root)
        tree.warm_up(policies)
        tree.close()
        versions.append(tree.version)
    comparisons = compare(ROOT, other_root, policies, args.rounds)
    text = report(
        comparisons,
        commit=commit,
        this_version=versions[0],
        other_version=versions[1],
        minutes=(time.perf_counter() - started) / 60,
    )
    REPORT.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
