"""The rules of an expansion game: how each move changes a state.

Each ``_apply_*`` function takes ``t``, a fresh copy of the state being built (mutated in place,
then frozen by :meth:`duel.expansions.state.XState.apply`), and the move."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from pyrsistent import pmap, pvector

from duel.catalog import (
    AGE_DECK,
    MAX_WONDERS_BUILT,
    T_ECONOMY,
    T_LAW,
    T_STRATEGY,
    T_THEOLOGY,
    T_URBANISM,
    bits,
)
from duel.expansions import senate
from duel.expansions.components import (
    DIVINITY,
    GATE,
    MYTHOLOGIES,
    T_POLIORCETICS,
    W_CURIA_JULIA,
    W_DIVINE_THEATER,
    W_KNOSSOS,
    XCARDS,
    XTOKENS,
    XWONDERS,
    structure_of,
    token_slots,
)
from duel.expansions.moves import XMove
from duel.expansions.table import (
    BOARD_TOKEN_COUNT,
    COLOR_OF,
    DRAFT_ORDER,
    GUILD_SET,
    HIDDEN,
    LOOT,
    SCIENCE_VICTORY_SYMBOLS,
    SENATOR_SET,
    TAKEN,
    TEMPLE_SET,
    TOKEN_LOSS,
    DeckCard,
    Space,
    category_count,
    deck_index,
)

if TYPE_CHECKING:
    from duel.expansions.state import XState


# --- the rules: helpers on a state being built (``t`` is a fresh copy, mutated in place) ----------
def _gain_coins(t: XState, player: int, amount: int) -> None:
    t.cities[player].coins += amount


def _lose_coins(t: XState, player: int, amount: int) -> None:
    """A loss (military token, Appian Way, Poliorcetics) takes treasury coins only."""
    city = t.cities[player]
    city.coins = max(0, city.coins - amount)


def _pay(t: XState, player: int, total: int, trade: int) -> None:
    """Spend ``total`` coins, the treasury first and Astarte's for the rest; Economy gives the
    opponent the ``trade`` part."""
    city = t.cities[player]
    from_treasury = min(city.coins, total)
    city.coins -= from_treasury
    city.astarte -= total - from_treasury
    if trade and T_ECONOMY in t.cities[1 - player].tokens:
        _gain_coins(t, 1 - player, trade)


def _end_game(t: XState, winner: int, victory: str) -> None:
    t.phase = "game_over"
    t.winner = winner
    t.victory = victory
    t.extra = False


def _move_pawn(t: XState, player: int, shields: int) -> bool:
    """Move the Conflict pawn ``shields`` spaces towards the opponent (the Minerva pawn stops it
    a space short); loot, Poliorcetics. True if the game ends."""
    sign = 1 if player == 0 else -1
    old = t.pawn * sign
    new = min(9, old + shields)
    if t.minerva is not None and old < t.minerva * sign <= new:
        new = t.minerva * sign - 1
        t.minerva = None
    side_shift = 2 if player == 0 else 0  # A loots the tokens on B's side
    for distance, coins, bit in LOOT:
        token = bit << side_shift
        if old < distance <= new and t.military & token:
            t.military &= ~token
            if t.agora:  # Agora's tokens: a cube to place, or one to remove (no coins)
                senate.military_token(t, player, large=distance == 6)
            else:
                _lose_coins(t, 1 - player, coins)
    if T_POLIORCETICS in t.cities[player].tokens and new > old:
        _lose_coins(t, 1 - player, new - old)
    t.pawn = new * sign
    if new >= 9:
        _end_game(t, player, "military")
        return True
    return False


def _gain_science(t: XState, player: int, symbol: str) -> bool:
    """Add a symbol; a pair lets the player choose a board token. True if that wins (6)."""
    city = t.cities[player]
    if symbol in city.science:
        if t.board:
            t.phase = "choose_token"
        return False
    city.science = city.science | {symbol}
    if len(city.science) >= SCIENCE_VICTORY_SYMBOLS:
        _end_game(t, player, "science")
        return True
    return False


def _construct_card(t: XState, player: int, card: int) -> bool:
    """Put ``card`` in ``player``'s city with its immediate effects; True if the game ended."""
    city = t.cities[player]
    city.cards = city.cards | {card}
    spec = XCARDS[card]
    if t.agora:
        senate.tithes(t, spec.color)
        if card in SENATOR_SET:
            senate.on_senator(t, player, card)
            return False
    if spec.coins:
        _gain_coins(t, player, spec.coins)
    if spec.coins_per:
        categories, each = spec.coins_per
        _gain_coins(t, player, each * category_count(t, player, categories))
    if spec.coins_per_max:
        categories, each = spec.coins_per_max
        _gain_coins(t, player, each * max(category_count(t, p, categories) for p in (0, 1)))
    if spec.shields:
        bonus = 1 if T_STRATEGY in city.tokens else 0
        if _move_pawn(t, player, spec.shields + bonus):
            return True
    if spec.science:
        return _gain_science(t, player, spec.science)
    return False


def _gain_token(t: XState, player: int, token: int) -> bool:
    city = t.cities[player]
    city.tokens = city.tokens | {token}
    if XTOKENS[token].coins:
        _gain_coins(t, player, XTOKENS[token].coins)
    if token == T_LAW:
        return _gain_science(t, player, "law")
    return False


def _remove_from_structure(t: XState, slot: int) -> None:
    """The card at ``slot`` leaves the structure: the cards it covered may become accessible
    (a face-down one is then turned over at the end of the turn)."""
    t.pyramid = t.pyramid.set(slot, TAKEN)
    # A token still on the card (uncovered and taken in one Conspiracy's steps) goes with it.
    t.mythology_on = t.mythology_on.discard(slot)
    t.offering_on = t.offering_on.discard(slot)
    t.present &= ~(1 << slot)
    t.accessible &= ~(1 << slot)
    t.reveal &= ~(1 << slot)
    layout = structure_of(t.expansions, t.age)
    for under in layout.covers[slot]:
        if not t.present >> under & 1:
            continue
        if not any(t.present >> c & 1 for c in layout.covered_by[under]):
            t.accessible |= 1 << under
            if t.pyramid[under] == HIDDEN:
                t.reveal |= 1 << under


def _take_from_pyramid(t: XState, card: int) -> None:
    _remove_from_structure(t, t.pyramid.index(card))


def _take_uncovered_tokens(t: XState) -> bool:
    """The tokens on cards uncovered this turn go to the player whose turn it was, before the
    cards are turned over. False if a Mythology token needs that player's draw first."""
    for slot in sorted(t.offering_on):
        if t.accessible >> slot & 1:
            value = t.offering_on[slot]
            t.offering_on = t.offering_on.discard(slot)
            city = t.cities[t.to_move]
            city.offerings = tuple(sorted((*city.offerings, value)))
    for slot in sorted(t.mythology_on):
        if t.accessible >> slot & 1:
            mythology = t.mythology_on[slot]
            t.mythology_on = t.mythology_on.discard(slot)
            city = t.cities[t.to_move]
            city.mythology = (*city.mythology, mythology)
            if t.deck_size[deck_index(mythology)]:
                t.drawing = mythology
                t.phase = "draw_divinities"
                return False
    return True


def _finish_turn(t: XState) -> None:
    """End of the active player's turn: Agora's pending steps first (their continuation may be
    the rest of the turn, or of the draft), its tokens, then the next Age, a replay, or the
    other player."""
    t.step = None  # a step answered by a shared rule (Extortion's steal, Espionage's token)
    if t.pending:
        if t.continuation is None:
            # whose turn it is: a step of the opponent's (a military token the pawn gave them,
            # a pair from Coercion) makes them the mover for a while
            t.continuation = ("finish", t.to_move)
        senate.resolve(t)
        return
    continuation, t.continuation = t.continuation, None
    if continuation is not None and continuation[0] == "finish":
        t.to_move = continuation[1]
    if continuation is not None and continuation[0] == "resume":
        t.phase, t.to_move = continuation[1], continuation[2]
        return
    if continuation is not None and continuation[0] == "play" and t.present:
        # The rest of the turn after a Conspiracy: the tokens of the cards it uncovered go to
        # the player first (a Mythology token's draw, then the turn goes on).
        t.to_move = continuation[1]
        if t.pantheon and not _take_uncovered_tokens(t):
            t.continuation = continuation
            return
        t.phase = "reveal" if t.reveal else "play"
        return
    t.phase = "play"
    if t.pantheon and not _take_uncovered_tokens(t):
        return
    player = t.to_move
    extra = t.extra
    t.extra = False
    if t.agora:
        t.triggered = False
        city = t.cities[player]
        if any(p.fresh for p in city.plots):
            city.plots = tuple(replace(p, fresh=False) for p in city.plots)
    if t.present:
        t.to_move = player if extra else 1 - player
        t.phase = "reveal" if t.reveal else "play"
        return
    if t.age == 3:  # the Age is over; a pending Play Again is lost
        _civilian_end(t)
        return
    if t.agora:  # the cards never seen in the Age are the ones removed at its setup
        age_cards = frozenset(bits(AGE_DECK[t.age]))
        t.removed = t.removed | (t.unseen & age_cards)
        t.removed_now = None
        for city in t.cities:
            city.removed_seen = frozenset()
    pawn = t.pawn
    _start_age(t, t.age + 1, 1 if pawn > 0 else 0 if pawn < 0 else player)


def _civilian_end(t: XState) -> None:
    a, b = t.score(0), t.score(1)
    if a.total != b.total:
        winner = 0 if a.total > b.total else 1
    else:
        winner = 2 if a.blue == b.blue else 0 if a.blue > b.blue else 1
    _end_game(t, winner, "civilian")


def _start_age(t: XState, age: int, to_move: int) -> None:
    """Lay out ``age``'s structure; its chance nodes (token slots, backs, face-up cards) come
    next; ``to_move`` begins Age I, or chooses who begins Age II/III once it is laid out."""
    layout = structure_of(t.expansions, age)
    t.age = age
    t.pyramid = pvector([HIDDEN] * layout.slots)
    t.present = (1 << layout.slots) - 1
    t.accessible = sum(1 << s for s in layout.initially_accessible)
    t.reveal = layout.face_up_mask
    backs = TEMPLE_SET if t.pantheon else GUILD_SET
    t.unseen = frozenset(bits(AGE_DECK[age])) | (backs if age == 3 else frozenset())
    t.back_slots = 0
    t.backs = (None,) * layout.slots if t.agora else ()
    t.to_move = to_move
    _next_layout_phase(t)


def _next_layout_phase(t: XState) -> None:
    """The next chance node of a new structure: its backs (Agora: slot by slot; the base game
    and Pantheon: the three Age III backs at once), Pantheon's tokens, then the face-up cards."""
    mythology_slots, _ = token_slots(t.expansions)
    if t.agora and None in t.backs:
        t.phase = "back"
    elif not t.agora and t.age == 3 and not t.back_slots:
        t.phase = "deal_backs"
    elif t.pantheon and t.age == 1 and len(t.mythology_on) < len(mythology_slots):
        t.phase = "place_mythology"
    elif t.pantheon and t.age == 2 and not t.offering_on:
        t.phase = "place_offerings"
    else:
        t.phase = "reveal"


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
    _take_from_pyramid(t, card)
    if chained:
        if T_URBANISM in t.cities[player].tokens:
            _gain_coins(t, player, 4)
    else:
        _pay(t, player, total, trade)
    if _construct_card(t, player, card):
        return
    if t.phase == "play":
        _finish_turn(t)


def _apply_discard(t: XState, m: XMove) -> None:
    card = m.args[0]
    player = t.to_move
    _take_from_pyramid(t, card)
    bonus = 2 if senate.in_force(t, player, "Scrap dealers") else 0
    _gain_coins(t, player, 2 + t.cities[player].count("yellow") + bonus)
    t.discard = t.discard | {card}
    _finish_turn(t)


def _build_wonder(t: XState, player: int, wonder: int, card: int, cost: int) -> bool:
    """Build ``wonder`` over ``card``, paying ``cost``; its effects. True if the turn goes on in
    a sub-phase or the game ended (the caller must not finish the turn)."""
    city, other = t.cities[player], t.cities[1 - player]
    _pay(t, player, cost, cost)
    city.wonders = tuple(w for w in city.wonders if w != wonder)
    city.built = tuple(sorted((*city.built, (wonder, card))))
    if t.wonders_built_count() >= MAX_WONDERS_BUILT:
        city.wonders = ()  # the eighth wonder goes back to the box
        other.wonders = ()
    spec = XWONDERS[wonder]
    if spec.extra_turn or T_THEOLOGY in city.tokens:
        t.extra = True
    if t.agora:
        senate.tithes(t, "wonder")
        if wonder == W_CURIA_JULIA:
            senate.push(t, ("curia", player))
        elif wonder == W_KNOSSOS:
            senate.push(t, ("place", player), ("move", player))
    if spec.coins:
        _gain_coins(t, player, spec.coins)
    if spec.opponent_loses:
        _lose_coins(t, 1 - player, spec.opponent_loses)
    if spec.shields and _move_pawn(t, player, spec.shields):
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
    _take_from_pyramid(t, card)
    if not _build_wonder(t, player, wonder, card, cost):
        _finish_turn(t)


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
        _start_age(t, 1, 0)
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
            senate.push(t, *steps)
            t.continuation = ("resume", t.phase, t.to_move)
            senate.resolve(t)


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
    if _gain_token(t, player, token):
        return
    if t.phase == "play":
        _finish_turn(t)


def _apply_destroy(t: XState, m: XMove) -> None:
    card = m.args[0]
    victim = t.cities[1 - t.to_move]
    victim.cards = victim.cards - {card}
    t.discard = t.discard | {card}
    t.destroying = None
    _finish_turn(t)


def _apply_mausoleum(t: XState, m: XMove) -> None:
    card = m.args[0]
    t.discard = t.discard - {card}
    t.phase = "play"
    if _construct_card(t, t.to_move, card):
        return
    if t.phase == "play":
        _finish_turn(t)


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
            _finish_turn(t)  # Agora: the steps these cards interrupted go on
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
            senate.setup_decrees(t)


def _apply_library_draw(t: XState, m: XMove) -> None:
    t.library = frozenset(m.args[0])
    t.phase = "library_choose"


def _apply_deal_backs(t: XState, m: XMove) -> None:
    t.back_slots = sum(1 << s for s in m.args[1])
    _next_layout_phase(t)


def _apply_place_mythology(t: XState, m: XMove) -> None:
    slot, mythology = m.args
    t.mythology_on = t.mythology_on.set(slot, mythology)
    _next_layout_phase(t)


def _apply_place_offerings(t: XState, m: XMove) -> None:
    _, offering_slots = token_slots(t.expansions)
    t.offering_on = pmap(dict(zip(offering_slots, m.args[0], strict=True)))
    _next_layout_phase(t)


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
    _finish_turn(t)


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
    _pay(t, player, price, 0)
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
        _finish_turn(t)
        return
    effect = DIVINITY[divinity].effect
    phase = None
    if effect == "enki" and t.enki_tokens:
        phase = "enki_choose"
    elif effect == "ishtar":
        if _gain_science(t, player, "law"):
            return
    elif effect == "nisaba" and any(XCARDS[c].science for c in other.cards):
        phase = "nisaba"
    elif effect == "astarte":
        city.astarte += DIVINITY[divinity].amount
    elif effect == "baal" and any(COLOR_OF[c] in ("brown", "grey") for c in other.cards):
        phase = "baal"
    elif effect == "tanit":
        _gain_coins(t, player, DIVINITY[divinity].amount)
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
        if _move_pawn(t, player, DIVINITY[divinity].amount):
            return
    elif effect == "minerva":
        phase = "minerva"
    elif effect == "neptune" and t.military:
        phase = "neptune_remove"
    if phase is not None:
        t.phase = phase
        return
    if t.phase == "play":
        _finish_turn(t)


def _apply_snake(t: XState, m: XMove) -> None:
    t.phase = "play"
    t.cities[t.to_move].snake = m.args[0]
    if _gain_science(t, t.to_move, XCARDS[m.args[0]].science):
        return
    if t.phase == "play":
        _finish_turn(t)


def _apply_take(t: XState, m: XMove) -> None:
    card = m.args[0]
    player = t.to_move
    t.cities[1 - player].cards = t.cities[1 - player].cards - {card}
    t.cities[player].cards = t.cities[player].cards | {card}
    _finish_turn(t)


def _discard_from_structure(t: XState, slot: int, card: int) -> None:
    t.discard = t.discard | {card}
    t.mythology_on = t.mythology_on.discard(slot)
    t.offering_on = t.offering_on.discard(slot)
    t.chosen = ()
    _remove_from_structure(t, slot)
    _finish_turn(t)


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
    _finish_turn(t)


def _apply_isis(t: XState, m: XMove) -> None:
    wonder, card = m.args
    t.discard = t.discard - {card}
    t.phase = "play"
    if not _build_wonder(t, t.to_move, wonder, card, 0):
        _finish_turn(t)


def _apply_steal(t: XState, m: XMove) -> None:
    wonder = m.args[0]
    player = t.to_move
    t.cities[1 - player].wonders = tuple(w for w in t.cities[1 - player].wonders if w != wonder)
    t.cities[player].wonders = tuple(sorted((*t.cities[player].wonders, wonder)))
    _finish_turn(t)


def _apply_minerva(t: XState, m: XMove) -> None:
    t.minerva = m.args[0]
    _finish_turn(t)


def _apply_remove(t: XState, m: XMove) -> None:
    t.military &= ~(1 << m.args[0])
    if t.military:
        t.phase = "neptune_apply"
        return
    _finish_turn(t)


def _apply_military_token(t: XState, m: XMove) -> None:
    token = m.args[0]
    t.military &= ~(1 << token)
    if t.agora:  # Neptune with Agora: the Agora token's effect, for the mover
        senate.military_token(t, t.to_move, large=TOKEN_LOSS[token] == 5)
    else:
        _lose_coins(t, 1 - t.to_move, TOKEN_LOSS[token])
    _finish_turn(t)


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
    **senate.APPLY,
}


def blue_cards(t: XState, player: int) -> int:
    return t.cities[player].count("blue")


def science_symbols(t: XState, player: int) -> frozenset[str]:
    """``player``'s distinct science symbols as the table shows them: their green cards, Law
    (the token or Ishtar) and the symbol under Nisaba's Snake."""
    city, other = t.cities[player], t.cities[1 - player]
    symbols = {XCARDS[c].science for c in city.cards if XCARDS[c].science}
    if T_LAW in city.tokens or "Ishtar" in city.divinities:
        symbols.add("law")
    if city.snake is not None and city.snake in other.cards:
        symbols.add(XCARDS[city.snake].science)
    return frozenset(symbols)


def symbol_count(t: XState, player: int, symbol: str) -> int:
    """How many times ``symbol`` shows in ``player``'s city (BGA ``hasScientificSymbolPair``):
    its green cards, Law (the token, Ishtar) and the Snake token."""
    city, other = t.cities[player], t.cities[1 - player]
    count = sum(1 for c in city.cards if XCARDS[c].science == symbol)
    if symbol == "law":
        count += (T_LAW in city.tokens) + ("Ishtar" in city.divinities)
    snake = city.snake
    if snake is not None and snake in other.cards and XCARDS[snake].science == symbol:
        count += 1
    return count


def check_science_supremacy(t: XState) -> bool:
    """Scientific supremacy after an effect that can change both players' symbols (BGA
    ``checkImmediateVictory``): six for one player wins, six for both is a draw. True if the
    game ended."""
    reached = [len(t.cities[p].science) >= SCIENCE_VICTORY_SYMBOLS for p in (0, 1)]
    if all(reached):
        _end_game(t, 2, "science")
    elif any(reached):
        _end_game(t, reached.index(True), "science")
    return any(reached)


def recompute_science(t: XState) -> bool:
    """After a player's symbols changed otherwise than by gaining one (Obscurantism's lock):
    each player's symbols (:func:`science_symbols`); True if that ends the game."""
    for player in (0, 1):
        t.cities[player].science = science_symbols(t, player)
    return check_science_supremacy(t)


senate.bind(sys.modules[__name__])
