"""The same games before and after a change to the compiled MCTS: a behaviour-neutral check.

Plays ``--games`` seeded games between two ``cmcts`` players at a fixed number of iterations a
move (no clock, so the games depend on the seeds alone) for each configuration given, and writes
every decision: the move played and a digest of the root's statistics (visits and mean value of
every legal move, the floats written exactly). Run it on the code before a change and after,
then compare the two files: any difference in any decision is reported.

    python tools/cmcts_same_games.py --out before.jsonl          # on the old build
    python tools/cmcts_same_games.py --out after.jsonl           # on the new build
    python tools/cmcts_same_games.py --compare before.jsonl after.jsonl

The default configurations are the shipped player and a few that take the other branches of the
tree (the hand-made prior and evaluation, plain playouts, UCB1, the other playout policies).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

CONFIGS = (
    "",
    "prior=policy,leaf=playout",
    "prior=value,leaf=value,pick=visits",
    "uct=1,policy=scored,modes=2,rollout=4",
    "policy=kind,rollout=-2,evaluation=learned,age_horizon=1,reuse=0",
    "block_science=1,pick=value,prior=static",
)


def play(options: str, seed: int, iterations: int) -> list[list]:
    """One game between two ``cmcts:ITERATIONS:OPTIONS`` players; per decision of a player
    that searched: [move, digest of the root statistics]."""
    from duel import new_game
    from duel.solvers.players import make_player

    level = f"cmcts:{iterations}" + (f":{options}" if options else "")
    players = [make_player(level, seed=2 * seed + k) for k in (1, 2)]
    rng = random.Random(seed)
    state, out = new_game(), []
    while not state.is_terminal():
        if state.is_chance():
            move = state.sample_chance(rng)
        else:
            player = players[state.to_move]
            move = player.choose(state)
            info = player.last_info
            if isinstance(info, dict):
                rows = json.dumps([[m, n, float(q).hex()] for m, n, q in info["moves"]])
                out.append([int(move), hashlib.sha256(rows.encode()).hexdigest()[:16]])
            else:
                out.append([int(move), None])
        state = state.apply(move, check=False)
    return out


def record(path: Path, games: int, iterations: int, configs: list[str]) -> None:
    with path.open("w") as f:
        for options in configs:
            for seed in range(games):
                decisions = play(options, seed, iterations)
                line = {"options": options, "seed": seed, "iterations": iterations}
                f.write(json.dumps({**line, "decisions": decisions}) + "\n")
                print(f"{options or '(defaults)'} seed {seed}: {len(decisions)} decisions")


def compare(first: Path, second: Path) -> int:
    def load(path: Path) -> dict:
        rows = (json.loads(x) for x in path.read_text().splitlines() if x.strip())
        return {(r["options"], r["seed"], r["iterations"]): r["decisions"] for r in rows}

    a, b = load(first), load(second)
    if a.keys() != b.keys():
        print(f"different games: {sorted(a.keys() ^ b.keys())}")
        return 1
    differ = 0
    for key in sorted(a):
        if a[key] != b[key]:
            at = next(
                (i for i, (x, y) in enumerate(zip(a[key], b[key], strict=False)) if x != y),
                min(len(a[key]), len(b[key])),
            )
            print(f"{key}: differs from decision {at}")
            differ += 1
    decisions = sum(len(d) for d in a.values())
    print(f"{len(a)} games, {decisions} decisions: {len(a) - differ} identical, {differ} differ")
    return 1 if differ else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--games", type=int, default=4, help="games per configuration")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--config", action="append", help="cmcts options (repeatable)")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args()
    if args.compare:
        return compare(*args.compare)
    if not args.out:
        ap.error("--out or --compare")
    record(args.out, args.games, args.iterations, args.config or list(CONFIGS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
