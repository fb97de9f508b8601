"""The report of a balance run: plots (PNG and SVG) and a self-contained ``report.html``.

Plots, drawn with matplotlib (the optional extra ``tripletopper[plots]``):

- ``seat_advantage``: each seat's and each position's (in the order of play) win rate
  minus the fair share, with 95% error bars;
- ``lengths``: the distribution of game length (actions, turns, hands) per cell;
- ``sweep_NAME``: every metric against each swept value, one line per value of the
  other sweeps, with 95% error bars.

``report.html`` holds the plots (inlined PNG), the tables, the exact command, the
seed and the package version: it can be mailed or opened offline as one file.
"""

from __future__ import annotations

import base64
import html
import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from tripletopper.analysis.run import CellRun
from tripletopper.analysis.summary import metric_keys

LENGTHS = ("actions", "turns", "hands")
SVG_METADATA = {"Date": None}  # no time stamp: the same run gives the same files


def write_report(doc: dict[str, Any], runs: Sequence[CellRun], out: Path) -> Path:
    """Write every plot and ``report.html`` into ``out``; return the page's path."""
    out.mkdir(parents=True, exist_ok=True)
    plots = [
        (
            "seat_advantage",
            "Win rate against the fair share, by seat and by position",
            seat_plot(doc),
        ),
        ("lengths", "Game length", length_plot(runs, doc["cells"])),
    ]
    for name in doc["sweeps"]:
        if len(doc["sweeps"][name]) > 1:
            plots.append((f"sweep_{name}", f"Every metric against {name}", sweep_plot(doc, name)))
    images = []
    for stem, title, figure in plots:
        figure.savefig(out / f"{stem}.svg", metadata=SVG_METADATA)
        figure.savefig(out / f"{stem}.png", dpi=100)
        images.append((stem, title))
    page = out / "report.html"
    page.write_text(render_html(doc, images, out), encoding="utf-8")
    return page


def cell_label(cell: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in cell["swept"].items()) or f"{cell['players']} players"


def seat_plot(doc: dict[str, Any]) -> Figure:
    """Win rate minus the fair share by seat, and by position in the order of play."""
    cells = doc["cells"]
    seats = max(cell["players"] for cell in cells)
    width = max(5.0, 1.2 * seats + 0.4 * len(cells))
    figure = Figure(figsize=(2 * width, 3.8), layout="constrained")
    for k, (prefix, name) in enumerate((("win_seat", "seat"), ("win_pos", "position"))):
        ax = figure.add_subplot(1, 2, k + 1)
        bar = 0.8 / len(cells)
        for i, cell in enumerate(cells):
            fair = cell["fair_share"]
            figs = [cell["metrics"].get(f"{prefix}{s}") for s in range(cell["players"])]
            shown = [(s, f) for s, f in enumerate(figs) if f is not None]
            xs = [s - 0.4 + bar * (i + 0.5) for s, _ in shown]
            ys = [f["value"] - fair for _, f in shown]
            err = [[_half(f, "low") for _, f in shown], [_half(f, "high") for _, f in shown]]
            ax.bar(xs, ys, bar, yerr=err, capsize=2, label=cell_label(cell))
        ax.axhline(0, color="black", linewidth=0.8)
        labels = [f"seat {s}" if name == "seat" else f"{s + 1}." for s in range(seats)]
        ax.set_xticks(range(seats), labels)
        ax.set_ylabel("win rate - fair share")
        title = "by seat" if name == "seat" else "by position in the order of play (1. = first)"
        ax.set_title(f"{doc['title']}: {title}", fontsize="medium")
    if len(cells) > 1:
        figure.axes[0].legend(fontsize="small")
    return figure


def length_plot(runs: Sequence[CellRun], cells: Sequence[dict[str, Any]]) -> Figure:
    shown = [name for name in LENGTHS if name in runs[0].columns]
    figure = Figure(figsize=(4.0 * len(shown), 3.4), layout="constrained")
    for k, name in enumerate(shown):
        ax = figure.add_subplot(1, len(shown), k + 1)
        values = [run.column(name) for run in runs]
        top = max(max(v) for v in values)
        bins = _bins(top)
        for cell, data in zip(cells, values, strict=True):
            ax.hist(data, bins=bins, histtype="step", label=cell_label(cell))
        ax.set_xlabel(f"{name} per game")
        ax.set_ylabel("games")
    if len(runs) > 1:
        figure.axes[0].legend(fontsize="small")
    return figure


def _bins(top: float) -> list[float]:
    step = max(1, int(top // 40) + 1)
    return [x - 0.5 for x in range(0, int(top) + step + 1, step)]


def sweep_plot(doc: dict[str, Any], name: str) -> Figure:
    """Small multiples: each metric against ``name``, a line per value of the other sweeps.

    Positions are drawn as win rate minus the fair share (so that tables of different
    sizes compare); seat numbers are left to the seat plot."""
    cells = doc["cells"]
    values = doc["sweeps"][name]
    others = [n for n in doc["sweeps"] if n != name]
    keys = [k for k in metric_keys(cells) if not k.startswith("win_seat")]
    columns = 4
    rows = (len(keys) + columns - 1) // columns
    figure = Figure(figsize=(4.0 * columns, 2.8 * rows), layout="constrained")
    numbers = [_number(v) for v in values]
    numeric = None not in numbers
    xs = (
        [x for x in numbers if x is not None] if numeric else [float(i) for i in range(len(values))]
    )
    groups = list(itertools.product(*(doc["sweeps"][n] for n in others)))
    for k, key in enumerate(keys):
        ax: Axes = figure.add_subplot(rows, columns, k + 1)
        relative = key.startswith("win_pos")
        for group in groups:
            fixed = dict(zip(others, group, strict=True))
            line = [_pick(cells, {**fixed, name: v}, key) for v in values]
            points = [(x, c, f) for x, (c, f) in zip(xs, line, strict=True) if f is not None]
            points = [(x, c, f) for x, c, f in points if f["value"] is not None]
            if not points:
                continue
            shift = [c["fair_share"] if relative else 0.0 for _, c, _ in points]
            figs = [f for _, _, f in points]
            ax.errorbar(
                [x for x, _, _ in points],
                [f["value"] - d for f, d in zip(figs, shift, strict=True)],
                yerr=[[_half(f, "low") for f in figs], [_half(f, "high") for f in figs]],
                marker="o",
                capsize=3,
                label=", ".join(f"{n}={v}" for n, v in fixed.items()) or None,
            )
        if relative:
            ax.axhline(0, color="black", linewidth=0.8)
        label = next((c["metrics"][key]["label"] for c in cells if key in c["metrics"]), key)
        ax.set_title(label + (" - fair share" if relative else ""), fontsize="small")
        ax.set_xlabel(name, fontsize="small")
        ax.set_xticks(xs, values)
    if groups and others and figure.axes:
        figure.axes[0].legend(fontsize="x-small")
    return figure


def _half(fig: dict[str, Any], side: str) -> float:
    """How far the interval reaches below or above the value (0 where it has none)."""
    bound = fig[side]
    return 0.0 if bound is None else abs(bound - fig["value"])


def _pick(
    cells: list[dict[str, Any]], swept: dict[str, str], key: str
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The cell of these swept values, and its figure ``key`` (None where it has none)."""
    for cell in cells:
        if cell["swept"] == swept:
            return cell, cell["metrics"].get(key)
    raise KeyError(f"no cell {swept}")  # the grid holds every combination


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


# --- the page ----------------------------------------------------------------------------


def fmt(fig: dict[str, Any], key: str = "value") -> str:
    value = fig.get(key)
    if value is None:
        return "-"
    return f"{value:.1%}" if fig["kind"] in ("share", "rate") else f"{value:.2f}"


def render_html(doc: dict[str, Any], images: list[tuple[str, str]], folder: Path) -> str:
    e = html.escape
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(doc['title'])}: balance report</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{e(doc['title'])}: balance report</h1>",
        "<table class='facts'>",
        f"<tr><th>command</th><td><code>{e(doc['command'])}</code></td></tr>",
        f"<tr><th>seed</th><td>{doc['seed']}</td></tr>",
        f"<tr><th>games per cell</th><td>{doc['games_per_cell']}</td></tr>",
        f"<tr><th>bots by seat</th><td>{e(', '.join(doc['bots']))} (repeated)</td></tr>",
        f"<tr><th>tripletopper</th><td>{e(doc['version'])}</td></tr>",
        "</table>",
        "<p>Every figure has its 95% interval: Wilson for shares and rates, normal for "
        "means, the delta method over games for ratios. The same command gives the same "
        "numbers on any number of workers.</p>",
    ]
    for stem, title in images:
        data = base64.b64encode((folder / f"{stem}.png").read_bytes()).decode("ascii")
        parts += [
            f"<figure><img src='data:image/png;base64,{data}' alt='{e(title)}'>",
            f"<figcaption>{e(title)} (<a href='{stem}.svg'>SVG</a>)</figcaption></figure>",
        ]
    for cell in doc["cells"]:
        parts.append(cell_table(cell))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def cell_table(cell: dict[str, Any]) -> str:
    e = html.escape
    fair = cell["fair_share"]
    rows = [
        f"<h2>{e(cell_label(cell))}</h2>",
        f"<p>{cell['players']} players, {cell['games']} games, fair share {fair:.1%}; "
        f"options {e(', '.join(f'{k}={v}' for k, v in cell['options'].items()))}</p>",
        "<table><thead><tr><th>metric</th><th>value</th><th>95% interval</th>"
        "<th>median</th><th>p90</th><th>n</th></tr></thead><tbody>",
    ]
    for key, fig in cell["metrics"].items():
        label = fig["label"]
        if key.startswith("win_seat") and fig["value"] is not None:
            label += f" ({fig['value'] - fair:+.1%} against the fair share)"
        rows.append(
            f"<tr><td>{e(label)}</td><td>{fmt(fig)}</td>"
            f"<td>{fmt(fig, 'low')} - {fmt(fig, 'high')}</td><td>{fmt(fig, 'median')}</td>"
            f"<td>{fmt(fig, 'p90')}</td><td>{fig['n']:g}</td></tr>"
        )
    rows.append("</tbody></table>")
    return "\n".join(rows)


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }
td:first-child, th:first-child, .facts td { text-align: left; }
figure { margin: 1em 0; } img { max-width: 100%; height: auto; }
code { background: #f4f4f4; padding: 0.1em 0.3em; }
"""
