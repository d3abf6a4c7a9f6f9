"""What every ``duel`` command shares: one-line errors and loading a position or record."""

from __future__ import annotations

import math
import re
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


_NUMBER = re.compile(r"[0-9]+")
#: Larger numbers are never a choice; they are read as "too big" without converting them.
_MAX_DIGITS = 6


def number(text: str) -> int | None:
    """``text`` as a choice number: ASCII digits only ("²" or "٣" are not numbers here).

    A number of more than six digits is returned as 10**6 (out of every range) rather than
    converted: Python refuses ints of more than 4,300 digits.

    >>> number("12"), number(" 3 "), number("²"), number("x"), number("9" * 5000)
    (12, 3, None, None, 1000000)
    """
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        return None
    return int(text) if len(text) <= _MAX_DIGITS else 10**_MAX_DIGITS
