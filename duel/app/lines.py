"""A line of play (a principal variation) in words: who moves, and which steps are chance.

A search's line runs through chance nodes by picking one outcome (the most probable, or the most
frequent of a few sampled draws). Shown as plain moves those outcomes read like facts ("A token
Agriculture" after a card nobody has seen yet), so here every chance outcome is marked as a
supposition and every decision names its player.

>>> import random
>>> from duel import new_game
>>> state, rng = new_game(), random.Random(2)
>>> while state.is_chance() or state.phase != "play":
...     state = state.apply(state.random_move(rng), check=False)
>>> line = []
>>> s = state
>>> while len(line) < 4 or not s.is_chance():
...     move = s.random_move(rng)
...     line.append(move)
...     s = s.apply(move, check=False)
>>> text = line_text(state, line)
>>> text.startswith("A ") and "the line stops" in text
True
"""

from __future__ import annotations

from collections.abc import Sequence

from duel.catalog import CARDS, TOKENS, WONDERS, bits
from duel.moves import PLAYER_NAMES, Kind, Move
from duel.state import State

__all__ = ["chance_text", "line_steps", "line_text"]


def chance_text(move: Move) -> str:
    """A chance outcome as a supposition: ``if Baths is revealed in slot 10``."""
    kind = move.kind
    if kind is Kind.REVEAL_CARD:
        return f"if {CARDS[move.card].name} is revealed in slot {move.slot}"
    if kind is Kind.REVEAL_WONDER:
        return f"if {WONDERS[move.wonder].name} is revealed for the draft"
    if kind is Kind.REVEAL_TOKEN:
        return f"if {TOKENS[move.token].name} is dealt to the board"
    names = ", ".join(TOKENS[t].name for t in bits(move.token_mask))
    return f"if The Great Library draws {names}"


def line_steps(state: State, line: Sequence[Move]) -> list[tuple[str, str]]:
    """``(who, text)`` for each move of ``line`` played from ``state``: who is ``A``, ``B`` or
    ``chance``. Stops early if a move does not apply (a stale line)."""
    steps = []
    for move in line:
        if state.is_chance():
            steps.append(("chance", chance_text(Move(move))))
        else:
            steps.append((PLAYER_NAMES[state.to_move], str(Move(move))))
        try:
            state = state.apply(move)
        except ValueError:
            break
    return steps


def line_text(state: State, line: Sequence[Move], *, through_chance: bool = False) -> str:
    """The line in words, ``A build Baths, B discard Tavern, ...``.

    By default it stops at the first chance outcome: what follows depends on a card nobody has
    seen, and the search followed only one guess of it. ``through_chance`` shows the whole line
    with each chance outcome in brackets: ``[chance: if Baths is revealed in slot 10]``.
    """
    parts = []
    for who, text in line_steps(state, line):
        if who == "chance":
            if not through_chance:
                parts.append("then chance (a face-down card or a draw): the line stops here")
                break
            parts.append(f"[chance: {text}]")
        else:
            parts.append(f"{who} {text}")
    return ", ".join(parts) or "-"
