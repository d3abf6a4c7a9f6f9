"""Build hand-made base-game positions for known-answer tests."""

from __future__ import annotations

from dataclasses import replace

from wonders.cards import CARDS, wonder
from wonders.game import City, GameState, Move, new_game

FILLER = "Pawnshop"  # a card nobody uses in these tests, to fill hands


def card_id(name: str, age: int | None = None) -> int:
    for c in CARDS:
        if c.name == name and (age is None or c.age == age):
            return c.id
    raise KeyError(name)


def position(
    boards: list[tuple[str, str]],
    *,
    players: int | None = None,
    built: dict[int, list[str]] | None = None,
    hands: dict[int, list[str]] | None = None,
    coins: dict[int, int] | None = None,
    stages: dict[int, int] | None = None,
    tokens: dict[int, list[int]] | None = None,
    age: int = 1,
    turn: int = 1,
    discard: list[str] | None = None,
) -> GameState:
    """A state at the start of a turn: ``boards`` as (city, side) for every city; every city not
    given a hand gets two filler cards."""
    players = players if players is not None else len(boards)
    state = new_game(players, 0, wonders=boards)
    built = built or {}
    hands = hands or {}
    cities = []
    for c in range(len(boards)):
        cities.append(
            City(
                wonder=wonder(*boards[c]).id,
                coins=(coins or {}).get(c, 3),
                built=tuple(card_id(n) for n in built.get(c, [])),
                stages=(stages or {}).get(c, 0),
                tokens=tuple((tokens or {}).get(c, [])),
            )
        )
    hand_t = []
    for c in range(players):
        hand_t.append(tuple(card_id(n) for n in hands.get(c, [FILLER, FILLER])))
    if players == 2:
        hand_t.append(())
    return replace(
        state,
        cities=tuple(cities),
        hands=tuple(hand_t),
        age=age,
        turn=turn,
        discard=tuple(card_id(n) for n in (discard or [])),
        fc_pile=() if players != 2 else state.fc_pile,
        phase="choose",
        to_act=tuple(range(len(boards))),
        pending=(None,) * len(boards),
    )


def play(state: GameState, moves: dict[int, str]) -> GameState:
    """Resolve one step: cities in ``moves`` play e.g. ``"build Temple"``; every other city that
    must act discards its first card."""
    from wonders.cards import CARDS as ALL

    for c in state.to_act:
        if c in moves:
            action, card = moves[c].split(" ", 1)
            move = Move(c, action, card)
        else:
            move = Move(c, "discard", ALL[state._source(c)[0]].name)
        state = state.apply(move)
    return state
