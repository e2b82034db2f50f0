"""Tests of tarotsim.report on small real runs: what was drawn (titles, axes, data), not pixels."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from tarotsim import analysis, report
from tarotsim.engine.labels import Contract
from tarotsim.players.config import RunConfig
from tarotsim.report import findings, glossary, provenance, style
from tarotsim.report.document import Table
from tarotsim.runs import store
from tarotsim.runs.store import RunSpec, execute

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
pytestmark = pytest.mark.usefixtures("recorded_runs")  # runs read from tests/fixtures, not played


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory):
    spec = RunSpec(
        kind="sweep",
        seed=1,
        deals=3000,
        config=RunConfig(policy="random"),
        chunk_deals=1000,
        contracts=CONTRACTS,
        seat=0,
    )
    path = tmp_path_factory.mktemp("runs") / "sweep"
    execute(path, spec)
    return path


@pytest.fixture(scope="module")
def sweep(sweep_dir):
    return analysis.load_records(sweep_dir)


@pytest.fixture(scope="module")
def simulate_dir(tmp_path_factory):
    spec = RunSpec(kind="simulate", seed=2, deals=1500, config=RunConfig(policy="random"), chunk_deals=1000)
    path = tmp_path_factory.mktemp("runs") / "simulate"
    execute(path, spec)
    return path


@pytest.fixture(scope="module")
def sweep_report(sweep_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("reports") / "sweep"
    return report.write_report(sweep_dir, out, min_n=30)


def _labelled(drawn: report.Drawn) -> None:
    """Every axes that is shown has a title (or the figure one) and axis labels with units."""
    fig = drawn.figure
    shown = [ax for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]
    assert shown
    for ax in shown:
        assert ax.get_title() or fig.get_suptitle()
        assert re.search(r"\(.+\)", ax.get_xlabel()), ax.get_xlabel()
        assert re.search(r"\(.+\)", ax.get_ylabel()), ax.get_ylabel()
    captions = [t for t in fig.texts if t.get_gid() == "caption"]
    assert len(captions) == 1 and captions[0].get_text() == drawn.caption
    # the caption, on one line, lies within the figure's width
    box = captions[0].get_window_extent(renderer=fig.canvas.get_renderer())
    assert 0 <= box.x0 and box.x1 <= fig.bbox.width
    assert "\n" not in drawn.caption and re.search(r"\d[\d,]* deals", drawn.caption)


# --------------------------------------------------------------------------- figures


@pytest.mark.parametrize("contract", ["prise", "garde_contre"])
def test_heatmap_has_one_annotation_per_success_cell(sweep, contract):
    drawn = report.success_heatmap(sweep, contract, min_n=30)
    _labelled(drawn)
    ax = drawn.figure.axes[0]
    assert ax.get_title().startswith(report.CONTRACT_LABELS[Contract.parse(contract)].capitalize())
    assert "bouts" in ax.get_ylabel() and "trump" in ax.get_xlabel()
    expected = analysis.success_table(sweep, contract=contract)
    assert len(ax.texts) == len(expected)
    pd.testing.assert_frame_equal(drawn.data.drop(columns="low_n"), expected)
    thin = expected["n"] < 30
    assert thin.any() and (~thin).any()
    marked = [t for t in ax.texts if t.get_text().startswith("n<30")]
    assert len(marked) == int(thin.sum())
    # the full cells show their rate, in percent
    shown = sorted(t.get_text() for t in ax.texts if not t.get_text().startswith("n<"))
    assert shown == sorted(f"{r:.0%}" for r in expected.loc[~thin, "rate"])
    # the image holds the rates of the full cells, row = bouts, column = trumps
    grid = ax.images[0].get_array()
    low = int(sweep["taker_trumps"].min())
    for row in expected[~thin].itertuples():
        assert grid[row.taker_bouts, row.taker_trumps - low] == pytest.approx(row.rate)
    assert grid.shape[0] == 4


def test_success_lines_equal_the_success_table(sweep):
    drawn = report.success_lines(sweep, "garde", min_n=30)
    _labelled(drawn)
    ax = drawn.figure.axes[0]
    assert "Wilson" in ax.get_title()
    table = analysis.success_table(sweep, contract="garde")
    lines = {line.get_label(): line for line in ax.get_lines()}
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    seen = 0
    for bouts in range(4):
        good = table[(table["taker_bouts"] == bouts) & (table["n"] >= 30)].sort_values("taker_trumps")
        label = f"{bouts} bout" + ("" if bouts == 1 else "s")
        if not len(good):
            assert label not in lines
            continue
        seen += 1
        assert label in legend
        np.testing.assert_array_equal(lines[label].get_xdata(), good["taker_trumps"].to_numpy(dtype=float))
        np.testing.assert_allclose(lines[label].get_ydata(), good["rate"].to_numpy())
    assert seen >= 2
    # one Wilson band per line, spanning rate_low … rate_high
    assert len(ax.collections) == seen
    good = table[(table["taker_bouts"] == 1) & (table["n"] >= 30)].sort_values("taker_trumps")
    band = ax.collections[1].get_paths()[0].vertices
    assert band[:, 1].min() == pytest.approx(good["rate_low"].min())
    assert band[:, 1].max() == pytest.approx(good["rate_high"].max())


def test_best_contract_map_matches_analysis(sweep):
    drawn = report.best_contract_map(sweep, min_n=30)
    _labelled(drawn)
    ax = drawn.figure.axes[0]
    expected = analysis.best_contract(sweep, min_n=30)
    pd.testing.assert_frame_equal(drawn.data, expected)
    assert len(ax.texts) == len(expected)
    labels = {"pass": "–", "prise": "P", "garde": "G", "garde_sans": "GS", "garde_contre": "GC"}
    marks = []
    for row in expected.itertuples():
        if row.decided:
            marks.append(labels[row.best])
        elif row.same_play:
            marks.append(f"{labels[row.best]}={labels[row.runner_up]}")
        else:
            marks.append(f"{labels[row.best]}?")
    assert sorted(t.get_text() for t in ax.texts) == sorted(marks)
    # the sweep's random players play garde as prise: those cells are marked, never decided
    assert "G=P" in marks and not expected.loc[expected["same_play"], "decided"].any()
    assert expected["decided"].any() and (~expected["decided"] & ~expected["same_play"]).any()
    # one hatched patch per undecided cell, and the legend says what the marks mean
    hatched = [p for p in ax.patches if p.get_hatch() == "///"]
    assert len(hatched) == int((~expected["decided"]).sum())
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("pass" in t for t in legend) and any("garde contre" in t for t in legend)
    assert any(t.startswith("GS?  undecided") for t in legend)
    assert any(t.startswith("G=P  undecided: the same play") for t in legend)


def test_hand_points_plot_lines_and_published_bands(sweep):
    drawn = report.hand_points_plot(sweep, min_n=30)
    _labelled(drawn)
    ax = drawn.figure.axes[0]
    assert "hand points" in ax.get_xlabel() and "game points" in ax.get_ylabel()
    table = analysis.hand_points_table(sweep, None, 30)
    lines = {line.get_label(): line for line in ax.get_lines()}
    for con in CONTRACTS:
        counted = table[(table["contract"] == con) & ~table["low_n"]].sort_values("bin_low")
        line = lines[report.CONTRACT_LABELS[Contract.parse(con)]]
        np.testing.assert_allclose(line.get_xdata(), (counted["bin_low"] + counted["bin_high"]) / 2)
        np.testing.assert_allclose(line.get_ydata(), counted["mean_score"].to_numpy())
        band = [ln for ln in ax.get_lines() if ln.get_gid() == f"published_{con}"]
        # only the bands made on this count (without the distribution bonus) are drawn
        if analysis.BAND_SCALES[con] == "hand_points":
            assert len(band) == 1
            assert list(band[0].get_xdata()) == [analysis.PUBLISHED_HAND_POINTS[con]] * 2
        else:
            assert band == []
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("GS 71, GC 81: made on hand_points_dist" in t for t in legend)


def test_distributions(sweep):
    played = sweep[sweep["thrown_in"] == "none"]
    scores = report.taker_score_histogram(sweep)
    _labelled(scores)
    assert scores.figure.get_suptitle()
    for con in CONTRACTS:
        counts = scores.data.loc[scores.data["contract"] == con, "count"]
        assert counts.sum() == (played["contract"] == con).sum()

    margin = report.attack_margin_histogram(sweep)
    _labelled(margin)
    diff = played["attack_points"] - np.array([56, 51, 41, 36])[played["attack_bouts"].to_numpy()]
    garde = diff[(played["contract"] == "garde").to_numpy()]
    data = margin.data[margin.data["contract"] == "garde"]
    assert data["count"].sum() == len(garde)
    made = data.loc[data["bin_low"] >= 0, "count"].sum()
    assert made == played.loc[played["contract"] == "garde", "made"].sum()

    events = report.events_chart(sweep)
    _labelled(events)
    ax = events.figure.axes[0]
    heights = sorted(p.get_height() for p in ax.patches)
    assert heights == pytest.approx(sorted(events.data["share"]))
    pab = events.data[(events.data["contract"] == "prise") & (events.data["event"] == "petit au bout attack")]
    prise = played[played["contract"] == "prise"]
    assert int(pab["count"].iloc[0]) == int((prise["petit_au_bout"] == "attack").sum())
    assert {"poignée shown (any side)", "chelem defence"} <= set(events.data["event"])


def test_provenance_table(sweep_dir, sweep):
    manifest = store.read_manifest(sweep_dir)
    table = report.provenance_table(manifest, sweep)
    values = dict(zip(table["field"], table["value"], strict=True))
    assert values["seed"] == "1" and values["kind"] == "sweep" and values["deals"] == "3,000"
    assert values["card play"] == "random" and values["numba version"] == manifest["versions"]["numba"]
    assert values["wall time (s)"] and values["complete"] == "yes"
    assert values["played deals"] == f"{sweep.loc[sweep['thrown_in'] == 'none', 'deal'].nunique():,}"


# --------------------------------------------------------------------------- the document


class _HTMLTable(HTMLParser):
    """The header and body cells of the one table of an HTML fragment, unescaped."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.numeric: list[list[bool]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
            self.numeric.append([])
        elif tag in ("th", "td"):
            self._cell = []
            self.numeric[-1].append(("class", "num") in attrs)

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self.rows[-1].append("".join(self._cell))
            self._cell = None


def _markdown_cells(markdown: str) -> list[list[str]]:
    """Cells of a Markdown table, ``\\|`` unescaped (the alignment row left out)."""
    lines = markdown.strip("\n").split("\n")
    rows = [re.split(r"(?<!\\)\|", line)[1:-1] for line in lines]
    return [[c.strip().replace("\\|", "|") for c in row] for i, row in enumerate(rows) if i != 1]


def _mixed_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "contract": ["prise", "garde|x", '<b>&"bold"</b>'],
            "n": [3, 40, 7],
            "rate": [0.5, 0.123456, np.nan],
            "threshold": [7.0, np.nan, 9.0],
            "ok": [True, False, True],
        }
    )


def test_a_table_has_the_same_cells_in_markdown_and_html():
    frame = _mixed_frame()
    doc = report.Document("t")
    doc.table(frame, floatfmt=".2f", in_words=True)
    markdown, page = doc.markdown(), doc.html()
    assert markdown == analysis.to_markdown(frame, index=False, floatfmt=".2f")
    parsed = _HTMLTable()
    parsed.feed(page)
    expected = [
        ["contract", "n", "rate", "threshold", "ok"],
        ["prise", "3", "0.50", "7", "True"],
        ["garde|x", "40", "0.12", "", "False"],
        ['<b>&"bold"</b>', "7", "", "9", "True"],
    ]
    assert parsed.rows == expected
    assert _markdown_cells(markdown) == expected
    # numeric columns: right-aligned in Markdown, class "num" in HTML; booleans are not numeric
    aligns = markdown.splitlines()[1].strip("| ").split(" | ")
    assert aligns == ["---", "---:", "---:", "---:", "---"]
    assert parsed.numeric[1:] == [[False, True, True, True, False]] * 3
    cells = analysis.text_table(frame, index=False, floatfmt=".2f")
    assert [list(cells.headers), *map(list, cells.rows)] == expected


def test_the_html_escapes_text_and_the_markdown_keeps_it():
    doc = report.Document("<title> & co")
    doc.heading(1, 'Seed <1> & "2"')
    doc.paragraph("a < b & ", report.Code("<script>"), " done")
    doc.table(_mixed_frame(), in_words=True)
    doc.figure('fig "1".png', "caption <i>", "title & <alt>")
    page = doc.html()
    assert "<script" not in page and "<b>" not in page and "<i>" not in page
    assert "<title>&lt;title&gt; &amp; co</title>" in page
    assert "<h1>Seed &lt;1&gt; &amp; &quot;2&quot;</h1>" in page
    assert "<p>a &lt; b &amp; <code>&lt;script&gt;</code> done</p>" in page
    assert "<td>&lt;b&gt;&amp;&quot;bold&quot;&lt;/b&gt;</td>" in page
    assert '<img src="fig &quot;1&quot;.png" alt="title &amp; &lt;alt&gt;">' in page
    assert "<figcaption>Figure 1. caption &lt;i&gt;</figcaption>" in page
    markdown = doc.markdown()
    assert markdown.startswith('# Seed <1> & "2"\n\na < b & `<script>` done\n\n| contract |')
    assert markdown.endswith('![title & <alt>](fig "1".png)\n\n*Figure 1. caption <i>*\n')


def test_figures_are_numbered_in_order_and_headings_checked():
    doc = report.Document("t")
    doc.figure("a.png", "first", "A")
    doc.paragraph("between")
    doc.figure("b.png", "second", "B")
    assert (
        doc.markdown() == "![A](a.png)\n\n*Figure 1. first*\n\nbetween\n\n![B](b.png)\n\n*Figure 2. second*\n"
    )
    with pytest.raises(ValueError, match="heading level"):
        doc.heading(7, "too deep")


def test_contract_names_and_colours_come_from_the_labels():
    assert (
        set(report.CONTRACT_LABELS)
        == set(report.CONTRACT_COLOURS)
        == set(report.SHORT_LABELS)
        == set(Contract)
    )
    assert report.CONTRACT_LABELS[Contract.GARDE_CONTRE] == "garde contre"
    assert report.CONTRACT_LABELS[Contract.PASS] == "pass"
    assert len(set(report.CONTRACT_COLOURS.values())) == len(Contract)
    assert len(set(report.SHORT_LABELS.values())) == len(Contract)


# --------------------------------------------------------------------------- the report


def _referenced(text: str, pattern: str) -> set[str]:
    return set(re.findall(pattern, text))


def test_report_files_reference_every_png(sweep_report):
    out = sweep_report
    pngs = {p.name for p in out.glob("*.png")}
    # garde is the same play as prise: its success figures would be prise's, drawn once
    expected = {f"{kind}_{c}.png" for kind in ("heatmap", "success") for c in CONTRACTS if c != "garde"}
    expected |= {"best_contract.png", "hand_points.png", "taker_score.png", "attack_margin.png", "events.png"}
    assert pngs == expected
    for name in pngs:
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (out / "report.md").read_text(encoding="utf-8")
    page = (out / "report.html").read_text(encoding="utf-8")
    assert _referenced(md, r"\]\(([^)]+\.png)\)") == pngs
    assert _referenced(page, r'<img src="([^"]+\.png)"') == pngs
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert page.count("<figcaption>") == len(pngs)


def test_report_tables(sweep_report, sweep_dir):
    md = (sweep_report / "report.md").read_text(encoding="utf-8")
    page = (sweep_report / "report.html").read_text(encoding="utf-8")
    records = analysis.load_records(sweep_dir)
    for table, fmt in (
        (analysis.thresholds(records, 0.5, 30), ".2f"),
        (analysis.best_contract(records, min_n=30), ".1f"),
        (analysis.hand_points_thresholds(records, None, 30), ".0f"),
    ):
        assert Table(glossary.readable(table, fmt), fmt).markdown() in md
    assert "## Provenance" in md and "| seed | 1 |" in md
    assert "<td>seed</td>" in page
    assert "Left out" not in md


def test_report_answers_first_and_provenance_last(sweep_report):
    md = (sweep_report / "report.md").read_text(encoding="utf-8")
    headings = re.findall(r"^(#+) (.+)$", md, flags=re.M)
    level_two = [text for hashes, text in headings if hashes == "##"]
    assert level_two[0] == "What this run says" and level_two[-1] == "Provenance"
    summary = md[md.index("## What this run says") : md.index("## Thresholds in trump length")]
    for section in (
        "When each contract pays",
        "Best choice by hand shape",
        "Against Chavey's published bands",
    ):
        assert f"### {section}" in summary
    # thresholds with intervals, e.g. "8.4 (8.3 to 8.5)"
    assert re.search(r"\| \d+\.\d \(\d+\.\d to \d+\.\d\) \|", summary)
    assert "prise = garde: 50% success" in summary
    # the comparison with the bands: prise's break-even against 40 on the same count, and
    # garde sans / garde contre on the count with the distribution bonus, which the records hold
    assert "published 40 on the same count" in summary
    assert "Garde: its published 56 cannot be tested by this sweep" in summary
    assert (
        "hand points with the distribution bonus" in summary and "count the distribution bonus" not in summary
    )
    assert "hand_points" not in summary and "others_bid" not in summary
    for band in (71, 81):
        assert f"against the published {band} on the same count" in summary
    assert "Why Prise is never best here" in summary and "players that adapt to the contract" in summary
    # the players are said, and their strength unmeasured when no report on it sits beside
    assert "card play `random` in attack and `random` in defence" in summary
    assert "strength against human players is unmeasured" in summary
    assert "[how strong" not in summary


def test_the_players_reports_are_linked_when_they_exist(tmp_path):
    config = {
        "policy": "heuristic",
        "ecart_policy": "expert",
        "poignee_policy": "always",
        "chelem_policy": "never",
    }
    out = tmp_path / "sweep"
    out.mkdir()
    doc = report.Document("t")
    doc.paragraph(*findings.players_paragraph(config, "sweep", out))
    assert "strength against human players is unmeasured" in doc.markdown()
    (tmp_path / "strength.md").write_text("# strength\n", encoding="utf-8")
    (out / "bias.md").write_text("# bias\n", encoding="utf-8")
    doc = report.Document("t")
    doc.paragraph(*findings.players_paragraph(config, "sweep", out))
    md, page = doc.markdown(), doc.html()
    assert "[how strong these players are](../strength.md) and [how they bias these numbers](bias.md)." in md
    assert '<a href="../strength.md">how strong these players are</a>' in page
    assert "unmeasured" not in md
    assert "card play `heuristic` in attack and `heuristic` in defence" in md


def test_html_tables_scroll_in_their_own_box_and_figures_fit(sweep_report):
    page = (sweep_report / "report.html").read_text(encoding="utf-8")
    css = page[page.index("<style>") : page.index("</style>")]
    assert re.search(r"\.table-wrap \{[^}]*overflow-x: auto", css)
    assert re.search(r"\.table-wrap \{[^}]*max-width: 100%", css)
    assert re.search(r"(^|\n)img \{[^}]*max-width: 100%", css)
    body = page[page.index("<body>") :]
    # every table, however wide, sits alone in a wrapper
    assert body.count("<table>") == body.count('<div class="table-wrap">\n<table>') > 3
    assert body.count("</table>\n</div>") == body.count("<table>")


def test_report_for_a_simulate_run(simulate_dir, tmp_path):
    out = report.write_report(simulate_dir, tmp_path / "rep")
    md = (out / "report.md").read_text(encoding="utf-8")
    page = (out / "report.html").read_text(encoding="utf-8")
    pngs = {p.name for p in out.glob("*.png")}
    assert "best_contract.png" not in pngs
    assert {"hand_points.png", "taker_score.png", "attack_margin.png", "events.png"} <= pngs
    assert _referenced(md, r"\]\(([^)]+\.png)\)") == pngs
    assert _referenced(page, r'<img src="([^"]+\.png)"') == pngs
    assert "needs a sweep run" in md and "needs a sweep run" in page
    assert "## Left out" in md


def test_not_a_run_raises(tmp_path):
    with pytest.raises(ValueError, match="not a run directory"):
        report.write_report(tmp_path, tmp_path / "out")
    with pytest.raises(ValueError, match="does not exist"):
        report.write_report(tmp_path / "missing", tmp_path / "out")
    (tmp_path / "manifest.json").write_text("{}")
    with pytest.raises(ValueError, match="does not describe a tarotsim run"):
        report.write_report(tmp_path, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_run_without_played_deals_raises(sweep_dir, tmp_path):
    run = tmp_path / "run"
    frame = pd.read_parquet(sweep_dir / "chunks" / "chunk-00000.parquet")
    frame["thrown_in"] = pd.Categorical(
        ["all_pass"] * len(frame), categories=frame["thrown_in"].cat.categories
    )
    spec = RunSpec.from_identity(store.read_manifest(sweep_dir)["run"])
    with store.Run(run, replace(spec, deals=spec.chunk_deals)) as made:
        made.save_chunk(0, frame, worker="test", seconds=0.0)
        made.finish()
    with pytest.raises(ValueError, match="no played deals"):
        report.write_report(run, tmp_path / "out")


def test_min_n_is_checked(sweep_dir, tmp_path):
    with pytest.raises(ValueError, match="min_n"):
        report.write_report(sweep_dir, tmp_path / "out", min_n=0)


def test_findings_compare_each_band_on_its_own_count():
    from tests.test_analysis import noisy_hand_points_sweep

    df = noisy_hand_points_sweep()
    same = analysis.same_play_as(df)
    assert same == {}
    points = {
        s: analysis.hand_points_thresholds(df, 4, 30, scale=s) for s in ("hand_points", "hand_points_dist")
    }
    fitted = {s: analysis.thresholds(df, x=s, by=()) for s in points}
    doc = report.Document("t")
    doc.bullets(*findings.band_findings(points, fitted, same, ["prise", "garde_sans"]))
    md = doc.markdown()
    prise, garde_sans = md.splitlines()
    row = points["hand_points"].set_index("contract").loc["prise"]
    assert prise.startswith(
        f"- Prise pays (beats passing) from {row['positive_from']:.0f} hand points (a bin edge; resampled 95%: "
        f"{row['positive_from_low']:.0f} to {row['positive_from_high']:.0f})"
    )
    assert "published 40 on the same count" in prise
    row = points["hand_points_dist"].set_index("contract").loc["garde_sans"]
    assert garde_sans.startswith(f"- Garde sans is the best choice from {row['best_from']:.0f}")
    assert (
        "hand points with the distribution bonus (" in garde_sans
        and "published 71 on the same count" in garde_sans
    )
    # a break-even that was not fitted, or not reached, is said so, never left blank
    unfitted = fitted["hand_points"].copy()
    prise_row = unfitted["contract"] == "prise"
    unfitted.loc[prise_row, ["break_even", "break_even_low", "break_even_high"]] = np.nan
    unfitted.loc[prise_row, "degree"] = 0
    doc = report.Document("t")
    doc.bullets(*findings.band_findings(points, {**fitted, "hand_points": unfitted}, same, ["prise"]))
    n_total = int(unfitted.loc[prise_row, "n_total"].iloc[0])
    assert (
        f"fitted break-even none (no fit: too few deals, {n_total:,} played); published 40" in doc.markdown()
    )
    unfitted.loc[prise_row, "degree"] = 3
    unfitted.loc[prise_row, "note"] = "break-even not reached over hand_points 20–58: fitted -3 points at 58"
    unfitted.loc[prise_row, "fitted_to"] = 58.0
    doc = report.Document("t")
    doc.bullets(*findings.band_findings(points, {**fitted, "hand_points": unfitted}, same, ["prise"]))
    assert "fitted break-even > 58; published 40" in doc.markdown()
    # without the count with the bonus, the garde sans band is not compared, and says why
    del points["hand_points_dist"], fitted["hand_points_dist"]
    doc = report.Document("t")
    doc.bullets(*findings.band_findings(points, fitted, same, ["prise", "garde_sans"]))
    assert "Garde sans: the published 71 count the distribution bonus" in doc.markdown()
    assert "not compared" in doc.markdown()


def test_threshold_grid_merges_the_same_play_and_says_what_is_missing():
    fitted = pd.DataFrame(
        {
            "contract": ["prise", "prise", "garde", "garde"],
            "taker_bouts": [0, 1, 0, 1],
            "threshold": [np.nan, 8.38, np.nan, 8.38],
            "threshold_low": [np.nan, 8.3, np.nan, 8.3],
            "threshold_high": [np.nan, 8.46, np.nan, 8.46],
            "break_even": [np.nan, 8.1, np.nan, 8.2],
            "break_even_low": [np.nan, 8.0, np.nan, 8.1],
            "break_even_high": [np.nan, 8.2, np.nan, 8.3],
            "fitted_from": [0.0, 0.0, 0.0, 0.0],
            "fitted_to": [11.0, 12.0, 11.0, 12.0],
            "note": [
                "success 50% not reached over taker_trumps 0–11: fitted 47% at 11; break-even passed already at taker_trumps 0, the lowest fitted",
                "",
                "success 50% not reached over taker_trumps 0–11: fitted 47% at 11; break-even not reached over x",
                "same play as prise: same success, by construction",
            ],
        }
    )
    grid = findings.threshold_grid(fitted, {"garde": "prise"})
    assert list(grid.columns) == ["threshold", "0 bouts", "1 bout"]
    assert grid.values.tolist() == [
        ["prise = garde: 50% success", "> 11", "8.4 (8.3 to 8.5)"],
        ["prise: break-even", "≤ 0", "8.1 (8.0 to 8.2)"],
        ["garde: break-even", "> 11", "8.2 (8.1 to 8.3)"],
    ]


# --------------------------------------------------------------------------- for a person


def test_the_page_fits_a_phone_s_width(sweep_report):
    page = (sweep_report / "report.html").read_text(encoding="utf-8")
    head = page[: page.index("</head>")]
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in head


def test_intervals_read_with_a_real_minus_and_to():
    assert glossary.interval(-41.63, -40.8) == "\u221241.6 to \u221240.8"
    assert glossary.estimate(-41.2, -41.63, -40.8) == "\u221241.2 (\u221241.6 to \u221240.8)"
    assert glossary.estimate(8.4, 8.3, 8.5) == "8.4 (8.3 to 8.5)"
    assert glossary.estimate(8.4, np.nan, 8.5) == "8.4" and glossary.estimate(np.nan, 1, 2) == ""
    assert glossary.number(3.0, "+.2f") == "+3.00" and glossary.number(-0.5, ".1f") == "\u22120.5"
    assert findings.interval_text(-1.25, -2.0, -0.5, ".2f") == "\u22121.25 (\u22122.00 to \u22120.50)"
    # a table's negative numbers, in both formats
    doc = report.Document("t")
    doc.table(pd.DataFrame({"mean_score": [-3.5, 2.0]}), floatfmt=".1f")
    assert "| \u22123.5 |" in doc.markdown() and '<td class="num">\u22123.5</td>' in doc.html()
    assert "-3.5" not in doc.markdown() + doc.html()


def test_the_report_writes_intervals_in_words(sweep_report):
    for name in ("report.md", "report.html"):
        text = (sweep_report / name).read_text(encoding="utf-8")
        assert re.search(r"\d \(\u2212?\d+(\.\d+)? to \u2212?\d+(\.\d+)?\)", text)
        # no interval in the old form "8.3–8.5" or "(-41.1--40.9)", no hyphen for a minus
        assert not re.search(r"\(\-?\d+(\.\d+)?[–-]\-?\d+(\.\d+)?\)", text)
        assert not re.search(r"(?<![\w.-])-\d", text.split("## Words used")[0])


def test_readable_tables_say_words_and_join_intervals():
    frame = pd.DataFrame(
        {
            "contract": ["garde_sans"],
            "taker_bouts": [2],
            "threshold": [8.27],
            "threshold_low": [8.24],
            "threshold_high": [8.3],
            "decided": [True],
            "score_garde_contre": [-12.5],
            "note": ["not reached over taker_trumps 0–12"],
        }
    )
    out = glossary.readable(frame, ".2f")
    assert list(out.columns) == [
        "contract",
        "taker's bouts",
        "made half the time from",
        "decided",
        "mean score at garde contre",
        "note",
    ]
    assert out.iloc[0].tolist() == [
        "garde sans",
        2,
        "8.27 (8.24 to 8.30)",
        "yes",
        -12.5,
        "not reached over taker's trump length 0–12",
    ]
    with pytest.raises(KeyError, match="GLOSSARY"):
        glossary.words("no_such_column")


def test_the_report_speaks_in_words_and_ends_with_its_glossary(sweep_report):
    page = (sweep_report / "report.html").read_text(encoding="utf-8")
    md = (sweep_report / "report.md").read_text(encoding="utf-8")
    headers = re.findall(r"<th>([^<]*)</th>", page)
    assert headers and not [h for h in headers if "_" in h and h != "column"]
    prose = re.findall(r"<(?:p|li)>(.*?)</(?:p|li)>", page, flags=re.S)
    names = [c for c in glossary.GLOSSARY if "_" in c]
    for text in prose:
        for name in names:
            assert name not in text, (name, text)
    words_used = md[md.index("## Words used") : md.index("## Provenance")]
    for term in ("taker's bouts", "made half the time from", "best − runner-up"):
        assert f"| {term} |" in words_used
    assert "| taker_bouts |" in words_used and "| best_score |" in words_used
    # each glossary entry once
    rows = [line for line in words_used.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == len(set(rows))


def test_each_caption_once(sweep_report):
    drawn = report.success_heatmap(
        analysis.load_records(sweep_report.parent.parent / "runs0" / "sweep"), "prise"
    )
    assert [t for t in drawn.figure.texts if t.get_gid() == "caption"]
    style.drop_caption(drawn.figure)
    assert not [t for t in drawn.figure.texts if t.get_gid() == "caption"]
    page = (sweep_report / "report.html").read_text(encoding="utf-8")
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert len(captions) == len(set(captions)) == len(list(sweep_report.glob("*.png")))
    md = (sweep_report / "report.md").read_text(encoding="utf-8")
    for caption in captions:
        assert md.count(html.unescape(caption)) == 1


def test_every_report_has_its_provenance(sweep_report, sweep_dir):
    md = (sweep_report / "report.md").read_text(encoding="utf-8")
    provenance = md[md.index("## Provenance") :]
    for field in ("kind", "seed", "deals", "command", "report made", "report made on", "report made with"):
        assert f"| {field} |" in provenance, field
    command = re.search(r"\| command \| (.+?) \|", provenance).group(1)
    assert command.startswith("tarotsim sweep --deals 3000 --seed 1 --out ")
    assert str(sweep_dir) in command and "--policy random" in command
    assert re.search(r"\| report made \| \d{4}-\d\d-\d\d \d\d:\d\d UTC \|", provenance)
    assert re.search(r"\| report made with \| tarotsim [\d.]+, numba ", provenance)


def test_the_run_command_is_given_only_when_a_command_makes_the_run():
    manifest = {
        "run": {
            "kind": "sweep",
            "seed": 4,
            "deals": 10,
            "chunk_deals": 5,
            "contracts": ["prise", "garde"],
            "seat": 1,
            "config": {
                "players": 3,
                "policy": "heuristic",
                "bid_thresholds": [40, 56, 71, 81],
                "forced_taker": -1,
            },
        }
    }
    assert provenance.run_command(manifest, "runs/x") == (
        "tarotsim sweep --deals 10 --seed 4 --out runs/x --seat 1 --contracts prise,garde "
        "--players 3 --policy heuristic --bid-thresholds 40,56,71,81 --chunk-deals 5"
    )
    manifest["run"]["config"]["something_new"] = 1
    assert provenance.run_command(manifest) == ""
    assert provenance.run_command({"run": {"kind": "duel"}}) == ""


def test_the_duel_report_has_its_provenance_and_speaks_in_words():
    from tarotsim.contests.duel_report import duel_document

    result = _small_duel()
    doc = duel_document(result, "the caption")
    md, page = doc.markdown(), doc.html()
    assert '<meta name="viewport"' in page
    provenance = md[md.index("## Provenance") :]
    assert f"| command | tarotsim duel --a {result.a} --b {result.b} --players 4 --deals 60 --seed 9 |" in (
        provenance
    )
    for field in ("strategy A", "strategy B", "seed", "deals", "report made", "report made on"):
        assert f"| {field} |" in provenance
    assert f"95% interval {glossary.interval(result.low, result.high, '+.2f')} " in md
    headers = [html.unescape(h) for h in re.findall(r"<th>([^<]*)</th>", page)]
    assert "A's mean score" in headers and "A − B" in headers
    assert not [h for h in headers if "_" in h and h != "column"]
    assert page.count("<figcaption>Figure 1. the caption</figcaption>") == 1


def _small_duel():
    from tarotsim.contests.duel import duel

    return duel("play=greedy", "play=random", 60, seed=9, threads=1, progress=False)
