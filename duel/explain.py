"""Why a move is illegal, in words a player understands.

Read from the state's public accessors only (the phase by name, cities, offers, prices), so that
the rules engine (:mod:`duel.state`) calls this module and this module does not reach back into
the engine's fields.

A reason is a :class:`~duel.reason.Reason`: the English sentence (a ``str``) that also keeps its
message template and values, so that the programs can say it in the player's language.

>>> from duel import new_game, Move
>>> reason = new_game().why_illegal(Move.parse("build Lumber Yard"))
>>> print(reason)
a chance event comes first (deal a progress token to the board: 'reveal token <name>')
>>> reason.template, sorted(reason.values)
('a chance event comes first ({hint})', ['hint'])
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
from duel.reason import Reason

if TYPE_CHECKING:
    from duel.state import State


def why_illegal(state: State, move: Move) -> str | None:
    """``None`` if ``move`` is legal in ``state``, otherwise the reason."""
    phase = state.phase
    kind = move.kind
    if phase == "game_over":
        return Reason("the game is over")
    if state.is_chance():
        if kind not in CHANCE_KINDS:
            return Reason("a chance event comes first ({hint})", hint=_chance_hint(state))
        if state.chance_probability(move) == 0:
            return Reason(
                "{move} is not a possible outcome here ({hint})",
                move=str(move),
                hint=_chance_hint(state),
            )
        return None
    if kind in CHANCE_KINDS:
        return Reason(
            "{move} is a chance outcome, but it is {player}'s decision",
            move=str(move),
            player=PLAYER_NAMES[state.to_move],
        )
    if move in state.legal_moves():
        return None
    return _explain_decision(state, move, phase)


def _chance_hint(state: State) -> Reason:
    phase = state.phase
    if phase == "reveal":
        slot = state.reveal_slot
        return Reason("reveal the card in slot {slot}: 'reveal slot {slot} <card>'", slot=slot)
    if phase == "setup_tokens":
        return Reason("deal a progress token to the board: 'reveal token <name>'")
    if phase == "setup_wonders":
        return Reason("reveal a wonder for the draft: 'reveal wonder <name>'")
    if phase == "deal_guilds":
        return Reason(
            "deal the slots of the three guild backs in Age III: 'guilds at slots <a> <b> <c>'"
        )
    return Reason("The Great Library's draw: 'draw <token>, <token>, <token>'")


def _explain_decision(state: State, move: Move, phase: str) -> Reason:
    player = state.to_move
    kind = move.kind
    expected = {
        "setup_tokens": Reason("the game is still being set up"),
        "setup_wonders": Reason("the game is still being set up"),
        "draft": Reason("it is the wonder draft: 'pick <wonder>'"),
        "play": Reason("take a card: build, discard or use it for a wonder"),
        "choose_token": Reason("choose a progress token from the board: 'token <name>'"),
        "library_choose": Reason("choose one of the drawn tokens: 'token <name>'"),
        "destroy": Reason("choose an opponent's card to destroy: 'destroy <card>'"),
        "mausoleum": Reason("choose a discarded card to build: 'mausoleum <card>'"),
        "choose_starter": Reason(
            "choose who begins this Age, now laid out: 'start A' or 'start B'"
        ),
    }
    if phase in ("setup_tokens", "setup_wonders"):
        return Reason(
            "{expected} ({phase}): no card can be taken yet", expected=expected[phase], phase=phase
        )
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
        return Reason("not now: {expected}", expected=expected[phase])
    if kind is Kind.PICK_WONDER:
        offer = tuple(WONDERS[w].name for w in state.wonder_offer)
        return Reason(
            "{wonder} is not on offer (offer: {offer})",
            wonder=WONDERS[move.wonder].name,
            offer=offer,
        )
    if kind is Kind.TOKEN:
        pool = state.library_offer if phase == "library_choose" else state.board_token_ids
        return Reason(
            "{token} is not available (available: {available})",
            token=TOKENS[move.token].name,
            available=tuple(TOKENS[t].name for t in pool),
        )
    if kind is Kind.DESTROY:
        return Reason(
            "{card} is not a card your opponent has that this wonder destroys",
            card=CARDS[move.card].name,
        )
    if kind is Kind.MAUSOLEUM:
        return Reason("{card} is not in the discard pile", card=CARDS[move.card].name)
    return Reason("that player cannot be chosen")


def _explain_play(state: State, move: Move, player: int) -> Reason:
    card = move.card
    name = CARDS[card].name
    pyramid = state.pyramid
    if card not in pyramid:
        return Reason("{card} is not in the {age} structure", card=name, age=_age_name(state.age))
    slot = pyramid.index(card)
    if not state.is_accessible(slot):
        return Reason("{card} (slot {slot}) is covered by other cards", card=name, slot=slot)
    if move.kind is Kind.BUILD:
        return _unaffordable(state, player, CARDS[card])
    wonder = move.wonder
    wname = WONDERS[wonder].name
    if wonder in state.built_wonders(player):
        return Reason("{wonder} is already built", wonder=wname)
    if wonder not in state.wonders(player):
        if state.wonders_built_count >= MAX_WONDERS_BUILT:
            return Reason("seven wonders have been built: no more wonders can be built")
        return Reason("{wonder} is not one of your wonders", wonder=wname)
    return _unaffordable(state, player, WONDERS[wonder])


def _coins(n: int) -> Reason:
    """``1 coin``, ``3 coins``."""
    return Reason("{n} coin", n=n) if n == 1 else Reason("{n} coins", n=n)


def _unaffordable(state: State, player: int, spec: Card | Wonder) -> Reason:
    """Why ``player`` cannot pay for ``spec`` (a card or a wonder)."""
    printed = spec.coin_cost if isinstance(spec, Card) else 0
    prices = list(state.trade_prices(player).values())
    production = state.production(player)
    missing = missing_units(spec.need, [production.get(r, 0) for r in RESOURCES], prices)
    raw, man = state.choice_production(player)
    plan, trade = cover_units(missing, raw, man, _waivable(state, player, spec))
    bought: dict[str, list[int]] = {}
    for price, r, how in plan:
        if how == "bought":
            bought.setdefault(RESOURCES[r], []).append(price)
    parts = [
        Reason("{n} {resource}: {coins}", n=len(p), resource=Reason(r), coins=_coins(sum(p)))
        for r, p in bought.items()
    ]
    if printed:
        parts.insert(0, Reason("{coins} printed on the card", coins=_coins(printed)))
    total = printed + trade
    detail = tuple(parts) if parts else _coins(total)
    return Reason(
        "{name} needs {detail} (total {total}), you have {coins}",
        name=spec.name,
        detail=detail,
        total=total,
        coins=state.coins(player),
    )


def _waivable(state: State, player: int, spec: Card | Wonder) -> int:
    """Resource units a progress token waives: Masonry on blue cards, Architecture on wonders."""
    if isinstance(spec, Card):
        token = T_MASONRY if spec.color == "blue" else None
    else:
        token = T_ARCHITECTURE
    return 2 if token is not None and token in state.tokens(player) else 0


def _age_name(age: int) -> Reason:
    names = {1: Reason("Age I"), 2: Reason("Age II"), 3: Reason("Age III")}
    return names.get(age, Reason("current"))
