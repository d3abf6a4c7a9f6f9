"""The self-play ladder by iteration budget: ``cmcts`` at 2T iterations a move against itself at T.

Where does a doubling of the think stop paying? The timed ladder (``time_ladder.py``) measures
it at the think times players use; this one measures it from a few hundred iterations a move up,
at fixed budgets, so the figures do not depend on the machine's load and several rungs can share
the cores. Each rung plays ``--games`` games of the default at 2T against the default at T with
``cmcts_selfplay.py``'s seeding (deals in pairs, seats swapped; game ``i`` of a rung is the same
game whether it was played here or there). Results go to one JSON-lines file per rung under
``--dir``, so an interrupted ladder resumes where it stopped.

The table gives each rung's score for 2T with Wilson's 95% interval and the Elo per doubling it
implies; the chart shows the Elo per doubling against the budget, in the terminal and, with
``--svg``, as an image, with the line that a 55% score per doubling (+35 Elo) needs.

    python benchmarks/budget_ladder.py --budgets 100 250 1000 4000 --games 200 --workers 2
    python benchmarks/budget_ladder.py --budgets 8000 --games 100 --seeds 1006 --svg ladder.svg
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from cmcts_selfplay import play
from time_ladder import elo

from duel.solvers.match import wilson_interval

#: The Elo per doubling that a 55% score needs (issue 29's target).
TARGET_ELO = elo(0.55)


def rung_path(directory: Path, budget: int, seed: int) -> Path:
    return directory / f"cmcts_{2 * budget}_vs_{budget}_seed{seed}.jsonl"


def read_rung(path: Path) -> dict[int, dict[str, Any]]:
    """The games recorded for a rung, by index (a torn line, from an interrupted run, is left
    out and its game played again)."""
    games: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            games[record["game"]] = record
    return games


def append_record(path: Path, record: dict[str, Any]) -> None:
    """Append one game to a rung's file, on a line of its own even after a torn last line."""
    with path.open("ab+") as f:
        f.seek(0, 2)
        if f.tell():
            f.seek(-1, 2)
            if f.read(1) != b"\n":
                f.write(b"\n")
        f.write((json.dumps(record) + "\n").encode())


def play_pair(budget: int, seed: int, pair: int) -> list[dict[str, Any]]:
    """Both games of deal pair ``pair`` of a rung (2T as A, then as B)."""
    records: list[dict[str, Any]] = []
    play("", "", 2 * pair + 2, seed, (2 * budget, budget), first=2 * pair, on_game=records.append)
    for record in records:
        record.update(budget=budget, seed=seed)
    return records


def summary(budget: int, games: dict[int, dict[str, Any]]) -> dict[str, Any]:
    n = len(games)
    score = sum(g["score"] for g in games.values())
    p = score / n if n else 0.5
    lo, hi = wilson_interval(p, n)
    wins = Counter(g["victory"] for g in games.values() if g["score"] == 1.0)
    losses = Counter(g["victory"] for g in games.values() if g["score"] == 0.0)
    loads = [g["load"] for g in games.values() if g.get("load") is not None]
    return {
        "budget": budget,
        "games": n,
        "score": score,
        "p": p,
        "lo": lo,
        "hi": hi,
        "elo": elo(p),
        "elo_lo": elo(lo),
        "elo_hi": elo(hi),
        "as_a": sum(g["score"] for g in games.values() if g["seat"] == "A"),
        "as_b": sum(g["score"] for g in games.values() if g["seat"] == "B"),
        "wins": dict(wins),
        "losses": dict(losses),
        "load": (min(loads), max(loads)) if loads else None,
    }


def table(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| T (iterations) | 2T vs T | games | score of 2T | 95% Wilson | Elo per doubling"
        " | as A / as B | victories of 2T; of T (civ/mil/sci) | load |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        vic = "/".join(str(r["wins"].get(k, 0)) for k in ("civilian", "military", "science"))
        vic_t = "/".join(str(r["losses"].get(k, 0)) for k in ("civilian", "military", "science"))
        lines.append(
            f"| {r['budget']:,} | {2 * r['budget']:,} vs {r['budget']:,} | {r['games']}"
            f" | {r['score']:g}/{r['games']} = {r['p']:.3f} | {r['lo']:.3f}-{r['hi']:.3f}"
            f" | {r['elo']:+.0f} ({r['elo_lo']:+.0f} to {r['elo_hi']:+.0f})"
            f" | {r['as_a']:g}, {r['as_b']:g} | {vic}; {vic_t}"
            f" | {'-'.join(f'{v:.1f}' for v in r['load']) if r['load'] else 'not recorded'} |"
        )
    return lines


def axis(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """The Elo range drawn: the intervals, with zero and the target in view, but at most
    -200 to +300 (a rung of a few games spans +-800)."""
    low = max(-200.0, min([-50.0, *(r["elo_lo"] for r in rows)]))
    high = min(300.0, max([TARGET_ELO + 25.0, *(r["elo_hi"] for r in rows)]))
    return low, high


def chart(rows: list[dict[str, Any]], width: int = 56) -> list[str]:
    """Elo per doubling by budget as text: ``[`` and ``]`` the 95% interval, ``o`` the score;
    the last line marks zero (``|``) and the +35 that a 55% score needs (``:``)."""
    low, high = axis(rows)

    def column(value: float) -> int:
        return round((min(max(value, low), high) - low) / (high - low) * (width - 1))

    def marks(cells: list[str]) -> None:
        for value, mark in ((0.0, "|"), (TARGET_ELO, ":")):
            if cells[column(value)] == " ":
                cells[column(value)] = mark

    lines = [f"Elo per doubling, {low:+.0f} to {high:+.0f}"]
    for r in rows:
        cells = [" "] * width
        for c in range(column(r["elo_lo"]), column(r["elo_hi"]) + 1):
            cells[c] = "-"
        cells[column(r["elo_lo"])] = "["
        cells[column(r["elo_hi"])] = "]"
        cells[column(r["elo"])] = "o"
        marks(cells)
        lines.append(f"T = {r['budget']:>6,} {''.join(cells)} {r['elo'] + 0.0:+4.0f}")
    cells = [" "] * width
    marks(cells)
    lines.append(f"{'':10} {''.join(cells)} | 0, : {TARGET_ELO:+.0f} (55%)")
    return lines


def svg(rows: list[dict[str, Any]], width: int = 640, height: int = 360) -> str:
    """The chart as an SVG image: Elo per doubling (with its interval) against log2 T."""
    left, right, top, bottom = 60, 20, 30, 50
    xs = [math.log2(r["budget"]) for r in rows]
    x0, x1 = min(xs) - 0.5, max(xs) + 0.5
    y0, y1 = axis(rows)
    pad = (y1 - y0) * 0.05  # the ends of an interval stay off the edges
    y0, y1 = y0 - pad, y1 + pad

    def x(v: float) -> float:
        return left + (v - x0) / (x1 - x0) * (width - left - right)

    def y(v: float) -> float:
        return top + (y1 - min(max(v, y0), y1)) / (y1 - y0) * (height - top - bottom)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="18">cmcts at 2T against itself at T iterations a move:'
        " Elo per doubling, 95% interval</text>",
        f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" stroke="#888"/>',
        f'<line x1="{left}" y1="{y(TARGET_ELO):.1f}" x2="{width - right}" y2="{y(TARGET_ELO):.1f}"'
        ' stroke="#c44" stroke-dasharray="5,4"/>',
        f'<text x="{width - right - 4}" y="{y(TARGET_ELO) - 4:.1f}" text-anchor="end"'
        ' fill="#c44">55% a doubling</text>',
    ]
    step = 50 if y1 - y0 > 150 else 25
    for tick in range(int(math.ceil(y0 / step)) * step, int(y1) + 1, step):
        out.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:+d}</text>')
    for r, xv in zip(rows, xs, strict=True):
        cx = x(xv)
        out += [
            f'<line x1="{cx:.1f}" y1="{y(r["elo_lo"]):.1f}" x2="{cx:.1f}" y2="{y(r["elo_hi"]):.1f}"'
            ' stroke="#246" stroke-width="2"/>',
            f'<circle cx="{cx:.1f}" cy="{y(r["elo"]):.1f}" r="4" fill="#246"/>',
            f'<text x="{cx:.1f}" y="{height - bottom + 18}" text-anchor="middle">'
            f"{r['budget']:,}</text>",
            f'<text x="{cx:.1f}" y="{height - bottom + 32}" text-anchor="middle" fill="#666">'
            f"n = {r['games']}</text>",
        ]
    out.append(
        f'<text x="{(left + width - right) / 2:.0f}" y="{height - 4}" text-anchor="middle">'
        "T, iterations a move (log scale); n, games</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--budgets", type=int, nargs="+", default=[100, 250, 1000, 4000])
    ap.add_argument("--games", type=int, default=200, help="games per rung (even: deal pairs)")
    ap.add_argument("--seed", type=int, default=1, help="the first rung's seed (then +1 a rung)")
    ap.add_argument("--seeds", type=int, nargs="+", help="one seed per rung instead")
    ap.add_argument("--dir", type=Path, default=Path("benchmarks/results/budget_ladder"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--svg", type=Path, help="also draw the chart into this SVG file")
    ap.add_argument("--report", action="store_true", help="only summarise the files")
    args = ap.parse_args(argv)
    if args.games % 2:
        ap.error("--games must be even (deals are played in pairs)")
    seeds = args.seeds or [args.seed + i for i in range(len(args.budgets))]
    if len(seeds) != len(args.budgets):
        ap.error("--seeds needs one seed per budget")
    args.dir.mkdir(parents=True, exist_ok=True)
    rungs = list(zip(args.budgets, seeds, strict=True))
    if not args.report:
        todo = []
        for budget, seed in rungs:
            done = read_rung(rung_path(args.dir, budget, seed))
            todo += [
                (budget, seed, pair)
                for pair in range(args.games // 2)
                if 2 * pair not in done or 2 * pair + 1 not in done
            ]
        with ProcessPoolExecutor(args.workers) as pool:
            futures = [pool.submit(play_pair, *task) for task in todo]
            for future in as_completed(futures):
                for record in future.result():
                    append_record(rung_path(args.dir, record["budget"], record["seed"]), record)
    rows = [summary(b, read_rung(rung_path(args.dir, b, s))) for b, s in rungs]
    rows = [r for r in rows if r["games"]]
    if not rows:
        print("no games recorded", file=sys.stderr)
        return 1
    print("\n".join(table(rows)))
    print()
    print("\n".join(chart(rows)))
    if args.svg:
        args.svg.write_text(svg(rows))
        print(f"chart written to {args.svg}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
