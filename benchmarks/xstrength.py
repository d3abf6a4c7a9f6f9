"""Strength matches for expansion games: level A against level B, deals in pairs with the seats
swapped, at most one game per core, a JSONL line per game, resumable. Not a test.

    python benchmarks/xstrength.py A B --set pantheon --seconds 1 --pairs 100 --workers 2 \\
        --out benchmarks/results/xstrength_cmcts_vs_mcts_pantheon.jsonl
    python benchmarks/xstrength.py --summary FILE.jsonl          # the summary of a finished file
    python benchmarks/xstrength.py --ladder cmcts --set both --times 0.1 0.3 1 --pairs 50 \\
        --workers 2 --out benchmarks/results/xstrength_ladder_both.jsonl

**Levels** are those of :func:`duel.solvers.xplayers.make_xplayer` (``cmcts``, ``mcts``,
``greedy``, ``random``, ``cmcts:0.5s:exploration=0.8``); a level without a budget thinks
``--seconds`` a move. ``--ladder L`` plays ``L:2Ts`` (as A) against ``L:Ts`` (as B) for each ``T``
of ``--times``: self-play, where time stops paying; with ``--iterations N ...`` it plays ``L:2N``
against ``L:N`` iterations a decision instead (load-independent, ``seconds`` 0 in the lines).

**Games.** The referee is the Python expansion engine (:func:`duel.expansions.new_xgame`), so
the ``mcts`` baseline plays exactly as in the app; ``cmcts`` searches on the compiled core from
its own view. Deal ``d`` is the chance draws of ``random.Random(seed + d)``: the two games of a
pair share a seed, A sits first in the first and second in the other. Games run in
``--workers`` processes (2 on the 2-core machine: one game per core, nothing else running), and
every line records the load (``os.getloadavg``, the figures ``uptime`` prints) at the start and
the end of its game.

**Lines** (JSONL, one a game, appended as each game ends): ``pair``, ``swap``, ``seed``, the
levels per seat (``seats``), ``a_seat``, the ``winner`` (``A``/``B``/``shared``), the
``victory`` type (``civilian``, ``military``, ``science``, ``political``: Agora's Senate
supremacy, ``shared``), ``divinity_driven``, the decisions (``moves``), each side's mean think
time per decision (``think_a``/``think_b``), ``load`` and the final scores. A rerun with the same
``--out`` skips the (pair, swap) games already in the file (resumable); a line of another
configuration in the file is an error.

**Divinity-driven win** (Pantheon): a win whose decisive move was a Divinity's effect (the
game's last decision was the winner activating a Divinity: a military, science or political
supremacy it brought about, or the game's end), or a civilian win whose winner's Divinity points
(Aphrodite's, Astarte's coins) are at least the margin of victory (without them the winner would
not have won outright).

**Summary**: A's score (a win 1, a shared victory 1/2) with Wilson's 95% interval, as A (seated
first) and as B (seated second), the victory types of each level's wins, the Divinity-driven
wins, the mean think time per side, the load (mean and max).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duel.expansions import NAMED_SETS, new_xgame  # noqa: E402
from duel.solvers.match import wilson_interval  # noqa: E402
from duel.solvers.xplayers import make_xplayer  # noqa: E402

SETS = NAMED_SETS


def divinity_driven(final, last_decision, winner: int | None) -> bool:
    """Whether ``winner``'s victory was driven by a Divinity (see the module docstring)."""
    if winner is None or not final.pantheon:
        return False
    mover, move = last_decision if last_decision is not None else (None, None)
    if mover == winner and move is not None and move.kind == "activate":
        return True
    if final.victory == "civilian":
        mine, theirs = final.score(winner), final.score(1 - winner)
        return mine.divinities > 0 and mine.divinities >= mine.total - theirs.total
    return False


def play_game(job: dict) -> dict:
    """One game of ``job`` (levels per seat, expansion set, seed, time per move): its line."""
    load_start = os.getloadavg()
    seats = job["seats"]
    players = [
        make_xplayer(level, seed=job["seed"] * 2 + i, time_per_move=job["seconds"])
        for i, level in enumerate(seats)
    ]
    dealer = random.Random(job["seed"])
    state = new_xgame(SETS[job["set"]])
    think = [0.0, 0.0]
    decisions = [0, 0]
    last = None
    start = time.perf_counter()
    while not state.is_terminal():
        if state.is_chance():
            move = state.sample_chance(dealer)
        else:
            mover = state.to_move
            clock = time.perf_counter()
            move = players[mover].choose(state)
            think[mover] += time.perf_counter() - clock
            decisions[mover] += 1
            last = (mover, move)
        state = state.apply(move, check=False)
    a_seat = job["a_seat"]
    winner = state.winner
    who = "shared" if winner is None else "A" if winner == a_seat else "B"
    return {
        "pair": job["pair"],
        "swap": job["swap"],
        "seed": job["seed"],
        "set": job["set"],
        "seats": seats,
        "a_seat": a_seat,
        "level_a": job["level_a"],
        "level_b": job["level_b"],
        "seconds": job["seconds"],
        "winner": who,
        "victory": "shared" if winner is None else state.victory,
        "divinity_driven": divinity_driven(state, last, winner),
        "moves": sum(decisions),
        "think_a": round(think[a_seat] / max(1, decisions[a_seat]), 4),
        "think_b": round(think[1 - a_seat] / max(1, decisions[1 - a_seat]), 4),
        "scores": [state.score(0).total, state.score(1).total],
        "game_seconds": round(time.perf_counter() - start, 2),
        "load": [round(x, 2) for x in load_start] + [round(os.getloadavg()[0], 2)],
    }


def jobs(level_a: str, level_b: str, set_name: str, seconds: float, pairs: int, seed: int):
    for pair in range(pairs):
        for swap in (0, 1):
            a_seat = swap
            seats = [level_a, level_b] if a_seat == 0 else [level_b, level_a]
            yield {
                "pair": pair,
                "swap": swap,
                "seed": seed + pair,
                "set": set_name,
                "seats": seats,
                "a_seat": a_seat,
                "level_a": level_a,
                "level_b": level_b,
                "seconds": seconds,
            }


CONFIG_KEYS = ("set", "level_a", "level_b", "seconds")


def ladder(level: str, times: list[float], iterations: list[int] | None = None) -> list[tuple]:
    """The rungs of a self-play ladder, (A, B, seconds): ``level:2Ts`` against ``level:Ts`` for
    each time, or ``level:2N`` against ``level:N`` for each iteration count when given (seconds 0:
    the levels carry their budgets)."""
    if iterations:
        return [(f"{level}:{2 * n}", f"{level}:{n}", 0.0) for n in iterations]
    return [(f"{level}:{2 * t:g}s", f"{level}:{t:g}s", t) for t in times]


def read_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    lines = []
    for text in path.read_text().splitlines():
        if text.strip():
            try:
                lines.append(json.loads(text))
            except json.JSONDecodeError:
                continue  # a line cut by a stop: its game is played again
    return lines


def summary(lines: list[dict]) -> str:
    """The score of A with its interval, as A / as B, victory types, think times, load."""
    if not lines:
        return "no games"
    out = []
    groups: dict[tuple, list[dict]] = {}
    for line in lines:
        groups.setdefault(tuple(line[k] for k in CONFIG_KEYS), []).append(line)
    for (set_name, level_a, level_b, seconds), games in groups.items():

        def score(gs: list[dict]) -> float:
            return sum(
                1.0 if g["winner"] == "A" else 0.5 if g["winner"] == "shared" else 0.0 for g in gs
            )

        n = len(games)
        s = score(games)
        lo, hi = wilson_interval(s / n, n)
        first = [g for g in games if g["a_seat"] == 0]
        second = [g for g in games if g["a_seat"] == 1]
        out.append(
            f"{set_name}: A = {level_a}, B = {level_b}, {seconds:g} s a move (levels without a "
            f"budget)"
        )
        out.append(
            f"  A scores {s:g}/{n} = {s / n:.1%} (95% Wilson {lo:.1%}-{hi:.1%}); as A (first) "
            f"{score(first):g}/{len(first)}, as B (second) {score(second):g}/{len(second)}"
        )
        for who in ("A", "B"):
            wins = [g for g in games if g["winner"] == who]
            kinds = Counter(g["victory"] for g in wins)
            divine = sum(g["divinity_driven"] for g in wins)
            text = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "none"
            out.append(f"  {who}'s wins: {len(wins)} ({text}); Divinity-driven {divine}")
        shared = sum(g["winner"] == "shared" for g in games)
        out.append(f"  shared victories: {shared}")
        think_a = sum(g["think_a"] for g in games) / n
        think_b = sum(g["think_b"] for g in games) / n
        moves = sum(g["moves"] for g in games) / n
        loads = [x for g in games for x in (g["load"][0], g["load"][-1])]
        out.append(
            f"  mean think a decision: A {think_a:.3f} s, B {think_b:.3f} s; {moves:.1f} "
            f"decisions a game; load (1-min) mean {sum(loads) / len(loads):.2f}, max "
            f"{max(loads):.2f}"
        )
    return "\n".join(out)


def run(todo: list[dict], out: Path, workers: int) -> None:
    done = {(g["pair"], g["swap"], *(g[k] for k in CONFIG_KEYS)) for g in read_lines(out)}
    pending = [j for j in todo if (j["pair"], j["swap"], *(j[k] for k in CONFIG_KEYS)) not in done]
    print(f"{len(todo) - len(pending)} games already in {out}, {len(pending)} to play", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=workers) as pool, out.open("a") as sink:
        futures = [pool.submit(play_game, job) for job in pending]
        for number, future in enumerate(as_completed(futures), 1):
            line = future.result()
            sink.write(json.dumps(line) + "\n")
            sink.flush()
            os.fsync(sink.fileno())
            print(
                f"[{number}/{len(pending)}] {line['set']} pair {line['pair']} swap "
                f"{line['swap']}: {line['winner']} ({line['victory']}) in {line['moves']} "
                f"decisions, load {line['load'][0]}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", nargs="?", help="level A (e.g. cmcts)")
    parser.add_argument("b", nargs="?", help="level B (e.g. mcts)")
    parser.add_argument("--set", nargs="+", default=["pantheon"], choices=list(SETS))
    parser.add_argument("--seconds", type=float, default=1.0, help="a move, for levels without")
    parser.add_argument("--pairs", type=int, default=100, help="deal pairs per set")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--workers", type=int, default=2, help="games at once (<= cores)")
    parser.add_argument("--out", type=Path, help="the JSONL file (appended, resumable)")
    parser.add_argument("--summary", type=Path, help="only print the summary of this file")
    parser.add_argument("--ladder", metavar="LEVEL", help="self-play LEVEL:2Ts against LEVEL:Ts")
    parser.add_argument("--times", type=float, nargs="+", default=[0.1, 0.3, 1.0])
    parser.add_argument(
        "--iterations",
        type=int,
        nargs="+",
        metavar="N",
        help="with --ladder: LEVEL:2N against LEVEL:N iterations a decision (not --times)",
    )
    args = parser.parse_args()
    if args.summary is not None:
        print(summary(read_lines(args.summary)))
        return
    if args.out is None:
        parser.error("--out FILE is needed (the games are written there as they end)")
    if args.workers < 1 or args.workers > (os.cpu_count() or 1):
        parser.error(f"--workers must be between 1 and the cores ({os.cpu_count()})")
    if args.ladder:
        matches = ladder(args.ladder, args.times, args.iterations)
    elif args.a and args.b:
        matches = [(args.a, args.b, args.seconds)]
    else:
        parser.error("give levels A and B, or --ladder LEVEL")
    for level_a, level_b, _ in matches:
        for level in (level_a, level_b):
            try:
                make_xplayer(level, time_per_move=args.seconds)
            except ValueError as error:
                parser.error(str(error))
    todo = [
        job
        for set_name in args.set
        for level_a, level_b, seconds in matches
        for job in jobs(level_a, level_b, set_name, seconds, args.pairs, args.seed)
    ]
    # pair by pair across the sets and rungs: a match stopped early has figures for each
    todo.sort(key=lambda job: job["pair"])
    print(f"uptime at the start: {os.getloadavg()}", flush=True)
    run(todo, args.out, args.workers)
    print(summary([g for g in read_lines(args.out) if g["set"] in args.set]))


if __name__ == "__main__":
    main()
