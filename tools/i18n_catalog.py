"""Extract the programs' messages into ``duel/app/locale/duel.pot`` and update the .po files.

    python tools/i18n_catalog.py          # write duel.pot; add new messages to every .po
    python tools/i18n_catalog.py --check  # exit 1 if a .po lacks a message (as the test does)

A message is the first string argument of ``tr(...)`` or ``N_(...)`` and the two string
arguments of ``trn(n, singular, plural)`` in ``duel/app`` and ``wonders/app`` (the same calls
``xgettext --keyword=tr --keyword=N_ --keyword=trn:2,3`` or ``pybabel extract`` would find).
Existing translations are kept; a new message gets an empty ``msgstr`` to fill in. Messages no
longer used are dropped from the .po files.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "duel" / "app" / "locale"
SOURCES = [ROOT / "duel" / "app", ROOT / "wonders" / "app"]
LANGUAGES = ("zh-Hans", "zh-Hant", "ja")


def messages() -> dict[str, list[str]]:
    """msgid -> the places it is used (path:line), in the order first met."""
    found: dict[str, list[str]] = {}
    for folder in SOURCES:
        for path in sorted(folder.glob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                name = node.func.id
                picks = {"tr": [0], "N_": [0], "trn": [1, 2]}.get(name, [])
                for i in picks:
                    if i < len(node.args) and isinstance(node.args[i], ast.Constant):
                        value = node.args[i].value
                        if isinstance(value, str):
                            where = f"{path.relative_to(ROOT)}:{node.lineno}"
                            found.setdefault(value, []).append(where)
    return dict(sorted(found.items(), key=lambda kv: kv[1][0]))


def quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def entry(msgid: str, msgstr: str, places: list[str]) -> str:
    refs = "".join(f"#: {p}\n" for p in places[:3])
    return f"{refs}msgid {quote(msgid)}\nmsgstr {quote(msgstr)}\n"


def header(lang: str | None) -> str:
    return (
        'msgid ""\nmsgstr ""\n'
        '"Project-Id-Version: wonders-duel\\n"\n'
        f'"Language: {lang or ""}\\n"\n'
        '"MIME-Version: 1.0\\n"\n'
        '"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Content-Transfer-Encoding: 8bit\\n"\n'
        + ('"Plural-Forms: nplurals=1; plural=0;\\n"\n' if lang else "")
    )


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from duel.app.i18n import read_po

    found = messages()
    if "--check" in argv:
        missing = 0
        for lang in LANGUAGES:
            catalog = read_po((LOCALE / f"{lang}.po").read_text(encoding="utf-8"))
            for msgid in found:
                if msgid not in catalog:
                    print(f"{lang}: missing {msgid!r}")
                    missing += 1
        return 1 if missing else 0
    LOCALE.mkdir(parents=True, exist_ok=True)
    pot = [header(None)] + [entry(m, "", places) for m, places in found.items()]
    (LOCALE / "duel.pot").write_text("\n".join(pot), encoding="utf-8")
    for lang in LANGUAGES:
        path = LOCALE / f"{lang}.po"
        old = read_po(path.read_text(encoding="utf-8")) if path.exists() else {}
        body = [header(lang)] + [entry(m, old.get(m, ""), p) for m, p in found.items()]
        path.write_text("\n".join(body), encoding="utf-8")
        todo = sum(1 for m in found if m not in old)
        print(f"{path.relative_to(ROOT)}: {len(found)} messages, {todo} to translate")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
