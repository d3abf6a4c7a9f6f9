"""The ``duel`` command: play, inspect positions, price cards, self-play, analyse.

Heavy modules (rich rendering, search, OR-Tools) are imported inside the commands so that
``duel --help`` stays fast.
"""

from __future__ import annotations

import json
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from duel.app.cli.support import (
    CONTEXT_SETTINGS,
    OutOption,
    RayOption,
    WorkersOption,
    add_common_options,
    batch_errors,
    check_finite,
    expand_optional_values,
    fail,
    load_state_or_fail,
    use_palette,
)
from duel.app.i18n import N_, N_format, tr, tr_reason
from duel.quote import quoted
from duel.reason import Reason, reason_of

app = typer.Typer(
    name="duel",
    help=N_("7 Wonders Duel: play in the terminal, inspect and analyse positions."),
    no_args_is_help=True,
    context_settings=CONTEXT_SETTINGS,
    pretty_exceptions_enable=False,
)
add_common_options(app, "duel")


PLAYER_HELP = N_(
    "Player {}: human, random, greedy, search, search-v1, mcts, cmcts (the strongest) or cmcts-v1"
    " (search:2s, cmcts:0.5s, mcts:5000 for a budget) \\[default: {}, or the saved game's]"
)


@app.command()
def play(
    a: Annotated[
        str | None, typer.Option("--a", "-a", help=N_format(PLAYER_HELP, "A", N_("human")))
    ] = None,
    b: Annotated[
        str | None,
        typer.Option("--b", "-b", help=N_format(PLAYER_HELP, "B", N_("cmcts, --think s a move"))),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help=N_("Seed of the dealer (and of the AI)"))
    ] = None,
    load: Annotated[Path | None, typer.Option(help=N_("Continue a saved game"))] = None,
    delay: Annotated[float, typer.Option(help=N_("Seconds between AI moves (to watch)"))] = 0.0,
    think: Annotated[
        float | None,
        typer.Option(
            help=N_(
                "Seconds per move for the search, mcts and cmcts AIs"
                " \\[default: 1, or the saved expansion game's]"
            ),
            show_default=False,
        ),
    ] = None,
    plain: Annotated[bool, typer.Option(help=N_("Plain text, no colours or table"))] = False,
    line: Annotated[
        bool,
        typer.Option(help=N_("The drawn table with a line prompt instead of the full-screen app")),
    ] = False,
    manual_chance: Annotated[
        bool, typer.Option(help=N_("Type each chance outcome yourself (a real game's cards)"))
    ] = False,
    palette: PaletteOption = None,
    expansions: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "Play with expansions: pantheon, agora or both (pantheon,agora); AI levels"
                " random, greedy, mcts, cmcts"
            )
        ),
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            help=N_(
                "With --expansions: save the game to FILE after each move (default:"
                " duel-xgame-ID.json in the data folder); the full record once it ends"
            )
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help=N_("Let --record replace a file that exists"))
    ] = False,
) -> None:
    """Play a game: two humans, human against an AI level, or AI against AI. With no seat,
    seed, saved game or mode given, the full-screen app opens on its start screen."""
    check_finite("--delay", delay)
    check_finite("--think", think, positive=True)
    if load is not None and expansions is None:
        from duel.app.control.xsaves import is_expansion_file

        if is_expansion_file(load):
            expansions = ""  # the save names them
    if expansions is not None:
        if load is not None and (record is not None or seed is not None):
            fail(
                tr(
                    "--load continues the saved game with its own dealer and file: "
                    "--seed and --record cannot be combined with it"
                )
            )
        if manual_chance:
            fail(tr("--expansions cannot be combined with {option} yet", option="--manual-chance"))
        full_screen = not (line or plain) and sys.stdin.isatty() and sys.stdout.isatty()
        if record is not None and not force:
            from duel.app.control.xsaves import record_refusal

            refusal = record_refusal(record)
            if refusal is not None:
                fail(refusal)
        code = _play_expansions(expansions, (a, b), seed, think, record, load, full_screen)
        raise typer.Exit(code)
    use_palette(palette)
    raise typer.Exit(
        _play_base(
            (a, b),
            seed=seed,
            load=load,
            delay=delay,
            think=1.0 if think is None else think,
            plain=plain,
            manual_chance=manual_chance,
            full_screen=not (line or plain) and on_a_terminal(),
        )
    )


def on_a_terminal() -> bool:
    """Standard input and output both a terminal: the full-screen app can run."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # replaced or closed streams
        return False


def _play_base(
    seats: tuple[str | None, str | None],
    *,
    seed: int | None,
    load: Path | None,
    delay: float,
    think: float,
    plain: bool,
    manual_chance: bool,
    full_screen: bool,
) -> int:
    """``duel play`` without expansions: full screen on a terminal (``--line``, ``--plain`` or a
    pipe: the line mode); with no seat, seed, saved game or typed deal given, the app opens on
    its start screen, where the player chooses the game (the README's ``duel play``; any of
    these options starts the game directly, as scripts and tests expect)."""
    import contextlib

    from duel.app.control.saves import clean_old_autosaves

    with contextlib.suppress(Exception):  # a clean-up that fails costs nothing
        clean_old_autosaves()
    if not full_screen:
        from duel.app.line.play import run_game

        return run_game(
            seats,
            seed=seed,
            load=load,
            delay=delay,
            think=think,
            plain=plain,
            manual_chance=manual_chance,
        )
    from duel.app.screen.app import run_app

    if (*seats, seed, load) == (None, None, None, None) and not manual_chance:
        return run_app(None, think=think, delay=delay)
    from duel.app.line.play import open_game

    session = open_game(
        seats,
        seed=seed,
        load=load,
        delay=delay,
        think=think,
        plain=plain,
        manual_chance=manual_chance,
    )
    if isinstance(session, int):
        return session
    return run_app(session.game, think=think, delay=delay)


def _play_expansions(
    names: str,
    seats: tuple[str | None, str | None],
    seed: int | None,
    think: float | None,
    record: Path | None,
    load: Path | None,
    full_screen: bool,
) -> int:
    from duel.expansions import EXPANSIONS

    chosen = tuple(sorted({n.strip().lower() for n in names.split(",") if n.strip()}))
    unknown = [n for n in chosen if n not in EXPANSIONS]
    if load is None and (unknown or not chosen):
        fail(
            tr(
                "--expansions: {value} is not an expansion this program plays ({names})",
                value=quoted(unknown[0] if unknown else names),
                names=", ".join(EXPANSIONS),
            )
        )
    if full_screen:
        from duel.app.screen.xapp import play_xgame

        return play_xgame(chosen, seats, seed=seed, think=think, record=record, load=load)
    from duel.app.line.xplay import run_xgame

    return run_xgame(chosen, seats, seed=seed, think=think, record=record, load=load)


PaletteOption = Annotated[
    str | None,
    typer.Option(
        "--palette",
        help=N_("Colours: default or colorblind (also $DUEL_PALETTE) [default: default]"),
    ),
]


@app.command()
def show(
    file: Annotated[
        Path | None,
        typer.Argument(help=N_("A position (JSON) or a game record"), show_default=False),
    ] = None,
    plain: Annotated[
        bool | None,
        typer.Option(
            "--plain/--drawn",
            help=N_(
                "Plain text, or the drawn table [default: drawn on a terminal, plain in a pipe]"
            ),
            show_default=False,
        ),
    ] = None,
    palette: PaletteOption = None,
    at: Annotated[
        int | None,
        typer.Option(
            "--at", help=N_("A record's position after move N (0: the start; -1: the end)")
        ),
    ] = None,
    moves: Annotated[bool, typer.Option("--moves", help=N_("A record's move list too"))] = False,
    slots: Annotated[
        bool, typer.Option("--slots", help=N_("Each Age's structure with its slot numbers"))
    ] = False,
) -> None:
    """Print a position (or a game record's final position, or the one --at N) readably."""
    from duel.app.text.render import print_state

    use_palette(palette)
    if slots:
        from duel.slots import slot_diagrams

        typer.echo(slot_diagrams(tr))
        return
    if file is None:
        fail(tr("show: give a position or a record (or --slots)"))
    from duel.app.cli.xfiles import show_expansion_file
    from duel.app.control.xsaves import is_expansion_file

    if is_expansion_file(file):
        raise typer.Exit(show_expansion_file(file, at))
    if at is not None or moves:
        from duel.app.cli.replay import show_record

        show_record(file, at, moves, plain)
        return
    state = load_state_or_fail(file)
    print_state(state, plain=plain)


@app.command()
def cost(
    position: Annotated[Path, typer.Argument(help=N_("A position (JSON)"))],
    item: Annotated[str, typer.Argument(help=N_("A card or wonder name"))],
    player: Annotated[
        str, typer.Option("--player", "-p", help=N_("A or B (default: to move)"))
    ] = "",
    as_json: Annotated[bool, typer.Option("--json", help=N_("Machine-readable output"))] = False,
) -> None:
    """Explain the cheapest way to pay for a card or wonder."""
    from duel.catalog import UnknownNameError, card_named, wonder_named
    from duel.solvers.payment import payment_plan

    state = load_state_or_fail(position)
    if player and player.upper() not in ("A", "B"):
        fail(tr("--player must be A or B, not {value}", value=quoted(player)))
    who = "AB".index(player.upper()) if player else state.to_move
    try:
        plan = payment_plan(state, who, card=card_named(item).id)
    except UnknownNameError as card_error:
        try:
            plan = payment_plan(state, who, wonder=wonder_named(item))
        except UnknownNameError:
            near = getattr(reason_of(card_error), "values", {}).get("names")
            value = quoted(item.strip())
            if near:
                did_you_mean = Reason(
                    "no card or wonder named {value}; did you mean {names}?",
                    value=value,
                    names=tuple(near),
                )
                fail(tr_reason(did_you_mean))
            fail(tr("no card or wonder named {value}", value=value))
    if as_json:
        typer.echo(json.dumps(plan.to_json(), indent=1))
    else:
        typer.echo("\n".join(tr_reason(line) for line in plan.describe()))


@app.command()
def selfplay(
    games: Annotated[int, typer.Option("--games", "-g", min=1, help=N_("Number of games"))] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help=N_("Seed"))] = 0,
    workers: WorkersOption = None,
    out: OutOption = None,
    ray: RayOption = None,
) -> None:
    """Random against random: a summary of results and victory types."""
    import time
    from collections import Counter

    from duel.solvers.batch import default_workers, run_jobs
    from duel.solvers.match import match_jobs, play_match_game_json

    victories: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    start = time.perf_counter()
    jobs = match_jobs("random", "random", games=games, seed=seed)
    with batch_errors():
        for game in run_jobs(
            play_match_game_json,
            jobs,
            workers=workers or default_workers(),
            out=out,
            ray=ray,
            label="random games",
        ):
            victories[game["victory"]] += 1
            winners["shared" if game["winner"] is None else "AB"[game["winner"]]] += 1
    elapsed = time.perf_counter() - start
    # With --out some games may have been read back rather than played: no rate then.
    rate = f"results in {out}" if out is not None else f"{games / elapsed:.0f}/s"
    typer.echo(f"{games} random games (seed {seed}) in {elapsed:.2f} s ({rate})")
    typer.echo(f"wins: A {winners['A']}, B {winners['B']}, shared {winners['shared']}")
    for victory in ("civilian", "military", "science"):
        share = 100 * victories[victory] / games
        typer.echo(f"  {victory:9} {victories[victory]:6} ({share:.1f}%)")


from duel.app.cli.replay import register as register_replay  # noqa: E402 (after the commands)

register_replay(app)

if find_spec("duel.app.cli.analysis") is not None:  # hint, analyze, match (solvers)
    from duel.app.cli.analysis import register

    register(app)

if find_spec("duel.app.cli.review") is not None:  # review (solvers)
    from duel.app.cli.review import register as register_review

    register_review(app)


if find_spec("websockets") is not None:  # host, join, server: the network game
    from duel.net.cli import register as register_net

    register_net(app)


def main() -> NoReturn:
    try:
        app(args=expand_optional_values(sys.argv[1:]))
    except KeyboardInterrupt:
        typer.echo("\n" + tr("interrupted"), err=True)
        sys.exit(130)
    sys.exit(0)
