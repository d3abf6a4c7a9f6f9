"""The calibration of the expansion hints' win chances: self-play games of the ``cmcts`` level,
the raw value of each searched decision against the game's outcome, and a map per expansion set
fitted on them, cross-fitted to report how well it does.

    python -m duel.solvers.xhint_calibration generate --games 30 --set both --iterations 3000 \\
        --out benchmarks/results/xhint_selfplay_2026-12-02.jsonl
    python -m duel.solvers.xhint_calibration fit benchmarks/results/xhint_selfplay_*.jsonl \\
        --model data/models/expansion_hint_calibration.json

**Data.** Both seats are :class:`duel.solvers.xcmcts.XCMctsPlayer` with ``iterations`` descents
a decision, each from its own view, the dealer a seeded ``random.Random``. Every decision with
more than one legal move gives a line: the expansion set, the Age, the mover, the raw value of
the move chosen (the most visited: the value a hint shows first) and, when the game is over, the
outcome for the mover (1 a win, 1/2 shared, 0 a loss). Lines are grouped by game (``game``), so
the folds below keep a game's correlated positions together.

**Map.** Per expansion set, Platt's map in logit space: ``p = sigmoid(a * logit(raw) + b)``
fitted by maximum likelihood (Newton's method), the raw value clipped to [0.01, 0.99]. Two
numbers a set: enough for the few thousand positions half an hour of self-play gives, and
monotone, so the hint's order of moves is never changed by it.

**Report** (:func:`report`): the map is fitted five times, each time on four fifths of the games
and applied to the fifth (cross-fitting): the held-out positions' deciles of the shown value
against the outcome's mean (the calibration table), and the Brier score of the raw and of the
calibrated value, per set. Beside it a summary line a set puts raw values, the shipped map and the
cross-fitted refit side by side on the games the shipped map was not fitted on
(``--shipped-games FIRST LAST``): the Brier score and the largest gap of the base game's
calibration bins (tenths of the shown value, those of 20 hints or more), so a refit ships only
if it does better held out.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from duel.expansions import NAMED_SETS

#: Where the fitted map ships (read by :func:`load_calibration`).
MODEL_PATH = Path(
    str(resources.files("duel.data").joinpath("models/expansion_hint_calibration.json"))
)
SETS = NAMED_SETS
CLIP = 0.01
FOLDS = 5


def set_name(expansions: Sequence[str]) -> str:
    """``pantheon``, ``agora`` or ``both`` for an expansion tuple (``base`` for none)."""
    key = tuple(sorted(expansions))
    return next((name for name, value in SETS.items() if value == key), "base")


def _logit(p: float) -> float:
    p = min(1.0 - CLIP, max(CLIP, p))
    return math.log(p / (1.0 - p))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


@dataclass(frozen=True)
class PlattMap:
    """``p = sigmoid(a * logit(raw) + b)``: identity at a = 1, b = 0."""

    a: float = 1.0
    b: float = 0.0

    def __call__(self, raw: float) -> float:
        return _sigmoid(self.a * _logit(raw) + self.b)


def fit_platt(raw: Sequence[float], outcome: Sequence[float]) -> PlattMap:
    """The maximum-likelihood Platt map (a shared victory's 1/2 as a soft label), by Newton's
    method with a small ridge toward the identity so a tiny sample cannot run away."""
    a, b, ridge = 1.0, 0.0, 1e-3
    xs = [_logit(r) for r in raw]
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, outcome, strict=True):
            p = _sigmoid(a * x + b)
            w = p * (1.0 - p)
            ga += (p - y) * x
            gb += p - y
            haa += w * x * x
            hab += w * x
            hbb += w
        ga += ridge * (a - 1.0)
        gb += ridge * b
        haa += ridge
        hbb += ridge
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) + abs(db) < 1e-9:
            break
    return PlattMap(a, b)


def brier(values: Iterable[float], outcome: Iterable[float]) -> float:
    pairs = list(zip(values, outcome, strict=True))
    return sum((v - y) ** 2 for v, y in pairs) / max(1, len(pairs))


def deciles(values: Sequence[float], outcome: Sequence[float]) -> list[tuple[float, float, int]]:
    """(mean shown, mean outcome, positions) of each tenth of the positions by shown value."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = []
    for k in range(10):
        part = order[k * len(order) // 10 : (k + 1) * len(order) // 10]
        if part:
            shown = sum(values[i] for i in part) / len(part)
            seen = sum(outcome[i] for i in part) / len(part)
            out.append((shown, seen, len(part)))
    return out


# --- data --------------------------------------------------------------------------------------


def selfplay_game(expansions: tuple[str, ...], seed: int, iterations: int) -> list[dict]:
    """The lines of one self-play game (see the module docstring)."""
    from duel import xcore
    from duel.solvers.xcmcts import XCMctsPlayer

    players = [XCMctsPlayer(iterations=iterations, seed=seed * 2 + i) for i in (0, 1)]
    dealer = random.Random(seed)
    state = xcore.new_game(expansions)
    rows: list[dict] = []
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(dealer), check=False)
            continue
        mover = state.to_move
        if len(state.view(mover).legal_moves()) == 1:
            state = state.apply(state.view(mover).legal_moves()[0], check=False)
            continue
        found = players[mover].analyse(state)
        move, visits, value = found[0]
        rows.append({"age": state.age, "mover": mover, "raw": round(value, 5), "visits": visits})
        state = state.apply(move, check=False)
    winner = state.winner
    for row in rows:
        row["outcome"] = 0.5 if winner is None else float(winner == row["mover"])
    return rows


def generate(name: str, games: int, first_seed: int, iterations: int, out: Path) -> None:
    done = {line["game"] for line in read(out) if line["set"] == name}
    with out.open("a") as sink:
        for seed in range(first_seed, first_seed + games):
            if seed in done:
                continue
            start = time.perf_counter()
            rows = selfplay_game(SETS[name], seed, iterations)
            for row in rows:
                row.update(set=name, game=seed, iterations=iterations)
                sink.write(json.dumps(row) + "\n")
            sink.flush()
            print(
                f"{name} game {seed}: {len(rows)} positions, {time.perf_counter() - start:.0f} s",
                flush=True,
            )


def read(path: Path) -> list[dict]:
    if not path.exists():
        return []
    lines = []
    for text in path.read_text().splitlines():
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError:
            continue
    return lines


# --- fit and report ----------------------------------------------------------------------------


def cross_fitted(lines: list[dict]) -> list[float]:
    """Each line's calibrated value from a map fitted on the other folds' games."""
    games = sorted({line["game"] for line in lines})
    fold_of = {g: i % FOLDS for i, g in enumerate(random.Random(0).sample(games, len(games)))}
    shown = [0.0] * len(lines)
    for fold in range(FOLDS):
        train = [line for line in lines if fold_of[line["game"]] != fold]
        fitted = fit_platt([t["raw"] for t in train], [t["outcome"] for t in train])
        for i, line in enumerate(lines):
            if fold_of[line["game"]] == fold:
                shown[i] = fitted(line["raw"])
    return shown


def bin_gap(values: Sequence[float], outcome: Sequence[float], least: int = 20) -> float:
    """The largest gap between the mean shown value and the outcome's mean over the base game's
    calibration bins (tenths of the value: 0.0-0.1, ..., 0.9-1.0) holding ``least`` hints or
    more: the base game's "deciles within 0.05" (``solvers/train.py:calibration_table``)."""
    import numpy as np

    from duel.solvers.train import calibration_table

    table = calibration_table(np.array(values, dtype=float), np.array(outcome, dtype=float))
    return max(
        (abs(row["won"] - row["predicted"]) for row in table if row["positions"] >= least),
        default=0.0,
    )


def report(
    lines: list[dict],
    shipped: dict[str, PlattMap] | None = None,
    shipped_games: frozenset[int] = frozenset(),
) -> tuple[str, dict[str, PlattMap]]:
    """The calibration table and Brier scores per set (cross-fitted), and the maps on all.

    With ``shipped`` (the maps in use), each set's summary line also judges the shipped map,
    and both it and the cross-fitted values are judged on the games outside ``shipped_games``
    (the games the shipped map was fitted on), so that the comparison is held out for both."""
    out, summary, maps = [], [], {}
    for name in SETS:
        mine = [line for line in lines if line["set"] == name]
        if len({line["game"] for line in mine}) < FOLDS:
            continue
        raw = [line["raw"] for line in mine]
        outcome = [line["outcome"] for line in mine]
        shown = cross_fitted(mine)
        maps[name] = fit_platt(raw, outcome)
        games = len({line["game"] for line in mine})
        out.append(
            f"{name}: {len(mine)} positions from {games} games at "
            f"{mine[0]['iterations']} iterations; map a={maps[name].a:.3f} b={maps[name].b:.3f}"
        )
        out.append(
            f"  Brier: raw {brier(raw, outcome):.4f}, calibrated (cross-fitted) "
            f"{brier(shown, outcome):.4f}, constant {brier([0.5] * len(raw), outcome):.4f}"
        )
        out.append("  decile | raw shown | raw seen | calibrated shown | seen | |diff|")
        raw_table, cal_table = deciles(raw, outcome), deciles(shown, outcome)
        for k, ((rs, ro, _), (cs, co, n)) in enumerate(zip(raw_table, cal_table, strict=True)):
            out.append(
                f"  {k + 1:6} | {rs:9.3f} | {ro:8.3f} | {cs:16.3f} | {co:.3f} | {abs(cs - co):.3f}"
                f"  ({n})"
            )
        worst = max(abs(cs - co) for cs, co, _ in cal_table)
        out.append(f"  worst calibrated decile off by {worst:.3f}")
        if shipped is None or name not in shipped:
            continue
        judged = [i for i, line in enumerate(mine) if line["game"] not in shipped_games]
        if not judged:
            continue
        y = [outcome[i] for i in judged]
        columns = {
            "raw": [raw[i] for i in judged],
            "shipped": [shipped[name](raw[i]) for i in judged],
            "cross-fitted": [shown[i] for i in judged],
        }
        gaps = ", ".join(f"{k} {bin_gap(v, y):.3f}" for k, v in columns.items())
        briers = ", ".join(f"{k} {brier(v, y):.5f}" for k, v in columns.items())
        unseen = len({mine[i]["game"] for i in judged})
        which = "the games it was not fitted on" if shipped_games else "all games, in-sample"
        summary.append(
            f"{name}: {unseen} games, {len(judged)} hints ({which}); largest decile gap"
            f" (bins of 20+ hints): {gaps}; Brier: {briers}"
        )
    if summary:
        out += [
            "",
            "summary: raw, the shipped map and the cross-fitted refit, side by side",
            *summary,
        ]
    return "\n".join(out), maps


def save(maps: dict[str, PlattMap], path: Path, note: str) -> None:
    data = {
        "kind": "platt",
        "note": note,
        "sets": {name: {"a": m.a, "b": m.b} for name, m in maps.items()},
    }
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(path)


_LOADED: dict[str, PlattMap] | None = None


def load_calibration(path: Path = MODEL_PATH) -> dict[str, PlattMap]:
    """The shipped maps per set (none if the file is missing or unreadable: raw values)."""
    global _LOADED
    if _LOADED is None or path != MODEL_PATH:
        try:
            data = json.loads(path.read_text())
            maps = {k: PlattMap(float(v["a"]), float(v["b"])) for k, v in data["sets"].items()}
        except (OSError, ValueError, KeyError, TypeError):
            maps = {}
        if path != MODEL_PATH:
            return maps
        _LOADED = maps
    return _LOADED


def calibrate(raw: float, expansions: Sequence[str]) -> float:
    """The win chance a hint shows for the search's ``raw`` value in a game of ``expansions``."""
    fitted = load_calibration().get(set_name(expansions))
    return raw if fitted is None else fitted(raw)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate")
    gen.add_argument("--set", choices=list(SETS), required=True)
    gen.add_argument("--games", type=int, default=30)
    gen.add_argument("--first-seed", type=int, default=0)
    gen.add_argument("--iterations", type=int, default=3000)
    gen.add_argument("--out", type=Path, required=True)
    fit = sub.add_parser("fit")
    fit.add_argument("files", type=Path, nargs="+")
    fit.add_argument("--model", type=Path, help="write the maps fitted on all the data here")
    fit.add_argument(
        "--shipped",
        type=Path,
        default=MODEL_PATH,
        help="judge these maps beside the cross-fitted ones (default: the shipped file)",
    )
    fit.add_argument(
        "--shipped-games",
        type=int,
        nargs=2,
        metavar=("FIRST", "LAST"),
        help="the seeds the shipped maps were fitted on: the summary leaves them out",
    )
    args = parser.parse_args(argv)
    if args.command == "generate":
        generate(args.set, args.games, args.first_seed, args.iterations, args.out)
        return
    lines = [line for path in args.files for line in read(path) if "outcome" in line]
    first, last = args.shipped_games or (0, -1)
    fitted_on = frozenset(range(first, last + 1))
    text, maps = report(lines, load_calibration(args.shipped), fitted_on)
    print(text)
    if args.model is not None:
        save(maps, args.model, "Platt maps of the cmcts hint's raw value, fitted on self-play")
        print(f"written {args.model}")


if __name__ == "__main__":
    main(sys.argv[1:])
