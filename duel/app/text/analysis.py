"""The live analysis drawn (:mod:`duel.app.control.analysis` is its control): the best moves
with their values as they settle, the budget searched so far, "exact" when the exact solver
answered, and a one-line summary for the card line of a small screen."""

from __future__ import annotations

from rich.text import Text

from duel.app.control.analysis import Snapshot
from duel.app.i18n import clip, tr
from duel.moves import PLAYER_NAMES

__all__ = ["analysis_summary", "analysis_text"]


def _budget(snapshot: Snapshot) -> str:
    n = snapshot.iterations
    return f"{n // 1000}k" if n >= 1000 else str(n)


def _value(value: float | None) -> str:
    return "?" if value is None else f"{100 * value:.1f}%"


def analysis_text(snapshot: Snapshot | None, *, running: bool, width: int) -> Text:
    """The panel: a heading with the engine and the budget, then each move with its value for
    the player to move and the line after it; how the best value moved as the budget grew."""
    out = Text()
    if snapshot is None:
        said = tr("Live analysis: starting...") if running else tr("Live analysis: stopped.")
        out.append(said, style="dim")
        return out
    if snapshot.exact:
        state = tr("exact (the solver finished)")
    elif snapshot.done:
        state = tr("done at {budget} iterations", budget=_budget(snapshot))
    elif running:
        state = tr("deepening: {budget} iterations, {seconds} s", budget=_budget(snapshot),
                   seconds=f"{snapshot.seconds:.0f}")
    else:
        state = tr("stopped at {budget} iterations", budget=_budget(snapshot))
    out.append(tr("Live analysis ({engine}): {state}", engine=snapshot.engine, state=state),
               style="bold green" if snapshot.exact else "bold")
    who = PLAYER_NAMES[snapshot.player]
    out.append("\n" + tr("{player}'s chance of winning after each move:", player=who),
               style="dim")
    for i, line in enumerate(snapshot.moves, 1):
        out.append(f"\n{i}. {line.move}: ", style="bold" if i == 1 else "")
        out.append(_value(line.value), style="bold cyan" if i == 1 else "cyan")
        if line.line:
            then = " " + tr("then {line}", line=", ".join(line.line))
            out.append(clip(then, max(8, width - 4)), style="dim")
    if len(snapshot.history) > 1:
        trail = " → ".join(f"{100 * v:.0f}%" for _, v in snapshot.history[-6:])
        out.append("\n" + tr("best value as it deepened: {trail}", trail=trail), style="dim")
    return out


def analysis_summary(snapshot: Snapshot | None, *, running: bool) -> Text:
    """One line: the best move and its value, the budget, "exact"."""
    if snapshot is None or not snapshot.moves:
        return Text(tr("Live analysis: starting...") if running else "", style="dim")
    best = snapshot.moves[0]
    how = tr("exact") if snapshot.exact else _budget(snapshot)
    text = Text(tr("Analysis") + ": ", style="bold")
    text.append(f"{best.move} {_value(best.value)}", style="bold cyan")
    for line in snapshot.moves[1:3]:
        text.append(f" · {line.move} {_value(line.value)}")
    text.append(f" ({how})", style="dim")
    return text
