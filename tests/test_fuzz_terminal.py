"""Junk typed on a real terminal, and keys thrown at the full-screen app, then a signal: the
game is never lost (issue 23: the input fuzz tests beyond pipes).

* ``duel play --line`` and ``--plain`` in a pseudo-terminal: random bytes (escape sequences,
  control characters, bytes that are not UTF-8, the ones that crashed readline), then SIGTERM;
* the full-screen app through Textual's Pilot: random keys, then the signal handler;
* ``wonders play`` in a pseudo-terminal: random bytes at its prompts, then the end of input.

Each case is seeded: a failure names the seed that reproduces it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
import time
from pathlib import Path

import pexpect
import pytest

from duel.app.control.game import Dealer, GameController
from duel.app.screen.app import DuelApp
from duel.record import GameRecord
from tests.test_tui import PROMPT, ROOT
from wonders.record import GameRecord as BaseRecord

# Terminal tests drive the programs, not the engine: CI runs them on the compiled path only.
pytestmark = pytest.mark.terminal

#: What a cat, a fuzzer or a confused terminal sends: keys with escape sequences, control
#: characters (not the ones the terminal turns into signals or end of input: Ctrl-C, Ctrl-D,
#: Ctrl-Z, Ctrl-\), bytes that are not UTF-8, and text that is no move.
JUNK = [
    b"\x7f", b"\t", b"\x08", b"\x1b", b"\x9b", b"\xff", b"\xc3", b"\x1b[A", b"\x1b[B",
    b"\x1b[C", b"\x1b[D", b"\x1b[2J", b"\x1bOP", b"\x1b[200~", b"\x1b[201~", b"\x1b[6n",
    b"\x01", b"\x05", b"\x0b", b"\x15", b"\x17", b"\x12", b"\x0e", b"\x10", b"\x00",
    b"7", b"0", b"99", b"x", b"z", b" ", b"\xc2\xb2", b"\xd9\xa3", b"w1", b"cost", b"info",
    b"build", b"discard", b"wonder", b"token", b"moves", b"\r", b"\r", b"\r", b"\r",
]  # fmt: skip
#: The readline crash of the issue, sent in every session.
CRASH = b"\x7f\t\x08\t\x7f\x1b\x9b\x1b\r\x1b[2J\r"


def junk(rng: random.Random, count: int) -> list[bytes]:
    chunks = [b"".join(rng.choice(JUNK) for _ in range(rng.randint(1, 6))) for _ in range(count)]
    chunks.insert(rng.randrange(len(chunks) + 1), CRASH)
    return chunks


#: The module that defines each program's command (the entry points of pyproject.toml).
COMMAND_MODULES = {"duel": "duel.app.cli.main", "wonders": "wonders.app.cli"}


def spawn(tmp_path: Path, program: str, *args: str) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    env["XDG_DATA_HOME"] = str(tmp_path)
    return pexpect.spawn(
        sys.executable,
        ["-c", f"from {COMMAND_MODULES[program]} import main; main()", "play", *args],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        codec_errors="replace",  # the terminal echoes bytes that are not UTF-8
        timeout=20,
        dimensions=(60, 100),
    )


def type_junk(child: pexpect.spawn, chunks: list[bytes]) -> str:
    """Send each chunk as typed keys, reading what the program prints meanwhile."""
    seen = []
    for chunk in chunks:
        os.write(child.child_fd, chunk)
        time.sleep(0.02)
        with contextlib.suppress(pexpect.TIMEOUT):
            seen.append(child.read_nonblocking(100_000, timeout=0.05))
    time.sleep(0.3)
    with contextlib.suppress(pexpect.TIMEOUT):
        seen.append(child.read_nonblocking(100_000, timeout=0.3))
    return "".join(seen)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("mode", ["--line", "--plain"])
def test_junk_on_a_terminal_then_sigterm_keeps_the_duel(tmp_path, mode, seed):
    child = spawn(tmp_path, "duel", "--a", "human", "--b", "random", "--seed", str(seed), mode)
    child.expect(PROMPT)
    seen = type_junk(child, junk(random.Random(seed), 40))
    assert child.isalive(), (seed, seen[-2000:])
    child.kill(signal.SIGTERM)
    child.expect(pexpect.EOF)
    seen += child.before
    child.close()
    assert child.signalstatus is None and child.exitstatus == 143, (seed, seen[-2000:])
    assert "Traceback" not in seen and "Internal error" not in seen, (seed, seen[-2000:])
    saved = GameRecord.load(next((tmp_path / "wonders-duel").glob("duel-autosave-*.json")))
    assert saved.moves  # the deal at least, and whatever the junk played


@pytest.mark.parametrize("seed", [1, 2])
def test_junk_at_the_base_game_prompts_then_end_of_input_keeps_the_game(tmp_path, seed):
    child = spawn(tmp_path, "wonders", "--players", "3", "--seed", str(seed))
    child.expect("P0> ")
    child.sendline("1")  # a move, so that there is a game to keep
    child.expect("P0> ")
    seen = type_junk(child, junk(random.Random(seed), 40))
    assert child.isalive(), (seed, seen[-2000:])
    child.send("\x15\x04")  # Ctrl-U empties the line, Ctrl-D ends the input
    child.expect(pexpect.EOF)
    seen += child.before
    child.close()
    assert child.exitstatus == 0, (seed, child.exitstatus, child.signalstatus, seen[-2000:])
    assert "Traceback" not in seen, (seed, seen[-2000:])
    assert "Game saved to" in seen
    assert BaseRecord.load(tmp_path / "wonders-duel" / "wonders-autosave.json").moves


# --- the full-screen app ---------------------------------------------------------------------
KEYS = [
    *"123456789", "h", "c", "s", "l", "u", "q", "x", "escape", "enter", "tab", "shift+tab",
    "up", "down", "left", "right", "backspace", "space", "ctrl+c", "n", "y", "b", "d",
]  # fmt: skip


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_keys_in_the_app_then_a_signal_keep_the_game(tmp_path, monkeypatch, seed):
    monkeypatch.chdir(tmp_path)  # a save dialog answered with Enter writes duel-game.json here
    rng = random.Random(seed)
    # Odd seeds may quit (the keys then chose to leave); even ones never press a quitting key,
    # so that the signal comes after every kind of dialog.
    choices = KEYS if seed % 2 else [k for k in KEYS if k not in ("q", "ctrl+c")]
    keys = [rng.choice(choices) for _ in range(60)]

    game = GameController(
        ["human", "random"],
        Dealer(seed=seed),
        think=0.05,
        autosave_path=tmp_path / "duel-autosave.json",
    )
    game.set_players()

    async def scenario() -> DuelApp:
        app = DuelApp(game, think=0.05, hint_nodes=100, chance_nodes=0)
        async with app.run_test(size=(150, 50)) as pilot:
            for key in keys:
                if app.left or app.return_value is not None:
                    break  # the keys chose to quit: that is the player's choice
                await pilot.press(key)
                await pilot.pause()
            if app.return_value is None:
                await app.workers.wait_for_complete()
                unsaved.append(game.dirty and bool(game.moves))
                app.signalled(signal.SIGTERM)
                await pilot.pause()
        return app

    unsaved: list[bool] = []
    app = asyncio.run(scenario())
    game = app.game
    if app.left:
        assert app.return_value == 0
        return
    assert app.return_value == 143, (seed, keys)
    autosave = tmp_path / "duel-autosave.json"
    assert autosave.exists() == unsaved[0], (seed, keys)
    if unsaved[0]:
        saved = GameRecord.load(autosave)
        assert saved.final_state() == game.state or saved.moves == tuple(game.moves[:-1]), keys


@pytest.mark.parametrize(
    ("seed", "expansions"), [(1, "pantheon"), (2, "agora"), (3, "pantheon,agora")]
)
def test_junk_at_the_expansion_line_mode_then_sigterm_keeps_the_game(
    tmp_path, monkeypatch, seed, expansions
):
    """The expansion games' line mode (issue 60): junk typed on a real terminal, the texts that
    crashed it ("no foo", "²", "٣"), then SIGTERM: no traceback, the game saved and resumable."""
    from duel.app.control.xsaves import read_save

    child = spawn(tmp_path, "duel", "--expansions", expansions, "--line", "--a", "human",
                  "--b", "random", "--seed", str(seed))  # fmt: skip
    child.expect(r"Move \(number")
    rng = random.Random(seed)
    chunks = junk(rng, 30)
    for trap in (b"no\r", b"no foo\r", b"\xc2\xb2\r", b"\xd9\xa3\r", b"seat zeus on \xd9\xa3\r"):
        chunks.insert(rng.randrange(len(chunks) + 1), trap)
    chunks += [b"1\r", b"1\r"]
    seen = type_junk(child, chunks)
    assert child.isalive(), (seed, seen[-2000:])
    child.kill(signal.SIGTERM)
    child.expect(pexpect.EOF)
    seen += child.before
    child.close()
    assert child.signalstatus is None and child.exitstatus == 143, (seed, seen[-2000:])
    assert "Traceback" not in seen, (seed, seen[-2000:])
    assert "Continue it with: duel play --load" in seen
    (save,) = (tmp_path / "wonders-duel").glob("duel-xgame-*.json")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # where the child kept the key
    record, key = read_save(save)
    assert key is not None and record.moves
