"""Build hand-made positions for rule tests through the public JSON position format; and
records in the order of version 1 (:func:`old_order`)."""

from __future__ import annotations

from typing import Any

from duel import CARDS, State, card_named
from duel.position import FACE_DOWN, FACE_DOWN_GUILD, position_from_json
from duel.pyramid_layouts import LAYOUTS, SLOTS


def _removal_order(age: int, count: int) -> list[int]:
    """Slots taken in a legal order: the highest-numbered accessible slot (bottom row) first."""
    layout = LAYOUTS[age]
    present = set(range(SLOTS))
    taken: list[int] = []
    for _ in range(count):
        slot = max(layout.accessible(present))
        present.discard(slot)
        taken.append(slot)
    return taken


def make_state(
    age: int = 1,
    accessible: list[str] = (),
    A: dict[str, Any] | None = None,
    B: dict[str, Any] | None = None,
    discard: list[str] = (),
    board: list[str] = ("Agriculture", "Law", "Masonry", "Philosophy", "Theology"),
    pawn: int = 0,
    military: list[str] | None = None,
    to_move: str = "A",
    phase: str = "play",
    guild_backs: list[int] | None = None,
    **extra: Any,
) -> State:
    """A consistent position: cities as given, ``accessible`` cards in the accessible slots.

    Slots are emptied to account for the current Age's cards already in the cities, discard
    pile and under wonders; every other accessible or face-up slot gets a filler card. In Age
    III the guilds not on the table are face down in the ``guild_backs`` slots (default: the
    lowest face-down slots, the last to be revealed).
    """
    players = {"A": {"coins": 7, **(A or {})}, "B": {"coins": 7, **(B or {})}}
    listed = [*discard, *accessible]
    for p in players.values():
        listed += list(p.get("city", [])) + list(p.get("wonder_cards", []))
    ids = {card_named(n).id for n in listed}
    in_age = lambda c: CARDS[c].age == age or (age == 3 and CARDS[c].age == 4)  # noqa: E731
    outside = [c for c in ids if in_age(c) and card_named(CARDS[c].name).name not in accessible]
    taken = _removal_order(age, len(outside))
    layout = LAYOUTS[age]
    present = set(range(SLOTS)) - set(taken)
    open_slots = sorted(layout.accessible(present))
    guilds_used = sum(1 for c in ids if CARDS[c].age == 4)
    fillers = [
        c.name
        for c in CARDS
        if in_age(c.id)
        and c.id not in ids
        and (c.age != 4 or (guilds_used := guilds_used + 1) <= 3)
    ]
    pyramid: list[str | None] = []
    wanted = list(accessible)
    for slot in range(SLOTS):
        if slot in taken:
            pyramid.append(None)
        elif slot in open_slots and wanted:
            pyramid.append(wanted.pop(0))
        elif slot in open_slots or layout.face_up[slot]:
            pyramid.append(fillers.pop(0))
        else:
            pyramid.append(FACE_DOWN)
    if wanted:
        raise ValueError(f"not enough accessible slots for {wanted}")
    if age == 3:
        placed = {card_named(n).id for n in pyramid if n not in (None, FACE_DOWN)}
        down = 3 - sum(1 for c in ids | placed if CARDS[c].age == 4)
        face_down = [slot for slot, v in enumerate(pyramid) if v == FACE_DOWN]
        for slot in guild_backs if guild_backs is not None else face_down[:down]:
            pyramid[slot] = FACE_DOWN_GUILD
    data = {
        "age": age,
        "phase": phase,
        "to_move": to_move,
        "pyramid": pyramid,
        "military": {
            "pawn": pawn,
            "tokens": military if military is not None else ["A2", "A5", "B2", "B5"],
        },
        "progress_tokens": list(board),
        "discard": list(discard),
        "players": players,
        **extra,
    }
    return position_from_json(data, strict=False)


def slot_of(state: State, name: str) -> int:
    return state.pyramid.index(card_named(name).id)


def settle(state: State) -> State:
    """Resolve pending chance nodes with their first outcome (deterministic)."""
    while state.is_chance():
        state = state.apply(state.chance_outcomes()[0][0])
    return state


def after(state: State, *moves: str) -> State:
    """Apply moves in notation; chance nodes in between are settled with ``settle``."""
    from duel import Move

    for text in moves:
        move = Move.parse(text)
        if not move.is_chance:
            state = settle(state)
        state = state.apply(move)
    return state


def end_of_age(age: int, keep: list[str], **kwargs: Any) -> State:
    """A position where only the ``keep`` cards are left in the structure.

    The other cards of the Age are put in the discard pile (plus any ``discard`` given).
    """
    from duel.catalog import AGE_DECK, GUILDS, bits

    used = set(keep) | set(kwargs.get("discard", ()))
    for p in ("A", "B"):
        used |= set(kwargs.get(p, {}).get("city", ())) | set(
            kwargs.get(p, {}).get("wonder_cards", ())
        )
    used_ids = {card_named(n).id for n in used}
    in_age = [c for c in used_ids if CARDS[c].age == age or (age == 3 and CARDS[c].age == 4)]
    taken_needed = SLOTS - len(in_age)  # the keep cards are in_age and stay in the structure
    pool = [c for c in bits(AGE_DECK[age]) if c not in used_ids]
    if age == 3:
        guilds_used = sum(1 for c in used_ids if CARDS[c].age == 4)
        ages_used = sum(1 for c in used_ids if CARDS[c].age == 3)
        guild_pool = [c for c in bits(GUILDS) if c not in used_ids][: 3 - guilds_used]
        pool = pool[: 17 - ages_used] + guild_pool
    extra = [CARDS[c].name for c in pool[:taken_needed]]
    kwargs["discard"] = list(kwargs.get("discard", ())) + extra
    return make_state(age=age, accessible=keep, **kwargs)


def old_order(moves: list) -> list:
    """``moves`` of a game as a version 1 record lists them: each ``start`` before the next
    Age's layout (the chance outcomes just before it: the guild deal and the face-up reveals),
    as the engine asked for it until the layout came first."""
    from duel import Kind

    out = list(moves)
    for i, m in enumerate(moves):
        if m.kind is Kind.STARTER:
            at = i
            while out[at - 1].is_chance:
                at -= 1
            out[at : i + 1] = [m, *out[at:i]]
    return out
