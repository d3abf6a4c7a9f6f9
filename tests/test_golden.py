"""Golden files in the spirit of chess perft: move counts and whole-game traces.

Any change in behaviour shows up as a diff. After an intended rules change, regenerate with
``UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py`` and review the diff.
"""

import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from duel import new_game
from duel.position import dumps_position

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
SEEDS = (1, 2, 3, 4, 5)
CHECKPOINTS = (0, 15, 40, 80, 120)


def perft(state, depth):
    """Number of paths of ``depth`` steps; chance outcomes count as branches."""
    if depth == 0 or state.is_terminal():
        return 1
    children = [m for m, _ in state.chance_outcomes()] if state.is_chance() else state.legal_moves()
    return sum(perft(state.apply(m, check=False), depth - 1) for m in children)


def walk(seed):
    rng = random.Random(seed)
    state = new_game()
    steps = [(None, state)]
    while not state.is_terminal():
        move = state.random_move(rng)
        state = state.apply(move)
        steps.append((move, state))
    return steps


def perft_table():
    table = {}
    for seed in SEEDS:
        steps = walk(seed)
        for checkpoint in CHECKPOINTS:
            if checkpoint >= len(steps):
                continue
            state = steps[checkpoint][1]
            digest = hashlib.sha256(dumps_position(state).encode()).hexdigest()[:16]
            table[f"seed {seed} step {checkpoint}"] = {
                "position": digest,
                "describe": state.describe(),
                "perft1": perft(state, 1),
                "perft2": perft(state, 2),
            }
    return table


def trace(seed):
    lines = []
    for i, (move, state) in enumerate(walk(seed)):
        label = "start" if move is None else str(move)
        lines.append(
            f"{i:3} {label:50} | {state.describe():40} | coins {state.coins(0):2}/"
            f"{state.coins(1):2} pawn {state.pawn:+d}"
        )
    final = walk(seed)[-1][1]
    for p in (0, 1):
        score = final.score(p)
        lines.append(f"score {'AB'[p]}: {score.total} {score}")
    return "\n".join(lines) + "\n"


def check(name, text):
    path = GOLDEN / name
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"{path} missing: run with UPDATE_GOLDEN=1 to create it")
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed (see the diff)"


def test_perft_counts():
    check("perft.json", json.dumps(perft_table(), indent=1) + "\n")


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_game_trace(seed):
    check(f"trace_seed{seed}.txt", trace(seed))
