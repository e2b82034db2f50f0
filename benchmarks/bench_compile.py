"""How long a new user waits for the first result: rewrites reports/compile.md.

Each first use is timed in its own Python process, started on an empty Numba cache
(``NUMBA_CACHE_DIR`` a fresh temporary folder) and run in the order a new user meets them:
a heuristic ``simulate()``, then a ``pimc`` duel, then a ``montecarlo``-bid run, each on the
cache the ones before it left. Then the same calls again on the filled cache (warm). Each
figure is the wall time and the CPU time (user + system, the child's and its threads') of
the whole process, imports included. CPU time is what to compare between machines and
loads; wall time stretches with the machine's load, which is printed alongside.

``--make-test`` also times ``make test`` (a fresh venv, lint, types and the default test
suite) in a fresh clone of this repository, then the suite alone again in that clone (the
Makefile's test command) on an empty Numba cache: minutes of CPU, and it needs the package
index.

``--profile DIR`` writes, for each first use, which functions Numba compiled and for how
long (``numba.core.event``'s ``numba:compile`` events, timed in process CPU seconds, which
the load does not stretch): ``DIR/<row>.json``, and a ranked table of each function's own
compile time (its callees' compiles subtracted) in the report.

    .venv/bin/python benchmarks/bench_compile.py [--out reports/compile.md] [--make-test] [--profile DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tarotsim.bench.timing import cpu_name

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ".venv/bin/python benchmarks/bench_compile.py"

ROWS: tuple[tuple[str, str, str], ...] = (
    (
        "heuristic",
        '`tarotsim.simulate(1000, policy="heuristic")`',
        'tarotsim.simulate(1000, seed=1, policy="heuristic", progress=False)',
    ),
    (
        "pimc",
        'then a first `pimc` duel of 20 deals (`tarotsim.duel("play=pimc", "play=heuristic", 20)`)',
        'tarotsim.duel("play=pimc", "play=heuristic", 20, seed=1, progress=False)',
    ),
    (
        "montecarlo",
        'then a first `bid=montecarlo` run (`tarotsim.simulate(20, policy="heuristic", bid_policy="montecarlo")`)',
        'tarotsim.simulate(20, seed=1, policy="heuristic", bid_policy="montecarlo", progress=False)',
    ),
)
"""(name, what the report calls it, the call timed after ``import tarotsim``)."""

_PROFILED = """
import json, sys, time
from numba.core import event
events = []
class _Listener(event.Listener):
    def on_start(self, ev):
        events.append(("start", time.process_time(), _name(ev)))
    def on_end(self, ev):
        events.append(("end", time.process_time(), _name(ev)))
def _name(ev):
    d = ev.data["dispatcher"]
    return d.py_func.__module__ + "." + d.py_func.__qualname__
event.register("numba:compile", _Listener())
import tarotsim
{call}
json.dump(events, open({path!r}, "w"))
"""


@dataclass(frozen=True)
class Timing:
    wall: float
    user: float
    system: float

    @property
    def cpu(self) -> float:
        return self.user + self.system


def run_command(command: list[str], env: dict[str, str], cwd: Path) -> Timing:
    """Wall, user and system seconds of ``command`` (the child and everything it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, cwd=cwd, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Timing(wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime)


def run_timed(code: str, env: dict[str, str], cwd: Path) -> Timing:
    """``run_command`` of ``python -c code``."""
    return run_command([sys.executable, "-c", code], env, cwd)


def own_compile_seconds(events: list[tuple[str, float, str]]) -> dict[str, tuple[int, float, float]]:
    """Per function: (compiles, seconds including the callees compiled meanwhile, own seconds)."""
    stack: list[list[float]] = []  # [start, seconds of nested compiles]
    out: dict[str, tuple[int, float, float]] = {}
    for kind, at, name in events:
        if kind == "start":
            stack.append([at, 0.0])
            continue
        start, nested = stack.pop()
        total = at - start
        if stack:
            stack[-1][1] += total
        count, inclusive, own = out.get(name, (0, 0.0, 0.0))
        out[name] = (count + 1, inclusive + total, own + total - nested)
    return out


def suite_command(makefile: Path) -> list[str]:
    """The test suite's command: the last line of the Makefile's ``test`` recipe, with
    ``$(BIN)`` spelt out."""
    recipe: list[str] = []
    lines = makefile.read_text(encoding="utf-8").splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith("test:"))
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    return recipe[-1].replace("$(BIN)", ".venv/bin").split()


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} CPUs"


def minutes(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    return f"{int(seconds // 60)} min {seconds % 60:04.1f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "compile.md")
    parser.add_argument("--make-test", action="store_true", help="also time make test in a fresh clone")
    parser.add_argument("--profile", type=Path, default=None, help="write each row's compile events here")
    parser.add_argument("--rows", default=",".join(name for name, _, _ in ROWS))
    args = parser.parse_args()
    wanted = args.rows.split(",")
    rows = [row for row in ROWS if row[0] in wanted]

    cache = Path(tempfile.mkdtemp(prefix="tarotsim-numba-cache-"))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    env.pop("TAROTSIM_NO_CACHE", None)
    lines: list[str] = []
    profiles: dict[str, dict[str, tuple[int, float, float]]] = {}
    cold: dict[str, Timing] = {}
    loads: dict[str, str] = {}
    try:
        for name, _, call in rows:
            loads[name] = load()
            if args.profile is not None:
                args.profile.mkdir(parents=True, exist_ok=True)
                path = args.profile / f"{name}.json"
                code = _PROFILED.format(call=call, path=str(path))
            else:
                path = None
                code = f"import tarotsim\n{call}"
            cold[name] = run_timed(code, env, ROOT)
            print(f"cold {name}: {cold[name]}  load {loads[name]}", flush=True)
            if path is not None:
                profiles[name] = own_compile_seconds(json.loads(path.read_text()))
        warm = {name: run_timed(f"import tarotsim\n{call}", env, ROOT) for name, _, call in rows}
        print("warm:", warm, flush=True)
    finally:
        shutil.rmtree(cache, ignore_errors=True)

    make_test = suite = None
    if args.make_test:
        clone = Path(tempfile.mkdtemp(prefix="tarotsim-clone-"))
        try:
            subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone / "repo")], check=True)
            clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
            make_load = load()
            make_test = (run_command(["make", "test"], clean, clone / "repo"), make_load)
            print("make test:", make_test, flush=True)
            command = suite_command(clone / "repo" / "Makefile")
            suite_load = load()
            empty = {**clean, "NUMBA_CACHE_DIR": str(clone / "numba-cache")}
            suite = (command, run_command(command, empty, clone / "repo"), suite_load)
            print("suite:", suite, flush=True)
        finally:
            shutil.rmtree(clone, ignore_errors=True)

    lines += [
        "# First use: compile time",
        "",
        f"Made by `{COMMAND}{' --make-test' if args.make_test else ''}{' --profile DIR' if args.profile else ''}`"
        f" on {cpu_name()},"
        f" {os.cpu_count()} CPUs, Python {platform.python_version()}.",
        "Each call runs in its own process (`python -c 'import tarotsim; CALL'`), imports included;",
        "cold: on an empty `NUMBA_CACHE_DIR`, in the order below, each on the cache the calls before",
        "it left; warm: the same call again on the filled cache. CPU is user + system time of the",
        "process and its threads: the figure to compare, since the machine's load stretches the wall",
        "time (the load average is given when each cold call started).",
        "",
        "| first use, empty Numba cache | cold wall | cold CPU (user + system) | warm wall | warm CPU | load |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for name, what, _ in rows:
        c, w = cold[name], warm[name]
        lines.append(
            f"| {what} | {minutes(c.wall)} | {c.cpu:.0f} s ({c.user:.0f} + {c.system:.0f}) "
            f"| {w.wall:.1f} s | {w.cpu:.1f} s | {loads[name]} |"
        )
    if make_test is not None:
        timing, make_load = make_test
        lines.append(
            f"| `make test` from a fresh clone (venv, lint, types, suite) | {minutes(timing.wall)} "
            f"| {timing.cpu:.0f} s ({timing.user:.0f} + {timing.system:.0f}) | | | {make_load} |"
        )
    if suite is not None:
        command, timing, suite_load = suite
        lines.append(
            f"| then its test suite alone on an empty Numba cache (`{' '.join(command)}`) | {minutes(timing.wall)} "
            f"| {timing.cpu:.0f} s ({timing.user:.0f} + {timing.system:.0f}) | | | {suite_load} |"
        )
    lines += ["", "The calls:", ""]
    lines += [f"- {name}: `{call}`" for name, _, call in rows]
    lines += [
        "",
        "What each change to the compiling did, measured when it was made, is in",
        "[compile-history.md](compile-history.md).",
    ]
    for name, table in profiles.items():
        ranked = sorted(table.items(), key=lambda item: -item[1][2])
        total = sum(own for _, _, own in table.values())
        lines += [
            "",
            f"## What the {name} call compiled ({total:.0f} s of compiling, {len(table)} functions)",
            "",
            "| function | compiles | own CPU s | with callees CPU s |",
            "|---|---:|---:|---:|",
        ]
        for func, (count, inclusive, own) in ranked[:25]:
            lines.append(f"| `{func}` | {count} | {own:.1f} | {inclusive:.1f} |")
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
