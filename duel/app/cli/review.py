"""``duel review``: every decision of a saved game analysed, marked, summed up and graphed.

The review itself is :mod:`duel.solvers.review` (no I/O); the drawing is
:mod:`duel.app.text.review`.
This module reads the options, has the positions analysed on every core (:mod:`duel.solvers.batch`,
with its progress bar), and prints the moves, the graph and the summary, or the JSON. Bad input
(a missing or malformed record, a position file, an unknown level, a bad ``--plot`` file) is
one line.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from duel.app.cli.support import WorkersOption, batch_errors, check_finite, fail
from duel.app.i18n import N_, N_format, tr
from duel.app.text.review import print_review

LEVEL_HELP = N_(
    "The analysing AI, any level that can analyse: cmcts (the hint's engine: calibrated MCTS,"
    " exact in small Age III endgames; thinks --time per move), cmcts:N (N iterations per move,"
    " reproducible), cmcts:Ss; search, search-v1 and mcts likewise; greedy (one ply, instant)"
)


def review(
    record: Annotated[Path, typer.Argument(help=N_("A saved game or game record (JSON)"))],
    seconds: Annotated[
        float, typer.Option("--time", help=N_("Seconds of analysis per decision"))
    ] = 1.0,
    level: Annotated[
        str | None,
        typer.Option(
            "--level", help=N_format(N_("{} [default: cmcts, or search without it]"), LEVEL_HELP)
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help=N_("Also write the graph to FILE.svg (or .png: matplotlib)")),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("The whole review as JSON"))] = False,
    workers: WorkersOption = None,
    chance: Annotated[
        bool, typer.Option("--chance/--no-chance", help=N_("List what chance dealt"))
    ] = True,
    app: Annotated[
        bool,
        typer.Option(
            "--app",
            help="Step through the review in the full-screen app: the board at each move, the "
            "graph, the best moves; p plays on from the position shown",
        ),
    ] = False,
) -> None:
    """Review a game: every decision's win chance, the best move, the loss, the mistakes marked,
    a graph of A's chances and a summary per player."""
    from duel.app.cli.replay import load_replay_or_fail
    from duel.app.text.review import PlotError, check_plot_path, write_plot
    from duel.solvers.players import UnknownLevelError
    from duel.solvers.review import check_level, review_record

    check_finite("--time", seconds, positive=True)
    from duel.app.control.xsaves import is_expansion_file

    if is_expansion_file(record):
        if app or plot is not None:
            fail(
                tr(
                    "review: {option} is for base games; an expansion game's review is printed",
                    option="--app" if app else "--plot",
                )
            )
        review_expansion_game(record, seconds=seconds, level=level, as_json=as_json)
        return
    if level is None:  # the hints' engine, where this machine has it
        from duel.app.control.levels import default_player

        level = default_player("cmcts")
    try:
        check_level(level, seconds)
        if plot is not None:
            check_plot_path(plot)
    except (UnknownLevelError, PlotError) as error:
        fail(str(error))
    game = load_replay_or_fail(record)
    if app:
        if as_json or plot is not None:
            fail("review: --app shows the review on the screen; without --json and --plot")
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            fail("review: --app needs a terminal")
        from duel.app.screen.app import run_app

        raise typer.Exit(
            run_app(
                None,
                think=1.0,
                delay=0.0,
                review=game.record,
                review_level=level,
                review_seconds=seconds,
                review_workers=workers,
            )
        )
    start = time.perf_counter()
    with batch_errors():
        result = review_record(
            game.record,
            seconds=seconds,
            level=level,
            workers=workers,
            progress=sys.stderr.isatty(),
        )
    elapsed = time.perf_counter() - start
    if plot is not None:
        try:
            write_plot(result, game.last, plot)
        except (PlotError, OSError) as error:
            fail(str(error))
    if as_json:
        data = result.to_json()
        data["record"] = str(record)
        data["seconds_taken"] = round(elapsed, 1)
        typer.echo(json.dumps(data, indent=1))
        return
    print_review(result, game.last, chance=chance, final=game.states[-1])
    elapsed_text = f"{elapsed:.0f}"
    typer.echo(
        tr("Reviewed in {time} s; graph written to {path}", time=elapsed_text, path=plot)
        if plot
        else tr("Reviewed in {time} s", time=elapsed_text)
    )


def review_expansion_game(
    path: Path, *, seconds: float, level: str | None, as_json: bool
) -> None:
    """``duel review`` of an expansion game's record: each decision judged by the expansion
    player's search (:mod:`duel.solvers.xreview`), ``--time`` seconds each (``--level cmcts:N``:
    N iterations, reproducible)."""
    from duel.app.cli.replay import load_replay_or_fail
    from duel.app.text.lines import position_text
    from duel.moves import PLAYER_NAMES
    from duel.solvers.xplayers import DEFAULT_XLEVEL
    from duel.solvers.xreview import review_xrecord, summary

    iterations = None
    if level is not None:
        name, _, budget = level.partition(":")
        budget_ok = not budget or budget.rstrip("s").replace(".", "", 1).isdigit()
        if name not in ("cmcts", "mcts") or not budget_ok:
            fail(
                tr(
                    "--level: an expansion game is reviewed by the hint's engine (cmcts, cmcts:N"
                    " iterations or cmcts:Ss), not {level}",
                    level=level,
                )
            )
        if budget.endswith("s"):
            seconds = float(budget[:-1])
        elif budget:
            iterations = int(float(budget))
    game = load_replay_or_fail(path)
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\r{done}/{total}", end="" if done < total else "\n", file=sys.stderr)

    judged = review_xrecord(
        game.record,
        iterations=iterations,
        seconds=None if iterations is not None else seconds,
        progress=progress,
    )
    elapsed = time.perf_counter() - start
    if as_json:
        data = {
            "record": str(path),
            "expansions": list(game.record.expansions),
            "engine": DEFAULT_XLEVEL,
            "iterations": iterations,
            "seconds": None if iterations is not None else seconds,
            "decisions": [
                {
                    "number": j.number,
                    "player": PLAYER_NAMES[j.player],
                    "move": str(j.move),
                    "value": round(j.value, 4),
                    "best": str(j.best),
                    "best_value": round(j.best_value, 4),
                    "loss": round(j.loss, 4),
                    "mark": j.mark,
                }
                for j in judged
            ],
            "seconds_taken": round(elapsed, 1),
        }
        typer.echo(json.dumps(data, indent=1))
        return
    typer.echo(
        tr(
            "Every decision: the win chance of the move played for the player who made it (a"
            " shared victory counts 1/2), its loss against the engine's best move, and its mark."
        )
    )
    for j in judged:
        best = "" if j.best == j.move else "  " + tr(
            "best: {move} {value}", move=str(j.best), value=f"{j.best_value:.0%}"
        )
        loss = f"  -{j.loss:.0%}" if j.loss >= 0.005 else ""
        typer.echo(
            f"{j.number:4}. {PLAYER_NAMES[j.player]} {j.move}  {j.value:.0%}{loss}{best}"
            + (f"  {j.mark}" if j.mark else "")
        )
    final = game.states[-1]
    result = (
        position_text(final)
        if final.is_terminal()
        else tr("unfinished: {position}", position=final.describe())
    )
    typer.echo(tr("Result: {result}", result=result))
    for player in (0, 1):
        s = summary(judged, player)
        typer.echo(
            tr(
                "{player}: {n} decisions judged, mean loss {loss}; {inaccuracies} inaccuracies,"
                " {mistakes} mistakes, {blunders} blunders",
                player=PLAYER_NAMES[player],
                n=s.decisions,
                loss=f"{s.mean_loss:.1%}",
                inaccuracies=s.inaccuracies,
                mistakes=s.mistakes,
                blunders=s.blunders,
            )
        )
    budget_text = (
        tr("{n} iterations a decision", n=iterations)
        if iterations is not None
        else tr("{seconds} s a decision", seconds=f"{seconds:g}")
    )
    typer.echo(
        tr(
            "Engine: the expansion player's search (mcts), {budget}; marks from a loss of 5%"
            " (inaccuracy), 10% (mistake), 20% (blunder). Reviewed in {time} s.",
            budget=budget_text,
            time=f"{elapsed:.0f}",
        )
    )


def register(app: typer.Typer) -> None:
    """Add ``review`` to the ``duel`` app."""
    app.command()(review)
