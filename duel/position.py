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

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, cast

from pyrsistent import pvector

from duel import state as s
from duel.catalog import (
    AGE_DECK,
    ALL_WONDERS,
    CARDS,
    GUILDS,
    SCIENCE_SYMBOLS,
    T_LAW,
    T_STRATEGY,
    T_THEOLOGY,
    TOKENS,
    WONDERS,
    UnknownNameError,
    bits,
    card_named,
    token_named,
    wonder_named,
)
from duel.files import parse_json, read_json_file, write_atomically
from duel.json_reader import JsonReader
from duel.moves import PLAYER_NAMES
from duel.pyramid_layouts import LAYOUTS, SLOTS
from duel.quote import quoted, shortened
from duel.reason import Reason, reason_of

FORMAT = "7wd-position"
VERSION = 1
FACE_DOWN = "?"
#: A face-down Age III card with the guild back (guilds have their own back, so it is public).
FACE_DOWN_GUILD = "?guild"
_PHASES = {name: i for i, name in enumerate(s.PHASE_NAMES)}
_SUB_CHOICES = {s.CHOOSE_TOKEN, s.LIBRARY_DRAW, s.LIBRARY_CHOOSE, s.DESTROY, s.MAUSOLEUM}
_MILITARY_NAMES = ("A2", "A5", "B2", "B5")


class PositionError(ValueError):
    """A malformed or inconsistent position; the message names the field and the problem."""


# --- writing ------------------------------------------------------------------------------------
def position_to_json(state: s.State) -> dict[str, Any]:
    """The position as a JSON-ready dict (the inverse of :func:`position_from_json`)."""
    f = state.fields

    def names(ids: Iterable[int], table: Sequence[Any]) -> list[str]:
        return [table[i].name for i in ids]

    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "phase": s.PHASE_NAMES[f[s.PHASE]],
        "age": f[s.AGE],
        "to_move": PLAYER_NAMES[f[s.TO_MOVE]],
        "pyramid": [
            None
            if c == s.TAKEN
            else (FACE_DOWN_GUILD if f[s.GUILD_SLOTS] >> slot & 1 else FACE_DOWN)
            if c == s.HIDDEN
            else CARDS[c].name
            for slot, c in enumerate(f[s.PYRAMID])
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
    if f[s.GUILD_SLOTS] & ~f[s.PRESENT]:
        # A taken slot's back is not on the table any more: name all three slots so that the
        # position reloads exactly (a hand-written file may leave this out). Kept next to the
        # pyramid for the reader.
        items = list(out.items())
        at = [k for k, _ in items].index("pyramid") + 1
        out = dict(items[:at] + [("guild_slots", bits(f[s.GUILD_SLOTS]))] + items[at:])
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


def load_position(path: str | Path) -> s.State:
    """Read a position file; raises :class:`PositionError` with a precise message."""
    return _with_source(read_json_file(path, PositionError), str(path))


def loads_position(text: str, *, source: str = "position") -> s.State:
    return _with_source(parse_json(text, source, PositionError), source)


def _with_source(data: Any, source: str) -> s.State:
    try:
        return position_from_json(data)
    except PositionError as error:
        raise PositionError(
            Reason("{source}: {error}", source=source, error=reason_of(error))
        ) from None


#: The reader of every field of a position: errors are :class:`PositionError`\ s naming the field.
_READ = JsonReader(PositionError)


def _mask(ids: list[int]) -> int:
    return sum(1 << i for i in ids)


def _card_id(name: str) -> int:
    return card_named(name).id


def position_from_json(data: Any, *, strict: bool = True) -> s.State:
    """Build and validate a state from the JSON position format.

    Every position is checked for consistency (names, places, fields) and for playability
    (:func:`check_playable`: a decision has a legal move, the engine can play on from it).
    ``strict`` (the default, used by every program) also requires that the position can arise
    in a game (:func:`check_reachable`); rule tests that set up a partial table pass
    ``strict=False``. Errors are :class:`PositionError` naming the field and the problem.
    """
    try:
        state = _build(data)
        check_playable(state)
        if strict:
            check_reachable(state)
    except RecursionError:
        raise PositionError(Reason("nested too deeply to be a position")) from None
    return state


class _Table:
    """What is read so far: the state's fields and where each card, wonder and token lies (a
    second place is an error naming both)."""

    def __init__(self, age: int, to_move: int) -> None:
        self.age = age
        self.fields = s._initial_fields()
        self.fields[s.AGE] = age
        self.fields[s.TO_MOVE] = to_move
        self.card_places: dict[int, str] = {}
        self.owned_wonders: dict[int, str] = {}  # wonder -> the field that lists it
        self.owned_tokens: dict[int, str] = {}  # token -> its owner
        self.guild_backs = 0  # pyramid slots written "?guild"

    def place(self, ids: list[int], where: str) -> None:
        for c in ids:
            if c in self.card_places:
                raise PositionError(
                    Reason(
                        "{card} is in two places: {value} and {where}",
                        card=CARDS[c].name,
                        value=self.card_places[c],
                        where=where,
                    )
                )
            self.card_places[c] = where

    def seen_in_age(self, card: int) -> bool:
        """Whether ``card`` can be on the table by this Age (guilds come with Age III)."""
        return CARDS[card].age <= max(self.age, 0) or (self.age == 3 and CARDS[card].age == 4)


def _build(data: Any) -> s.State:
    """The state a position describes, with the per-field consistency checks, read section by
    section in the order the errors are reported."""
    _READ.obj(data, Reason("a position is a JSON object"))
    check_known_keys(data)
    table = _read_header(data)
    _read_pyramid(data, table)
    for p, name in enumerate(PLAYER_NAMES):
        _read_player(data, table, p, name)
    _check_wonders_built(table.fields)
    _read_discard_and_board(data, table)
    _read_military(data, table.fields)
    phase = _read_phase(data, table)
    _read_pending_choice(data, table.fields, phase)
    _read_result(data, table.fields, phase)
    return s.State(pvector(table.fields))


def _read_header(data: dict[str, Any]) -> _Table:
    """The format, version, Age and player to move."""
    get = _READ.get
    fmt = get(data, "format", "", str, FORMAT)
    if fmt != FORMAT:
        raise PositionError(
            Reason("format: expected {FORMAT}, got {value}", FORMAT=repr(FORMAT), value=quoted(fmt))
        )
    version = get(data, "version", "", int, VERSION)
    if version != VERSION:
        raise PositionError(
            Reason(
                "version: this program reads version {VERSION}, not {version}",
                VERSION=VERSION,
                version=version,
            )
        )
    age = get(data, "age", "", int)
    if not 0 <= age <= 3:
        raise PositionError(Reason("age: must be 0 (setup) to 3, got {age}", age=age))
    return _Table(age, _READ.player(get(data, "to_move", "", str, "A"), "to_move"))


def _read_pyramid(data: dict[str, Any], table: _Table) -> None:
    """The 20 slots: a card, face down ("?", "?guild") or taken (null)."""
    age = table.age
    pyramid_raw = _READ.get(data, "pyramid", "", list, [FACE_DOWN] * SLOTS if age else [])
    if age == 0:
        if any(v != FACE_DOWN for v in pyramid_raw):
            raise PositionError(Reason("pyramid: no card is laid out before Age I (age 0)"))
        table.fields[s.PYRAMID] = pvector([s.HIDDEN] * SLOTS)
        return
    if len(pyramid_raw) != SLOTS:
        raise PositionError(Reason("pyramid: expected 20 slots, got {n}", n=len(pyramid_raw)))
    table.fields[s.PYRAMID] = pvector(
        _pyramid_slot(table, slot, value) for slot, value in enumerate(pyramid_raw)
    )


def _pyramid_slot(table: _Table, slot: int, value: Any) -> int:
    age = table.age
    if value is None:
        return s.TAKEN
    if value == FACE_DOWN:
        return s.HIDDEN
    if isinstance(value, str) and value.strip().lower() == FACE_DOWN_GUILD:
        if age != 3:
            raise PositionError(
                Reason(
                    'pyramid[{slot}]: "{back}" (a face-down guild) is only in Age III',
                    slot=slot,
                    back=FACE_DOWN_GUILD,
                )
            )
        table.guild_backs |= 1 << slot
        return s.HIDDEN
    if not isinstance(value, str):
        raise PositionError(
            Reason(
                'pyramid[{slot}]: expected a card name, "?", "{back}" or null, got {value}',
                slot=slot,
                back=FACE_DOWN_GUILD,
                value=shortened(json.dumps(value)),
            )
        )
    try:
        card = card_named(value)
    except UnknownNameError as error:
        raise PositionError(
            Reason("pyramid[{slot}]: {error}", slot=slot, error=reason_of(error))
        ) from None
    if card.age not in ((3, 4) if age == 3 else (age,)):
        raise PositionError(
            Reason(
                "pyramid[{slot}]: {name} is not an Age {age} card",
                slot=slot,
                name=card.name,
                age=age,
            )
        )
    table.place([card.id], f"pyramid slot {slot}")
    return card.id


def _read_player(data: dict[str, Any], table: _Table, p: int, name: str) -> None:
    """A player's coins, city, cards under wonders, wonders and progress tokens."""
    players = _READ.get(data, "players", "", dict)
    if name not in players:
        raise PositionError(Reason("players.{name}: missing", name=name))
    obj = players[name]
    if not isinstance(obj, dict):
        raise PositionError(Reason("players.{name}: expected an object", name=name))
    path = f"players.{name}."
    coins = _READ.get(obj, "coins", path, int)
    if coins < 0:
        raise PositionError(
            Reason("{path}coins: cannot be negative ({coins})", path=path, coins=coins)
        )

    def listed(key: str, lookup: Callable[[str], int]) -> list[int]:
        return _READ.names(_READ.get(obj, key, path, list, []), path + key, lookup)

    city = listed("city", _card_id)
    under = listed("wonder_cards", _card_id)
    wonders = listed("wonders", wonder_named)
    built = listed("built_wonders", wonder_named)
    tokens = listed("progress_tokens", token_named)
    table.place(city, f"{name}'s city")
    table.place(under, f"under {name}'s wonders")
    for c in under:
        if not table.seen_in_age(c):
            raise PositionError(
                Reason(
                    "{path}wonder_cards: {card} cannot be used before its Age",
                    path=path,
                    card=CARDS[c].name,
                )
            )
    _own_wonders(table, path, wonders, built, len(under))
    _own_tokens(table, path, name, tokens)
    f, b = table.fields, s.BASE[p]
    f[b + s.COINS] = coins
    f[b + s.CITY] = _mask(city)
    f[b + s.UNDER] = _mask(under)
    f[b + s.WONDERS_OWNED] = _mask(wonders)
    f[b + s.BUILT] = _mask(built)
    f[b + s.TOKENS_HELD] = _mask(tokens)
    f[b + s.SCIENCE], f[b + s.CHAINS], f[b + s.ECON] = _derived_city(city, built, tokens)
    for c in city:
        if not table.seen_in_age(c):
            raise PositionError(
                Reason(
                    "{path}city: {card} cannot be built before its Age",
                    path=path,
                    card=CARDS[c].name,
                )
            )


def _own_wonders(
    table: _Table, path: str, wonders: list[int], built: list[int], under: int
) -> None:
    """A player's unbuilt and built wonders: owned once, at most 4, a card under each built."""
    for w, where in [(w, "wonders") for w in wonders] + [(w, "built_wonders") for w in built]:
        if w in table.owned_wonders:
            raise PositionError(
                Reason(
                    "{path}{where}: {wonder} is also in {value}",
                    path=path,
                    where=where,
                    wonder=WONDERS[w].name,
                    value=table.owned_wonders[w],
                )
            )
        table.owned_wonders[w] = f"{path}{where}"
    if len(wonders) + len(built) > 4:
        raise PositionError(Reason("{path}wonders: a player has at most 4 wonders", path=path))
    if under > len(built):
        raise PositionError(
            Reason(
                "{path}wonder_cards: {cards} cards under {built} built wonders",
                path=path,
                cards=under,
                built=len(built),
            )
        )


def _own_tokens(table: _Table, path: str, name: str, tokens: list[int]) -> None:
    for t in tokens:
        if t in table.owned_tokens:
            raise PositionError(
                Reason(
                    "{path}progress_tokens: {token} is also owned by {value}",
                    path=path,
                    token=TOKENS[t].name,
                    value=table.owned_tokens[t],
                )
            )
        table.owned_tokens[t] = name


def _check_wonders_built(fields: list[Any]) -> None:
    built_a, built_b = (cast(int, fields[s.BASE[p] + s.BUILT]) for p in (0, 1))
    built_total = (built_a | built_b).bit_count()
    if built_total > s.MAX_WONDERS_BUILT:
        raise PositionError(
            Reason(
                "built_wonders: {built_total} wonders built; at most 7 can be",
                built_total=built_total,
            )
        )
    if built_total == s.MAX_WONDERS_BUILT and any(fields[b + s.WONDERS_OWNED] for b in s.BASE):
        raise PositionError(
            Reason("wonders: 7 wonders are built, so the last unbuilt wonder has left the game")
        )


def _read_discard_and_board(data: dict[str, Any], table: _Table) -> None:
    """The discard pile and the progress tokens on the board."""
    get = _READ.get
    discard = _READ.names(get(data, "discard", "", list, []), "discard", _card_id)
    table.place(discard, "the discard pile")
    for i, c in enumerate(discard):
        if CARDS[c].age > table.age and not (table.age == 3 and CARDS[c].age == 4):
            raise PositionError(
                Reason(
                    "discard[{i}]: {card} cannot be played before its Age", i=i, card=CARDS[c].name
                )
            )
    table.fields[s.DISCARD] = _mask(discard)
    board = _READ.names(get(data, "progress_tokens", "", list, []), "progress_tokens", token_named)
    for t in board:
        if t in table.owned_tokens:
            raise PositionError(
                Reason(
                    "progress_tokens: {token} is on the board and owned by {value}",
                    token=TOKENS[t].name,
                    value=table.owned_tokens[t],
                )
            )
    if len(board) > s.BOARD_TOKEN_COUNT:
        raise PositionError(
            Reason("progress_tokens: at most 5 on the board, got {n}", n=len(board))
        )
    table.fields[s.BOARD] = _mask(board)


def _read_military(data: dict[str, Any], fields: list[Any]) -> None:
    """The conflict pawn and the looting tokens still on the track."""
    get = _READ.get
    military = get(data, "military", "", dict, {"pawn": 0, "tokens": list(_MILITARY_NAMES)})
    pawn = get(military, "pawn", "military.", int, 0)
    if not -9 <= pawn <= 9:
        raise PositionError(
            Reason("military.pawn: must be between -9 and 9, got {pawn}", pawn=pawn)
        )
    if abs(pawn) == 9 and get(data, "phase", "", str, "") != "game_over":
        raise PositionError(
            Reason(
                "military.pawn: a pawn in a capital is a military victory (phase must be game_over)"
            )
        )
    loot = get(military, "tokens", "military.", list, list(_MILITARY_NAMES))
    loot_bits = 0
    for i, name in enumerate(loot):
        if name not in _MILITARY_NAMES:
            raise PositionError(
                Reason(
                    "military.tokens[{i}]: expected one of A2, A5, B2, B5, got {value}",
                    i=i,
                    value=shortened(json.dumps(name)),
                )
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
                Reason(
                    "military.tokens: {name} would have been taken when the pawn reached {pawn}",
                    name=name,
                    pawn=pawn,
                )
            )
    fields[s.PAWN] = pawn
    fields[s.MILITARY] = loot_bits


def _read_phase(data: dict[str, Any], table: _Table) -> int:
    """The phase as written, then as the table implies it (a reveal pending, a starter to
    choose, the guilds to deal), with the wonder draft's offer."""
    fields, age = table.fields, table.age
    phase_name = _READ.get(data, "phase", "", str, "play" if age else "setup_tokens")
    if phase_name not in _PHASES:
        raise PositionError(
            Reason(
                "phase: unknown phase {value}; expected one of {phases}",
                value=quoted(phase_name),
                phases=", ".join(s.PHASE_NAMES),
            )
        )
    phase = _PHASES[phase_name]
    _read_wonder_offer(data, table, phase, phase_name)
    guild_slots = _READ.get(data, "guild_slots", "", list, None)
    if age:
        _derive_pyramid(fields, age, table.card_places)
        if fields[s.REVEAL] and phase == s.PLAY:
            phase = s.REVEAL_CARDS
        if phase == s.REVEAL_CARDS and not fields[s.REVEAL]:
            # the last reveal of a new Age II/III structure leads to the choice of its starter
            laid_out = fields[s.PRESENT] == s._ALL_SLOTS and age > 1
            phase = s.CHOOSE_STARTER if laid_out else s.PLAY
    if age == 3:
        phase = _derive_guild_slots(fields, phase, table.guild_backs, guild_slots)
    elif phase == s.DEAL_GUILDS:
        raise PositionError(
            Reason("phase: deal_guilds happens when Age III is laid out (age must be 3)")
        )
    elif guild_slots is not None:
        raise PositionError(Reason("guild_slots: only in Age III"))
    fields[s.PHASE] = phase
    return phase


def _read_wonder_offer(data: dict[str, Any], table: _Table, phase: int, phase_name: str) -> None:
    """The wonders on offer (only in the draft) and the setup's unseen wonders and picks."""
    fields, age = table.fields, table.age
    offer = _READ.names(_READ.get(data, "wonder_offer", "", list, []), "wonder_offer", wonder_named)
    for w in offer:
        if w in table.owned_wonders:
            raise PositionError(
                Reason("wonder_offer: {wonder} is already owned", wonder=WONDERS[w].name)
            )
    fields[s.OFFER] = _mask(offer)
    owned_count = len(table.owned_wonders)
    if phase in (s.SETUP_TOKENS, s.SETUP_WONDERS, s.DRAFT):
        if age:
            raise PositionError(
                Reason(
                    "phase: {phase_name} happens before Age I (age must be 0)",
                    phase_name=phase_name,
                )
            )
        fields[s.WONDERS_UNSEEN] = ALL_WONDERS & ~_mask(offer) & ~_mask(list(table.owned_wonders))
        fields[s.PICKS] = owned_count
        if phase == s.DRAFT:
            if len(offer) < 2:
                raise PositionError(
                    Reason("wonder_offer: the draft needs at least 2 wonders on offer")
                )
            fields[s.TO_MOVE] = s.DRAFT_ORDER[owned_count]
    else:
        fields[s.WONDERS_UNSEEN] = 0
        fields[s.PICKS] = 8 if age else owned_count
        if offer:
            raise PositionError(Reason("wonder_offer: only during the wonder draft"))
        if age == 0:
            raise PositionError(
                Reason("phase: {phase_name} needs an Age (1-3)", phase_name=phase_name)
            )


def _read_pending_choice(data: dict[str, Any], fields: list[Any], phase: int) -> None:
    """What a wonder's or token's effect left to choose: a Play Again, the Great Library's
    tokens, the colour to destroy, the starter of a complete structure."""
    get = _READ.get
    extra = get(data, "extra_turn", "", bool, False)
    if extra and phase not in _SUB_CHOICES:
        raise PositionError(
            Reason(
                "extra_turn: a pending Play Again only exists while a wonder's effect is resolved"
            )
        )
    fields[s.EXTRA] = int(extra)
    library = _READ.names(get(data, "library_offer", "", list, []), "library_offer", token_named)
    if (phase == s.LIBRARY_CHOOSE) != bool(library):
        raise PositionError(
            Reason("library_offer: needed exactly when the phase is library_choose")
        )
    if phase == s.LIBRARY_CHOOSE and len(library) > 3:
        raise PositionError(Reason("library_offer: The Great Library draws at most 3 tokens"))
    fields[s.LIBRARY] = _mask(library)
    destroying = get(data, "destroying", "", str, "")
    if (phase == s.DESTROY) != bool(destroying):
        raise PositionError(
            Reason("destroying: needed exactly when the phase is destroy ('brown'/'grey')")
        )
    if destroying:
        if destroying not in ("brown", "grey"):
            raise PositionError(
                Reason(
                    "destroying: expected 'brown' or 'grey', got {value}", value=quoted(destroying)
                )
            )
        fields[s.DESTROYING] = s.BROWN if destroying == "brown" else s.GREY
    if phase == s.CHOOSE_STARTER:
        _check_laid_out(fields, fields[s.AGE])


def _read_result(data: dict[str, Any], fields: list[Any], phase: int) -> None:
    """The winner and kind of victory of a finished game (and of no other)."""
    if phase != s.GAME_OVER:
        if "result" in data:
            raise PositionError(
                Reason("result: only a finished game (phase game_over) has a result")
            )
        return
    result = _READ.get(data, "result", "", dict)
    winner = _READ.get(result, "winner", "result.", (str, type(None)), None)
    fields[s.WINNER] = s.SHARED if winner is None else _READ.player(winner, "result.winner")
    victory = result.get("victory")
    if not isinstance(victory, str) or victory not in s.VICTORY_NAMES[1:]:
        raise PositionError(
            Reason(
                "result.victory: expected military, science or civilian, got {value}",
                value=quoted(victory),
            )
        )
    fields[s.VICTORY] = s.VICTORY_NAMES.index(victory)


def _derive_guild_slots(
    fields: list[Any], phase: int, guild_backs: int, listed: list[Any] | None
) -> int:
    """Set GUILD_SLOTS of an Age III position; returns the phase (``deal_guilds`` when the
    structure is laid out and nothing says where the guilds are).

    Exactly 3 of the 20 Age III cards are guilds: those face up, those face down with the guild
    back (``"?guild"``) and those already taken (in a city, the discard pile or under a wonder)
    must number 3. A file without any ``"?guild"`` still loads when the guild backs follow from
    the rest: no guild left face down (every ``"?"`` is an Age III back), or as many guilds left
    face down as ``"?"`` slots.
    """
    pyramid = fields[s.PYRAMID]
    present = fields[s.PRESENT]
    hidden = sum(1 << slot for slot in range(SLOTS) if pyramid[slot] == s.HIDDEN)
    face_up_guilds = sum(
        1 << slot for slot in range(SLOTS) if pyramid[slot] >= 0 and GUILDS >> pyramid[slot] & 1
    )
    face_up_ages = present & ~hidden & ~face_up_guilds
    seen_guilds = (GUILDS & ~fields[s.UNSEEN]).bit_count()
    taken_guilds = seen_guilds - face_up_guilds.bit_count()
    down_guilds = 3 - seen_guilds  # guilds still face down (never negative: checked before)
    where = Reason(
        "Age III has 3 guilds: {up} face up, {taken} taken, so {down} face down",
        up=face_up_guilds.bit_count(),
        taken=taken_guilds,
        down=down_guilds,
    )
    untouched = hidden == s._ALL_SLOTS
    if phase == s.DEAL_GUILDS:
        if not untouched or guild_backs or listed is not None:
            raise PositionError(
                Reason(
                    'phase: deal_guilds is the moment Age III is laid out: every slot "?" and no '
                    '"{back}" yet',
                    back=FACE_DOWN_GUILD,
                )
            )
        return phase
    if listed is not None:
        slots = _guild_slot_list(listed)
        for slot in bits(face_up_guilds & ~slots):
            raise PositionError(
                Reason(
                    "guild_slots: slot {slot} holds {card}, a guild: list it",
                    slot=slot,
                    card=CARDS[pyramid[slot]].name,
                )
            )
        for slot in bits(face_up_ages & slots):
            raise PositionError(
                Reason(
                    "guild_slots: slot {slot} holds {card}, not a guild",
                    slot=slot,
                    card=CARDS[pyramid[slot]].name,
                )
            )
        for slot in bits(guild_backs & ~slots):
            raise PositionError(
                Reason(
                    'pyramid[{slot}]: "{back}" but slot {slot} is not in guild_slots',
                    slot=slot,
                    back=FACE_DOWN_GUILD,
                )
            )
        # And the other way: a listed slot still face down shows the guild back.
        for slot in bits(slots & hidden & ~guild_backs):
            raise PositionError(
                Reason(
                    'pyramid[{slot}]: "?" but slot {slot} is in guild_slots: a face-down guild is '
                    'written "{back}"',
                    slot=slot,
                    back=FACE_DOWN_GUILD,
                )
            )
        if (slots & hidden).bit_count() != down_guilds:
            raise PositionError(
                Reason(
                    "guild_slots: {n} of the listed slots are face down; {where}",
                    n=(slots & hidden).bit_count(),
                    where=where,
                )
            )
        fields[s.GUILD_SLOTS] = slots
        return phase
    if guild_backs:
        if guild_backs.bit_count() != down_guilds:
            raise PositionError(
                Reason(
                    'pyramid: {n} slots are "{back}"; {where}',
                    n=guild_backs.bit_count(),
                    back=FACE_DOWN_GUILD,
                    where=where,
                )
            )
    elif untouched and phase in (s.PLAY, s.REVEAL_CARDS):
        return s.DEAL_GUILDS  # just laid out: the guild backs are the next chance event
    elif down_guilds == hidden.bit_count():
        guild_backs = hidden
    elif down_guilds:
        raise PositionError(
            Reason(
                "pyramid: the face-down cards (slots {slots}) hide {down_guilds} of the 3 guilds, "
                'whose backs are visible: write "{back}" for each face-down guild ("?" '
                "for an Age III back)",
                slots=", ".join(map(str, bits(hidden))),
                down_guilds=down_guilds,
                back=FACE_DOWN_GUILD,
            )
        )
    fields[s.GUILD_SLOTS] = guild_backs | face_up_guilds
    return phase


def _check_laid_out(fields: list[Any], age: int) -> None:
    """``choose_starter`` comes once the new Age's structure is laid out: nothing taken, every
    face-up card turned over (and in Age III the guild backs dealt, which the pyramid shows)."""
    if age < 2:
        raise PositionError(
            Reason(
                "phase: choose_starter comes once Age II or III is laid out (age 2 or 3); A "
                "begins Age I"
            )
        )
    if fields[s.PRESENT] != s._ALL_SLOTS:
        raise PositionError(
            Reason(
                "phase: choose_starter comes when the new Age's structure is laid out, before any "
                "card is taken (the pyramid has no null)"
            )
        )
    if fields[s.REVEAL]:
        slots = ", ".join(map(str, bits(fields[s.REVEAL])))
        raise PositionError(
            Reason(
                "phase: choose_starter comes once the new structure's face-up cards are turned "
                'over (slots {slots} are "?"; name the cards, or make the phase reveal)',
                slots=slots,
            )
        )


def _guild_slot_list(listed: list[Any]) -> int:
    slots = 0
    for i, slot in enumerate(listed):
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < SLOTS:
            raise PositionError(
                Reason(
                    "guild_slots[{i}]: expected a slot number 0-19, got {value}",
                    i=i,
                    value=quoted(slot),
                )
            )
        slots |= 1 << slot
    if len(listed) != 3 or slots.bit_count() != 3:
        raise PositionError(
            Reason("guild_slots: expected 3 different slots, got {listed}", listed=listed)
        )
    return slots


#: The keys a position may have, by where they stand (``players.X`` is one entry for A and B).
KNOWN_KEYS: dict[str, frozenset[str]] = {
    "": frozenset(
        {"format", "version", "comment", "phase", "age", "to_move", "pyramid", "military"}
        | {"progress_tokens", "discard", "players", "wonder_offer", "extra_turn"}
        | {"library_offer", "destroying", "result", "guild_slots"}
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
    _READ.keys(data, "", KNOWN_KEYS[""])
    for name in ("military", "result"):
        if isinstance(data.get(name), dict):
            _READ.keys(data[name], f"{name}.", KNOWN_KEYS[f"{name}."])
    players = data.get("players")
    if isinstance(players, dict):
        _READ.keys(players, "players.", KNOWN_KEYS["players."])
        for name, obj in players.items():
            if isinstance(obj, dict):
                _READ.keys(obj, f"players.{name}.", KNOWN_KEYS["players.X."])


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


def _derive_pyramid(fields: list[Any], age: int, card_places: dict[int, str]) -> None:
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
                Reason(
                    "pyramid[{slot}]: taken, but the cards covering it (slots {value}) are still "
                    "there",
                    slot=slot,
                    value=", ".join(map(str, blockers)),
                )
            )
    for slot in range(SLOTS):
        card = pyramid[slot]
        if card >= 0 and not layout.face_up[slot] and not accessible >> slot & 1:
            raise PositionError(
                Reason(
                    'pyramid[{slot}]: this slot is face down until uncovered; write "?" instead '
                    "of {card}",
                    slot=slot,
                    card=CARDS[card].name,
                )
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
            Reason(
                "pyramid: {taken} slots are empty but {value} {age_name} cards are accounted for "
                "in the cities, the discard pile and under wonders (list the card used for each "
                "wonder in 'wonder_cards')",
                taken=taken,
                value=outside.bit_count(),
                age_name=age_name,
            )
        )
    if age == 3:
        guilds_seen = (seen_this_age & GUILDS).bit_count()
        if guilds_seen > 3:
            raise PositionError(
                Reason(
                    "only 3 guilds are in Age III, but {guilds_seen} are on the table",
                    guilds_seen=guilds_seen,
                )
            )
        ages_seen = (seen_this_age & AGE_DECK[3]).bit_count()
        if ages_seen > 17:
            raise PositionError(
                Reason(
                    "only 17 Age III cards are dealt, but {ages_seen} are seen", ages_seen=ages_seen
                )
            )
    elif seen_this_age.bit_count() > 20:
        raise PositionError(Reason("more than 20 cards of this Age are on the table"))
    fields[s.PRESENT] = present
    fields[s.ACCESSIBLE] = accessible
    fields[s.REVEAL] = reveal
    fields[s.UNSEEN] = deck & ~seen_this_age


# --- what a game can reach ------------------------------------------------------------------------
# Two layers, kept apart from the field parsing above: ``check_playable`` (every position: the
# engine can play on from it) and ``check_reachable`` (strict loading: the table can arise in a
# game). Each check is listed in docs/position-format.md.


def _max_total_coins() -> int:
    """An upper bound on the coins of both players together in any game.

    14 at the start, plus everything the game can ever pay out: 60 discards at 2 coins plus
    one per yellow card, every card's coin effect at its largest, the wonders' and tokens'
    coins, Urbanism's 4 coins for each chain. Coins only pass between players otherwise.
    """
    yellow = sum(1 for c in CARDS if c.color == "yellow")
    colour_counts = {colour: sum(1 for c in CARDS if c.color == colour) for colour in s.COLOR_MASK}
    colour_counts["wonder"] = s.MAX_WONDERS_BUILT
    colour_counts["coins_div3"] = 0

    def largest(effect: tuple[tuple[str, ...], int] | None) -> int:
        return 0 if effect is None else effect[1] * sum(colour_counts[k] for k in effect[0])

    cards = sum(c.coins + largest(c.coins_per) + largest(c.coins_per_max) for c in CARDS)
    return (
        2 * s.START_COINS
        + 60 * (2 + yellow)
        + cards
        + sum(w.coins for w in WONDERS)
        + sum(t.coins for t in TOKENS)
        + 4 * 60
    )


MAX_TOTAL_COINS = _max_total_coins()
_DESTROYER = {s.BROWN: "destroy_brown", s.GREY: "destroy_grey"}


def _built_effect(state: s.State, player: int, effect: str) -> bool:
    """Whether ``player`` built a wonder with ``effect`` (library, mausoleum, destroy_*)."""
    for w in state.built_wonders(player):
        spec = WONDERS[w]
        if (
            (effect == "library" and spec.library)
            or (effect == "mausoleum" and spec.mausoleum)
            or (effect == f"destroy_{spec.destroy}")
        ):
            return True
    return False


def check_playable(state: s.State) -> None:
    """Raise :class:`PositionError` unless the engine can play on from ``state``.

    A decision has at least one legal move, a chance node at least one outcome; The Great
    Library's offer is three tokens from the box (not on the board, not owned); the wonder draft
    has as many wonders on offer as its round leaves; coins are within what a game can hold.

    >>> from duel import new_game
    >>> check_playable(new_game())
    """
    f = state.fields
    phase = f[s.PHASE]
    owned_tokens = f[s.BASE[0] + s.TOKENS_HELD] | f[s.BASE[1] + s.TOKENS_HELD]
    for p in (0, 1):
        if state.coins(p) > MAX_TOTAL_COINS:
            raise PositionError(
                Reason(
                    "players.{player}.coins: {coins} is more than a game can hold (at most "
                    "{most} for both players together)",
                    player=PLAYER_NAMES[p],
                    coins=state.coins(p),
                    most=MAX_TOTAL_COINS,
                )
            )
    if state.coins(0) + state.coins(1) > MAX_TOTAL_COINS:
        raise PositionError(
            Reason(
                "players: {number} coins in all is more than a game can hold ({MAX_TOTAL_COINS})",
                number=state.coins(0) + state.coins(1),
                MAX_TOTAL_COINS=MAX_TOTAL_COINS,
            )
        )
    library = f[s.LIBRARY]
    if library & (f[s.BOARD] | owned_tokens):
        clash = bits(library & (f[s.BOARD] | owned_tokens))[0]
        where = Reason("on the board") if f[s.BOARD] >> clash & 1 else Reason("owned")
        raise PositionError(
            Reason(
                "library_offer: {token} is {where}; The Great Library draws from the tokens set "
                "aside at setup",
                token=TOKENS[clash].name,
                where=where,
            )
        )
    if phase == s.LIBRARY_CHOOSE and library.bit_count() != 3:
        raise PositionError(
            Reason(
                "library_offer: The Great Library draws 3 tokens, not {value}",
                value=library.bit_count(),
            )
        )
    if phase == s.DRAFT:
        picks = len(state.wonders(0)) + len(state.wonders(1))
        offered = len(state.wonder_offer)
        if picks not in (0, 1, 2, 4, 5, 6) or offered != 4 - picks % 4:
            if picks in (0, 1, 2, 4, 5, 6):
                raise PositionError(
                    Reason(
                        "wonder_offer: with {picks} wonders drafted, the draft offers {n} "
                        "wonders, not {offered}",
                        picks=picks,
                        n=4 - picks % 4,
                        offered=offered,
                    )
                )
            raise PositionError(
                Reason(
                    "wonder_offer: with {picks} wonders drafted, the draft offers nothing (the "
                    "last wonder of a round of four is given)",
                    picks=picks,
                )
            )
        for p in (0, 1):
            expected = s.DRAFT_ORDER[:picks].count(p)
            if len(state.wonders(p)) != expected:
                raise PositionError(
                    Reason(
                        "players.{value}.wonders: after {picks} picks of the draft {value} has "
                        "{expected} wonders, not {n}",
                        value=PLAYER_NAMES[p],
                        picks=picks,
                        expected=expected,
                        n=len(state.wonders(p)),
                    )
                )
    if phase == s.SETUP_WONDERS:
        picks = len(state.wonders(0)) + len(state.wonders(1))
        if picks not in (0, 4) or len(state.wonder_offer) > 3:
            raise PositionError(
                Reason(
                    "wonder_offer: wonders are revealed four at a time before each round of the "
                    "draft"
                )
            )
    if state.is_terminal():
        return
    if state.is_chance():
        if not state.chance_weights()[0]:
            raise PositionError(
                Reason("phase: {phase} has nothing left to deal", phase=state.phase)
            )
        return
    if state.legal_moves():
        return
    reason = {
        s.PLAY: "play: the structure of the Age is empty",
        s.CHOOSE_TOKEN: "choose_token: no progress token is left on the board",
        s.DESTROY: "destroy: the opponent has no card of that colour",
        s.MAUSOLEUM: "mausoleum: the discard pile is empty",
    }.get(phase, f"{state.phase}: nothing can be chosen")
    raise PositionError(Reason("phase: {reason}, so there is no legal move", reason=reason))


def _science_pairs(state: s.State, player: int) -> int:
    """How many times ``player`` matched a scientific symbol (each match offers a token)."""
    count = [0] * len(SCIENCE_SYMBOLS)
    for c in state.city(player):
        symbol = CARDS[c].science
        if symbol:
            count[SCIENCE_SYMBOLS.index(symbol)] += 1
    if T_LAW in state.tokens(player):
        count[SCIENCE_SYMBOLS.index("law")] += 1
    return sum(max(0, n - 1) for n in count)


def _shields(state: s.State, player: int) -> tuple[int, int]:
    """Shields of ``player``'s red cards and wonders, and the most Strategy can have added."""
    cards = state.city(player)
    shields = sum(CARDS[c].shields for c in cards)
    shields += sum(WONDERS[w].shields for w in state.built_wonders(player))
    bonus = 0
    if T_STRATEGY in state.tokens(player):
        bonus = sum(1 for c in cards if CARDS[c].shields)
    return shields, bonus


def check_reachable(state: s.State) -> None:
    """Raise :class:`PositionError` unless ``state`` can arise in a game.

    The checks (each in docs/position-format.md): the setup and the draft; the wonders of each
    player; every card of a finished Age on the table; the first move of Age I; the progress
    tokens against the science pairs and The Great Library; the pawn and looting tokens against
    the shields; what each special decision needs; the result of a finished game.

    >>> from duel import new_game
    >>> check_reachable(new_game())
    """
    f = state.fields
    age, phase = state.age, f[s.PHASE]
    _check_setup(state)
    if age:
        _check_wonders_in_an_age(state)
        _check_finished_ages(state)
        if f[s.PRESENT] == (1 << SLOTS) - 1 and age == 1 and state.to_move != 0:
            raise PositionError(Reason("to_move: A begins Age I (the first player of the draft)"))
        laying_out = phase in (s.DEAL_GUILDS, s.REVEAL_CARDS, s.CHOOSE_STARTER)
        if f[s.PRESENT] == s._ALL_SLOTS and age > 1 and laying_out:
            # the new structure is laid out before its starter is chosen: until the choice,
            # to_move is the chooser (in play, the chosen starter, who may be anyone)
            _check_starter(state)
    _check_tokens(state)
    _check_military(state)
    _check_special_decision(state)
    _check_result(state)


def _check_setup(state: s.State) -> None:
    f = state.fields
    if state.age:
        return
    for p, name in enumerate(PLAYER_NAMES):
        b = s.BASE[p]
        if f[b + s.CITY] or f[b + s.BUILT] or f[b + s.TOKENS_HELD] or f[b + s.UNDER]:
            raise PositionError(
                Reason(
                    "players.{name}: nothing is built and no progress token is owned before Age I",
                    name=name,
                )
            )
        if state.coins(p) != s.START_COINS:
            raise PositionError(
                Reason("players.{name}.coins: each player has 7 coins before Age I", name=name)
            )
    if f[s.DISCARD]:
        raise PositionError(Reason("discard: no card is discarded before Age I"))
    if f[s.PAWN] or f[s.MILITARY] != s.ALL_MILITARY:
        raise PositionError(
            Reason("military: the pawn is in the centre with all 4 tokens before Age I")
        )
    board = f[s.BOARD].bit_count()
    if f[s.PHASE] == s.SETUP_TOKENS:
        drafted = f[s.BASE[0] + s.WONDERS_OWNED] or f[s.BASE[1] + s.WONDERS_OWNED]
        if board >= s.BOARD_TOKEN_COUNT or drafted:
            raise PositionError(
                Reason("phase: setup_tokens deals the 5 board tokens before any wonder is drafted")
            )
    elif board != s.BOARD_TOKEN_COUNT:
        raise PositionError(
            Reason(
                "progress_tokens: 5 tokens are on the board after setup, not {board}", board=board
            )
        )
    picks = len(state.wonders(0)) + len(state.wonders(1))
    expected = s.DRAFT_ORDER[picks] if picks < 8 else 0
    if f[s.PHASE] == s.SETUP_WONDERS and state.to_move != expected:
        raise PositionError(
            Reason(
                "to_move: {expected} picks next in the draft, not {player}",
                expected=PLAYER_NAMES[expected],
                player=PLAYER_NAMES[state.to_move],
            )
        )


def _check_wonders_in_an_age(state: s.State) -> None:
    if state.wonders_built_count >= s.MAX_WONDERS_BUILT:
        return
    for p, name in enumerate(PLAYER_NAMES):
        count = len(state.wonders(p)) + len(state.built_wonders(p))
        if count != 4:
            raise PositionError(
                Reason(
                    "players.{name}.wonders: each player drafts 4 wonders; {name} has {count} "
                    "(built and not built)",
                    name=name,
                    count=count,
                )
            )
    for p, name in enumerate(PLAYER_NAMES):
        if len(state.cards_under_wonders(p)) != len(state.built_wonders(p)):
            raise PositionError(
                Reason(
                    "players.{name}.wonder_cards: each built wonder has one card under it ({n} "
                    "built, {cards} cards)",
                    name=name,
                    n=len(state.built_wonders(p)),
                    cards=len(state.cards_under_wonders(p)),
                )
            )


def _check_finished_ages(state: s.State) -> None:
    """Each Age before the current one dealt 20 cards, all taken: they are all on the table."""
    on_table = state.fields[s.DISCARD]
    for p in (0, 1):
        on_table |= state.city_mask(p) | _mask(state.cards_under_wonders(p))
    for earlier in range(1, state.age):
        count = (on_table & AGE_DECK[earlier]).bit_count()
        if count != 20:
            raise PositionError(
                Reason(
                    "Age {earlier} dealt 20 cards, all taken before Age {age}, but {count} are "
                    "in the cities, the discard pile and under wonders",
                    earlier="I" * earlier,
                    age="I" * state.age,
                    count=count,
                )
            )


def _check_starter(state: s.State) -> None:
    """While Age II or III is laid out and at ``choose_starter``, ``to_move`` is the chooser."""
    pawn = state.pawn
    if pawn and state.to_move != (1 if pawn > 0 else 0):
        age = "II" if state.age == 2 else "III"
        raise PositionError(
            Reason(
                "to_move: the player the pawn is closer to (the weaker one) chooses who begins "
                "Age {age} once its structure is laid out, so {value}",
                age=age,
                value="B" if pawn > 0 else "A",
            )
        )


def _check_tokens(state: s.State) -> None:
    """Tokens come from the board (a science pair) or from The Great Library's draw."""
    f = state.fields
    if not state.age:
        return
    phase = f[s.PHASE]
    library_pending = phase in (s.LIBRARY_DRAW, s.LIBRARY_CHOOSE)
    library_taken = 0
    for p, name in enumerate(PLAYER_NAMES):
        owned = len(state.tokens(p))
        library = _built_effect(state, p, "library")
        if library and not (library_pending and state.to_move == p):
            library_taken += 1
        pending = 1 if phase == s.CHOOSE_TOKEN and state.to_move == p else 0
        sources = _science_pairs(state, p) + int(library)
        if owned + pending > sources:
            raise PositionError(
                Reason(
                    "players.{player}.progress_tokens: {n} tokens{chosen} but only {sources} ways "
                    "to earn them ({ways})",
                    player=name,
                    n=owned + pending,
                    chosen=Reason(" (with the one being chosen)") if pending else "",
                    sources=sources,
                    ways=Reason("science pairs, The Great Library")
                    if library
                    else Reason("science pairs; The Great Library is not built"),
                )
            )
    board = f[s.BOARD].bit_count()
    owned_all = (f[s.BASE[0] + s.TOKENS_HELD] | f[s.BASE[1] + s.TOKENS_HELD]).bit_count()
    expected = s.BOARD_TOKEN_COUNT + library_taken
    if board + owned_all != expected:
        raise PositionError(
            Reason(
                "progress_tokens: 5 tokens are dealt to the board{library}, so {expected} are on "
                "the board or owned, not {n}",
                library=Reason(" and The Great Library gave one") if library_taken else "",
                expected=expected,
                n=board + owned_all,
            )
        )


def _check_military(state: s.State) -> None:
    pawn = state.pawn
    (a, bonus_a), (b, bonus_b) = _shields(state, 0), _shields(state, 1)
    low, high = a - b - bonus_b, a + bonus_a - b
    capped = state.is_terminal() and state.victory == "military"
    if not (
        low <= pawn <= high or (capped and (pawn == 9 and high >= 9 or pawn == -9 and low <= -9))
    ):
        raise PositionError(
            Reason(
                "military.pawn: {pawn}, but the shields (A {a}, B {b}{strategy}) put it at {at}",
                pawn=pawn,
                a=a,
                b=b,
                strategy=Reason(", with Strategy") if bonus_a or bonus_b else "",
                at=str(low) if low == high else Reason("{low} to {high}", low=low, high=high),
            )
        )
    tokens = state.military_tokens
    for name, reach, beyond in (
        ("B2", a + bonus_a, 3),
        ("B5", a + bonus_a, 6),
        ("A2", b + bonus_b, 3),
        ("A5", b + bonus_b, 6),
    ):
        if name not in tokens and reach < beyond:
            raise PositionError(
                Reason(
                    "military.tokens: {name} is gone, but {value}'s shields never took the pawn "
                    "{beyond} spaces",
                    name=name,
                    value="A" if name[0] == "B" else "B",
                    beyond=beyond,
                )
            )
    for side in "AB":
        if f"{side}5" not in tokens and f"{side}2" in tokens:
            raise PositionError(
                Reason(
                    "military.tokens: {side}5 is gone but {side}2 is not; the pawn passes the "
                    "2-coin zone first",
                    side=side,
                )
            )


def _check_special_decision(state: s.State) -> None:
    f = state.fields
    phase, player = f[s.PHASE], state.to_move
    name = PLAYER_NAMES[player]
    needs = {
        s.DESTROY: _DESTROYER.get(f[s.DESTROYING], ""),
        s.MAUSOLEUM: "mausoleum",
        s.LIBRARY_DRAW: "library",
        s.LIBRARY_CHOOSE: "library",
    }.get(phase)
    if needs and not _built_effect(state, player, needs):
        wonder = next(
            w.name
            for w in WONDERS
            if (needs == "library" and w.library)
            or (needs == "mausoleum" and w.mausoleum)
            or needs == f"destroy_{w.destroy}"
        )
        raise PositionError(
            Reason(
                "phase: {phase} follows {wonder}, which {name} has not built",
                phase=state.phase,
                wonder=wonder,
                name=name,
            )
        )
    if state.extra_turn_pending() and T_THEOLOGY not in state.tokens(player):
        raise PositionError(
            Reason(
                "extra_turn: no wonder with a Play Again leads to this decision; only Theology "
                "gives one here, and {name} does not own it",
                name=name,
            )
        )
    for p, pname in enumerate(PLAYER_NAMES):
        if len(state.science(p)) >= 6 and not state.is_terminal():
            raise PositionError(
                Reason(
                    "players.{pname}.city: 6 different scientific symbols win the game (phase "
                    "must be game_over)",
                    pname=pname,
                )
            )


def _check_result(state: s.State) -> None:
    if not state.is_terminal():
        if state.age == 3 and not state.fields[s.PRESENT] and state.phase == "play":
            raise PositionError(Reason("phase: Age III is over, so the game is (game_over)"))
        return
    f = state.fields
    victory, winner = state.victory, f[s.WINNER]
    if victory == "military":
        if abs(state.pawn) != 9 or winner != (0 if state.pawn > 0 else 1):
            raise PositionError(
                Reason(
                    "result: a military victory puts the pawn in the loser's capital (pawn 9 for "
                    "A, -9 for B), here {pawn}",
                    pawn=state.pawn,
                )
            )
        return
    if abs(state.pawn) == 9:
        raise PositionError(Reason("result: the pawn is in a capital, so the victory is military"))
    if victory == "science":
        if winner not in (0, 1) or len(state.science(winner)) < 6:
            raise PositionError(
                Reason(
                    "result: a scientific victory needs 6 different symbols in the winner's city"
                )
            )
        return
    if any(len(state.science(p)) >= 6 for p in (0, 1)):
        raise PositionError(
            Reason("result: a player has 6 different symbols: a scientific victory")
        )
    if state.age != 3 or f[s.PRESENT]:
        raise PositionError(
            Reason("result: the civilian count comes after the last card of Age III is taken")
        )
    e = f.evolver()
    s._civilian_end(e)
    expected = e.persistent()[s.WINNER]
    if expected != winner:
        names = {0: '"A"', 1: '"B"', s.SHARED: "null (shared)"}
        raise PositionError(
            Reason(
                "result.winner: the civilian count gives {expected}, not {winner}",
                expected=names[expected],
                winner=names[winner],
            )
        )
