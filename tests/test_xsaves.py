"""Expansion games are saved whatever the data folder's state, and the screen tells the truth
about it (issue 60, items 1, 2, 8 and 9): the sealing key is no precondition of a save (it
goes to a fallback folder), "saved" is said only after a write that worked, a failed save names
the last good one and the moves lost, and the next save tries every place again. Time budgets
are bounded wherever a time is read; small file problems get one line."""

from __future__ import annotations

import errno
import json
import math
from pathlib import Path

import pytest
import typer

from duel.app.cli.support import check_finite
from duel.app.cli.xfiles import hint_record
from duel.app.control import xgame, xsaves
from duel.app.control.levels import MAX_SECONDS
from duel.app.control.xgame import XGameControl
from duel.app.control.xsaves import key_file, read_save
from duel.app.line.xplay import run_xgame
from duel.expansions.record import XRecord, XRecordError, load_in_progress, public_texts

pytestmark = pytest.mark.expansions


@pytest.fixture
def unwritable_data(tmp_path, monkeypatch) -> Path:
    """A data folder that cannot be made (``$XDG_DATA_HOME`` is a file: even root cannot write
    there) and a home folder of the test's own."""
    blocker = tmp_path / "data-is-a-file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


def _play(control: XGameControl, moves: int) -> None:
    while len(control.moves) < moves:
        player = control.advance()
        assert player is not None
        control.play(control.view(player).legal_moves()[0])


def test_with_the_data_folder_unwritable_the_record_is_saved_and_resumes(unwritable_data, tmp_path):
    said: list[str] = []
    path = tmp_path / "game.json"
    control = XGameControl(
        ("pantheon",), ("human", "random"), seed=5, record=path, notify=said.append
    )
    _play(control, 25)
    assert control.saved_to == path and path.exists()
    # The key went to the first key folder that could take it: the home folder's.
    assert key_file(control.game).parent == unwritable_data / ".wonders-duel-keys"
    assert not any("Could not" in line for line in said)
    resumed = XGameControl.resume(path, notify=lambda _: None)
    assert resumed.state == control.state


def test_without_record_and_data_folder_the_game_goes_home_and_says_so(unwritable_data):
    said: list[str] = []
    answers = iter(["1"] * 6 + ["quit"])
    code = run_xgame(
        ("agora",), ("human", "random"), seed=3, read=lambda _: next(answers), write=said.append
    )
    assert code == 1
    saves = list(unwritable_data.glob("duel-xgame-*.json"))
    assert len(saves) == 1
    assert any(f"Game saved to {saves[0]} instead" in line for line in said)
    assert f"Continue it with: duel play --load {saves[0]}" in said[-1]


def test_when_no_key_folder_takes_the_key_the_save_is_still_written(tmp_path, monkeypatch):
    for module in (xgame, xsaves):
        monkeypatch.setattr(module, "key_folders", lambda: [tmp_path / "nowhere" / "keys"])
    (tmp_path / "nowhere").write_text("a file, not a folder")
    said: list[str] = []
    path = tmp_path / "game.json"
    control = XGameControl(
        ("pantheon",), ("human", "random"), seed=2, record=path, notify=said.append
    )
    _play(control, 10)
    assert path.exists() and control.saved_to == path
    assert sum("Could not keep the key" in line for line in said) == 1  # said once
    # Still sealed: the save shows no private move.
    hidden = [str(m) for m in control.moves if str(m) not in control.public_moves]
    assert all(text not in path.read_text() for text in hidden)


REAL_SAVE = xgame.save_in_progress


class FillingDisk:
    """``save_in_progress`` as on a disk that fills after ``room`` saves (ENOSPC), for the
    places in ``full`` (every place if None)."""

    def __init__(self, room: int, full: set[Path] | None = None) -> None:
        self.room, self.full, self.saves = room, full, 0
        self.real = REAL_SAVE

    def __call__(self, place, *args) -> None:
        self.saves += 1
        if self.saves > self.room and (self.full is None or Path(place) in self.full):
            raise OSError(errno.ENOSPC, "No space left on device")
        self.real(place, *args)


def test_failed_saves_name_the_last_good_one_and_the_moves_lost(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "no-temp"))
    disk = FillingDisk(room=12)
    monkeypatch.setattr(xgame, "save_in_progress", disk)
    said: list[str] = []
    path = tmp_path / "game.json"
    control = XGameControl(
        ("pantheon",), ("human", "random"), seed=4, record=path, notify=said.append
    )
    _play(control, 20)
    assert control.saved_to == path and control.saved_moves == 12
    lost = len(control.moves) - 12
    failures = [line for line in said if line.startswith("Could not save move")]
    assert len(failures) == lost  # one line a move, not one a place
    assert f"the last save, {path}, stops at move 12" in failures[-1]
    text = control.saved_text()
    assert "Game saved to" not in text
    assert f"The last {lost} moves could not be saved: the last save, {path}, stops" in text
    assert len(json.loads(path.read_text())["moves"]) == 12


def test_a_later_save_tries_the_fallbacks_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = tmp_path / "game.json"
    disk = FillingDisk(room=5, full={path})
    monkeypatch.setattr(xgame, "save_in_progress", disk)
    said: list[str] = []
    control = XGameControl(
        ("pantheon",), ("human", "random"), seed=4, record=path, notify=said.append
    )
    _play(control, 15)
    fallback = tmp_path / "data" / "wonders-duel" / f"duel-xgame-{control.game[:8]}.json"
    assert control.saved_to == fallback and control.saved_moves == len(control.moves)
    assert sum("instead" in line for line in said) == 1  # said once, when the place changed
    assert "Game saved to" in control.saved_text() and str(fallback) in control.saved_text()
    assert XGameControl.resume(fallback, notify=lambda _: None).state == control.state


def test_nothing_saved_is_never_called_saved(tmp_path, monkeypatch):
    monkeypatch.setattr(xgame, "save_in_progress", FillingDisk(room=0))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    said: list[str] = []
    control = XGameControl(("agora",), ("human", "random"), seed=1, notify=said.append)
    _play(control, 5)
    assert control.saved_to is None
    assert "nothing is saved yet" in said[-1]
    assert control.saved_text() == "Game left unfinished: it could not be saved anywhere."


# --- time budgets (item 8) -----------------------------------------------------------------------
@pytest.mark.parametrize("value", [math.nan, math.inf, 1e308, -1.0, 0.0, MAX_SECONDS * 2])
def test_a_time_option_out_of_range_says_the_range(value, capsys):
    with pytest.raises(typer.Exit):
        check_finite("--think", value, positive=True)
    err = capsys.readouterr().err
    assert "--think" in err and "86,400" in err


def test_the_time_bounds_agree():
    from duel.solvers.players import MAX_SECONDS as LEVEL_MAX

    assert LEVEL_MAX == MAX_SECONDS


def test_huge_level_budgets_are_refused_and_the_arena_never_overflows():
    from duel.solvers.cmcts_player import tree_memory
    from duel.solvers.players import UnknownLevelError, parse_level

    for level in ("cmcts:1e308s", "cmcts:1e305s", "mcts:infs", "search:nans", "cmcts:100000s"):
        with pytest.raises(UnknownLevelError, match="at most 86,400"):
            parse_level(level)
    assert tree_memory(1e308, None) == tree_memory(MAX_SECONDS, None)
    assert not xgame._is_level("mcts:1e308s") and not xgame._is_level("mcts:100000s")
    assert xgame._is_level("mcts:86400s") and xgame._is_level("mcts:500")
    out: list[str] = []
    assert run_xgame(("pantheon",), ("human", "mcts:1e308s"), write=out.append) == 2
    assert "at most 86,400 seconds" in out[0]


def test_a_saves_think_out_of_range_is_not_used(tmp_path):
    control = XGameControl(
        ("pantheon",), ("human", "random"), seed=1, record=tmp_path / "g.json", think=1e308
    )
    control.notify = lambda _: None
    _play(control, 6)
    assert XGameControl.resume(tmp_path / "g.json", notify=lambda _: None).think == 1.0


@pytest.mark.parametrize("seconds", [math.nan, -1.0, 0.0, 1e308])
def test_hint_on_an_expansion_file_bounds_its_time(tmp_path, seconds, capsys):
    control = XGameControl(
        ("pantheon",), ("human", "random"), seed=6, record=tmp_path / "g.json",
        notify=lambda _: None,
    )  # fmt: skip
    _play(control, 8)
    control.advance()
    with pytest.raises(typer.Exit) as stop:
        hint_record(tmp_path / "g.json", seconds, 2, 0, True)
    assert stop.value.exit_code == 2
    assert "86,400" in capsys.readouterr().err


def test_hint_on_an_expansion_file_honours_nodes(tmp_path, capsys):
    control = XGameControl(
        ("pantheon",), ("human", "random"), seed=6, record=tmp_path / "g.json",
        notify=lambda _: None,
    )  # fmt: skip
    _play(control, 8)
    control.advance()
    assert hint_record(tmp_path / "g.json", None, 2, 0, True, nodes=40) == 0
    assert json.loads(capsys.readouterr().out)["iterations"] == 40
    with pytest.raises(typer.Exit):
        hint_record(tmp_path / "g.json", None, 2, 0, True, nodes=0)


# --- small items (item 9) ------------------------------------------------------------------------
def _save(tmp_path: Path, moves: int = 20) -> tuple[XGameControl, Path]:
    path = tmp_path / "save.json"
    control = XGameControl(
        ("pantheon",), ("human", "random"), seed=6, record=path, notify=lambda _: None
    )
    _play(control, moves)
    return control, path


@pytest.mark.parametrize("tag", ["é" * 64, "Ω", "٣" * 64, "g" * 64, ""])
def test_a_non_ascii_or_malformed_tag_is_refused_cleanly(tmp_path, tag):
    _, path = _save(tmp_path)
    data = json.loads(path.read_text())
    data["sealed"]["tag"] = tag
    path.write_text(json.dumps(data))
    with pytest.raises(XRecordError, match="tag: expected 64 hex digits"):
        read_save(path)


def test_duplicate_expansions_are_refused(tmp_path):
    record = {"format": "7wd-record", "version": 2, "expansions": ["agora", "pantheon", "agora"]}
    with pytest.raises(XRecordError, match="'agora' is listed twice"):
        XRecord.from_json({**record, "moves": []})
    _, path = _save(tmp_path)
    data = json.loads(path.read_text())
    data["expansions"] = ["pantheon", "pantheon"]
    path.write_text(json.dumps(data))
    with pytest.raises(XRecordError, match="listed twice"):
        read_save(path)


def test_the_save_keeps_only_the_great_librarys_chosen_token():
    assert public_texts(["draw Law, Economy, Urbanism", "token Law"]) == [
        "draw Law, ?, ?",
        "token Law",
    ]
    assert public_texts(["draw Law, Economy, Urbanism"]) == ["draw ?, ?, ?"]


def test_a_saved_game_with_a_library_draw_hides_the_tokens_not_chosen(tmp_path):
    import random

    from duel.expansions import XMove

    for seed in range(40):
        path = tmp_path / f"g{seed}.json"
        control = XGameControl(
            ("pantheon",), ("random", "random"), seed=seed, record=path, notify=lambda _: None
        )
        rng = random.Random(seed)
        while not control.state.is_terminal():
            state = control.state
            move = (
                state.sample_chance(control.dealer)
                if state.is_chance()
                else (state.view(state.to_move).random_move(rng))
            )
            control.play(move)
            if move.kind == "token" and control.moves[-2].kind == "library_draw":
                break
        else:
            continue
        draw: XMove = control.moves[-2]
        data = json.loads(path.read_text())
        chosen = str(control.moves[-1]).removeprefix("token ")
        assert data["moves"][-2] == f"draw {chosen}, ?, ?"
        others = [str(XMove("token", (t,))).removeprefix("token ") for t in draw.args[0]]
        for name in others:
            if name != chosen:
                assert name not in json.dumps(data["moves"])
        key = bytes.fromhex(key_file(control.game).read_text().strip())
        assert load_in_progress(data, key).moves == tuple(control.moves)
        return
    pytest.fail("no game of 40 built The Great Library")


def test_ctrl_c_while_the_ai_thinks_in_the_line_mode_says_where_the_game_is(tmp_path):
    path = tmp_path / "g.json"
    out: list[str] = []
    answers = iter(["1"] * 4)

    class Interrupting:
        def __init__(self) -> None:
            self.moves = 0

        def choose(self, state):
            self.moves += 1
            if self.moves == 3:
                raise KeyboardInterrupt
            return state.view(state.to_move).legal_moves()[0]

    real_init = XGameControl.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        self.players = (None, Interrupting())

    import unittest.mock

    with unittest.mock.patch.object(XGameControl, "__init__", init):
        code = run_xgame(
            ("pantheon",), ("human", "random"), seed=1, record=path,
            read=lambda _: next(answers), write=out.append,
        )  # fmt: skip
    assert code == 130
    assert f"Game saved to {path}. Continue it with: duel play --load {path}" in out[-1]


@pytest.mark.terminal
def test_ctrl_c_in_the_expansion_full_screen_saves_and_says_so(tmp_path, monkeypatch):
    import asyncio

    from duel.app.screen.xapp import XApp

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = tmp_path / "g.json"
    control = XGameControl(("pantheon",), ("human", "random"), seed=3, record=path)
    # A full disk at first (every place): then Ctrl-C tries once more, and the save works.
    monkeypatch.setattr(xgame, "save_in_progress", FillingDisk(room=0))

    async def settle(app, pilot) -> None:
        for _ in range(100):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if not app.busy and app.player == 0:
                return

    async def scenario() -> int | None:
        app = XApp(control)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("1", "enter")
            await settle(app, pilot)
            assert control.moves and control.saved_to is None
            monkeypatch.setattr(xgame, "save_in_progress", FillingDisk(room=99))
            await pilot.press("ctrl+c")
            await pilot.pause()
        return app.return_value

    assert asyncio.run(scenario()) == 130
    assert control.saved_to == path and control.saved_moves == len(control.moves)
    assert control.saved_text().startswith(f"Game saved to {path}. Continue it with")


# --- duel match on a Ray cluster that fails (issue 60, item 9) -----------------------------------
class _FakeRay:
    """A Ray whose start-up fails (as with a killed dashboard), or whose cluster dies after
    the start: the batch layer must answer with one line, never Ray's traceback."""

    class exceptions:  # noqa: N801 - Ray's own name
        RayError = RuntimeError

    def __init__(self, fail_at: str) -> None:
        self.fail_at = fail_at
        self.shut = False

    def is_initialized(self) -> bool:
        return False

    def init(self, **_) -> None:
        if self.fail_at == "init":
            raise OSError("Failed to connect to GCS at 127.0.0.1:6379\n(many lines of logs)")

    def remote(self, **_):
        return lambda fn: fn

    def put(self, value):
        if self.fail_at == "put":
            raise TimeoutError("the dashboard agent died\n(logs)")
        return value

    def shutdown(self) -> None:
        self.shut = True


@pytest.mark.parametrize(("fail_at", "words"), [("init", "cannot start or reach Ray"),
                                                 ("put", "Ray stopped answering")])  # fmt: skip
def test_a_ray_that_fails_is_one_line(monkeypatch, fail_at, words):
    import sys

    from duel.solvers.batch import BatchError, run_jobs

    fake = _FakeRay(fail_at)
    monkeypatch.setitem(sys.modules, "ray", fake)
    with pytest.raises(BatchError) as error:
        list(run_jobs(abs, [1, 2, 3], ray="", progress=False))
    assert words in str(error.value) and "\n" not in str(error.value)
    assert fake.shut == (fail_at == "put")
