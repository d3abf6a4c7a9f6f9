"""What a move did, in words, without drawing anything (no rich): the line mode, the full
screen, the game's control and the network game all say a move the same way.

* :func:`describe_transition` - what a move did ("B loses 2 coins (looting token)");
* :func:`describe_chance` - a chance outcome as the dealer announces it;
* :func:`coin_flows` - where the coins of a move went;
* :func:`age_name`, :data:`PHASE_TEXT`, :func:`guild_places`, :func:`discard_gain` - the words
  and numbers these share with the drawn table (:mod:`duel.app.text.render`).
"""

from __future__ import annotations

from duel.app.i18n import N_, shown, tr
from duel.app.text.words import plural
from duel.catalog import (
    AGE_NAMES,
    CARDS,
    TOKENS,
    WONDERS,
    bits,
)
from duel.moves import PLAYER_NAMES, Kind, Move
from duel.slots import slot_place
from duel.state import State

PHASE_TEXT = {
    "setup_tokens": N_("setup: dealing the progress tokens"),
    "setup_wonders": N_("setup: revealing wonders for the draft"),
    "draft": N_("wonder draft"),
    "reveal": N_("turning cards face up"),
    "play": N_("take a card"),
    "choose_token": N_("choose a progress token (science pair)"),
    "library_draw": N_("The Great Library draws 3 tokens"),
    "library_choose": N_("The Great Library: choose a progress token"),
    "destroy": N_("destroy a card of the opponent"),
    "mausoleum": N_("The Mausoleum: build a discarded card"),
    "choose_starter": N_("choose who begins this Age (its structure is laid out)"),
    "game_over": N_("game over"),
    "deal_guilds": N_("laying out: which 3 cards show the guild back"),
}


AGE_WORDS = {1: N_("Age I"), 2: N_("Age II"), 3: N_("Age III"), 4: N_("Guild")}


def age_name(age: int) -> str:
    return tr(AGE_NAMES.get(age, "Setup")) if age else tr("Setup")


def coins_text(n: int) -> str:
    return plural(n, "coin")


def row_card(row: int, place: int) -> str:
    return tr("row {row} card {place}", row=row, place=place)


def discard_gain(state: State, player: int) -> int:
    return 2 + state.count(player, "yellow")


def describe_chance(move: Move) -> str:
    """A chance outcome as the dealer announces it: "Slot 9 revealed: Baths"."""
    kind = move.kind
    if kind is Kind.REVEAL_CARD:
        return tr("Slot {slot} revealed: {card}", slot=move.slot, card=shown(CARDS[move.card].name))
    if kind is Kind.REVEAL_WONDER:
        return tr(
            "Wonder revealed for the draft: {wonder}", wonder=shown(WONDERS[move.wonder].name)
        )
    if kind is Kind.REVEAL_TOKEN:
        return tr("Progress token on the board: {token}", token=shown(TOKENS[move.token].name))
    if kind is Kind.DEAL_GUILDS:
        return tr("Guild backs in Age III: ") + guild_places(move)
    names = ", ".join(shown(TOKENS[t].name) for t in bits(move.token_mask))
    return tr("The Great Library draws: {tokens}", tokens=names)


def guild_places(move: Move) -> str:
    """Where a guild deal puts the guilds: "row 2 card 1 (slot 2), ..."."""
    return ", ".join(
        tr("{place} (slot {slot})", place=row_card(*slot_place(3, slot)), slot=slot)
        for slot in move.guild_slots
    )


def _payment(before: State, move: Move) -> tuple[int, int]:
    """(coins paid, of which trade) by the player to move for ``move``: the price the rules
    charge before the move (a chained card is free; the trade part goes to the opponent if
    they own Economy, else to the bank, as the card's own coin cost always does)."""
    player = before.to_move
    if move.kind is Kind.BUILD:
        if before.is_chained(player, move.card):
            return 0, 0
        paid = before.card_cost(player, move.card)
        return paid, paid - CARDS[move.card].coin_cost
    if move.kind is Kind.WONDER:
        paid = before.wonder_cost(player, move.wonder)
        return paid, paid
    return 0, 0


def _gain_source(before: State, move: Move) -> str:
    """Where the coins a move gains come from, for the log: ``from Tavern``."""
    kind = move.kind
    if kind is Kind.DISCARD:
        return tr("for the discard")
    if kind in (Kind.BUILD, Kind.MAUSOLEUM):
        if before.is_chained(before.to_move, move.card) and _owns(
            before, before.to_move, "Urbanism"
        ):
            return tr(
                "from {card} and {urbanism} (a chain)",
                card=shown(CARDS[move.card].name),
                urbanism=shown("Urbanism"),
            )
        return tr("from {source}", source=shown(CARDS[move.card].name))
    if kind is Kind.WONDER:
        return tr("from {source}", source=shown(WONDERS[move.wonder].name))
    if kind is Kind.TOKEN:
        return tr("from {source}", source=shown(TOKENS[move.token].name))
    return ""


def coin_flows(before: State, after: State, move: Move) -> list[str]:
    """The coins ``move`` moved, gross: what the player paid and to whom, what they got and
    from what, what the opponent got (Economy) or lost (looting, a wonder), with the totals.

    >>> import random
    >>> from duel import new_game
    >>> state, rng = new_game(), random.Random(1)
    >>> while state.phase != "play":
    ...     state = state.apply(state.random_move(rng))
    >>> discard = Move.discard(state.pyramid[state.accessible_slots[0]])
    >>> coin_flows(state, state.apply(discard), discard)
    ['A gets 2 coins for the discard, has 9']
    """
    if move.is_chance:
        return []
    player, other = before.to_move, 1 - before.to_move
    paid, trade = _payment(before, move)
    # Economy: the trade part of the price goes to the opponent instead of the bank.
    received = trade if _owns(before, other, "Economy") else 0
    out = []
    parts = []
    economy = shown("Economy")
    if paid:
        if not received:
            parts.append(tr("pays {coins} to the bank", coins=coins_text(paid)))
        elif received == paid:
            parts.append(
                tr(
                    "pays {coins} to {player} by {economy}",
                    coins=coins_text(paid),
                    player=PLAYER_NAMES[other],
                    economy=economy,
                )
            )
        else:
            parts.append(
                tr(
                    "pays {coins} ({bank} to the bank, {received} to {player} by {economy})",
                    coins=coins_text(paid),
                    bank=paid - received,
                    received=received,
                    player=PLAYER_NAMES[other],
                    economy=economy,
                )
            )
    got = after.coins(player) - before.coins(player) + paid
    if got:
        source = _gain_source(before, move)
        parts.append(tr("gets {coins}", coins=coins_text(got)) + (f" {source}" if source else ""))
    if parts:
        out.append(_coin_line(PLAYER_NAMES[player], parts, after.coins(player)))
    lost = received - (after.coins(other) - before.coins(other))
    parts = []
    if received:
        parts.append(tr("gets {coins} by {economy}", coins=coins_text(received), economy=economy))
    if lost:
        looted = set(before.military_tokens) - set(after.military_tokens)
        why = (
            tr("looting token {tokens}", tokens=", ".join(sorted(looted)))
            if looted
            else shown(WONDERS[move.wonder].name)
            if move.kind is Kind.WONDER
            else ""
        )
        parts.append(
            tr("loses {coins}", coins=coins_text(lost)) + (tr(" to {why}", why=why) if why else "")
        )
    if parts:
        out.append(_coin_line(PLAYER_NAMES[other], parts, after.coins(other)))
    return out


def _coin_line(player: str, parts: list[str], has: int) -> str:
    """``A pays 3 coins to the bank and gets 2 coins from Tavern, has 6``."""
    return tr(
        "{player} {actions}, has {coins}",
        player=player,
        actions=tr(" and ").join(parts),
        coins=has,
    )


def _owns(state: State, player: int, token: str) -> bool:
    return any(TOKENS[t].name == token for t in state.tokens(player))


def describe_transition(before: State, after: State, move: Move) -> list[str]:
    """What happened because of ``move`` (besides the move itself), in short sentences."""
    if move.is_chance:
        return []
    player = before.to_move
    me, other = PLAYER_NAMES[player], PLAYER_NAMES[1 - player]
    out = coin_flows(before, after, move)
    for token in sorted(set(before.military_tokens) - set(after.military_tokens)):
        if before.coins(PLAYER_NAMES.index(token[0])) == 0:  # coin_flows said nothing: none to lose
            out.append(
                tr(
                    "looting token {token} taken: {player} had no coins to lose",
                    token=token,
                    player=token[0],
                )
            )
    if after.pawn != before.pawn:
        pawn = after.pawn
        where = (
            tr("the middle")
            if pawn == 0
            else tr("{n} towards {player}'s capital", n=abs(pawn), player="B" if pawn > 0 else "A")
        )
        out.append(tr("the conflict pawn moves to {where}", where=where))
    if after.phase == "choose_token" and before.phase != "choose_token":
        out.append(
            tr("{player} has a pair of science symbols and chooses a progress token", player=me)
        )
    if after.age != before.age and before.age and not after.is_terminal():
        # the next structure is laid out (dealt next), then the chooser decides who begins it
        out.append(
            tr(
                "{age} is over; {next} is laid out, then {player} chooses who begins it",
                age=age_name(before.age),
                next=age_name(after.age),
                player=PLAYER_NAMES[after.to_move],
            )
        )
    if (
        move.kind is Kind.WONDER
        and after.phase in ("play", "reveal")
        and after.to_move == player
        and after.age == before.age
    ):
        out.append(tr("{player} plays again", player=me))
    if move.kind is Kind.STARTER:
        out.append(
            tr(
                "{age} begins; {player} starts",
                age=age_name(after.age),
                player=PLAYER_NAMES[move.player],
            )
        )
    del other
    return out

