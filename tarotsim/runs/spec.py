"""What a run is, and its records computed chunk by chunk: ``RunSpec``.

A run is cut into chunks of ``chunk_deals`` consecutive deals. Chunk ``i`` depends on
the run's seed, configuration and ``i`` alone (every deal seeds its own stream), so
chunks can be made in any order, by any thread or worker, and their records equal those
of the whole run made at once. Where the chunks go is `tarotsim.runs.store`'s job.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np
import pandas as pd

from tarotsim.base.defaults import DEFAULT_CHUNK_DEALS
from tarotsim.base.seeding import run_key
from tarotsim.engine.dealing import put_where
from tarotsim.engine.labels import CONTRACTS, parse_contract
from tarotsim.engine.records import add_duel_seats, add_strategies, record_bytes, to_frame
from tarotsim.interfaces.python_players import has_python_players, play_step_by_step
from tarotsim.players.bidder import load_bidder
from tarotsim.players.config import RunConfig, check_count
from tarotsim.players.policies import searches
from tarotsim.players.strategy import Strategy, to_strategy
from tarotsim.runs.runner import check_memory, play_deals, progress_step
from tarotsim.runs.strata import Cell, Strata, Where, canonical_where, check_stratify, strata, where_text

KINDS = ("simulate", "sweep", "duel")
"""A ``simulate`` run bids and plays each deal once; a ``sweep`` run plays each deal once
per contract, taken by one seat; a ``duel`` run plays each deal once per seat, strategy A
in that seat and strategy B in the others."""
FORMAT = 6
"""Version of the records and of the run directory's layout, part of a run's identity: raised by any
change that alters records (2: nulls where there is no result, a sweep's hand on thrown-in deals;
chunk checksums in the manifest; 3: chunks carry their run and deals, the manifest its identity's
checksum; 4: a strategy spec's unnamed choices mean the one default, heuristic play and the
expert écart, where they meant random play and the simple écart; 5: a sweep may be conditioned on
its hands (``where``) and stratified (``stratify``), its records then weighted (``weight``); 6: a
conditioned sweep draws its taking seat's hand from the law of its counts, without rejection, so
its deals differ for the same seed, and keeps cells rarer than one deal in a million)."""


@dataclass(frozen=True)
class RunSpec:
    """What decides a run's records: kind, seed, deal count, chunking and configuration.

    ``kind`` is ``"simulate"`` (each deal bid and played once), ``"sweep"`` (each deal
    played once per contract in ``contracts``, all taken by seat ``seat``) or ``"duel"``
    (each deal played once per seat k, ``duel[0]`` (A) in seat k and ``duel[1]`` (B) in
    the others; strategies may be given as specs).

    A sweep may play only deals whose hands meet ranges, ``where`` (as `tarotsim.deal`
    reads them, or canonical: `tarotsim.runs.strata`; seats are the table's, the taking
    seat is ``seat``), and be stratified on columns of the taking seat's hand, ``stratify``
    (`tarotsim.runs.strata.STRATA`): its deals then take the cells in turn, and its
    records carry a ``weight`` (the cell's probability over its deals). Its weights depend on
    its deal count: extending such a run writes its chunks again with the larger run's weights
    (`tarotsim.runs.store`).

    Raises
    ------
    ValueError, TypeError
        For an unknown kind, a negative deal count, a chunk size under 1, a sweep
        without contracts, with a contract twice, an unknown contract, a taking seat off
        the table, unshuffled dealing or a forced contract in its configuration, or a
        duel without two strategies valid at its table, or whose configuration deals
        unshuffled, forces a contract or sets policies itself.
    """

    kind: str
    seed: int
    deals: int
    config: RunConfig
    chunk_deals: int = DEFAULT_CHUNK_DEALS
    contracts: tuple[str, ...] = ()
    seat: int = 0
    duel: tuple[Strategy, ...] = ()
    where: Where = ()
    stratify: tuple[str, ...] = ()
    key: np.ndarray = field(init=False, repr=False, compare=False)
    strata: Strata | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a run is a 'simulate', a 'sweep' or a 'duel' run, got {self.kind!r}")
        check_count(self.deals, "deals")
        check_count(self.chunk_deals, "chunk size", minimum=1)
        if self.kind == "sweep":
            self._check_sweep()
        if self.kind == "duel":
            self._check_duel()
        if self.where or self.stratify:
            self._check_condition()
        object.__setattr__(self, "key", run_key(self.seed))

    def _check_condition(self) -> None:
        if self.kind != "sweep":
            raise ValueError("only a sweep can be conditioned on its hands (where) or stratified")
        where = canonical_where(self.where, self.config.players)
        stratify = check_stratify(self.stratify)
        object.__setattr__(self, "where", where)
        object.__setattr__(self, "stratify", stratify)
        object.__setattr__(
            self,
            "strata",
            strata(
                seed=self.seed,
                players=self.config.players,
                seat=self.seat,
                where=where,
                stratify=stratify,
                deals=self.deals,
            ),
        )

    @property
    def weighted(self) -> bool:
        """Whether the run is conditioned on its hands, its records weighted (``weight``)."""
        return self.strata is not None

    def _check_sweep(self) -> None:
        if not self.contracts:
            raise ValueError("a sweep needs at least one contract")
        for name in self.contracts:
            parse_contract(name)
        if len(set(self.contracts)) != len(self.contracts):
            raise ValueError(f"a contract appears twice in {list(self.contracts)}")
        if self.config.dealing != "shuffled":
            raise ValueError("a sweep replays each deal once per contract, so it needs shuffled dealing")
        if self.config.forced_contract is not None:
            raise ValueError(
                "a sweep sets the taker and the contract itself (seat, contracts): leave forced_contract unset"
            )
        seat = check_count(self.seat, "the taking seat")
        if seat >= self.config.players:
            raise ValueError(f"the taking seat must be 0 to {self.config.players - 1}, got {seat}")

    def _check_duel(self) -> None:
        if len(self.duel) != 2:
            raise ValueError(f"a duel needs two strategies, A and B, got {len(self.duel)}")
        a, b = (to_strategy(s) for s in self.duel)
        object.__setattr__(self, "duel", (a, b))
        config = self.config
        if config.dealing != "shuffled":
            raise ValueError("a duel replays each deal once per seat, so it needs shuffled dealing")
        if config.forced_contract is not None:
            raise ValueError("a duel's deals are bid by its strategies: leave forced_contract unset")
        if config != RunConfig(players=config.players):
            raise ValueError(
                "a duel's strategies set every seat's policies: its configuration gives the table size alone"
            )
        for name, strategy in (("A", a), ("B", b)):
            try:
                strategy.check(config.players)
            except ValueError as err:
                raise ValueError(f"strategy {name} ({strategy}): {err}") from None
        if a.label == b.label and a != b:
            raise ValueError(
                f"strategies A and B differ but share the label {a.label!r}: give them different names"
            )

    def rotation(self, index: int) -> tuple[Strategy, ...]:
        """A duel's seats on rotation ``index``: strategy A in seat ``index``, B in the others."""
        a, b = self.duel
        return tuple(a if seat == index else b for seat in range(self.config.players))

    @property
    def rows_per_deal(self) -> int:
        """Record rows of one deal: one per contract in a sweep, one per seat in a duel, else one."""
        if self.kind == "duel":
            return self.config.players
        return len(self.contracts) if self.kind == "sweep" else 1

    def check_memory(self) -> None:
        """Refuse a run whose largest chunk's records would not fit in the memory available now.

        Raises
        ------
        ValueError
            Saying how much memory they need, and how to need less.
        """
        check_memory(
            min(self.deals, self.chunk_deals) * self.rows_per_deal, record_bytes(self.config.players)
        )

    @property
    def n_chunks(self) -> int:
        """Number of chunks (the last one may hold fewer deals)."""
        return -(-self.deals // self.chunk_deals)

    def chunk_range(self, index: int) -> tuple[int, int]:
        """(first deal, number of deals) of chunk ``index``."""
        first = index * self.chunk_deals
        return first, max(0, min(self.chunk_deals, self.deals - first))

    def identity(self) -> dict[str, Any]:
        """What a run is (JSON-ready): the records format, the tarotsim version that makes it,
        and the fields two runs must share to hold the same records.

        Raises
        ------
        ValueError
            When a user's player has no import path (``players.hooks.import_name``): the identity
            must name it so that another process loads it.
        """
        from tarotsim._version import __version__

        unnamed = [name for strategy in self._strategies() for name in strategy.unnamed_players()]
        if unnamed:
            raise ValueError(
                f"player {unnamed[0]} needs an importable name to be written to a run directory or "
                "sent to workers: define it at the top level of a module (not a script, a lambda "
                "or a function inside another) and name it module:attribute"
            )

        return (
            {
                "format": FORMAT,
                "tarotsim": __version__,
                "kind": self.kind,
                "seed": self.seed,
                "deals": self.deals,
                "chunk_deals": self.chunk_deals,
                "config": self.config.as_dict(),
                "contracts": list(self.contracts),
                "seat": self.seat if self.kind == "sweep" else None,
            }
            | ({"duel": [str(s) for s in self.duel]} if self.kind == "duel" else {})
            | self._condition()
            | self._bidders()
        )

    def _condition(self) -> dict[str, Any]:
        """``{"condition": …}``: a conditioned sweep's ranges, stratify columns and deal count (its
        weights depend on it, so that its chunks are bound to it; extending the run writes them
        again, `tarotsim.runs.store`); empty otherwise."""
        if not self.weighted:
            return {}
        return {
            "condition": {
                "where": [list(item) for item in self.where],
                "stratify": list(self.stratify),
                "deals": self.deals,
            }
        }

    def _strategies(self) -> tuple[Strategy, ...]:
        """Every strategy the run plays."""
        return self.duel if self.kind == "duel" else self.config.seat_strategies()

    def _bidders(self) -> dict[str, Any]:
        """``{"bidders": {path: digest}}``: the SHA-256 of each learned bidder's model (the
        slots it fills), so that a changed bidder file makes another run; empty without one."""
        paths = sorted({s.bidder for s in self._strategies() if s.bidder is not None})
        if not paths:
            return {}
        digests = {p: hashlib.sha256(load_bidder(p).slots().tobytes()).hexdigest() for p in paths}
        return {"bidders": digests}

    @staticmethod
    def from_identity(identity: dict[str, Any]) -> RunSpec:
        """The spec whose ``identity()`` is ``identity``.

        Raises
        ------
        ValueError
            If ``identity`` is not a run's identity of this records format: the message
            starts with "made by" for another format, else says what is wrong.
        """
        if not isinstance(identity, dict) or identity.get("kind") not in KINDS:
            raise ValueError("no run of a known kind")
        if "format" not in identity:
            raise ValueError("no records format")
        if identity["format"] != FORMAT:
            raise ValueError(
                f"made by another tarotsim (records format {identity.get('format')!r}; this one "
                f"reads format {FORMAT}): make the run again with this version, in a new directory"
            )
        try:
            spec = RunSpec(
                kind=identity["kind"],
                seed=identity["seed"],
                deals=identity["deals"],
                config=RunConfig(**identity["config"]),
                chunk_deals=identity["chunk_deals"],
                contracts=tuple(identity["contracts"]),
                seat=identity["seat"] or 0,
                duel=tuple(identity.get("duel", ())),
                where=tuple(tuple(item) for item in identity.get("condition", {}).get("where", ())),
                stratify=tuple(identity.get("condition", {}).get("stratify", ())),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"{type(err).__name__}: {err}") from None
        if spec._bidders() != {k: v for k, v in identity.items() if k == "bidders"}:
            raise ValueError("a learned bidder's file has changed since the run was made")
        return spec

    def command(self, directory: str | os.PathLike[str]) -> str | None:
        """The ``tarotsim`` command line that makes this run in ``directory``, or resumes it there.

        None for a run that the command line cannot express (one with a forced contract).
        """
        if self.kind == "duel":
            words = [
                "tarotsim",
                "duel",
                "--a",
                str(self.duel[0]),
                "--b",
                str(self.duel[1]),
                "--out",
                str(directory),
                "--deals",
                str(self.deals),
                "--seed",
                str(self.seed),
                "--players",
                str(self.config.players),
            ]
            if self.chunk_deals != DEFAULT_CHUNK_DEALS:
                words += ["--chunk-deals", str(self.chunk_deals)]
            return shlex.join(words)
        if self.config.forced_contract is not None:
            return None
        sweeping = self.kind == "sweep"
        defaults = RunConfig(players=self.config.players)
        words = [
            "tarotsim",
            self.kind,
            "--out",
            str(directory),
            "--deals",
            str(self.deals),
            "--seed",
            str(self.seed),
        ]
        if self.chunk_deals != DEFAULT_CHUNK_DEALS:
            words += ["--chunk-deals", str(self.chunk_deals)]
        if sweeping and self.seat != 0:
            words += ["--taker", str(self.seat)]
        if sweeping and self.contracts != CONTRACTS:
            words += ["--contracts", ",".join(self.contracts)]
        if self.where:
            words += [f"--where={word}" for word in where_text(self.where).split()]
        if self.stratify:
            words += ["--stratify", ",".join(self.stratify)]
        if self.config.players != RunConfig().players:
            words += ["--players", str(self.config.players)]
        strategies = self.config.strategies
        if strategies is not None:
            if len(set(strategies)) == 1:
                words += ["--strategy", str(strategies[0])]
            else:
                words += [f"--seat={seat}={strategy}" for seat, strategy in enumerate(strategies)]
        for option in fields(RunConfig):
            value = getattr(self.config, option.name)
            if option.name in (
                "players",
                "forced_taker",
                "forced_contract",
                "strategies",
            ) or value == getattr(defaults, option.name):
                continue
            text = "/".join(map(str, value)) if isinstance(value, tuple) else str(value)
            words += [f"--{option.name.replace('_', '-')}={text}"]
        return shlex.join(words)

    def _cfg(self) -> np.ndarray:
        if self.kind == "duel":
            # one configuration per rotation: int64[players, N_CFG]
            return np.stack(
                [
                    replace(self.config, strategies=self.rotation(k)).to_array()
                    for k in range(self.config.players)
                ]
            )
        if self.kind == "sweep":
            # the sweep kernel sets the contract row by row; the taking seat is fixed here
            return replace(self.config, forced_taker=self.seat, forced_contract=self.contracts[0]).to_array()
        return self.config.to_array()

    @property
    def searches(self) -> bool:
        """Whether a seat of the run searches (``players.policies.searches``, from the registry's
        ``searches`` flags): decided here once, it sets both the kernels' block size and the
        progress step."""
        return searches(self._cfg())

    @property
    def progress_step(self) -> int:
        """Deals per progress-bar update (``runner.progress_step``: fewer when a seat searches)."""
        return progress_step(self.searches)

    def compute_chunk(self, index: int, *, progress: bool = False) -> pd.DataFrame:
        """Records of chunk ``index``: a pure function of the spec and the index.

        Runs on the threads Numba is set to use (``runner.using_threads``); ``progress``
        shows a progress bar of deals.

        Raises
        ------
        ValueError
            If the chunk's records would not fit in the memory available.
        """
        first, count = self.chunk_range(index)
        players = self.config.players
        check_memory(count * self.rows_per_deal, record_bytes(players))
        if self.strata is None:
            frame = self._frame(first, count, self.key, self._cfg(), progress)
        else:
            frame = self._cells_frame(self.strata, first, count, progress)
        if self.kind == "duel":
            add_duel_seats(frame, players)
            codes = np.where(frame["a_seat"].to_numpy()[:, None] == np.arange(players), 0, 1)
            add_strategies(frame, [s.label for s in self.duel], codes)
        elif self.config.strategies is not None:
            add_strategies(frame, [s.label for s in self.config.strategies], np.arange(players))
        if self.strata is not None:
            frame["weight"] = frame.pop("weight")  # last, as the registry orders the columns
        return frame

    def _frame(
        self, first: int, count: int, key: np.ndarray, cfg: np.ndarray, progress: bool
    ) -> pd.DataFrame:
        """Records of deals ``first`` … ``first + count - 1`` of the key ``key`` under ``cfg``."""
        contracts = None
        if self.kind == "sweep":
            contracts = np.array([parse_contract(c) for c in self.contracts], dtype=np.int64)
        seated = [s for row in spec_rows(self) for s in row]
        if has_python_players(seated):  # played step by step
            rec = play_step_by_step(first, count, key, cfg, spec_rows(self))
        else:
            rec = play_deals(
                first, count, key, cfg, contracts=contracts, progress=progress, searches=self.searches
            )
        return to_frame(
            rec,
            first,
            self.config.players,
            per_deal=self.rows_per_deal,
            hand_known=self.kind == "sweep" or self.config.forced_contract is not None,
        )

    def _cells_frame(self, cells: Strata, first: int, count: int, progress: bool) -> pd.DataFrame:
        """Records of deals ``first`` … ``first + count - 1`` of a conditioned sweep: deal ``d`` is
        deal ``d // k`` of cell ``d % k`` (k cells, `tarotsim.runs.strata`), with its ``weight``;
        ``progress`` shows a bar of cells."""
        k = len(cells.cells)
        weights = cells.weights(self.deals)
        frames = []
        each: Iterable[tuple[int, Cell]] = enumerate(cells.cells)
        if progress:
            from tqdm import tqdm

            each = tqdm(each, total=k, unit="cell", desc="cells", file=sys.stderr)
        for c, cell in each:
            start = max(0, -(-(first - c) // k))
            stop = max(start, -(-(first + count - c) // k))
            if stop == start:
                continue
            cfg = self._cfg()
            put_where(cfg, cell.ranges(self.config.players))
            frame = self._frame(start, stop - start, cell.key, cfg, False)
            frame["deal"] = frame["deal"] * k + c
            frame["weight"] = np.full(len(frame), weights[c])
            frames.append(frame)
        if not frames:
            return self._frame(first, 0, self.key, self._cfg(), False).assign(weight=np.zeros(0))
        joined = pd.concat(frames, ignore_index=True)
        order = np.argsort(joined["deal"].to_numpy(), kind="stable")
        return joined.iloc[order].reset_index(drop=True)


def spec_rows(spec: RunSpec) -> list[tuple[Strategy, ...]]:
    """Each seat's strategy, per row of the run's configuration table (a duel: per rotation)."""
    if spec.kind == "duel":
        return [spec.rotation(k) for k in range(spec.config.players)]
    if spec.kind == "sweep":
        return [spec.config.seat_strategies()] * len(spec.contracts)
    return [spec.config.seat_strategies()]
