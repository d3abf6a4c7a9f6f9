"""The project's rules data (cards, wonders, tokens, layouts) as JSON files.

>>> sorted(load("duel/wonders.json")[0])[:3]
['cost', 'effects', 'name']
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load(relative_path: str) -> Any:
    """Parse one JSON data file, e.g. ``load("duel/cards.json")``."""
    text = resources.files(__name__).joinpath(relative_path).read_text(encoding="utf-8")
    return json.loads(text)
