"""``duel hint``, ``duel analyze`` and ``duel match``: the solver on the command line.

Only typer is imported at module level; the search, the players and rich are imported inside
the commands so that ``duel --help`` stays fast. Bad input (a missing or malformed file, an
unknown player level, a bad limit) prints one line and exits with code 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from duel.app.cli.support import (
    OutOption,
    RayOption,
    WorkersOption,
    batch_errors,
    check_finite,
    fail,
    load_state_or_fail,
)
from duel.app.i18n import N_, tr, tr_error, tr_reason
from duel.quote import quoted

VALUE_NOTE = N_("chance of winning for {player}, a shared victory counting 1/2")


def _limit(seconds: float | None, nodes: int | None, depth: int | None, default_time: float | None):
    from duel.solvers.search import MAX_DEPTH, MAX_NODES, Limit

    check_finite("--time", seconds, positive=True)
    for name, value, top in (("--nodes", nodes, MAX_NODES), ("--depth", depth, MAX_DEPTH)):
        if value is not None and not 1 <= value <= top:
            fail(
                tr(
                    "{option} must be between 1 and {top}, not {value}",
                    option=name,
                    top=f"{top:,}",
                    value=quoted(value),
                )
            )
    if seconds is None and nodes is None and depth is None:
        seconds = default_time
    return Limit(time=seconds, nodes=nodes, depth=depth)


def _position_text(state) -> str:
    from duel.app.text.lines import position_text

    return position_text(state)


def _memory(text: str | None) -> int | None:
    """``--memory`` in MB as bytes (None: the default budget); a bad value fails in one line.

    >>> _memory("64")
    67108864
    """
    if text is None:
        return None
    try:
        megabytes = float(text)
    except ValueError:
        fail(tr("--memory must be a number of MB, not {value}", value=quoted(text)))
    if not megabytes >= 1:  # also rejects NaN
        fail(tr("--memory must be at least 1 (MB), not {value}", value=f"{megabytes:g}"))
    if megabytes > 1 << 20:
        fail(tr("--memory is in MB: {value} MB is more than a terabyte", value=f"{megabytes:g}"))
    return int(megabytes * 1024 * 1024)


def _pct(value: float) -> str:
    from duel.solvers.spread import pct

    return pct(value)


def _line(state, pv, verbose: bool) -> str:
    from duel.app.text.lines import line_text

    through = verbose or state.is_chance()
    return line_text(state, pv, through_chance=through)


def _kind_note(info, spread) -> str:
    """One sentence for the player on what the values are."""
    if info.extra.get("engine") == "rules":
        return tr("A move ends the game at once: no search is needed.")
    if info.exact:
        if any(m.bound == "estimate" for m in info.moves):
            return tr(
                "Values marked exact were searched to the end of the game; the others are the"
                " strongest player's estimates."
            )
        return tr("Values are exact: every line was searched to the end of the game.")
    if info.extra.get("engine") == "cmcts":
        if info.extra["calibrated"]:
            return tr(
                "Values are win chances estimated by the strongest player (Monte Carlo tree"
                " search, {n} simulated games), calibrated on self-play games; the range shows"
                " how much they move between independent searches.",
                n=f"{info.nodes:,}",
            )
        return tr(
            "Values are win chances estimated by the strongest player (Monte Carlo tree"
            " search, {n} simulated games); the range shows how much they move between"
            " independent searches.",
            n=f"{info.nodes:,}",
        )
    if not info.extra.get("finished", False):
        head = tr(
            "Values are estimates: the search looks a few moves ahead and then judges the position"
        )
    else:
        head = tr("Values are estimates")
    if info.sampled:
        if spread is not None and len(spread.seeds) >= 1:
            return tr(
                "{values}; unseen cards were sampled, and the range shows how much the values"
                " move between independent samplings.",
                values=head,
            )
        return tr(
            "{values}; unseen cards were sampled (no time was left to measure the spread).",
            values=head,
        )
    return tr("{values}.", values=head)


def _info_json(state, info, spread=None) -> dict:
    d = info.to_dict()
    d["engine"] = info.extra.get("engine", "search")
    d["position"] = state.describe()
    d["value_definition"] = (
        "P(win) + P(shared)/2 for the player to move ('value'), for A ('value_a')"
    )
    d["margin_definition"] = (
        "expected final point margin A minus B under the solver's moves (exact solves only)"
    )
    from duel.app.text.lines import line_steps

    d["line"] = [{"player": who, "move": text} for who, text in line_steps(state, info.pv)]
    if d["engine"] == "cmcts":
        extra = info.extra
        d["calibrated"] = extra["calibrated"]
        d["calibration"] = extra.get("calibration")
        d["raw_values"] = extra["raw"]
        d["visits"] = extra["visits"]
        d["spread"] = {
            "method": (
                "independent MCTS trees with other seeds, each with an equal share of the"
                " budget; values[move] lists the move's calibrated value in each tree that"
                " visited it"
            ),
            "seeds": extra["tree_seeds"],
            "values": extra["spread"],
        }
    if spread is not None:
        d["spread"] = {
            "method": (
                "each move searched again to the same depth with other chance-sampling seeds;"
                " values[move] lists the main search's value first, then one per seed"
            ),
            "seeds": [info.seed, *spread.seeds],
            "values": {str(m): v for m, v in spread.values.items()},
            "nodes": spread.nodes,
        }
    return d


def _print_moves(state, info, top: int, spread=None, verbose: bool = False) -> None:
    from duel.app.text.lines import position_text
    from duel.solvers.spread import value_text

    player = "AB"[state.to_move]
    typer.echo(tr("Position: {position}", position=position_text(state)))
    if not info.moves:
        kind = tr("exact") if info.exact else tr("estimate")
        typer.echo(
            tr(
                "Value for A: {value} {kind} (no decision here: next comes chance)",
                value=_pct(info.value.a),
                kind=kind,
            )
        )
        if info.pv:
            typer.echo(tr("Line: {line}", line=_line(state, info.pv, verbose)))
        return
    typer.echo(
        tr(
            "Best moves for {player} ({note}):",
            player=player,
            note=tr(VALUE_NOTE, player=player),
        )
    )
    width = max(len(str(m.move)) for m in info.moves[:top])
    for i, m in enumerate(info.moves[:top], 1):
        typer.echo(f"  {i}. {str(m.move):{width}}  {value_text(info, m, spread, tr=tr)}")
    typer.echo(tr("Line: {line}", line=_line(state, info.pv, verbose)))
    typer.echo(_kind_note(info, spread))


PositionArgument = Annotated[Path, typer.Argument(help=N_("A position (JSON) or a game record"))]
NodesOption = Annotated[
    int | None,
    typer.Option(
        "--nodes",
        help=N_("Budget (reproducible): MCTS iterations, or nodes where the search answers"),
    ),
]
DepthOption = Annotated[
    int | None, typer.Option("--depth", help=N_("Depth in plies (the expectiminimax search)"))
]
TopOption = Annotated[int, typer.Option("--top", help=N_("How many moves to show"))]
ChanceSeedOption = Annotated[int, typer.Option(help=N_("Seed for sampled chance"))]
JsonOption = Annotated[bool, typer.Option("--json", help=N_("Machine-readable output"))]
MemoryOption = Annotated[
    str | None,
    typer.Option("--memory", help=N_("Memory budget of the search in MB [default: 512]")),
]


def _position_to_analyse(position: Path, top: int):
    if top < 1:
        fail(tr("--top must be at least 1, not {value}", value=top))
    state = load_state_or_fail(position)
    if state.is_terminal():
        fail(
            tr(
                "{path}: the game is over ({position})",
                path=position,
                position=_position_text(state),
            ),
            1,
        )
    return state


VerboseOption = Annotated[
    bool,
    typer.Option(
        "--verbose", "-v", help=N_("Search statistics, and the line through chance outcomes")
    ),
]


def hint(
    position: PositionArgument,
    seconds: Annotated[
        float | None,
        typer.Option(
            "--time",
            help=N_("Seconds to think in all [default: 48,000 MCTS iterations; the search: 2 s]"),
        ),
    ] = None,
    nodes: NodesOption = None,
    depth: DepthOption = None,
    top: TopOption = 3,
    seed: ChanceSeedOption = 0,
    as_json: JsonOption = False,
    verbose: VerboseOption = False,
    memory: MemoryOption = None,
) -> None:
    """The strongest player's best moves, their win chances (calibrated; exact in small
    endgames) with how much they vary, and the expected line."""
    from duel.app.cli.xfiles import hint_record
    from duel.app.control.xsaves import is_expansion_file

    if is_expansion_file(position):
        raise typer.Exit(hint_record(position, seconds, top, seed, as_json, nodes))
    state = _position_to_analyse(position, top)
    limit = _limit(seconds, nodes, depth, None)  # no limit: each engine's default
    budget = _memory(memory)
    if state.is_chance():
        _print_chance(state, limit, seed, budget, as_json)
        return
    from duel.solvers.hint import cmcts_available, hint_analysis
    from duel.solvers.spread import advise

    streamed = []

    def on_estimate(estimate) -> None:
        """The estimate, shown while the exact solve runs (a JSON line of its own)."""
        streamed.append(estimate)
        if as_json:
            typer.echo(json.dumps({**_info_json(state, estimate), "stage": "estimate"}))
            return
        _print_moves(state, estimate, top, None, verbose)
        stage = estimate.extra["exact_stage"]
        typer.echo(
            tr(
                "Solving exactly (at most {time} s on {threads} threads; Ctrl-C keeps the estimate above)...",  # noqa: E501
                time=f"{stage['seconds']:g}",
                threads=stage["threads"],
            )
        )

    if limit.depth is None and cmcts_available():
        info, spread = (
            hint_analysis(
                state,
                iterations=limit.nodes,
                seconds=limit.time,
                top=top,
                seed=seed,
                memory=budget,
                on_estimate=on_estimate,
            ),
            None,
        )
    else:
        info, spread = advise(state, limit, top=top, seed=seed, memory=budget)
    if as_json:
        d = {**_info_json(state, info, spread), "stage": "final"}
        # streamed: JSON Lines (the estimate's line, then this one); else one document
        typer.echo(json.dumps(d) if streamed else json.dumps(d, indent=1))
        return
    if streamed and not info.exact:
        typer.echo(tr("Not solved exactly in that time: the estimate above stands."))
        return
    if streamed:
        typer.echo("")
    _print_moves(state, info, top, spread, verbose)
    if verbose:
        from duel.solvers.spread import search_stats

        typer.echo("\n".join(search_stats(info, spread)))


def _print_chance(state, limit, seed: int, memory: int | None, as_json: bool) -> None:
    """A chance node: what it waits for, each outcome's value and the expected value."""
    from duel.app.text.lines import position_text
    from duel.solvers.chance_hint import chance_analysis, chance_lines, waiting_for

    if as_json:
        d = chance_analysis(state, limit, seed=seed, memory=memory).to_json()
        d["position"] = state.describe()
        typer.echo(json.dumps(d, indent=1))
        return
    from rich.console import Console

    with Console(stderr=True).status(tr("Valuing each outcome...")):
        result = chance_analysis(state, limit, seed=seed, memory=memory)
    typer.echo(tr("Position: {position}", position=position_text(state)))
    typer.echo("\n".join(chance_lines(result, tr=tr, waits_for=waiting_for(state, tr))))


def _analyze_strongest(state, limit, top, seed, memory, exact, as_json, verbose, notes) -> None:
    """``duel analyze`` by the hint engine (cmcts, calibrated; exact if it can solve)."""
    from duel.solvers.hint import hint_analysis
    from duel.solvers.spread import search_stats

    def run():
        return hint_analysis(
            state, iterations=limit.nodes, seconds=limit.time, top=top, seed=seed, memory=memory
        )

    if as_json:
        d = _info_json(state, run())
        d["notes"] = notes
        typer.echo(json.dumps(d, indent=1))
        return
    import sys

    from duel.app.text.endgame import run_with_progress

    info = run_with_progress(
        run, limit.time, tr("Thinking (Monte Carlo tree search)"), sys.stderr.isatty()
    )
    _print_moves(state, info, top, None, verbose)
    if exact and not info.exact:
        typer.echo(
            tr(
                "Not solved exactly: the position is too far from the end of the game; these are"
                " estimates ({n} simulated games in {time} s).",
                n=f"{info.nodes:,}",
                time=f"{info.time:.1f}",
            )
        )
    if verbose:
        typer.echo("\n".join(search_stats(info)))


ThreadsOption = Annotated[
    str | None,
    typer.Option(
        "--threads", help=N_("Threads for an exact solve [default: every core of this machine]")
    ),
]


def _threads(text: str | None) -> int:
    """``--threads``: every core of this machine by default; a bad value fails in one line.

    >>> _threads("2")
    2
    """
    if text is None:
        from duel.solvers.search import default_threads

        return default_threads()
    try:
        count = int(text)
    except ValueError:
        fail(tr("--threads must be a whole number, not {value}", value=quoted(text)))
    if not 1 <= count <= 256:
        fail(tr("--threads must be between 1 and 256, not {value}", value=count))
    return count


def analyze(
    position: PositionArgument,
    exact: Annotated[
        bool, typer.Option("--exact", help=N_("Solve to the end of the game"))
    ] = False,
    seconds: Annotated[
        float | None, typer.Option("--time", help=N_("Stop after this many seconds"))
    ] = None,
    nodes: NodesOption = None,
    depth: DepthOption = None,
    top: TopOption = 3,
    seed: ChanceSeedOption = 0,
    as_json: JsonOption = False,
    verbose: VerboseOption = False,
    memory: MemoryOption = None,
    threads: ThreadsOption = None,
    move_text: Annotated[
        str | None,
        typer.Option(
            "--move",
            help=N_('Explain this move exactly too, e.g. "build Gardens" (implies --exact)'),
        ),
    ] = None,
) -> None:
    """Analyse a position; --exact solves it to the end of the game (Age III endgames) and
    explains the best move (--move: another one): each reveal, the reply, where it is decided."""
    import time

    state = _position_to_analyse(position, top)
    named = _named_move(state, move_text)
    if named is None and not state.is_chance():
        from duel.solvers.search import decided_analysis

        decided = decided_analysis(state, top, seed)
        if decided is not None:  # a move ends the game: said at once, with or without --exact
            if as_json:
                typer.echo(json.dumps({**_info_json(state, decided), "notes": []}, indent=1))
            else:
                _print_moves(state, decided, top, None, verbose)
            return
    exact = exact or named is not None
    budget = _memory(memory)
    solve_threads = _threads(threads)
    from duel.solvers.search import (
        C_SEARCH,
        EXACT_CARDS_C,
        EXACT_CARDS_PYTHON,
        Limit,
        analysis,
        exact_feasible,
    )

    feasible = exact_feasible(state)  # the limit of the search path that will run
    max_cards = EXACT_CARDS_C if C_SEARCH else EXACT_CARDS_PYTHON
    default_time = None if (feasible or not exact) else 10.0
    if not exact:
        default_time = 10.0
    limit = _limit(seconds, nodes, depth, default_time)
    from duel.solvers.spread import chance_settings, measure_spread

    chance = chance_settings(state, exact)
    from duel.solvers.hint import cmcts_available

    # The strongest player answers unless an exact solve was asked for and can be done (or a
    # depth was given: only the search has one).
    strongest = (not exact or not feasible) and depth is None and cmcts_available()
    notes = []
    if exact and not feasible:
        from duel.state import TAKEN

        left = sum(1 for card in state.pyramid if card != TAKEN)
        where = tr("Age {age}, {n} cards left in the structure", age=state.age, n=left)
        if strongest:
            instead = (
                tr(
                    "the strongest player's estimate (Monte Carlo tree search for {time} s), a"
                    " calibrated win chance with its spread over independent searches.",
                    time=f"{limit.time:g}",
                )
                if limit.time
                else tr(
                    "the strongest player's estimate (Monte Carlo tree search), a calibrated win"
                    " chance with its spread over independent searches."
                )
            )
        else:
            instead = (
                tr(
                    "a search as deep as the time allows, with unseen cards sampled (4 draws per"
                    " chance node), stopping after {time} s; the values are estimates and their"
                    " spread over other samplings is shown.",
                    time=f"{limit.time:g}",
                )
                if limit.time
                else tr(
                    "a search as deep as the time allows, with unseen cards sampled (4 draws per"
                    " chance node); the values are estimates and their spread over other"
                    " samplings is shown."
                )
            )
        notes.append(
            tr(
                "Cannot solve this position exactly ({where}): an exact solve enumerates every"
                " deal, which the {search} search does in Age III with at most {n} cards left."
                " Instead: {instead}",
                where=where,
                search=tr("compiled") if C_SEARCH else tr("Python"),
                n=max_cards,
                instead=instead,
            )
        )
    if exact and not feasible and named is not None:
        notes.append(
            tr(
                "No exact explanation of {move} here: the estimates below rank the moves.",
                move=named,
            )
        )
    if exact and feasible and not strongest:
        from duel.app.text.endgame import solve_time_note
        from duel.state import TAKEN

        left = sum(1 for card in state.pyramid if card != TAKEN)
        notes.append(solve_time_note(left, solve_threads))
        if not as_json:  # --json: only in "notes", so that the output stays one JSON document
            typer.echo(notes[-1])
    for note in notes[: len(notes) - (exact and feasible and not strongest)]:
        typer.echo(note, err=as_json)  # at once, before the search starts
    if state.is_chance() and not (exact and feasible):
        _print_chance(state, limit, seed, budget, as_json)
        return
    if strongest:
        _analyze_strongest(state, limit, top, seed, budget, exact, as_json, verbose, notes)
        return

    start = time.perf_counter()
    main = limit
    if limit.time and not feasible:
        main = Limit(limit.time / 2, limit.nodes, limit.depth)  # the rest measures the spread
    last = None
    options = {"top": top, "exact": exact, "seed": seed, "memory": budget}
    if exact:
        options["threads"] = solve_threads
    searcher = None
    if exact and feasible:  # one searcher: the explanations read the root solve's table
        from duel.solvers.search import DEFAULT_MEMORY, CSearcher, new_searcher

        searcher = new_searcher(
            chance_width=chance[0],
            chance_samples=chance[1],
            memory=budget or DEFAULT_MEMORY,
            threads=solve_threads,
        )
        if isinstance(searcher, CSearcher) and not exact_feasible(state, 10):
            searcher._c.huge_pages()  # as analysis() does for a long solve of its own
        options["searcher"] = searcher
    if chance[0] is not None:  # None (enumerate every outcome) is analysis' own default
        options.update(chance_width=chance[0], chance_samples=chance[1])
    if not as_json:
        from rich.console import Console

        console = Console(stderr=True)
        start_nodes = [0]

        with console.status(tr("Searching...")) as status:

            def progress(n: int) -> None:
                if n - start_nodes[0] >= 20_000:
                    start_nodes[0] = n
                    elapsed = time.perf_counter() - start
                    status.update(
                        tr(
                            "Searching... depth {depth}, {n} positions, {time} s",
                            depth=last.depth,
                            n=f"{n:,}",
                            time=f"{elapsed:.0f}",
                        )
                        if last is not None and not exact
                        else tr(
                            "Searching... {n} positions, {time} s",
                            n=f"{n:,}",
                            time=f"{elapsed:.0f}",
                        )
                    )

            for info in analysis(state, main, on_progress=progress, **options):
                last = info
                if info.moves:
                    status.update(
                        tr(
                            "Searching... depth {depth}: {move} {value}",
                            depth=info.depth,
                            move=info.moves[0].move,
                            value=_pct(info.moves[0].value),
                        )
                    )
            status.update(tr("Measuring the sampling spread..."))
            spread = measure_spread(
                state, last, limit, chance, start + limit.time if limit.time else None, budget
            )
    else:
        for info in analysis(state, main, **options):
            last = info
        spread = measure_spread(
            state, last, limit, chance, start + limit.time if limit.time else None, budget
        )
    assert last is not None
    reports, unexplained = [], None
    if searcher is not None and last.exact and last.moves:
        seconds_left = limit.time - (time.perf_counter() - start) if limit.time else 60.0
        reports, unexplained = _explain(state, last, named, searcher, max(seconds_left, 1.0))
    if as_json:
        d = _info_json(state, last, spread)
        d["notes"] = notes
        if searcher is not None:
            d["explained"] = [report.to_dict() for _, report in reports]
            if unexplained:
                d["unexplained"] = unexplained
        typer.echo(json.dumps(d, indent=1))
        return
    _print_moves(state, last, top, spread, verbose)
    if last.value.margin is not None:
        typer.echo(
            tr(
                "Expected point margin for {player} along the solver's moves: {margin}",
                player="AB"[state.to_move],
                margin=f"{last.value.margin_pov(state.to_move):+.2f}",
            )
        )
    if exact and not last.exact:
        did = (
            tr("searched to the end of the game")
            if last.extra.get("finished")
            else tr(
                "searched {n} moves ahead (the time ran out before the end of the game)",
                n=last.depth,
            )
        )
        time_taken = f"{last.time:.1f}"
        typer.echo(
            tr(
                "Not solved exactly: {did}, with unseen cards sampled, in {time} s.",
                did=did,
                time=time_taken,
            )
            if last.sampled
            else tr("Not solved exactly: {did}, in {time} s.", did=did, time=time_taken)
        )
    if reports or unexplained:
        from duel.app.text.endgame import report_lines

        for title, report in reports:
            typer.echo("")
            typer.echo("\n".join(report_lines(state, report, title)))
        if unexplained:
            typer.echo(unexplained)
    if verbose:
        from duel.solvers.spread import search_stats

        typer.echo(search_stats(last)[0])


def _named_move(state, text: str | None):
    """``--move``: the move named, legal at ``state``; else one line and exit code 2."""
    if text is None:
        return None
    from duel.moves import Move, MoveParseError

    if state.is_chance():
        fail(
            tr(
                "--move: no decision to take here ({position}): next comes chance",
                position=_position_text(state),
            )
        )
    try:
        move = Move.parse(text)
    except MoveParseError as error:
        fail(tr("--move {text}: {error}", text=repr(text), error=tr_error(error)))
    why = state.why_illegal(move)
    if why is not None:
        fail(tr("--move {text} is not legal here: {why}", text=repr(text), why=tr_reason(why)))
    return move


def _explain(state, info, named, searcher, seconds: float):
    """The exact reports on the best move and on ``named``, from the root solve's ``searcher``:
    ``([(title, report), ...], None)``, or what could not be explained in one sentence."""
    from duel.solvers.endgame import NotSolved, explain_move

    wanted = [(N_("Best move explained"), info.moves[0].move)]
    if named is not None and named != info.moves[0].move:
        wanted.append((N_("Your move explained"), named))
    reports = []
    for title, move in wanted:
        try:
            reports.append((title, explain_move(state, move, searcher=searcher, seconds=seconds)))
        except NotSolved:
            return reports, tr(
                "Could not explain {move} exactly within {time} s.",
                move=move,
                time=f"{seconds:.0f}",
            )
    return reports, None


def match(
    first: Annotated[
        str, typer.Argument(help=N_("random, greedy, search(-v1), mcts, cmcts(-v1) (:N, :Ss)"))
    ],
    second: Annotated[str, typer.Argument(help=N_("The other player"))],
    games: Annotated[
        int,
        typer.Option("--games", "-g", min=1, help=N_("Number of games (search games are slow)")),
    ] = 10,
    seed: Annotated[int, typer.Option("--seed", "-s", help=N_("Seed"))] = 0,
    think: Annotated[float, typer.Option(help=N_("Seconds per move for search and mcts"))] = 1.0,
    workers: WorkersOption = None,
    out: OutOption = None,
    ray: RayOption = None,
    as_json: JsonOption = False,
) -> None:
    """Play two players against each other, seats alternated; results with a 95% interval."""
    import sys

    from duel.solvers.players import UnknownLevelError, make_player

    for level in (first, second):
        try:
            make_player(level, seed=0, time_per_move=think)
        except UnknownLevelError as error:
            fail(str(error))
    check_finite("--think", think, positive=True)
    from duel.solvers.batch import default_workers
    from duel.solvers.match import play_match

    bar = sys.stderr.isatty() and not as_json

    def on_game(game) -> None:
        if not (as_json or bar):  # a log (not a terminal): one line per game, in order
            outcome = (
                "shared"
                if game.winner is None
                else (first if game.winner == game.first_seat else second) + " wins"
            )
            typer.echo(
                f"game {game.index + 1}/{games}: {first} as {'AB'[game.first_seat]}, {outcome}"
                f" ({game.victory})",
                err=True,
            )

    with batch_errors():
        result = play_match(
            first,
            second,
            games=games,
            seed=seed,
            time_per_move=think,
            on_game=on_game,
            workers=workers or default_workers(),
            out=out,
            ray=ray,
            progress=bar,
        )
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=1))
    else:
        typer.echo("\n".join(result.summary()))


def register(app: typer.Typer) -> None:
    """Add ``hint``, ``analyze`` and ``match`` to the ``duel`` app."""
    app.command()(hint)
    app.command()(analyze)
    app.command()(match)
