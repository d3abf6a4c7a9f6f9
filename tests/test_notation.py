"""Move notation: every move prints and parses back; parse errors explain themselves."""

import pytest

from duel import Move, MoveParseError
from duel.moves import MOVES


def test_every_move_round_trips_through_its_notation():
    for move in MOVES.values():
        assert Move.parse(str(move)) == move


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("build lumber yard", "build Lumber Yard"),
        ("  BUILD   Lumber   Yard ", "build Lumber Yard"),
        ("discard Glassblower", "discard Glass-Blower"),
        ("wonder pyramids with tavern", "wonder The Pyramids with Tavern"),
        ("wonder Great Lib using Baths", "wonder The Great Library with Baths"),
        ("token law", "token Law"),
        ("destroy glassworks", "destroy Glassworks"),
        ("mausoleum baths", "mausoleum Baths"),
        ("start b", "start B"),
        ("reveal slot 9 Baths", "reveal slot 9 Baths"),
        ("reveal wonder sphinx", "reveal wonder The Sphinx"),
        ("reveal token economy", "reveal token Economy"),
        ("draw Law, Economy and Theology", "draw Economy, Law, Theology"),
        ("pick the sphinx", "pick The Sphinx"),
        ("guilds at slots 15 2 7", "guilds at slots 2 7 15"),
        ("Guilds 2, 7, 15", "guilds at slots 2 7 15"),
    ],
)
def test_forgiving_parsing(text, expected):
    assert str(Move.parse(text)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move"),
        ("fly Baths", "unknown move 'fly'"),
        ("build", "missing card"),
        ("build Bath house", "no card named 'Bath house'"),
        ("build Pal", "did you mean Palisade, Palace"),
        ("wonder Pyramids", "expected 'wonder <wonder> with <card>'"),
        ("reveal slot 25 Baths", "slot 25 does not exist"),
        ("draw Law, Law, Economy", "exactly 3 different tokens"),
        ("start C", "expected player A or B"),
        ("guilds at slots 2 7", "exactly 3 different slots"),
        ("guilds at slots 2 2 7", "exactly 3 different slots"),
        ("guilds at slots 2 7 20", "slot 20 does not exist"),
        ("guilds at row 2", "expected three slot numbers"),
    ],
)
def test_parse_errors_say_what_is_wrong(text, message):
    with pytest.raises(MoveParseError, match=message):
        Move.parse(text)
