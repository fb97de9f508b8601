"""The balance lab: game statistics with 95% intervals, option sweeps, plots and reports.

- :mod:`.intervals`: Wilson, normal and delta-method intervals, quantiles;
- :mod:`.metrics`: what is counted in each game, from its events, stats and results;
- :mod:`.run`: the grid of runs (a sweep), played on all cores or a Ray cluster;
- :mod:`.summary`: the games' rows turned into figures with intervals;
- :mod:`.report`: plots (matplotlib, the ``plots`` extra) and a self-contained HTML page.
"""
