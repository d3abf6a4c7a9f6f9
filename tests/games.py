"""Games for property tests, drawn so that hypothesis can shrink them.

A game is the list of its choices: at each state, decision or chance, the index of the move among
the legal moves or the chance outcomes, modulo their number; 0 once the list runs out. A failing
game therefore shrinks to fewer and smaller choices (the first moves, mostly), where a game drawn
from an integer seed would not shrink at all.
"""

from __future__ import annotations

from hypothesis import strategies as st

from duel import Move, new_game
from duel.state import State

#: A game as its choices; a game has fewer than 400 states.
GAMES = st.lists(st.integers(0, 2**16), max_size=400)


def choice_game(choices: list[int], plies: int | None = None) -> tuple[list[State], list[Move]]:
    """Every state of the game that ``choices`` plays (to its end, or ``plies`` moves), with the
    moves that lead there."""
    state = new_game()
    states, moves = [state], []
    while not state.is_terminal() and (plies is None or len(moves) < plies):
        options = (
            [m for m, _ in state.chance_outcomes()] if state.is_chance() else state.legal_moves()
        )
        choice = choices[len(moves)] if len(moves) < len(choices) else 0
        move = options[choice % len(options)]
        moves.append(move)
        state = state.apply(move)
        states.append(state)
    return states, moves
