"""The compiled expansion core: a C mirror of :mod:`duel.expansions`, when it is built.

``duel/csrc/xcore*.c`` re-implements the expansion engine rule for rule on a fixed-size C struct
(``duel._xcore``); this module is its Python face. :class:`CXState` offers the state API of
:class:`duel.expansions.XState` (``legal_moves``, ``apply``, ``is_chance``, ``chance_outcomes``,
``is_terminal``, ``returns``, ``view``...), with moves as :class:`~duel.expansions.XMove`, so that
searching code can use either engine; :func:`to_xstate` and :func:`from_xstate` convert exactly
between the two (the differential test, ``tests/expansions/test_xcore.py``, compares them at every
step). The Python engine stays the reference.

It plays the base game, Pantheon, Agora and both. :func:`new_game` returns a :class:`CXState`
where the compiled core is built, and the Python engine's :class:`~duel.expansions.XState`
otherwise (``DUEL_PURE=1``; no C compiler).

>>> import random
>>> state = new_game(("pantheon",))
>>> while not state.is_terminal():
...     state = state.apply(state.random_move(random.Random(7)), check=False)
>>> state.returns() in ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))
True
"""

from __future__ import annotations

import os
import random
import struct
from collections.abc import Iterable
from fractions import Fraction
from types import ModuleType
from typing import Any

from pyrsistent import pmap, pvector

from duel.catalog import CHAIN_SYMBOLS, SCIENCE_SYMBOLS, bits
from duel.expansions import XMove, XState, new_xgame
from duel.expansions.agora import CONSPIRACIES, DECREES
from duel.expansions.components import (
    DIVINITIES,
    GATE,
    MYTHOLOGIES,
    OFFERINGS,
    XCARDS,
    structure_of,
)
from duel.expansions.moves import OFFERING_ORDERS
from duel.expansions.state import draw_weighted
from duel.expansions.table import (
    EXPANSIONS,
    City,
    DeckCard,
    Plot,
    Space,
    XIllegalMoveError,
    XScore,
)
from duel.moves import GUILD_SLOT_MASKS
from duel.pyramid_layouts import SLOTS
from duel.state import _CARD_ECON, _WONDER_ECON

PURE_ENV = "DUEL_PURE"
#: The expansions the compiled core plays (the base game is ``()``).
COMPILED: frozenset[tuple[str, ...]] = frozenset(
    {(), ("pantheon",), ("agora",), ("agora", "pantheon")}
)


def _load() -> ModuleType | None:
    if os.environ.get(PURE_ENV, "").strip().lower() in ("1", "true", "yes"):
        return None
    try:
        import duel._xcore as _xcore
    except ImportError:
        return None
    return _xcore


#: ``duel._xcore`` (a C module: untyped), or None on the pure path.
xcore: Any = _load()
#: True when the compiled expansion core is built and not disabled.
AVAILABLE: bool = xcore is not None

_EXPANSION_BIT = {"pantheon": 1, "agora": 2}
_BACKS = (None, "senator", "age", "guild", "temple")
_STEPS = (None, "decree", "place", "evict", "move", "senate", "conspirator", "conspire", "steal",
          "destroy", "lock", "fraud", "treason", "espionage", "discard_any", "take", "coercion",
          "insider", "sabotage", "curia", "pair", "supremacy", "coins", "shields")  # fmt: skip
_SECTIONS = ("left", "middle", "right")
_COINS = ("blackmail", "embezzlement")
_CONTINUATIONS = (None, "finish", "play", "resume")
_VICTORIES = ("", "military", "science", "civilian", "political")
_DESTROYING = (None, "brown", "grey", "blue", "yellow")
_NO_MINERVA = -128
_EMPTY, _UNKNOWN = -1, -2
_GATE_ID = 15
_REVEALING_GATE, _REVEALING_THEATER, _REVEALING_DIVINITY = 8, 9, 16
_DIVINITY_NAMES = tuple(d.name for d in DIVINITIES)
_DIVINITY_ID = {name: i for i, name in enumerate(_DIVINITY_NAMES)} | {GATE: _GATE_ID}
_MYTHOLOGY_ID = {m: i for i, m in enumerate(MYTHOLOGIES)}
_SCIENCE_BIT = {s: 1 << i for i, s in enumerate(SCIENCE_SYMBOLS)}
_CHAIN_BIT = {s: 1 << i for i, s in enumerate(CHAIN_SYMBOLS)}
_GUILD_DEAL_RANK = {mask: rank for rank, mask in enumerate(GUILD_SLOT_MASKS)}

if xcore is not None:
    PHASES: tuple[str, ...] = xcore.PHASES
    KINDS: tuple[str, ...] = xcore.KINDS
    _KIND_ID = {k: i for i, k in enumerate(KINDS)}
    _PHASE_ID = {p: i for i, p in enumerate(PHASES)}
    _FIELDS = [(name, offset, fmt, count) for name, offset, fmt, count in xcore.LAYOUT]
    _CITY_FIELDS = [
        [(name, name.split(".", 1)[1]) for name, *_ in _FIELDS if name.startswith(f"p{p}.")]
        for p in (0, 1)
    ]


def compiled(expansions: Iterable[str]) -> bool:
    """Whether the compiled core plays a game with these expansions."""
    return AVAILABLE and tuple(sorted(set(expansions))) in COMPILED


# --- the raw state --------------------------------------------------------------------------------
def _whole_layout() -> tuple[struct.Struct, list[tuple[str, int, int, bool]]]:
    """One struct for the whole state (gaps as padding), and where each field's values are."""
    fmt, at, index, fields = "<", 0, 0, []
    for name, offset, item, count in sorted(_FIELDS, key=lambda f: f[1]):
        fmt += "x" * (offset - at)
        cards = item == "16s"
        fmt += "16s" if cards else f"{count}{item}"
        size = 16 if cards else struct.calcsize(f"<{count}{item}")
        fields.append((name, index, 1 if cards else count, cards))
        index += 1 if cards else count
        at = offset + size
    fmt += "x" * (xcore.SIZE - at)
    return struct.Struct(fmt), fields


if xcore is not None:
    _WHOLE, _WHOLE_FIELDS = _whole_layout()


def _unpack(raw: bytes) -> dict[str, Any]:
    values = _WHOLE.unpack(raw)
    out: dict[str, Any] = {}
    for name, index, count, cards in _WHOLE_FIELDS:
        if cards:
            out[name] = int.from_bytes(values[index], "little")
        else:
            out[name] = values[index] if count == 1 else list(values[index : index + count])
    return out


def _pack(fields: dict[str, Any]) -> bytes:
    raw = bytearray(xcore.SIZE)
    for name, offset, fmt, count in _FIELDS:
        value = fields[name]
        if fmt == "16s":
            raw[offset : offset + 16] = value.to_bytes(16, "little")
        elif count == 1:
            struct.pack_into(f"<{fmt}", raw, offset, value)
        else:
            struct.pack_into(f"<{count}{fmt}", raw, offset, *value)
    return bytes(raw)


def _mask(items: Iterable[int]) -> int:
    return sum(1 << i for i in set(items))


def _divinity_name(i: int) -> str | None:
    return None if i == _UNKNOWN else GATE if i == _GATE_ID else _DIVINITY_NAMES[i]


def _known_divinity(i: int) -> str:
    """A Divinity a city holds (activated ones are public: never unknown)."""
    name = _divinity_name(i)
    assert name is not None
    return name


def _divinity_id(name: str | None) -> int:
    return _UNKNOWN if name is None else _DIVINITY_ID[name]


def to_xstate(c: Any) -> XState:
    """The :class:`XState` equal to the compiled state ``c`` (a ``duel._xcore.State``)."""
    d = _unpack(c.to_bytes())
    s = new_xgame(tuple(e for e in EXPANSIONS if d["expansions"] & _EXPANSION_BIT[e]))
    s = s._copy()
    s.observer = None if d["observer"] < 0 else d["observer"]
    s.phase = PHASES[d["phase"]]
    s.to_move, s.age, s.pawn, s.military = d["to_move"], d["age"], d["pawn"], d["military"]
    slots = structure_of(s.expansions, s.age).slots if s.age else SLOTS
    s.pyramid = pvector(d["pyramid"][:slots])
    s.present, s.accessible, s.reveal = d["present"], d["accessible"], d["reveal"]
    s.unseen, s.discard = frozenset(bits(d["unseen"])), frozenset(bits(d["discard"]))
    s.back_slots = d["back_slots"]
    s.minerva = None if d["minerva"] == _NO_MINERVA else d["minerva"]
    s.board, s.library = frozenset(bits(d["board"])), frozenset(bits(d["library"]))
    s.enki_tokens, s.offer = frozenset(bits(d["enki_tokens"])), frozenset(bits(d["offer"]))
    s.wonders_unseen = frozenset(bits(d["wonders_unseen"]))
    s.picks, s.extra, s.winner = d["picks"], bool(d["extra"]), d["winner"]
    s.victory, s.destroying = _VICTORIES[d["victory"]], _DESTROYING[d["destroying"]]
    s.cities = [_city(d, p) for p in (0, 1)]
    spaces: list[Space | None] = []
    for i in range(6):
        divinity, mythology, owner, face_up = d["spaces"][4 * i : 4 * i + 4]
        if divinity == _EMPTY:
            spaces.append(None)
        else:
            myth = None if mythology < 0 else MYTHOLOGIES[mythology]
            spaces.append(Space(_divinity_name(divinity), myth, owner, bool(face_up)))
    s.spaces = tuple(spaces)
    s.deck_size = tuple(d["deck_size"])
    s.deck_tops = tuple(
        tuple(
            DeckCard(
                _divinity_name(d["top_divinity"][3 * m + k]),
                frozenset(p for p in (0, 1) if d["top_known_to"][3 * m + k] >> p & 1),
            )
            for k in range(d["n_tops"][m])
        )
        for m in range(len(MYTHOLOGIES))
    )
    s.mythology_on = pmap({x: MYTHOLOGIES[m] for x, m in enumerate(d["mythology_on"]) if m >= 0})
    s.offering_on = pmap({x: v for x, v in enumerate(d["offering_on"]) if v})
    s.drawing = None if d["drawing"] < 0 else MYTHOLOGIES[d["drawing"]]
    s.drawn = (
        None if d["drawn_unseen"] else tuple(_DIVINITY_NAMES[x] for x in d["drawn"][: d["n_drawn"]])
    )
    s.revealing = tuple(_revealing_name(x) for x in d["revealing"][: d["n_revealing"]])
    chosen = d["chosen"][: d["n_chosen"]]
    s.chosen = (
        tuple(chosen)
        if s.phase in ("seat", "zeus_reveal")
        else tuple(_DIVINITY_NAMES[x] for x in chosen)
    )
    if s.agora:
        _agora_to_x(d, s)
    return s._freeze()


def _step_tuple(x: int) -> tuple | None:
    kind, a, b, c = _STEPS[x & 0xFF], x >> 8 & 0xFF, x >> 16 & 0xFF, x >> 24 & 0xFF
    if kind is None:
        return None
    if kind == "decree":
        return ("decree", a) if b == 0 else ("decree", a, None if b == 1 else b - 2)
    if kind == "senate":
        return ("senate", a, _SECTIONS[b], c)
    if kind == "destroy":
        return ("destroy", a, _DESTROYING[b])
    if kind in ("discard_any", "shields"):
        return (kind, a, b)
    if kind == "coins":
        return ("coins", a, _COINS[b])
    return (kind, a)


def _step_code(step: tuple | None) -> int:
    if step is None:
        return 0
    kind, a = _STEPS.index(step[0]), step[1]
    b = c = 0
    if step[0] == "decree":
        b = 0 if len(step) == 2 else 1 if step[2] is None else 2 + step[2]
    elif step[0] == "senate":
        b, c = _SECTIONS.index(step[2]), step[3]
    elif step[0] == "destroy":
        b = _DESTROYING.index(step[2])
    elif step[0] in ("discard_any", "shields"):
        b = step[2]
    elif step[0] == "coins":
        b = _COINS.index(step[2])
    return kind | a << 8 | b << 16 | c << 24


def _plot_deck(names: list[int], known: list[int], n: int) -> tuple[DeckCard, ...]:
    return tuple(
        DeckCard(
            None if names[k] < 0 else CONSPIRACIES[names[k]],
            frozenset(p for p in (0, 1) if known[k] >> p & 1),
        )
        for k in range(n)
    )


def _agora_to_x(d: dict[str, Any], s: XState) -> None:
    s.senate = tuple((d["senate"][2 * c], d["senate"][2 * c + 1]) for c in range(6))
    s.decrees = tuple(
        tuple(
            (None, False) if x < 0 else (DECREES[x], True)
            for x in d["decree"][6 * c : 6 * c + d["n_decrees"][c]]
        )
        for c in range(6)
    )
    s.plot_size = d["plot_size"]
    s.plot_top = _plot_deck(d["plot_top"], d["plot_top_known"], d["n_plot_top"])
    s.plot_bottom = _plot_deck(d["plot_bottom"], d["plot_bottom_known"], d["n_plot_bottom"])
    s.drawn_plots = (
        None
        if d["drawn_plots_unseen"]
        else tuple(CONSPIRACIES[x] for x in d["drawn_plots"][: d["n_drawn_plots"]])
    )
    s.pending = tuple(_step_tuple(x) for x in d["pending"][: d["n_pending"]])
    s.step = _step_tuple(d["step"])
    cont = d["continuation"]
    kind, who = _CONTINUATIONS[cont & 0xFF], cont >> 16 & 0xFF
    s.continuation = (
        None
        if kind is None
        else ("resume", PHASES[cont >> 8 & 0xFF], who)
        if kind == "resume"
        else (kind, who)
    )
    s.triggered = bool(d["triggered"])
    s.backs = tuple(_BACKS[x] for x in d["backs"][: len(s.pyramid)]) if s.age else ()
    s.senators_seen = frozenset(bits(d["senators_seen"]))
    s.removed = frozenset(bits(d["removed"]))
    s.removed_now = None if d["removed_now_none"] else tuple(d["removed_now"][: d["n_removed_now"]])
    s.removed_by = None if d["removed_by"] < 0 else d["removed_by"]
    s.locked = frozenset(bits(d["locked"]))


def _revealing_name(x: int) -> str:
    if x == _REVEALING_GATE:
        return "gate"
    if x == _REVEALING_THEATER:
        return "theater"
    if x >= _REVEALING_DIVINITY:
        return _DIVINITY_NAMES[x - _REVEALING_DIVINITY]
    return MYTHOLOGIES[x]


def _city(d: dict[str, Any], p: int) -> City:
    f = {short: d[name] for name, short in _CITY_FIELDS[p]}
    city = City()
    city.coins, city.astarte = f["coins"], f["astarte"]
    city.cards = frozenset(bits(f["cards"]))
    city.wonders = tuple(bits(f["wonders"]))
    city.built = tuple((w, f["under"][w]) for w in bits(f["built"]))
    city.tokens = frozenset(bits(f["tokens"]))
    city.science = frozenset(SCIENCE_SYMBOLS[i] for i in bits(f["science"]))
    city.mythology = tuple(MYTHOLOGIES[m] for m in f["mythology"][: f["n_mythology"]])
    city.offerings = tuple(OFFERINGS[i] for i in bits(f["offerings"]))
    city.divinities = tuple(_known_divinity(x) for x in f["divinities"][: f["n_divinities"]])
    city.snake = None if f["snake"] < 0 else f["snake"]
    city.plots = tuple(
        Plot(
            None if f["plot_name"][k] < 0 else CONSPIRACIES[f["plot_name"][k]],
            prepared=bool(f["plot_flags"][k] & 1),
            fresh=bool(f["plot_flags"][k] & 2),
            used=bool(f["plot_flags"][k] & 4),
            card=None if f["plot_card"][k] < 0 else f["plot_card"][k],
        )
        for k in range(f["n_plots"])
    )
    return city


def _city_fields(city: City, p: int) -> dict[str, Any]:
    built = dict(city.built)
    econ = sum(_CARD_ECON[c] for c in city.cards if c < len(_CARD_ECON))
    econ += sum(_WONDER_ECON[w] for w in built if w < len(_WONDER_ECON))
    chains = 0
    for c in city.cards:
        gives = XCARDS[c].chain_gives
        if gives is not None:
            chains |= _CHAIN_BIT[gives]
    fields = {
        "cards": _mask(city.cards),
        "coins": city.coins,
        "astarte": city.astarte,
        "econ": econ,
        "chains": chains,
        "wonders": _mask(city.wonders),
        "built": _mask(built),
        "tokens": _mask(city.tokens),
        "science": sum(_SCIENCE_BIT[s] for s in city.science),
        "snake": -1 if city.snake is None else city.snake,
        "under": [built.get(w, -1) for w in range(16)],
        "n_mythology": len(city.mythology),
        "mythology": _padded([_MYTHOLOGY_ID[m] for m in city.mythology], 8),
        "offerings": sum(1 << OFFERINGS.index(v) for v in city.offerings),
        "n_divinities": len(city.divinities),
        "divinities": _padded([_DIVINITY_ID[x] for x in city.divinities], 16),
        "n_plots": len(city.plots),
        "plot_name": _padded([_name_id(p.name, CONSPIRACIES) for p in city.plots], 16),
        "plot_flags": _padded([p.prepared | p.fresh << 1 | p.used << 2 for p in city.plots], 16),
        "plot_card": _padded([-1 if p.card is None else p.card for p in city.plots], 16, -1),
    }
    return {f"p{p}.{k}": v for k, v in fields.items()}


def _name_id(name: str | None, names: tuple[str, ...]) -> int:
    return _UNKNOWN if name is None else names.index(name)


def _padded(values: list[int], size: int, fill: int = 0) -> list[int]:
    return values + [fill] * (size - len(values))


def from_xstate(s: XState) -> Any:
    """The compiled state equal to ``s`` (a base or Pantheon game)."""
    if not compiled(s.expansions):
        raise ValueError(f"the compiled core does not play {s.expansions!r} yet")
    d: dict[str, Any] = {
        "unseen": _mask(s.unseen),
        "discard": _mask(s.discard),
        "present": s.present,
        "accessible": s.accessible,
        "reveal": s.reveal,
        "back_slots": s.back_slots,
        "pyramid": _padded(list(s.pyramid), xcore.SLOTS, -2),
        "board": _mask(s.board),
        "offer": _mask(s.offer),
        "wonders_unseen": _mask(s.wonders_unseen),
        "library": _mask(s.library),
        "enki_tokens": _mask(s.enki_tokens),
        "expansions": sum(_EXPANSION_BIT[e] for e in s.expansions),
        "observer": -1 if s.observer is None else s.observer,
        "phase": _PHASE_ID[s.phase],
        "to_move": s.to_move,
        "age": s.age,
        "pawn": s.pawn,
        "military": s.military,
        "picks": s.picks,
        "extra": int(s.extra),
        "winner": s.winner,
        "victory": _VICTORIES.index(s.victory),
        "destroying": _DESTROYING.index(s.destroying),
        "minerva": _NO_MINERVA if s.minerva is None else s.minerva,
        "deck_size": list(s.deck_size),
        "n_tops": [len(t) for t in s.deck_tops],
        "mythology_on": [
            _MYTHOLOGY_ID[s.mythology_on[x]] if x in s.mythology_on else -1
            for x in range(xcore.SLOTS)
        ],
        "offering_on": [s.offering_on.get(x, 0) for x in range(xcore.SLOTS)],
        "drawing": -1 if s.drawing is None else _MYTHOLOGY_ID[s.drawing],
        "drawn_unseen": int(s.drawn is None),
        "n_drawn": len(s.drawn or ()),
        "drawn": _padded([_DIVINITY_ID[x] for x in s.drawn or ()], 2),
        "n_revealing": len(s.revealing),
        "revealing": _padded([_revealing_id(x) for x in s.revealing], 5),
        "n_chosen": len(s.chosen),
        "chosen": _padded([x if isinstance(x, int) else _DIVINITY_ID[x] for x in s.chosen], 5),
    }
    spaces: list[int] = []
    for space in s.spaces:
        if space is None:
            spaces += [_EMPTY, 0, 0, 0]
        else:
            myth = -1 if space.mythology is None else _MYTHOLOGY_ID[space.mythology]
            spaces += [_divinity_id(space.divinity), myth, space.owner, int(space.face_up)]
    d["spaces"] = spaces
    tops, known = [0] * 15, [0] * 15
    for m, deck in enumerate(s.deck_tops):
        for k, card in enumerate(deck):
            tops[3 * m + k] = _divinity_id(card.divinity)
            known[3 * m + k] = sum(1 << p for p in card.known_to)
    d["top_divinity"], d["top_known_to"] = tops, known
    for p in (0, 1):
        d.update(_city_fields(s.cities[p], p))
    d.update(_agora_fields(s))
    return xcore.from_bytes(_pack(d))


def _agora_fields(s: XState) -> dict[str, Any]:
    cont = s.continuation
    if cont is None:
        continuation = 0
    elif cont[0] == "resume":
        continuation = 3 | _PHASE_ID[cont[1]] << 8 | cont[2] << 16
    else:
        continuation = _CONTINUATIONS.index(cont[0]) | cont[1] << 16
    decree = []
    for entries in s.decrees:
        decree += _padded([-1 if name is None else DECREES.index(name) for name, _ in entries], 6)
    return {
        "senators_seen": _mask(s.senators_seen),
        "removed": _mask(s.removed),
        "senate": [n for pair in s.senate for n in pair],
        "n_decrees": [len(e) for e in s.decrees],
        "decree": decree,
        "plot_size": s.plot_size,
        "n_plot_top": len(s.plot_top),
        "n_plot_bottom": len(s.plot_bottom),
        "plot_top": _padded([_name_id(c.divinity, CONSPIRACIES) for c in s.plot_top], 16),
        "plot_bottom": _padded([_name_id(c.divinity, CONSPIRACIES) for c in s.plot_bottom], 16),
        "plot_top_known": _padded([_mask(c.known_to) for c in s.plot_top], 16),
        "plot_bottom_known": _padded([_mask(c.known_to) for c in s.plot_bottom], 16),
        "drawn_plots_unseen": int(s.drawn_plots is None),
        "n_drawn_plots": len(s.drawn_plots or ()),
        "drawn_plots": _padded([CONSPIRACIES.index(n) for n in s.drawn_plots or ()], 2),
        "n_pending": len(s.pending),
        "pending": _padded([_step_code(x) for x in s.pending], xcore.MAX_PENDING),
        "step": _step_code(s.step),
        "continuation": continuation,
        "triggered": int(s.triggered),
        "backs": _padded([_BACKS.index(b) for b in s.backs], xcore.SLOTS),
        "removed_now_none": int(s.removed_now is None),
        "n_removed_now": len(s.removed_now or ()),
        "removed_now": _padded(list(s.removed_now or ()), 3),
        "removed_by": -1 if s.removed_by is None else s.removed_by,
        "locked": _mask(s.locked),
    }


def _revealing_id(x: str) -> int:
    if x == "gate":
        return _REVEALING_GATE
    if x == "theater":
        return _REVEALING_THEATER
    if x in _MYTHOLOGY_ID:
        return _MYTHOLOGY_ID[x]
    return _REVEALING_DIVINITY + _DIVINITY_ID[x]


# --- moves ----------------------------------------------------------------------------------------
def _plot_names(mask: int) -> tuple[str, ...]:
    return tuple(sorted(CONSPIRACIES[i] for i in bits(mask)))


def _local_names(mythology: int, local: int) -> tuple[str, ...]:
    first = _MYTHOLOGY_ID[MYTHOLOGIES[mythology]] * 3
    return tuple(sorted(_DIVINITY_NAMES[first + i] for i in bits(local)))


def _local_mask(mythology: str, names: Iterable[str]) -> int:
    first = _MYTHOLOGY_ID[mythology] * 3
    return sum(1 << (_DIVINITY_ID[n] - first) for n in names)


def decode_move(code: int, expansions: tuple[str, ...]) -> XMove:  # noqa: C901, PLR0911, PLR0912
    """The :class:`XMove` of a compiled move code."""
    kind, a, b, low = KINDS[code >> 24], code >> 8 & 0xFF, code & 0xFF, code & 0xFFFFFF
    if kind in ("build", "discard", "destroy", "mausoleum", "snake", "take"):
        return XMove(kind, (b,))
    if kind in ("wonder", "isis", "reveal_card"):
        return XMove(kind, (a, b))
    if kind in ("pick", "token", "start", "reveal_wonder", "reveal_token", "zeus", "unbuild"):
        return XMove(kind, (a,))
    if kind in ("steal", "remove", "apply"):
        return XMove(kind, (a,))
    if kind in ("library_draw", "enki_tokens"):
        return XMove(kind, (tuple(bits(low)),))
    if kind == "deal_backs":
        slots = tuple(bits(GUILD_SLOT_MASKS[low]))
        return XMove(kind, ("temples" if "pantheon" in expansions else "guilds", slots))
    if kind == "place_mythology":
        return XMove(kind, (a, MYTHOLOGIES[b]))
    if kind == "place_offerings":
        return XMove(kind, (OFFERING_ORDERS[a],))
    if kind == "draw_divinities":
        names = None if b & 0x80 else _local_names(a, b)
        return XMove(kind, (MYTHOLOGIES[a], names))
    if kind == "seat":
        name = None if a == 0xFF else _DIVINITY_NAMES[a]
        return XMove(kind, (name, MYTHOLOGIES[b >> 4], b & 15))
    if kind == "flip":
        return XMove(kind, (a, _DIVINITY_NAMES[b]))
    if kind == "top":
        return XMove(kind, (MYTHOLOGIES[a], _DIVINITY_NAMES[b]))
    if kind == "deck":
        return XMove(kind, (MYTHOLOGIES[a], _local_names(a, b)))
    if kind == "activate":
        return XMove(kind, (_divinity_name(a), tuple(OFFERINGS[i] for i in bits(b))))
    if kind == "minerva":
        return XMove(kind, (a - 9,))
    if kind == "theater":
        return XMove(kind, (MYTHOLOGIES[a],))
    if kind == "choose":
        return XMove(kind, (_DIVINITY_NAMES[a],))
    if kind == "order":
        ids = [low >> (5 * k) & 31 for k in range(3)]
        return XMove(kind, (tuple(_DIVINITY_NAMES[x] for x in ids if x != 31),))
    return _decode_agora(kind, a, b, low)


def _decode_agora(kind: str, a: int, b: int, low: int) -> XMove:  # noqa: PLR0911
    if kind == "decree":
        return XMove(kind, (a, DECREES[b]))
    if kind == "back":
        return XMove(kind, (a, _BACKS[b]))
    if kind == "draw_plots":
        return XMove(kind, (_plot_names(low) if low else None,))
    if kind == "keep":
        kept, other, where = low & 31, low >> 5 & 31, ("top", "bottom")[low >> 10 & 1]
        if kept == 31:
            return XMove(kind, (None, None, where))
        return XMove(kind, ((CONSPIRACIES[kept],), CONSPIRACIES[other], where))
    if kind in ("place", "evict", "lock", "sabotage"):
        return XMove(kind, (a,))
    if kind in ("move_cube", "swap"):
        return XMove(kind, (a, b))
    if kind in ("no_move", "stop", "conspire", "no_trigger", "no_discard"):
        return XMove(kind)
    if kind == "prepare":
        return XMove(kind, (b, a))
    if kind == "trigger":
        return XMove(kind, (a, CONSPIRACIES[b]))
    if kind in ("free_build", "discard_free"):
        return XMove(kind, (b,))
    if kind == "treason_deal":
        if low >> 21 & 1:
            return XMove(kind, (None,))
        cards = [low >> (7 * k) & 127 for k in range(3)]
        return XMove(kind, (tuple(c for c in cards if c != 127),))
    if kind == "move_decree":
        name = low >> 6 & 31
        return XMove(kind, (low & 7, None if name == 31 else DECREES[name], low >> 3 & 7))
    raise ValueError(f"unknown move kind {kind!r}")


def encode_move(move: XMove) -> int:  # noqa: C901, PLR0911, PLR0912
    """The compiled move code of ``move`` (the inverse of :func:`decode_move`)."""
    kind, args = move.kind, move.args
    k = _KIND_ID.get(kind)
    if k is None:
        raise XIllegalMoveError(f"the compiled core has no move {kind!r}")
    code = k << 24
    if kind in ("build", "discard", "destroy", "mausoleum", "snake", "take"):
        return code | args[0]
    if kind in ("wonder", "isis", "reveal_card"):
        return code | args[0] << 8 | args[1]
    if kind in ("pick", "token", "start", "reveal_wonder", "reveal_token", "zeus", "unbuild",
                "steal", "remove", "apply"):  # fmt: skip
        return code | args[0] << 8
    if kind in ("library_draw", "enki_tokens"):
        return code | _mask(args[0])
    if kind == "deal_backs":
        return code | _GUILD_DEAL_RANK[_mask(args[1])]
    if kind == "place_mythology":
        return code | args[0] << 8 | _MYTHOLOGY_ID[args[1]]
    if kind == "place_offerings":
        return code | OFFERING_ORDERS.index(tuple(args[0])) << 8
    if kind == "draw_divinities":
        b = 0x80 if args[1] is None else _local_mask(args[0], args[1])
        return code | _MYTHOLOGY_ID[args[0]] << 8 | b
    if kind == "seat":
        a = 0xFF if args[0] is None else _DIVINITY_ID[args[0]]
        return code | a << 8 | _MYTHOLOGY_ID[args[1]] << 4 | args[2]
    if kind == "flip":
        return code | args[0] << 8 | _DIVINITY_ID[args[1]]
    if kind == "top":
        return code | _MYTHOLOGY_ID[args[0]] << 8 | _DIVINITY_ID[args[1]]
    if kind == "deck":
        return code | _MYTHOLOGY_ID[args[0]] << 8 | _local_mask(args[0], args[1])
    if kind == "activate":
        return code | _DIVINITY_ID[args[0]] << 8 | sum(1 << OFFERINGS.index(v) for v in args[1])
    if kind == "minerva":
        return code | (args[0] + 9) << 8
    if kind == "theater":
        return code | _MYTHOLOGY_ID[args[0]] << 8
    if kind == "choose":
        return code | _DIVINITY_ID[args[0]] << 8
    if kind == "order":
        ids = [_DIVINITY_ID[n] for n in args[0]] + [31] * (3 - len(args[0]))
        return code | sum(x << (5 * i) for i, x in enumerate(ids))
    return code | _encode_agora(kind, args)


def _encode_agora(kind: str, args: tuple) -> int:  # noqa: C901, PLR0911
    if kind == "decree":
        return args[0] << 8 | DECREES.index(args[1])
    if kind == "back":
        return args[0] << 8 | _BACKS.index(args[1])
    if kind == "draw_plots":
        return 0 if args[0] is None else _mask(CONSPIRACIES.index(n) for n in args[0])
    if kind == "keep":
        where = 1 << 10 if args[2] == "bottom" else 0
        if args[0] is None:
            return 31 | 31 << 5 | where
        return CONSPIRACIES.index(args[0][0]) | CONSPIRACIES.index(args[1]) << 5 | where
    if kind in ("place", "evict", "lock", "sabotage"):
        return args[0] << 8
    if kind in ("move_cube", "swap"):
        return args[0] << 8 | args[1]
    if kind in ("no_move", "stop", "conspire", "no_trigger", "no_discard"):
        return 0
    if kind == "prepare":
        return args[1] << 8 | args[0]
    if kind == "trigger":
        return args[0] << 8 | CONSPIRACIES.index(args[1])
    if kind in ("free_build", "discard_free"):
        return args[0]
    if kind == "treason_deal":
        if args[0] is None:
            return 1 << 21 | 0x1FFFFF
        cards = [*args[0], *[127] * (3 - len(args[0]))]
        return sum(c << (7 * k) for k, c in enumerate(cards))
    if kind == "move_decree":
        name = 31 if args[1] is None else DECREES.index(args[1])
        return args[0] | args[2] << 3 | name << 6
    raise XIllegalMoveError(f"the compiled core has no move {kind!r}")


# --- the state API --------------------------------------------------------------------------------
class CXState:
    """A position held by the compiled core, with :class:`XState`'s API (moves are XMoves)."""

    __slots__ = ("_c", "expansions")

    def __init__(self, c: Any, expansions: tuple[str, ...]) -> None:
        self._c = c
        self.expansions = expansions

    @classmethod
    def from_xstate(cls, state: XState) -> CXState:
        return cls(from_xstate(state), state.expansions)

    def to_xstate(self) -> XState:
        return to_xstate(self._c)

    @property
    def core(self) -> Any:
        """The ``duel._xcore.State`` (for C search code)."""
        return self._c

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CXState) and self._c == other._c

    def __hash__(self) -> int:
        return hash(self._c)

    def __repr__(self) -> str:
        return f"<CXState {self.describe()}>"

    @property
    def phase(self) -> str:
        return PHASES[self._c.phase]

    @property
    def to_move(self) -> int:
        return self._c.to_move

    @property
    def winner(self) -> int:
        return self._c.winner

    @property
    def pantheon(self) -> bool:
        return "pantheon" in self.expansions

    @property
    def agora(self) -> bool:
        return "agora" in self.expansions

    @property
    def pawn(self) -> int:
        return self._c.pawn

    @property
    def age(self) -> int:
        return self._c.age

    @property
    def victory(self) -> str:
        return _VICTORIES[self._c.victory]

    @property
    def cities(self) -> tuple[City, City]:
        """The two cities (converted from the compiled state: for reading, not for speed)."""
        return self.to_xstate().cities

    def describe(self) -> str:
        return self.to_xstate().describe()

    def score(self, player: int) -> XScore:
        """Victory points now, by category (XState.score)."""
        return XScore(*self._c.score(player))

    def is_chance(self) -> bool:
        return self._c.is_chance

    def is_terminal(self) -> bool:
        return self.phase == "game_over"

    def returns(self) -> tuple[float, float]:
        w = self._c.winner
        return (1.0, -1.0) if w == 0 else (-1.0, 1.0) if w == 1 else (0.0, 0.0)

    def legal_codes(self) -> list[int]:
        return self._c.legal_moves()

    def legal_moves(self) -> list[XMove]:
        return [decode_move(m, self.expansions) for m in self._c.legal_moves()]

    def chance_weights(self) -> tuple[list[tuple[XMove, int]], int]:
        outcomes = [(decode_move(m, self.expansions), w) for m, w in self._c.chance_outcomes()]
        return outcomes, sum(w for _, w in outcomes)

    def chance_outcomes(self) -> list[tuple[XMove, float]]:
        outcomes, total = self.chance_weights()
        return [(m, w / total) for m, w in outcomes]

    def chance_probability(self, move: XMove) -> Fraction:
        outcomes, total = self.chance_weights()
        return next((Fraction(w, total) for m, w in outcomes if m == move), Fraction(0))

    def apply(self, move: XMove | str, *, check: bool = True) -> CXState:
        """The state after ``move``; raises :class:`XIllegalMoveError` if illegal (``check``)."""
        if isinstance(move, str):
            move = XMove.parse(move)
        code = encode_move(move)
        if check:
            codes = (
                [m for m, _ in self._c.chance_outcomes()]
                if self.is_chance()
                else self._c.legal_moves()
            )
            if code not in codes:
                reason = self.to_xstate().why_illegal(move) or f"{move} is not legal here"
                raise XIllegalMoveError(reason)
        return CXState(self._c.apply(code), self.expansions)

    def random_move(self, rng: random.Random) -> XMove:
        if self.is_chance():
            return self.sample_chance(rng)
        moves = self._c.legal_moves()
        if not moves:
            raise XIllegalMoveError("no legal move here")
        return decode_move(moves[int(rng.random() * len(moves))], self.expansions)

    def sample_chance(self, rng: random.Random) -> XMove:
        return draw_weighted(*self.chance_weights(), rng)

    def view(self, player: int) -> CXState:
        return CXState(self._c.view(player), self.expansions)


def new_game(expansions: Iterable[str] = ("pantheon",)) -> CXState | XState:
    """A new game on the compiled core where it plays these expansions, else on the Python
    engine (the same API either way)."""
    chosen = tuple(sorted(set(expansions)))
    if compiled(chosen):
        return CXState(xcore.new_game(sum(_EXPANSION_BIT[e] for e in chosen)), chosen)
    return new_xgame(chosen)
