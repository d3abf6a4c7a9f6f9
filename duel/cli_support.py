"""What every ``duel`` command shares: one-line errors and loading a position or record."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

if TYPE_CHECKING:
    from duel.state import State


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error (no traceback) and exit."""
    typer.echo(f"duel: {message}", err=True)
    raise typer.Exit(code)


def check_finite(name: str, value: float | None, *, positive: bool = False) -> None:
    """Exit with a one-line error unless ``value`` is a finite number (positive if asked).

    ``float("nan")`` and ``inf`` are accepted by the option parser; a time limit of NaN would
    never end a search.
    """
    if value is None:
        return
    if not math.isfinite(value):
        fail(f"{name} must be a finite number, not {value}")
    if positive and value <= 0:
        fail(f"{name} must be positive, not {value}")
    if value < 0:
        fail(f"{name} cannot be negative, not {value}")


def load_state_or_fail(path: Path) -> State:
    """A position file, or a game record (its last position); bad files exit with a message."""
    from duel.position import PositionError, position_from_json, read_json_file
    from duel.record import GameRecord, RecordError

    try:
        data = read_json_file(path, PositionError)
        if isinstance(data, dict) and data.get("format") == "7wd-record":
            return GameRecord.from_json(data).final_state()
        return position_from_json(data)
    except (PositionError, RecordError) as error:
        message = str(error)
        fail(message if message.startswith(str(path)) else f"{path}: {message}")
