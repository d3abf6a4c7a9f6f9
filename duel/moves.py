"""Moves of 7 Wonders Duel: small interned ints with a readable notation.

A move is an ``int`` (fast to generate, hash and store in tables) that prints as text and parses
back. Chance outcomes (a card revealed, a wonder or token dealt, The Great Library's draw) are
moves too, so a game record is just a list of moves.

>>> from duel.catalog import card_named
>>> m = Move.build(card_named("Lumber Yard").id)
>>> str(m), Move.parse("build lumber yard") == m
('build Lumber Yard', True)
>>> str(Move.parse("wonder Pyramids with Tavern"))
'wonder The Pyramids with Tavern'
>>> str(Move.parse("reveal slot 9 Baths"))
'reveal slot 9 Baths'
>>> m = Move.deal_guilds((15, 2, 7))
>>> str(m), m.guild_slots, Move.parse("guilds at slots 2 7 15") == m
('guilds at slots 2 7 15', (2, 7, 15), True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntEnum
from itertools import combinations

from duel.catalog import (
    CARDS,
    TOKENS,
    WONDERS,
    UnknownNameError,
    bits,
    card_named,
    token_named,
    wonder_named,
)
from duel.quote import quoted
from duel.reason import Reason, reason_of


class Kind(IntEnum):
    BUILD = 0
    DISCARD = 1
    WONDER = 2
    PICK_WONDER = 3
    TOKEN = 4
    DESTROY = 5
    MAUSOLEUM = 6
    STARTER = 7
    REVEAL_CARD = 8
    REVEAL_WONDER = 9
    REVEAL_TOKEN = 10
    LIBRARY_DRAW = 11
    DEAL_GUILDS = 12


CHANCE_KINDS = frozenset(
    {Kind.REVEAL_CARD, Kind.REVEAL_WONDER, Kind.REVEAL_TOKEN, Kind.LIBRARY_DRAW, Kind.DEAL_GUILDS}
)
PLAYER_NAMES = ("A", "B")
#: The 3-slot sets the Age III guilds can occupy, lexicographic: a DEAL_GUILDS move stores the
#: index (0..1139) of its set here. The C mirror of the engine uses the same order.
GUILD_SLOT_SETS: tuple[tuple[int, int, int], ...] = tuple(combinations(range(20), 3))
#: The same sets as 20-bit slot masks (the value of the GUILD_SLOTS field after the deal).
GUILD_SLOT_MASKS: tuple[int, ...] = tuple(sum(1 << s for s in combo) for combo in GUILD_SLOT_SETS)
_GUILD_RANK = {combo: rank for rank, combo in enumerate(GUILD_SLOT_SETS)}


class MoveParseError(ValueError):
    """Text that is not a move; the message says what was expected."""


class Move(int):
    """A move, encoded as ``kind << 16 | a << 8 | b``.

    ``a`` is a wonder, token, slot or player; ``b`` a card; The Great Library's draw keeps the
    10-bit token mask in ``a << 8 | b`` and the guild deal the rank of its slot set in
    :data:`GUILD_SLOT_SETS`. Use the constructors, not the encoding.
    """

    __slots__ = ()

    @property
    def kind(self) -> Kind:
        return Kind(self >> 16)

    @property
    def card(self) -> int:
        return self & 0xFF

    @property
    def a(self) -> int:
        return (self >> 8) & 0xFF

    @property
    def wonder(self) -> int:
        return self.a

    @property
    def token(self) -> int:
        return self.a

    @property
    def slot(self) -> int:
        return self.a

    @property
    def player(self) -> int:
        return self.a

    @property
    def token_mask(self) -> int:
        return self & 0xFFFF

    @property
    def guild_slots(self) -> tuple[int, int, int]:
        """The three slots a DEAL_GUILDS move puts the guilds in, ascending."""
        return GUILD_SLOT_SETS[self & 0xFFFF]

    @property
    def is_chance(self) -> bool:
        return self.kind in CHANCE_KINDS

    @staticmethod
    def build(card: int) -> Move:
        return MOVES[card]

    @staticmethod
    def discard(card: int) -> Move:
        return MOVES[Kind.DISCARD << 16 | card]

    @staticmethod
    def wonder_with(wonder: int, card: int) -> Move:
        return MOVES[Kind.WONDER << 16 | wonder << 8 | card]

    @staticmethod
    def pick_wonder(wonder: int) -> Move:
        return MOVES[Kind.PICK_WONDER << 16 | wonder << 8]

    @staticmethod
    def choose_token(token: int) -> Move:
        return MOVES[Kind.TOKEN << 16 | token << 8]

    @staticmethod
    def destroy(card: int) -> Move:
        return MOVES[Kind.DESTROY << 16 | card]

    @staticmethod
    def mausoleum(card: int) -> Move:
        return MOVES[Kind.MAUSOLEUM << 16 | card]

    @staticmethod
    def starter(player: int) -> Move:
        return MOVES[Kind.STARTER << 16 | player << 8]

    @staticmethod
    def reveal_card(slot: int, card: int) -> Move:
        return MOVES[Kind.REVEAL_CARD << 16 | slot << 8 | card]

    @staticmethod
    def reveal_wonder(wonder: int) -> Move:
        return MOVES[Kind.REVEAL_WONDER << 16 | wonder << 8]

    @staticmethod
    def reveal_token(token: int) -> Move:
        return MOVES[Kind.REVEAL_TOKEN << 16 | token << 8]

    @staticmethod
    def library_draw(token_mask: int) -> Move:
        return MOVES[Kind.LIBRARY_DRAW << 16 | token_mask]

    @staticmethod
    def deal_guilds(slots: Iterable[int]) -> Move:
        """The Age III chance event that puts the three guild backs in ``slots`` (any order)."""
        key = tuple(sorted(slots))
        rank = _GUILD_RANK.get(key)  # type: ignore[arg-type]
        if rank is None:
            raise ValueError(f"the guilds take 3 different slots of 0-19, not {list(key)}")
        return MOVES[Kind.DEAL_GUILDS << 16 | rank]

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    def __str__(self) -> str:
        kind = self.kind
        if kind is Kind.BUILD:
            return f"build {CARDS[self.card].name}"
        if kind is Kind.DISCARD:
            return f"discard {CARDS[self.card].name}"
        if kind is Kind.WONDER:
            return f"wonder {WONDERS[self.wonder].name} with {CARDS[self.card].name}"
        if kind is Kind.PICK_WONDER:
            return f"pick {WONDERS[self.wonder].name}"
        if kind is Kind.TOKEN:
            return f"token {TOKENS[self.token].name}"
        if kind is Kind.DESTROY:
            return f"destroy {CARDS[self.card].name}"
        if kind is Kind.MAUSOLEUM:
            return f"mausoleum {CARDS[self.card].name}"
        if kind is Kind.STARTER:
            return f"start {PLAYER_NAMES[self.player]}"
        if kind is Kind.REVEAL_CARD:
            return f"reveal slot {self.slot} {CARDS[self.card].name}"
        if kind is Kind.REVEAL_WONDER:
            return f"reveal wonder {WONDERS[self.wonder].name}"
        if kind is Kind.REVEAL_TOKEN:
            return f"reveal token {TOKENS[self.token].name}"
        if kind is Kind.DEAL_GUILDS:
            return "guilds at slots " + " ".join(map(str, self.guild_slots))
        names = ", ".join(TOKENS[t].name for t in bits(self.token_mask))
        return f"draw {names}"

    @staticmethod
    def parse(text: str) -> Move:
        """Parse the notation written by ``str(move)``; names are forgiving (case, prefixes)."""
        words = text.strip().split(None, 1)
        if not words:
            raise MoveParseError(Reason("empty move"))
        verb = words[0].lower()
        rest = words[1].strip() if len(words) > 1 else ""
        try:
            return _PARSERS[verb](rest)
        except KeyError:
            raise MoveParseError(
                Reason(
                    "unknown move {value}: expected one of {verbs}",
                    value=quoted(words[0]),
                    verbs=", ".join(sorted(_PARSERS)),
                )
            ) from None
        except UnknownNameError as error:
            raise MoveParseError(reason_of(error)) from None


#: What a move names, as its parse errors say it (translated by the programs).
_CARD, _WONDER, _TOKEN = Reason("card"), Reason("wonder"), Reason("token")
_TOKENS, _PLAYER = Reason("tokens"), Reason("player (A or B)")


def _need(rest: str, what: Reason, example: str = "") -> str:
    if not rest:
        if example:
            raise MoveParseError(
                Reason("missing {what} (e.g. '{example}')", what=what, example=example)
            )
        raise MoveParseError(Reason("missing {what}", what=what))
    return rest


def _parse_wonder(rest: str) -> Move:
    match = re.fullmatch(r"(.+?)\s+(?:with|using)\s+(.+)", _need(rest, _WONDER), re.IGNORECASE)
    if not match:
        raise MoveParseError(Reason("expected 'wonder <wonder> with <card>'"))
    return Move.wonder_with(wonder_named(match.group(1)), card_named(match.group(2)).id)


def _parse_start(rest: str) -> Move:
    key = _need(rest, _PLAYER).upper()
    if key not in PLAYER_NAMES:
        raise MoveParseError(Reason("expected player A or B, not {value}", value=quoted(rest)))
    return Move.starter(PLAYER_NAMES.index(key))


def _parse_reveal(rest: str) -> Move:
    match = re.fullmatch(r"slot\s+(\d+)\s+(.+)", rest, re.IGNORECASE)
    if match:
        slot = int(match.group(1))
        if not 0 <= slot < 20:
            raise MoveParseError(Reason("slot {slot} does not exist (slots are 0-19)", slot=slot))
        return Move.reveal_card(slot, card_named(match.group(2)).id)
    match = re.fullmatch(r"(wonder|token)\s+(.+)", rest, re.IGNORECASE)
    if match and match.group(1).lower() == "wonder":
        return Move.reveal_wonder(wonder_named(match.group(2)))
    if match:
        return Move.reveal_token(token_named(match.group(2)))
    raise MoveParseError(
        Reason("expected 'reveal slot N <card>', 'reveal wonder W' or 'reveal token T'")
    )


def _parse_draw(rest: str) -> Move:
    names = [n for n in re.split(r"\s*,\s*|\s+and\s+", _need(rest, _TOKENS)) if n]
    mask = 0
    for name in names:
        mask |= 1 << token_named(name)
    if len(names) != 3 or mask.bit_count() != 3:
        raise MoveParseError(Reason("The Great Library draws exactly 3 different tokens"))
    return Move.library_draw(mask)


def _parse_guilds(rest: str) -> Move:
    example = "guilds at slots 2 7 15"
    match = re.fullmatch(r"(?:at\s+)?(?:slots?\s+)?([\d\s,]+)", rest, re.IGNORECASE)
    if not match:
        raise MoveParseError(
            Reason("expected three slot numbers (e.g. '{example}')", example=example)
        )
    slots = [int(n) for n in re.split(r"[\s,]+", match.group(1).strip()) if n]
    if len(slots) != 3 or len(set(slots)) != 3:
        raise MoveParseError(
            Reason("the guilds take exactly 3 different slots (e.g. '{example}')", example=example)
        )
    for slot in slots:
        if not 0 <= slot < 20:
            raise MoveParseError(Reason("slot {slot} does not exist (slots are 0-19)", slot=slot))
    return Move.deal_guilds(slots)


_PARSERS = {
    "build": lambda rest: Move.build(card_named(_need(rest, _CARD, "build Baths")).id),
    "discard": lambda rest: Move.discard(card_named(_need(rest, _CARD, "discard Baths")).id),
    "wonder": _parse_wonder,
    "pick": lambda rest: Move.pick_wonder(wonder_named(_need(rest, _WONDER, "pick Sphinx"))),
    "token": lambda rest: Move.choose_token(token_named(_need(rest, _TOKEN, "token Law"))),
    "destroy": lambda rest: Move.destroy(card_named(_need(rest, _CARD, "destroy Press")).id),
    "mausoleum": lambda rest: Move.mausoleum(card_named(_need(rest, _CARD, "mausoleum Baths")).id),
    "start": _parse_start,
    "reveal": _parse_reveal,
    "draw": _parse_draw,
    "guilds": _parse_guilds,
}


def _all_moves() -> dict[int, Move]:
    codes: list[int] = []
    cards = range(len(CARDS))
    for c in cards:
        codes += [c, Kind.DISCARD << 16 | c, Kind.DESTROY << 16 | c, Kind.MAUSOLEUM << 16 | c]
        codes += [Kind.WONDER << 16 | w << 8 | c for w in range(len(WONDERS))]
        codes += [Kind.REVEAL_CARD << 16 | s << 8 | c for s in range(20)]
    for w in range(len(WONDERS)):
        codes += [Kind.PICK_WONDER << 16 | w << 8, Kind.REVEAL_WONDER << 16 | w << 8]
    for t in range(len(TOKENS)):
        codes += [Kind.TOKEN << 16 | t << 8, Kind.REVEAL_TOKEN << 16 | t << 8]
    codes += [Kind.STARTER << 16 | p << 8 for p in (0, 1)]
    codes += [
        Kind.LIBRARY_DRAW << 16 | mask for mask in range(1 << len(TOKENS)) if mask.bit_count() == 3
    ]
    codes += [Kind.DEAL_GUILDS << 16 | rank for rank in range(len(GUILD_SLOT_SETS))]
    return {code: Move(code) for code in codes}


#: Every move there is, interned: move generation indexes this table instead of allocating.
MOVES: dict[int, Move] = _all_moves()
