"""Undo in an expansion game (issue 61), as the base game has it: back to the human's last
decision with the AI's replies; refused in a fair game once a chance event came since; the save
follows."""

import json

import pytest

from duel.app.control.xgame import XGameControl
from duel.app.control.xundo import undo
from duel.app.line.xplay import run_xgame

pytestmark = pytest.mark.expansions


def _control(tmp_path, seed, expansions=("agora",)):
    return XGameControl(
        expansions,
        ("human", "random"),
        seed=seed,
        record=tmp_path / "save.json",
        notify=lambda _: None,
    )


def _to_decision_without_chance_after(control):
    """Play the human's first moves until one is followed by the AI's reply alone (no chance
    event before the human decides again): the draft's picks give that soon."""
    while True:
        player = control.advance()
        assert player is not None
        before = len(control.moves)
        control.play(control.view(player).legal_moves()[0])
        control.advance()
        since = control.moves[before:]
        if not any(m.is_chance() for m in since) and len(since) >= 1:
            return before


def test_undo_takes_back_the_humans_move_and_the_ais_reply(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    control = _control(tmp_path, seed=None)
    kept = _to_decision_without_chance_after(control)
    state = control.state
    said = undo(control)
    assert said.startswith("Taken back: A ") and len(control.moves) == kept
    assert control.state != state and control.state.to_move == 0
    assert control.state == XGameControl.resume(tmp_path / "save.json").state


def test_a_fair_game_refuses_to_take_back_a_chance_event(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    control = _control(tmp_path, seed=None)
    while True:
        player = control.advance()
        before = len(control.moves)
        control.play(control.view(player).legal_moves()[0])
        control.advance()
        if any(m.is_chance() for m in control.moves[before:]):
            break
    moves = list(control.moves)
    said = undo(control)
    assert said.startswith("Cannot undo") and control.moves == moves


def test_a_seeded_game_allows_it(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    control = _control(tmp_path, seed=4)
    for _ in range(6):
        player = control.advance()
        control.play(control.view(player).legal_moves()[0])
    control.advance()
    assert undo(control).startswith("Taken back")
    assert not control.state.is_chance() and control.players[control.state.to_move] is None


def test_nothing_to_undo_before_the_first_decision(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    control = _control(tmp_path, seed=None)
    control.advance()
    assert undo(control) == "Nothing to undo."


def test_the_line_mode_takes_undo(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    typed = iter(["1", "undo", "quit"])
    out = []
    code = run_xgame(
        ("pantheon",),
        ("human", "random"),
        seed=2,
        record=tmp_path / "game.json",
        read=lambda _: next(typed),
        write=out.append,
    )
    assert code == 1 and any(line.startswith("Taken back: A pick") for line in out)
    data = json.loads((tmp_path / "game.json").read_text())
    assert data["metadata"]["in_progress"]


def test_an_illegal_move_typed_is_refused_in_the_players_language(tmp_path, monkeypatch):
    from duel.app.i18n import set_language

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    control = _control(tmp_path, seed=1)
    player = control.advance()
    english = control.read_move(player, "build Baths")
    assert isinstance(english, str) and "is not legal here" in english
    try:
        set_language("ja")
        japanese = control.read_move(player, "build Baths")
    finally:
        set_language("en")
    assert isinstance(japanese, str) and "合法手" in japanese
