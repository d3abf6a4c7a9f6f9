"""No input loses a game: arbitrary lines at every prompt of ``duel play`` and ``wonders play``,
signals through a pseudo-terminal, and saves that fail or target odd files."""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import sys
from pathlib import Path

import pexpect
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duel.app.control.game import Dealer
from duel.app.line.play import Output, Session
from duel.files import write_atomically
from duel.record import GameRecord
from tests.test_tui import prompt

ROOT = Path(__file__).resolve().parent.parent
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
#: Lines a person might type, a cheater might try, or a cat might walk over.
LINES = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "²",
            "⁴",
            "٣",
            "9" * 5000,
            "\0",
            "w²",
            "build ²",
            "wonder w⁴ with 1",
            "1",
            "2",
            "3",
            "b",
            "d",
            "w",
            "cancel",
            "undo",
            "history",
            "table",
            "moves",
            "tokens",
            "discards",
            "cost 1",
            "cost ²",
            "info x",
            "save \0",
            "save /dev/full",
            "load \0",
            "load nothing",
            "save",
            "pick 1",
            "token ²",
            "start B",
            "help",
            "-1",
            "1e9",
            " ",
            "\x1b[A",
        ]
    ),
)


def make_session(tmp_path: Path, lines: list[str], seed: int | None, kinds=("human", "human")):
    queue = list(lines)

    def read(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    session = Session(
        kinds=list(kinds),
        dealer=Dealer(seed=seed),
        delay=0.0,
        think=0.2,
        out=Output(plain=True),
        interactive=False,
        read=read,
        autosave_path=tmp_path / "duel-autosave.json",
    )
    session.game.set_players()
    return session


@FUZZ
@given(st.lists(LINES, max_size=40), st.integers(0, 3), st.sampled_from([None, 7]))
def test_any_line_at_any_prompt_keeps_the_duel(tmp_path, monkeypatch, capsys, lines, n, seed):
    monkeypatch.chdir(tmp_path)
    autosave = tmp_path / "duel-autosave.json"
    autosave.unlink(missing_ok=True)
    lines = ["1"] * n + lines  # get past the draft sometimes
    session = make_session(tmp_path, lines, seed, kinds=("human", "random"))
    code = session.run()
    out = capsys.readouterr().out
    assert "Traceback" not in out and "Internal error" not in out, out[-2000:]
    assert code == 0
    if session.game.moves and session.game.dirty is False and autosave.exists():
        saved = GameRecord.load(autosave)
        assert saved.final_state() == session.game.state or saved.moves == tuple(
            session.game.moves[: len(saved.moves)]
        )


def test_an_internal_error_is_reported_saved_and_the_game_goes_on(tmp_path, capsys):
    session = make_session(tmp_path, ["1", "moves", "1"], seed=3)
    calls = []
    original = session.command

    def broken(text, **kw):
        if text == "moves" and not calls:
            calls.append(1)
            raise ZeroDivisionError("a bug")
        return original(text, **kw)

    session.command = broken
    assert session.run() == 0
    out = capsys.readouterr().out
    assert "Internal error (ZeroDivisionError: a bug). The game is kept." in out
    assert GameRecord.load(tmp_path / "duel-autosave.json").moves == tuple(session.game.moves)
    assert len([m for m in session.game.moves if not m.is_chance]) == 2  # play went on


def test_an_error_that_keeps_coming_back_ends_with_the_game_saved(tmp_path, capsys):
    session = make_session(tmp_path, [], seed=3, kinds=("random", "random"))
    session.game.push(session.game.dealer.deal(session.game.state, 0))

    def broken(player):
        raise RuntimeError("always")

    session.ai_move = broken
    session.deal_chance()
    assert session.run() == 1
    assert (tmp_path / "duel-autosave.json").exists()


def test_end_of_input_autosave_falls_back_and_fails_non_zero(tmp_path, monkeypatch, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    session = make_session(tmp_path, ["1"], seed=3)
    session.game.autosave_path = locked / "nothere" / "duel-autosave.json"
    (locked / "nothere").write_text("a file where a folder should be")
    assert session.run() == 0
    assert (tmp_path / "data" / "wonders-duel" / "duel-autosave.json").exists()

    import duel.app.line.play as tui

    monkeypatch.setattr(tui, "autosave_places", lambda first: [locked / "nothere" / "x.json"])
    session = make_session(tmp_path, ["1"], seed=3)
    assert session.run() == 1
    assert "could not be saved anywhere" in capsys.readouterr().out


def test_after_load_the_autosave_does_not_overwrite_the_loaded_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = make_session(tmp_path, ["1", "save r.json"], seed=3)
    first.run()
    before = (tmp_path / "r.json").read_text()
    second = make_session(tmp_path, ["load r.json", "1"], seed=3)
    second.run()
    assert (tmp_path / "r.json").read_text() == before
    assert len(GameRecord.load(tmp_path / "duel-autosave.json").moves) > len(
        GameRecord.load(tmp_path / "r.json").moves
    )


# --- wonders play ----------------------------------------------------------------------------
@FUZZ
@given(st.lists(LINES, max_size=40), st.integers(0, 1000))
def test_any_line_at_any_prompt_keeps_the_base_game(capsys, tmp_path, monkeypatch, lines, seed):
    from wonders.app.cli import Quit, Session, play_to_the_end
    from wonders.bots import make_bot
    from wonders.record import GameRecord

    monkeypatch.chdir(tmp_path)  # a bare 'save' writes wonders-game.json here
    session = Session(GameRecord(3, seed), humans=1)
    queue = list(lines)
    seen = []

    def read(prompt: str) -> str:
        if not queue:
            raise EOFError
        seen.append(prompt)
        return queue.pop(0)

    bots = [make_bot("random", seed + p) for p in range(3)]
    with pytest.raises(Quit):  # input ends: the only way out, and it is the player's
        play_to_the_end(session, bots, 1, read)
    assert "Traceback" not in capsys.readouterr().out


# --- saving ------------------------------------------------------------------------------------
def test_save_refuses_symlinks_and_devices_and_keeps_the_mode(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    target.chmod(0o640)
    write_atomically(target, "new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o640
    link = tmp_path / "link.json"
    link.symlink_to(target)
    with pytest.raises(OSError, match="symbolic link"):
        write_atomically(link, "x")
    assert link.is_symlink() and target.read_text() == "new"
    with pytest.raises(OSError):
        write_atomically(Path("/dev/null"), "x")
    with pytest.raises(ValueError, match="NUL"):
        write_atomically(tmp_path / "a\0b", "x")


def test_save_removes_stale_temporaries_of_its_own_naming(tmp_path):
    stale = tmp_path / ".g.json.abcd1234.tmp"
    fresh = tmp_path / ".g.json.zzzz9999.tmp"
    other = tmp_path / ".g.json.notours.tmp"
    for f in (stale, fresh, other):
        f.write_text("partial")
    os.utime(stale, (1, 1))
    os.utime(other, (1, 1))
    write_atomically(tmp_path / "g.json", "{}")
    assert not stale.exists() and fresh.exists() and other.exists()


# --- through a pseudo-terminal ------------------------------------------------------------------
def line_mode(args: tuple[str, ...]) -> list[str]:
    """A pty is a terminal: ask for the line mode (drawn table) unless --plain is given, since
    the full-screen app opens there otherwise (it is tested with Pilot in test_app.py)."""
    return [*args] if "--plain" in args or "--line" in args else [*args, "--line"]


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "COLUMNS": "100"}
    env["XDG_DATA_HOME"] = str(tmp_path)  # the autosave goes to the user data folder
    return pexpect.spawn(
        sys.executable,
        ["-c", "from duel.app.cli.main import main; main()", "play", *line_mode(args)],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 100),
    )


@pytest.mark.parametrize("mode", ["--plain", "--line"])
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGHUP, 129), (signal.SIGTERM, 143)])
def test_signals_autosave(tmp_path, signum, code, mode):
    child = spawn(tmp_path, "--a", "human", "--b", "random", mode)
    child.expect(prompt("A"))
    child.sendline("1")
    child.expect(prompt("A"))
    child.kill(signum)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == code, (child.exitstatus, child.signalstatus)
    record = GameRecord.load(next((tmp_path / "wonders-duel").glob("duel-autosave-*.json")))
    assert any(str(m).startswith("pick") for m in record.moves)
    assert record.metadata["fair"] is True and "seed" not in record.metadata


def test_unicode_digits_and_huge_numbers_in_the_full_screen_table(tmp_path):
    child = spawn(tmp_path, "--a", "human", "--b", "random", "--seed", "2")
    child.expect(prompt("A"))
    for line in ("²", "⁴", "9" * 5000, "cost ²", "build ⁴"):  # a pty drops NUL bytes
        child.sendline(line)
        child.expect(prompt("A"))
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")


def test_random_typing_never_ends_in_a_traceback(tmp_path):
    rng = random.Random(1)
    alphabet = "0123456789²⁴٣ abcdwxyz\0"
    lines = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8))) for _ in range(60)]
    import subprocess

    result = subprocess.run(
        [sys.executable, "-c", "from duel.app.cli.main import main; main()", "play", "--plain"],
        input="\n".join(line.replace("\0", "") for line in lines) + "\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr


# --- input quoted back (issue 23, item 7) ------------------------------------------------------
#: No line of an answer is longer than this, whatever was typed.
READABLE = 400


def test_a_pasted_page_is_quoted_back_cut(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    page = "x" * 70_000
    lines = ["1", page, f"build {page}", f"info {page}", f"cost {page}", f"wonder {page} with 1",
             f"discard {page}", f"pick {page}", "1", "1", "1", page]  # fmt: skip
    session = make_session(tmp_path, lines, seed=3)
    session.run()
    out = capsys.readouterr().out
    assert "(70,000 characters)" in out
    assert max(len(line) for line in out.splitlines()) < READABLE


def test_a_megabyte_move_in_a_record_is_one_readable_line(tmp_path):
    from duel.record import RecordError

    record = {"format": "7wd-record", "version": 1, "moves": ["build " + "y" * 1_000_000]}
    path = tmp_path / "big.json"
    path.write_text(json.dumps(record))
    with pytest.raises(RecordError) as error:
        GameRecord.load(path)
    assert len(str(error.value)) < READABLE and "(1,000,006 characters)" in str(error.value)


def test_the_base_game_quotes_a_pasted_page_cut():
    from wonders.app.cli import parse_input
    from wonders.game import new_game

    state = new_game(3, 1)
    answer = parse_input(state, 0, "build " + "z" * 70_000)
    assert isinstance(answer, str) and len(answer) < READABLE


# --- a piped quit keeps the game (issue 23, item 5) ---------------------------------------------
def test_a_piped_quit_saves_the_game_and_says_where(tmp_path):
    import subprocess

    result = subprocess.run(
        [sys.executable, "-c", "from duel.app.cli.main import main; main()", "play", "--plain",
         "--seed", "4"],
        input="1\nquit\n", capture_output=True, text=True, cwd=tmp_path, timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path)},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    autosave = next((tmp_path / "wonders-duel").glob("duel-autosave-*.json"))
    assert "Left without saving" not in result.stdout
    assert f"Game saved to {autosave}" in result.stdout
    assert any(str(m).startswith("pick") for m in GameRecord.load(autosave).moves)


def test_quit_answered_no_leaves_without_saving(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    session = make_session(tmp_path, ["1", "quit", "n"], seed=3)
    session.interactive = True  # asked, as on a terminal
    assert session.run() == 0
    assert "Left without saving." in capsys.readouterr().out
    assert not (tmp_path / "duel-autosave.json").exists()


# --- save paths (issue 23, item 6) -------------------------------------------------------------
def test_save_creates_no_folder_expands_home_and_needs_a_name(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(home))
    missing = tmp_path / "missing" / "dir"
    lines = ["1", f"save {missing}/x.json", "save ~", 'save ""', "save ''", "save ~/g.json",
             'save "my game.json"']  # fmt: skip
    session = make_session(tmp_path, lines, seed=3)
    session.run()
    out = capsys.readouterr().out
    assert not (tmp_path / "missing").exists()
    assert f"the folder {missing} does not exist (a save creates no folder)" in out
    assert f"{home} is a folder" in out
    assert out.count("the file needs a name") == 2
    assert sorted(p.name for p in work.iterdir()) == ["my game.json"]  # no '~', no '""'
    assert GameRecord.load(home / "g.json").moves


def test_the_base_game_saves_the_same_way(tmp_path, monkeypatch, capsys):
    from wonders.app.cli import Command, Session, _run_command
    from wonders.record import GameRecord as BaseRecord

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(home))
    session = Session(BaseRecord(3, 1), humans=1)
    for argument in (f"{tmp_path}/missing/x.json", "~", '""', "~/w.json"):
        _run_command(session, Command("save", argument))
    out = capsys.readouterr().out
    assert not (tmp_path / "missing").exists() and "does not exist" in out
    assert "is a folder" in out and "needs a name" in out
    assert (home / "w.json").exists() and not (tmp_path / "~").exists()
