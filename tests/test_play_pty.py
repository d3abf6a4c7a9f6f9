"""``duel play`` in a pseudo-terminal: what issue 14 asked a player to notice.

Card numbers typed on an older board, what undo took back, the history from the start with gross
coins, the in-game hint (values as ``duel hint`` says them, the line's markers, the figures only
with ``hint -v``), and the AI levels with a budget (``search:300``).
"""

from __future__ import annotations

import re

import pexpect
import pytest

from tests.test_tui import PROMPT, spawn

# Terminal tests drive the programs, not the engine: CI runs them on the compiled path only.
pytestmark = pytest.mark.terminal

CARDS_SHOWN = "Cards you can take"


def to_the_first_card(child: pexpect.spawn) -> None:
    """Answer every decision with its first choice until a player is to take a card."""
    while True:
        child.expect(PROMPT)
        if CARDS_SHOWN in child.before:
            return
        child.sendline("1")


def test_a_number_typed_ahead_on_the_older_board_is_not_taken_as_the_new_one(tmp_path):
    """Two lines typed at once: the second was read off A's board, but B's board numbers the
    cards anew, so card 1 is now another card: B is told, and types it again."""
    child = spawn(tmp_path, "--a", "human", "--b", "human", "--seed", "3", "--plain")
    to_the_first_card(child)
    child.send("build 1\rbuild 1\r")  # the second line waits while A's move is played
    child.expect(r"A: build (.+?) \(")
    built = child.match.group(1)
    child.expect(
        r"The board changed since it was shown: 1 is now (.+?) \(it was (.+?), which is no "
        r"longer there\)\. Type it again, or use the card's name\."
    )
    now, was = child.match.group(1), child.match.group(2)
    assert was == built and now != built
    child.expect(PROMPT)
    child.sendline("build 1")  # typed on the board on screen: it is taken as shown
    child.expect_exact(f"B: build {now}")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect_exact(f"Took back: B build {now}")
    child.expect(PROMPT)
    child.sendline("history")
    child.expect(r"Setup\s+1-5\. Progress tokens on the board: ")
    child.expect(r"Wonder draft\s+")
    child.expect(r"Age I\s+\d+-\d+\. Age I is dealt; face up: ")
    child.expect(rf"\d+\. A: build {re.escape(built)}")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_hint_in_play_says_values_as_duel_hint_and_hides_the_figures(tmp_path):
    child = spawn(
        tmp_path, "--a", "human", "--b", "human", "--seed", "3", "--think", "0.4", "--plain"
    )
    to_the_first_card(child)
    child.sendline("hint")
    child.expect("A's chance of winning after each move:")
    child.expect(PROMPT)
    said = child.before
    values = re.findall(r"(?m)^\s+\d\. .+?: (\d+\.\d%.*)$", said)
    # the MCTS hint engine's range over searches, or the search's over samplings (pure path)
    assert values and all(
        re.fullmatch(r"\S+ (exact|\(range .+ (samplings|searches)\)|estimate.*)\s*", v)
        for v in values
    ), said
    lines = re.findall(r"(?m)^\s+then (.+)$", said)
    assert lines and all(re.match(r"[AB] ", line) for line in lines), said
    assert all("[chance:" not in line for line in lines)  # the line stops at chance
    assert "nodes" not in said and "depth" not in said and "positions" not in said
    child.sendline("hint -v")
    child.expect("A's chance of winning after each move:")
    child.expect(PROMPT)
    verbose = child.before
    assert re.search(r"depth \d+, [\d,]+ nodes in|[\d,]+ iterations in", verbose), verbose
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_ai_levels_with_a_budget_play_in_the_line_mode(tmp_path):
    child = spawn(tmp_path, "--a", "human", "--b", "search:300", "--seed", "2", "--plain")
    child.expect(r"A \(human\) against B \(search:300\)")
    child.expect(PROMPT)
    child.sendline("1")  # A's first pick of the draft: B answers with two
    child.expect_exact("B (search:300) is thinking")
    child.expect(r"B: pick ")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("n")
    child.expect(pexpect.EOF)
