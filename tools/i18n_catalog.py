"""Extract, update and compile the programs' message catalogs, with babel (a test dependency).

    python tools/i18n_catalog.py          # write duel.pot, update every .po, compile every .mo
    python tools/i18n_catalog.py --check  # exit 1 if a .po lacks a message or a .mo is stale

The three steps are babel's (``pybabel extract``, ``update`` and ``compile``, called through
its API so that the keywords and paths live here):

* **extract**: a message is the first argument of ``tr(...)`` or ``N_(...)`` and the
  (singular, plural) pair of ``trn(n, singular, plural)`` in ``duel/app`` and ``wonders/app``
  and in the solver modules whose words the programs show (``SOLVER_SOURCES``: they take the
  programs' ``tr`` as an argument), and the ``Reason(...)`` templates of the engine's
  explanations (``ENGINE_SOURCES``)
  (``pybabel extract -k tr -k N_ -k trn:2,3``) -> ``duel/app/locale/duel.pot``;
* **update**: each ``<lang>.po`` gets the new messages with an empty translation to fill in
  and loses the messages no longer used (no fuzzy matching: a changed English text is a new
  message);
* **compile**: each ``<lang>.po`` -> ``<lang>.mo``, which the programs read at run time with the
  standard library's ``gettext`` (no run-time dependency). The .mo files are committed and
  ship as package data; tests/test_i18n.py fails when one is stale against its .po.

The header dates are kept from the existing files, so that running the tool without a change of
message leaves every file as it was.
"""

from __future__ import annotations

import ast
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "duel" / "app" / "locale"
SOURCES = [ROOT / "duel" / "app", ROOT / "duel" / "net", ROOT / "wonders" / "app"]
#: Solver modules whose words take a translation function (``tr=``) from the programs.
SOLVER_SOURCES = [
    ROOT / "solvers" / f"{name}.py" for name in ("spread", "chance_hint", "payment", "xhint")
]
#: Engine modules whose sentences are :class:`duel.explain.Reason` templates (the engine imports
#: no UI: the programs translate a template and its values with :func:`duel.app.i18n.tr_reason`).
ENGINE_SOURCES = [
    ROOT / "duel" / f"{name}.py"
    for name in (
        "explain",
        "files",
        "json_reader",
        "position",
        "record",
        "moves",
        "catalog",
        "slots",
    )
] + [ROOT / "wonders" / f"{name}.py" for name in ("cards", "game")]
ENGINE_SOURCES += [
    ROOT / "duel" / "expansions" / f"{name}.py" for name in ("state", "position", "record")
]
LANGUAGES = ("zh-Hans", "zh-Hant", "ja")
KEYWORDS = {
    "tr": None,
    "N_": None,
    "N_format": None,
    "trn": (2, 3),
    "Reason": None,
    "template": None,
}
#: The modules whose commands' docstrings are their --help text (typer reads them).
COMMAND_MODULES = ["duel/app/cli/main.py", "duel/app/cli/analysis.py", "duel/app/cli/replay.py"]
COMMAND_MODULES += ["duel/app/cli/review.py", "duel/net/cli.py", "wonders/app/cli.py"]
PROJECT = "wonders-duel"


def babel_locale(lang: str) -> str:
    """The babel (CLDR) name of a language tag: ``zh-Hans`` -> ``zh_Hans``."""
    return lang.replace("-", "_")


def extract() -> Catalog:
    """The template: every message of the sources, in the order first met, with its places."""
    template = Catalog(project=PROJECT, fuzzy=False)
    paths = [p for folder in SOURCES for p in sorted(folder.rglob("*.py"))]
    paths += SOLVER_SOURCES + ENGINE_SOURCES
    for path in paths:
        where = str(path.relative_to(ROOT))
        for lineno, message, _comments, context in extract_from_file(
            "python", path, keywords=KEYWORDS, comment_tags=()
        ):
            template.add(message, None, [(where, lineno)], context=context)
        if where in COMMAND_MODULES:
            for lineno, doc in command_docstrings(path):
                template.add(doc, None, [(where, lineno)])
    return template


def command_docstrings(path: Path) -> list[tuple[int, str]]:
    """The docstrings of a module's commands, as typer shows them (``inspect.cleandoc``): the
    functions decorated with ``@app.command(...)`` or registered by ``app.command(...)(f)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    registered = {
        node.args[0].id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Call)
        and getattr(node.func.func, "attr", None) == "command"
        and node.args
        and isinstance(node.args[0], ast.Name)
    }
    out = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        decorated = any(
            getattr(getattr(d, "func", d), "attr", None) == "command" for d in node.decorator_list
        )
        doc = ast.get_docstring(node, clean=True)
        if doc and (decorated or node.name in registered):
            out.append((node.body[0].lineno, doc))
    return out


def messages() -> dict[str | tuple[str, ...], list[str]]:
    """msgid (a (singular, plural) pair for ``trn``) -> the places it is used (path:line)."""
    return {m.id: [f"{p}:{n}" for p, n in m.locations] for m in extract() if m.id}


def po_path(lang: str) -> Path:
    return LOCALE / f"{lang}.po"


def mo_path(lang: str) -> Path:
    return LOCALE / f"{lang}.mo"


def load_po(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=babel_locale(lang) if lang else None)


def compile_mo(catalog: Catalog) -> bytes:
    """The .mo file of a catalog (fuzzy and untranslated messages left out, as msgfmt does)."""
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def mo_table(data: bytes) -> dict:
    """msgid -> msgstr of a compiled catalog, header left out (it names babel's version)."""
    return {_key(m.id): _key(m.string) for m in read_mo(io.BytesIO(data)) if m.id}


def _key(value):
    """A message's id or string, a tuple for a plural message (babel gives lists or tuples)."""
    return tuple(value) if isinstance(value, list | tuple) else value


def _po_text(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, ignore_obsolete=True, include_previous=False, width=100)
    return out.getvalue()


def _write_if_changed(path: Path, data: bytes) -> bool:
    if path.exists() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    return True


def problems() -> list[str]:
    """What --check reports: a message missing in a language, a .mo stale against its .po."""
    found = messages()
    out = []
    for lang in LANGUAGES:
        catalog = load_po(po_path(lang), lang)
        translated = {m.id for m in catalog if m.id and m.string and not m.fuzzy}
        out += [f"{lang}: missing {m!r}" for m in found if m not in translated]
        mo = mo_path(lang)
        if not mo.exists() or mo_table(mo.read_bytes()) != mo_table(compile_mo(catalog)):
            out.append(f"{lang}: {mo.name} is stale (run tools/i18n_catalog.py)")
    return out


def main(argv: list[str]) -> int:
    if "--check" in argv:
        found = problems()
        print("\n".join(found) or "catalogs complete, .mo files up to date")
        return 1 if found else 0
    LOCALE.mkdir(parents=True, exist_ok=True)
    template = extract()
    pot = LOCALE / "duel.pot"
    if pot.exists():
        template.creation_date = load_po(pot).creation_date
    _write_if_changed(pot, _po_text(template))
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.exists():
            catalog = load_po(path, lang)
        else:
            catalog = Catalog(locale=babel_locale(lang), project=PROJECT, fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.creation_date = template.creation_date
        _write_if_changed(path, _po_text(catalog))
        mo = mo_path(lang)
        compiled = compile_mo(catalog)
        if not mo.exists() or mo_table(mo.read_bytes()) != mo_table(compiled):
            mo.write_bytes(compiled)
        todo = sum(1 for m in catalog if m.id and not m.string)
        print(f"{path.relative_to(ROOT)}: {len(template)} messages, {todo} to translate")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
