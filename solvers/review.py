"""The review of a game: every decision analysed, its loss in win probability, and a mark.

No input or output here: ``duel review`` (:mod:`duel.app.cli.review`) and ``review`` in
``duel play`` print what :func:`review_record` returns. What is computed, the thresholds and how
to read the graph: ``docs/review.md``.

* :func:`analyse_position` is the one door to the analysing engine: a position, a time per move
  and an AI level in, ``(value_a, best_move, best_value, values)`` out, where ``values`` gives
  *every* legal move its value for the player to move, all from one search. A new engine (MCTS)
  is one more entry in :data:`ANALYSERS`.
* :func:`review_record` analyses every decision of a record (in parallel with
  :mod:`duel.solvers.batch`, each position a job of its own whose result depends only on the job, so
  any number of workers gives the sequential result) and assembles a :class:`Review`: per move
  its value, the best move, the loss and the mark; per player the average loss and the count of
  each mark; the points of A's win chance.

>>> import random
>>> from duel import new_game
>>> from duel.record import GameRecord
>>> state, moves, rng = new_game(), [], random.Random(2)
>>> while len(moves) < 12:
...     move = state.random_move(rng)
...     moves.append(move)
...     state = state.apply(move)
>>> review = review_record(GameRecord(tuple(moves)), level="greedy", workers=1)
>>> [(m.number, m.player) for m in review.moves if m.player != "chance"][:2]
[(10, 'A'), (11, 'B')]
>>> first = review.moves[9]
>>> first.loss == round(first.best_value - first.value, 6) and first.mark in MARKS + (None,)
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from duel.moves import Kind, Move
from duel.record import GameRecord, Replay, mover
from duel.solvers.batch import run_jobs
from duel.solvers.players import (
    CMctsPlayer,
    GreedyPlayer,
    MctsPlayer,
    SearchPlayer,
    UnknownLevelError,
    make_player,
    parse_level,
)
from duel.solvers.search import (
    ENDINGS,
    Limit,
    analyse,
    decided_analysis,
    ending_moves,
    evaluate,
    exact_feasible,
    terminal_value,
)
from duel.state import State

__all__ = [
    "ANALYSERS",
    "FORMAT",
    "MARKS",
    "THRESHOLDS",
    "MoveReview",
    "PlayerSummary",
    "PositionAnalysis",
    "Review",
    "analyse_job",
    "analyse_position",
    "check_level",
    "graph_points",
    "level_clock",
    "mark_for",
    "played_value_a",
    "review_record",
]

FORMAT = "7wd-review"
#: The review's engine by default: the hint's (``cmcts`` through
#: :func:`duel.solvers.hint.hint_analysis`), so a move the hint advises is not marked a mistake.
DEFAULT_LEVEL = "cmcts"
VERSION = 1
#: Loss in win probability (for the player who moved) from which a move gets each mark, the
#: expected-points scale of chess reviews (docs/review.md says why these figures).
THRESHOLDS = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
MARKS = ("inaccuracy", "mistake", "blunder")
#: Chess notation for the marks, for tables and the graph's tooltips.
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
#: A loss below this is no loss: values that print alike (to 0.1%) are as good as the best.
EQUAL = 0.0005
HIDDEN_NOTE = "a choice among Great Library tokens the record hides: not judged"
#: Values are rounded in reviews: the engines' last digits are noise, and rounding keeps the
#: JSON short and equal across machines.
DIGITS = 6


class PositionAnalysis(NamedTuple):
    """What an engine says of one position.

    ``value_a``: A's win chance (a shared victory counting one half) with best play from here.
    ``best_move`` and ``best_value`` (for the player to move); ``values``: every legal move's
    value for the player to move, best first, from the same search; ``info``: how it was
    computed (``engine``, ``depth``, ``nodes``, ``exact``, ``sampled``).
    """

    value_a: float
    best_move: Move | None
    best_value: float | None
    values: tuple[tuple[Move, float], ...]
    info: dict[str, Any]


def check_level(level: str, seconds: float = 1.0, seed: int = 0):
    """The player object of ``level`` if it can analyse, else :class:`UnknownLevelError`.

    >>> check_level("search:500").nodes
    500
    >>> check_level("random")
    Traceback (most recent call last):
    ...
    duel.solvers.cmcts_player.UnknownLevelError: the random level cannot analyse a position: use cmcts, search, search-v1, mcts or greedy
    """  # noqa: E501 (a doctest's exception line)
    player = make_player(level, seed=seed, time_per_move=seconds)
    if player.name not in ANALYSERS:
        names = ", ".join(ANALYSERS)
        names = names[::-1].replace(" ,", " ro ", 1)[::-1]
        raise UnknownLevelError(f"the {player.name} level cannot analyse a position: use {names}")
    return player


def level_clock(level: str, seconds: float) -> float | None:
    """The seconds per decision ``level`` thinks, or None for a level without a clock (a count
    budget, or greedy).

    >>> level_clock("cmcts", 1.0), level_clock("search:2s", 1.0), level_clock("greedy", 1.0)
    (1.0, 2.0, None)
    >>> level_clock("cmcts:3000", 1.0) is None
    True
    """
    parsed = parse_level(level)
    if parsed.name in ("random", "greedy") or parsed.count is not None:
        return None
    return parsed.seconds if parsed.seconds is not None else seconds


def analyse_position(
    state: State, seconds: float = 1.0, level: str = DEFAULT_LEVEL, seed: int = 0
) -> PositionAnalysis:
    """Analyse one decision (or a finished game) with ``level`` for about ``seconds``.

    ``level`` is an AI level as ``duel play`` takes it: ``cmcts`` (the default) is the hint
    engine, :func:`duel.solvers.hint.hint_analysis` (exact in small Age III endgames, else the
    calibrated compiled MCTS) with ``seconds`` or ``cmcts:N`` iterations (reproducible);
    ``search`` thinks ``seconds``, ``search:N`` uses N nodes whatever ``seconds``
    (reproducible), ``search:Ss`` S seconds; ``search-v1`` likewise with the older evaluation;
    ``mcts`` is the Python MCTS; ``greedy`` judges each move by the evaluation of the position
    it leads to (instant). ``seed`` seeds the engine (the hint's seed gives the hint's answer).

    >>> import random
    >>> from duel import new_game
    >>> state, rng = new_game(), random.Random(0)
    >>> while state.is_chance():
    ...     state = state.apply(state.random_move(rng))
    >>> result = analyse_position(state, level="search:300")
    >>> result.best_move == result.values[0][0] and len(result.values) == len(state.legal_moves())
    True
    """
    if state.is_terminal():
        return PositionAnalysis(terminal_value(state), None, None, (), {"exact": True})
    if state.is_chance():
        raise ValueError(f"a chance node, not a decision: {state.describe()}")
    player = check_level(level, seconds, seed)
    decided = decided_analysis(state, len(state.legal_moves()), seed)
    if decided is not None:  # a move wins at once, or every move ends the game: no search
        values = tuple((m.move, m.value) for m in decided.moves)
        details = {"engine": "rules", "depth": 1, "nodes": decided.nodes, "exact": True}
        details["ends_game"] = {str(m.move): m.ends_game for m in decided.moves}
        return PositionAnalysis(decided.value.a, *values[0], values, details)
    return _with_ending_moves(state, ANALYSERS[player.name](state, player))


def _with_ending_moves(state: State, result: PositionAnalysis) -> PositionAnalysis:
    """``result`` with each move that ends the game (and loses or shares: a win would have been
    decided before any search) at its exact value, said in ``info["ends_game"]``: an engine's
    value of such a move may be an estimate (0.4% for a loss)."""
    ending = ending_moves(state)
    if not ending:
        return result
    values = tuple((m, ending.get(m, v)) for m, v in result.values)  # the engine's order
    info = {**result.info, "ends_game": {str(m): ENDINGS[v] for m, v in ending.items()}}
    best_move, best_value = values[0] if values else (None, None)
    return result._replace(values=values, best_move=best_move, best_value=best_value, info=info)


def _search_analysis(state: State, player: SearchPlayer) -> PositionAnalysis:
    """Expectiminimax with every root move given an exact value (multipv = all moves), so the
    move played and the best one are valued by one search. As the search player does, a small
    Age III endgame is first solved exactly with part of the budget."""
    top = len(state.legal_moves())
    if player.nodes is not None:
        exact_limit, limit = Limit(nodes=player.nodes // 2), Limit(nodes=player.nodes)
    else:
        seconds = player.time_per_move or 1.0
        exact_limit, limit = Limit(time=0.6 * seconds), Limit(time=seconds)
    info = None
    if exact_feasible(state, 7):
        info = analyse(state, exact_limit, top=top, exact=True, seed=player.seed, margin=False)
        if not info.exact:
            info = None
    if info is None:
        info = analyse(state, limit, top=top, seed=player.seed, margin=False)
    values = tuple((m.move, m.value) for m in info.moves)
    best_move, best_value = values[0] if values else (None, None)
    details = {
        "engine": player.name,
        "depth": info.depth,
        "nodes": info.nodes,
        "exact": info.exact,
        "sampled": info.sampled,
        **_line(info.moves),
    }
    return PositionAnalysis(info.value.a, best_move, best_value, values, details)


def _cmcts_analysis(state: State, player: CMctsPlayer) -> PositionAnalysis:
    """The hint's own analysis (:func:`duel.solvers.hint.hint_analysis`) with every move asked
    for: the exact solve in a small Age III endgame, else the calibrated compiled MCTS, moves
    ranked by visits. A move no tree visited has no value and is left out (the review then values
    the move played, if it is one of those, by analysing the position after it)."""
    from duel.solvers.hint import hint_analysis

    budget = (
        {"iterations": player.iterations}
        if player.iterations is not None
        else {"seconds": player.time_per_move or 1.0}
    )
    info = hint_analysis(state, top=len(state.legal_moves()), seed=player.seed, **budget)
    values = tuple((m.move, m.value) for m in info.moves if m.value is not None)
    best_move, best_value = values[0] if values else (None, None)
    details = {
        "engine": info.extra.get("engine", "cmcts"),
        "depth": info.depth,
        "nodes": info.nodes,
        "exact": info.exact,
        "sampled": info.sampled,
        **_line([m for m in info.moves if m.value is not None]),
    }
    return PositionAnalysis(info.value.a, best_move, best_value, values, details)


#: Moves of the best move's line a review keeps (the move itself included).
LINE_LENGTH = 8


def _line(moves) -> dict[str, list[str]]:
    """``{"line": [...]}``: the best move's principal variation in notation (the move first),
    for the review to show the best alternative's line; empty when there is none."""
    if not moves or len(moves[0].pv) < 2:
        return {}
    return {"line": [str(m) for m in moves[0].pv[:LINE_LENGTH]]}


def _mcts_analysis(state: State, player: MctsPlayer) -> PositionAnalysis:
    """The Python MCTS: moves ranked by visits, each valued by its mean result (unvisited
    moves left out)."""
    if player.iterations is not None:
        result = player.tree.search(state, iterations=player.iterations)
    else:
        result = player.tree.search(state, seconds=player.time_per_move or 1.0)
    ranked = sorted((s for s in result.moves if s.visits), key=lambda s: -s.visits)
    values = tuple((s.move, s.value) for s in ranked)
    best_move, best_value = values[0] if values else (None, None)
    details = {"engine": "mcts", "depth": None, "nodes": result.iterations, "exact": False}
    return PositionAnalysis(result.value_a, best_move, best_value, values, details)


def _greedy_analysis(state: State, player: GreedyPlayer) -> PositionAnalysis:
    """One ply: each move valued by the evaluation of the position it leads to."""
    mover_ = state.to_move
    scored = []
    for move in state.legal_moves():
        v = evaluate(state.apply(move, check=False))
        scored.append((move, v if mover_ == 0 else 1.0 - v))
    scored.sort(key=lambda mv: -mv[1])  # stable: ties keep the legal-move order
    best_move, best_value = scored[0]
    value_a = best_value if mover_ == 0 else 1.0 - best_value
    details = {"engine": "greedy", "depth": 1, "nodes": len(scored), "exact": False}
    return PositionAnalysis(value_a, best_move, best_value, tuple(scored), details)


#: The engines that can analyse, by level name (``make_player(level).name``).
ANALYSERS: dict[str, Callable[[State, Any], PositionAnalysis]] = {
    "cmcts": _cmcts_analysis,
    "search": _search_analysis,
    "search-v1": _search_analysis,
    "mcts": _mcts_analysis,
    "greedy": _greedy_analysis,
}


# --- one position as a job -----------------------------------------------------------------------
@lru_cache(maxsize=4)
def _replay(moves: tuple[str, ...]) -> Replay:
    """A worker analyses many positions of one game: the game is replayed once."""
    return Replay.of(GameRecord.from_json({"moves": list(moves)}))


def analyse_job(job: dict[str, Any]) -> dict[str, Any]:
    """One position of a review as a JSON job (``moves``: the record's notation, ``index``, the
    ``seconds`` and ``level``) and its JSON result; the result depends only on the job (with a
    node budget), which is what lets positions be analysed in any order on any worker.

    >>> deal = ["reveal token Law", "reveal token Economy", "reveal token Theology",
    ...         "reveal token Urbanism", "reveal token Strategy"]
    >>> draft = ["reveal wonder The Pyramids", "reveal wonder The Colossus",
    ...          "reveal wonder Piraeus", "reveal wonder The Great Library"]
    >>> job = {"moves": deal + draft, "index": 9, "seconds": 1, "level": "greedy"}
    >>> result = analyse_job(job)
    >>> result["values"][0][0], len(result["values"])
    ('pick The Colossus', 4)
    """
    replay = _replay(tuple(job["moves"]))
    index, seed = job["index"], job.get("seed", 0)
    state = replay.state(index)
    result = analyse_position(state, job["seconds"], job["level"], seed)
    values = [[str(m), round(v, DIGITS)] for m, v in result.values]
    info = dict(result.info)
    if index < len(replay.moves) and values:
        played = replay.moves[index]
        if all(m != played for m, _ in result.values):
            value = _value_after(state, played, job["seconds"], job["level"], seed)
            if value is not None:  # the engine skipped the move played: valued after it
                values.append([str(played), round(value, DIGITS)])
                info["played_valued_after"] = True
    return {
        "index": index,
        "value_a": round(result.value_a, DIGITS),
        "values": values,
        "info": info,
    }


def _value_after(state: State, move: Move, seconds: float, level: str, seed: int) -> float | None:
    """The value of ``move`` for the player to move at ``state``, from an analysis of the
    position it leads to, or None if that is a chance node (its deals are not enumerated)."""
    after = state.apply(move)
    if after.is_chance():
        return None
    value_a = analyse_position(after, seconds, level, seed).value_a
    return value_a if state.to_move == 0 else 1.0 - value_a


# --- the review ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class MoveReview:
    """One move of the game (1-based ``number``: the move that leads to position ``number``).

    For a decision (``player`` A or B): ``value`` is the played move's win chance for that player,
    ``best_move``/``best_value`` the engine's choice, ``loss = best_value - value`` (never
    negative: all from one search) and ``mark`` one of :data:`MARKS` or ``None``; ``value_a`` is
    A's win chance before the move. ``choices`` counts the legal moves (1: forced, no mark).
    For chance: ``probability`` of what was dealt (``None`` when the record hides it).
    A decision the review cannot judge (the choice after a hidden Great Library draw, whose
    other tokens the record does not keep) has ``note`` saying so and no values.
    """

    number: int
    player: str
    move: str
    value_a: float | None = None
    value: float | None = None
    best_move: str | None = None
    best_value: float | None = None
    loss: float | None = None
    mark: str | None = None
    choices: int = 0
    probability: float | None = None
    hidden: bool = False
    note: str | None = None
    info: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayerSummary:
    """A player's figures: decisions with a choice that were judged, their average loss in win
    probability, and how many got each mark (``best``: the engine's choice, or a move whose
    value is within :data:`EQUAL` of it)."""

    decisions: int = 0
    average_loss: float = 0.0
    best: int = 0
    inaccuracy: int = 0
    mistake: int = 0
    blunder: int = 0


@dataclass(frozen=True)
class Review:
    """A whole review: the moves, a summary per player and the points of A's win chance
    (``(position index, value)``; the last one is the result once the game is over)."""

    moves: tuple[MoveReview, ...]
    summary: dict[str, PlayerSummary]
    graph: tuple[tuple[int, float], ...]
    level: str
    seconds: float | None  # per decision; None for a level without a clock
    final: str
    ages: dict[int, str]
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The review for machines (``duel review --json``); docs/review.md describes it."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "value_definition": "P(win) + P(shared)/2; 'value_a' for A, the others for the mover",
            "engine": {"level": self.level, "seconds_per_move": self.seconds},
            "thresholds": THRESHOLDS,
            "final": self.final,
            "metadata": self.metadata,
            "ages": {str(k): v for k, v in self.ages.items()},
            "moves": [_move_json(m) for m in self.moves],
            "summary": {p: asdict(s) for p, s in self.summary.items()},
            "graph": [[i, v] for i, v in self.graph],
        }


def _move_json(m: MoveReview) -> dict[str, Any]:
    d = asdict(m)
    if m.player == "chance":
        for key in ("value_a", "value", "best_move", "best_value", "loss", "mark", "choices"):
            del d[key]
    else:
        del d["probability"], d["hidden"]
    return d


def mark_for(loss: float) -> str | None:
    """The mark of a loss in win probability, judged on the loss as it is shown (to 0.1%): a
    loss printed "5.0%" is an inaccuracy, since the marks start at 5%.

    >>> [mark_for(x) for x in (0.0, 0.049, 0.0496, 0.05, 0.12, 0.2)]
    [None, None, 'inaccuracy', 'inaccuracy', 'mistake', 'blunder']
    """
    shown = round(loss, 3)
    found = None
    for name in MARKS:
        if shown >= THRESHOLDS[name] - 1e-9:
            found = name
    return found


def played_value_a(result: dict[str, Any], move: Move, player: int) -> float:
    """A's win chance after ``move`` was played at an analysed decision (``analyse_job``'s
    result; ``player`` moved there): the engine's value of that move, else (a move the engine
    gave no value) the position's value.

    This is the value of the chance nodes that follow the move until the next decision: what
    the engine expected of the move, the expectation over the deals to come. A graph that put
    a separate search at each reveal would jump at every card turned face up.
    """
    played = dict((m, v) for m, v in result["values"]).get(str(move))
    if played is None:
        return result["value_a"]
    return played if player == 0 else round(1.0 - played, DIGITS)


def graph_points(replay: Replay, results: dict[int, dict[str, Any]]) -> list[tuple[int, float]]:
    """A's win chance at each position the review can value: every analysed decision (its
    value with best play), then each chance node after it (the value of the move played there,
    :func:`played_value_a`), until the next decision; the result once the game is over."""
    points: list[tuple[int, float]] = []
    after: float | None = None  # A's value of the last analysed decision's move played
    for i, state in enumerate(replay.states):
        if i in results:
            points.append((i, results[i]["value_a"]))
            if i < len(replay.moves):
                after = played_value_a(results[i], replay.moves[i], state.to_move)
        elif state.is_terminal():
            points.append((i, terminal_value(state)))
        elif state.is_chance() and after is not None:
            points.append((i, after))
        else:
            after = None  # a decision not analysed: no value to carry on
    return points


def _hidden_choice(replay: Replay, index: int) -> bool:
    """The decision at ``index`` chooses among Great Library tokens the record hides."""
    return (
        index > 0
        and replay.moves[index - 1].kind is Kind.LIBRARY_DRAW
        and "?" in (replay.notation[index - 1])
    )


def decisions_to_analyse(replay: Replay) -> list[int]:
    """Position indexes the review analyses: every decision the record shows in full, and the
    last position when the game stopped at a decision (its value ends the graph)."""
    out = []
    for i, state in enumerate(replay.states):
        if state.is_terminal() or state.is_chance() or _hidden_choice(replay, i):
            continue
        out.append(i)
    return out


def review_record(
    record: GameRecord,
    *,
    seconds: float = 1.0,
    level: str = DEFAULT_LEVEL,
    workers: int | None = None,
    progress: bool = False,
    seed: int = 0,
    on_progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Analyse every decision of ``record`` (see the module) on ``workers`` processes (default:
    every core; 1: in this process), with the batch layer's progress bar on stderr if
    ``progress``; ``seed`` seeds the engine at every position (``duel play`` passes its hint's
    seed, so the review judges with the hint's searches). Each position is a job of
    :func:`duel.solvers.batch.run_jobs`, whose results come back in job order: with a count
    budget the review is the same for any number of workers. ``on_progress(done, total)`` is
    called before the first position and after each one (the full-screen app's progress bar);
    an exception it raises stops the review and its workers."""
    check_level(level, seconds, seed)
    replay = Replay.of(record)
    moves = list(replay.notation)
    jobs = [
        {"moves": moves, "index": i, "seconds": seconds, "level": level, "seed": seed}
        for i in decisions_to_analyse(replay)
    ]
    found = run_jobs(analyse_job, jobs, workers=workers, progress=progress, label="positions")
    results = {}
    if on_progress is not None:
        on_progress(0, len(jobs))
    try:
        for done, r in enumerate(found, 1):
            results[r["index"]] = r
            if on_progress is not None:
                on_progress(done, len(jobs))
    finally:
        found.close()  # stops the workers at once when on_progress stopped the review
    return assemble(replay, results, level=level, seconds=seconds)


def assemble(
    replay: Replay, results: dict[int, dict[str, Any]], *, level: str, seconds: float
) -> Review:
    """The review from the analysed positions (``analyse_job`` results by position index)."""
    reviewed: list[MoveReview] = []
    for n in range(1, replay.last + 1):
        before, move = replay.states[n - 1], replay.moves[n - 1]
        who = mover(before, move)
        text = replay.notation[n - 1]
        if who == "chance":
            hidden = "?" in text
            p = None if hidden else float(before.chance_probability(move))
            reviewed.append(MoveReview(n, who, text, probability=p, hidden=hidden))
            continue
        result = results.get(n - 1)
        if result is None:
            hidden = _hidden_choice(replay, n - 1)
            note = HIDDEN_NOTE if hidden else "not analysed"
            choices = len(before.legal_moves())
            reviewed.append(MoveReview(n, who, text, choices=choices, note=note))
            continue
        reviewed.append(_decision(n, who, text, move, before, result))
    graph = graph_points(replay, results)
    final_state = replay.states[-1]
    return Review(
        tuple(reviewed),
        {p: _summary([m for m in reviewed if m.player == p]) for p in ("A", "B")},
        tuple(graph),
        level,
        level_clock(level, seconds),
        final_state.describe()
        if final_state.is_terminal()
        else f"unfinished: {final_state.describe()}",
        replay.age_marks(),
        dict(replay.record.metadata),
    )


def _decision(
    n: int, who: str, text: str, move: Move, before: State, result: dict[str, Any]
) -> MoveReview:
    choices = len(before.legal_moves())
    values = dict((m, v) for m, v in result["values"])
    played = values.get(str(move))
    if played is None or not result["values"]:  # an engine that skipped moves: say so
        return MoveReview(
            n,
            who,
            text,
            value_a=result["value_a"],
            choices=choices,
            note="the engine gave this move no value",
            info=result["info"],
        )
    best_move, best_value = result["values"][0]
    loss = round(max(0.0, best_value - played), DIGITS)
    return MoveReview(
        n,
        who,
        text,
        value_a=result["value_a"],
        value=played,
        best_move=best_move,
        best_value=best_value,
        loss=loss,
        mark=mark_for(loss) if choices > 1 else None,
        choices=choices,
        info=result["info"],
    )


def _summary(moves: list[MoveReview]) -> PlayerSummary:
    judged = [m for m in moves if m.loss is not None and m.choices > 1]
    if not judged:
        return PlayerSummary()
    counts = {name: sum(m.mark == name for m in judged) for name in MARKS}
    return PlayerSummary(
        decisions=len(judged),
        average_loss=round(sum(m.loss for m in judged) / len(judged), DIGITS),
        best=sum(m.loss < EQUAL for m in judged),
        **counts,
    )
