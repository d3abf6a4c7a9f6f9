"""A differential test of Agora's Senate against a model written here from the rulebook and
BGA's code (``Senate::getSituation``, ``NextPlayerTurnTrait`` scoring and
``checkImmediateVictory``, ``Player::getSenateActionsCount``, the Decrees of ``Material.php``),
not from the engine's helpers: over every state of random Agora games, the control of each
Chamber, the Decrees in force, the Senate's points, political supremacy, a Politician's number of
actions, and two Decrees' effects (Scrap dealers on a discard, the tithes on a build)."""

import random

import pytest

from duel.catalog import T_ECONOMY
from duel.expansions import new_xgame
from duel.expansions.components import XCARDS

pytestmark = pytest.mark.expansions

#: The Chambers' points at the end (BGA: 1, then 2 for Chambers 2 and 5, 3 for 3 and 4).
POINTS = {1: 1, 2: 2, 3: 3, 4: 3, 5: 2, 6: 1}
TITHE_OF = {
    "blue": "Blue tithe",
    "green": "Green tithe",
    "yellow": "Yellow tithe",
    "red": "Red tithe",
}


def model_controller(cubes: tuple[int, int]) -> int | None:
    """Strictly more cubes controls; a tie (0-0 too) controls nothing."""
    a, b = cubes
    return 0 if a > b else 1 if b > a else None


def model_controllers(state) -> list[int | None]:
    return [model_controller(tuple(pair)) for pair in state.senate]


def model_in_force(state, player: int, decree: str) -> bool:
    owners = model_controllers(state)
    return any(
        owners[i] == player and name == decree and up
        for i, entries in enumerate(state.decrees)
        for name, up in entries
    )


def model_points(state, player: int) -> int:
    return sum(POINTS[i + 1] for i, owner in enumerate(model_controllers(state)) if owner == player)


def model_actions(blue: int, civic_weight: bool) -> int:
    blue += 2 if civic_weight else 0
    return 1 if blue <= 1 else 2 if blue <= 3 else 3


def _blue(state, player):
    return sum(1 for c in state.cities[player].cards if XCARDS[c].color == "blue")


def _yellow(state, player):
    return sum(1 for c in state.cities[player].cards if XCARDS[c].color == "yellow")


def _check_state(state, seen):
    owners = model_controllers(state)
    for player in (0, 1):
        assert sum(pair[player] for pair in state.senate) <= 12
        assert state.score(player).senate == model_points(state, player)
    if state.is_terminal():
        if state.victory == "political":
            assert owners == [state.winner] * 6
            seen["political"] += 1
        return
    assert not (owners[0] is not None and owners == [owners[0]] * 6), "supremacy not declared"


def _check_move(before, move, after, seen):
    if before.phase != "play" or before.is_chance():
        return
    player = before.to_move
    other = 1 - player
    if move.kind == "discard":
        bonus = 2 if model_in_force(before, player, "Scrap dealers") else 0
        gained = after.cities[player].coins - before.cities[player].coins
        assert gained == 2 + _yellow(before, player) + bonus
        seen["scrap"] += bool(bonus)
    if move.kind == "build":
        card = XCARDS[move.args[0]]
        if card.name.startswith("Politician") and after.phase == "senate":
            civic = model_in_force(before, player, "Civic weight")
            assert after.step[3] == model_actions(_blue(before, player), civic)
            seen["politician"] += 1
        tithe = TITHE_OF.get(card.color)
        if tithe and T_ECONOMY not in before.cities[other].tokens:
            expected = before.age if model_in_force(before, other, tithe) else 0
            got = after.cities[other].coins - before.cities[other].coins
            assert got == expected, f"{card.name}: {tithe}"
            seen["tithe"] += bool(expected)


@pytest.mark.parametrize("seed", range(8))
def test_the_senate_agrees_with_an_independent_model_over_random_games(seed):
    seen = {"political": 0, "scrap": 0, "politician": 0, "tithe": 0}
    rng = random.Random(seed)
    state = new_xgame(("agora",))
    while not state.is_terminal():
        _check_state(state, seen)
        move = state.random_move(rng)
        after = state.apply(move)
        _check_move(state, move, after, seen)
        state = after
    _check_state(state, seen)
    assert seen["politician"] > 0  # the model's action count was compared at least once


def test_the_model_itself():
    assert [model_controller(c) for c in ((0, 0), (1, 0), (2, 3), (4, 4))] == [None, 0, 1, None]
    assert model_actions(0, False) == 1 and model_actions(2, False) == 2
    assert model_actions(2, True) == 3 and model_actions(1, True) == 2
    assert sum(POINTS.values()) == 12
