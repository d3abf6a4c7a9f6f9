"""``duel replay`` and ``duel export``, and ``duel show --at/--moves``: game records on the
command line. The stepping logic is :mod:`duel.app.control.replay` (no I/O); this module only reads
commands and prints.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from duel.app.cli.support import fail, fail_reading, use_palette
from duel.app.i18n import N_, tr, tr_error

RecordArgument = Annotated[Path, typer.Argument(help=N_("A game record (JSON, 7wd-record)"))]
PlainOption = Annotated[
    bool | None,
    typer.Option(
        "--plain/--drawn",
        help=N_("Plain text, or the drawn table [default: drawn on a terminal, plain in a pipe]"),
        show_default=False,
    ),
]


def load_replay_or_fail(path: Path):
    """The :class:`~duel.app.control.replay.Replay` of a record file (an expansion game's:
    :class:`~duel.app.control.replay.XReplay`); a position file, a save of a game in progress or
    a bad record exits with a one-line message."""
    from duel.app.control.replay import Replay
    from duel.app.control.xsaves import is_expansion_file
    from duel.files import read_json_file
    from duel.position import PositionError
    from duel.record import GameRecord, RecordError

    if is_expansion_file(path):
        return _load_xreplay_or_fail(path)
    try:
        data = read_json_file(path, RecordError)
        if isinstance(data, dict) and data.get("format") == "7wd-position":
            fail(
                tr("{path}: a position, not a game record (duel show prints a position)", path=path)
            )
        return Replay.of(GameRecord.from_json(data))
    except (PositionError, RecordError) as error:
        fail_reading(path, error)


def _load_xreplay_or_fail(path: Path):
    from duel.app.control.replay import XReplay
    from duel.expansions.position import is_xposition
    from duel.expansions.record import XRecord, XRecordError
    from duel.files import read_json_file

    try:
        data = read_json_file(path, XRecordError)
        if is_xposition(data):
            fail(
                tr("{path}: a position, not a game record (duel show prints a position)", path=path)
            )
        return XReplay.of(XRecord.from_json(data))
    except XRecordError as error:
        fail_reading(path, error)


def print_position(cursor, *, plain: bool | None, moves: bool = True) -> None:
    """The board at the cursor, then where we are and the moves around it."""
    from duel.app.control.replay import XReplay

    if isinstance(cursor.replay, XReplay):
        from duel.app.text.xboard import board_lines

        typer.echo("\n".join(board_lines(cursor.state)))
    else:
        from duel.app.text.render import print_state

        print_state(cursor.state, plain=plain)
    typer.echo("")
    typer.echo(cursor.header())
    if moves and cursor.replay.last:
        typer.echo("\n".join(cursor.window()))


def replay(
    record: RecordArgument,
    at: Annotated[int, typer.Option("--at", help=N_("Start at the position after move N"))] = 0,
    plain: PlainOption = None,
    palette: Annotated[
        str | None, typer.Option("--palette", help=N_("default or colorblind (or $DUEL_PALETTE)"))
    ] = None,
) -> None:
    """Step through a game forwards and backwards: the board at each move and the move list.

    Commands (one a line, so input can be piped): next [K] (or Enter), prev [K], first, last,
    goto N (or just N), moves, help, quit."""
    from duel.app.control.replay import Cursor, ReplayError

    use_palette(palette)
    game = load_replay_or_fail(record)
    try:
        cursor = Cursor(game).at(at if at >= 0 else game.last + 1 + at)
    except ReplayError as error:
        fail(tr("--at: {error}", error=tr_error(error)))
    typer.echo(
        tr(
            "Replaying {record} ({n} moves). Type help for the commands.",
            record=record,
            n=game.last,
        )
    )
    print_position(cursor, plain=plain)
    interactive = sys.stdin.isatty()
    while True:
        try:
            text = input("replay> " if interactive else "")
        except EOFError:
            break
        if not interactive:
            typer.echo(f"replay> {text}")  # echo piped commands so the output reads as a session
        cursor, message = cursor.command(text)
        if message == "quit":
            break
        if message:
            typer.echo(message)
        else:
            print_position(cursor, plain=plain)


def export(
    record: RecordArgument,
    chance: Annotated[
        bool, typer.Option("--chance/--no-chance", help=N_("Include the chance outcomes"))
    ] = True,
    bare: Annotated[
        bool,
        typer.Option("--bare", help=N_("Only the moves in notation, one a line (re-readable)")),
    ] = False,
) -> None:
    """Print a game as a plain move list: numbered, with the player (A/B) or chance."""
    from duel.app.control.replay import mover, numbered_moves

    game = load_replay_or_fail(record)
    if bare:
        for before, move, text in zip(game.states, game.moves, game.notation, strict=False):
            if chance or mover(before, move) != "chance":
                typer.echo(text)
        return
    marks = game.age_marks()
    lines = numbered_moves(game, chance=chance)
    pending = sorted(marks.items())
    for line in lines:
        number = int(line.split(".", 1)[0])
        while pending and pending[0][0] <= number:  # the mark may fall on a left-out move
            typer.echo(f"-- {pending.pop(0)[1]} --")
        typer.echo(line)
    final = game.state(-1)
    if final.is_terminal():
        from duel.app.control.replay import XReplay
        from duel.app.text.render import victory_sentence

        if isinstance(game, XReplay):
            from duel.app.text.lines import position_text

            typer.echo(position_text(final))
        else:
            typer.echo(victory_sentence(final))


def show_record(file: Path, at: int | None, moves: bool, plain: bool | None) -> None:
    """``duel show RECORD --at N`` (one position) and ``--moves`` (the move list after it)."""
    from duel.app.control.replay import Cursor, ReplayError

    game = load_replay_or_fail(file)
    index = game.last if at is None else at
    try:
        cursor = Cursor(game).at(game.index(index))
    except ReplayError as error:
        fail(tr("--at: {error}", error=tr_error(error)))
    print_position(cursor, plain=plain, moves=False)
    if moves:
        from duel.app.control.replay import numbered_moves

        typer.echo("Moves:")
        typer.echo("\n".join(numbered_moves(game)))


def register(app: typer.Typer) -> None:
    """Add ``replay`` and ``export`` to the ``duel`` app."""
    app.command()(replay)
    app.command()(export)
