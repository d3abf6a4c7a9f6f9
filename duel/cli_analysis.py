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

from duel.cli_support import fail, load_state_or_fail

VALUE_NOTE = "chance of winning for {player}, a shared victory counting 1/2"


def _limit(seconds: float | None, nodes: int | None, depth: int | None, default_time: float | None):
    from solvers.search import Limit

    for name, value in (("--time", seconds), ("--nodes", nodes), ("--depth", depth)):
        if value is not None and value <= 0:
            fail(f"{name} must be positive, not {value}")
    if seconds is None and nodes is None and depth is None:
        seconds = default_time
    return Limit(time=seconds, nodes=nodes, depth=depth)


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
        fail(f"--memory must be a number of MB, not {text!r}")
    if not megabytes >= 1:  # also rejects NaN
        fail(f"--memory must be at least 1 (MB), not {megabytes:g}")
    if megabytes > 1 << 20:
        fail(f"--memory is in MB: {megabytes:g} MB is more than a terabyte")
    return int(megabytes * 1024 * 1024)


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _line(pv) -> str:
    from duel.moves import Move

    parts = []
    for m in pv:
        text = str(m)
        parts.append(f"({text})" if Move(m).is_chance else text)
    return ", ".join(parts)


def _stats(info) -> str:
    text = f"depth {info.depth}, {info.nodes:,} nodes in {info.time:.2f} s ({info.nps:,} nodes/s)"
    if info.sampled:
        text += (
            f"; chance sampled ({info.samples} draws per chance node, seed {info.seed}):"
            " values are estimates"
        )
    elif info.exact:
        text += "; exact (every line searched to the end of the game)"
    else:
        text += "; heuristic evaluation at the search horizon"
    backend = info.extra.get("backend")
    if backend is not None:
        text += "; compiled search" if backend == "c" else "; Python search"
    return text


def _info_json(state, info) -> dict:
    d = info.to_dict()
    d["position"] = state.describe()
    d["value_definition"] = (
        "P(win) + P(shared)/2 for the player to move ('value'), for A ('value_a')"
    )
    d["margin_definition"] = (
        "expected final point margin A minus B under the solver's moves (exact solves only)"
    )
    return d


def _print_moves(state, info, top: int) -> None:
    player = "AB"[state.to_move]
    typer.echo(f"Position: {state.describe()}")
    if not info.moves:
        typer.echo(f"Value for A: {_pct(info.value.a)} (no decision here: next comes chance)")
        if info.pv:
            typer.echo(f"Line: {_line(info.pv)}")
        return
    typer.echo(f"Best moves for {player} ({VALUE_NOTE.format(player=player)}):")
    width = max(len(str(m.move)) for m in info.moves[:top])
    for i, m in enumerate(info.moves[:top], 1):
        bound = "" if m.bound in ("exact", "estimate") else " (at most)"
        typer.echo(f"  {i}. {str(m.move):{width}}  {_pct(m.value):>6}{bound}")
    typer.echo(f"Principal variation: {_line(info.pv)}")


PositionArgument = Annotated[Path, typer.Argument(help="A position (JSON) or a game record")]
NodesOption = Annotated[int | None, typer.Option("--nodes", help="Node budget (reproducible)")]
DepthOption = Annotated[int | None, typer.Option("--depth", help="Depth in plies")]
TopOption = Annotated[int, typer.Option("--top", help="How many moves to show")]
ChanceSeedOption = Annotated[int, typer.Option(help="Seed for sampled chance")]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable output")]
MemoryOption = Annotated[
    str | None,
    typer.Option("--memory", help="Memory budget of the search in MB [default: 512]"),
]


def _position_to_analyse(position: Path, top: int):
    if top < 1:
        fail(f"--top must be at least 1, not {top}")
    state = load_state_or_fail(position)
    if state.is_terminal():
        fail(f"{position}: the game is over ({state.describe()})", 1)
    return state


def hint(
    position: PositionArgument,
    seconds: Annotated[
        float | None, typer.Option("--time", help="Seconds to think [default: 2]")
    ] = None,
    nodes: NodesOption = None,
    depth: DepthOption = None,
    top: TopOption = 3,
    seed: ChanceSeedOption = 0,
    as_json: JsonOption = False,
    memory: MemoryOption = None,
) -> None:
    """The best moves with their values, the principal variation and search statistics."""
    state = _position_to_analyse(position, top)
    limit = _limit(seconds, nodes, depth, 2.0)
    budget = _memory(memory)
    from solvers.search import analyse

    info = analyse(state, limit, top=top, seed=seed, memory=budget)
    if as_json:
        typer.echo(json.dumps(_info_json(state, info), indent=1))
        return
    _print_moves(state, info, top)
    typer.echo(_stats(info))


def analyze(
    position: PositionArgument,
    exact: Annotated[bool, typer.Option("--exact", help="Solve to the end of the game")] = False,
    seconds: Annotated[
        float | None, typer.Option("--time", help="Stop after this many seconds")
    ] = None,
    nodes: NodesOption = None,
    depth: DepthOption = None,
    top: TopOption = 3,
    seed: ChanceSeedOption = 0,
    as_json: JsonOption = False,
    memory: MemoryOption = None,
) -> None:
    """Analyse a position; --exact solves it to the end of the game (Age III endgames)."""
    state = _position_to_analyse(position, top)
    budget = _memory(memory)
    from solvers.search import C_SEARCH, EXACT_CARDS_C, EXACT_CARDS_PYTHON, analysis, exact_feasible

    feasible = exact_feasible(state)  # the limit of the search path that will run
    max_cards = EXACT_CARDS_C if C_SEARCH else EXACT_CARDS_PYTHON
    default_time = None if (feasible or not exact) else 60.0
    if not exact:
        default_time = 10.0
    limit = _limit(seconds, nodes, depth, default_time)
    notes = []
    if exact and not feasible:
        notes.append(
            "This position is too far from the end to enumerate every deal (the"
            f" {'compiled' if C_SEARCH else 'Python'} search does so in Age III with at most"
            f" {max_cards} cards left): chance nodes are sampled (4 draws each) and the value is"
            " an estimate"
            + (f"; stopping after {limit.time:g} s" if limit.time else "")
            + "."
        )
    if not as_json:
        for note in notes:
            typer.echo(note)

    last = None
    interactive = not as_json
    if interactive:
        from rich.console import Console

        console = Console(stderr=True)
        start_nodes = [0]

        with console.status("Searching...") as status:

            def progress(n: int) -> None:
                if n - start_nodes[0] >= 20_000:
                    start_nodes[0] = n
                    what = f"depth {last.depth}, " if last is not None and not exact else ""
                    status.update(f"Searching... {what}{n:,} nodes")

            for info in analysis(
                state,
                limit,
                top=top,
                exact=exact,
                seed=seed,
                on_progress=progress,
                memory=budget,
            ):
                last = info
                if not exact and info.moves:
                    status.update(
                        f"Searching... depth {info.depth}: {info.moves[0].move}"
                        f" {_pct(info.moves[0].value)}"
                    )
    else:
        for info in analysis(state, limit, top=top, exact=exact, seed=seed, memory=budget):
            last = info
    assert last is not None
    if as_json:
        d = _info_json(state, last)
        d["notes"] = notes
        typer.echo(json.dumps(d, indent=1))
        return
    _print_moves(state, last, top)
    if last.value.margin is not None:
        typer.echo(
            f"Expected point margin for {'AB'[state.to_move]} along the solver's moves:"
            f" {last.value.margin_pov(state.to_move):+.2f}"
        )
    if exact and not last.exact:
        typer.echo("Not solved exactly" + (" (chance sampled)" if last.sampled else "") + ".")
    typer.echo(_stats(last))


def match(
    first: Annotated[str, typer.Argument(help="random, greedy, search, search:N, search:Ss")],
    second: Annotated[str, typer.Argument(help="The other player")],
    games: Annotated[int, typer.Option("--games", min=1, help="Number of games")] = 10,
    seed: Annotated[int, typer.Option(help="Seed")] = 0,
    think: Annotated[float, typer.Option(help="Seconds per move for search")] = 1.0,
    as_json: JsonOption = False,
) -> None:
    """Play two players against each other, seats alternated; results with a 95% interval."""
    from solvers.players import UnknownLevelError, make_player

    for level in (first, second):
        try:
            make_player(level, seed=0, time_per_move=think)
        except UnknownLevelError as error:
            fail(str(error))
    if think <= 0:
        fail(f"--think must be positive, not {think}")
    from solvers.match import play_match

    done = [0]

    def on_game(game) -> None:
        done[0] += 1
        if not as_json:
            outcome = (
                "shared"
                if game.winner is None
                else (first if game.winner == game.first_seat else second) + " wins"
            )
            typer.echo(
                f"game {done[0]}/{games}: {first} as {'AB'[game.first_seat]}, {outcome}"
                f" ({game.victory})",
                err=True,
            )

    result = play_match(first, second, games=games, seed=seed, time_per_move=think, on_game=on_game)
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=1))
    else:
        typer.echo("\n".join(result.summary()))


def register(app: typer.Typer) -> None:
    """Add ``hint``, ``analyze`` and ``match`` to the ``duel`` app."""
    app.command()(hint)
    app.command()(analyze)
    app.command()(match)
