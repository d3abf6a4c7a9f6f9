"""The three Age structures of 7 Wonders Duel: 20 slots each, rows, face-up rows and covering.

Slots are numbered 0-19 in reading order (row 1 = the most covered row, left to right). A card is
accessible when every card covering it has been taken; a face-down card turns face up as soon as
it is accessible.

>>> AGE_I = LAYOUTS[1]
>>> AGE_I.covered_by[0], AGE_I.initially_accessible == frozenset(range(14, 20))
((2, 3), True)
>>> AGE_I.rows
((0, 1), (2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12, 13), (14, 15, 16, 17, 18, 19))
"""

from __future__ import annotations

from dataclasses import dataclass

from duel import data

SLOTS = 20


@dataclass(frozen=True)
class Layout:
    """One Age structure. Masks are 20-bit ints with bit ``s`` for slot ``s``."""

    age: int
    row_of: tuple[int, ...]
    x: tuple[int, ...]
    face_up: tuple[bool, ...]
    covered_by: tuple[tuple[int, ...], ...]
    covers: tuple[tuple[int, ...], ...]

    @property
    def slots(self) -> int:
        """How many cards the structure holds (20; Agora's: 25, 25 and 23)."""
        return len(self.row_of)

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        count = max(self.row_of)
        return tuple(
            tuple(s for s in range(self.slots) if self.row_of[s] == r) for r in range(1, count + 1)
        )

    @property
    def covered_by_mask(self) -> tuple[int, ...]:
        return tuple(sum(1 << c for c in cover) for cover in self.covered_by)

    @property
    def face_up_mask(self) -> int:
        return sum(1 << s for s in range(self.slots) if self.face_up[s])

    @property
    def initially_accessible(self) -> frozenset[int]:
        return frozenset(s for s in range(self.slots) if not self.covered_by[s])

    def accessible(self, present: frozenset[int] | set[int]) -> frozenset[int]:
        """Slots in ``present`` with no covering card left in ``present``."""
        return frozenset(s for s in present if not any(c in present for c in self.covered_by[s]))


def layout_from_data(age: int, slots: list[dict]) -> Layout:
    """A structure from its data entries (``data/duel/layouts.json``, and the Agora structures
    of ``data/duel/agora.json``): slot, row, x, face_up and the slots covering each."""
    slots = sorted(slots, key=lambda s: s["slot"])
    covers: list[list[int]] = [[] for _ in slots]
    for s in slots:
        for c in s["covered_by"]:
            covers[c].append(s["slot"])
    return Layout(
        age=age,
        row_of=tuple(s["row"] for s in slots),
        x=tuple(s["x"] for s in slots),
        face_up=tuple(s["face_up"] for s in slots),
        covered_by=tuple(tuple(s["covered_by"]) for s in slots),
        covers=tuple(tuple(sorted(c)) for c in covers),
    )


def _load() -> dict[int, Layout]:
    return {
        int(age): layout_from_data(int(age), slots)
        for age, slots in data.load("duel/layouts.json").items()
    }


LAYOUTS: dict[int, Layout] = _load()

__all__ = ["LAYOUTS", "SLOTS", "Layout", "layout_from_data"]
