"""The rules of an expansion game: how each move changes a state.

Each ``_apply_*`` function takes ``t``, a fresh copy of the state being built (mutated in place,
then frozen by :meth:`duel.expansions.state.XState.apply`), and the move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyrsistent import pmap

from duel.catalog import (
    MAX_WONDERS_BUILT,
    T_THEOLOGY,
    T_URBANISM,
)
from duel.expansions.components import (
    DIVINITY,
    GATE,
    MYTHOLOGIES,
    W_CURIA_JULIA,
    W_DIVINE_THEATER,
    W_KNOSSOS,
    XCARDS,
    XWONDERS,
    token_slots,
)
from duel.expansions.effects import (
    construct_card,
    finish_turn,
    gain_coins,
    gain_science,
    gain_token,
    lose_coins,
    military_token,
    move_pawn,
    next_layout_phase,
    pay,
    push,
    remove_from_structure,
    resolve,
    start_age,
    take_from_pyramid,
    take_uncovered_tokens,
    tithes,
)
from duel.expansions.moves import XMove
from duel.expansions.queries import in_force
from duel.expansions.senate import APPLY as SENATE_APPLY
from duel.expansions.senate import setup_decrees
from duel.expansions.table import (
    BOARD_TOKEN_COUNT,
    COLOR_OF,
    DRAFT_ORDER,
    HIDDEN,
    SENATOR_SET,
    TOKEN_LOSS,
    DeckCard,
    Space,
    deck_index,
)

if TYPE_CHECKING:
    from duel.expansions.state import XState


# --- the rules: helpers on a state being built (``t`` is a fresh copy, mutated in place) ----------
def _after_layout(t: XState) -> None:
    """The structure is laid out and its face-up cards turned over."""
    if t.age == 1:
        t.phase = "play"
        return
    if t.pantheon and t.age == 2 and not _pantheon_awake(t):
        return
    t.phase = "choose_starter"


def _pantheon_awake(t: XState) -> bool:
    """Start of Age II: the seated Divinities turn face up, the Gate takes the empty space, Enki
    gets its two tokens. False while a chance node of it is pending."""
    if any(s is not None and not s.face_up for s in t.spaces):
        t.phase = "flip"
        return False
    if not any(s is not None and s.divinity == GATE for s in t.spaces) and None in t.spaces:
        spaces = list(t.spaces)
        spaces[spaces.index(None)] = Space(GATE, None, -1, True)
        t.spaces = tuple(spaces)
    if _enki_waiting(t):
        t.phase = "enki_tokens"
        return False
    return True


def _enki_waiting(t: XState) -> bool:
    """Enki is face up (in the Pantheon or among revealed cards) without its two tokens."""
    if t.enki_tokens or not t.box_tokens:
        return False
    revealed = (
        set(t.chosen) if t.phase in ("top", "deck", "gate_choose", "theater_choose") else set()
    )
    on_board = any(s is not None and s.face_up and s.divinity == "Enki" for s in t.spaces)
    return on_board or "Enki" in revealed


# --- applying moves ------------------------------------------------------------------------------
def _apply_build(t: XState, m: XMove) -> None:
    card = m.args[0]
    player = t.to_move
    chained = t.is_chained(player, card)
    total, trade = t.card_price(player, card)
    take_from_pyramid(t, card)
    if chained:
        if T_URBANISM in t.cities[player].tokens:
            gain_coins(t, player, 4)
    else:
        pay(t, player, total, trade)
    if construct_card(t, player, card):
        return
    if t.phase == "play":
        finish_turn(t)


def _apply_discard(t: XState, m: XMove) -> None:
    card = m.args[0]
    player = t.to_move
    take_from_pyramid(t, card)
    bonus = 2 if in_force(t, player, "Scrap dealers") else 0
    gain_coins(t, player, 2 + t.cities[player].count("yellow") + bonus)
    t.discard = t.discard | {card}
    finish_turn(t)


def _build_wonder(t: XState, player: int, wonder: int, card: int, cost: int) -> bool:
    """Build ``wonder`` over ``card``, paying ``cost``; its effects. True if the turn goes on in
    a sub-phase or the game ended (the caller must not finish the turn)."""
    city, other = t.cities[player], t.cities[1 - player]
    pay(t, player, cost, cost)
    city.wonders = tuple(w for w in city.wonders if w != wonder)
    city.built = tuple(sorted((*city.built, (wonder, card))))
    if t.wonders_built_count() >= MAX_WONDERS_BUILT:
        city.wonders = ()  # the eighth wonder goes back to the box
        other.wonders = ()
    spec = XWONDERS[wonder]
    if spec.extra_turn or T_THEOLOGY in city.tokens:
        t.extra = True
    if t.agora:
        tithes(t, "wonder")
        if wonder == W_CURIA_JULIA:
            push(t, ("curia", player))
        elif wonder == W_KNOSSOS:
            push(t, ("place", player), ("move", player))
    if spec.coins:
        gain_coins(t, player, spec.coins)
    if spec.opponent_loses:
        lose_coins(t, 1 - player, spec.opponent_loses)
    if spec.shields and move_pawn(t, player, spec.shields):
        return True
    if spec.destroy:
        if any(COLOR_OF[c] == spec.destroy for c in other.cards):
            t.destroying = spec.destroy
            t.phase = "destroy"
            return True
    elif spec.mausoleum:
        if t.discard:
            t.phase = "mausoleum"
            return True
    elif spec.library:
        if t.box_tokens:
            t.phase = "library_draw"
            return True
    elif wonder == W_DIVINE_THEATER and any(t.deck_size):
        t.phase = "theater_deck"
        return True
    return False


def _apply_wonder(t: XState, m: XMove) -> None:
    wonder, card = m.args
    player = t.to_move
    cost = t.wonder_cost(player, wonder)
    take_from_pyramid(t, card)
    if not _build_wonder(t, player, wonder, card, cost):
        finish_turn(t)


def _apply_pick(t: XState, m: XMove) -> None:
    wonder = m.args[0]
    player = DRAFT_ORDER[t.picks]
    t.cities[player].wonders = tuple(sorted((*t.cities[player].wonders, wonder)))
    drafted = [(player, wonder)]
    offer = t.offer - {wonder}
    picks = t.picks + 1
    if len(offer) == 1:  # the last wonder of a group of four has no choice left
        last = DRAFT_ORDER[picks]
        t.cities[last].wonders = tuple(sorted((*t.cities[last].wonders, *offer)))
        drafted.append((last, next(iter(offer))))
        offer = frozenset()
        picks += 1
    t.offer = offer
    t.picks = picks
    if picks == 8:
        t.wonders_unseen = frozenset()  # the wonders never revealed are out of the game
        start_age(t, 1, 0)
    elif offer:
        t.to_move = DRAFT_ORDER[picks]
    else:
        t.phase = "setup_wonders"
        t.to_move = DRAFT_ORDER[picks]
    if t.agora:  # drafting Curia Julia: Conspire; drafting Knossos: a cube in any Chamber
        steps = [
            ("conspire", owner) if w == W_CURIA_JULIA else ("place", owner)
            for owner, w in drafted
            if w in (W_CURIA_JULIA, W_KNOSSOS)
        ]
        if steps:
            push(t, *steps)
            t.continuation = ("resume", t.phase, t.to_move)
            resolve(t)


def _apply_token(t: XState, m: XMove) -> None:
    token = m.args[0]
    player = t.to_move
    if t.phase == "library_choose":
        t.library = frozenset()
    elif t.phase == "enki_choose":
        t.enki_tokens = frozenset()  # the other one goes back to the box
    elif t.phase == "espionage":
        pass  # from the box
    else:
        t.board = t.board - {token}
    t.phase = "play"
    if gain_token(t, player, token):
        return
    if t.phase == "play":
        finish_turn(t)


def _apply_destroy(t: XState, m: XMove) -> None:
    card = m.args[0]
    victim = t.cities[1 - t.to_move]
    victim.cards = victim.cards - {card}
    t.discard = t.discard | {card}
    t.destroying = None
    finish_turn(t)


def _apply_mausoleum(t: XState, m: XMove) -> None:
    card = m.args[0]
    t.discard = t.discard - {card}
    t.phase = "play"
    if construct_card(t, t.to_move, card):
        return
    if t.phase == "play":
        finish_turn(t)


def _apply_start(t: XState, m: XMove) -> None:
    t.to_move = m.args[0]
    t.phase = "play"


def _apply_reveal_card(t: XState, m: XMove) -> None:
    slot, card = m.args
    if card in SENATOR_SET:
        t.senators_seen = t.senators_seen | {card}
    t.unseen = t.unseen - {card}
    if t.phase == "zeus_reveal":
        _discard_from_structure(t, slot, card)
        return
    t.pyramid = t.pyramid.set(slot, card)
    t.reveal &= ~(1 << slot)
    if not t.reveal:
        if t.present == (1 << len(t.pyramid)) - 1:  # the last face-up card of a new structure
            _after_layout(t)
        elif t.pending or t.continuation is not None:
            finish_turn(t)  # Agora: the steps these cards interrupted go on
        else:
            t.phase = "play"


def _apply_reveal_wonder(t: XState, m: XMove) -> None:
    wonder = m.args[0]
    t.wonders_unseen = t.wonders_unseen - {wonder}
    t.offer = t.offer | {wonder}
    if len(t.offer) == 4:
        t.phase = "draft"


def _apply_reveal_token(t: XState, m: XMove) -> None:
    t.board = t.board | {m.args[0]}
    if len(t.board) == BOARD_TOKEN_COUNT:
        t.phase = "setup_wonders"
        if t.agora:
            setup_decrees(t)


def _apply_library_draw(t: XState, m: XMove) -> None:
    t.library = frozenset(m.args[0])
    t.phase = "library_choose"


def _apply_deal_backs(t: XState, m: XMove) -> None:
    t.back_slots = sum(1 << s for s in m.args[1])
    next_layout_phase(t)


def _apply_place_mythology(t: XState, m: XMove) -> None:
    slot, mythology = m.args
    t.mythology_on = t.mythology_on.set(slot, mythology)
    next_layout_phase(t)


def _apply_place_offerings(t: XState, m: XMove) -> None:
    _, offering_slots = token_slots(t.expansions)
    t.offering_on = pmap(dict(zip(offering_slots, m.args[0], strict=True)))
    next_layout_phase(t)


def _apply_draw_divinities(t: XState, m: XMove) -> None:
    mythology, cards = m.args
    i = deck_index(mythology)
    count = min(2, t.deck_size[i])
    t.deck_size = _set(t.deck_size, i, t.deck_size[i] - count)
    t.deck_tops = _set(t.deck_tops, i, t.deck_tops[i][count:])
    t.drawn = cards if cards is not None else None
    t.chosen = (count,)  # how many were drawn: one of them is seated, the other goes back
    t.phase = "seat"


def _apply_seat(t: XState, m: XMove) -> None:
    divinity, mythology, space = m.args
    player = t.to_move
    spaces = list(t.spaces)
    spaces[space - 1] = Space(divinity, mythology, player, False)
    t.spaces = tuple(spaces)
    i = deck_index(mythology)
    if t.chosen[0] == 2:
        if t.drawn is None:
            other = None
        else:
            rest = list(t.drawn)
            rest.remove(divinity)
            other = rest[0]
        t.deck_tops = _set(t.deck_tops, i, (DeckCard(other, frozenset({player})), *t.deck_tops[i]))
        t.deck_size = _set(t.deck_size, i, t.deck_size[i] + 1)
    t.drawn = ()
    t.drawing = None
    t.chosen = ()
    # Another token the same discard uncovered goes out now, before the turn's next step (BGA
    # hands out every uncovered token after each of Turn of Events' discards); elsewhere the
    # rest of the turn would take it first anyway.
    if t.pantheon and not take_uncovered_tokens(t):
        return
    finish_turn(t)


def _apply_flip(t: XState, m: XMove) -> None:
    space, divinity = m.args
    spaces = list(t.spaces)
    old = spaces[space - 1]
    spaces[space - 1] = Space(divinity, old.mythology, old.owner, True)
    t.spaces = tuple(spaces)
    if _pantheon_awake(t):
        t.phase = "choose_starter"


def _apply_enki_tokens(t: XState, m: XMove) -> None:
    t.enki_tokens = frozenset(m.args[0])
    if t.revealing and t.revealing[0] == "gate":
        t.revealing = ()
        t.phase = "gate_choose"
    elif t.revealing and t.revealing[0] == "theater":
        t.revealing = ()
        t.phase = "theater_choose"
    else:
        t.phase = "choose_starter"


def _apply_activate(t: XState, m: XMove) -> None:
    divinity, offerings = m.args
    player = t.to_move
    city = t.cities[player]
    index = next(i for i, s in enumerate(t.spaces) if s is not None and s.divinity == divinity)
    price = max(0, t.activation_price(player, index + 1) - sum(offerings))
    rest = list(city.offerings)
    for value in offerings:
        rest.remove(value)
    city.offerings = tuple(rest)
    pay(t, player, price, 0)
    t.spaces = _set(t.spaces, index, None)
    _activate(t, player, divinity)


def _activate(t: XState, player: int, divinity: str) -> None:
    """Take ``divinity`` into ``player``'s city and apply its effect (then end the turn unless
    the effect asks for a choice)."""
    city, other = t.cities[player], t.cities[1 - player]
    city.divinities = (*city.divinities, divinity)
    t.phase = "play"
    if divinity == GATE:
        decks = tuple(m for i, m in enumerate(MYTHOLOGIES) if t.deck_size[i])
        if decks:
            t.revealing = decks
            t.chosen = ()
            t.phase = "top"
            return
        finish_turn(t)
        return
    effect = DIVINITY[divinity].effect
    phase = None
    if effect == "enki" and t.enki_tokens:
        phase = "enki_choose"
    elif effect == "ishtar":
        if gain_science(t, player, "law"):
            return
    elif effect == "nisaba" and any(XCARDS[c].science for c in other.cards):
        phase = "nisaba"
    elif effect == "astarte":
        city.astarte += DIVINITY[divinity].amount
    elif effect == "baal" and any(COLOR_OF[c] in ("brown", "grey") for c in other.cards):
        phase = "baal"
    elif effect == "tanit":
        gain_coins(t, player, DIVINITY[divinity].amount)
    elif effect == "hades" and t.discard:
        phase = "mausoleum"
    elif effect == "zeus" and t.present:
        phase = "zeus"
    elif effect == "anubis" and (city.built or other.built):
        phase = "anubis"
    elif (
        effect == "isis"
        and city.wonders
        and t.discard
        and t.wonders_built_count() < MAX_WONDERS_BUILT
    ):
        phase = "isis"
    elif effect == "ra" and other.wonders:
        phase = "ra"
    elif effect == "mars":
        if move_pawn(t, player, DIVINITY[divinity].amount):
            return
    elif effect == "minerva":
        phase = "minerva"
    elif effect == "neptune" and t.military:
        phase = "neptune_remove"
    if phase is not None:
        t.phase = phase
        return
    if t.phase == "play":
        finish_turn(t)


def _apply_snake(t: XState, m: XMove) -> None:
    t.phase = "play"
    t.cities[t.to_move].snake = m.args[0]
    if gain_science(t, t.to_move, XCARDS[m.args[0]].science):
        return
    if t.phase == "play":
        finish_turn(t)


def _apply_take(t: XState, m: XMove) -> None:
    card = m.args[0]
    player = t.to_move
    t.cities[1 - player].cards = t.cities[1 - player].cards - {card}
    t.cities[player].cards = t.cities[player].cards | {card}
    finish_turn(t)


def _discard_from_structure(t: XState, slot: int, card: int) -> None:
    t.discard = t.discard | {card}
    t.mythology_on = t.mythology_on.discard(slot)
    t.offering_on = t.offering_on.discard(slot)
    t.chosen = ()
    remove_from_structure(t, slot)
    finish_turn(t)


def _apply_zeus(t: XState, m: XMove) -> None:
    slot = m.args[0]
    card = t.pyramid[slot]
    if card == HIDDEN:  # a face-down card is turned over on its way to the discard pile
        t.chosen = (slot,)
        t.phase = "zeus_reveal"
        return
    _discard_from_structure(t, slot, card)


def _apply_unbuild(t: XState, m: XMove) -> None:
    wonder = m.args[0]
    owner = next(p for p in (0, 1) if wonder in t.cities[p].built_wonders)
    city = t.cities[owner]
    card = dict(city.built)[wonder]
    city.built = tuple(b for b in city.built if b[0] != wonder)
    city.wonders = tuple(sorted((*city.wonders, wonder)))
    t.discard = t.discard | {card}
    finish_turn(t)


def _apply_isis(t: XState, m: XMove) -> None:
    wonder, card = m.args
    t.discard = t.discard - {card}
    t.phase = "play"
    if not _build_wonder(t, t.to_move, wonder, card, 0):
        finish_turn(t)


def _apply_steal(t: XState, m: XMove) -> None:
    wonder = m.args[0]
    player = t.to_move
    t.cities[1 - player].wonders = tuple(w for w in t.cities[1 - player].wonders if w != wonder)
    t.cities[player].wonders = tuple(sorted((*t.cities[player].wonders, wonder)))
    finish_turn(t)


def _apply_minerva(t: XState, m: XMove) -> None:
    t.minerva = m.args[0]
    finish_turn(t)


def _apply_remove(t: XState, m: XMove) -> None:
    t.military &= ~(1 << m.args[0])
    if t.military:
        t.phase = "neptune_apply"
        return
    finish_turn(t)


def _apply_military_token(t: XState, m: XMove) -> None:
    token = m.args[0]
    t.military &= ~(1 << token)
    if t.agora:  # Neptune with Agora: the Agora token's effect, for the mover
        military_token(t, t.to_move, large=TOKEN_LOSS[token] == 5)
    else:
        lose_coins(t, 1 - t.to_move, TOKEN_LOSS[token])
    finish_turn(t)


def _apply_top(t: XState, m: XMove) -> None:
    mythology, divinity = m.args
    i = deck_index(mythology)
    tops = t.deck_tops[i]
    public = DeckCard(divinity, frozenset({0, 1}))
    t.deck_tops = _set(t.deck_tops, i, (public, *tops[1:]) if tops else (public,))
    t.chosen = (*t.chosen, divinity)
    t.revealing = t.revealing[1:]
    if t.revealing:
        return
    if _enki_waiting(t):
        t.revealing = ("gate",)
        t.phase = "enki_tokens"
        return
    t.phase = "gate_choose"


def _apply_theater(t: XState, m: XMove) -> None:
    t.revealing = (m.args[0],)
    t.phase = "deck"


def _apply_deck(t: XState, m: XMove) -> None:
    mythology, cards = m.args
    i = deck_index(mythology)
    t.deck_tops = _set(t.deck_tops, i, tuple(DeckCard(d, frozenset({0, 1})) for d in cards))
    t.chosen = cards
    t.revealing = ()
    if _enki_waiting(t):
        t.revealing = ("theater",)
        t.phase = "enki_tokens"
        return
    t.phase = "theater_choose"


def _apply_choose(t: XState, m: XMove) -> None:
    divinity = m.args[0]
    player = t.to_move
    mythology = DIVINITY[divinity].mythology
    i = deck_index(mythology)
    tops = t.deck_tops[i]
    t.deck_tops = _set(t.deck_tops, i, tuple(c for c in tops if c.divinity != divinity))
    t.deck_size = _set(t.deck_size, i, t.deck_size[i] - 1)
    if "Enki" in t.chosen and divinity != "Enki":
        t.enki_tokens = frozenset()  # a revealed Enki not chosen: its tokens go back to the box
    if t.phase == "theater_choose" and len(t.chosen) > 2:
        t.chosen = tuple(d for d in t.chosen if d != divinity)
        t.revealing = (divinity,)
        t.phase = "theater_order"
        return
    t.chosen = ()
    _activate(t, player, divinity)


def _apply_order(t: XState, m: XMove) -> None:
    order = m.args[0]
    divinity = t.revealing[0]
    mythology = DIVINITY[divinity].mythology
    i = deck_index(mythology)
    t.deck_tops = _set(t.deck_tops, i, tuple(DeckCard(d, frozenset({0, 1})) for d in order))
    t.revealing = ()
    t.chosen = ()
    _activate(t, t.to_move, divinity)


def _set(items: tuple, index: int, value) -> tuple:
    return (*items[:index], value, *items[index + 1 :])


APPLY = {
    "build": _apply_build,
    "discard": _apply_discard,
    "wonder": _apply_wonder,
    "pick": _apply_pick,
    "token": _apply_token,
    "destroy": _apply_destroy,
    "mausoleum": _apply_mausoleum,
    "start": _apply_start,
    "reveal_card": _apply_reveal_card,
    "reveal_wonder": _apply_reveal_wonder,
    "reveal_token": _apply_reveal_token,
    "library_draw": _apply_library_draw,
    "deal_backs": _apply_deal_backs,
    "place_mythology": _apply_place_mythology,
    "place_offerings": _apply_place_offerings,
    "draw_divinities": _apply_draw_divinities,
    "seat": _apply_seat,
    "flip": _apply_flip,
    "enki_tokens": _apply_enki_tokens,
    "activate": _apply_activate,
    "snake": _apply_snake,
    "take": _apply_take,
    "zeus": _apply_zeus,
    "unbuild": _apply_unbuild,
    "isis": _apply_isis,
    "steal": _apply_steal,
    "minerva": _apply_minerva,
    "remove": _apply_remove,
    "apply": _apply_military_token,
    "top": _apply_top,
    "theater": _apply_theater,
    "deck": _apply_deck,
    "choose": _apply_choose,
    "order": _apply_order,
    **SENATE_APPLY,
}

