"""Game records written before guild backs were public (no 'guilds at slots' move)."""

import random

import pytest

from duel import Kind, Move, new_game
from duel.catalog import GUILDS
from duel.record import GameRecord, RecordError


def game_to_age_three_end(seed: int) -> list[Move]:
    """The moves of a random game (seed) that ends with the civilian count after Age III."""
    for s in range(seed, seed + 200):
        rng = random.Random(s)
        state, moves = new_game(), []
        while not state.is_terminal():
            moves.append(state.random_move(rng))
            state = state.apply(moves[-1])
        if state.victory == "civilian":
            return moves
    raise AssertionError("no civilian ending")


def test_an_old_record_gets_the_guild_deal_from_its_reveals():
    moves = game_to_age_three_end(1)
    at = next(i for i, m in enumerate(moves) if m.kind is Kind.DEAL_GUILDS)
    old = [str(m) for m in moves[:at] + moves[at + 1 :]]
    record = GameRecord.from_json({"format": "7wd-record", "version": 1, "moves": old})
    assert record.moves == tuple(moves)
    guild_reveals = {
        m.slot for m in moves[at:] if m.kind is Kind.REVEAL_CARD and GUILDS >> m.card & 1
    }
    assert set(moves[at].guild_slots) == guild_reveals


def test_an_old_record_cut_before_the_guilds_show_is_refused_with_what_to_add():
    moves = game_to_age_three_end(1)
    at = next(i for i, m in enumerate(moves) if m.kind is Kind.DEAL_GUILDS)
    guilds = sorted(
        m.slot for m in moves[at:] if m.kind is Kind.REVEAL_CARD and GUILDS >> m.card & 1
    )
    # Cut the record just after the first face-up cards of Age III are dealt.
    old = [str(m) for m in moves[:at] + moves[at + 1 : at + 7]]
    shown = [m.slot for m in moves[at + 1 : at + 7] if GUILDS >> m.card & 1]
    assert len(shown) < 3 and set(shown) <= set(guilds)
    with pytest.raises(RecordError) as info:
        GameRecord.from_json({"moves": old})
    message = str(info.value)
    assert message.startswith(f"moves[{at}]: this record predates public guild backs")
    assert f"insert 'guilds at slots{''.join(f' {s}' for s in shown)} ...' before moves[{at}]" in (
        message
    )
    assert "among the slots never revealed" in message


def test_a_new_record_is_read_as_written():
    moves = game_to_age_three_end(2)
    record = GameRecord(tuple(moves))
    back = GameRecord.from_json(record.to_json())
    # Equal as written: a Great Library draw keeps only its chosen token (placeholders on reading).
    assert back.to_json() == record.to_json() and back.final_state() == record.final_state()
    assert any(str(m).startswith("guilds at slots ") for m in record.to_json()["moves"])


def test_an_old_record_with_a_hidden_library_draw_in_age_three():
    """The inferred guild deal goes in before the replay that fills in the hidden draw."""
    for seed in range(1, 400):
        moves = game_to_age_three_end(seed)
        at = next(i for i, m in enumerate(moves) if m.kind is Kind.DEAL_GUILDS)
        if any(m.kind is Kind.LIBRARY_DRAW for m in moves[at:]):
            break
    else:
        raise AssertionError("no Great Library in Age III")
    written = GameRecord(tuple(moves)).to_json()["moves"]
    assert any(", ?, ?" in m for m in written[at:])
    old = written[:at] + written[at + 1 :]
    back = GameRecord.from_json({"moves": old})
    assert back.final_state() == GameRecord(tuple(moves)).final_state()
    assert back.moves[at] == moves[at]
    assert [back.moves[i].kind for i in back.redacted] == [Kind.LIBRARY_DRAW] * len(back.redacted)
    assert back.to_json()["moves"] == written
