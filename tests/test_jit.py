"""Compiled-code caching: every kernel's cache is stamped with all kernel sources."""

from tarotsim import _jit
from tarotsim.kernels import batch, game
from tarotsim.kernels.policies import heuristic


def test_kernel_caches_are_stamped_with_every_kernel_source():
    for kernel in (batch.run_deals, game.play_deal, heuristic.heuristic_card):
        locator = kernel._cache._impl._locator
        assert type(locator).__name__.startswith("Tarotsim")
        assert locator.get_source_stamp() == _jit._STAMP


def test_the_stamp_follows_the_sources(tmp_path, monkeypatch):
    (tmp_path / "kernels").mkdir()
    for name in ("_jit.py", "cards.py", "kernels/a.py"):
        (tmp_path / name).write_text("x = 1\n")
    monkeypatch.setattr(_jit, "_PACKAGE", tmp_path)
    before = _jit._sources_stamp()
    (tmp_path / "kernels" / "a.py").write_text("x = 2\n")
    assert _jit._sources_stamp() != before
