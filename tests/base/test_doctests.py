"""The docstring examples of the base-game modules run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "name",
    ["wonders.cards", "wonders.science", "wonders.trading", "wonders.game", "wonders.bots"],
)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
