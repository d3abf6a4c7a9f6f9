"""``duel join --line``: the network game line by line, for the base game and the expansions.

The table is drawn as ``duel play --line`` draws it (the base game's table, the expansions'
board lines), the seat's moves are numbered, and a number or the notation plays one. The
server checks it; its refusal is shown with the engine's reason. ``resign`` gives up the game,
``quit`` leaves it on the server (rejoin with the same code), ``hint`` is there only if the
host allowed hints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from duel.app.i18n import tr
from duel.moves import PLAYER_NAMES
from duel.net.referee import unwire, wire
from duel.net.seat import RemoteSeat

#: Seconds between looks at the connection while waiting for the other seat.
WAIT = 0.5


def _board(seat: RemoteSeat, *, plain: bool) -> list[str] | Any:
    state = seat.game.state
    if seat.game.expansions:
        from duel.app.text.xboard import board_lines

        return board_lines(state)
    from duel.app.text import render as R

    labels = (seat.connection.players[0], seat.connection.players[1])
    if plain:
        return R.plain_table(state, labels, decision=False)
    return R.render_table(state, labels, decision=False)


def _move_line(state: Any, move: Any, expansions: bool) -> str:
    if expansions:
        from duel.app.text.xboard import move_line

        return move_line(state, move)
    return str(move)


def _said(before: Any, move: Any, expansions: bool) -> str:
    if expansions:
        who = "" if before.is_chance() else f"{PLAYER_NAMES[before.to_move]}: "
        return who + str(move)
    from duel.app.control.game import GameController

    if before.is_chance():
        from duel.app.text.moves import describe_chance

        return describe_chance(move)
    return GameController.move_text(before, before.apply(move), move)


def _print(item: Any) -> None:
    """A line, or a drawn table (rich), on standard output."""
    if isinstance(item, str):
        print(item, flush=True)
        return
    from rich.console import Console

    Console().print(item)


def run_line(
    seat: RemoteSeat,
    *,
    read: Callable[[str], str] = input,
    write: Callable[[Any], None] = _print,
    plain: bool = False,
) -> int:
    """Follow and play the game until it ends (0) or the player leaves (1)."""
    connection = seat.connection
    waiting = ""
    expansions = bool(seat.game.expansions)
    write(seat.seat_text() + " " + seat.hints_text())
    shown = 0
    link = ""
    while True:
        seat.follow()
        game = seat.game
        if game.playable:
            for i in range(shown, len(game.moves)):
                write(_said(game.states[i], game.moves[i], expansions))
        else:
            for item in game.texts[shown:]:
                write(str(unwire(game.expansions, item)))
        shown = len(game.texts)
        if link != seat.link_text():
            link = seat.link_text()
            if link:
                write(link)
        if connection.fatal is not None:
            return 1
        if seat.over:
            if game.playable:
                write(_board(seat, plain=plain))
            write(seat.result_text())
            write(seat.review_text())
            return 0
        if not seat.my_decision():
            other = connection.to_move or ""
            if other and other != connection.seat and other != waiting:
                write(tr("Waiting for {player}...", player=other) + " " + seat.clocks_text())
            waiting = other
            seat.wait(WAIT)
            continue
        waiting = ""
        state = game.state
        write(_board(seat, plain=plain))
        clocks = seat.clocks_text()
        if clocks:
            write(clocks)
        moves = state.view(seat.player).legal_moves() if expansions else state.legal_moves()
        write(tr("Your moves, {player}:", player=connection.seat))
        for number, move in enumerate(moves, 1):
            write(f"  {number:3}  {_move_line(state, move, expansions)}")
        code = _decide(seat, moves, read, write)
        if code is not None:
            return code


def _decide(
    seat: RemoteSeat, moves: list[Any], read: Callable[[str], str], write: Callable[[Any], None]
) -> int | None:
    """Read the player's decision and send it; an exit code if they leave."""
    connection = seat.connection
    ply = len(seat.game.texts)
    while True:
        try:
            text = read(tr("Move (number, notation, resign or quit): ")).strip()
        except (EOFError, KeyboardInterrupt):
            text = "quit"
        seat.follow()
        if seat.over or len(seat.game.texts) != ply:
            return None  # the game moved on while the player thought (a loss on time)
        if not text:
            continue
        word = text.lower()
        if word in ("quit", "q", "exit"):
            write(tr("The game goes on on the server: join it again with the same code."))
            return 1
        if word == "resign":
            seat.net.resign()
            seat.wait(2.0)
            return None
        if word == "hint":
            write(_hint(seat))
            continue
        move = _read_move(seat, moves, text)
        if isinstance(move, str):
            write(move)
            continue
        errors = len(connection.errors)
        if not seat.net.play(ply, wire(move)):
            write(tr("Not sent: the connection is down. Try again in a moment."))
            continue
        for _ in range(40):  # the server's answer: the move played, or why not
            seat.wait(0.25)
            if len(seat.game.texts) > ply or seat.over or len(connection.errors) > errors:
                break
        if len(connection.errors) > errors:
            write(seat.error_text(connection.errors[-1][0]))
            continue
        return None


def _read_move(seat: RemoteSeat, moves: list[Any], text: str) -> Any:
    if text.isdigit():
        if 1 <= int(text) <= len(moves):
            return moves[int(text) - 1]
        return tr("Choose a number from 1 to {n}.", n=len(moves))
    try:
        from duel.expansions import XMove
        from duel.moves import Move

        move = XMove.parse(text) if seat.game.expansions else Move.parse(text)
    except ValueError as error:
        return str(error)
    return move


def _hint(seat: RemoteSeat) -> str:
    if not seat.connection.hints:
        return seat.hints_text()
    state = seat.game.state
    if seat.game.expansions:
        from duel.app.control.xgame import hint_lines

        return "\n".join(hint_lines(state, 1.0, 3)[0])
    from duel.app.control.game import Dealer, GameController

    game = GameController(["human", "human"], Dealer(), states=list(seat.game.states))
    try:
        return "\n".join(game.hint_lines(game.hint(1.0)))
    except ImportError:
        return tr("Hints need the solver.")
