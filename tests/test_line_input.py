"""Typed lines on a terminal never go through GNU readline (issue 23, item 1).

readline 8.2 with Python 3.11 dies with SIGSEGV on the bytes below, and a segmentation fault
leaves no chance to save the game: ``duel play`` reads with prompt_toolkit (``--line``) or
the terminal's own line discipline (``--plain``), and never loads the ``readline`` module.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pexpect
import pytest

from duel.app.line.input import _completer, clean_line
from tests.test_tui import PROMPT, ROOT

# Terminal tests drive the programs, not the engine: CI runs them on the compiled path only.
pytestmark = pytest.mark.terminal

#: The keys that crashed readline in the issue: Backspace, Tab, Ctrl-H, Tab, Backspace, Esc,
#: a lone 8-bit CSI byte (not UTF-8), Esc, Enter; then "clear the screen" and Enter.
CRASH = (b"\x7f\t\x08\t\x7f\x1b\x9b\x1b\r", b"\x1b[2J\r")
#: Run by the child at exit: whether anything loaded the readline module on the way.
WATCH = (
    "import atexit, sys; atexit.register(lambda: print("
    "'READLINE ' + ('LOADED' if 'readline' in sys.modules else 'ABSENT'))); "
    "from duel.app.cli.main import main; main()"
)


def spawn_watched(tmp_path: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    env["XDG_DATA_HOME"] = str(tmp_path)
    return pexpect.spawn(
        sys.executable,
        ["-c", WATCH, "play", *args],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        codec_errors="replace",  # the terminal echoes the stray byte back
        timeout=20,
        dimensions=(60, 100),
    )


@pytest.mark.parametrize("mode", ["--line", "--plain"])
def test_the_bytes_that_crashed_readline_are_just_bad_input(tmp_path, mode):
    child = spawn_watched(tmp_path, "--a", "human", "--b", "human", "--seed", "1", mode)
    child.expect(PROMPT)
    for chunk in CRASH:
        os.write(child.child_fd, chunk)  # raw bytes: \x9b is not UTF-8
        time.sleep(0.2)
        child.expect(PROMPT)  # the line was refused and asked for again
    child.sendline("1")  # the game goes on
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("n")
    child.expect("READLINE (LOADED|ABSENT)")
    said = child.match.group(1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.signalstatus is None and child.exitstatus == 0, child.signalstatus
    assert said == "ABSENT"
    assert "Traceback" not in child.before


def test_the_line_editor_keeps_history_and_completes_names(tmp_path):
    child = spawn_watched(tmp_path, "--a", "human", "--b", "human", "--seed", "1", "--line")
    child.expect(PROMPT)
    child.sendline("info sph")
    child.expect("The Sphinx: ")
    child.expect(PROMPT)
    child.send("\x1b[A\r")  # up arrow: the line before, again
    child.expect("The Sphinx: ")
    child.expect(PROMPT)
    child.send("info colos\t\r")  # Tab completes the name
    child.expect("The Colossus: ")
    child.expect(PROMPT)
    child.send("\x04")  # Ctrl-D on an empty line: end of input, the game saved
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def completions(text: str) -> list[str]:
    from prompt_toolkit.document import Document

    words = ["build", "Baths", "Lumber Yard", "The Sphinx", "The Colossus"]
    return [c.text for c in _completer(lambda: words).get_completions(Document(text), None)]


def test_completion_of_commands_and_names():
    assert completions("bu") == ["build"]
    assert completions("build lum") == ["Lumber Yard"]
    assert completions("wonder sph") == ["The Sphinx"]
    assert completions("wonder sphinx with ba") == ["Baths"]
    assert completions("info the col") == ["The Colossus"]
    assert completions("zzz") == []


def test_lines_lose_what_no_one_types():
    assert clean_line("\udc9b[2J") == "[2J"
    assert clean_line("build\x00 3\x7f") == "build 3"
