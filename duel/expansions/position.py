"""Positions of an expansion game as JSON (``7wd-xposition``): a table typed in from a real game,
or written by the programs, read back with every field checked.

A position says what is on the table between two turns (a player to play a card, Age II or III
laid out with its first player to choose, or a card to turn over first) and what its
``observer`` knows: ``null`` for the referee, who sees everything, or ``"A"``/``"B"``, whose
view it is (the opponent's face-down Divinity, unknown Conspiracies and cards on a deck are
``"?"``). What the rules derive is derived, not typed: which slots are present, accessible and
to be turned over, the cards nobody has seen this Age, the science symbols, the Senators seen.
The middle of a multi-step effect (a Divinity's choice, the Senate's steps, the draft) is not a
position: the game's record holds it. ``docs/position-format.md`` ("Expansion positions")
describes every field.

>>> import random
>>> from duel.expansions import new_xgame
>>> state, rng = new_xgame(("pantheon",)), random.Random(2)
>>> while not (state.age == 2 and state.phase == "play"):
...     state = state.apply(state.random_move(rng), check=False)
>>> data = position_to_json(state.view(state.to_move))
>>> data["format"], data["age"], len(data["pyramid"])
('7wd-xposition', 2, 20)
>>> position_from_json(data) == state.view(state.to_move)
True
>>> position_from_json({**data, "age": 4})
Traceback (most recent call last):
...
duel.expansions.position.XPositionError: age: expected 1, 2 or 3, got 4
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pyrsistent import pmap, pvector

from duel.catalog import AGE_DECK, MAX_WONDERS_BUILT, bits
from duel.expansions.agora import (
    CHAMBERS,
    CONSPIRACIES,
    CUBES,
    SENATORS_PER_AGE,
    conspiracy_named,
    decree_named,
)
from duel.expansions.components import (
    BY_MYTHOLOGY,
    DIVINITY,
    GATE,
    MYTHOLOGIES,
    MYTHOLOGY_TOKENS_PER_KIND,
    OFFERINGS,
    SENATOR_IDS,
    SPACES,
    XCARDS,
    XTOKENS,
    XWONDERS,
    divinity_named,
    mythology_named,
    structure_of,
    token_slots,
    xcard_named,
    xtoken_named,
    xwonder_named,
)
from duel.expansions.moves import MILITARY_TOKEN_NAMES
from duel.expansions.queries import science_symbols
from duel.expansions.senate import unaccounted_plots
from duel.expansions.state import XState, new_game
from duel.expansions.table import (
    ALL_MILITARY,
    EXPANSIONS,
    GUILD_SET,
    HIDDEN,
    SCIENCE_VICTORY_SYMBOLS,
    SENATOR_SET,
    TAKEN,
    TEMPLE_SET,
    DeckCard,
    Plot,
    Space,
    controller,
    token_pool,
    wonder_pool,
)
from duel.files import read_json_file, write_atomically
from duel.json_reader import JsonReader
from duel.moves import PLAYER_NAMES
from duel.reason import Reason, reason_of

FORMAT = "7wd-xposition"
VERSION = 1
UNKNOWN = "?"
#: The phases a position may be in: between two turns.
PHASES = ("play", "reveal", "choose_starter")
#: Fields that hold the middle of an effect; a position has them at their start values.
_TRANSIENT = (
    "offer",
    "library",
    "destroying",
    "drawing",
    "drawn",
    "revealing",
    "chosen",
    "drawn_plots",
    "pending",
    "continuation",
    "step",
)
_BACK_KINDS = ("age", "senator", "guild", "temple")
_TOP = {
    "": frozenset(
        {
            "format",
            "version",
            "comment",
            "expansions",
            "observer",
            "phase",
            "age",
            "to_move",
            "extra_turn",
            "pyramid",
            "back_slots",
            "backs",
            "military",
            "progress_tokens",
            "discard",
            "players",
            "pantheon",
            "agora",
        }
    ),
    "military.": frozenset({"pawn", "tokens", "minerva"}),
    "players.": frozenset(PLAYER_NAMES),
    "players.X.": frozenset(
        {
            "coins",
            "city",
            "wonders",
            "built_wonders",
            "wonder_cards",
            "progress_tokens",
            "astarte",
            "mythology_tokens",
            "offering_tokens",
            "divinities",
            "nisaba",
            "conspiracies",
            "treason_seen",
        }
    ),
    "pantheon.": frozenset({"spaces", "decks", "mythology_tokens", "offering_tokens", "enki"}),
    "agora.": frozenset(
        {
            "senate",
            "decrees",
            "conspiracy_deck",
            "removed",
            "removed_now",
            "removed_by",
            "locked_tokens",
            "triggered",
        }
    ),
}

T = TypeVar("T")


class XPositionError(ValueError):
    """A malformed or impossible position; the message names the field and the problem."""


# --- writing -------------------------------------------------------------------------------------
def _names(ids: Iterable[int], table) -> list[str]:
    return [table[i].name for i in sorted(ids)]


def _who(players: Iterable[int]) -> list[str]:
    return [PLAYER_NAMES[p] for p in sorted(players)]


def _deck_entry(card: DeckCard, key: str) -> dict[str, Any]:
    return {
        key: card.divinity if card.divinity is not None else UNKNOWN,
        "known_to": _who(card.known_to),
    }


def position_to_json(state: XState) -> dict[str, Any]:
    """The position of ``state`` (a referee state or a player's view) as a JSON object; an
    :class:`XPositionError` if ``state`` is not between two turns (see the module docstring)."""
    if state.phase not in PHASES or state.age not in (1, 2, 3):
        raise XPositionError(
            Reason(
                "phase: {phase} in {position} is not a table between two turns ({names}); the"
                " game's record holds it",
                phase=repr(state.phase),
                position=state.describe(),
                names=", ".join(PHASES),
            )
        )
    full = (1 << len(state.pyramid)) - 1
    if state.reveal & ~state.accessible or (state.phase == "reveal" and state.present == full):
        raise XPositionError(
            Reason(
                "pyramid: the structure of Age {age} is being laid out (face-up cards still to"
                " turn over); the game's record holds it",
                age=state.age,
            )
        )
    fresh = new_game(state.expansions)
    for name in _TRANSIENT:
        if getattr(state, name) != getattr(fresh, name):
            raise XPositionError(
                Reason(
                    "{name}: the middle of an effect ({position}); the game's record holds it",
                    name=name,
                    position=state.describe(),
                )
            )
    layout = structure_of(state.expansions, state.age)
    pyramid: list[str | None] = []
    for slot, card in enumerate(state.pyramid):
        if card == TAKEN:
            pyramid.append(None)
        elif card == HIDDEN:
            pyramid.append(UNKNOWN + _hidden_back(state, slot))
        else:
            pyramid.append(XCARDS[card].name)
    assert len(pyramid) == layout.slots
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "expansions": list(state.expansions),
        "observer": None if state.observer is None else PLAYER_NAMES[state.observer],
        "phase": state.phase,
        "age": state.age,
        "to_move": PLAYER_NAMES[state.to_move],
        "pyramid": pyramid,
    }
    if state.extra:
        data["extra_turn"] = True
    if state.agora:
        data["backs"] = list(state.backs)
    elif state.age == 3:
        data["back_slots"] = bits(state.back_slots)
    military: dict[str, Any] = {
        "pawn": state.pawn,
        "tokens": [MILITARY_TOKEN_NAMES[i] for i in bits(state.military)],
    }
    if state.pantheon:
        military["minerva"] = state.minerva
    data["military"] = military
    data["progress_tokens"] = _names(state.board, XTOKENS)
    data["discard"] = _names(state.discard, XCARDS)
    data["players"] = {PLAYER_NAMES[p]: _city_json(state, p) for p in (0, 1)}
    if state.pantheon:
        data["pantheon"] = {
            "spaces": [_space_json(s) for s in state.spaces],
            "decks": {
                m: {
                    "size": state.deck_size[i],
                    "top": [_deck_entry(c, "divinity") for c in state.deck_tops[i]],
                }
                for i, m in enumerate(MYTHOLOGIES)
            },
            "mythology_tokens": {str(s): m for s, m in sorted(state.mythology_on.items())},
            "offering_tokens": {str(s): v for s, v in sorted(state.offering_on.items())},
            "enki": _names(state.enki_tokens, XTOKENS),
        }
    if state.agora:
        data["agora"] = {
            "senate": [list(pair) for pair in state.senate],
            "decrees": [
                [name if up else UNKNOWN for name, up in entries] for entries in state.decrees
            ],
            "conspiracy_deck": {
                "size": state.plot_size,
                "top": [_deck_entry(c, "name") for c in state.plot_top],
                "bottom": [_deck_entry(c, "name") for c in state.plot_bottom],
            },
            "removed": _names(state.removed, XCARDS),
            "removed_now": (
                None if state.removed_now is None else [XCARDS[c].name for c in state.removed_now]
            ),
            "removed_by": None if state.removed_by is None else PLAYER_NAMES[state.removed_by],
            "locked_tokens": _names(state.locked, XTOKENS),
            "triggered": state.triggered,
        }
    return data


def _hidden_back(state: XState, slot: int) -> str:
    """The back a face-down card shows, as the suffix of ``"?"``: ``""`` for an Age card."""
    if state.agora:
        kind = state.backs[slot]
        return "" if kind in (None, "age") else kind
    if state.age == 3 and state.back_slots >> slot & 1:
        return "temple" if state.pantheon else "guild"
    return ""


def _city_json(state: XState, player: int) -> dict[str, Any]:
    city = state.cities[player]
    out: dict[str, Any] = {
        "coins": city.coins,
        "city": _names(city.cards, XCARDS),
        "wonders": [XWONDERS[w].name for w in city.wonders],
        "built_wonders": [XWONDERS[w].name for w, _ in city.built],
        "wonder_cards": [XCARDS[c].name for _, c in city.built],
        "progress_tokens": _names(city.tokens, XTOKENS),
    }
    if state.pantheon:
        out["astarte"] = city.astarte
        out["mythology_tokens"] = list(city.mythology)
        out["offering_tokens"] = list(city.offerings)
        out["divinities"] = list(city.divinities)
        out["nisaba"] = None if city.snake is None else XCARDS[city.snake].name
    if state.agora:
        out["conspiracies"] = [
            {
                "name": plot.name if plot.name is not None else UNKNOWN,
                "prepared": plot.prepared,
                "fresh": plot.fresh,
                "used": plot.used,
                "card": None if plot.card is None else XCARDS[plot.card].name,
            }
            for plot in city.plots
        ]
        out["treason_seen"] = _names(city.removed_seen, XCARDS)
    return out


def _space_json(space: Space | None) -> Any:
    if space is None:
        return None
    if space.divinity == GATE:
        return GATE
    return {
        "divinity": space.divinity if space.divinity is not None else UNKNOWN,
        "mythology": space.mythology,
        "owner": PLAYER_NAMES[space.owner],
        "face_up": space.face_up,
    }


def dumps_position(state: XState) -> str:
    return json.dumps(position_to_json(state), indent=1, ensure_ascii=False) + "\n"


def save_position(state: XState, path: str | Path) -> None:
    """Write ``state``'s position atomically."""
    write_atomically(Path(path), dumps_position(state))


# --- reading -------------------------------------------------------------------------------------
def load_position(path: str | Path) -> XState:
    """Read a position file; every problem is an :class:`XPositionError` naming the file."""
    data = read_json_file(path, XPositionError)
    try:
        return position_from_json(data)
    except XPositionError as error:
        raise XPositionError(Reason("{path}: {error}", path=path, error=reason_of(error))) from None


def is_xposition(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def position_from_json(data: Any) -> XState:
    """The state of a ``7wd-xposition`` object, checked: names, places (no card, Wonder, token
    or Divinity in two places), counts, what the observer may know, and that the game can go
    on from it. Errors are :class:`XPositionError` naming the field."""
    try:
        return _Reader(data).state()
    except RecursionError:
        raise XPositionError(Reason("nested too deeply to be a position")) from None


def _fail(text: str) -> XPositionError:
    return XPositionError(text)


class _Reader(JsonReader):
    """The shared field reader (:class:`~duel.json_reader.JsonReader`: a field written null
    takes its default here) and where each component was seen."""

    def __init__(self, data: Any) -> None:
        super().__init__(XPositionError, null_is_absent=True)
        self.data = self.obj(data, Reason("a position is a JSON object"))
        self.places: dict[tuple[str, int | str], str] = {}  # (kind, id) -> where it lies
        self.expansions: tuple[str, ...] = ()
        self.age = 3

    # --- small readers ----------------------------------------------------------------------------
    def listed(
        self,
        obj: dict[str, Any],
        key: str,
        path: str,
        lookup: Callable[[str], T],
        default: Any = (),
    ) -> list[T]:
        """The components named by the list ``obj[key]``, each listed once."""
        values = self.get(obj, key, path, list, list(default) if default != ... else ...)
        return self.names(values, f"{path}{key}", lookup)

    def optional_player(self, value: Any, field: str) -> int | None:
        """A player, or None where the field says nobody (null)."""
        return None if value is None else self.player(value, field)

    def place(self, kind: str, item: int | str, where: str) -> None:
        """Record that ``item`` (a card, Wonder or token id; a Divinity or Conspiracy name) lies
        at ``where``; a second place is an error naming both."""
        key = (kind, item)
        name = item if isinstance(item, str) else _TABLES[kind][item].name
        if kind == "card" and (
            (item in SENATOR_SET and "agora" not in self.expansions)
            or (item in TEMPLE_SET and "pantheon" not in self.expansions)
        ):
            raise _fail(
                Reason(
                    "{where}: {name} is a card of an expansion this game is played without",
                    where=where,
                    name=name,
                )
            )
        if kind == "card" and item in GUILD_SET and "pantheon" in self.expansions:
            raise _fail(
                Reason(
                    "{where}: {name}: Pantheon's Age III has Grand Temples, not Guilds",
                    where=where,
                    name=name,
                )
            )
        if kind == "card" and isinstance(item, int) and _card_age(item) > self.age:
            raise _fail(
                Reason(
                    "{where}: {name} is a card of Age {age}, not yet dealt",
                    where=where,
                    name=name,
                    age=_card_age(int(item)),
                )
            )
        if kind == "token" and item not in token_pool(self.expansions):
            raise _fail(
                Reason("{where}: the token {name} is not in this game", where=where, name=name)
            )
        if key in self.places:
            raise _fail(
                Reason(
                    "{name} is in two places: {places} and {where}",
                    name=name,
                    places=self.places[key],
                    where=where,
                )
            )
        self.places[key] = where

    def deck_card(
        self, s: XState, entry: Any, where: str, key: str, lookup, label: str
    ) -> DeckCard:
        """A card known to lie on a deck (a Divinity's or a Conspiracy's): its name, or "?"
        where the observer does not know it, and who knows it."""
        if not isinstance(entry, dict):
            raise _fail(
                Reason("{where}: expected an object with {key} and known_to", where=where, key=key)
            )
        self.keys(entry, f"{where}.", frozenset({key, "known_to"}))
        known = frozenset(
            self.player(v, f"{where}.known_to")
            for v in self.get(entry, "known_to", f"{where}.", list)
        )
        raw = self.get(entry, key, f"{where}.", str)
        if raw == UNKNOWN:
            if s.observer is None or s.observer in known:
                raise _fail(
                    Reason(
                        '{where}.{key}: "?" only for a card the observer does not know',
                        where=where,
                        key=key,
                    )
                )
            return DeckCard(None, known)
        name = self.name(raw, f"{where}.{key}", lookup)
        if s.observer is not None and s.observer not in known:
            raise _fail(
                Reason('{where}.{key}: not known to the observer: write "?"', where=where, key=key)
            )
        self.place("divinity" if key == "divinity" else "plot", name, label)
        return DeckCard(name, known)

    # --- the state --------------------------------------------------------------------------------
    def state(self) -> XState:
        data = self.data
        self.keys(data, "", _TOP[""])
        if data.get("format", FORMAT) != FORMAT:
            raise _fail(
                Reason(
                    "format: expected {FORMAT}, got {value}",
                    FORMAT=repr(FORMAT),
                    value=repr(data.get("format")),
                )
            )
        if data.get("version", VERSION) != VERSION:
            raise _fail(Reason("version: this program reads version {VERSION}", VERSION=VERSION))
        expansions = self.get(data, "expansions", "", list)
        for i, name in enumerate(expansions):
            if name in expansions[:i]:
                raise _fail(
                    Reason(
                        "{field}[{i}]: {value} is listed twice",
                        field="expansions",
                        i=i,
                        value=json.dumps(name),
                    )
                )
            if name not in EXPANSIONS:
                raise _fail(
                    Reason(
                        "{field}[{i}]: {value} is not one of {names}",
                        field="expansions",
                        i=i,
                        value=json.dumps(name)[:40],
                        names=EXPANSIONS,
                    )
                )
        s = new_game(expansions)
        self.expansions = s.expansions
        observer = self.optional_player(data.get("observer"), "observer")
        s.observer = observer
        phase = self.get(data, "phase", "", str, "play")
        if phase not in PHASES:
            raise _fail(
                Reason(
                    "phase: {phase} is not a table between two turns (expected {names}); a game's"
                    " record holds the middle of an effect",
                    phase=repr(phase),
                    names=", ".join(PHASES),
                )
            )
        age = self.get(data, "age", "", int)
        if age not in (1, 2, 3):
            raise _fail(Reason("age: expected 1, 2 or 3, got {age}", age=age))
        s.age = self.age = age
        s.to_move = self.player(data.get("to_move"), "to_move")
        s.extra = self.get(data, "extra_turn", "", bool, False)
        s.picks = 8  # the draft is over
        s.wonders_unseen = frozenset()
        self._pyramid(s)
        self._military(s)
        s.board = frozenset(self.listed(data, "progress_tokens", "", xtoken_named))
        for t in s.board:
            self.place("token", t, "the board")
        if len(s.board) > 5:
            raise _fail(
                Reason("progress_tokens: at most 5 lie on the board, not {n}", n=len(s.board))
            )
        s.discard = frozenset(self.listed(data, "discard", "", xcard_named))
        for c in s.discard:
            self.place("card", c, "the discard pile")
        players = self.get(data, "players", "", dict)
        self.keys(players, "players.", _TOP["players."])
        cities = [s.cities[0].copy(), s.cities[1].copy()]
        s.cities = cities
        for p, name in enumerate(PLAYER_NAMES):
            self._city(s, p, self.get(players, name, "players.", dict), f"players.{name}.")
        if s.pantheon:
            self._pantheon(s, self.get(data, "pantheon", "", dict))
        elif "pantheon" in data:
            raise _fail(Reason("pantheon: the game is played without Pantheon"))
        if s.agora:
            self._agora(s, self.get(data, "agora", "", dict))
        elif "agora" in data:
            raise _fail(Reason("agora: the game is played without Agora"))
        self._derive(s, phase)
        self._check(s)
        s.cities = tuple(cities)
        s._hash = None
        return s

    def _pyramid(self, s: XState) -> None:
        data = self.data
        layout = structure_of(s.expansions, s.age)
        entries = self.get(data, "pyramid", "", list)
        if len(entries) != layout.slots:
            raise _fail(
                Reason(
                    "pyramid: Age {age} has {slots} slots{value}, got {n}",
                    age=s.age,
                    slots=layout.slots,
                    value=" (with Agora)" if s.agora else "",
                    n=len(entries),
                )
            )
        third = "temple" if s.pantheon else "guild"
        allowed = {UNKNOWN: "age"}
        if s.agora:
            allowed[UNKNOWN + "senator"] = "senator"
        if s.age == 3:
            allowed[UNKNOWN + third] = third
        pyramid: list[int] = []
        backs: list[str | None] = []
        for slot, entry in enumerate(entries):
            field = f"pyramid[{slot}]"
            if entry is None:
                pyramid.append(TAKEN)
                backs.append(None)
            elif isinstance(entry, str) and entry.startswith(UNKNOWN):
                if entry not in allowed:
                    raise _fail(
                        Reason(
                            "{field}: {entry} is not a back of this Age (expected {names})",
                            field=field,
                            entry=repr(entry),
                            names=", ".join(map(repr, allowed)),
                        )
                    )
                pyramid.append(HIDDEN)
                backs.append(allowed[entry])
            else:
                card = self.name(entry, field, xcard_named)
                pool = self._age_pool(s)
                if card not in pool and card not in SENATOR_SET:
                    raise _fail(
                        Reason(
                            "{field}: {card} is not a card of Age {age}",
                            field=field,
                            card=XCARDS[card].name,
                            age=s.age,
                        )
                    )
                if card in SENATOR_SET and not s.agora:
                    raise _fail(
                        Reason(
                            "{field}: {card} is a card of Agora",
                            field=field,
                            card=XCARDS[card].name,
                        )
                    )
                self.place("card", card, f"slot {slot} of the structure")
                pyramid.append(card)
                backs.append(_back_of(s, card))
        s.pyramid = pvector(pyramid)
        if s.agora:
            given = self.get(data, "backs", "", list, None)
            if given is not None:
                if len(given) != layout.slots:
                    raise _fail(
                        Reason(
                            "backs: {slots} entries, one a slot, got {n}",
                            slots=layout.slots,
                            n=len(given),
                        )
                    )
                for slot, kind in enumerate(given):
                    if kind not in _BACK_KINDS:
                        raise _fail(
                            Reason(
                                "backs[{slot}]: expected one of {names}",
                                slot=slot,
                                names=", ".join(_BACK_KINDS),
                            )
                        )
                    if backs[slot] is not None and backs[slot] != kind:
                        raise _fail(
                            Reason(
                                "backs[{slot}]: {kind}, but pyramid[{slot}] shows a {back} card",
                                slot=slot,
                                kind=repr(kind),
                                back=repr(backs[slot]),
                            )
                        )
                backs = list(given)
            filled = _fill_backs(backs, s.age, third)
            expected = _back_counts(s.age, third, layout.slots)
            for kind, count in expected.items():
                if filled.count(kind) != count:
                    raise _fail(
                        Reason(
                            "backs: Age {age}'s structure has {count} {kind} backs, got {value}",
                            age=s.age,
                            count=count,
                            kind=kind,
                            value=filled.count(kind),
                        )
                    )
            s.backs = tuple(filled)
            s.back_slots = sum(1 << i for i, k in enumerate(s.backs) if k in ("guild", "temple"))
        else:
            if "backs" in data:
                raise _fail(
                    Reason("backs: only Agora's structures have several backs (see back_slots)")
                )
            marked = {slot for slot, kind in enumerate(backs) if kind == third}
            given = self.get(data, "back_slots", "", list, None)
            if given is not None:
                if s.age != 3:
                    raise _fail(Reason("back_slots: only Age III has guild or temple backs"))
                slots = set()
                for i, slot in enumerate(given):
                    if type(slot) is not int or not 0 <= slot < layout.slots or slot in slots:
                        raise _fail(
                            Reason(
                                "back_slots[{i}]: expected a distinct slot 0-{value}",
                                i=i,
                                value=layout.slots - 1,
                            )
                        )
                    slots.add(slot)
                missing = sorted(marked - slots)
                if missing:
                    raise _fail(
                        Reason(
                            "back_slots: slot {missing} shows the {third} back",
                            missing=missing[0],
                            third=third,
                        )
                    )
                marked = slots
            if len(marked) > 3:
                raise _fail(
                    Reason("pyramid: {n} {third} backs; Age III has 3", n=len(marked), third=third)
                )
            for slot in marked:
                card = s.pyramid[slot]
                if card >= 0 and _back_of(s, card) != third:
                    raise _fail(
                        Reason(
                            "back_slots: slot {slot} holds {card}, not a {third}",
                            slot=slot,
                            card=XCARDS[card].name,
                            third=third,
                        )
                    )
            for slot, card in enumerate(s.pyramid):
                if card >= 0 and _back_of(s, card) == third and slot not in marked:
                    if given is not None:
                        raise _fail(
                            Reason(
                                "back_slots: slot {slot} holds a {third}; list it",
                                slot=slot,
                                third=third,
                            )
                        )
                    marked.add(slot)
            s.back_slots = sum(1 << slot for slot in marked)

    def _age_pool(self, s: XState) -> frozenset[int]:
        pool = frozenset(bits(AGE_DECK[s.age]))
        if s.age == 3:
            pool |= TEMPLE_SET if s.pantheon else GUILD_SET
        return pool

    def _military(self, s: XState) -> None:
        military = self.get(self.data, "military", "", dict, {})
        self.keys(military, "military.", _TOP["military."])
        s.pawn = self.number(military, "pawn", "military.", -8, 8, 0)
        tokens = self.get(military, "tokens", "military.", list, list(MILITARY_TOKEN_NAMES))
        mask = 0
        for i, name in enumerate(tokens):
            if name not in MILITARY_TOKEN_NAMES or mask >> MILITARY_TOKEN_NAMES.index(name) & 1:
                raise _fail(
                    Reason(
                        "military.tokens[{i}]: expected a distinct one of {names}, got {value}",
                        i=i,
                        names=", ".join(MILITARY_TOKEN_NAMES),
                        value=json.dumps(name)[:40],
                    )
                )
            mask |= 1 << MILITARY_TOKEN_NAMES.index(name)
        s.military = mask & ALL_MILITARY
        if "minerva" in military and not s.pantheon:
            raise _fail(Reason("military.minerva: Minerva's pawn is Pantheon's"))
        s.minerva = self.get(military, "minerva", "military.", int, None)
        if s.minerva is not None and not -9 <= s.minerva <= 9:
            raise _fail(
                Reason("military.minerva: expected -9 to 9, got {minerva}", minerva=s.minerva)
            )

    def _city(self, s: XState, p: int, obj: dict, path: str) -> None:
        self.keys(obj, path, _TOP["players.X."])
        who = PLAYER_NAMES[p]
        city = s.cities[p]
        city.coins = self.number(obj, "coins", path, 0, 999)
        city.cards = frozenset(self.listed(obj, "city", path, xcard_named))
        for c in city.cards:
            self.place("card", c, f"{who}'s city")
        city.wonders = tuple(self.listed(obj, "wonders", path, xwonder_named))
        built = self.listed(obj, "built_wonders", path, xwonder_named)
        under = self.listed(obj, "wonder_cards", path, xcard_named)
        if len(under) != len(built):
            raise _fail(
                Reason(
                    "{path}wonder_cards: one card under each built Wonder: {n} built, {n2} cards",
                    path=path,
                    n=len(built),
                    n2=len(under),
                )
            )
        city.built = tuple(zip(built, under, strict=True))
        pool = wonder_pool(s.expansions)
        for w in (*city.wonders, *built):
            if w not in pool:
                raise _fail(
                    Reason(
                        "{path}: {wonder} is not a Wonder of this game",
                        path=path,
                        wonder=XWONDERS[w].name,
                    )
                )
            self.place("wonder", w, f"{who}'s Wonders")
        for c in under:
            self.place("card", c, f"under {who}'s Wonders")
        city.tokens = frozenset(self.listed(obj, "progress_tokens", path, xtoken_named))
        for t in city.tokens:
            self.place("token", t, f"{who}'s tokens")
        pantheon_only = ("astarte", "mythology_tokens", "offering_tokens", "divinities", "nisaba")
        if not s.pantheon:
            for key in pantheon_only:
                if key in obj:
                    raise _fail(
                        Reason(
                            "{path}{key}: Pantheon's; the game is played without it",
                            path=path,
                            key=key,
                        )
                    )
        else:
            city.astarte = self.number(obj, "astarte", path, 0, 99, 0)
            myths = self.get(obj, "mythology_tokens", path, list, [])
            city.mythology = tuple(
                self.name(m, f"{path}mythology_tokens[{i}]", mythology_named)
                for i, m in enumerate(myths)
            )
            offerings = self.get(obj, "offering_tokens", path, list, [])
            for i, value in enumerate(offerings):
                if type(value) is not int or value not in OFFERINGS:
                    raise _fail(
                        Reason(
                            "{path}offering_tokens[{i}]: expected one of {OFFERINGS}",
                            path=path,
                            i=i,
                            OFFERINGS=_OFFERINGS_SAID,
                        )
                    )
            city.offerings = tuple(sorted(offerings))
            divinities = self.get(obj, "divinities", path, list, [])
            names = []
            for i, name in enumerate(divinities):
                if name == GATE:
                    names.append(GATE)
                    continue
                d = self.name(name, f"{path}divinities[{i}]", divinity_named).name
                self.place("divinity", d, f"{who}'s Divinities")
                names.append(d)
            city.divinities = tuple(names)
            snake = obj.get("nisaba")
            city.snake = None if snake is None else self.name(snake, f"{path}nisaba", xcard_named)
            if city.snake is not None and "Nisaba" not in city.divinities:
                raise _fail(
                    Reason("{path}nisaba: {who} has not activated Nisaba", path=path, who=who)
                )
            if city.snake is not None and not XCARDS[city.snake].science:
                raise _fail(Reason("{path}nisaba: the Snake lies on a green card", path=path))
        if not s.agora:
            for key in ("conspiracies", "treason_seen"):
                if key in obj:
                    raise _fail(
                        Reason(
                            "{path}{key}: Agora's; the game is played without it",
                            path=path,
                            key=key,
                        )
                    )
            return
        plots = []
        for i, entry in enumerate(self.get(obj, "conspiracies", path, list, [])):
            field = f"{path}conspiracies[{i}]"
            if not isinstance(entry, dict):
                raise _fail(
                    Reason("{field}: expected an object with name, prepared, used", field=field)
                )
            self.keys(entry, f"{field}.", frozenset({"name", "prepared", "fresh", "used", "card"}))
            raw = self.get(entry, "name", f"{field}.", str)
            name = None if raw == UNKNOWN else self.name(raw, f"{field}.name", conspiracy_named)
            prepared = self.get(entry, "prepared", f"{field}.", bool, False)
            used = self.get(entry, "used", f"{field}.", bool, False)
            card_name = entry.get("card")
            card = None if card_name is None else self.name(card_name, f"{field}.card", xcard_named)
            if card is not None:
                if not prepared:
                    raise _fail(
                        Reason(
                            "{field}.card: only a prepared Conspiracy has a card under it",
                            field=field,
                        )
                    )
                self.place("card", card, f"under {who}'s Conspiracy")
            if name is None and (used or s.observer in (None, p)):
                raise _fail(
                    Reason(
                        '{field}.name: "?" only for the opponent\'s Conspiracy not yet triggered',
                        field=field,
                    )
                )
            if name is not None and not used and s.observer == 1 - p:
                raise _fail(
                    Reason(
                        "{field}.name: {player} cannot know {who}'s Conspiracy before it is"
                        ' triggered: write "?"',
                        field=field,
                        player=PLAYER_NAMES[s.observer],
                        who=who,
                    )
                )
            if name is not None:
                self.place("plot", name, f"{who}'s hand")
            fresh = self.get(entry, "fresh", f"{field}.", bool, False)
            plots.append(Plot(name, prepared=prepared, fresh=fresh, used=used, card=card))
        city.plots = tuple(plots)
        city.removed_seen = frozenset(self.listed(obj, "treason_seen", path, xcard_named))
        for c in city.removed_seen:
            if not AGE_DECK[s.age] >> c & 1 or ("card", c) in self.places:
                raise _fail(
                    Reason(
                        "{path}treason_seen: {card} is not a card removed at this Age's setup",
                        path=path,
                        card=XCARDS[c].name,
                    )
                )
        if city.removed_seen and s.observer == 1 - p:
            raise _fail(
                Reason(
                    "{path}treason_seen: what Treason showed {who} is {who}'s to know",
                    path=path,
                    who=who,
                )
            )

    def _pantheon(self, s: XState, obj: dict) -> None:
        self.keys(obj, "pantheon.", _TOP["pantheon."])
        raw_spaces = self.get(obj, "spaces", "pantheon.", list)
        if len(raw_spaces) != SPACES:
            raise _fail(
                Reason(
                    "pantheon.spaces: {SPACES} spaces, got {n}", SPACES=SPACES, n=len(raw_spaces)
                )
            )
        spaces: list[Space | None] = []
        for i, entry in enumerate(raw_spaces):
            field = f"pantheon.spaces[{i}]"
            if entry is None:
                spaces.append(None)
            elif entry == GATE:
                spaces.append(Space(GATE, None, -1, True))
            elif isinstance(entry, dict):
                self.keys(
                    entry, f"{field}.", frozenset({"divinity", "mythology", "owner", "face_up"})
                )
                myth = self.name(
                    self.get(entry, "mythology", f"{field}.", str),
                    f"{field}.mythology",
                    mythology_named,
                )
                owner = self.player(entry.get("owner"), f"{field}.owner")
                face_up = self.get(entry, "face_up", f"{field}.", bool, s.age >= 2)
                raw = self.get(entry, "divinity", f"{field}.", str)
                if raw == UNKNOWN:
                    if face_up or s.observer in (None, owner):
                        raise _fail(
                            Reason(
                                '{field}.divinity: "?" only for the opponent\'s face-down Divinity',
                                field=field,
                            )
                        )
                    divinity = None
                else:
                    divinity = self.name(raw, f"{field}.divinity", divinity_named).name
                    if not face_up and s.observer == 1 - owner:
                        raise _fail(
                            Reason(
                                "{field}.divinity: {player} cannot know the Divinity the opponent"
                                ' seated face down: write "?"',
                                field=field,
                                player=PLAYER_NAMES[s.observer],
                            )
                        )
                    if DIVINITY[divinity].mythology != myth:
                        raise _fail(
                            Reason(
                                "{field}: {divinity} is not of the {myth} Mythology",
                                field=field,
                                divinity=divinity,
                                myth=myth,
                            )
                        )
                    self.place("divinity", divinity, f"space {i + 1}")
                if not face_up and s.age >= 2:
                    raise _fail(
                        Reason(
                            "{field}.face_up: the Divinities turn face up at Age II", field=field
                        )
                    )
                spaces.append(Space(divinity, myth, owner, face_up))
            else:
                raise _fail(Reason('{field}: expected null, "Gate" or an object', field=field))
        s.spaces = tuple(spaces)
        decks = self.get(obj, "decks", "pantheon.", dict)
        self.keys(decks, "pantheon.decks.", frozenset(MYTHOLOGIES))
        sizes, tops = [], []
        for m in MYTHOLOGIES:
            field = f"pantheon.decks.{m}."
            deck = self.get(decks, m, "pantheon.decks.", dict)
            self.keys(deck, field, frozenset({"size", "top"}))
            size = self.number(deck, "size", field, 0, len(BY_MYTHOLOGY[m]))
            top = []
            for i, entry in enumerate(self.get(deck, "top", field, list, [])):
                where = f"{field}top[{i}]"
                card = self.deck_card(s, entry, where, "divinity", _divinity_name, f"the {m} deck")
                if card.divinity is not None and DIVINITY[card.divinity].mythology != m:
                    raise _fail(
                        Reason(
                            "{where}: {divinity} is not of the {m} Mythology",
                            where=where,
                            divinity=card.divinity,
                            m=m,
                        )
                    )
                top.append(card)
            if len(top) > size:
                raise _fail(
                    Reason(
                        "{field}top: {n} known cards on a deck of {size}",
                        field=field,
                        n=len(top),
                        size=size,
                    )
                )
            sizes.append(size)
            tops.append(tuple(top))
        s.deck_size = tuple(sizes)
        s.deck_tops = tuple(tops)
        layout = structure_of(s.expansions, s.age)
        s.mythology_on = pmap(
            self._slot_map(
                obj, "mythology_tokens", layout.slots, lambda v, f: self.name(v, f, mythology_named)
            )
        )
        s.offering_on = pmap(self._slot_map(obj, "offering_tokens", layout.slots, self._offering))
        s.enki_tokens = frozenset(self.listed(obj, "enki", "pantheon.", xtoken_named))
        for t in s.enki_tokens:
            self.place("token", t, "Enki")

    def _offering(self, value: Any, field: str) -> int:
        if type(value) is not int or value not in OFFERINGS:
            raise _fail(
                Reason(
                    "{field}: expected one of {OFFERINGS}", field=field, OFFERINGS=_OFFERINGS_SAID
                )
            )
        return value

    def _slot_map(self, obj: dict, key: str, slots: int, read) -> dict[int, Any]:
        raw = self.get(obj, key, "pantheon.", dict, {})
        out = {}
        for text, value in raw.items():
            field = f"pantheon.{key}.{text}"
            if not (text.isascii() and text.isdigit()) or not 0 <= int(text) < slots:
                raise _fail(
                    Reason(
                        "{field}: a key is a slot number 0-{value}", field=field, value=slots - 1
                    )
                )
            out[int(text)] = read(value, field)
        return out

    def _agora(self, s: XState, obj: dict) -> None:
        self.keys(obj, "agora.", _TOP["agora."])
        senate = self.get(obj, "senate", "agora.", list)
        if len(senate) != len(CHAMBERS):
            raise _fail(
                Reason("agora.senate: {n} Chambers, got {n2}", n=len(CHAMBERS), n2=len(senate))
            )
        pairs = []
        for i, pair in enumerate(senate):
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or any(type(n) is not int or n < 0 for n in pair)
            ):
                raise _fail(Reason("agora.senate[{i}]: expected [A's cubes, B's cubes]", i=i))
            pairs.append(tuple(pair))
        s.senate = tuple(pairs)
        decrees = self.get(obj, "decrees", "agora.", list)
        if len(decrees) != len(CHAMBERS):
            raise _fail(
                Reason("agora.decrees: {n} Chambers, got {n2}", n=len(CHAMBERS), n2=len(decrees))
            )
        chambers, seen = [], set()
        for i, entries in enumerate(decrees):
            if not isinstance(entries, list):
                raise _fail(Reason("agora.decrees[{i}]: expected a list of Decrees", i=i))
            row: list[tuple[str | None, bool]] = []
            for j, name in enumerate(entries):
                if name == UNKNOWN:
                    row.append((None, False))
                    continue
                decree = self.name(name, f"agora.decrees[{i}][{j}]", decree_named)
                if decree in seen:
                    raise _fail(
                        Reason(
                            "agora.decrees[{i}][{j}]: {decree} lies in two Chambers",
                            i=i,
                            j=j,
                            decree=decree,
                        )
                    )
                seen.add(decree)
                row.append((decree, True))
            chambers.append(tuple(row))
        s.decrees = tuple(chambers)
        entries = [entry for row in chambers for entry in row]
        if len(entries) != 6 or sum(1 for _, up in entries if up) < 3:
            raise _fail(
                Reason(
                    "agora.decrees: six Decrees lie in the Senate, three of them face up at least"
                    " (got {n}, {value} face up)",
                    n=len(entries),
                    value=sum(1 for _, up in entries if up),
                )
            )
        deck = self.get(obj, "conspiracy_deck", "agora.", dict)
        field = "agora.conspiracy_deck."
        self.keys(deck, field, frozenset({"size", "top", "bottom"}))
        s.plot_size = self.number(deck, "size", field, 0, len(CONSPIRACIES))
        ends = []
        for key in ("top", "bottom"):
            cards = []
            for i, entry in enumerate(self.get(deck, key, field, list, [])):
                where = f"{field}{key}[{i}]"
                cards.append(
                    self.deck_card(s, entry, where, "name", conspiracy_named, "the Conspiracy deck")
                )
            ends.append(tuple(cards))
        s.plot_top, s.plot_bottom = ends
        if len(s.plot_top) + len(s.plot_bottom) > s.plot_size:
            raise _fail(
                Reason(
                    "{field}size: {plot_size} cards, fewer than the known ones",
                    field=field,
                    plot_size=s.plot_size,
                )
            )
        s.removed = frozenset(self.listed(obj, "removed", "agora.", xcard_named))
        for c in s.removed:
            self.place("card", c, "the cards removed at setup")
        now = obj.get("removed_now")
        if now is not None:
            dealt = self.listed(obj, "removed_now", "agora.", xcard_named)
            for c in dealt:
                self.place("card", c, "the cards Treason dealt")
            s.removed_now = tuple(dealt)
        s.removed_by = self.optional_player(obj.get("removed_by"), "agora.removed_by")
        if s.removed_now is not None and s.observer not in (None, s.removed_by):
            raise _fail(
                Reason("agora.removed_now: the cards Treason dealt are their viewer's to know")
            )
        s.locked = frozenset(self.listed(obj, "locked_tokens", "agora.", xtoken_named))
        for t in s.locked:
            self.place("token", t, "the locked tokens")
        s.triggered = self.get(obj, "triggered", "agora.", bool, False)

    # --- what the rules derive --------------------------------------------------------------------
    def _derive(self, s: XState, phase: str) -> None:
        layout = structure_of(s.expansions, s.age)
        present = sum(1 << slot for slot, c in enumerate(s.pyramid) if c != TAKEN)
        accessible = sum(
            1 << slot
            for slot in range(layout.slots)
            if present >> slot & 1 and not any(present >> c & 1 for c in layout.covered_by[slot])
        )
        s.present, s.accessible = present, accessible
        s.reveal = sum(1 << slot for slot in bits(accessible) if s.pyramid[slot] == HIDDEN)
        if s.reveal and phase == "choose_starter":
            raise _fail(Reason("phase: choose_starter, but an uncovered card is still face down"))
        if not s.reveal and phase == "reveal":
            raise _fail(Reason("phase: reveal, but no uncovered card is face down"))
        s.phase = "reveal" if s.reveal else phase
        if not present:
            raise _fail(Reason("pyramid: every slot is empty; the Age would be over"))
        seen = {item for kind, item in self.places if kind == "card"}
        pool = self._age_pool(s)
        s.unseen = frozenset(c for c in pool if c not in seen or c in (s.removed_now or ()))
        s.senators_seen = frozenset(c for c in SENATOR_IDS if c in seen) if s.agora else frozenset()
        for p in (0, 1):
            s.cities[p].science = science_symbols(s, p)

    def _check(self, s: XState) -> None:
        layout = structure_of(s.expansions, s.age)
        for p in (0, 1):
            if len(s.cities[p].science) >= SCIENCE_VICTORY_SYMBOLS:
                raise _fail(
                    Reason(
                        "players.{player}.city: {n} science symbols; the game would be over",
                        player=PLAYER_NAMES[p],
                        n=len(s.cities[p].science),
                    )
                )
        built = sum(len(c.built) for c in s.cities)
        if built > MAX_WONDERS_BUILT:
            raise _fail(
                Reason(
                    "built_wonders: {built} built; at most {MAX_WONDERS_BUILT}",
                    built=built,
                    MAX_WONDERS_BUILT=MAX_WONDERS_BUILT,
                )
            )
        if not s.agora:
            taken = sum(1 for c in s.pyramid if c == TAKEN)
            pool = self._age_pool(s)
            elsewhere = sum(
                1 for kind, item in self.places if kind == "card" and item in pool
            ) - sum(1 for c in s.pyramid if c >= 0)
            if taken != elsewhere:
                raise _fail(
                    Reason(
                        "pyramid: {taken} empty slots, but {elsewhere} cards of Age {age} lie in"
                        " the cities, the discard pile and under Wonders",
                        taken=taken,
                        elsewhere=elsewhere,
                        age=s.age,
                    )
                )
        for p in (0, 1):
            snake = s.cities[p].snake
            if snake is not None and snake not in s.cities[1 - p].cards:
                raise _fail(
                    Reason(
                        "players.{player}.nisaba: the Snake lies on a card of {player2}'s city",
                        player=PLAYER_NAMES[p],
                        player2=PLAYER_NAMES[1 - p],
                    )
                )
        self._check_supplies(s, layout)
        if s.phase == "choose_starter" and s.present != (1 << layout.slots) - 1:
            raise _fail(
                Reason("phase: choose_starter is before the first card of the Age is taken")
            )
        if s.phase != "reveal" and not s.legal_moves():
            raise _fail(
                Reason(
                    "no legal move for {player} ({position})",
                    player=PLAYER_NAMES[s.to_move],
                    position=s.describe(),
                )
            )
        if s.phase == "reveal" and not s.chance_outcomes():
            raise _fail(Reason("pyramid: a face-down card to turn over, and no card it can be"))

    def _check_supplies(self, s: XState, layout) -> None:
        """Counts the box limits: each face-down card, Divinity and Conspiracy the rules may
        turn over must have a card it can be."""
        hidden = [slot for slot, c in enumerate(s.pyramid) if c == HIDDEN]
        kinds = [s.backs[slot] if s.agora else _hidden_back(s, slot) or "age" for slot in hidden]
        unseen_age = [c for c in s.unseen if c not in GUILD_SET | TEMPLE_SET]
        supply = {
            "age": len(unseen_age) - len(s.removed_now or ()),
            "guild": len(s.unseen & GUILD_SET),
            "temple": len(s.unseen & TEMPLE_SET),
            "senator": len([c for c in SENATOR_IDS if c not in s.senators_seen]),
        }
        later = sum(SENATORS_PER_AGE[a] for a in range(s.age + 1, 4)) if s.agora else 0
        if s.agora and kinds.count("senator") + later > supply["senator"]:
            raise _fail(
                Reason(
                    "pyramid: {value} face-down Senators and {later} to come in later Ages, but"
                    " only {supply} Senators are left unseen",
                    value=kinds.count("senator"),
                    later=later,
                    supply=supply["senator"],
                )
            )
        if s.agora and s.removed_now is None and s.removed_by is None:
            removed = len(bits(AGE_DECK[s.age])) - s.backs.count("age")
            if kinds.count("age") + removed > supply["age"]:
                raise _fail(
                    Reason(
                        "pyramid: {value} face-down cards and {removed} removed at setup, but"
                        " only {supply} cards of Age {age} are left unseen",
                        value=kinds.count("age"),
                        removed=removed,
                        supply=supply["age"],
                        age=s.age,
                    )
                )
        for kind in set(kinds):
            if kinds.count(kind) > supply[kind]:
                raise _fail(
                    Reason(
                        "pyramid: {value} face-down {kind} cards, but only {value2} {kind} cards"
                        " are left unseen",
                        value=kinds.count(kind),
                        kind=kind,
                        value2=max(0, supply[kind]),
                    )
                )
        for p in (0, 1):
            if sum(pair[p] for pair in s.senate) > CUBES:
                raise _fail(
                    Reason(
                        "agora.senate: {player} has {CUBES} cubes in all",
                        player=PLAYER_NAMES[p],
                        CUBES=CUBES,
                    )
                )
            if s.agora and all(controller(s.senate, c) == p for c in range(1, 7)):
                raise _fail(
                    Reason(
                        "agora.senate: {player} controls every Chamber; the game would be over"
                        " (political supremacy)",
                        player=PLAYER_NAMES[p],
                    )
                )
        for bit, (name, side, distance) in enumerate(
            (("A2", -1, 3), ("A5", -1, 6), ("B2", 1, 3), ("B5", 1, 6))
        ):
            if s.military >> bit & 1 and s.pawn * side >= distance:
                raise _fail(
                    Reason(
                        "military.tokens: the pawn at {pawn} has passed {name}",
                        pawn=s.pawn,
                        name=name,
                    )
                )
        if s.minerva is not None and s.minerva == s.pawn:
            raise _fail(
                Reason("military.minerva: Minerva's pawn and the Conflict pawn share a space")
            )
        if s.agora:
            hands = sum(len(c.plots) for c in s.cities)
            if s.plot_size + hands > len(CONSPIRACIES):
                raise _fail(
                    Reason(
                        "agora.conspiracy_deck.size: {plot_size} in the deck and {hands} in hand;"
                        " there are {n}",
                        plot_size=s.plot_size,
                        hands=hands,
                        n=len(CONSPIRACIES),
                    )
                )
            known = len(s.plot_top) + len(s.plot_bottom)
            if s.plot_size - known > len(unaccounted_plots(s)):
                raise _fail(Reason("agora.conspiracy_deck.size: more cards than Conspiracies left"))
        if not s.pantheon:
            return
        for i, m in enumerate(MYTHOLOGIES):
            seated = sum(1 for sp in s.spaces if sp is not None and sp.mythology == m)
            blind = sum(
                1 for sp in s.spaces if sp is not None and sp.mythology == m and sp.divinity is None
            )
            active = sum(1 for c in s.cities for d in c.divinities if d in BY_MYTHOLOGY[m])
            if seated + active + s.deck_size[i] > len(BY_MYTHOLOGY[m]):
                raise _fail(
                    Reason(
                        "pantheon.decks.{m}.size: {deck_size} in the deck, {seated} seated and"
                        " {active} activated; the {m} Mythology has {n}",
                        m=m,
                        deck_size=s.deck_size[i],
                        seated=seated,
                        active=active,
                        n=len(BY_MYTHOLOGY[m]),
                    )
                )
            named = sum(1 for c in s.deck_tops[i] if c.divinity is not None)
            unknown = s.deck_size[i] - named + blind  # what the draws and flips may turn up
            if unknown > len(s.unaccounted(m)):
                raise _fail(
                    Reason("pantheon.decks.{m}: more unknown cards than {m} Divinities left", m=m)
                )
        gates = sum(1 for sp in s.spaces if sp is not None and sp.divinity == GATE) + sum(
            c.divinities.count(GATE) for c in s.cities
        )
        if gates > (0 if s.age == 1 else 1):
            raise _fail(
                Reason("pantheon.spaces: {gates} Gates in Age {age}", gates=gates, age=s.age)
            )
        mythology_slots, offering_slots = token_slots(s.expansions)
        for slot in s.mythology_on:
            if s.age != 1 or slot not in mythology_slots or not s.present >> slot & 1:
                raise _fail(
                    Reason(
                        "pantheon.mythology_tokens.{slot}: Mythology tokens lie on Age I's cards"
                        " of slots {names} until taken",
                        slot=slot,
                        names=", ".join(map(str, mythology_slots)),
                    )
                )
        for slot in s.offering_on:
            if s.age != 2 or slot not in offering_slots or not s.present >> slot & 1:
                raise _fail(
                    Reason(
                        "pantheon.offering_tokens.{slot}: Offering tokens lie on Age II's cards"
                        " of slots {names} until taken",
                        slot=slot,
                        names=", ".join(map(str, offering_slots)),
                    )
                )
        if s.age == 1 and len(s.mythology_on) > s.spaces.count(None):
            raise _fail(
                Reason(
                    "pantheon.mythology_tokens: {n} tokens to take, but {value} empty spaces to"
                    " seat their Divinities",
                    n=len(s.mythology_on),
                    value=s.spaces.count(None),
                )
            )
        placed = list(s.mythology_on.values()) + [m for c in s.cities for m in c.mythology]
        for m in MYTHOLOGIES:
            if placed.count(m) > MYTHOLOGY_TOKENS_PER_KIND:
                raise _fail(
                    Reason(
                        "pantheon.mythology_tokens: {value} {m} tokens; there are"
                        " {MYTHOLOGY_TOKENS_PER_KIND}",
                        value=placed.count(m),
                        m=m,
                        MYTHOLOGY_TOKENS_PER_KIND=MYTHOLOGY_TOKENS_PER_KIND,
                    )
                )
        values = list(s.offering_on.values()) + [v for c in s.cities for v in c.offerings]
        for v in set(values):
            if values.count(v) > 1:
                raise _fail(
                    Reason("pantheon.offering_tokens: the Offering token {v} in two places", v=v)
                )


#: The Offering tokens' values as a message lists them (a Reason's list is of words).
_OFFERINGS_SAID = tuple(map(str, OFFERINGS))
_TABLES: dict[str, Sequence[Any]] = {"card": XCARDS, "token": XTOKENS, "wonder": XWONDERS}


def _back_counts(age: int, third: str, slots: int) -> dict[str, int]:
    """How many slots of an Agora structure show each back."""
    counts = {"senator": SENATORS_PER_AGE[age], third: 3 if age == 3 else 0}
    counts["age"] = slots - sum(counts.values())
    return counts


def _fill_backs(backs: list[str | None], age: int, third: str) -> list[str]:
    """The backs of the taken slots (``None``), which the table no longer shows: the kinds the
    structure still lacks, in slot order (any order gives the same game from here)."""
    expected = _back_counts(age, third, len(backs))
    missing = [k for k, n in expected.items() for _ in range(max(0, n - backs.count(k)))]
    return [kind if kind is not None else (missing.pop(0) if missing else "age") for kind in backs]


def _divinity_name(text: str) -> str:
    return divinity_named(text).name


def _card_age(card: int) -> int:
    """The Age a card is dealt in (Guilds and Grand Temples: III; Senators: any, 0)."""
    return 3 if card in GUILD_SET or card in TEMPLE_SET else XCARDS[card].age


def _back_of(s: XState, card: int) -> str:
    if card in SENATOR_SET:
        return "senator"
    if card in TEMPLE_SET:
        return "temple"
    if card in GUILD_SET:
        return "guild"
    return "age"
