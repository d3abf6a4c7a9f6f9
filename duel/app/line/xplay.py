"""``duel play --expansions pantheon``: a game with an expansion in the terminal, line by line.

Each player sees their own view only (:meth:`duel.expansions.XState.view`): the opponent's
Divinity seated face down shows as its Mythology, the card the opponent put back on a deck as
"a card". Between two humans at one terminal, a hand-over screen comes before each player's
turn, so that one player's private cards are off the screen when the other sits down.
Against an AI, the screen always shows the human's view; the AI reads its own view.

The game itself, its save after every move (sealed while it runs, so that opening the file
tells no one a face-down card) and its hints are :mod:`duel.app.control.xgame`'s; the words
of the table are :mod:`duel.app.text.xboard`'s. This module only prints and reads lines.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from duel.app.control.signals import Signalled, signals_save_the_game
from duel.app.control.xgame import (
    XGameControl,
    close_xgame,
    hint_lines,
    open_xgame,
)
from duel.app.control.xundo import UNDO_WORDS, undo
from duel.app.i18n import tr
from duel.app.text.xboard import board_lines, move_line
from duel.moves import PLAYER_NAMES

#: The hand-over's clearing: the screen (ED 2), the scrollback (ED 3: xterm, tmux, VTE,
#: kitty, Windows Terminal), the cursor home; so that the previous player's cards and hints
#: cannot be scrolled back to.
CLEAR = "\033[H\033[2J\033[3J"


def _play_lines(
    control: XGameControl, read: Callable[[str], str], write: Callable[[str], None]
) -> int:
    """The line mode: the board and the numbered moves before each human decision; the exit
    code (0 the game is over, 1 left unfinished)."""
    while (player := control.advance()) is not None:
        if control.needs_hand_over(player):
            write(CLEAR if sys.stdout.isatty() else "")
            try:
                read(
                    tr(
                        "Pass the terminal to player {player}, then press Enter: ",
                        player=PLAYER_NAMES[player],
                    )
                )
            except (EOFError, KeyboardInterrupt):
                return 1  # the caller says where the game is saved
        view = control.view(player)
        write("\n".join(board_lines(view)))
        write(tr("Your moves, {player}:", player=PLAYER_NAMES[player]))
        for n, move in enumerate(view.legal_moves(), 1):
            write(f"  {n:3}  {move_line(view, move)}")
        while True:
            try:
                text = read(tr("Move (number, notation, hint, undo or quit): ")).strip()
            except (EOFError, KeyboardInterrupt):
                text = "quit"
            if text.lower() in ("quit", "q", "exit"):
                return 1  # the caller says where the game is saved
            if not text:
                continue
            if text.lower() == "hint":
                write("\n".join(hint_lines(view, control.think, 5)[0]))
                continue
            if text.lower() in UNDO_WORDS:
                write(undo(control))
                break
            typed = control.read_move(player, text)
            if isinstance(typed, str):
                write(typed)
                continue
            control.play(typed)
            break
    write("\n".join(board_lines(control.view())))
    return 0  # the caller says the result


def run_xgame(
    expansions: tuple[str, ...],
    seats: tuple[str | None, str | None],
    *,
    seed: int | None = None,
    think: float | None = None,
    record: Path | None = None,
    load: Path | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """Play a game with ``expansions`` (or continue the one saved in ``load``) line by line
    (:func:`duel.app.control.xgame.open_xgame` says what the arguments mean). The exit code: 0
    finished, 1 left unfinished (saved), 2 the game could not start, 128 + the signal that
    stopped it."""
    control = open_xgame(
        expansions, seats, seed=seed, think=think, record=record, load=load, notify=write
    )
    if control is None:
        return 2
    # Every move is saved as it is played: a signal (the terminal closed, a kill) loses
    # nothing, and the message says where the game is.
    try:
        with signals_save_the_game():
            code = _play_lines(control, read, write)
    except Signalled as stop:
        code = 128 + stop.signum
    except KeyboardInterrupt:  # Ctrl-C while the AI thinks (at a prompt it is "quit")
        code = 130
    close_xgame(control, write)
    return code
