"""Drawing a game review (:mod:`duel.solvers.review`): the move table, the summary, the graph of A's
win chance in the terminal, and the same graph as an SVG or PNG file.

The terminal graph is drawn with block characters by :func:`graph_lines` (rich only colours
it): no plotting dependency, and the text is the same on every machine, so tests can read it.
SVG is written by :func:`graph_svg`, a page of plain SVG elements (no dependency, deterministic
bytes); PNG needs a rasteriser, so it uses matplotlib when installed (``pip install
'wonders-duel[plot]'``) and says so in one line when not. The colours are the Okabe-Ito
colour-blind-safe ones, and neither graph relies on colour alone (A's chances are above the
middle line, B's below).

>>> points = ((9, 0.5), (20, 0.7), (40, 0.2), (60, 1.0))
>>> print("\\n".join(line.plain.rstrip() for line in graph_lines(points, 60, width=12, height=2)))
100% │           █
     │    ████   █
 50% ┼────────────
     │        ███
  0% │
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from duel.app.i18n import N_, clip, display_width, language, ljust, rjust, tr

if TYPE_CHECKING:
    from duel.record import GameRecord
    from duel.solvers.review import MoveReview, Review
    from duel.state import State

#: Okabe-Ito colours: A blue, B vermillion; marks from yellow to red.
A_COLOUR = "#0072B2"
B_COLOUR = "#D55E00"
MARK_COLOUR = {"inaccuracy": "#E69F00", "mistake": "#D55E00", "blunder": "#CC0000"}
MARKS_ORDER = ("inaccuracy", "mistake", "blunder")
MARK_LETTER = {"inaccuracy": "i", "mistake": "m", "blunder": "b"}
PLOT_SUFFIXES = (".svg", ".png")
#: The marks' names, for the catalogs (the JSON output keeps the English ones).
MARK_NAMES = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}
#: The review's notes on a move it did not value (duel.solvers.review), for the catalogs.
NOTES = {
    "not analysed": N_("not analysed"),
    "a choice among Great Library tokens the record hides: not judged": N_(
        "a choice among Great Library tokens the record hides: not judged"
    ),
    "the engine gave this move no value": N_("the engine gave this move no value"),
}


class PlotError(ValueError):
    """A plot that cannot be written (bad suffix, matplotlib missing); one line for the user."""


def _pct(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}%"


# --- the move list -----------------------------------------------------------------------------
MOVE_WIDTH = 44
MARK_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def loss_text(m: MoveReview) -> str:
    """A move's loss as every view of a review shows it: the win chance it gave away, with a
    minus sign (``-10.7%``), empty when the move was as good as the best.

    >>> from duel.solvers.review import MoveReview
    >>> loss_text(MoveReview(3, "A", "build Baths", value=0.4, best_move="x", loss=0.107))
    '-10.7%'
    >>> loss_text(MoveReview(3, "A", "build Baths", value=0.4, best_move="x", loss=0.0001))
    ''
    """
    from duel.solvers.review import EQUAL

    if m.best_move == m.move or m.loss is None or m.loss < EQUAL:
        return ""
    return f"-{_pct(m.loss)}"


def move_lines(m: MoveReview) -> list[str]:
    """A move as the review lists it: number, who, move, its win chance for the mover, the loss
    and the mark; when the engine preferred another move, a second line names it.

    >>> from duel.solvers.review import MoveReview
    >>> print("\\n".join(move_lines(MoveReview(12, "A", "build Baths", value=0.4,
    ...     best_move="wonder The Pyramids with Baths", best_value=0.52, loss=0.12,
    ...     mark="mistake", choices=5))))
     12 A build Baths                                    40.0%  -12.0%  ? mistake
            best: wonder The Pyramids with Baths 52.0%
    >>> move_lines(MoveReview(13, "chance", "reveal slot 9 Baths", probability=0.25))
    [' 13   chance: reveal slot 9 Baths (p 25.0%)']
    """
    from duel.solvers.review import EQUAL, SYMBOLS

    head = f"{m.number:3} {'' if m.player == 'chance' else m.player + ' '}"
    if m.player == "chance":
        if m.hidden:
            return [f"{head}  " + tr("chance: {move} (the other tokens are hidden)", move=m.move)]
        p = tr("certain") if m.probability == 1 else tr("p {p}", p=_pct(m.probability))
        return [f"{head}  " + tr("chance: {move} ({p})", move=m.move, p=p)]
    if m.note is not None or m.value is None:
        note = tr(NOTES[m.note]) if m.note in NOTES else m.note
        return [f"{head}{m.move:{MOVE_WIDTH}}  ({note})"]
    same = m.best_move == m.move or m.loss is None or m.loss < EQUAL
    loss = loss_text(m)
    if m.mark:
        mark = f"{SYMBOLS[m.mark]} {tr(MARK_NAMES[m.mark])}"
    else:
        mark = tr("forced") if m.choices == 1 else ""
    lines = [f"{head}{m.move:{MOVE_WIDTH}} {_pct(m.value):>7} {loss:>7}  {mark}".rstrip()]
    if not same:
        lines.append(
            f"{'':6}  " + tr("best: {move} {value}", move=m.best_move, value=_pct(m.best_value))
        )
    return lines


def move_list(review: Review, *, chance: bool = True) -> list[Text]:
    """Every move as styled lines (``chance=False`` leaves out what was dealt), under a header."""
    out = [
        Text(
            "  # "
            + ljust(tr("move"), MOVE_WIDTH + 2)
            + rjust(tr("win %"), 7)
            + " "
            + rjust(tr("loss"), 7)
            + "  "
            + tr("mark"),
            style="bold",
        ),
    ]
    for m in review.moves:
        if m.player == "chance" and not chance:
            continue
        style = "dim" if m.player == "chance" else MARK_STYLE.get(m.mark or "", "")
        for i, line in enumerate(move_lines(m)):
            out.append(Text(line, style=style if i == 0 else "dim"))
    return out


def summary_lines(review: Review) -> list[str]:
    """Per player: decisions judged, average loss, and each mark's count.

    >>> from duel.solvers.review import PlayerSummary, Review
    >>> s = {"A": PlayerSummary(30, 0.031, 20, 3, 1, 0), "B": PlayerSummary()}
    >>> print("\\n".join(summary_lines(Review((), s, (), "search", 1.0, "", {}))))
    player  decisions  average loss  best  inaccuracies  mistakes  blunders
    A              30          3.1%    20             3         1         0
    B               0          0.0%     0             0         0         0
    """
    headers = [
        tr("player"),
        tr("decisions"),
        tr("average loss"),
        tr("best"),
        tr("inaccuracies"),
        tr("mistakes"),
        tr("blunders"),
    ]
    widths = [
        max(w, display_width(h)) for w, h in zip((6, 9, 12, 4, 12, 8, 8), headers, strict=True)
    ]
    header = "  ".join(
        [ljust(headers[0], widths[0])]
        + [rjust(h, w) for h, w in zip(headers[1:], widths[1:], strict=True)]
    )
    lines = [header]
    for player, s in review.summary.items():
        cells = [s.decisions, _pct(s.average_loss), s.best, s.inaccuracy, s.mistake, s.blunder]
        lines.append(
            "  ".join(
                [ljust(player, widths[0])]
                + [rjust(str(c), w) for c, w in zip(cells, widths[1:], strict=True)]
            )
        )
    return lines


# --- the terminal graph -------------------------------------------------------------------------
def _column_values(points: tuple[tuple[int, float], ...], last: int, width: int) -> list[float]:
    """A's win chance in each of ``width`` columns spanning positions 0 to ``last``: the value
    of the latest point at or before the column's position (the first point before it)."""
    out = []
    for c in range(width):
        at = c * last / max(width - 1, 1)
        value = points[0][1]
        for index, v in points:
            if index <= at + 1e-9:
                value = v
        out.append(value)
    return out


def graph_lines(
    points: tuple[tuple[int, float], ...],
    last: int,
    *,
    width: int = 60,
    height: int = 4,
    marks: dict[int, str] | None = None,
    ages: dict[int, str] | None = None,
) -> list[Text]:
    """A's win chance as a chart filled from the 50% line: ``height`` rows above it (A ahead,
    blue) and as many below (B ahead, vermillion), each row two half-cells (6.25% each when
    ``height`` is 4), one column per slice of the game; ``marks`` and ``ages`` (column -> text)
    add a row each under the chart."""
    if not points:
        return [Text(tr("(no position was analysed)"))]
    values = _column_values(points, last, width)
    levels = [round((v - 0.5) * 4 * height) for v in values]  # half-cells above (+) or below
    rows: list[Text] = []
    for r in range(height):  # above the line, top first
        upper, lower = 2 * (height - r), 2 * (height - r) - 1
        text = Text("100% │" if r == 0 else "     │", style="dim")
        for k in levels:
            text.append("█" if k >= upper else "▄" if k >= lower else " ", style=A_COLOUR)
        rows.append(text)
    rows.append(Text(" 50% ┼" + "─" * width, style="dim"))
    for j in range(height):  # below the line, nearest first
        upper, lower = 2 * j + 1, 2 * j + 2
        text = Text("  0% │" if j == height - 1 else "     │", style="dim")
        for k in levels:
            text.append("█" if -k >= lower else "▀" if -k >= upper else " ", style=B_COLOUR)
        rows.append(text)
    for name, labels in ((tr("marks"), marks), (tr("Age"), ages)):
        if labels:
            row = [" "] * (width + 8)
            for column, label in sorted(labels.items()):
                row[column : column + len(label)] = label
            head = ljust(clip(name, 5, ""), 5)
            rows.append(Text(f"{head} " + "".join(row).rstrip(), style="dim" * (labels is ages)))
    return rows


def review_graph(review: Review, last: int, width: int = 60, height: int = 4) -> list[Text]:
    """The terminal graph of a review, with a row of marks (A's upper case, B's lower case)."""
    marks: dict[int, str] = {}
    severity = {"inaccuracy": 1, "mistake": 2, "blunder": 3}
    worst: dict[int, int] = {}
    for m in review.moves:
        if m.mark is None:
            continue
        column = round((m.number - 1) * (width - 1) / max(last, 1))
        if severity[m.mark] > worst.get(column, 0):
            worst[column] = severity[m.mark]
            letter = MARK_LETTER[m.mark]
            marks[column] = letter.upper() if m.player == "A" else letter
    ages = {
        round(index * (width - 1) / max(last, 1)): name.removeprefix("Age ")
        for index, name in review.ages.items()
    }
    lines = graph_lines(review.graph, last, width=width, height=height, marks=marks, ages=ages)
    lines.append(
        Text(
            tr(
                "A's chance of winning (above the middle line: A ahead); marks: i inaccuracy,"
                " m mistake, b blunder (upper case: A's)"
            ),
            style="dim",
        )
    )
    return lines


# --- the graph as a file ------------------------------------------------------------------------
def check_plot_path(path: Path) -> None:
    """Refuse a plot file that cannot be written, before any analysis starts.

    >>> check_plot_path(Path("game.pdf"))
    Traceback (most recent call last):
    ...
    duel.app.text.review.PlotError: --plot game.pdf: write a .svg or .png file
    """
    suffix = path.suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise PlotError(tr("--plot {path}: write a .svg or .png file", path=path))
    if suffix == ".png":
        from importlib.util import find_spec

        if find_spec("matplotlib") is None:
            raise PlotError(
                tr(
                    "--plot: PNG needs matplotlib (pip install 'wonders-duel[plot]'); "
                    "an .svg file needs nothing"
                )
            )
    if not path.parent.exists():
        raise PlotError(tr("--plot {path}: no folder {folder}", path=path, folder=path.parent))


def _title(review: Review) -> str:
    players = review.metadata.get("players")
    if isinstance(players, dict) and {"A", "B"} <= players.keys():
        return tr("A ({a}) vs B ({b}): A's chance of winning", a=players["A"], b=players["B"])
    return tr("A's chance of winning")


AXIS_LABEL = N_("move (above 50%: A ahead, below: B ahead)")


def graph_svg(review: Review, last: int, *, width: int = 800, height: int = 320) -> str:
    """The graph as an SVG page: A's win chance (line), the area between it and 50% (blue when
    A is ahead, vermillion when B is), the Ages, and a dot on every marked move with a tooltip.

    >>> from duel.solvers.review import Review
    >>> svg = graph_svg(Review((), {}, ((9, 0.5), (20, 0.8)), "search", 1.0, "", {}), 20)
    >>> svg.startswith("<svg") and "polyline" in svg and svg.endswith("</svg>\\n")
    True
    """
    left, right, top, bottom = 48, 16, 32, 36
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(index: float) -> float:
        return round(left + plot_w * index / max(last, 1), 1)

    def y(value: float) -> float:
        return round(top + plot_h * (1.0 - value), 1)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f"<title>{escape(_title(review))}</title>",
        f'<rect width="{width}" height="{height}" fill="white"/>',
        "<defs>",
        f'<clipPath id="upper"><rect x="{left}" y="{top}" width="{plot_w}"'
        f' height="{plot_h / 2}"/></clipPath>',
        f'<clipPath id="lower"><rect x="{left}" y="{top + plot_h / 2}" width="{plot_w}"'
        f' height="{plot_h / 2}"/></clipPath>',
        "</defs>",
        f'<text x="{left}" y="{top - 12}" font-size="14">{escape(_title(review))}</text>',
    ]
    for value in (0.0, 0.25, 0.5, 0.75, 1.0):
        dash = "" if value == 0.5 else ' stroke-dasharray="2,3"'
        out.append(
            f'<line x1="{left}" y1="{y(value)}" x2="{left + plot_w}" y2="{y(value)}"'
            f' stroke="#999"{dash}/>'
        )
        out.append(
            f'<text x="{left - 6}" y="{y(value) + 4}" text-anchor="end">{int(value * 100)}%</text>'
        )
    for index, name in sorted(review.ages.items()):
        out.append(
            f'<line x1="{x(index)}" y1="{top}" x2="{x(index)}" y2="{top + plot_h}"'
            ' stroke="#666" stroke-dasharray="4,3"/>'
        )
        out.append(f'<text x="{x(index) + 4}" y="{top + 12}" fill="#444">{escape(tr(name))}</text>')
    points = review.graph
    if points:
        line = " ".join(f"{x(i)},{y(v)}" for i, v in points)
        area = f"{x(points[0][0])},{y(0.5)} {line} {x(points[-1][0])},{y(0.5)}"
        out.append(
            f'<polygon points="{area}" fill="{A_COLOUR}" opacity="0.35" clip-path="url(#upper)"/>'
        )
        out.append(
            f'<polygon points="{area}" fill="{B_COLOUR}" opacity="0.35" clip-path="url(#lower)"/>'
        )
        out.append(f'<polyline points="{line}" fill="none" stroke="#222" stroke-width="1.5"/>')
    values = dict(points)
    for m in review.moves:
        if m.mark is None or m.number - 1 not in values:
            continue
        tip = tr(
            "{number}. {player} {move}: {mark}, -{loss} (best {best})",
            number=m.number,
            player=m.player,
            move=m.move,
            mark=tr(MARK_NAMES[m.mark]),
            loss=_pct(m.loss),
            best=m.best_move,
        )
        out.append(
            f'<circle cx="{x(m.number - 1)}" cy="{y(values[m.number - 1])}" r="4"'
            f' fill="{MARK_COLOUR[m.mark]}" stroke="black" stroke-width="0.5">'
            f"<title>{escape(tip)}</title></circle>"
        )
    out.append(f'<text x="{left}" y="{height - 8}">{escape(tr(AXIS_LABEL))}</text>')
    at = left + plot_w - 250
    for name in MARKS_ORDER:
        out.append(
            f'<circle cx="{at}" cy="{height - 12}" r="4" fill="{MARK_COLOUR[name]}"'
            ' stroke="black" stroke-width="0.5"/>'
        )
        out.append(f'<text x="{at + 7}" y="{height - 8}">{escape(tr(MARK_NAMES[name]))}</text>')
        at += 85
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_plot(review: Review, last: int, path: Path) -> None:
    """Write the graph to ``path`` (.svg: our own writer; .png: matplotlib)."""
    check_plot_path(path)
    if path.suffix.lower() == ".svg":
        path.write_text(graph_svg(review, last), encoding="utf-8")
        return
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 3.2), dpi=100)
    xs = [i for i, _ in review.graph]
    ys = [v for _, v in review.graph]
    axes.plot(xs, ys, color="#222", linewidth=1.2)
    above = [v >= 0.5 for v in ys]
    axes.fill_between(xs, ys, 0.5, where=above, interpolate=True, color=A_COLOUR, alpha=0.35)
    below = [v <= 0.5 for v in ys]
    axes.fill_between(xs, ys, 0.5, where=below, interpolate=True, color=B_COLOUR, alpha=0.35)
    for index, name in sorted(review.ages.items()):
        axes.axvline(index, color="#666", linestyle="--", linewidth=0.8)
        axes.text(index + 1, 0.95, tr(name), color="#444", fontsize=8)
    values = dict(review.graph)
    for m in review.moves:
        if m.mark is not None and m.number - 1 in values:
            axes.plot(
                m.number - 1,
                values[m.number - 1],
                "o",
                color=MARK_COLOUR[m.mark],
                markeredgecolor="black",
                markersize=5,
            )
    axes.axhline(0.5, color="#999", linewidth=0.8)
    axes.set_xlim(0, max(last, 1))
    axes.set_ylim(0, 1)
    axes.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    axes.set_xlabel(tr(AXIS_LABEL))
    for name in MARKS_ORDER:  # legend entries only
        label = tr(MARK_NAMES[name])
        axes.plot([], [], "o", color=MARK_COLOUR[name], markeredgecolor="black", label=label)
    axes.legend(loc="lower right", fontsize=8, ncols=3, frameon=False)
    axes.set_title(_title(review), fontsize=10, loc="left")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


# --- the whole review on standard output ------------------------------------------------------
def _final_text(review: Review, final: State | None) -> str:
    """How the game ended (or where it stopped), in the current language."""
    if final is None or language() == "en":
        return review.final
    from duel.app.text.lines import position_text

    if final.is_terminal():
        return position_text(final)
    return tr("unfinished: {position}", position=position_text(final))


def print_review(
    review: Review, last: int, *, chance: bool = True, final: State | None = None
) -> None:
    """The table, the graph and the summary, on standard output (``final``: the last position,
    for the result in the current language)."""
    from rich.console import Console

    console = Console(highlight=False)
    console.print(
        tr(
            "Every decision: the win chance of the move played for the player who made it (a"
            " shared victory counts 1/2), its loss against the engine's best move, and its mark."
        )
    )
    for line in move_list(review, chance=chance):
        console.print(line, crop=False, overflow="ignore")
    console.print()
    width = max(20, min(console.width - 8, 100))
    for line in review_graph(review, last, width=width):
        console.print(line, crop=False, overflow="ignore")
    console.print()
    console.print(tr("Result: {result}", result=_final_text(review, final)))
    for summary in summary_lines(review):
        console.print(summary)
    engine = (
        tr("{level}, {seconds} s per move", level=review.level, seconds=f"{review.seconds:g}")
        if review.seconds is not None
        else review.level
    )
    console.print(
        tr(
            "Engine: {engine}; values are win chances (a shared victory counts 1/2), losses in"
            " win chance for the player who moved; marks from a loss of 5% (inaccuracy), 10%"
            " (mistake), 20% (blunder).",
            engine=engine,
        )
    )


def review_and_print(record: GameRecord, *, seconds: float, progress: bool, seed: int = 0) -> None:
    """Review a game and print it (``review`` at the end of ``duel play``): the hint's engine
    (``cmcts``) with the hint's seed, so the review judges as the hints advised."""
    from duel.app.control.levels import default_player
    from duel.app.control.replay import Replay
    from duel.solvers.review import review_record

    level = default_player("cmcts")  # the search where the compiled MCTS is not built
    result = review_record(record, seconds=seconds, level=level, progress=progress, seed=seed)
    replay = Replay.of(record)
    print_review(result, replay.last, final=replay.states[-1])

