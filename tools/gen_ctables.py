"""Write ``duel/csrc/duel_tables.h`` (the card, wonder, token and pyramid data for the C core)
and ``duel/csrc/duel_layout.h`` (the C state's fields and the Python fields each one mirrors).

The JSON data files stay the single source of truth for the tables; this script compiles what the
Python engine reads through ``duel.catalog`` and ``duel.pyramid_layouts`` into C arrays. The
state's layout is described once, below (:data:`PLAYER_LAYOUT`, :data:`STATE_LAYOUT`): the C
structs, their padding and the indices of the Python fields (``duel.state``'s ``PHASE``,
``COINS``...) that ``ccore_module.c`` converts are generated from it. ``tests/test_ccore.py``
checks that the committed headers equal a fresh run, so neither can drift.

    python tools/gen_ctables.py          # rewrite the headers
    python tools/gen_ctables.py --check  # exit 1 if one is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from duel import state as s  # noqa: E402
from duel.catalog import (  # noqa: E402
    AGE_DECK,
    CARDS,
    CHAIN_SYMBOLS,
    COLOR_MASK,
    COLORS,
    SCIENCE_SYMBOLS,
    TOKENS,
    WONDERS,
)
from duel.moves import GUILD_SLOT_MASKS  # noqa: E402
from duel.pyramid_layouts import LAYOUTS, SLOTS  # noqa: E402

HEADER = ROOT / "duel" / "csrc" / "duel_tables.h"
LAYOUT_HEADER = ROOT / "duel" / "csrc" / "duel_layout.h"

# --- the state's layout ---------------------------------------------------------------------------
#: Bytes and alignment of each C type a field may have.
C_SIZES = {"dc_cards": 16, "int32_t": 4, "uint32_t": 4, "uint16_t": 2, "int8_t": 1, "uint8_t": 1}

#: One player's city: (C type, member, the duel.state player field it mirrors, comment), in
#: memory order (widest first: no implicit padding).
PLAYER_LAYOUT = [
    ("dc_cards", "cards", "CITY", "built cards"),
    ("dc_cards", "under", "UNDER", "cards used to build wonders"),
    ("int32_t", "coins", "COINS", ""),
    ("uint32_t", "econ", "ECON", "packed economy, see duel_core.h"),
    ("uint32_t", "chains", "CHAINS", "chain symbols owned (bit i = CHAIN_SYMBOLS[i])"),
    ("uint16_t", "wonders", "WONDERS_OWNED", "wonders owned, not built"),
    ("uint16_t", "built", "BUILT", "wonders built"),
    ("uint16_t", "tokens", "TOKENS_HELD", "progress tokens owned"),
    ("uint8_t", "science", "SCIENCE", "science symbols owned (bit i = SCIENCE_SYMBOLS[i])"),
]

#: A position: every top-level field of the Python State's vector (public information only), as
#: (C type, member, duel.state field, comment); a member ``name[N]`` is an array. ``p`` holds the
#: two players (:data:`PLAYER_LAYOUT`).
STATE_LAYOUT = [
    ("dc_cards", "unseen", "UNSEEN", "cards of the Age nobody has seen"),
    ("dc_cards", "discard", "DISCARD", ""),
    ("dc_player", "p[2]", None, "the players' cities"),
    ("uint32_t", "present", "PRESENT", "slots still holding a card"),
    ("uint32_t", "accessible", "ACCESSIBLE", "slots whose card may be taken"),
    ("uint32_t", "reveal", "REVEAL", "slots to turn face up (lowest first)"),
    ("uint32_t", "guild_slots", "GUILD_SLOTS", "Age III slots holding a guild"),
    ("int8_t", "pyramid[DC_SLOTS]", "PYRAMID", "card id, DC_TAKEN or DC_HIDDEN"),
    ("uint16_t", "board", "BOARD", "progress tokens on the board"),
    ("uint16_t", "offer", "OFFER", "wonders offered in the draft"),
    ("uint16_t", "wonders_unseen", "WONDERS_UNSEEN", ""),
    ("uint16_t", "library", "LIBRARY", "tokens drawn by The Great Library"),
    ("int8_t", "phase", "PHASE", ""),
    ("int8_t", "to_move", "TO_MOVE", ""),
    ("int8_t", "age", "AGE", "0 during setup, then 1..3"),
    ("int8_t", "pawn", "PAWN", "-9..9, positive towards B's capital"),
    ("uint8_t", "military", "MILITARY", "looting tokens left (bits A2, A5, B2, B5)"),
    ("uint8_t", "picks", "PICKS", "wonders drafted so far"),
    ("uint8_t", "extra", "EXTRA", "a Play Again is pending"),
    ("int8_t", "winner", "WINNER", "-1 while running, 0, 1 or DC_SHARED"),
    ("uint8_t", "victory", "VICTORY", "DC_NO_VICTORY .. DC_CIVILIAN"),
    ("uint8_t", "destroying", "DESTROYING", "0, 1 = brown, 2 = grey (a colour mask in Python)"),
]


def _member_bytes(ctype: str, member: str, sizes: dict[str, int]) -> tuple[int, int]:
    """(bytes, alignment) of a member, ``name[N]`` an array of N."""
    count = 1
    if "[" in member:
        dim = member[member.index("[") + 1 : -1]
        count = SLOTS if dim == "DC_SLOTS" else int(dim)
    return sizes[ctype] * count, min(sizes[ctype], 16)


def _struct(
    name: str, layout: list[tuple[str, str, str | None, str]], sizes: dict[str, int]
) -> tuple[list[str], int]:
    """A struct's C text, every member at its natural alignment and the size padded to a multiple
    of 16 by an explicit ``pad_`` (states compare and hash bytewise: no implicit padding)."""
    lines, at = [f"typedef struct {name} {{"], 0
    for ctype, member, field, comment in layout:
        size, align = _member_bytes(ctype, member, sizes)
        assert at % align == 0, f"{name}.{member} at {at} would be padded: reorder the layout"
        said = f"{field}: {comment}" if field and comment else field or comment
        lines.append(f"    {ctype} {member};" + (f" /* {said} */" if said else ""))
        at += size
    if at % 16:
        lines.append(f"    uint8_t pad_[{16 - at % 16}]; /* zero */")
        at += 16 - at % 16
    lines.append(f"}} {name};")
    return lines, at


def _field_enum(prefix: str, names: list[str], count: int) -> list[str]:
    """The Python fields' indices (duel.state's constants), each mirrored once."""
    index = {name: getattr(s, name) for name in names}
    assert sorted(index.values()) == list(range(count)), f"{prefix}: not every field mirrored"
    out = ["enum { /* duel.state's field indices */"]
    out += [f"    {prefix}{name} = {i}," for name, i in sorted(index.items(), key=lambda x: x[1])]
    out.append("};")
    return out


def generate_layout() -> str:
    """``duel_layout.h``: the structs and the Python field indices."""
    sizes = dict(C_SIZES)
    player, sizes["dc_player"] = _struct("dc_player", PLAYER_LAYOUT, sizes)
    state, state_bytes = _struct("dc_state", STATE_LAYOUT, sizes)
    top = [field for _, _, field, _ in STATE_LAYOUT if field]
    mine = [field for _, _, field, _ in PLAYER_LAYOUT]
    out = [
        "/* Generated by tools/gen_ctables.py from its STATE_LAYOUT and PLAYER_LAYOUT and the",
        " * field indices of duel/state.py: do not edit. */",
        "#ifndef DUEL_LAYOUT_H",
        "#define DUEL_LAYOUT_H",
        "",
        "/* One player's city. */",
        *player,
        "",
        "/* A position: every field of the Python State's vector (public information only).",
        " * Keep it zero-initialised, padding included (dc_new_game, dc_from_* do), so that",
        " * memcmp and the hash work. */",
        *state,
        "",
        f"_Static_assert(sizeof(dc_player) == {sizes['dc_player']}, \"dc_player's layout\");",
        f"_Static_assert(sizeof(dc_state) == {state_bytes}, \"dc_state's layout\");",
        "",
        *_field_enum("DC_F_", top, s.BASE[0]),
        f"#define DC_TOP_FIELDS {s.BASE[0]}",
        *_field_enum("DC_P_", mine, s.PLAYER_FIELDS),
        f"#define DC_PLAYER_FIELDS {s.PLAYER_FIELDS}",
        f"#define DC_N_FIELDS {s.N_FIELDS}",
        "",
        "#endif /* DUEL_LAYOUT_H */",
    ]
    return "\n".join(out) + "\n"



def cards_literal(mask: int) -> str:
    return f"DC_CARDS(0x{mask >> 64:x}u, 0x{mask & (2**64 - 1):016x}ull)"


def category(spec: tuple[tuple[str, ...], int] | None) -> str:
    """{colour mask, counts built wonders, counts coins/3, amount each} of a per-category rule."""
    if spec is None:
        return "{DC_CARDS(0, 0), 0, 0, 0}"
    names, each = spec
    colours = sum(COLOR_MASK[n] for n in names if n in COLORS)
    wonder, coins = int("wonder" in names), int("coins_div3" in names)
    return f"{{{cards_literal(colours)}, {wonder}, {coins}, {each}}}"


def generate() -> str:
    out = [
        "/* Generated by tools/gen_ctables.py from the data files in data/duel: do not edit. */",
        "#ifndef DUEL_TABLES_H",
        "#define DUEL_TABLES_H",
        "",
        f"#define DC_N_CARDS {len(CARDS)}",
        f"#define DC_N_WONDERS {len(WONDERS)}",
        f"#define DC_N_TOKENS {len(TOKENS)}",
        f"#define DC_N_CHAIN_SYMBOLS {len(CHAIN_SYMBOLS)}",
        f"#define DC_SCIENCE_LAW_BIT {1 << SCIENCE_SYMBOLS.index('law')}",
        "",
    ]
    for age in (1, 2, 3, 4):
        out.append(f"#define DC_AGE_DECK_{age} {cards_literal(AGE_DECK[age])}")
    for colour in COLORS:
        out.append(f"#define DC_{colour.upper()} {cards_literal(COLOR_MASK[colour])}")
    # a set's printed points are sum_b 2**b * |set & DC_POINTS_BIT_b|: three bit counts
    assert max(c.points for c in CARDS) < 8
    for b in range(3):
        mask = sum(1 << c.id for c in CARDS if c.points >> b & 1)
        out.append(f"#define DC_POINTS_BIT_{b} {cards_literal(mask)}")
    out.append("")
    chain_bit = {sym: 1 << i for i, sym in enumerate(CHAIN_SYMBOLS)}
    science_bit = {sym: 1 << i for i, sym in enumerate(SCIENCE_SYMBOLS)}
    out.append("static const dc_card_spec DC_CARDS_TABLE[DC_N_CARDS] = {")
    for c in CARDS:
        need = ", ".join(map(str, c.need))
        econ = s._CARD_ECON[c.id]
        out.append(
            f"    /* {c.id:2} {c.name} */ {{{{{need}}}, {c.coin_cost}, {int(not any(c.need))}, "
            f"0x{chain_bit.get(c.chain_from, 0):x}u, 0x{chain_bit.get(c.chain_gives, 0):x}u, "
            f"0x{econ:x}u, {science_bit.get(c.science, 0)}, {c.points}, {c.coins}, {c.shields}, "
            f"{category(c.coins_per)}, {category(c.coins_per_max)}, {category(c.points_per_max)}}},"
        )
    out.append("};")
    out.append("")
    destroy = {None: 0, "brown": 1, "grey": 2}
    out.append("static const dc_wonder_spec DC_WONDERS_TABLE[DC_N_WONDERS] = {")
    for w in WONDERS:
        need = ", ".join(map(str, w.need))
        out.append(
            f"    /* {w.id:2} {w.name} */ {{{{{need}}}, {int(not any(w.need))}, {w.points}, "
            f"{w.shields}, {w.coins}, {w.opponent_loses}, {int(w.extra_turn)}, "
            f"{destroy[w.destroy]}, 0x{s._WONDER_ECON[w.id]:x}u, {int(w.library)}, "
            f"{int(w.mausoleum)}}},"
        )
    out.append("};")
    out.append("")
    out.append("static const dc_token_spec DC_TOKENS_TABLE[DC_N_TOKENS] = {")
    for t in TOKENS:
        out.append(f"    /* {t.id} {t.name} */ {{{t.points}, {t.coins}}},")
    out.append("};")
    out.append("")
    out.append("/* Layouts by Age (index 0 unused): covering masks, face-up and start masks. */")
    for name, value in (
        ("DC_COVERED_BY", lambda lay: lay.covered_by_mask),
        ("DC_COVERS", lambda lay: [sum(1 << u for u in lay.covers[x]) for x in range(SLOTS)]),
    ):
        out.append(f"static const uint32_t {name}[4][DC_SLOTS] = {{")
        out.append("    {0},")
        for age in (1, 2, 3):
            masks = ", ".join(f"0x{m:x}u" for m in value(LAYOUTS[age]))
            out.append(f"    {{{masks}}},")
        out.append("};")
    face_up = ", ".join(f"0x{LAYOUTS[a].face_up_mask:x}u" for a in (1, 2, 3))
    start = ", ".join(
        f"0x{sum(1 << x for x in LAYOUTS[a].initially_accessible):x}u" for a in (1, 2, 3)
    )
    out.append(f"static const uint32_t DC_FACE_UP[4] = {{0, {face_up}}};")
    out.append(f"static const uint32_t DC_START_ACCESSIBLE[4] = {{0, {start}}};")
    out.append("")
    combos = list(GUILD_SLOT_MASKS)
    out.append("/* The 3-slot sets of the guild deal, by rank (itertools.combinations order). */")
    out.append(f"#define DC_N_GUILD_DEALS {len(combos)}")
    out.append("static const uint32_t DC_GUILD_DEALS[DC_N_GUILD_DEALS] = {")
    for i in range(0, len(combos), 8):
        out.append("    " + " ".join(f"0x{m:05x}u," for m in combos[i : i + 8]))
    out.append("};")
    out.append("")
    out.append("#endif /* DUEL_TABLES_H */")
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if the header is stale")
    args = parser.parse_args()
    for path, text in ((HEADER, generate()), (LAYOUT_HEADER, generate_layout())):
        if args.check:
            if path.read_text(encoding="utf-8") != text:
                sys.exit(f"{path} is stale: run python tools/gen_ctables.py")
            continue
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
