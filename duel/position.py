"""JSON positions: write a position from a real game by hand, load it, save it back exactly.

The format is documented in ``docs/position-format.md``. Everything the rules can derive
(production, science symbols, chain symbols, which slots are accessible, which cards nobody has
seen) is derived, so a hand-written file only says what is on the table. Loading checks that the
table is consistent and names the field and the problem when it is not.

>>> from duel import new_game
>>> state = new_game()
>>> position_from_json(position_to_json(state)) == state
True
"""

from __future__ import annotations

import difflib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from pyrsistent import pvector

from duel import state as s
from duel.catalog import (
    AGE_DECK,
    ALL_WONDERS,
    CARDS,
    GUILDS,
    SCIENCE_SYMBOLS,
    T_LAW,
    TOKENS,
    WONDERS,
    UnknownNameError,
    bits,
    card_named,
    token_named,
    wonder_named,
)
from duel.moves import PLAYER_NAMES
from pyramid_layouts import LAYOUTS, SLOTS

FORMAT = "7wd-position"
VERSION = 1
FACE_DOWN = "?"
_PHASES = {name: i for i, name in enumerate(s.PHASE_NAMES)}
_SUB_CHOICES = {s.CHOOSE_TOKEN, s.LIBRARY_DRAW, s.LIBRARY_CHOOSE, s.DESTROY, s.MAUSOLEUM}
_MILITARY_NAMES = ("A2", "A5", "B2", "B5")


class PositionError(ValueError):
    """A malformed or inconsistent position; the message names the field and the problem."""


# --- writing ------------------------------------------------------------------------------------
def position_to_json(state: s.State) -> dict[str, Any]:
    """The position as a JSON-ready dict (the inverse of :func:`position_from_json`)."""
    f = state.fields
    names = lambda ids, table: [table[i].name for i in ids]  # noqa: E731
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "phase": s.PHASE_NAMES[f[s.PHASE]],
        "age": f[s.AGE],
        "to_move": PLAYER_NAMES[f[s.TO_MOVE]],
        "pyramid": [
            None if c == s.TAKEN else FACE_DOWN if c == s.HIDDEN else CARDS[c].name
            for c in f[s.PYRAMID]
        ],
        "military": {"pawn": f[s.PAWN], "tokens": list(state.military_tokens)},
        "progress_tokens": names(bits(f[s.BOARD]), TOKENS),
        "discard": names(bits(f[s.DISCARD]), CARDS),
        "players": {
            PLAYER_NAMES[p]: {
                "coins": state.coins(p),
                "city": names(state.city(p), CARDS),
                "wonders": names(state.wonders(p), WONDERS),
                "built_wonders": names(state.built_wonders(p), WONDERS),
                "wonder_cards": names(state.cards_under_wonders(p), CARDS),
                "progress_tokens": names(state.tokens(p), TOKENS),
            }
            for p in (0, 1)
        },
    }
    if f[s.OFFER] or f[s.PHASE] in (s.SETUP_WONDERS, s.DRAFT):
        out["wonder_offer"] = names(bits(f[s.OFFER]), WONDERS)
    if f[s.EXTRA]:
        out["extra_turn"] = True
    if f[s.LIBRARY]:
        out["library_offer"] = names(bits(f[s.LIBRARY]), TOKENS)
    if f[s.DESTROYING]:
        out["destroying"] = "brown" if f[s.DESTROYING] == s.BROWN else "grey"
    if f[s.PHASE] == s.GAME_OVER:
        winner = f[s.WINNER]
        out["result"] = {
            "winner": None if winner == s.SHARED else PLAYER_NAMES[winner],
            "victory": state.victory,
        }
    return out


def dumps_position(state: s.State) -> str:
    """The position as JSON text, one field per line, lists kept on one line."""
    data = position_to_json(state)
    lines = [json.dumps(data, indent=2, ensure_ascii=False)]
    return _compact_lists(lines[0]) + "\n"


def _compact_lists(text: str) -> str:
    """Put lists of scalars on one line: positions are read and edited by people."""
    out: list[str] = []
    buffer: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if buffer is not None:
            buffer.append(stripped)
            if stripped.startswith("]"):
                head = buffer[0]
                items = " ".join(buffer[1:-1])
                out.append(head + items + stripped)
                buffer = None
            elif stripped.endswith("{") or stripped.endswith("["):
                out.extend(buffer)  # nested structure: keep as is
                buffer = None
            continue
        if stripped.endswith("[") and not stripped.endswith("[["):
            buffer = [line]
            continue
        out.append(line)
    return "\n".join(out)


def save_position(state: s.State, path: str | Path) -> None:
    """Write the position atomically (a temporary file renamed over the target)."""
    write_atomically(Path(path), dumps_position(state))


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that an interruption never leaves a partial file."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)  # a first save into the user data folder
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --- reading ------------------------------------------------------------------------------------
def read_json_file(path: str | Path, error: type[ValueError] = ValueError) -> Any:
    """Parse a JSON file; I/O and syntax problems raise ``error`` with the file and line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as problem:
        raise error(f"{path}: cannot read the file ({problem.strerror})") from None
    return parse_json(text, str(path), error)


def parse_json(text: str, source: str, error: type[ValueError] = ValueError) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as problem:
        raise error(
            f"{source}: not valid JSON (line {problem.lineno}, column {problem.colno}: "
            f"{problem.msg})"
        ) from None


def load_position(path: str | Path) -> s.State:
    """Read a position file; raises :class:`PositionError` with a precise message."""
    return _with_source(read_json_file(path, PositionError), str(path))


def loads_position(text: str, *, source: str = "position") -> s.State:
    return _with_source(parse_json(text, source, PositionError), source)


def _with_source(data: Any, source: str) -> s.State:
    try:
        return position_from_json(data)
    except PositionError as error:
        raise PositionError(f"{source}: {error}") from None


class _Reader:
    """Helpers that read one field and say which field was wrong."""

    def __init__(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise PositionError("a position is a JSON object")
        self.data = data

    @staticmethod
    def get(obj: dict, key: str, path: str, kind: type | tuple, default: Any = ...) -> Any:
        if key not in obj:
            if default is ...:
                raise PositionError(f"{path}{key}: missing")
            return default
        value = obj[key]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            expected = getattr(kind, "__name__", "value")
            expected = {"list": "a list", "dict": "an object", "int": "a whole number"}.get(
                expected, expected
            )
            raise PositionError(f"{path}{key}: expected {expected}, got {json.dumps(value)}")
        return value

    @staticmethod
    def names(values: Any, field: str, lookup) -> list[int]:
        if not isinstance(values, list):
            raise PositionError(f"{field}: expected a list of names")
        ids = []
        for i, value in enumerate(values):
            if not isinstance(value, str):
                raise PositionError(f"{field}[{i}]: expected a name, got {json.dumps(value)}")
            try:
                ids.append(lookup(value))
            except UnknownNameError as error:
                raise PositionError(f"{field}[{i}]: {error}") from None
        seen: set[int] = set()
        for i, item in enumerate(ids):
            if item in seen:
                raise PositionError(f"{field}[{i}]: {values[i]!r} is listed twice")
            seen.add(item)
        return ids


def _mask(ids: list[int]) -> int:
    return sum(1 << i for i in ids)


def position_from_json(data: Any) -> s.State:
    """Build and validate a state from the JSON position format."""
    r = _Reader(data)
    check_known_keys(data)
    get = r.get
    fmt = get(data, "format", "", str, FORMAT)
    if fmt != FORMAT:
        raise PositionError(f"format: expected {FORMAT!r}, got {fmt!r}")
    version = get(data, "version", "", int, VERSION)
    if version != VERSION:
        raise PositionError(f"version: this program reads version {VERSION}, not {version}")
    age = get(data, "age", "", int)
    if not 0 <= age <= 3:
        raise PositionError(f"age: must be 0 (setup) to 3, got {age}")
    to_move = _player(get(data, "to_move", "", str, "A"), "to_move")
    fields = s._initial_fields()
    fields[s.AGE] = age
    fields[s.TO_MOVE] = to_move

    card_places: dict[int, str] = {}

    def place(ids: list[int], where: str) -> None:
        for c in ids:
            if c in card_places:
                raise PositionError(
                    f"{CARDS[c].name} is in two places: {card_places[c]} and {where}"
                )
            card_places[c] = where

    # Pyramid.
    pyramid_raw = get(data, "pyramid", "", list, [FACE_DOWN] * SLOTS if age else [])
    if age == 0:
        if any(v != FACE_DOWN for v in pyramid_raw):
            raise PositionError("pyramid: no card is laid out before Age I (age 0)")
        pyramid = [s.HIDDEN] * SLOTS
    else:
        if len(pyramid_raw) != SLOTS:
            raise PositionError(f"pyramid: expected 20 slots, got {len(pyramid_raw)}")
        pyramid = []
        for slot, value in enumerate(pyramid_raw):
            if value is None:
                pyramid.append(s.TAKEN)
            elif value == FACE_DOWN:
                pyramid.append(s.HIDDEN)
            elif isinstance(value, str):
                try:
                    card = card_named(value)
                except UnknownNameError as error:
                    raise PositionError(f"pyramid[{slot}]: {error}") from None
                allowed = (3, 4) if age == 3 else (age,)
                if card.age not in allowed:
                    raise PositionError(f"pyramid[{slot}]: {card.name} is not an Age {age} card")
                place([card.id], f"pyramid slot {slot}")
                pyramid.append(card.id)
            else:
                raise PositionError(
                    f'pyramid[{slot}]: expected a card name, "?" or null, got {json.dumps(value)}'
                )
    fields[s.PYRAMID] = pvector(pyramid)

    # Players.
    players = get(data, "players", "", dict)
    owned_wonders: dict[int, str] = {}
    owned_tokens: dict[int, str] = {}
    for p, name in enumerate(PLAYER_NAMES):
        if name not in players:
            raise PositionError(f"players.{name}: missing")
        obj = players[name]
        if not isinstance(obj, dict):
            raise PositionError(f"players.{name}: expected an object")
        path = f"players.{name}."
        b = s.BASE[p]
        coins = get(obj, "coins", path, int)
        if coins < 0:
            raise PositionError(f"{path}coins: cannot be negative ({coins})")
        city = r.names(get(obj, "city", path, list, []), path + "city", lambda n: card_named(n).id)
        under = r.names(
            get(obj, "wonder_cards", path, list, []),
            path + "wonder_cards",
            lambda n: card_named(n).id,
        )
        wonders = r.names(get(obj, "wonders", path, list, []), path + "wonders", wonder_named)
        built = r.names(
            get(obj, "built_wonders", path, list, []), path + "built_wonders", wonder_named
        )
        tokens = r.names(
            get(obj, "progress_tokens", path, list, []), path + "progress_tokens", token_named
        )
        place(city, f"{name}'s city")
        place(under, f"under {name}'s wonders")
        for w, where in [(w, "wonders") for w in wonders] + [(w, "built_wonders") for w in built]:
            if w in owned_wonders:
                raise PositionError(
                    f"{path}{where}: {WONDERS[w].name} is also in {owned_wonders[w]}"
                )
            owned_wonders[w] = f"players.{name}.{where}"
        if len(wonders) + len(built) > 4:
            raise PositionError(f"{path}wonders: a player has at most 4 wonders")
        if len(under) > len(built):
            raise PositionError(
                f"{path}wonder_cards: {len(under)} cards under {len(built)} built wonders"
            )
        for t in tokens:
            if t in owned_tokens:
                raise PositionError(
                    f"{path}progress_tokens: {TOKENS[t].name} is also owned by {owned_tokens[t]}"
                )
            owned_tokens[t] = name
        fields[b + s.COINS] = coins
        fields[b + s.CARDS_] = _mask(city)
        fields[b + s.UNDER] = _mask(under)
        fields[b + s.WONDERS_] = _mask(wonders)
        fields[b + s.BUILT] = _mask(built)
        fields[b + s.TOKENS_] = _mask(tokens)
        fields[b + s.SCIENCE], fields[b + s.CHAINS], fields[b + s.ECON] = _derived_city(
            city, built, tokens
        )
        for c in city:
            if CARDS[c].age > max(age, 0) and not (age == 3 and CARDS[c].age == 4):
                raise PositionError(f"{path}city: {CARDS[c].name} cannot be built before its Age")

    built_total = (fields[s.BASE[0] + s.BUILT] | fields[s.BASE[1] + s.BUILT]).bit_count()
    if built_total > s.MAX_WONDERS_BUILT:
        raise PositionError(f"built_wonders: {built_total} wonders built; at most 7 can be")
    if built_total == s.MAX_WONDERS_BUILT and any(fields[b + s.WONDERS_] for b in s.BASE):
        raise PositionError(
            "wonders: 7 wonders are built, so the last unbuilt wonder has left the game"
        )

    discard = r.names(get(data, "discard", "", list, []), "discard", lambda n: card_named(n).id)
    place(discard, "the discard pile")
    for i, c in enumerate(discard):
        if CARDS[c].age > age and not (age == 3 and CARDS[c].age == 4):
            raise PositionError(f"discard[{i}]: {CARDS[c].name} cannot be played before its Age")
    fields[s.DISCARD] = _mask(discard)

    board = r.names(get(data, "progress_tokens", "", list, []), "progress_tokens", token_named)
    for t in board:
        if t in owned_tokens:
            raise PositionError(
                f"progress_tokens: {TOKENS[t].name} is on the board and owned by {owned_tokens[t]}"
            )
    if len(board) > s.BOARD_TOKEN_COUNT:
        raise PositionError(f"progress_tokens: at most 5 on the board, got {len(board)}")
    fields[s.BOARD] = _mask(board)

    # Military.
    military = get(data, "military", "", dict, {"pawn": 0, "tokens": list(_MILITARY_NAMES)})
    pawn = get(military, "pawn", "military.", int, 0)
    if not -9 <= pawn <= 9:
        raise PositionError(f"military.pawn: must be between -9 and 9, got {pawn}")
    if abs(pawn) == 9 and get(data, "phase", "", str, "") != "game_over":
        raise PositionError(
            "military.pawn: a pawn in a capital is a military victory (phase must be game_over)"
        )
    loot = get(military, "tokens", "military.", list, list(_MILITARY_NAMES))
    loot_bits = 0
    for i, name in enumerate(loot):
        if name not in _MILITARY_NAMES:
            raise PositionError(
                f"military.tokens[{i}]: expected one of A2, A5, B2, B5, got {json.dumps(name)}"
            )
        loot_bits |= 1 << _MILITARY_NAMES.index(name)
    for name, bit, beyond in (
        ("B2", 4, pawn >= 3),
        ("B5", 8, pawn >= 6),
        ("A2", 1, pawn <= -3),
        ("A5", 2, pawn <= -6),
    ):
        if beyond and loot_bits & bit:
            raise PositionError(
                f"military.tokens: {name} would have been taken when the pawn reached {pawn}"
            )
    fields[s.PAWN] = pawn
    fields[s.MILITARY] = loot_bits

    # Phase and what depends on it.
    phase_name = get(data, "phase", "", str, "play" if age else "setup_tokens")
    if phase_name not in _PHASES:
        raise PositionError(
            f"phase: unknown phase {phase_name!r}; expected one of {', '.join(s.PHASE_NAMES)}"
        )
    phase = _PHASES[phase_name]
    offer = r.names(get(data, "wonder_offer", "", list, []), "wonder_offer", wonder_named)
    for w in offer:
        if w in owned_wonders:
            raise PositionError(f"wonder_offer: {WONDERS[w].name} is already owned")
    fields[s.OFFER] = _mask(offer)
    owned_count = len(owned_wonders)
    if phase in (s.SETUP_TOKENS, s.SETUP_WONDERS, s.DRAFT):
        if age:
            raise PositionError(f"phase: {phase_name} happens before Age I (age must be 0)")
        fields[s.WONDERS_UNSEEN] = ALL_WONDERS & ~_mask(offer) & ~_mask(list(owned_wonders))
        fields[s.PICKS] = owned_count
        if phase == s.DRAFT:
            if len(offer) < 2:
                raise PositionError("wonder_offer: the draft needs at least 2 wonders on offer")
            fields[s.TO_MOVE] = s.DRAFT_ORDER[owned_count]
    else:
        fields[s.WONDERS_UNSEEN] = 0
        fields[s.PICKS] = 8 if age else owned_count
        if offer:
            raise PositionError("wonder_offer: only during the wonder draft")
        if age == 0:
            raise PositionError(f"phase: {phase_name} needs an Age (1-3)")

    if age:
        _derive_pyramid(fields, age, card_places)
        if fields[s.REVEAL] and phase == s.PLAY:
            phase = s.REVEAL_CARDS
        if phase == s.REVEAL_CARDS and not fields[s.REVEAL]:
            phase = s.PLAY
    fields[s.PHASE] = phase

    extra = get(data, "extra_turn", "", bool, False)
    if extra and phase not in _SUB_CHOICES:
        raise PositionError(
            "extra_turn: a pending Play Again only exists while a wonder's effect is resolved"
        )
    fields[s.EXTRA] = int(extra)
    library = r.names(get(data, "library_offer", "", list, []), "library_offer", token_named)
    if (phase == s.LIBRARY_CHOOSE) != bool(library):
        raise PositionError("library_offer: needed exactly when the phase is library_choose")
    if phase == s.LIBRARY_CHOOSE and len(library) > 3:
        raise PositionError("library_offer: The Great Library draws at most 3 tokens")
    fields[s.LIBRARY] = _mask(library)
    destroying = get(data, "destroying", "", str, "")
    if (phase == s.DESTROY) != bool(destroying):
        raise PositionError("destroying: needed exactly when the phase is destroy ('brown'/'grey')")
    if destroying:
        if destroying not in ("brown", "grey"):
            raise PositionError(f"destroying: expected 'brown' or 'grey', got {destroying!r}")
        fields[s.DESTROYING] = s.BROWN if destroying == "brown" else s.GREY
    if phase == s.CHOOSE_STARTER and fields[s.PRESENT]:
        raise PositionError("phase: choose_starter comes only once the Age's structure is empty")
    if phase == s.GAME_OVER:
        result = get(data, "result", "", dict)
        winner = result.get("winner")
        fields[s.WINNER] = s.SHARED if winner is None else _player(winner, "result.winner")
        victory = result.get("victory")
        if victory not in s.VICTORY_NAMES[1:]:
            raise PositionError(
                f"result.victory: expected military, science or civilian, got {victory!r}"
            )
        fields[s.VICTORY] = s.VICTORY_NAMES.index(victory)
    elif "result" in data:
        raise PositionError("result: only a finished game (phase game_over) has a result")
    return s.State(pvector(fields))


#: The keys a position may have, by where they stand (``players.X`` is one entry for A and B).
KNOWN_KEYS: dict[str, frozenset[str]] = {
    "": frozenset(
        {"format", "version", "comment", "phase", "age", "to_move", "pyramid", "military"}
        | {"progress_tokens", "discard", "players", "wonder_offer", "extra_turn"}
        | {"library_offer", "destroying", "result"}
    ),
    "military.": frozenset({"pawn", "tokens"}),
    "players.": frozenset(PLAYER_NAMES),
    "players.X.": frozenset(
        {"coins", "city", "wonders", "built_wonders", "wonder_cards", "progress_tokens"}
    ),
    "result.": frozenset({"winner", "victory"}),
}


def check_known_keys(data: Any) -> None:
    """Refuse a key the format does not know, suggesting the nearest one: a misspelt key
    (``"coinz"``) would otherwise be ignored silently and its value lost.

    >>> check_known_keys({"age": 1, "players": {"A": {"coinz": 3}}})
    Traceback (most recent call last):
    ...
    duel.position.PositionError: players.A.coinz: unknown key (did you mean 'coins'?)
    """
    if not isinstance(data, dict):
        return  # the reader says what a position must be
    _check_keys(data, "", KNOWN_KEYS[""])
    for name in ("military", "result"):
        if isinstance(data.get(name), dict):
            _check_keys(data[name], f"{name}.", KNOWN_KEYS[f"{name}."])
    players = data.get("players")
    if isinstance(players, dict):
        _check_keys(players, "players.", KNOWN_KEYS["players."])
        for name, obj in players.items():
            if isinstance(obj, dict):
                _check_keys(obj, f"players.{name}.", KNOWN_KEYS["players.X."])


def _check_keys(obj: dict, path: str, known: frozenset[str]) -> None:
    for key in obj:
        if key not in known:
            close = difflib.get_close_matches(str(key), sorted(known), n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}?" if close else f"known: {', '.join(sorted(known))}"
            raise PositionError(f"{path}{key}: unknown key ({hint})")


def _player(value: Any, field: str) -> int:
    if value not in PLAYER_NAMES:
        raise PositionError(f'{field}: expected "A" or "B", got {json.dumps(value)}')
    return PLAYER_NAMES.index(value)


def _derived_city(city: list[int], built: list[int], tokens: list[int]) -> tuple[int, int, int]:
    """Science symbols, chain symbols and packed economy of a city, as the engine keeps them."""
    science = chains = econ = 0
    for c in city:
        science |= s._CARD_SCIENCE[c]
        chains |= s._CARD_CHAIN_GIVES[c]
        econ += s._CARD_ECON[c]
    for w in built:
        econ += s._WONDER_ECON[w]
    if T_LAW in tokens:
        science |= 1 << SCIENCE_SYMBOLS.index("law")
    from duel.catalog import T_ARCHITECTURE, T_MASONRY

    if T_MASONRY in tokens:
        econ |= s.MASONRY_BIT
    if T_ARCHITECTURE in tokens:
        econ |= s.ARCHITECTURE_BIT
    return science, chains, econ


def _derive_pyramid(fields: list, age: int, card_places: dict[int, str]) -> None:
    layout = LAYOUTS[age]
    pyramid = fields[s.PYRAMID]
    present = sum(1 << slot for slot in range(SLOTS) if pyramid[slot] != s.TAKEN)
    covered = layout.covered_by_mask
    accessible = sum(
        1 << slot for slot in range(SLOTS) if present >> slot & 1 and not present & covered[slot]
    )
    for slot in range(SLOTS):
        blockers = [c for c in layout.covered_by[slot] if present >> c & 1]
        if pyramid[slot] == s.TAKEN and blockers:
            raise PositionError(
                f"pyramid[{slot}]: taken, but the cards covering it (slots "
                f"{', '.join(map(str, blockers))}) are still there"
            )
    for slot in range(SLOTS):
        card = pyramid[slot]
        if card >= 0 and not layout.face_up[slot] and not accessible >> slot & 1:
            raise PositionError(
                f'pyramid[{slot}]: this slot is face down until uncovered; write "?" '
                f"instead of {CARDS[card].name}"
            )
    reveal = sum(
        1 << slot
        for slot in range(SLOTS)
        if pyramid[slot] == s.HIDDEN and (accessible >> slot & 1 or layout.face_up[slot])
    )
    deck = AGE_DECK[age] | (GUILDS if age == 3 else 0)
    seen_this_age = _mask([c for c in card_places if deck >> c & 1])
    in_pyramid = _mask([c for c in pyramid if c >= 0])
    outside = seen_this_age & ~in_pyramid
    taken = SLOTS - present.bit_count()
    if outside.bit_count() != taken:
        age_name = {1: "Age I", 2: "Age II", 3: "Age III"}[age]
        raise PositionError(
            f"pyramid: {taken} slots are empty but {outside.bit_count()} {age_name} cards are "
            "accounted for in the cities, the discard pile and under wonders (list the card "
            "used for each wonder in 'wonder_cards')"
        )
    if age == 3:
        guilds_seen = (seen_this_age & GUILDS).bit_count()
        if guilds_seen > 3:
            raise PositionError(f"only 3 guilds are in Age III, but {guilds_seen} are on the table")
        ages_seen = (seen_this_age & AGE_DECK[3]).bit_count()
        if ages_seen > 17:
            raise PositionError(f"only 17 Age III cards are dealt, but {ages_seen} are seen")
    elif seen_this_age.bit_count() > 20:
        raise PositionError("more than 20 cards of this Age are on the table")
    fields[s.PRESENT] = present
    fields[s.ACCESSIBLE] = accessible
    fields[s.REVEAL] = reveal
    fields[s.UNSEEN] = deck & ~seen_this_age
