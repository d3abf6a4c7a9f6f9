"""Turn ``../shared/reference/duel/names_i18n.csv`` into ``data/duel/names_i18n.json``.

Run when the reference changes: ``python tools/import_names_i18n.py``.

The reference holds community names of the 95 components (73 cards, 12 wonders, 10 progress
tokens) and of some game terms in Simplified Chinese, Traditional Chinese and Japanese, each cell
with its own confidence (``official``, ``widely-used``, ``seed-machine-translation``, ``unknown``;
see ``names_i18n.md`` beside it). The project keeps every cell with its confidence; which names
are shown is decided by the programs (``duel.app.i18n.display_name``), not here.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT.parent / "shared" / "reference" / "duel" / "names_i18n.csv"
OUT = ROOT / "data" / "duel" / "names_i18n.json"
COLUMNS = {"zh-Hans": "zh_hans", "zh-Hant": "zh_hant", "ja": "ja"}
KINDS = ("card", "wonder", "token")


def convert(path: Path = REFERENCE) -> dict:
    components: dict[str, dict[str, dict[str, list[str]]]] = {k: {} for k in KINDS}
    terms: dict[str, dict[str, list[str]]] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            confidence = dict(
                item.split("=", 1) for item in row["confidence"].split(";") if "=" in item
            )
            names = {
                lang: [row[column], confidence.get(column, "unknown")]
                for lang, column in COLUMNS.items()
                if row[column].strip()
            }
            if row["kind"] in KINDS:
                components[row["kind"]][row["en"]] = names
            else:
                terms[f"{row['kind']}: {row['en']}"] = names
    return {
        "source": "../shared/reference/duel/names_i18n.csv (community usage; see names_i18n.md)",
        "cell": "[name, confidence]; confidence: official | widely-used | "
        "seed-machine-translation | unknown; a missing language has no attested name",
        **components,
        "terms": terms,
    }


def main() -> None:
    data = convert()
    lines = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        value = json.dumps(data[key], ensure_ascii=False)
        if isinstance(data[key], dict):
            inner = [
                f"    {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
                for k, v in data[key].items()
            ]
            value = "{\n" + ",\n".join(inner) + "\n  }"
        lines.append(f"  {json.dumps(key)}: {value}" + ("," if i < len(keys) - 1 else ""))
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
