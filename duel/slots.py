"""The slot numbers of each Age's structure as text (``duel show --slots``, the position format).

A position's ``pyramid`` lists the 20 slots in this order: row 1 is the most covered row (the
top of the drawing, the last cards to be taken), left to right. ``[ n]`` is a face-up slot,
``( n)`` a face-down one; each card is covered by the two cards drawn half a card below it on
either side.

>>> print(slot_diagram(1))
Age I (rows 1-5; row 5 is taken from first)
  row 1:             [ 0]  [ 1]
  row 2:          ( 2)  ( 3)  ( 4)
  row 3:       [ 5]  [ 6]  [ 7]  [ 8]
  row 4:    ( 9)  (10)  (11)  (12)  (13)
  row 5: [14]  [15]  [16]  [17]  [18]  [19]
"""

from __future__ import annotations

from collections.abc import Callable

from duel.catalog import AGE_NAMES
from duel.pyramid_layouts import LAYOUTS

__all__ = ["slot_diagram", "slot_diagrams", "slot_place"]

_UNIT = 3  # columns per half card


def slot_place(age: int, slot: int) -> tuple[int, int]:
    """(row, place from the left) of ``slot`` in the Age's structure, both from 1.

    >>> slot_place(3, 9)
    (4, 1)
    """
    layout = LAYOUTS[age]
    row = layout.row_of[slot]
    return row, sorted(layout.rows[row - 1], key=lambda s: layout.x[s]).index(slot) + 1


def _english(msgid: str, /, **values: object) -> str:
    return msgid.format(**values)


def slot_diagram(age: int, tr: Callable[..., str] = _english) -> str:
    """One Age's structure: every slot by number, in its place, face up ``[n]`` or down ``(n)``.
    ``tr`` translates and formats the words (the programs pass theirs: the engine imports no
    UI)."""
    layout = LAYOUTS[age]
    rows = layout.rows
    left = min(layout.x) - 1
    head = tr(
        "{age} (rows 1-{n}; row {n} is taken from first)", age=tr(AGE_NAMES[age]), n=len(rows)
    )
    lines = [head]
    for r, row in enumerate(rows, 1):
        text = ""
        for slot in sorted(row, key=lambda s: layout.x[s]):
            column = (layout.x[slot] - 1 - left) * _UNIT
            opening, closing = ("[", "]") if layout.face_up[slot] else ("(", ")")
            text = text.ljust(column) + f"{opening}{slot:2d}{closing}"
        lines.append(("  " + tr("row {r}:", r=r) + f" {text}").rstrip())
    return "\n".join(lines)


def slot_diagrams(tr: Callable[..., str] = _english) -> str:
    """All three Ages, with the legend."""
    legend = tr(
        "Slot numbers of each Age's structure, as in a position's \"pyramid\" list.\n"
        "[n] face-up slot, (n) face-down slot; a card is free to take when no card of the row\n"
        "below it overlaps it. Row 1 is the most covered row."
    )
    return "\n\n".join([legend] + [slot_diagram(age, tr) for age in (1, 2, 3)])
