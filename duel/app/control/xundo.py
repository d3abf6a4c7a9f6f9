"""Undo in an expansion game, as the base game has it (:func:`duel.app.control.game.undo_target`):
back to the last decision of a human, the AI's replies and the chance events since taken back.

**Fair play.** In a fair game (no seed) a chance event since that decision (a card turned over, a
Divinity or Conspiracy drawn, a Decree revealed) refuses the undo: the player has seen it, and
choosing again knowing it would be cheating. A seeded game allows it. The save is rewritten at
once, so that a reload finds the game as it is now."""

from __future__ import annotations

from typing import TYPE_CHECKING

from duel.app.i18n import tr
from duel.expansions import new_xgame
from duel.moves import PLAYER_NAMES

if TYPE_CHECKING:
    from duel.app.control.xgame import XGameControl

#: What the line mode and the full-screen table take as the undo command.
UNDO_WORDS = ("undo", "u")


def undo(control: XGameControl) -> str:
    """Take back the moves since the last decision of a human of ``control``'s game; what was
    taken back, or why nothing was."""
    states = [new_xgame(control.expansions)]
    for move in control.moves:
        states.append(states[-1].apply(move, check=False))
    target = next(
        (
            i
            for i in range(len(control.moves) - 1, -1, -1)
            if not states[i].is_chance()
            and not states[i].is_terminal()
            and control.players[states[i].to_move] is None
        ),
        None,
    )
    if target is None:
        return tr("Nothing to undo.")
    dealt = sum(1 for move in control.moves[target:] if move.is_chance())
    if dealt and control.seed is None:
        return tr(
            "Cannot undo: {n} chance events since that decision (cards turned over or drawn),"
            " and this is a fair game: taking them back would let you choose again knowing"
            " them. (Games started with --seed allow it.)",
            n=dealt,
        )
    if target - 1 in control.redacted:
        return tr(
            "Cannot undo to The Great Library's choice: the saved game does not keep the two "
            "tokens not chosen."
        )
    taken = [
        f"{PLAYER_NAMES[states[i].to_move]} {control.public_moves[i]}"
        for i in range(target, len(control.moves))
        if not states[i].is_chance()
    ]
    del control.moves[target:]
    del control.public_moves[target:]
    control.redacted = frozenset(i for i in control.redacted if i < target)
    control.state = states[target]
    control.save()
    return tr("Taken back: {moves}.", moves="; ".join(taken))
