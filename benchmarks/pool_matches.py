"""Pool fixed ``tripletopper match --json`` runs of the same two bots on different seeds.

A longer match need not replay the deals an earlier one already played: run more
deals on another seed and pool them here.  The deals of different seeds are
independent, so the pooled score, interval, Elo, LOS and LLR are those of one match
over all the deals (docs/bots.md, "Measuring a bot against another").  Only fixed
runs pool honestly (an SPRT's early stop overstates the winner), so others are refused,
as are runs that differ in game, players, options or bots, or that share a seed.

    python benchmarks/pool_matches.py first.json more.json [--elo0 0 --elo1 50]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from tripletopper.match import Sprt, Summary

SAME = ("game", "players", "options", "bots", "seatings")


def pool(runs: list[dict[str, Any]], sprt: Sprt) -> dict[str, Any]:
    """The pooled summary of ``runs`` (``match --json`` outputs); ValueError if they differ."""
    for run in runs:
        if not run.get("fixed"):
            raise ValueError(f"seed {run.get('seed')}: not a --fixed run")
        if any(run.get(key) != runs[0].get(key) for key in SAME):
            raise ValueError(f"seed {run.get('seed')}: not the same match ({', '.join(SAME)})")
    seeds = [run["seed"] for run in runs]
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"a seed appears twice: {seeds} (its deals would count twice)")
    scores = [score for run in runs for score in run["deal_scores"]]
    total, squares = math.fsum(scores), math.fsum(s * s for s in scores)
    llr = sprt.llr(len(scores), total, squares)
    return {
        **{key: runs[0][key] for key in SAME},
        "seeds": seeds,
        "games": sum(run["games"] for run in runs),
        **Summary.of(scores).to_json(),
        "pairs": {key: sum(run["pairs"][key] for run in runs) for key in runs[0]["pairs"]},
        "llr": round(llr, 4),
        "verdict": sprt.verdict(llr) or "inconclusive",
        "seconds": round(sum(run["seconds"] for run in runs), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="match --json outputs")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=50.0)
    args = parser.parse_args()
    try:
        runs = [json.loads(path.read_text()) for path in args.runs]
        print(json.dumps(pool(runs, Sprt.from_elo(args.elo0, args.elo1))))
    except (OSError, ValueError, KeyError) as exc:
        sys.exit(f"pool_matches: {exc}")


if __name__ == "__main__":
    main()
