"""Coverage of the fitted break-even intervals on known laws (``tarotsim.analysis.fits.coverage_study``).

For each law (a softplus mean score of hand points, sharper or softer, from a million deals
a study), draws ``--replications`` studies, fits the break-even with the whole-range cubic alone
and as ``thresholds(method="fit")`` does it (local fits where the cubic does not fit), and
writes the share of 95 % intervals holding the true break-even to ``reports/fit-coverage.md``.

    nice .venv/bin/python benchmarks/bench_fit_coverage.py --replications 400
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from tarotsim.analysis import to_markdown
from tarotsim.analysis.fits import KnownLaw, coverage_study

ROOT = Path(__file__).resolve().parent.parent
WIDTHS = (8.0, 6.0, 4.0, 3.0)
"""Widths of the softplus (hand points): the smaller, the sharper the bend a cubic cannot follow."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replications", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--deals", type=int, default=KnownLaw().deals, help="deals a study")
    parser.add_argument("--out", default=str(ROOT / "reports" / "fit-coverage.md"))
    args = parser.parse_args()
    start = time.perf_counter()
    frames = []
    for width in WIDTHS:
        study = coverage_study(args.replications, seed=args.seed, law=KnownLaw(deals=args.deals, width=width))
        frames.append(study.assign(width=width))
        print(study.to_string(index=False), flush=True)
    table = pd.concat(frames, ignore_index=True)[
        ["width", "method", "replications", "coverage", "coverage_low", "coverage_high", "bias", "mean_width",
         "local_share", "window_share", "truth"]
    ]  # fmt: skip
    law = KnownLaw(deals=args.deals)
    deals_option = f" --deals {args.deals}" if args.deals != KnownLaw().deals else ""
    text = "\n".join(
        [
            "# Coverage of the fitted break-even intervals",
            "",
            f"`benchmarks/bench_fit_coverage.py --replications {args.replications} --seed {args.seed}{deals_option}` "
            f"({time.perf_counter() - start:,.0f} s).",
            "",
            f"Known law: hand points binomial over 0-{law.top} with mean {law.x_mean:g}, {law.deals:,} deals a "
            f"study (values with 30 deals or more kept), taker score normal with sd {law.score_sd:g} round the mean "
            f"{law.low:g} + {law.rise:g}·softplus((x − {law.centre:g}) / width). `cubic`: the whole-range cubic "
            'with its quasi-likelihood interval alone; `checked`: as `thresholds(method="fit")` does it, '
            "a local fit round the crossing wherever hand points take 10 values or more (in every study here: "
            "`local_share`), its interval widened to hold the crossings of the windows one value away "
            "where they fall outside it (`window_share`). `coverage`: share of 95 % intervals that hold the "
            "true break-even, with its Wilson interval; `bias` and `mean_width` in hand points.",
            "",
            to_markdown(table, index=False, floatfmt=".4g"),
            "",
        ]
    )
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"written: {args.out}")


if __name__ == "__main__":
    main()
