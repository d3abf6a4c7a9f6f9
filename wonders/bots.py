"""Computer players: :class:`RandomBot` (uniform over legal moves) and :class:`GreedyBot`
(one-move lookahead on an estimate of its final score).

>>> from wonders.game import new_game
>>> s = new_game(3, seed=2)
>>> GreedyBot(seed=0).choose(s, 0) in s.legal_moves(0)
True
"""

from __future__ import annotations

import random
from typing import Protocol

from wonders.game import VICTORY, GameState, Move, score_city


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, player: int) -> Move: ...


class RandomBot:
    """Picks uniformly among the legal moves (seeded)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, player: int) -> Move:
        return self.rng.choice(state.legal_moves(player))


def estimate(state: GameState, c: int) -> float:
    """A rough value of city ``c`` for the rest of the game: its current score (coins counted as
    coins/3), plus production worth more early, plus the conflicts it would win now."""
    sheet = score_city(state, c)
    city = state.cities[c]
    prof = city.profile
    value = float(sheet.total - sheet.treasury) + city.coins / 3
    remaining = max(0.0, (3 - state.age) + (6 - min(state.turn, 6)) / 6)
    production = sum(prof.own.fixed) + len(prof.own.choices)
    kinds = sum(1 for x in prof.own.fixed if x) + len(prof.own.choices)
    value += remaining * (0.35 * min(production, 12) + 0.4 * min(kinds, 7))
    value += remaining * 0.5 * sum(2 - p for side in prof.prices for p in side[:4]) / 4
    value += remaining * 0.3 * sum(2 - p for side in prof.prices for p in side[4:]) / 3
    shields = prof.shields
    for other in {state.left(c), state.right(c)}:
        theirs = state.cities[other].profile.shields
        ages_left = 3 - state.age + 1
        if shields > theirs:
            value += VICTORY[state.age] * 0.8 + 0.3 * (ages_left - 1)
        elif shields < theirs:
            value -= 0.8
    if prof.free_build and city.free_used_age != state.age:
        value += 2.0
    return value


class GreedyBot:
    """Plays the move that most improves :func:`estimate` of its own city (seeded tie-break)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, player: int) -> Move:
        moves = state.legal_moves(player)
        if len(moves) == 1:
            return moves[0]
        c = moves[0].city

        def value(s: GameState) -> float:
            if c == player:
                return estimate(s, c)
            # deciding for the Free City: what is good for me and bad for my opponent
            return estimate(s, player) - estimate(s, 1 - player)

        before = value(state)
        scored = []
        for m in moves:
            after, _ = state._execute([m])
            gain = value(after) - before
            if m.action == "discard" and c != state.free_city:
                gain -= 0.2  # keep discards for when nothing else helps
            scored.append((gain + self.rng.random() * 1e-6, m))
        return max(scored, key=lambda t: t[0])[1]


def make_bot(kind: str, seed: int | None = None) -> Bot:
    """``"random"`` or ``"greedy"``."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(seed)
    raise ValueError(f"unknown bot {kind!r} (random or greedy)")


def play_game(state: GameState, bots: list[Bot]) -> GameState:
    """Play to the end with one bot per player."""
    while not state.is_terminal():
        for p in state.current_players():
            while state.decision_city(p) is not None:
                state = state.apply(bots[p].choose(state, p))
    return state
