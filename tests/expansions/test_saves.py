"""Saves of an expansion game in progress: sealed private moves, resuming, the key kept apart.

Rules of fair play tested here (docs/engine.md, "Records and saves"): the save's readable part
holds each move as the opponent of its player saw it; the referee's moves are sealed by a key
kept in the data folder, so the game continues where it was saved and nowhere else; a hint on
a save is given for a human's decision only.
"""

import json

import pytest
import typer

from duel.app.cli.xfiles import hint_record
from duel.app.control.xgame import XGameControl
from duel.app.control.xsaves import key_file, read_save
from duel.app.line.xplay import run_xgame
from duel.expansions import XMove
from duel.expansions.record import XRecord, XRecordError, seal, unseal

pytestmark = pytest.mark.expansions


def _played(tmp_path, moves: int, seats=("human", "random"), seed: int | None = 6):
    """A Pantheon game with its save in ``tmp_path``, the human's first legal move played until
    ``moves`` moves are made (chance and the AI's included)."""
    control = XGameControl(
        ("pantheon",), seats, seed=seed, record=tmp_path / "save.json", notify=lambda _: None
    )
    while len(control.moves) < moves:
        player = control.advance()
        assert player is not None
        control.play(control.view(player).legal_moves()[0])
    return control


def test_sealing_round_trips_and_refuses_a_changed_save_or_another_key():
    moves = [XMove.parse("seat zeus on 3"), XMove.parse("divinities greek zeus, hades")]
    key = bytes(range(32))
    sealed = seal(moves, key)
    assert "Zeus" not in json.dumps(sealed) and "Hades" not in json.dumps(sealed)
    assert unseal(sealed, key) == [str(m) for m in moves]
    assert seal(moves, key)["moves"] != sealed["moves"]  # a fresh nonce every save
    with pytest.raises(XRecordError, match="another key"):
        unseal(sealed, bytes(32))
    changed = dict(sealed, moves=sealed["moves"][:-4] + "AAA=")
    with pytest.raises(XRecordError, match="altered"):
        unseal(changed, key)
    with pytest.raises(XRecordError, match="nonce, moves and tag"):
        unseal({"nonce": "00"}, key)


def test_the_save_shows_only_public_moves_and_resumes_the_same_game(tmp_path):
    control = _played(tmp_path, 60)
    path = tmp_path / "save.json"
    data = json.loads(path.read_text())
    assert data["metadata"]["in_progress"] is True
    assert data["moves"] == control.public_moves
    hidden = [str(m) for m in control.moves if str(m) not in control.public_moves]
    assert hidden, "60 moves of Pantheon include a private draw"
    for text in hidden:
        assert text not in path.read_text()
    resumed = XGameControl.resume(path, notify=lambda _: None)
    assert resumed.state == control.state
    assert resumed.moves == control.moves and resumed.public_moves == control.public_moves
    assert resumed.seats == ("human", "random")
    # The seeded dealer continues where it stopped, so a seeded game replays the same.
    assert resumed.dealer.getstate() == control.dealer.getstate()


def test_a_resumed_game_plays_to_its_end_and_becomes_a_full_record(tmp_path):
    control = _played(tmp_path, 30)
    path = tmp_path / "save.json"
    assert key_file(control.game).exists()
    out: list[str] = []
    code = run_xgame((), ("random", None), load=path, write=out.append)
    assert code == 0 and "Game over" in "\n".join(out)
    record = XRecord.load(path)
    assert record.final_state().is_terminal()
    assert list(record.moves[: len(control.moves)]) == control.moves
    assert not key_file(control.game).exists()


def test_leaving_says_where_the_game_is_and_how_to_continue(tmp_path):
    out: list[str] = []
    answers = iter(["1"] * 5 + ["quit"])
    code = run_xgame(
        ("agora",),
        ("human", "random"),
        seed=2,
        record=tmp_path / "left.json",
        read=lambda _: next(answers),
        write=out.append,
    )
    assert code == 1
    assert f"Continue it with: duel play --load {tmp_path / 'left.json'}" in out[-1]
    resumed = XGameControl.resume(tmp_path / "left.json", notify=lambda _: None)
    assert resumed.expansions == ("agora",) and len(resumed.moves) > 5


def test_without_its_key_a_save_says_why_it_cannot_continue(tmp_path):
    control = _played(tmp_path, 20)
    key_file(control.game).unlink()
    with pytest.raises(XRecordError, match="key to its face-down cards"):
        read_save(tmp_path / "save.json")
    out: list[str] = []
    assert run_xgame((), (None, None), load=tmp_path / "save.json", write=out.append) == 2
    assert "save.json" in out[0] and "key" in out[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["metadata"].update(game="../../etc/passwd"), "32 hex digits"),
        (lambda d: d["moves"].pop(), "public moves for"),
        (lambda d: d.pop("sealed"), "sealed: expected an object"),
        (lambda d: d["moves"].__setitem__(0, "reveal slot 0 Baths"), "is not what was played"),
    ],
)
def test_a_changed_save_is_refused_with_the_field_named(tmp_path, change, message):
    _played(tmp_path, 20)
    path = tmp_path / "save.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(XRecordError, match=message):
        read_save(path)


def test_a_hint_on_a_save_is_for_the_humans_decision_only(tmp_path, capsys):
    control = _played(tmp_path, 25)
    path = tmp_path / "save.json"
    player = control.advance()
    assert player == 0  # the human to move: the save holds every move so far
    assert hint_record(path, 0.2, 2, 0, True) == 0
    assert json.loads(capsys.readouterr().out)["player"] == "A"
    # The same save as if the AI were to move: its view holds its own face-down cards. (The
    # players are under the seal's tag: the program saves them, editing the file cannot.)
    control.seats = ("random", "human")
    control.save()
    with pytest.raises(typer.Exit) as stop:
        hint_record(path, 0.2, 2, 0, True)
    assert stop.value.exit_code == 1
    assert "is an AI (random)" in capsys.readouterr().err


def test_a_game_without_record_is_saved_in_a_file_of_its_own(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    answers = iter(["1"] * 5 + ["quit"])
    out: list[str] = []
    run_xgame(
        ("pantheon",), ("human", "random"), read=lambda _: next(answers), write=out.append
    )
    places = list((tmp_path / "wonders-duel").glob("duel-xgame-*.json"))
    assert len(places) == 1 and str(places[0]) in out[-1]
    assert XGameControl.resume(places[0], notify=lambda _: None).seed is None
    # A second game gets a file of its own: the first one stays to be continued.
    answers = iter(["1", "quit"])
    run_xgame(("agora",), ("human", "random"), read=lambda _: next(answers), write=out.append)
    assert len(list((tmp_path / "wonders-duel").glob("duel-xgame-*.json"))) == 2


def test_a_save_that_does_not_read_is_said_in_the_users_language(tmp_path):
    """play --load and the start screen's load say an XRecordError translated (issue 61)."""
    from duel.app.i18n import set_language
    from duel.app.screen.start import expansion_save_problem

    _played(tmp_path, 20)
    path = tmp_path / "save.json"
    data = json.loads(path.read_text())
    data["moves"].pop()
    path.write_text(json.dumps(data))
    public = len(data["moves"])
    english: list[str] = []
    assert run_xgame((), (None, None), load=path, write=english.append) == 2
    assert english == [f"{path}: moves: {public} public moves for {public + 1} sealed ones"]
    set_language("ja")
    try:
        japanese: list[str] = []
        assert run_xgame((), (None, None), load=path, write=japanese.append) == 2
        problem = expansion_save_problem(path)
    finally:
        set_language("en")
    sealed = f"moves：公開された手が {public} 手、封印された手が {public + 1} 手で、数が合わない"
    assert japanese == [f"{path}：{sealed}"]
    assert problem is not None and sealed in problem
