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
    "duel.app.text.render",
    "duel.app.line.play",
    "duel.app.control.replay",
    "duel.app.text.typed",
    "duel.slots",
    "duel.app.text.lines",
    "duel.app.text.words",
    "duel.quote",
    "duel.app.control.saves",
    "duel.solvers.spread",
    "duel.solvers.chance_hint",
    "duel.app.line.input",
    "wonders.record",
    "duel.app.control.game",
    "duel.app.text.view_model",
    "duel.solvers.payment",
    "duel.payment_model",
    "duel.solvers.batch",
    "duel.solvers.review",
    "duel.app.text.review",
    "duel.app.i18n",
    "duel.app.cli.support",
    "duel.app.text.moves",
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
