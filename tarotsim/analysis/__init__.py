"""Success tables, confidence intervals, fitted thresholds and comparisons from simulation records.

Every public function takes either a records DataFrame (one row per deal, or one row per
``(deal, contract)`` for contract sweeps) or the path of a run directory. A run directory is
read chunk by chunk, a batch of whole deals at a time, and reduced to exact per-cell counts
and sums (`reduction`): memory does not grow with the size of the
run, and the tables do not depend on how it was cut into chunks. With ``client=`` (a Dask
client or a scheduler address) the chunks are reduced on the workers of a cluster.
pandas and NumPy; the fitted curves use statsmodels.

The package, one job per module, in the order the data goes through it:

- `loading`: find a run's chunks, read them in batches, keep the
  played deals, check columns;
- `reduction`: map per-chunk reductions over the chunks (here or
  on Dask workers) and merge them;
- `moments`: exact counts and sums per cell, and the means and
  variances read from them;
- `intervals`: Wilson confidence intervals;
- `same_play`: which contracts a sweep played identically;
- `fits`: fitted curves of success and expected score, and where
  they cross their targets;
- `success`: success table and trump thresholds by bouts;
- `best`: the best contract (or passing) in each cell of hands, and
  whether the cell decides it;
- `hand_points`: mean score by hand points, and where contracts pay,
  against the published bands on their own scale;
- `threshold_tables`: the trump and hand-point thresholds and the best
  contract from one pass;
- `comparison`: paired comparison of two runs of the same deals;
- `count_fit`: Chavey's count refitted on a sweep, and the
  ``learned`` bidder fitted from it;
- `tables`: tables as text cells, and as Markdown.

Conventions used throughout:

- Contracts are [`tarotsim.engine.labels.CONTRACTS`][tarotsim.engine.labels.CONTRACTS] (Prise, Garde, Garde sans, Garde
  contre), reported in that order (low to high).
- Thrown-in deals (``thrown_in != 'none'``, or no contract) are never counted in
  success or score statistics.
- Scores are the taker's score for the deal (``taker_score``, game points, the
  settled ``+3D`` with four players); a pass scores 0.
- Intervals are two-sided at 95 % by default (``z = 1.959963984540054``); each function
  says how its intervals are made (Wilson, normal on paired differences, delta method on a
  fit, normal resampling of bin means).
"""

from tarotsim.analysis.best import PASS, best_contract
from tarotsim.analysis.comparison import compare
from tarotsim.analysis.count_fit import fit_bidder, fit_count
from tarotsim.analysis.hand_points import (
    BAND_SCALES,
    PUBLISHED_HAND_POINTS,
    hand_points_table,
    hand_points_thresholds,
)
from tarotsim.analysis.loading import Data, load_records
from tarotsim.analysis.reduction import connect, reduce_records
from tarotsim.analysis.same_play import same_play_as
from tarotsim.analysis.success import success_table, thresholds
from tarotsim.analysis.tables import TextTable, text_table, to_markdown
from tarotsim.analysis.threshold_tables import ThresholdTables, threshold_tables
from tarotsim.base.intervals import Z95, wilson_interval
from tarotsim.engine.labels import CONTRACTS

__all__ = [
    "BAND_SCALES",
    "CONTRACTS",
    "PASS",
    "PUBLISHED_HAND_POINTS",
    "Z95",
    "Data",
    "TextTable",
    "ThresholdTables",
    "best_contract",
    "compare",
    "connect",
    "fit_bidder",
    "fit_count",
    "hand_points_table",
    "hand_points_thresholds",
    "load_records",
    "reduce_records",
    "same_play_as",
    "success_table",
    "text_table",
    "threshold_tables",
    "thresholds",
    "to_markdown",
    "wilson_interval",
]
