"""The eight points where the expansion engine played otherwise than the licensed Board Game
Arena implementation (issue 61; docs/agora.md and docs/pantheon.md, "Where sources disagree"),
each a known-answer test from a position that shows it."""

import pytest

from duel.expansions import XMove
from duel.expansions.agora import DECREES

pytestmark = pytest.mark.expansions


# --- 8. the Decree move's notation reads back ----------------------------------------------------
@pytest.mark.parametrize("name", [*DECREES, None])
def test_a_decree_move_reads_back(name):
    move = XMove("move_decree", (3, name, 6))
    assert XMove.parse(str(move)) == move


def test_the_decree_notation_is_the_one_documented():
    move = XMove("move_decree", (3, "Green waiver", 6))
    assert str(move) == "move decree Green waiver from 3 to 6"
    assert str(XMove("move_decree", (2, None, 4))) == "move face-down decree from 2 to 4"
    assert XMove.parse("move cube 2 to 3") == XMove("move_cube", (2, 3))
    assert XMove.parse("MOVE decree green WAIVER from 3 to 6").args == (3, "Green waiver", 6)
