"""The Great Library's draw in a finished expansion record (issue 60, point 9): the two tokens
not chosen go back to the box unseen by the opponent, so the record writes ``draw Law, ?, ?``
(``draw ?, ?, ?`` if no choice followed) and reading fills the placeholders with tokens in the
box, as the base game's records do; the game replays the same, and undo never goes back to the
choice between placeholders."""

import json
import random
from itertools import combinations

import pytest

from duel.app.control.replay import XReplay
from duel.app.control.xgame import XGameControl
from duel.app.control.xundo import undo
from duel.expansions import XMove, new_xgame
from duel.expansions.record import XRecord, XRecordError
from tests.expansions.roundtrip import assert_same_game

pytestmark = pytest.mark.expansions


def _game(seed, expansions):
    state, moves, rng = new_xgame(expansions), [], random.Random(seed)
    while not state.is_terminal():
        move = state.random_move(rng)
        moves.append(move)
        state = state.apply(move)
    return state, moves


#: Random games with The Great Library built (Pantheon's seed 0 draws twice: a Wonder rebuilt).
GAMES = [(0, ("pantheon",)), (1, ("agora",)), (3, ("agora", "pantheon"))]


@pytest.mark.parametrize(("seed", "expansions"), GAMES)
def test_a_finished_record_hides_the_tokens_not_chosen_and_replays_the_same_game(
    seed, expansions, tmp_path
):
    final, moves = _game(seed, expansions)
    draws = [i for i, m in enumerate(moves) if m.kind == "library_draw"]
    assert draws, "the game must build The Great Library"
    record = XRecord(expansions, tuple(moves), {"players": ["human", "human"]})
    path = tmp_path / "game.json"
    record.save(path)
    written = json.loads(path.read_text())["moves"]
    for i in draws:
        chosen = str(moves[i + 1]).removeprefix("token ")
        assert written[i] == f"draw {chosen}, ?, ?"
        for other in str(moves[i]).removeprefix("draw ").split(", "):
            if other != chosen:
                assert other not in written[i]
    assert all(written[i] == str(m) for i, m in enumerate(moves) if i not in draws), (
        "only the draws are hidden"
    )
    again = XRecord.load(path)
    assert again.redacted == frozenset(draws)
    assert_same_game(again, record)
    end = again.final_state()
    assert end == final and end.is_terminal()
    assert (end.winner, end.victory) == (final.winner, final.victory)
    # Written again, the record is the same file: the placeholders never show.
    assert again.to_json() == record.to_json()
    # The replay's move list shows what the record says.
    replay = XReplay.of(again)
    assert [replay.notation[i] for i in draws] == [written[i] for i in draws]


@pytest.mark.parametrize(("seed", "expansions"), GAMES)
def test_an_old_record_with_the_whole_draw_still_reads(seed, expansions):
    final, moves = _game(seed, expansions)
    data = XRecord(expansions, tuple(moves)).to_json()
    data["moves"] = [str(m) for m in moves]  # as records were written before
    assert any(t.startswith("draw ") and "?" not in t for t in data["moves"])
    old = XRecord.from_json(data)
    assert old.moves == tuple(moves) and old.redacted == frozenset()
    assert old.final_state() == final


def test_a_draw_no_choice_followed_is_written_all_hidden_and_reads_back():
    _, moves = _game(0, ("pantheon",))
    draw = next(i for i, m in enumerate(moves) if m.kind == "library_draw")
    record = XRecord(("pantheon",), tuple(moves[: draw + 1]))  # ended there (on time, say)
    data = record.to_json()
    assert data["moves"][-1] == "draw ?, ?, ?"
    again = XRecord.from_json(data)
    assert again.redacted == {draw} and again.moves[:draw] == tuple(moves[:draw])
    state = again.final_state()
    assert state.phase == "library_choose" and len(state.library) == 3
    assert set(state.library) <= set(again.states()[draw].box_tokens)


def _hidden_draw_record():
    _, moves = _game(0, ("pantheon",))
    draw = next(i for i, m in enumerate(moves) if m.kind == "library_draw")
    data = XRecord(("pantheon",), tuple(moves)).to_json()
    return data, draw, moves


def test_hidden_draws_that_cannot_be_are_refused_with_the_move_and_why():
    data, draw, moves = _hidden_draw_record()
    chosen = str(moves[draw + 1]).removeprefix("token ")

    def refused(change, message):
        changed = json.loads(json.dumps(data))
        change(changed["moves"])
        with pytest.raises(XRecordError, match=message):
            XRecord.from_json(changed)

    def all_hidden(m):
        m[draw] = "draw ?, ?, ?"

    refused(all_hidden, f"move {draw + 1} .*ends the record")

    def other_choice(m):
        m[draw + 1] = "token Law" if chosen != "Law" else "token Economy"

    refused(other_choice, "must be followed by the choice of its token")

    def cut(m):
        del m[draw + 1 :]

    refused(cut, "must be followed by the choice")
    on_board = sorted(XRecord(("pantheon",), tuple(moves)).states()[draw].board)[0]
    owned = str(XMove("token", (on_board,))).removeprefix("token ")  # on the board, not boxed

    def not_in_box(m):
        m[draw] = f"draw {owned}, ?, ?"
        m[draw + 1] = f"token {owned}"

    refused(not_in_box, f"{owned} is not in the box")

    def no_library(m):
        m.insert(0, "draw Law, ?, ?")

    refused(no_library, "move 1 .*draws no tokens here")

    def unknown(m):
        m[draw] = "draw Telepathy, ?, ?"

    refused(unknown, f"move {draw + 1}")


@pytest.mark.parametrize(("seed", "expansions"), GAMES)
def test_after_the_choice_no_rule_remembers_the_tokens_not_chosen(seed, expansions):
    """What makes any placeholders right: whichever tokens came with the chosen one, the state
    after the choice is the same (every draw of the box that holds it)."""
    _, moves = _game(seed, expansions)
    state = new_xgame(expansions)
    checked = 0
    for i, move in enumerate(moves):
        if move.kind == "library_draw":
            chosen = moves[i + 1]
            box = state.box_tokens
            afters = {
                state.apply(XMove("library_draw", (draw,))).apply(chosen)
                for draw in combinations(box, min(3, len(box)))
                if chosen.args[0] in draw
            }
            assert len(afters) == 1
            checked += 1
        state = state.apply(move)
    assert checked


def test_undo_never_goes_back_to_a_choice_between_placeholders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    data, draw, moves = _hidden_draw_record()
    data["moves"] = data["moves"][: draw + 2]  # the record stops right after the choice
    data["metadata"] = {"players": ["human", "human"]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    control = XGameControl.resume(path, notify=lambda _: None)
    assert control.redacted == {draw}
    assert control.public_moves[draw] == data["moves"][draw]
    said = undo(control)
    assert said.startswith("Cannot undo to The Great Library's choice")
    assert len(control.moves) == draw + 2
    # A whole record read back is the same game: it goes on from the same position.
    whole = tmp_path / "whole.json"
    XRecord(("pantheon",), tuple(moves[: draw + 2])).save(whole)
    assert XGameControl.resume(whole, notify=lambda _: None).state == control.state


def test_the_review_leaves_out_a_choice_between_placeholders(monkeypatch):
    import duel.solvers.xreview as xreview

    _, moves = _game(0, ("pantheon",))
    draw = next(i for i, m in enumerate(moves) if m.kind == "library_draw")
    record = XRecord(("pantheon",), tuple(moves[: draw + 2]))

    def judge(state, move, **_):
        return 0.5, move, 0.5

    monkeypatch.setattr(xreview, "judge", judge)
    numbers = [j.number for j in xreview.review_xrecord(record, iterations=1)]
    assert draw + 2 in numbers  # read in full, the choice is judged
    again = XRecord.from_json(record.to_json())
    numbers = [j.number for j in xreview.review_xrecord(again, iterations=1)]
    assert draw + 2 not in numbers and numbers  # hidden, it is not


def test_a_record_stopping_at_a_hidden_draw_goes_on_from_before_the_draw(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    _, moves = _game(0, ("pantheon",))
    draw = next(i for i, m in enumerate(moves) if m.kind == "library_draw")
    path = tmp_path / "game.json"
    XRecord(("pantheon",), tuple(moves[: draw + 1]), {"players": ["human", "human"]}).save(path)
    control = XGameControl.resume(path, notify=lambda _: None)
    assert control.moves == list(moves[:draw]) and control.redacted == frozenset()
    assert control.state.phase == "library_draw"  # dealt again, never the placeholders


def test_a_game_resumed_from_a_record_keeps_its_hidden_draws_through_a_save_in_progress(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    data, draw, _ = _hidden_draw_record()
    data["moves"] = data["moves"][: draw + 2]
    data["metadata"] = {"players": ["human", "human"], "seed": 1}  # seeded: chance undoes
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    control = XGameControl.resume(path, notify=lambda _: None)
    player = control.advance()
    control.play(control.view(player).legal_moves()[0])  # saved in progress, moves sealed
    saved = json.loads(path.read_text())
    assert "sealed" in saved and saved["moves"][draw] == data["moves"][draw]
    again = XGameControl.resume(path, notify=lambda _: None)
    assert again.redacted == {draw} and again.moves == control.moves
    assert undo(again).startswith("Taken back")
    assert undo(again).startswith("Cannot undo to The Great Library's choice")
