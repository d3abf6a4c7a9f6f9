"""The layers, read from the package layout: the game, the solvers on it, the programs on both.

The installed packages and where their sources live come from ``pyproject.toml``:

* **the game**: every module of ``duel`` outside ``duel.app`` and ``duel.solvers`` (the rules,
  ``duel.data``, ``duel.pyramid_layouts``). It imports no solver, no program, no base game and
  no user-interface library;
* **the solvers**: ``duel.solvers``. They import the game, never a program;
* **the programs**: ``duel.app``, ``duel.net`` (the network game) and ``wonders.app``. Nothing
  but programs, tests, benchmarks and tools imports them;
* **the base game**: ``wonders`` outside ``wonders.app``. It builds on the Duel engine (its
  trading on ``duel.payment_model``) and imports no solver, no program and no UI library;
* **inside the programs** (``duel.app``): ``control`` (the game without input or output) loads
  no rich, textual, typer or prompt_toolkit, through any chain of the app's imports; ``text``
  and ``line`` load no textual; ``screen`` may. Each imports nothing above it (control and text
  neither line, screen nor cli; line not screen; screen not line), and every module sits in a
  role's subpackage whose docstring names it.

Every import statement counts, the lazy ones inside functions included; imports under
``if TYPE_CHECKING:`` are for annotations only and do not. A last test finds no import cycle
between the modules of the repository's packages.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ("duel.app", "duel.net", "wonders.app")
SOLVERS = "duel.solvers"
UI_LIBRARIES = ("rich", "typer", "textual", "websockets")


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _in(module: str, packages: tuple[str, ...] | str) -> bool:
    packages = (packages,) if isinstance(packages, str) else packages
    return any(_within(module, p) for p in packages)


@cache
def modules() -> dict[str, Path]:
    """Every module of the installed packages (name -> source file), from pyproject.toml."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = config["tool"]["setuptools"]
    package_dir = setuptools.get("package-dir", {})
    found: dict[str, Path] = {}
    for package in setuptools["packages"]:
        folder = ROOT / package_dir.get(package, package.replace(".", "/"))
        for path in folder.glob("*.py"):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            found[name] = path
    return found


@cache
def extensions() -> frozenset[str]:
    """The compiled modules setup.py builds (they import nothing the graph could follow)."""
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    return frozenset(re.findall(r'Extension\(\s*"([\w.]+)"', text))


def _known(name: str) -> str | None:
    """The module ``name`` refers to: itself if known, else its nearest known parent."""
    while name and name not in modules() and name not in extensions():
        name = name.rpartition(".")[0]
    return name or None


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return skipped


@cache
def import_statements(name: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``(module, names)`` for every import in ``name``, module-level and lazy alike.

    ``import a.b`` is ``("a.b", ())``; ``from a import b, c`` is ``("a", ("b", "c"))`` with a
    relative ``from`` made absolute."""
    path = modules()[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_nodes(tree)
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            found.append((base, tuple(alias.name for alias in node.names)))
    return tuple(found)


def imports_of(name: str) -> list[str]:
    """Every dotted name ``name`` imports: ``from a import b`` gives ``a`` and ``a.b``."""
    return [
        n
        for base, names in import_statements(name)
        for n in (base, *(f"{base}.{x}" for x in names))
    ]


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module -> the repository's modules it imports (``from p import m`` is an edge to p.m)."""
    edges: dict[str, frozenset[str]] = {}
    for name in modules():
        targets: set[str | None] = set()
        for base, names in import_statements(name):
            submodules = [f"{base}.{x}" for x in names if _known(f"{base}.{x}") == f"{base}.{x}"]
            targets |= set(submodules) if submodules and len(submodules) == len(names) else set()
            if not names or len(submodules) < len(names):
                targets.add(_known(base))
        edges[name] = frozenset(t for t in targets if t and t != name)
    return edges


def game_modules() -> list[str]:
    return sorted(m for m in modules() if _within(m, "duel") and not _in(m, (*PROGRAMS, SOLVERS)))


def _layer_errors(name: str, forbidden) -> list[str]:
    return [i for i in imports_of(name) if forbidden(i)]


def _is_program(imported: str) -> bool:
    return _in(imported, PROGRAMS)


@pytest.mark.parametrize("name", game_modules())
def test_the_game_imports_no_solver_program_base_game_or_ui(name):
    def forbidden(imported: str) -> bool:
        return (
            _in(imported, (SOLVERS, *PROGRAMS, "wonders")) or imported.split(".")[0] in UI_LIBRARIES
        )

    assert _layer_errors(name, forbidden) == []


@pytest.mark.parametrize(
    "name", sorted(m for m in modules() if _within(m, "wonders") and not _in(m, PROGRAMS))
)
def test_the_base_game_imports_no_solver_program_or_ui(name):
    """The base game's rules (its trading included) build on the engine, not on the solvers."""

    def forbidden(imported: str) -> bool:
        return _in(imported, (SOLVERS, *PROGRAMS)) or imported.split(".")[0] in UI_LIBRARIES

    assert _layer_errors(name, forbidden) == []


@pytest.mark.parametrize("name", sorted(m for m in modules() if _in(m, SOLVERS)))
def test_the_solvers_import_no_program_and_no_base_game(name):
    assert _layer_errors(name, lambda i: _is_program(i) or _in(i, "wonders")) == []


@pytest.mark.parametrize("name", sorted(m for m in modules() if not _in(m, PROGRAMS)))
def test_nothing_but_the_programs_imports_the_programs(name):
    assert _layer_errors(name, _is_program) == []


def test_the_layers_hold_every_module():
    """A sanity check of the discovery: the layers are not empty and the programs are found."""
    names = set(modules())
    assert {"duel.state", "duel.data", "duel.pyramid_layouts", "duel.solvers.search"} <= names
    assert {"duel.app.cli.main", "duel.app.screen.app", "wonders.app.cli"} <= names
    assert {"duel.net.protocol", "duel.net.server", "duel.net.client"} <= names
    assert "duel.solvers._csearch" in extensions()


def test_importing_the_game_loads_no_solver_or_ui():
    code = (
        "import sys\n"
        f"for name in {game_modules()!r}: __import__(name)\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    loaded = [
        m for m in out if _in(m, (SOLVERS, *PROGRAMS, "wonders")) or m.split(".")[0] in UI_LIBRARIES
    ]
    assert loaded == []


def import_cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in edges:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return cycles


def test_no_import_cycle_between_modules():
    assert import_cycles() == []


# --- the programs' own layers (duel/app) ----------------------------------------------------------
#: What each subpackage of duel.app may not load, through any chain of the repository's imports
#: (lazy ones included): the game's control draws nothing and reads no terminal; the wording and
#: the line mode draw with rich at most; only the full screen loads Textual.
APP_FORBIDDEN = {
    "duel.app.control": ("rich", "textual", "typer", "prompt_toolkit"),
    "duel.app.text": ("textual", "typer", "prompt_toolkit"),
    "duel.app.line": ("textual", "typer"),
}
#: The subpackages of duel.app each may not import (the arrows point down: cli -> screen/line
#: -> text -> control... never back up).
APP_ABOVE = {
    "duel.app.control": ("duel.app.cli", "duel.app.line", "duel.app.screen", "duel.net"),
    "duel.app.text": ("duel.app.cli", "duel.app.line", "duel.app.screen", "duel.net"),
    "duel.app.line": ("duel.app.cli", "duel.app.screen", "duel.net"),
    "duel.app.screen": ("duel.app.cli", "duel.app.line", "duel.net"),
}


def reachable(name: str) -> dict[str, str]:
    """Every module of the app ``name`` loads, directly or through others -> who imports it.

    The walk stays in ``duel.app``: the solvers are checked as a layer of their own (their
    batch runner draws a rich progress bar when asked, lazily), and
    :func:`test_the_control_loads_no_ui_library_when_imported` checks what importing loads."""
    edges = graph()
    seen = {name: name}
    todo = [name]
    while todo:
        module = todo.pop()
        for target in sorted(edges.get(module, ())):
            if target not in seen and _within(target, "duel.app"):
                seen[target] = module
                todo.append(target)
    return seen


def _chain(seen: dict[str, str], module: str) -> str:
    chain = [module]
    while seen[chain[-1]] != chain[-1]:
        chain.append(seen[chain[-1]])
    return " <- ".join(chain)


def library_errors(name: str, libraries: tuple[str, ...]) -> list[str]:
    """``library <- module <- ... <- name`` for every forbidden library ``name`` reaches."""
    seen = reachable(name)
    return [
        f"{imported} <- {_chain(seen, module)}"
        for module in sorted(seen)
        if module in modules()  # not a compiled module
        for imported in imports_of(module)
        if imported.split(".")[0] in libraries
    ]


def _app_modules(package: str) -> list[str]:
    return sorted(m for m in modules() if _within(m, package))


@pytest.mark.parametrize(
    ("name", "libraries"),
    [
        pytest.param(m, libs, id=m)
        for package, libs in APP_FORBIDDEN.items()
        for m in _app_modules(package)
    ],
)
def test_the_apps_layers_load_no_forbidden_library(name, libraries):
    assert library_errors(name, libraries) == []


@pytest.mark.parametrize(
    ("name", "above"),
    [
        pytest.param(m, above, id=m)
        for package, above in APP_ABOVE.items()
        for m in _app_modules(package)
    ],
)
def test_the_apps_layers_import_nothing_above_them(name, above):
    assert _layer_errors(name, lambda i: _in(i, above)) == []


def test_every_app_module_is_in_a_layer_and_on_the_map():
    """duel.app's own modules are its map (__init__) and its catalog (i18n); every other module
    sits in a role's subpackage, and the subpackage's docstring names each of its modules."""
    flat = {m for m in modules() if m.count(".") == 2 and _within(m, "duel.app")}
    roles = tuple(f"duel.app.{role}" for role in ("cli", "control", "text", "line", "screen"))
    assert flat <= {*roles, "duel.app.i18n"}
    for package in roles:
        doc = modules()[package].read_text(encoding="utf-8")
        missing = [m for m in _app_modules(package) if m != package and f":mod:`{m}`" not in doc]
        assert missing == [], f"{package}'s docstring does not name {missing}"


def test_the_control_loads_no_ui_library_when_imported():
    """What importing every module of duel.app.control loads, solvers included."""
    names = _app_modules("duel.app.control")
    code = (
        "import sys\n"
        f"for name in {names!r}: __import__(name)\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    libraries = APP_FORBIDDEN["duel.app.control"]
    assert [m for m in out if m.split(".")[0] in libraries] == []
