"""The game layer (duel core, pyramid_layouts, data) imports no solver and no user interface.

Pricing is a rule of the game, so it lives in ``duel.pricing``; ``solvers`` builds on the game and
the programs (``duel/cli*``, ``duel/tui.py``, ``duel/render.py`` and the helpers only they use)
build on both.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The game layer, listed explicitly: a new core module must be added here.
CORE_MODULES = [
    "data",
    "pyramid_layouts",
    "duel",
    "duel.catalog",
    "duel.moves",
    "duel.pricing",
    "duel.core",
    "duel.state",
    "duel.position",
    "duel.record",
    "duel.explain",
    "duel.slots",
    "duel.quote",
]
#: The programs layer inside duel/: the CLI, the views and what only they use (the game
#: controller without I/O, the replay stepper, wording of lines and plurals).
PROGRAMS = (
    "duel.cli",
    "duel.tui",
    "duel.render",
    "duel.game_control",
    "duel.view_model",
    "duel.app",
    "duel.replay",
    "duel.lines",
    "duel.words",
    "duel.line_input",
)
FORBIDDEN = ("solvers", "rich", "typer", "textual", "wonders")


def _module_path(name: str) -> Path:
    path = ROOT.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _is_forbidden(imported: str) -> bool:
    return imported.split(".")[0] in FORBIDDEN or imported.startswith(PROGRAMS)


@pytest.mark.parametrize("name", CORE_MODULES)
def test_core_module_source_imports_no_solver_or_ui(name):
    """Every import statement, lazy ones inside functions included."""
    tree = ast.parse(_module_path(name).read_text(encoding="utf-8"))
    imported = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.append(node.module)
    assert [m for m in imported if _is_forbidden(m)] == []


def test_importing_the_game_layer_loads_no_solver_or_ui():
    code = (
        "import sys\n"
        f"for name in {CORE_MODULES!r}: __import__(name)\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    assert [m for m in out if _is_forbidden(m)] == []


def test_every_duel_module_is_classified():
    """A new module in duel/ must be listed as core or as a program."""
    names = {f"duel.{p.stem}" for p in (ROOT / "duel").glob("*.py") if p.stem != "__init__"}
    programs = {n for n in names if n.startswith(PROGRAMS)}
    assert names - programs - set(CORE_MODULES) == set()
