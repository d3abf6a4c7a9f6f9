"""What every ``duel`` command shares: one-line errors, loading a position or record, and the
options of the commands that play many games (``--workers``, ``--out``, ``--ray``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from duel.state import State


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error (no traceback) and exit."""
    typer.echo(f"duel: {message}", err=True)
    raise typer.Exit(code)


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


# --- many games at once (solvers.batch) ---------------------------------------------------------
WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        help=f"Worker processes \\[default: every core, {os.cpu_count() or 1} here]",
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Write each game as it ends (JSON lines); the same command again resumes the run",
    ),
]
RayOption = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="[ADDRESS]",
        help="Run on a Ray cluster (pip install -e '.\\[cluster]'): its ADDRESS, or none for"
        " this machine's cluster or a new local one",
    ),
]


def expand_optional_values(args: list[str], options: tuple[str, ...] = ("--ray",)) -> list[str]:
    """Let ``--ray`` stand alone: ``--ray`` with no address becomes ``--ray=``.

    The next word is taken as the address only if it looks like one (``host:port``,
    ``ray://...``, ``auto``, ``local``), so ``duel match --ray random greedy`` works too.

    >>> expand_optional_values(["match", "a", "b", "--ray"])
    ['match', 'a', 'b', '--ray=']
    >>> expand_optional_values(["--ray", "10.0.0.1:6379", "--games", "4"])
    ['--ray', '10.0.0.1:6379', '--games', '4']
    """
    out = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg in options:
            following = args[i + 1] if i + 1 < len(args) else ""
            if ":" not in following and following not in ("auto", "local"):
                out[-1] = f"{arg}="
    return out


@contextmanager
def batch_errors() -> Iterator[None]:
    """A batch run's failure is one line; Ctrl-C says how to resume and exits with 130."""
    from solvers.batch import BatchError, BatchInterrupted

    try:
        yield
    except BatchInterrupted as interrupted:
        typer.echo(f"\nduel: {interrupted}", err=True)
        raise typer.Exit(130) from None
    except BatchError as error:
        fail(str(error))
    except KeyboardInterrupt:  # between two games, outside the batch layer
        typer.echo("\nduel: interrupted; with --out FILE, the same command resumes", err=True)
        raise typer.Exit(130) from None
