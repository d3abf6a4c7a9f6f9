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

from duel.app.i18n import N_, language, shown, tr
from duel.catalog import CARDS, TOKENS, WONDERS, bits
from duel.moves import PLAYER_NAMES, Kind, Move
from duel.state import State

__all__ = ["chance_event", "chance_text", "line_steps", "line_text", "position_text"]


def _english(msgid: str, /, **values: object) -> str:
    return msgid.format(**values)


def chance_event(move: Move, localized: bool = False) -> str:
    """A chance outcome: ``Baths is revealed in slot 10`` (English, as the JSON output has it;
    ``localized``: in the current language, names as shown)."""
    say, name = (tr, shown) if localized else (_english, str)
    kind = move.kind
    if kind is Kind.REVEAL_CARD:
        card = name(CARDS[move.card].name)
        return say(N_("{card} is revealed in slot {slot}"), card=card, slot=move.slot)
    if kind is Kind.REVEAL_WONDER:
        return say(N_("{wonder} is revealed for the draft"), wonder=name(WONDERS[move.wonder].name))
    if kind is Kind.REVEAL_TOKEN:
        return say(N_("{token} is dealt to the board"), token=name(TOKENS[move.token].name))
    names = ", ".join(name(TOKENS[t].name) for t in bits(move.token_mask))
    return say(N_("The Great Library draws {names}"), names=names)


def chance_text(move: Move, localized: bool = False) -> str:
    """A chance outcome as a supposition: ``if Baths is revealed in slot 10``."""
    event = chance_event(move, localized)
    return tr("if {event}", event=event) if localized else f"if {event}"


def position_text(state: State) -> str:
    """``state.describe()`` in the current language (English: the engine's own words)."""
    if language() == "en":
        return state.describe()
    from duel.app.text.moves import PHASE_TEXT

    if state.is_terminal():
        if state.is_shared_victory:
            return tr("game over: shared victory")
        assert state.winner is not None  # a game over that is not shared has a winner
        return tr(
            "game over: {winner} wins ({victory})",
            winner=PLAYER_NAMES[state.winner],
            victory=tr(VICTORIES.get(state.victory, state.victory)),
        )
    age = tr("age {n}", n=state.age) if state.age else tr("setup")
    phase = tr(PHASE_TEXT[state.phase])
    if state.is_chance():
        return tr("{age}, {phase}, chance to move", age=age, phase=phase)
    return tr(
        "{age}, {phase}, {who} to move", age=age, phase=phase, who=PLAYER_NAMES[state.to_move]
    )


#: The kinds of victory, by the engine's names (``state.victory``).
VICTORIES = {
    "military": N_("military victory"),
    "science": N_("science victory"),
    "civilian": N_("civilian victory"),
}


def line_steps(
    state: State, line: Sequence[Move], localized: bool = False
) -> list[tuple[str, str]]:
    """``(who, text)`` for each move of ``line`` played from ``state``: who is ``A``, ``B`` or
    ``chance``; the moves in the notation (English), a chance outcome in words (English, or in
    the current language if ``localized``). Stops early if a move does not apply."""
    steps = []
    for move in line:
        if state.is_chance():
            steps.append(("chance", chance_text(Move(move), localized)))
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
    for who, text in line_steps(state, line, localized=True):
        if who == "chance":
            if not through_chance:
                parts.append(tr("then chance (a face-down card or a draw): the line stops here"))
                break
            parts.append(tr("[chance: {text}]", text=text))
        else:
            parts.append(f"{who} {text}")
    return ", ".join(parts) or "-"
