"""``duel analyze --exact`` as a player reads it: a move's exact report in words, the likely time
of an exact solve, and a progress bar for a search with a time limit.

The report itself (:class:`duel.solvers.endgame.EndgameReport`) comes from the solver; here it is
only written out: the reveals after the move (most likely first, the rare ones summed up), the
reply, the victories in reach, where the best line is decided and how it ends.

>>> solve_time_note(8, 1)
'8 cards left: an exact solve usually takes under a second.'
>>> solve_time_note(13, 1)
'13 cards left: an exact solve usually takes a few seconds (4 in 5 within 5 s on 1 thread).'
>>> solve_time_note(14, 2).split(":")[1].strip()
'an exact solve may take minutes (measured solve times stop at 13 cards).'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from duel.app.lines import chance_text, line_steps
from duel.moves import PLAYER_NAMES
from duel.state import State

__all__ = ["report_lines", "run_with_progress", "solve_time_note"]

#: Reveals listed one by one; the others are summed up in one line.
SHOWN_REVEALS = 6
T = TypeVar("T")


def _pct(value: float) -> str:
    return f"{100 * min(1.0, max(0.0, value)):.1f}%"  # no "-0.0%" from rounding


def _seconds(t: float) -> str:
    return f"{t:.0f} s" if t < 90 else f"{t / 60:.0f} min"


def solve_time_note(cards: int, threads: int) -> str:
    """The likely time of an exact solve with ``cards`` left in the structure, from the measured
    80th percentiles of one-thread solves (:data:`duel.solvers.players.EXACT_P80_SECONDS`),
    faster on several threads by :data:`duel.solvers.players.EXACT_THREADS_SPEEDUP`."""
    from duel.solvers.players import EXACT_P80_SECONDS, EXACT_THREADS_SPEEDUP

    head = f"{cards} cards left: an exact solve"
    if cards > max(EXACT_P80_SECONDS):
        measured = max(EXACT_P80_SECONDS)
        return f"{head} may take minutes (measured solve times stop at {measured} cards)."
    p80 = EXACT_P80_SECONDS.get(cards, 0.0) / (EXACT_THREADS_SPEEDUP if threads > 1 else 1.0)
    if p80 < 1.0:
        return f"{head} usually takes under a second."
    usually = "a few seconds" if p80 < 20 else "under a minute" if p80 < 60 else "minutes"
    on = f"{threads} thread" + ("s" if threads > 1 else "")
    return f"{head} usually takes {usually} (4 in 5 within {_seconds(p80 + 0.5)} on {on})."


def run_with_progress(work: Callable[[], T], seconds: float | None, what: str, show: bool) -> T:
    """``work()``, with a progress bar of the time used and left on stderr when ``show`` (a
    terminal) and the time is bounded; without, just ``work()``. The work runs in a thread (the
    compiled searches release the interpreter lock), the bar in this one."""
    if not show or not seconds:
        return work()
    import threading
    import time

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    result: list = []
    error: list = []

    def target() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # re-raised below, in the caller's thread
            error.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    start = time.perf_counter()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[left]}"),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(what, total=seconds, left=f"{seconds:.0f} s left")
        thread.start()
        while thread.is_alive():
            used = time.perf_counter() - start
            left = max(0.0, seconds - used)
            progress.update(task, completed=min(used, seconds), left=f"{left:.0f} s left")
            thread.join(0.1)
    if error:
        raise error[0]
    return result[0]


def _reveal_text(outcomes) -> str:
    return ", ".join(chance_text(m).removeprefix("if ") for m in outcomes)


def _who(player: int | None) -> str:
    return "nobody (the game is over)" if player is None else PLAYER_NAMES[player]


def report_lines(state: State, report, title: str) -> list[str]:
    """The report on ``report.move`` at ``state`` in lines of text, values for the mover."""
    me = PLAYER_NAMES[report.player]
    out = [f"{title}: {me} {report.move}  {_pct(report.value)} for {me} (exact)"]
    reveals = report.reveals
    if len(reveals) == 1 and not reveals[0].outcomes:
        r = reveals[0]
        if r.decider is None:
            out.append("  Nothing is revealed: the move ends the game.")
        else:
            out.append(
                f"  Nothing is revealed; {PLAYER_NAMES[r.decider]} decides next:"
                f" best {r.reply} ({_pct(r.value)} for {me})."
            )
    else:
        plural = "s" if len(reveals) > 1 else ""
        out.append(
            f"  {len(reveals)} possible reveal{plural} before the next decision (probability: what"
            f" is revealed: {me}'s win chance then, the best reply):"
        )
        shown = len(reveals) if len(reveals) <= SHOWN_REVEALS + 1 else SHOWN_REVEALS
        for r in reveals[:shown]:
            reply = "game over" if r.decider is None else f"{PLAYER_NAMES[r.decider]} {r.reply}"
            out.append(
                f"    {_pct(r.probability):>6}  {_reveal_text(r.outcomes)}: {_pct(r.value)},"
                f" {reply}"
            )
        rest = reveals[shown:]
        if rest:
            values = [r.value for r in rest]
            out.append(
                f"    {_pct(sum(r.probability for r in rest)):>6}  {len(rest)} other reveals:"
                f" {_pct(min(values))[:-1]}-{_pct(max(values))}"
            )
    if report.threats:
        out.append("  In reach after the move: " + "; ".join(map(str, report.threats)) + ".")
    else:
        out.append("  No science or military victory in reach after the move.")
    steps = [
        f"[chance: {text}]" if who == "chance" else f"{who} {text}"
        for who, text in line_steps(state, report.line)
    ]
    end = ""
    if report.line_victory:
        end = (
            "a shared victory"
            if report.line_winner is None
            else f"{PLAYER_NAMES[report.line_winner]} wins ({report.line_victory} victory)"
        )
    k = report.decided_at
    if k is not None and 0 < k <= len(steps):
        who, text = line_steps(state, report.line)[k - 1]
        step = f"once {text.removeprefix('if ')}" if who == "chance" else f"after {who} {text}"
        result = (
            "the game is shared"
            if report.line_winner is None
            else f"{PLAYER_NAMES[report.line_winner]} wins"
        )
        if k == len(steps):
            out.append(f"  Decided only at the end: {end}.")
        else:
            out.append(
                f"  Decided {step} (step {k} of the likeliest line): from there {result}"
                " whatever is revealed and played."
            )
        steps[k - 1] += " <decided>"
    else:
        out.append("  Not decided along the line shown: the result still depends on chance.")
    out.append(
        "  Likeliest line (each reveal its likeliest outcome): "
        + ", ".join(steps)
        + (f" -> {end}" if end else " ...")
    )
    return out
