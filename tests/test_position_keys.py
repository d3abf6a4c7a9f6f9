"""Unknown keys in a position are refused with a suggestion, never ignored silently."""

import pytest

from duel.position import PositionError, position_from_json, position_to_json
from tests.tables import make_state


def base() -> dict:
    return position_to_json(make_state(age=2, accessible=["Walls"], A={"city": ["Quarry"]}))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["players"]["A"].update(coinz=3),
            "players.A.coinz: unknown key (did you mean 'coins'?)",
        ),
        (lambda d: d.update(pyramd=[]), "pyramd: unknown key (did you mean 'pyramid'?)"),
        (lambda d: d["military"].update(pwn=2), "military.pwn: unknown key (did you mean 'pawn'?)"),
        (lambda d: d["players"].update(C={}), "players.C: unknown key (known: A, B)"),
        (lambda d: d.update(tomove="B"), "tomove: unknown key (did you mean 'to_move'?)"),
    ],
)
def test_unknown_key_is_refused_with_a_suggestion(mutate, message):
    data = base()
    mutate(data)
    with pytest.raises(PositionError) as info:
        position_from_json(data)
    assert str(info.value) == message


def test_every_key_the_writer_uses_is_known_and_a_comment_is_allowed():
    data = base()  # a partial table (a few cards, no earlier Ages): loaded without reachability
    data["comment"] = "from a table game, turn 12"
    assert position_from_json(data, strict=False) == position_from_json(base(), strict=False)


def test_guild_slots_written_for_a_taken_guild_is_a_known_key():
    state = make_state(
        age=3, A={"city": ["Builders Guild"]}, B={"city": ["Palace"]}, guild_backs=[3, 9]
    )
    data = position_to_json(state)
    data["guild_slots"] = [3, 9, 18]  # the slot of the guild taken (18 or 19)
    data["comment"] = "Age III"
    assert position_from_json(data, strict=False).guild_slots == [3, 9, 18]
