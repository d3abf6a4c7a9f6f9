"""``duel analyze --exact`` as a player reads it: a move's exact report in words, the likely time
of an exact solve, and a progress bar for a search with a time limit.

The report itself (:class:`duel.solvers.endgame.EndgameReport`) comes from the solver; here it is
only written out: the reveals after the move (most likely first, the rare ones summed up), the
reply, the victories in reach, where the best line is decided and how it ends.

>>> solve_time_note(8, 1)
'8 cards left: an exact solve usually takes under a second.'
>>> solve_time_note(13, 1)
'13 cards left: an exact solve usually takes a few seconds (4 in 5 within 5 s on 1 thread).'
>>> solve_time_note(16, 2)
'16 cards left: an exact solve usually takes under a minute (4 in 5 within 40 s on 2 threads).'
>>> solve_time_note(18, 2).split(":")[1].strip()
'an exact solve may take minutes (measured solve times stop at 16 cards).'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from duel.app.i18n import N_, tr, trn
from duel.app.text.lines import VICTORIES, chance_event, line_steps
from duel.moves import PLAYER_NAMES, Move
from duel.state import State

__all__ = ["report_lines", "run_with_progress", "solve_time_note"]

#: Reveals listed one by one; the others are summed up in one line.
SHOWN_REVEALS = 6
T = TypeVar("T")


def _pct(value: float) -> str:
    return f"{100 * min(1.0, max(0.0, value)):.1f}%"  # no "-0.0%" from rounding


def _seconds(t: float) -> str:
    return tr("{n} s", n=f"{t:.0f}") if t < 90 else tr("{n} min", n=f"{t / 60:.0f}")


def solve_time_note(cards: int, threads: int) -> str:
    """The likely time of an exact solve with ``cards`` left in the structure on ``threads``, from
    the measured 80th percentiles (:func:`duel.solvers.players.exact_p80_seconds`)."""
    from duel.solvers.cmcts_player import (
        EXACT_P80_SECONDS,
        EXACT_P80_SECONDS_2_THREADS,
        exact_p80_seconds,
    )

    p80 = exact_p80_seconds(cards, threads)
    if p80 is None:
        measured = max(max(EXACT_P80_SECONDS), max(EXACT_P80_SECONDS_2_THREADS))
        return tr(
            "{cards} cards left: an exact solve may take minutes (measured solve times stop at"
            " {measured} cards).",
            cards=cards,
            measured=measured,
        )
    if p80 < 1.0:
        return tr("{cards} cards left: an exact solve usually takes under a second.", cards=cards)
    usually = tr(
        N_("a few seconds") if p80 < 20 else N_("under a minute") if p80 < 60 else N_("minutes")
    )
    return tr(
        "{cards} cards left: an exact solve usually takes {usually} (4 in 5 within {time} on"
        " {threads}).",
        cards=cards,
        usually=usually,
        time=_seconds(p80 + 0.5),
        threads=trn(threads, "{n} thread", "{n} threads"),
    )


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
        task = progress.add_task(what, total=seconds, left=_left(seconds))
        thread.start()
        while thread.is_alive():
            used = time.perf_counter() - start
            left = max(0.0, seconds - used)
            progress.update(task, completed=min(used, seconds), left=_left(left))
            thread.join(0.1)
    if error:
        raise error[0]
    return result[0]


def _left(seconds: float) -> str:
    return tr("{n} s left", n=f"{seconds:.0f}")


def _reveal_text(outcomes) -> str:
    return ", ".join(chance_event(m, localized=True) for m in outcomes)


def _threat_text(threat) -> str:
    """A victory in reach (:class:`duel.solvers.endgame.Threat`) in words."""
    who = PLAYER_NAMES[threat.player]
    if threat.kind == "science":
        return tr(
            "{player} is {n} science symbol(s) from a science victory",
            player=who,
            n=threat.distance,
        )
    return tr("{player} is {n} space(s) from the opponent's capital", player=who, n=threat.distance)


def report_lines(state: State, report, title: str) -> list[str]:
    """The report on ``report.move`` at ``state`` in lines of text, values for the mover."""
    me = PLAYER_NAMES[report.player]
    out = [
        tr(
            "{title}: {player} {move}  {value} for {player} (exact)",
            title=tr(title),
            player=me,
            move=report.move,
            value=_pct(report.value),
        )
    ]
    reveals = report.reveals
    if len(reveals) == 1 and not reveals[0].outcomes:
        r = reveals[0]
        if r.decider is None:
            out.append("  " + tr("Nothing is revealed: the move ends the game."))
        else:
            out.append(
                "  "
                + tr(
                    "Nothing is revealed; {decider} decides next: best {reply} ({value} for"
                    " {player}).",
                    decider=PLAYER_NAMES[r.decider],
                    reply=r.reply,
                    value=_pct(r.value),
                    player=me,
                )
            )
    else:
        out.append(
            "  "
            + trn(
                len(reveals),
                "{n} possible reveal before the next decision (probability: what is revealed:"
                " {player}'s win chance then, the best reply):",
                "{n} possible reveals before the next decision (probability: what is revealed:"
                " {player}'s win chance then, the best reply):",
                player=me,
            )
        )
        shown = len(reveals) if len(reveals) <= SHOWN_REVEALS + 1 else SHOWN_REVEALS
        for r in reveals[:shown]:
            reply = tr("game over") if r.decider is None else f"{PLAYER_NAMES[r.decider]} {r.reply}"
            out.append(
                f"    {_pct(r.probability):>6}  "
                + tr(
                    "{reveal}: {value}, {reply}",
                    reveal=_reveal_text(r.outcomes),
                    value=_pct(r.value),
                    reply=reply,
                )
            )
        rest = reveals[shown:]
        if rest:
            values = [r.value for r in rest]
            out.append(
                f"    {_pct(sum(r.probability for r in rest)):>6}  "
                + tr(
                    "{n} other reveals: {low}-{high}",
                    n=len(rest),
                    low=_pct(min(values))[:-1],
                    high=_pct(max(values)),
                )
            )
    if report.threats:
        out.append(
            "  "
            + tr(
                "In reach after the move: {threats}.",
                threats="; ".join(map(_threat_text, report.threats)),
            )
        )
    else:
        out.append("  " + tr("No science or military victory in reach after the move."))
    localized = line_steps(state, report.line, localized=True)
    steps = [
        tr("[chance: {text}]", text=text) if who == "chance" else f"{who} {text}"
        for who, text in localized
    ]
    end = ""
    if report.line_victory:
        end = (
            tr("a shared victory")
            if report.line_winner is None
            else tr(
                "{winner} wins ({victory})",
                winner=PLAYER_NAMES[report.line_winner],
                victory=tr(VICTORIES.get(report.line_victory, f"{report.line_victory} victory")),
            )
        )
    k = report.decided_at
    if k is not None and 0 < k <= len(steps):
        who, text = localized[k - 1]
        step = (
            tr("once {event}", event=chance_event(Move(report.line[k - 1]), localized=True))
            if who == "chance"
            else tr("after {player} {move}", player=who, move=text)
        )
        result = (
            tr("the game is shared")
            if report.line_winner is None
            else tr("{winner} wins", winner=PLAYER_NAMES[report.line_winner])
        )
        if k == len(steps):
            out.append("  " + tr("Decided only at the end: {end}.", end=end))
        else:
            out.append(
                "  "
                + tr(
                    "Decided {step} (step {k} of the likeliest line): from there {result}"
                    " whatever is revealed and played.",
                    step=step,
                    k=k,
                    result=result,
                )
            )
        steps[k - 1] += tr(" <decided>")
    else:
        out.append(
            "  " + tr("Not decided along the line shown: the result still depends on chance.")
        )
    out.append(
        "  "
        + tr("Likeliest line (each reveal its likeliest outcome): {line}", line=", ".join(steps))
        + (tr(" -> {end}", end=end) if end else " ...")
    )
    return out
