"""The docstring examples of the library modules run as tests."""

import doctest
import importlib

import pytest

MODULES = [
    "data",
    "pyramid_layouts",
    "duel",
    "duel.catalog",
    "duel.moves",
    "duel.state",
    "duel.pricing",
    "duel.core",
    "duel.position",
    "duel.record",
    "duel.explain",
    "duel.render",
    "duel.tui",
    "duel.replay",
    "duel.slots",
    "duel.lines",
    "duel.words",
    "duel.quote",
    "duel.cli_support",
    "solvers.spread",
    "solvers.chance_hint",
    "duel.line_input",
    "wonders.record",
    "duel.game_control",
    "duel.view_model",
    "solvers.payment",
    "solvers.payment_model",
    "solvers.batch",
    "solvers.review",
    "duel.render_review",
    "duel.cli_support",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
