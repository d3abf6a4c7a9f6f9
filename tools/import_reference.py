"""Turn ``../shared/reference/duel`` into the project's own ``data/duel/*.json`` files.

Run once when the reference changes: ``python tools/import_reference.py``.
The tests (tests/test_data.py) compare the result against the reference again.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT.parent / "shared" / "reference" / "duel"
OUT = ROOT / "data" / "duel"
RESOURCES = ("wood", "clay", "stone", "glass", "papyrus")


def parse_resources(text: str) -> dict[str, int]:
    cost: dict[str, int] = {}
    for item in filter(None, text.split(";")):
        name, count = item.split(":")
        cost[name] = int(count)
    return {r: cost[r] for r in RESOURCES if r in cost}


def parse_effects(text: str) -> dict[str, object]:
    """Map the reference effect grammar onto our structured effect objects."""
    effects: dict[str, object] = {}
    for clause in filter(None, text.split(";")):
        verb, *args = clause.split(":")
        if verb == "produce":
            produce = effects.setdefault("produce", {})
            assert isinstance(produce, dict)
            produce[args[0]] = int(args[1])
        elif verb == "produce_choice":
            effects["produce_choice"] = args[0].split("|")
        elif verb == "trade_fixed":
            effects["trade_fixed"] = args[0].split("|")
        elif verb in ("shields", "points", "coins", "opponent_loses_coins", "coins_on_chain"):
            effects[verb] = int(args[0])
        elif verb == "science":
            effects["science"] = args[0]
        elif verb in ("coins_per", "coins_per_max", "points_per_max"):
            effects[verb] = {"count": args[0].split("+"), "each": int(args[1])}
        elif verb == "points_per":
            assert args[0] == "progress_token"
            effects["points_per_progress_token"] = int(args[1])
        elif verb in ("extra_turn", "build_from_discard", "gain_opponent_trade_coins"):
            effects[verb] = True
        elif verb == "destroy":
            effects["destroy"] = args[0]
        elif verb == "progress_from_box":
            effects["progress_from_box"] = int(args[0])
        elif verb == "discount":
            effects["discount"] = {"on": args[0], "units": int(args[1])}
        elif verb == "shield_bonus":
            effects["red_shield_bonus"] = int(args[1])
        elif verb == "extra_turn_on":
            assert args[0] == "wonder"
            effects["extra_turn_on_wonders"] = True
        else:
            raise ValueError(f"unknown effect {clause!r}")
    return effects


def read(name: str) -> list[dict[str, str]]:
    with open(REFERENCE / name, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def one_item_per_line(payload: object) -> str:
    """JSON with one card (or slot) per line: easy to read, diff and edit by hand."""
    if isinstance(payload, list):
        items = [json.dumps(item, ensure_ascii=False) for item in payload]
        return "[\n  " + ",\n  ".join(items) + "\n]\n"
    assert isinstance(payload, dict)
    blocks = [
        f"  {json.dumps(key)}: " + one_item_per_line(value).rstrip("\n").replace("\n", "\n  ")
        for key, value in payload.items()
    ]
    return "{\n" + ",\n".join(blocks) + "\n}\n"


def main() -> int:
    if not REFERENCE.is_dir():
        print(f"reference not found at {REFERENCE}", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    cards = [
        {
            "name": row["name"],
            "age": 4 if row["age"] == "guild" else int(row["age"]),
            "color": row["color"],
            "cost": {"coins": int(row["cost_coins"]), **parse_resources(row["cost_resources"])},
            "chain_from": row["chain_from"] or None,
            "chain_gives": row["chain_symbol_given"] or None,
            "effects": parse_effects(row["effect"]),
        }
        for row in read("cards.csv")
    ]
    wonders = [
        {
            "name": row["name"],
            "cost": parse_resources(row["cost_resources"]),
            "effects": parse_effects(row["effect"]),
        }
        for row in read("wonders.csv")
    ]
    tokens = [
        {"name": row["name"], "effects": parse_effects(row["effect"]), "text": row["notes"]}
        for row in read("progress_tokens.csv")
    ]
    layouts = json.loads((REFERENCE / "layouts.json").read_text(encoding="utf-8"))
    structures = {
        age: [
            {
                "slot": s["slot"],
                "row": s["row"],
                "x": s["x"],
                "face_up": s["face_up"],
                "covered_by": s["covered_by"],
            }
            for s in layout["slots"]
        ]
        for age, layout in layouts["ages"].items()
    }
    for name, payload in (
        ("cards.json", cards),
        ("wonders.json", wonders),
        ("progress_tokens.json", tokens),
        ("layouts.json", structures),
    ):
        (OUT / name).write_text(one_item_per_line(payload), encoding="utf-8")
    print(f"wrote {len(cards)} cards, {len(wonders)} wonders, {len(tokens)} tokens to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
