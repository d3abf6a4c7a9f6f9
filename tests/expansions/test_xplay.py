"""``duel play --expansions pantheon``: a whole game through typed lines, the views it shows,
bad input, the hand-over screen between two humans, and the record written after each move."""

import itertools

import pytest

from duel.app.line.xplay import run_xgame
from duel.expansions.record import XRecord

pytestmark = pytest.mark.expansions


def _typist(lines):
    """A reader that answers the prompts with ``lines``, then "1" forever."""
    answers = itertools.chain(lines, itertools.repeat("1"))
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        return next(answers)

    return read, prompts


def test_a_human_plays_a_whole_game_against_the_ai_and_the_record_replays(tmp_path):
    read, prompts = _typist(["hello", "999", "build Nothing", "wonder pyramids with baths", ""])
    out = []
    record = tmp_path / "game.json"
    code = run_xgame(
        ("pantheon",), ("human", "random"), seed=3, record=record, read=read, write=out.append
    )
    text = "\n".join(out)
    assert code == 0 and "Game over" in text
    assert "unknown move 'hello'" in text and "Choose a number from 1 to" in text
    assert "no card named" in text
    final = XRecord.load(record).final_state()
    assert final.is_terminal()


def test_the_screen_never_shows_the_ais_face_down_divinity(tmp_path):
    read, _ = _typist([])
    out = []
    run_xgame(("pantheon",), ("human", "random"), seed=5, read=read, write=out.append)
    boards = [block for block in out if block.startswith("Pantheon")]
    assert boards
    for board in boards:
        for line in board.splitlines():
            if "seated by B" in line:
                assert "face-down Divinity" in line and "yours" not in line


def test_two_humans_get_a_hand_over_screen(tmp_path):
    read, prompts = _typist([])
    out = []
    code = run_xgame(("pantheon",), ("human", "human"), seed=2, read=read, write=out.append)
    assert code == 0
    assert any(p.startswith("Pass the terminal to player B") for p in prompts)
    assert any(p.startswith("Pass the terminal to player A") for p in prompts)


def test_quitting_leaves_the_game_unfinished_and_says_where_it_is_saved():
    read, _ = _typist(["quit"])
    out = []
    code = run_xgame(("pantheon",), ("human", "random"), seed=1, read=read, write=out.append)
    assert code == 1 and "Continue it with: duel play --load" in out[-1]


def test_an_unknown_level_is_refused():
    out = []
    assert run_xgame(("pantheon",), ("human", "cmtcs"), write=out.append) == 2
    assert "expansion games are played by human" in out[0]


def test_hint_in_the_game_and_on_a_record(tmp_path, capsys):
    import json
    import random

    import pytest
    import typer

    from duel.app.cli.xfiles import hint_record
    from duel.expansions import new_xgame

    read, _ = _typist(["hint", "quit"])
    out = []
    run_xgame(("pantheon",), ("human", "random"), seed=4, think=0.2, read=read, write=out.append)
    assert any(block.startswith("Best moves for A") for block in out)

    state, moves, rng = new_xgame(("pantheon",)), [], random.Random(8)
    while not (state.age == 2 and state.phase == "play"):
        move = state.random_move(rng)
        moves.append(move)
        state = state.apply(move)
    path = tmp_path / "age2.json"
    XRecord(("pantheon",), tuple(moves)).save(path)
    assert hint_record(path, 0.3, 3, 0, True) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["moves"]) == min(3, len(state.legal_moves())) and all(
        0 <= m["win_chance"] <= 1 for m in data["moves"]
    )
    assert data["moves"][0]["move"] in {str(m) for m in state.legal_moves()}

    while not state.is_terminal():
        move = state.random_move(rng)
        moves.append(move)
        state = state.apply(move)
    XRecord(("pantheon",), tuple(moves)).save(path)
    with pytest.raises(typer.Exit) as stop:
        hint_record(path, 0.3, 3, 0, False)
    assert stop.value.exit_code == 1
    assert "no decision to hint at" in capsys.readouterr().err


def test_the_record_of_a_game_in_progress_hides_every_face_down_card(tmp_path):
    import json
    import re

    import pytest

    from duel.expansions.record import XRecordError

    read, _ = _typist(["1"] * 20 + ["quit"])
    record = tmp_path / "game.json"
    run_xgame(("pantheon",), ("human", "random"), seed=6, record=record, read=read, write=print)
    data = json.loads(record.read_text())
    assert data["metadata"]["in_progress"] is True
    seats = [m for m in data["moves"] if m.startswith("seat ")]
    draws = [m for m in data["moves"] if m.startswith("divinities ")]
    assert seats and draws
    assert all(re.fullmatch(r"seat a \w+ Divinity on \d", m) for m in seats)
    assert all(m.endswith(" unseen") for m in draws)
    with pytest.raises(XRecordError, match="game in progress"):
        XRecord.load(record)


def test_an_agora_game_with_pantheon_in_the_line_mode_shows_the_senate(tmp_path):
    read, _ = _typist([])
    out = []
    record = tmp_path / "agora.json"
    code = run_xgame(
        ("agora", "pantheon"),
        ("human", "random"),
        seed=7,
        record=record,
        read=read,
        write=out.append,
    )
    text = "\n".join(out)
    assert code == 0 and "Senate (strictly more cubes" in text and "Game over" in text
    assert XRecord.load(record).final_state().is_terminal()
