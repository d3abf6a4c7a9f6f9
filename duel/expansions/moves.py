"""Moves of an expansion game: small immutable records with a readable notation.

The base game's moves keep their notation (``build Baths``, ``wonder The Pyramids with Baths``,
``reveal slot 9 Baths``); Pantheon adds its own. A move the observer of a state cannot see in
full (the opponent's draw of two Divinities, the one they seat face down) has a public shadow
with the card left out (``None``); :func:`duel.expansions.state.observe` gives it.

>>> m = XMove.parse("activate Zeus with Offering 2, Offering 4")
>>> m.kind, m.args, str(m)
('activate', ('Zeus', (2, 4)), 'activate Zeus with Offering 2, Offering 4')
>>> str(XMove.parse("seat zeus on 3")), str(XMove("seat", (None, "Greek", 3)))
('seat Zeus on 3', 'seat a Greek Divinity on 3')
>>> XMove.parse("divinities greek zeus, hades").args
('Greek', ('Hades', 'Zeus'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import permutations

from duel.expansions.agora import conspiracy_named, decree_named
from duel.expansions.components import (
    DIVINITY,
    GATE,
    OFFERINGS,
    XCARDS,
    XTOKENS,
    XWONDERS,
    divinity_named,
    mythology_named,
    xcard_named,
    xtoken_named,
    xwonder_named,
)
from duel.moves import PLAYER_NAMES, MoveParseError

#: Kinds decided by chance (their outcomes come with probabilities).
CHANCE_KINDS = frozenset(
    {
        "reveal_card",
        "reveal_wonder",
        "reveal_token",
        "library_draw",
        "deal_backs",
        "place_mythology",
        "place_offerings",
        "draw_divinities",
        "flip",
        "enki_tokens",
        "top",
        "deck",
        "decree",
        "back",
        "draw_plots",
        "treason_deal",
    }
)
MILITARY_TOKEN_NAMES = ("A2", "A5", "B2", "B5")
OFFERING_ORDERS: tuple[tuple[int, ...], ...] = tuple(permutations(OFFERINGS))


def _card(c: int) -> str:
    return XCARDS[c].name


def _wonder(w: int) -> str:
    return XWONDERS[w].name


def _token(t: int) -> str:
    return XTOKENS[t].name


@dataclass(frozen=True, slots=True)
class XMove:
    """A move: its ``kind`` and arguments (card, wonder and token ids, names, slots)."""

    kind: str
    args: tuple = ()

    def is_chance(self) -> bool:
        return self.kind in CHANCE_KINDS

    def __str__(self) -> str:
        k, a = self.kind, self.args
        if k == "build":
            return f"build {_card(a[0])}"
        if k == "discard":
            return f"discard {_card(a[0])}"
        if k == "wonder":
            return f"wonder {_wonder(a[0])} with {_card(a[1])}"
        if k == "pick":
            return f"pick {_wonder(a[0])}"
        if k == "token":
            return f"token {_token(a[0])}"
        if k == "destroy":
            return f"destroy {_card(a[0])}"
        if k == "mausoleum":
            return f"mausoleum {_card(a[0])}"
        if k == "start":
            return f"start {PLAYER_NAMES[a[0]]}"
        if k == "reveal_card":
            return f"reveal slot {a[0]} {_card(a[1])}"
        if k == "reveal_wonder":
            return f"reveal wonder {_wonder(a[0])}"
        if k == "reveal_token":
            return f"reveal token {_token(a[0])}"
        if k == "library_draw":
            return "draw " + ", ".join(_token(t) for t in a[0])
        if k == "deal_backs":
            return f"{a[0]} at slots " + " ".join(map(str, a[1]))
        if k == "place_mythology":
            return f"mythology {a[1]} on slot {a[0]}"
        if k == "place_offerings":
            return "offerings " + " ".join(map(str, a[0]))
        if k == "draw_divinities":
            if a[1] is None:
                return f"divinities {a[0]} unseen"
            return f"divinities {a[0]} " + ", ".join(a[1])
        if k == "seat":
            what = a[0] if a[0] is not None else f"a {a[1]} Divinity"
            return f"seat {what} on {a[2]}"
        if k == "flip":
            return f"flip space {a[0]} {a[1]}"
        if k == "enki_tokens":
            return "enki tokens " + ", ".join(_token(t) for t in a[0])
        if k == "top":
            return f"top {a[0]} {a[1]}"
        if k == "deck":
            return f"deck {a[0]} " + ", ".join(a[1])
        if k == "activate":
            offer = ", ".join(f"Offering {v}" for v in a[1])
            return f"activate {a[0]}" + (f" with {offer}" if offer else "")
        if k == "snake":
            return f"snake {_card(a[0])}"
        if k == "take":
            return f"take {_card(a[0])}"
        if k == "zeus":
            return f"zeus slot {a[0]}"
        if k == "unbuild":
            return f"unbuild {_wonder(a[0])}"
        if k == "isis":
            return f"isis {_wonder(a[0])} with {_card(a[1])}"
        if k == "steal":
            return f"steal {_wonder(a[0])}"
        if k == "minerva":
            return f"minerva at {a[0]}"
        if k == "remove":
            return f"remove {MILITARY_TOKEN_NAMES[a[0]]}"
        if k == "apply":
            return f"apply {MILITARY_TOKEN_NAMES[a[0]]}"
        if k == "theater":
            return f"theater {a[0]}"
        if k == "choose":
            return f"choose {a[0]}"
        if k == "order":
            return "order " + ", ".join(a[0])
        return _agora_text(k, a)

    def __repr__(self) -> str:
        return f"XMove({str(self)!r})"

    @staticmethod
    def parse(text: str) -> XMove:
        """Parse the notation ``str(move)`` writes; names are forgiving (case, unique prefixes)."""
        words = " ".join(text.strip().split())
        verb, _, rest = words.partition(" ")
        verb = verb.lower()
        try:
            parser = _PARSERS[verb]
        except KeyError:
            raise MoveParseError(
                f"unknown move {text.strip()!r}: expected one of {', '.join(sorted(_PARSERS))}"
            ) from None
        # Numbers are ASCII digits, as at the base game's prompts: int() would read "٣" as 3.
        if any(c.isdigit() and not c.isascii() for c in words):
            raise MoveParseError(f"cannot read {text.strip()!r}: write numbers with 0-9")
        try:
            return parser(rest)
        except MoveParseError:
            raise
        except (ValueError, IndexError, KeyError, TypeError, AttributeError) as error:
            # Whatever a sub-parser trips on is the text's fault: one typed error, never a crash.
            said = (
                f"{verb} {error.args[0]!r} is not a move this program knows"
                if isinstance(error, KeyError)
                else error
            )
            raise MoveParseError(f"cannot read {text.strip()!r}: {said}") from None


def _agora_text(k: str, a: tuple) -> str:
    if k == "decree":
        return f"decree {a[1]} in chamber {a[0]}"
    if k == "back":
        return f"back of slot {a[0]}: {a[1]}"
    if k == "draw_plots":
        return "conspiracies " + (", ".join(a[0]) if a[0] is not None else "unseen")
    if k == "keep":
        kept = ", ".join(a[0]) if a[0] is not None else "a Conspiracy"
        if a[1] is None and a[2] is None:
            return f"keep {kept}"
        returned = a[1] if a[1] is not None else "the other"
        return f"keep {kept}, {returned} at the {a[2]}"
    if k == "place":
        return f"place cube in {a[0]}"
    if k == "evict":
        return f"remove cube from {a[0]}"
    if k == "move_cube":
        return f"move cube {a[0]} to {a[1]}"
    if k == "no_move":
        return "no move"
    if k == "stop":
        return "stop"
    if k == "conspire":
        return "conspire"
    if k == "prepare":
        return f"prepare {_card(a[0])} under plot {a[1]}"
    if k == "trigger":
        return f"trigger plot {a[0]} ({a[1]})"
    if k == "no_trigger":
        return "no trigger"
    if k == "lock":
        return f"lock {_token(a[0])}"
    if k == "free_build":
        return f"build {_card(a[0])} for free"
    if k == "discard_free":
        return f"discard {_card(a[0])} for nothing"
    if k == "no_discard":
        return "no discard"
    if k == "swap":
        return f"swap {_card(a[0])} for {_card(a[1])}"
    if k == "move_decree":
        what = f"decree {a[1]}" if a[1] is not None else "face-down decree"
        return f"move {what} from {a[0]} to {a[2]}"
    if k == "sabotage":
        return f"sabotage {_wonder(a[0])}"
    if k == "treason_deal":
        names = ", ".join(_card(c) for c in a[0]) if a[0] is not None else "unseen"
        return f"removed cards {names}"
    raise ValueError(f"unknown move kind {k!r}")


def _names(rest: str) -> list[str]:
    return [n for n in re.split(r"\s*,\s*", rest.strip()) if n]


def _divinity_or_gate(text: str) -> str:
    return GATE if text.strip().lower() == "gate" else divinity_named(text).name


def _parse_activate(rest: str) -> XMove:
    name, _, offer = rest.partition(" with ")
    values = tuple(sorted(int(v) for v in re.findall(r"\d+", offer)))
    if any(v not in OFFERINGS for v in values):
        raise MoveParseError(f"offering tokens are worth {', '.join(map(str, OFFERINGS))}")
    return XMove("activate", (_divinity_or_gate(name), values))


def _parse_seat(rest: str) -> XMove:
    what, _, space = rest.rpartition(" on ")
    hidden = re.fullmatch(r"a (\w+) divinity", what.strip(), re.I)
    if hidden:
        return XMove("seat", (None, mythology_named(hidden.group(1)), int(space)))
    divinity = divinity_named(what)
    return XMove("seat", (divinity.name, divinity.mythology, int(space)))


def _parse_reveal(rest: str) -> XMove:
    what, _, tail = rest.partition(" ")
    if what == "slot":
        slot, _, card = tail.partition(" ")
        return XMove("reveal_card", (int(slot), xcard_named(card)))
    if what == "wonder":
        return XMove("reveal_wonder", (xwonder_named(tail),))
    if what == "token":
        return XMove("reveal_token", (xtoken_named(tail),))
    raise MoveParseError("expected 'reveal slot N CARD', 'reveal wonder W' or 'reveal token T'")


def _parse_backs(kind: str):
    def parse(rest: str) -> XMove:
        slots = tuple(sorted(int(s) for s in rest.removeprefix("at slots").split()))
        return XMove("deal_backs", (kind, slots))

    return parse


def _parse_divinities(rest: str) -> XMove:
    mythology, _, cards = rest.partition(" ")
    if cards.strip().lower() == "unseen":
        return XMove("draw_divinities", (mythology_named(mythology), None))
    names = tuple(sorted(divinity_named(n).name for n in _names(cards)))
    return XMove("draw_divinities", (mythology_named(mythology), names))


def _parse_military(kind: str):
    def parse(rest: str) -> XMove:
        return XMove(kind, (MILITARY_TOKEN_NAMES.index(rest.strip().upper()),))

    return parse


def _parse_keep(rest: str) -> XMove:
    """keep NAME[, NAME] | keep NAME, OTHER at the top|bottom | keep a Conspiracy, the other at
    the top|bottom"""
    text = rest.strip()
    where = None
    for end in ("top", "bottom"):
        if text.lower().endswith(f" at the {end}"):
            where = end
            text = text[: -len(f" at the {end}")]
    parts = _names(text)
    if where is None:
        return XMove("keep", (tuple(conspiracy_named(n) for n in parts), None, None))
    kept = None if parts[0].lower() == "a conspiracy" else (conspiracy_named(parts[0]),)
    returned = None if parts[1].lower() == "the other" else conspiracy_named(parts[1])
    return XMove("keep", (kept, returned, where))


def _parse_move(rest: str) -> XMove:
    """move cube C to D | move decree NAME from C to D | move face-down decree from C to D"""
    what, _, chambers = rest.rpartition(" from ")
    words = what.split()
    if not what:
        cube = rest.split()
        if len(cube) != 4 or cube[0].lower() != "cube" or cube[2].lower() != "to":
            raise MoveParseError("expected 'move cube C to D'")
        return XMove("move_cube", (int(cube[1]), int(cube[3])))
    source, _, target = chambers.partition(" to ")
    if what.lower() == "face-down decree":
        name = None
    elif words[0].lower() == "decree" and len(words) > 1:
        name = decree_named(" ".join(words[1:]))
    else:
        raise MoveParseError(
            "expected 'move decree NAME from C to D' or 'move face-down decree from C to D'"
        )
    return XMove("move_decree", (int(source), name, int(target)))


assert set(DIVINITY) and GATE not in DIVINITY


_PARSERS = {
    "build": lambda r: (
        XMove("free_build", (xcard_named(r.removesuffix(" for free")),))
        if r.strip().lower().endswith(" for free")
        else XMove("build", (xcard_named(r),))
    ),
    "discard": lambda r: (
        XMove("discard_free", (xcard_named(r.removesuffix(" for nothing")),))
        if r.strip().lower().endswith(" for nothing")
        else XMove("discard", (xcard_named(r),))
    ),
    "wonder": lambda r: XMove(
        "wonder", (xwonder_named(r.partition(" with ")[0]), xcard_named(r.partition(" with ")[2]))
    ),
    "pick": lambda r: XMove("pick", (xwonder_named(r),)),
    "token": lambda r: XMove("token", (xtoken_named(r),)),
    "destroy": lambda r: XMove("destroy", (xcard_named(r),)),
    "mausoleum": lambda r: XMove("mausoleum", (xcard_named(r),)),
    "start": lambda r: XMove("start", (PLAYER_NAMES.index(r.strip().upper()),)),
    "reveal": _parse_reveal,
    "draw": lambda r: XMove("library_draw", (tuple(sorted(xtoken_named(n) for n in _names(r))),)),
    "guilds": _parse_backs("guilds"),
    "temples": _parse_backs("temples"),
    "mythology": lambda r: XMove(
        "place_mythology",
        (int(r.rpartition(" on slot ")[2]), mythology_named(r.rpartition(" on slot ")[0])),
    ),
    "offerings": lambda r: XMove("place_offerings", (tuple(int(v) for v in r.split()),)),
    "divinities": _parse_divinities,
    "seat": _parse_seat,
    "flip": lambda r: XMove(
        "flip", (int(r.split()[1]), divinity_named(" ".join(r.split()[2:])).name)
    ),
    "enki": lambda r: XMove(
        "enki_tokens",
        (tuple(sorted(xtoken_named(n) for n in _names(r.removeprefix("tokens")))),),
    ),
    "top": lambda r: XMove(
        "top", (mythology_named(r.split()[0]), divinity_named(" ".join(r.split()[1:])).name)
    ),
    "deck": lambda r: XMove(
        "deck",
        (
            mythology_named(r.split()[0]),
            tuple(sorted(divinity_named(n).name for n in _names(r.partition(" ")[2]))),
        ),
    ),
    "activate": _parse_activate,
    "snake": lambda r: XMove("snake", (xcard_named(r),)),
    "take": lambda r: XMove("take", (xcard_named(r),)),
    "zeus": lambda r: XMove("zeus", (int(r.removeprefix("slot").strip()),)),
    "unbuild": lambda r: XMove("unbuild", (xwonder_named(r),)),
    "isis": lambda r: XMove(
        "isis", (xwonder_named(r.partition(" with ")[0]), xcard_named(r.partition(" with ")[2]))
    ),
    "steal": lambda r: XMove("steal", (xwonder_named(r),)),
    "minerva": lambda r: XMove("minerva", (int(r.removeprefix("at").strip()),)),
    "remove": lambda r: (
        XMove("evict", (int(r.split()[-1]),))
        if r.strip().lower().startswith("cube")
        else _parse_military("remove")(r)
    ),
    "apply": _parse_military("apply"),
    "theater": lambda r: XMove("theater", (mythology_named(r),)),
    "choose": lambda r: XMove("choose", (divinity_named(r).name,)),
    "order": lambda r: XMove("order", (tuple(divinity_named(n).name for n in _names(r)),)),
    "decree": lambda r: XMove(
        "decree",
        (int(r.rpartition(" in chamber ")[2]), decree_named(r.rpartition(" in chamber ")[0])),
    ),
    "back": lambda r: XMove("back", (int(r.split()[2].rstrip(":")), r.split()[3].lower())),
    "conspiracies": lambda r: XMove(
        "draw_plots",
        (
            None
            if r.strip().lower() == "unseen"
            else tuple(sorted(conspiracy_named(n) for n in _names(r))),
        ),
    ),
    "keep": _parse_keep,
    "place": lambda r: XMove("place", (int(r.split()[-1]),)),
    "move": _parse_move,
    "no": lambda r: XMove(
        {"move": "no_move", "trigger": "no_trigger", "discard": "no_discard"}[r.strip().lower()]
    ),
    "stop": lambda r: XMove("stop"),
    "conspire": lambda r: XMove("conspire"),
    "prepare": lambda r: XMove(
        "prepare",
        (xcard_named(r.rpartition(" under plot ")[0]), int(r.rpartition(" under plot ")[2])),
    ),
    "trigger": lambda r: XMove(
        "trigger",
        (
            int(r.split()[1]),
            conspiracy_named(r.partition("(")[2].rstrip(")")) if "(" in r else None,
        ),
    ),
    "lock": lambda r: XMove("lock", (xtoken_named(r),)),
    "swap": lambda r: XMove(
        "swap", (xcard_named(r.partition(" for ")[0]), xcard_named(r.partition(" for ")[2]))
    ),
    "sabotage": lambda r: XMove("sabotage", (xwonder_named(r),)),
    "removed": lambda r: XMove(
        "treason_deal",
        (
            None
            if r.removeprefix("cards").strip().lower() == "unseen"
            else tuple(sorted(xcard_named(n) for n in _names(r.removeprefix("cards")))),
        ),
    ),
}
