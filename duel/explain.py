"""Why a move is illegal, in words a player understands.

>>> from duel import new_game, Move
>>> print(new_game().why_illegal(Move.parse("build Lumber Yard")))
a chance event comes first (deal a progress token to the board: 'reveal token <name>')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from duel.catalog import CARDS, RESOURCES, TOKENS, WONDERS, unpack_production
from duel.moves import CHANCE_KINDS, PLAYER_NAMES, Kind, Move
from duel.pricing import cover_units, missing_units

if TYPE_CHECKING:
    from duel.state import State


def why_illegal(state: State, move: Move) -> str | None:
    """``None`` if ``move`` is legal in ``state``, otherwise the reason."""
    from duel import state as s

    f = state.fields
    phase = f[s.PHASE]
    kind = move.kind
    if phase == s.GAME_OVER:
        return "the game is over"
    if state.is_chance():
        if kind not in CHANCE_KINDS:
            return f"a chance event comes first ({_chance_hint(state)})"
        if state.chance_probability(move) == 0:
            return f"{move} is not a possible outcome here ({_chance_hint(state)})"
        return None
    if kind in CHANCE_KINDS:
        return f"{move} is a chance outcome, but it is {PLAYER_NAMES[state.to_move]}'s decision"
    if move in state.legal_moves():
        return None
    return _explain_decision(state, move, phase)


def _chance_hint(state: State) -> str:
    from duel import state as s

    phase = state.fields[s.PHASE]
    if phase == s.REVEAL_CARDS:
        reveal = state.fields[s.REVEAL]
        slot = (reveal & -reveal).bit_length() - 1
        return f"reveal the card in slot {slot}: 'reveal slot {slot} <card>'"
    if phase == s.SETUP_TOKENS:
        return "deal a progress token to the board: 'reveal token <name>'"
    if phase == s.SETUP_WONDERS:
        return "reveal a wonder for the draft: 'reveal wonder <name>'"
    if phase == s.DEAL_GUILDS:
        return "deal the slots of the three guild backs in Age III: 'guilds at slots <a> <b> <c>'"
    return "The Great Library's draw: 'draw <token>, <token>, <token>'"


def _explain_decision(state: State, move: Move, phase: int) -> str:
    from duel import state as s

    player = state.to_move
    kind = move.kind
    expected = {
        s.SETUP_TOKENS: "the game is still being set up",
        s.SETUP_WONDERS: "the game is still being set up",
        s.DRAFT: "it is the wonder draft: 'pick <wonder>'",
        s.PLAY: "take a card: build, discard or use it for a wonder",
        s.CHOOSE_TOKEN: "choose a progress token from the board: 'token <name>'",
        s.LIBRARY_CHOOSE: "choose one of the drawn tokens: 'token <name>'",
        s.DESTROY: "choose an opponent's card to destroy: 'destroy <card>'",
        s.MAUSOLEUM: "choose a discarded card to build: 'mausoleum <card>'",
        s.CHOOSE_STARTER: "choose who begins this Age, now laid out: 'start A' or 'start B'",
    }
    if phase in (s.SETUP_TOKENS, s.SETUP_WONDERS):
        return f"{expected[phase]} ({state.phase}): no card can be taken yet"
    play_kinds = (Kind.BUILD, Kind.DISCARD, Kind.WONDER)
    if phase == s.PLAY and kind in play_kinds:
        return _explain_play(state, move, player)
    wanted = {
        s.DRAFT: Kind.PICK_WONDER,
        s.CHOOSE_TOKEN: Kind.TOKEN,
        s.LIBRARY_CHOOSE: Kind.TOKEN,
        s.DESTROY: Kind.DESTROY,
        s.MAUSOLEUM: Kind.MAUSOLEUM,
        s.CHOOSE_STARTER: Kind.STARTER,
    }
    if wanted.get(phase) != kind:
        return f"not now: {expected[phase]}"
    if kind is Kind.PICK_WONDER:
        offer = ", ".join(WONDERS[w].name for w in state.wonder_offer)
        return f"{WONDERS[move.wonder].name} is not on offer (offer: {offer})"
    if kind is Kind.TOKEN:
        pool = state.library_offer if phase == s.LIBRARY_CHOOSE else state.board_token_ids
        names = ", ".join(TOKENS[t].name for t in pool)
        return f"{TOKENS[move.token].name} is not available (available: {names})"
    if kind is Kind.DESTROY:
        return f"{CARDS[move.card].name} is not a card your opponent has that this wonder destroys"
    if kind is Kind.MAUSOLEUM:
        return f"{CARDS[move.card].name} is not in the discard pile"
    return "that player cannot be chosen"


def _explain_play(state: State, move: Move, player: int) -> str:
    from duel import state as s

    card = move.card
    name = CARDS[card].name
    pyramid = state.pyramid
    if card not in pyramid:
        return f"{name} is not in the {_age_name(state.age)} structure"
    slot = pyramid.index(card)
    if not state.is_accessible(slot):
        return f"{name} (slot {slot}) is covered by other cards"
    if move.kind is Kind.BUILD:
        return _unaffordable(state, player, card)
    wonder = move.wonder
    wname = WONDERS[wonder].name
    if wonder in state.built_wonders(player):
        return f"{wname} is already built"
    if wonder not in state.wonders(player):
        if state.wonders_built_count >= s.MAX_WONDERS_BUILT:
            return "seven wonders have been built: no more wonders can be built"
        return f"{wname} is not one of your wonders"
    return _unaffordable(state, player, s.ITEM_WONDER + wonder)


def _unaffordable(state: State, player: int, item: int) -> str:
    """Why ``player`` cannot pay for ``item`` (a card id, or ITEM_WONDER + a wonder id)."""
    from duel import state as s

    econ = state.fields[s.BASE[player] + s.ECON]
    is_card = item < s.ITEM_WONDER
    spec = CARDS[item] if is_card else WONDERS[item - s.ITEM_WONDER]
    printed = spec.coin_cost if is_card else 0
    prices = list(state.trade_prices(player).values())
    missing = missing_units(spec.need, unpack_production(econ), prices)
    raw, man = state.choice_production(player)
    plan, trade = cover_units(missing, raw, man, s._waivable(item, econ))
    bought: dict[str, list[int]] = {}
    for price, r, how in plan:
        if how == "bought":
            bought.setdefault(RESOURCES[r], []).append(price)
    parts = [f"{len(p)} {r}: {sum(p)} coins" for r, p in bought.items()]
    if printed:
        parts.insert(0, f"printed cost {printed} coins")
    total = printed + trade
    detail = ", ".join(parts) if parts else f"{total} coins"
    return f"{spec.name} needs {detail} (total {total}), you have {state.coins(player)}"


def _age_name(age: int) -> str:
    return {1: "Age I", 2: "Age II", 3: "Age III"}.get(age, "current")
