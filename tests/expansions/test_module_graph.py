"""The expansion engine's modules call each other through imports, typed and visible to
tests/test_layers.py's cycle check: no module hands itself to another at run time (issue 66,
item 3: ``rules`` used to bind itself into ``senate``)."""

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.expansions

PACKAGE = Path(__file__).resolve().parents[2] / "duel" / "expansions"


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_no_module_is_passed_around_at_run_time(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "modules":
            assert ast.unparse(node.value) != "sys", f"{path.name}: sys.modules"
        if isinstance(node, ast.Name):
            assert node.id != "ModuleType", f"{path.name}: a module as a value"


def test_the_shared_effects_import_neither_rules_nor_senate():
    for name in ("effects.py", "queries.py"):
        tree = ast.parse((PACKAGE / name).read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} | {
            a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names
        }
        assert not imported & {"duel.expansions.rules", "duel.expansions.senate"}, name
