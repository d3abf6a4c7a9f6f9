"""What every ``duel`` command shares: one-line errors, loading a position or record, and the
options of the commands that play many games (``--workers``, ``--out``, ``--ray``)."""

from __future__ import annotations

import contextlib
import math
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from typer.core import TyperGroup

from duel.app.control.levels import MAX_SECONDS
from duel.app.i18n import N_, N_format, tr, tr_error, tr_text

if TYPE_CHECKING:
    from duel.state import State


#: Typer/click settings every program shares: ``-h`` as well as ``--help``.
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


def version_text(program: str) -> str:
    """``duel 0.1.0`` from the installed package's metadata (``unknown`` when not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("wonders-duel")
    except PackageNotFoundError:
        number = "unknown"
    return f"{program} (wonders-duel) {number}"


def _flags_take_no_value() -> None:
    """Show an on/off flag in ``--help`` without a value type: typer (0.2x) prints ``<bool>``
    after every flag (``--plain --no-plain <bool>``, even ``--help <bool>``), as if it took a
    value. A flag's type column is left empty; every other option keeps its type."""
    from typer.core import TyperOption

    original = getattr(TyperOption, "display_type_rich", None)
    if original is None or getattr(original, "flags_take_no_value", False):
        return

    def display_type_rich(self, ctx):
        if self.is_flag and not self.count and self.metavar is None:
            return None
        return original(self, ctx)

    # marks the patch so it is applied once; setattr: the checker knows neither attribute
    setattr(display_type_rich, "flags_take_no_value", True)  # noqa: B010
    setattr(TyperOption, "display_type_rich", display_type_rich)  # noqa: B010


# --- the help in the chosen language -------------------------------------------------------------
#: typer's own words in a help page or an error panel (typer.rich_utils), for the catalogs.
TYPER_WORDS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
}
#: The help of the options click and typer add (--help, shell completion), for the catalogs.
TYPER_HELP = (
    N_("Show this message and exit."),
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
)


def _localize(obj: object, attribute: str) -> None:
    """``obj.attribute`` (a help text) in the current language, from its English kept aside."""
    english = obj.__dict__.setdefault("_english", {})
    if attribute not in english:
        english[attribute] = getattr(obj, attribute, None)
    text = english[attribute]
    if isinstance(text, str) and text:
        setattr(obj, attribute, _breakable(tr_text(text)))


def _breakable(text: str) -> str:
    """A help text that rich can wrap: it breaks lines at spaces only, and cuts a longer run of
    Chinese or Japanese with an ellipsis, so a space follows full-width punctuation.

    >>> _breakable("言語：en、zh-Hans（既定）。次")
    '言語： en、 zh-Hans（既定）。 次'
    """
    return re.sub(r"([，、。；：）])(?=[^\s，、。；：）])", r"\1 ", text)


def localize_help(group, ctx=None) -> None:
    """Every help text of ``group`` (a click group: its commands and their parameters) and
    typer's own words, in the current language. The help strings are marked with :func:`N_`
    (or :func:`N_format`) where the commands are defined; the commands' docstrings are
    extracted by tools/i18n_catalog.py."""
    from typer import rich_utils

    english = rich_utils.__dict__.setdefault("_duel_english", {})
    for name, msgid in TYPER_WORDS.items():
        english.setdefault(name, getattr(rich_utils, name))
        setattr(rich_utils, name, tr(msgid) if tr(msgid) != msgid else english[name])
    for command in [group, *getattr(group, "commands", {}).values()]:
        _localize(command, "help")
        _localize(command, "short_help")
        if command is not group and not command.__dict__["_english"].get("short_help"):
            # The command list shows the help's first paragraph as one line: typer keeps the
            # docstring's line breaks there, which broke sentences in `duel --help`.
            first = (command.help or "").split("\n\n")[0]
            command.short_help = " ".join(first.split()) or None
        help_option = command.get_help_option(ctx) if ctx is not None else None
        for param in [*command.params, *([help_option] if help_option else [])]:
            _localize(param, "help")


class LocalizedGroup(TyperGroup):
    """A program's command group whose help is in the chosen language: ``--lang``, ``--names``
    (:func:`duel.app.i18n.argv_language`) and the environment are read when the arguments are
    parsed, before ``--help`` (an eager option) prints, then :func:`localize_help`."""

    def parse_args(self, ctx, args):
        from duel.app.i18n import argv_language, set_language

        lang, names = argv_language(list(args))
        with contextlib.suppress(ValueError):  # the --lang option's callback says what is wrong
            set_language(lang, names)
        localize_help(self, ctx)
        return super().parse_args(ctx, args)


def add_common_options(app: typer.Typer, program: str) -> None:
    """Give ``app`` a ``--version`` option (``-h``/``--help``: :data:`CONTEXT_SETTINGS`),
    flags shown as flags in ``--help`` (:func:`_flags_take_no_value`), ``--lang`` and
    ``--names``, and its help in the chosen language (:class:`LocalizedGroup`)."""
    _flags_take_no_value()
    app.info.cls = LocalizedGroup

    def show_version(value: bool) -> None:
        if value:
            typer.echo(version_text(program))
            raise typer.Exit()

    @app.callback()
    def common(
        version: bool = typer.Option(
            False,
            "--version",
            "-V",
            help=N_("Show the version and exit."),
            callback=show_version,
            is_eager=True,
        ),
        lang: str | None = typer.Option(
            None,
            "--lang",
            help=N_(
                "Language: en, zh-Hans, zh-Hant or ja (default: $DUEL_LANG, else the locale,"
                " LC_ALL/LC_MESSAGES/LANG; English where nothing matches)."
            ),
            metavar="LANG",
        ),
        names: str | None = typer.Option(
            None,
            "--names",
            help=N_(
                "Card, wonder and token names: english, community (names with a well-attested"
                " community translation; the Chinese default) or all (every community name found)."
                " Default: $DUEL_NAMES, else english in English and Japanese."
            ),
            metavar="MODE",
        ),
    ) -> None:
        from duel.app.i18n import set_language

        try:
            set_language(lang, names)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--lang/--names") from None

    common.__doc__ = app.info.help


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error (no traceback) and exit."""
    typer.echo(f"duel: {message}", err=True)
    raise typer.Exit(code)


def fail_reading(path: Path, error: BaseException) -> NoReturn:
    """Exit with why the file at ``path`` does not read: ``error``'s message in the user's
    language, the file named once."""
    message = tr_error(error)
    fail(
        message
        if message.startswith(str(path))
        else tr("{path}: {error}", path=path, error=message)
    )


def use_palette(name: str | None) -> None:
    """Set the colours for this run (``--palette``, else ``$DUEL_PALETTE``); bad names fail."""
    from duel.app.text.render import set_palette

    try:
        set_palette(name.strip().lower() if name else None)
    except ValueError as error:
        fail(str(error))


def check_finite(name: str, value: float | None, *, positive: bool = False) -> None:
    """Exit with a one-line error unless ``value`` is a finite number (not negative); with
    ``positive``, a time budget: more than 0 and at most :data:`MAX_SECONDS` (a day).

    ``float("nan")`` and ``inf`` are accepted by the option parser; a time limit of NaN would
    never end a search, and one of 1e308 s never ends either.
    """
    if value is None:
        return
    most = f"{MAX_SECONDS:,.0f}"
    if positive and not math.isfinite(value):
        fail(
            tr(
                "{option} must be a finite number of seconds, more than 0 and at most {most},"
                " not {value}",
                option=name,
                most=most,
                value=value,
            )
        )
    if positive and not 0 < value <= MAX_SECONDS:
        fail(
            tr(
                "{option} must be positive and at most {most} seconds, not {value}",
                option=name,
                most=most,
                value=value,
            )
        )
    if not math.isfinite(value):
        fail(tr("{option} must be a finite number, not {value}", option=name, value=value))
    if value < 0:
        fail(tr("{option} cannot be negative, not {value}", option=name, value=value))


def load_state_or_fail(path: Path) -> State:
    """A position file, or a game record (its last position); bad files exit with a message."""
    from duel.expansions.position import is_xposition
    from duel.files import read_json_file
    from duel.position import PositionError, position_from_json
    from duel.record import GameRecord, RecordError

    try:
        data = read_json_file(path, PositionError)
        if is_xposition(data):
            fail(
                tr(
                    "{path}: a position with expansions: this command reads positions without "
                    "them for now; duel show and duel hint read it",
                    path=path,
                )
            )
        if isinstance(data, dict) and data.get("format") == "7wd-record":
            return GameRecord.from_json(data).final_state()
        return position_from_json(data)
    except (PositionError, RecordError) as error:
        fail_reading(path, error)


# --- many games at once (duel.solvers.batch) ----------------------------------------------------
WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        help=N_format(N_("Worker processes \\[default: every core, {} here]"), os.cpu_count() or 1),
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help=N_("Write each game as it ends (JSON lines); the same command again resumes the run"),
    ),
]
RayOption = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="[ADDRESS]",
        help=N_(
            "Run on a Ray cluster (pip install -e '.\\[cluster]'): its ADDRESS, or none for"
            " this machine's cluster or a new local one"
        ),
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
    from duel.solvers.batch import BatchError, BatchInterrupted

    try:
        yield
    except BatchInterrupted as interrupted:
        typer.echo(f"\nduel: {interrupted}", err=True)
        raise typer.Exit(130) from None
    except BatchError as error:
        fail(str(error))
    except KeyboardInterrupt:  # between two games, outside the batch layer
        typer.echo(
            "\nduel: " + tr("interrupted; with --out FILE, the same command resumes"), err=True
        )
        raise typer.Exit(130) from None


