"""Turn ``../shared/reference/base`` (7 Wonders, 1st edition) into ``data/base/*.json``.

Run when the reference changes: ``python tools/import_base_reference.py``. It also writes
``data/base/names_i18n.json``, the cards' and Wonders' Chinese names (:func:`build_names`).
The output is one JSON object per line (a list), with structured effects instead of the
reference's clause strings, so that the engine never parses text. ``tests/base/test_data.py``
re-reads the CSVs and checks the JSON against them.

Card object::

    {"id": 0, "age": 1, "name": "Clay Pit", "color": "brown", "cost": {"coins": 1},
     "chains_from": [], "chains_to": [], "min_players": 3,
     "effects": [{"type": "produce_choice", "options": ["clay", "ore"], "tradable": true}]}

``min_players`` is ``null`` for Guilds. Wonder object: ``{"city", "name", "side",
"starting_resource", "stages": [{"cost": {...}, "effects": [...]}, ...]}``.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT.parent / "shared" / "reference" / "base"
OUT = ROOT / "data" / "base"
RESOURCES = ("wood", "stone", "clay", "ore", "glass", "loom", "papyrus")
RAW = RESOURCES[:4]
MANUFACTURED = RESOURCES[4:]
SCOPES = ("self", "left", "right")


def parse_cost(text: str, coins: int = 0) -> dict[str, int]:
    """``"wood:1;ore:2"`` -> ``{"wood": 1, "ore": 2}`` (plus ``coins`` when non-zero)."""
    cost: dict[str, int] = {"coins": coins} if coins else {}
    for item in filter(None, text.split(";")):
        name, count = item.split(":")
        if name not in RESOURCES:
            raise ValueError(f"unknown resource {name!r} in {text!r}")
        cost[name] = int(count)
    return cost


def _scope(text: str) -> list[str]:
    parts = text.split("+")
    if not parts or any(p not in SCOPES for p in parts):
        raise ValueError(f"bad scope {text!r}")
    return [s for s in SCOPES if s in parts]


def parse_clause(clause: str) -> dict[str, Any]:
    """One reference clause -> one structured effect."""
    verb, *args = clause.split(":")
    if verb == "produce":
        return {"type": "produce", "resource": args[0], "count": int(args[1])}
    if verb in ("produce_choice", "produce_choice_private"):
        options = args[0].split("/")
        assert all(r in RESOURCES for r in options), clause
        return {"type": "produce_choice", "options": options, "tradable": verb == "produce_choice"}
    if verb.startswith("trade_"):
        _, kind, side = verb.split("_")
        resources = RAW if kind == "raw" else MANUFACTURED
        assert kind in ("raw", "manufactured") and side in ("left", "right"), clause
        return {"type": "trade_discount", "resources": list(resources), "side": side,
                "price": int(args[0])}  # fmt: skip
    if verb in ("shields", "points", "coins"):
        return {"type": verb, "count": int(args[0])}
    if verb == "science":
        assert args[0] in ("compass", "gear", "tablet", "any"), clause
        return {"type": "science", "symbol": args[0]}
    if verb in ("coins_per_card", "points_per_card"):
        return {"type": verb, "colors": args[0].split("+"), "scope": _scope(args[1]),
                "each": int(args[2])}  # fmt: skip
    if verb in ("coins_per_wonder_stage", "points_per_wonder_stage", "points_per_defeat_token"):
        return {"type": verb, "scope": _scope(args[0]), "each": int(args[1])}
    if verb in (
        "free_build_once_per_age",
        "build_from_discard",
        "play_last_card_each_age",
        "copy_neighbor_guild",
    ):
        return {"type": verb}
    raise ValueError(f"unknown effect clause {clause!r}")


def parse_effects(text: str) -> list[dict[str, Any]]:
    return [parse_clause(c) for c in filter(None, text.split(";"))]


def read_csv(name: str) -> list[dict[str, str]]:
    with (REFERENCE / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def build_cards() -> list[dict[str, Any]]:
    cards = []
    for i, row in enumerate(read_csv("cards.csv")):
        cards.append(
            {
                "id": i,
                "age": int(row["age"]),
                "name": row["name"],
                "color": row["color"],
                "cost": parse_cost(row["cost_resources"], int(row["cost_coins"] or 0)),
                "chains_from": [c for c in row["chains_from"].split("|") if c],
                "chains_to": [c for c in row["chains_to"].split("|") if c],
                "effects": parse_effects(row["effect"]),
                "min_players": int(row["min_players"]) if row["min_players"] else None,
            }
        )
    return cards


def build_wonders() -> list[dict[str, Any]]:
    wonders = []
    for row in read_csv("wonders.csv"):
        stages = []
        for k in range(1, int(row["num_stages"]) + 1):
            stages.append(
                {
                    "cost": parse_cost(row[f"stage{k}_cost"]),
                    "effects": parse_effects(row[f"stage{k}_effect"]),
                }
            )
        assert row["starting_resource"] in RESOURCES
        wonders.append(
            {
                "city": row["wonder_city"],
                "name": row["wonder_name"],
                "side": row["side"],
                "starting_resource": row["starting_resource"],
                "stages": stages,
            }
        )
    return wonders


def dump_lines(items: list[dict[str, Any]]) -> str:
    """A JSON list with one item per line (diff-friendly)."""
    lines = [json.dumps(item, ensure_ascii=False) for item in items]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def build_names() -> dict[str, Any]:
    """The base game's names in other languages: the reference's ``chinese_name`` (Traditional
    Chinese, as its seed 000 writes them; see SOURCES.md there), by English card and Wonder
    name. No Simplified form is attested by a source, so none is derived."""
    names: dict[str, Any] = {
        "source": "../shared/reference/base/{cards,wonders}.csv, column chinese_name: Traditional"
        " Chinese as the reference's seed 000 writes them (SOURCES.md there)",
        "card": {},
        "wonder": {},
    }
    for row in read_csv("cards.csv"):
        names["card"][row["name"]] = {"zh-Hant": row["chinese_name"]}
    for row in read_csv("wonders.csv"):
        names["wonder"][row["wonder_name"]] = {"zh-Hant": row["chinese_name"]}
    return names


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "cards.json").write_text(dump_lines(build_cards()), encoding="utf-8")
    (OUT / "wonders.json").write_text(dump_lines(build_wonders()), encoding="utf-8")
    names = json.dumps(build_names(), ensure_ascii=False, indent=1) + "\n"
    (OUT / "names_i18n.json").write_text(names, encoding="utf-8")
    print(f"wrote {OUT / 'cards.json'} and {OUT / 'wonders.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
