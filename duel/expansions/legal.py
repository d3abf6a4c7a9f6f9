"""What can happen at a node of an expansion game: the legal decisions of each phase, and the
chance outcomes with their exact weights (in a view: over what its player cannot rule out)."""

from __future__ import annotations

from itertools import combinations, permutations
from typing import TYPE_CHECKING

from duel.catalog import (
    AGE_DECK,
    MAX_WONDERS_BUILT,
    bits,
)
from duel.expansions import senate
from duel.expansions.components import (
    MYTHOLOGIES,
    MYTHOLOGY_TOKENS_PER_KIND,
    XCARDS,
    token_slots,
)
from duel.expansions.moves import OFFERING_ORDERS, XMove
from duel.expansions.table import (
    COLOR_OF,
    GUILD_SET,
    TEMPLE_SET,
    deck_index,
    token_pool,
)
from duel.pyramid_layouts import SLOTS

if TYPE_CHECKING:
    from duel.expansions.state import XState


# --- legal decisions, by phase -------------------------------------------------------------------
def _play_moves(s: XState) -> list[XMove]:
    player = s.to_move
    city = s.cities[player]
    wonders = []
    if s.wonders_built_count() < MAX_WONDERS_BUILT:
        wonders = [w for w in city.wonders if s.wonder_cost(player, w) <= city.funds]
    moves = []
    for slot in bits(s.accessible):
        card = s.pyramid[slot]
        if s.card_cost(player, card) <= city.funds:
            moves.append(XMove("build", (card,)))
        moves.append(XMove("discard", (card,)))
        moves.extend(XMove("wonder", (w, card)) for w in wonders)
    if s.pantheon and s.age >= 2:
        moves.extend(_activations(s))
    if s.agora:
        moves.extend(_agora_moves(s))
    return moves


def _agora_moves(s: XState) -> list[XMove]:
    """A card may prepare one of the mover's Conspiracies; a prepared one (not this turn's) may
    be triggered once a turn, before the card is taken."""
    plots = s.cities[s.to_move].plots
    waiting = [i + 1 for i, p in enumerate(plots) if not p.prepared and not p.used]
    moves = [XMove("prepare", (s.pyramid[slot], k)) for slot in bits(s.accessible) for k in waiting]
    if not s.triggered:
        moves += senate.trigger_moves(s, lambda p: p.prepared and not p.fresh and not p.used)
    return moves


def _activations(s: XState) -> list[XMove]:
    player = s.to_move
    city = s.cities[player]
    moves = []
    for index, space in enumerate(s.spaces):
        if space is None or not space.face_up:
            continue
        price = s.activation_price(player, index + 1)
        for n in range(len(city.offerings) + 1):
            for used in sorted(set(combinations(sorted(city.offerings), n))):
                # a token whose value the price does not need is never spent: it would be lost
                if used and sum(used) - min(used) >= price:
                    continue
                if max(0, price - sum(used)) <= city.funds:
                    moves.append(XMove("activate", (space.divinity, used)))
    return moves


def _seat_moves(s: XState) -> list[XMove]:
    empty = [i + 1 for i, space in enumerate(s.spaces) if space is None]
    if s.drawn is None:
        return [XMove("seat", (None, s.drawing, space)) for space in empty]
    names = sorted(set(s.drawn))
    return [XMove("seat", (d, s.drawing, space)) for d in names for space in empty]


def _choose_token_moves(s: XState) -> list[XMove]:
    source = {"choose_token": s.board, "library_choose": s.library, "enki_choose": s.enki_tokens}
    return [XMove("token", (t,)) for t in sorted(source[s.phase])]


def _destroy_moves(s: XState) -> list[XMove]:
    victim = s.cities[1 - s.to_move]
    return [XMove("destroy", (c,)) for c in sorted(victim.cards) if COLOR_OF[c] == s.destroying]


def _built_wonder_moves(s: XState) -> list[XMove]:
    return [XMove("unbuild", (w,)) for city in s.cities for w in sorted(city.built_wonders)]


def _isis_moves(s: XState) -> list[XMove]:
    wonders = sorted(s.cities[s.to_move].wonders)
    return [XMove("isis", (w, c)) for w in wonders for c in sorted(s.discard)]


DECISIONS = {
    "play": _play_moves,
    "draft": lambda s: [XMove("pick", (w,)) for w in sorted(s.offer)],
    "choose_token": _choose_token_moves,
    "library_choose": _choose_token_moves,
    "enki_choose": _choose_token_moves,
    "destroy": _destroy_moves,
    "mausoleum": lambda s: [XMove("mausoleum", (c,)) for c in sorted(s.discard)],
    "choose_starter": lambda s: [XMove("start", (0,)), XMove("start", (1,))],
    "seat": _seat_moves,
    "nisaba": lambda s: [
        XMove("snake", (c,))
        for c in sorted(s.cities[1 - s.to_move].cards)
        if XCARDS[c].science is not None
    ],
    "baal": lambda s: [
        XMove("take", (c,))
        for c in sorted(s.cities[1 - s.to_move].cards)
        if COLOR_OF[c] in ("brown", "grey")
    ],
    "zeus": lambda s: [XMove("zeus", (slot,)) for slot in bits(s.present)],
    "anubis": _built_wonder_moves,
    "isis": _isis_moves,
    "ra": lambda s: [XMove("steal", (w,)) for w in sorted(s.cities[1 - s.to_move].wonders)],
    "minerva": lambda s: [XMove("minerva", (x,)) for x in range(-9, 10) if x != s.pawn],
    "neptune_remove": lambda s: [XMove("remove", (i,)) for i in bits(s.military)],
    "neptune_apply": lambda s: [XMove("apply", (i,)) for i in bits(s.military)],
    "gate_choose": lambda s: [XMove("choose", (d,)) for d in s.chosen],
    "theater_deck": lambda s: [
        XMove("theater", (m,)) for i, m in enumerate(MYTHOLOGIES) if s.deck_size[i]
    ],
    "theater_choose": lambda s: [XMove("choose", (d,)) for d in s.chosen],
    "theater_order": lambda s: [XMove("order", (p,)) for p in sorted(set(permutations(s.chosen)))],
    **senate.DECISIONS,
}


# --- chance outcomes, by phase --------------------------------------------------------------------
def reveal_pool(s: XState, slot: int) -> list[int]:
    """The cards ``slot`` can turn out to be: the unseen cards of the Age, in Age III only the
    unseen guilds or Grand Temples for a slot with their back, only Age III cards for another
    (Agora: by the slot's back; a Senator back is :func:`senate.senator_reveal_outcomes`)."""
    if s.agora:
        return senate.agora_reveal_pool(s, slot)
    if s.age < 3:
        return sorted(s.unseen)
    backs = TEMPLE_SET if s.pantheon else GUILD_SET
    pool = backs if s.back_slots >> slot & 1 else frozenset(bits(AGE_DECK[3]))
    return sorted(s.unseen & pool)


def _slot_outcomes(s: XState, slot: int) -> list[tuple[XMove, int]]:
    if s.agora and s.backs[slot] == "senator":
        return senate.senator_reveal_outcomes(s, slot)
    return [(XMove("reveal_card", (slot, c)), 1) for c in reveal_pool(s, slot)]


def _reveal_outcomes(s: XState) -> list[tuple[XMove, int]]:
    return _slot_outcomes(s, (s.reveal & -s.reveal).bit_length() - 1)


def _mythology_outcomes(s: XState) -> list[tuple[XMove, int]]:
    slot = next(x for x in token_slots(s.expansions)[0] if x not in s.mythology_on)
    placed = list(s.mythology_on.values())
    return [
        (XMove("place_mythology", (slot, m)), MYTHOLOGY_TOKENS_PER_KIND - placed.count(m))
        for m in MYTHOLOGIES
        if placed.count(m) < MYTHOLOGY_TOKENS_PER_KIND
    ]


def _draw_outcomes(s: XState) -> list[tuple[XMove, int]]:
    mythology = s.drawing
    assert mythology is not None  # a draw is pending
    if s.observer is not None and s.observer != s.to_move:
        return [(XMove("draw_divinities", (mythology, None)), 1)]
    i = deck_index(mythology)
    count = min(2, s.deck_size[i])
    tops = s.deck_tops[i][:count]
    known = tuple(c.divinity for c in tops if c.divinity is not None)
    pool = s.unaccounted(mythology)
    return [
        (XMove("draw_divinities", (mythology, tuple(sorted(known + extra)))), 1)
        for extra in combinations(pool, count - len(known))
    ]


def _flip_outcomes(s: XState) -> list[tuple[XMove, int]]:
    index = next(i for i, sp in enumerate(s.spaces) if sp is not None and not sp.face_up)
    space = s.spaces[index]
    assert space is not None and space.mythology is not None  # a face-down Divinity
    if space.divinity is not None:
        return [(XMove("flip", (index + 1, space.divinity)), 1)]
    return [(XMove("flip", (index + 1, d)), 1) for d in s.unaccounted(space.mythology)]


def _enki_outcomes(s: XState) -> list[tuple[XMove, int]]:
    box = s.box_tokens
    return [(XMove("enki_tokens", (pair,)), 1) for pair in combinations(box, min(2, len(box)))]


def _top_outcomes(s: XState) -> list[tuple[XMove, int]]:
    mythology = s.revealing[0]
    tops = s.deck_tops[deck_index(mythology)]
    if tops and tops[0].divinity is not None:
        return [(XMove("top", (mythology, tops[0].divinity)), 1)]
    return [(XMove("top", (mythology, d)), 1) for d in s.unaccounted(mythology)]


def _deck_outcomes(s: XState) -> list[tuple[XMove, int]]:
    mythology = s.revealing[0]
    i = deck_index(mythology)
    known = tuple(c.divinity for c in s.deck_tops[i] if c.divinity is not None)
    unknown = s.deck_size[i] - len(known)
    return [
        (XMove("deck", (mythology, tuple(sorted(known + extra)))), 1)
        for extra in combinations(s.unaccounted(mythology), unknown)
    ]


def _library_outcomes(s: XState) -> list[tuple[XMove, int]]:
    box = s.box_tokens
    return [(XMove("library_draw", (d,)), 1) for d in combinations(box, min(3, len(box)))]


def _zeus_reveal_outcomes(s: XState) -> list[tuple[XMove, int]]:
    return _slot_outcomes(s, s.chosen[0])


CHANCE = {
    "setup_tokens": lambda s: [
        (XMove("reveal_token", (t,)), 1) for t in token_pool(s.expansions) if t not in s.board
    ],
    "setup_wonders": lambda s: [
        (XMove("reveal_wonder", (w,)), 1) for w in sorted(s.wonders_unseen)
    ],
    "reveal": _reveal_outcomes,
    "deal_backs": lambda s: [
        (XMove("deal_backs", ("temples" if s.pantheon else "guilds", slots)), 1)
        for slots in combinations(range(SLOTS), 3)
    ],
    "library_draw": _library_outcomes,
    "place_mythology": _mythology_outcomes,
    "place_offerings": lambda s: [(XMove("place_offerings", (o,)), 1) for o in OFFERING_ORDERS],
    "draw_divinities": _draw_outcomes,
    "flip": _flip_outcomes,
    "enki_tokens": _enki_outcomes,
    "top": _top_outcomes,
    "deck": _deck_outcomes,
    "zeus_reveal": _zeus_reveal_outcomes,
    **senate.CHANCE,
}
