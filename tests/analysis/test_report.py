"""The report: plots as PNG and SVG, a self-contained page that opens in Chromium cleanly."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from tests.server.conftest import browser  # noqa: F401  (the fixture, for the e2e test)
from tripletopper import __version__
from tripletopper.analysis.run import Plan, run_plan
from tripletopper.analysis.summary import document

pytest.importorskip("matplotlib")

from tripletopper.analysis.report import write_report

PLAN = Plan("toe", sweeps=(("max_turns", ("6", "400")),), games=12, seed=9)
STEMS = ("seat_advantage", "lengths", "sweep_max_turns")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    runs = run_plan(PLAN, workers=1)
    doc = document(PLAN, runs)
    return write_report(doc, runs, out), doc


def test_plots_in_png_and_svg_and_a_page_with_everything(report):
    page, doc = report
    folder = page.parent
    for stem in STEMS:
        assert (folder / f"{stem}.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
        root = ET.parse(folder / f"{stem}.svg").getroot()
        assert root.tag.endswith("svg")
    text = page.read_text()
    assert text.count("<img src='data:image/png;base64,") == len(STEMS)
    assert "tripletopper analyze toe --sweep max_turns=6,400 --bots medium --games 12 --seed 9" in (
        text
    )
    assert f"<td>{__version__}</td>" in text and "<th>seed</th><td>9</td>" in text
    # Every metric of both cells is in the tables, the shares as percentages.
    for cell in doc["cells"]:
        for fig in cell["metrics"].values():
            assert fig["label"] in text
    assert "<h2>max_turns=6</h2>" in text and "<td>draws</td><td>100.0%</td>" in text


def test_one_cell_has_no_sweep_plot(tmp_path):
    plan = Plan("thirty-one", players=3, games=5)
    runs = run_plan(plan, workers=1)
    write_report(document(plan, runs), runs, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "lengths.png",
        "lengths.svg",
        "report.html",
        "seat_advantage.png",
        "seat_advantage.svg",
    ]


@pytest.mark.e2e
def test_the_page_opens_in_chromium_without_errors(report, browser):  # noqa: F811
    page_path, _ = report
    page = browser.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(page_path.as_uri())
    page.wait_for_load_state("load")
    assert page.title() == "Triple Topper Toe: balance report"
    widths = page.eval_on_selector_all("img", "imgs => imgs.map(i => i.complete && i.naturalWidth)")
    assert len(widths) == len(STEMS) and all(w > 300 for w in widths)
    assert page.locator("h2").all_inner_texts() == ["max_turns=6", "max_turns=400"]
    assert problems == []
    page.close()


def test_cli_report(tmp_path):
    from click.testing import CliRunner

    from tripletopper.cli import cli

    out = tmp_path / "rep"
    result = CliRunner().invoke(
        cli, ["analyze", "memo-match", "-p", "2", "--games", "4", "-w", "1", "--report", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert f"report: {out / 'report.html'}" in result.output
    assert (out / "seat_advantage.svg").exists() and (out / "lengths.png").exists()
