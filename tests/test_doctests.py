"""The docstring examples of the library modules run as tests."""

import doctest
import importlib

import pytest

MODULES = [
    "duel.data",
    "duel.pyramid_layouts",
    "duel",
    "duel.catalog",
    "duel.moves",
    "duel.state",
    "duel.pricing",
    "duel.core",
    "duel.position",
    "duel.record",
    "duel.explain",
    "duel.app.render",
    "duel.app.tui",
    "duel.app.replay",
    "duel.app.typed",
    "duel.slots",
    "duel.app.lines",
    "duel.app.words",
    "duel.quote",
    "duel.app.cli_support",
    "duel.solvers.spread",
    "duel.solvers.chance_hint",
    "duel.app.line_input",
    "wonders.record",
    "duel.app.game_control",
    "duel.app.view_model",
    "duel.solvers.payment",
    "duel.payment_model",
    "duel.solvers.batch",
    "duel.solvers.review",
    "duel.app.render_review",
    "duel.app.i18n",
    "duel.app.cli_support",
    "duel.expansions",
    "duel.expansions.components",
    "duel.expansions.moves",
    "duel.expansions.state",
    "duel.expansions.record",
    "duel.expansions.position",
    "duel.expansions.names",
    "duel.solvers.xplayers",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
