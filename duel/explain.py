"""Why a move is illegal, in words a player understands.

Read from the state's public accessors only (the phase by name, cities, offers, prices), so that
the rules engine (:mod:`duel.state`) calls this module and this module does not reach back into
the engine's fields.

>>> from duel import new_game, Move
>>> print(new_game().why_illegal(Move.parse("build Lumber Yard")))
a chance event comes first (deal a progress token to the board: 'reveal token <name>')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from duel.catalog import (
    CARDS,
    MAX_WONDERS_BUILT,
    RESOURCES,
    T_ARCHITECTURE,
    T_MASONRY,
    TOKENS,
    WONDERS,
    Card,
    Wonder,
)
from duel.moves import CHANCE_KINDS, PLAYER_NAMES, Kind, Move
from duel.pricing import cover_units, missing_units

if TYPE_CHECKING:
    from duel.state import State


def why_illegal(state: State, move: Move) -> str | None:
    """``None`` if ``move`` is legal in ``state``, otherwise the reason."""
    phase = state.phase
    kind = move.kind
    if phase == "game_over":
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
    phase = state.phase
    if phase == "reveal":
        slot = state.reveal_slot
        return f"reveal the card in slot {slot}: 'reveal slot {slot} <card>'"
    if phase == "setup_tokens":
        return "deal a progress token to the board: 'reveal token <name>'"
    if phase == "setup_wonders":
        return "reveal a wonder for the draft: 'reveal wonder <name>'"
    if phase == "deal_guilds":
        return "deal the slots of the three guild backs in Age III: 'guilds at slots <a> <b> <c>'"
    return "The Great Library's draw: 'draw <token>, <token>, <token>'"


def _explain_decision(state: State, move: Move, phase: str) -> str:
    player = state.to_move
    kind = move.kind
    expected = {
        "setup_tokens": "the game is still being set up",
        "setup_wonders": "the game is still being set up",
        "draft": "it is the wonder draft: 'pick <wonder>'",
        "play": "take a card: build, discard or use it for a wonder",
        "choose_token": "choose a progress token from the board: 'token <name>'",
        "library_choose": "choose one of the drawn tokens: 'token <name>'",
        "destroy": "choose an opponent's card to destroy: 'destroy <card>'",
        "mausoleum": "choose a discarded card to build: 'mausoleum <card>'",
        "choose_starter": "choose who begins this Age, now laid out: 'start A' or 'start B'",
    }
    if phase in ("setup_tokens", "setup_wonders"):
        return f"{expected[phase]} ({state.phase}): no card can be taken yet"
    play_kinds = (Kind.BUILD, Kind.DISCARD, Kind.WONDER)
    if phase == "play" and kind in play_kinds:
        return _explain_play(state, move, player)
    wanted = {
        "draft": Kind.PICK_WONDER,
        "choose_token": Kind.TOKEN,
        "library_choose": Kind.TOKEN,
        "destroy": Kind.DESTROY,
        "mausoleum": Kind.MAUSOLEUM,
        "choose_starter": Kind.STARTER,
    }
    if wanted.get(phase) != kind:
        return f"not now: {expected[phase]}"
    if kind is Kind.PICK_WONDER:
        offer = ", ".join(WONDERS[w].name for w in state.wonder_offer)
        return f"{WONDERS[move.wonder].name} is not on offer (offer: {offer})"
    if kind is Kind.TOKEN:
        pool = state.library_offer if phase == "library_choose" else state.board_token_ids
        names = ", ".join(TOKENS[t].name for t in pool)
        return f"{TOKENS[move.token].name} is not available (available: {names})"
    if kind is Kind.DESTROY:
        return f"{CARDS[move.card].name} is not a card your opponent has that this wonder destroys"
    if kind is Kind.MAUSOLEUM:
        return f"{CARDS[move.card].name} is not in the discard pile"
    return "that player cannot be chosen"


def _explain_play(state: State, move: Move, player: int) -> str:
    card = move.card
    name = CARDS[card].name
    pyramid = state.pyramid
    if card not in pyramid:
        return f"{name} is not in the {_age_name(state.age)} structure"
    slot = pyramid.index(card)
    if not state.is_accessible(slot):
        return f"{name} (slot {slot}) is covered by other cards"
    if move.kind is Kind.BUILD:
        return _unaffordable(state, player, CARDS[card])
    wonder = move.wonder
    wname = WONDERS[wonder].name
    if wonder in state.built_wonders(player):
        return f"{wname} is already built"
    if wonder not in state.wonders(player):
        if state.wonders_built_count >= MAX_WONDERS_BUILT:
            return "seven wonders have been built: no more wonders can be built"
        return f"{wname} is not one of your wonders"
    return _unaffordable(state, player, WONDERS[wonder])


def _coins(n: int) -> str:
    """``1 coin``, ``3 coins``."""
    return f"{n} coin" if n == 1 else f"{n} coins"


def _unaffordable(state: State, player: int, spec: Card | Wonder) -> str:
    """Why ``player`` cannot pay for ``spec`` (a card or a wonder)."""
    is_card = isinstance(spec, Card)
    printed = spec.coin_cost if is_card else 0
    prices = list(state.trade_prices(player).values())
    production = state.production(player)
    missing = missing_units(spec.need, [production.get(r, 0) for r in RESOURCES], prices)
    raw, man = state.choice_production(player)
    plan, trade = cover_units(missing, raw, man, _waivable(state, player, spec))
    bought: dict[str, list[int]] = {}
    for price, r, how in plan:
        if how == "bought":
            bought.setdefault(RESOURCES[r], []).append(price)
    parts = [f"{len(p)} {r}: {_coins(sum(p))}" for r, p in bought.items()]
    if printed:
        parts.insert(0, f"printed cost {_coins(printed)}")
    total = printed + trade
    detail = ", ".join(parts) if parts else _coins(total)
    return f"{spec.name} needs {detail} (total {total}), you have {state.coins(player)}"


def _waivable(state: State, player: int, spec: Card | Wonder) -> int:
    """Resource units a progress token waives: Masonry on blue cards, Architecture on wonders."""
    if isinstance(spec, Card):
        token = T_MASONRY if spec.color == "blue" else None
    else:
        token = T_ARCHITECTURE
    return 2 if token is not None and token in state.tokens(player) else 0


def _age_name(age: int) -> str:
    return {1: "Age I", 2: "Age II", 3: "Age III"}.get(age, "current")
