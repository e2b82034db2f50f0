"""The files written from the registry of policies (``tarotsim.players.policies``): the kernel codes,
``tarotsim/players/kernels/policies/codes.py``, and the tables of ``docs/policies.md``; a test checks
that both are up to date. Regenerate them with ``python -m tarotsim.players.policy_files``.
"""

from __future__ import annotations

from pathlib import Path

from tarotsim.players.policies import DECISIONS, DEFAULTS, OPTIONS, POLICY_TABLE, policy_names

CODES_PATH = Path(__file__).resolve().parent / "kernels" / "policies" / "codes.py"
_PACKAGE = next(p for p in Path(__file__).resolve().parents if not (p.parent / "__init__.py").exists())
"""The folder of the package ``tarotsim`` (the outermost folder with an ``__init__.py`` above
this module), however deep in it this module sits."""
DOCS_PATH = _PACKAGE.parent / "docs" / "policies.md"


def codes_source() -> str:
    """The text of ``players/kernels/policies/codes.py``: one module constant per policy."""
    lines = [
        '"""Integer codes of the policies, written from the registry (``tarotsim.players.policies``): do not edit.',
        "",
        "Regenerate with ``python -m tarotsim.players.policy_files``; ``tests/test_policies.py`` checks this file.",
        '"""',
    ]
    for decision in DECISIONS:
        lines.append("")
        for name in policy_names(decision):
            p = POLICY_TABLE[decision, name]
            lines.append(f"{p.constant} = {p.code}")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def policies_markdown() -> str:
    """The policy and option tables of ``docs/policies.md``."""
    out = [
        "# Policies and their options",
        "",
        "A strategy (`Strategy`, a spec such as `play=heuristic,bid=montecarlo`, or `--strategy` on the",
        "command line) chooses one policy per decision and sets the options those policies read.",
        "Defaults: " + ", ".join(f"`{d}={n}`" for d, n in DEFAULTS.items()) + ".",
        "This page is written from the registry, `tarotsim/players/policies.py` (`python -m tarotsim.players.policy_files`).",
        "",
        "## Policies",
        "",
        "| decision | policy | what it does | options | searches | rollout |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for decision, meaning in DECISIONS.items():
        for name in policy_names(decision):
            p = POLICY_TABLE[decision, name]
            default = " (default)" if DEFAULTS[decision] == name else ""
            options = ", ".join(f"`{o}`" for o in p.options) or "—"
            out.append(
                f"| {meaning} | `{decision}={name}`{default} | {_cell(p.doc)} | {options} | "
                f"{'yes' if p.searches else ''} | {'yes' if p.rollout else ''} |"
            )
    out += [
        "",
        "The `search` call, écart, poignée and chelem deal the unseen cards `*_worlds` times, play each",
        "deal out once per choice (every card by the seat's `rollout`, the heuristic by default; every",
        "other decision by its policy, a searching one by its default) and take the choice of best mean",
        "score, the default policy's on a tie. Each may be set alone (`play=pimc,ecart=search`): its",
        "own effect is measured in `reports/search-decisions.md`.",
        "",
        "`attack_play` and `defence_play` set the card play of one side (default: `play`); `name`",
        "is a short label for records and reports (text without `,` or `=`; default: the spec).",
        "`play=`, `bid=` and `act=` (every decision) may name a player of your own by import path,",
        "`play=mypkg.players:cautious`, and `params=0.5/3` give a Numba player's numbers",
        "([your own player](player.md#a-player-by-name-run-directories-the-command-line-dask)).",
        "",
        "## Options",
        "",
        "Numbers are whole numbers; an option set without a policy that reads it is refused.",
        "",
        "| option | read by | values | default | meaning |",
        "| --- | --- | --- | --- | --- |",
    ]
    for option in OPTIONS.values():
        readers = ", ".join(f"`{p.name}`" for p in option.readers())
        if option.side is not None:
            readers += f" ({option.side})"
        default = "—" if option.default is None else f"`{option.default}`"
        if option.name == "bid_thresholds":
            default = "the published bands, scaled"
        for p in option.readers():
            if option.name in p.defaults:
                default += f" (`{p.name}`: `{p.defaults[option.name]}`)"
        out.append(f"| `{option.name}` | {readers} | {option.values} | {default} | {_cell(option.doc)} |")
    out += [
        "",
        "## Adding a policy",
        "",
        "A new policy is one entry in the registry (`tarotsim/players/policies.py`: its name, decision, next",
        "free code, options, `searches` and `rollout`), its kernel under `tarotsim/players/kernels/policies/` and the",
        "branch of its decision's dispatch that calls it on its code. `python -m tarotsim.players.policy_files`",
        "then writes its code into `tarotsim/players/kernels/policies/codes.py` and its rows into this page;",
        "its name is at once valid in `Strategy`, `RunConfig`, the command line and the records.",
        "A new option also needs its `P_*` slot in `tarotsim/engine/kernels/state.py`. `tests/test_policies.py`",
        "checks the written files, the codes and the slots against the registry.",
    ]
    return "\n".join(out) + "\n"


def derived_files() -> dict[Path, str]:
    """Every file written from the registry, with its text."""
    return {CODES_PATH: codes_source(), DOCS_PATH: policies_markdown()}


def main() -> None:
    """Write the derived files (``python -m tarotsim.players.policy_files``)."""
    for path, text in derived_files().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
