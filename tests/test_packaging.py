"""The package as it is shipped: the sdist holds what its tests read, the wheel built from that
sdist holds the package, its types marker and its licence, and the metadata says what the
project is. Both are built offline, with the setuptools of the environment (the ``test`` extra
installs a recent enough one), from a copy of the tree, so the checkout is left as it was.
"""

from __future__ import annotations

import email
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from fnmatch import fnmatch
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED_FOLDERS = ("docs", "tests", "examples", "benchmarks", "reports")
"""Folders of the tree that the sdist holds whole (MANIFEST.in), besides the package."""
LEFT_BEHIND = ("__pycache__", "*.pyc", "*.nbi", "*.nbc", ".venv", ".git", "build", "dist", "*.egg-info")
LEFT_BEHIND += (".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", "runs", "site")


def _backend_is_recent_enough() -> bool:
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"][
        "requires"
    ]
    minimum = next(r.split(">=")[1] for r in requires if r.startswith("setuptools>="))
    return tuple(map(int, version("setuptools").split(".")[:2])) >= tuple(map(int, minimum.split(".")[:2]))


needs_backend = pytest.mark.skipif(
    not _backend_is_recent_enough(),
    reason="building the package offline needs the build-system's setuptools: pip install -e '.[test]'",
)


def _build(tmp_path: Path) -> tuple[Path, Path]:
    """The sdist of a copy of the tree, then the wheel built from that sdist (as ``python -m
    build`` does): their paths."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(*LEFT_BEHIND))
    dist = tmp_path / "dist"
    dist.mkdir()
    backend = (
        "from setuptools import build_meta as b; import sys; print(getattr(b, sys.argv[1])(sys.argv[2]))"
    )
    quiet = {"capture_output": True, "text": True, "timeout": 120}
    done = subprocess.run([sys.executable, "-c", backend, "build_sdist", dist], cwd=tree, **quiet)
    assert done.returncode == 0, done.stderr[-3000:]
    sdist = dist / done.stdout.split()[-1]
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    unpacked = tmp_path / "unpacked" / sdist.name.removesuffix(".tar.gz")
    done = subprocess.run([sys.executable, "-c", backend, "build_wheel", dist], cwd=unpacked, **quiet)
    assert done.returncode == 0, done.stderr[-3000:]
    return sdist, dist / done.stdout.split()[-1]


@needs_backend
def test_the_sdist_and_its_wheel_hold_what_they_should(tmp_path):
    sdist, wheel = _build(tmp_path)
    with tarfile.open(sdist) as archive:
        top = sdist.name.removesuffix(".tar.gz")
        in_sdist = {name.removeprefix(top + "/") for name in archive.getnames()}
    for name in ("LICENSE", "README.md", "pyproject.toml", "MANIFEST.in", "mkdocs.yml", "Makefile"):
        assert name in in_sdist, name
    # every file of those folders, so that the sdist's test suite runs whole
    for folder in SHIPPED_FOLDERS:
        for path in (ROOT / folder).rglob("*"):
            skipped = any(
                fnmatch(part, left) for part in path.relative_to(ROOT).parts for left in LEFT_BEHIND
            )
            if path.is_file() and not skipped:
                assert path.relative_to(ROOT).as_posix() in in_sdist, path
    assert "tests/test_packaging.py" in in_sdist and "docs/player.md" in in_sdist
    assert not any(name.endswith((".pyc", ".nbi", ".nbc")) for name in in_sdist)

    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())
        info = wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info"
        metadata = email.message_from_bytes(archive.read(f"{info}/METADATA"))
    assert "tarotsim/py.typed" in in_wheel and "tarotsim/__init__.py" in in_wheel
    assert "tarotsim/engine/kernels/__init__.py" in in_wheel
    assert "tarotsim/data/net_play.npz" in in_wheel  # play=net's weights
    assert f"{info}/licenses/LICENSE" in in_wheel
    # the wheel is the package alone: no tests, no guide
    assert {name.split("/")[0] for name in in_wheel} == {"tarotsim", info}
    assert metadata["Name"] == "tarotsim"
    assert metadata["License-Expression"] == "MIT"
    classifiers = metadata.get_all("Classifier")
    assert "Typing :: Typed" in classifiers
    assert not any(c.startswith("License ::") for c in classifiers), "the licence is the SPDX expression"
    extras = set(metadata.get_all("Provides-Extra"))
    assert {"openspiel", "pettingzoo", "docs", "test", "learn"} <= extras
    # torch comes with the learn extra only, never with the test suite's install
    requires = metadata.get_all("Requires-Dist")
    assert any(r.startswith("torch") and 'extra == "learn"' in r for r in requires), requires
    assert not any(r.startswith("torch") and 'extra == "learn"' not in r for r in requires), requires
    # the guide installs the wheel this build makes, by its name
    guide = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    assert f"pip install 'dist/{wheel.name}[openspiel,pettingzoo]'" in guide


def test_the_licence_is_mit_and_the_readme_installs_from_a_clone():
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "the tarotsim authors" in licence
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    # tarotsim is installed from its source or a wheel built from it, not from a package index
    assert "pip install '.[openspiel,pettingzoo]'" in readme
    for page in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "tarotsim").rglob("*.py")]:
        assert "install 'tarotsim[" not in page.read_text(encoding="utf-8"), page
