"""SVG snapshots of the full-screen app at 80x24, 120x40 and 160x50 (issue 24): the board and
every decision dialog at each size. Compared by their text, row by row
(``UPDATE_SNAPSHOTS=1`` rewrites them); each also checks that the screen is the one asked for
and that the key line is drawn."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tests.test_app import compare_svg_snapshot, dialog, make_app, record_reaching, settle, svg_text

pytestmark = pytest.mark.terminal

SNAPSHOTS = os.path.join(os.path.dirname(__file__), "snapshots")
DECISIONS = ["choose_token", "library_choose", "destroy", "mausoleum", "choose_starter"]
CASES = [
    (screen, size)
    for size in [(80, 24), (120, 40), (160, 50)]
    for screen in ["board", "draft", "action", *DECISIONS]
]


def screenshot(screen: str, size: tuple[int, int]) -> str:
    phase = {"board": "play", "action": "play"}.get(screen, screen)
    record = record_reaching(phase)

    async def scenario() -> str:
        app = make_app(("human", "human"), seed=1, moves=record.moves, chance_nodes=0)
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            if screen == "action":
                await pilot.press("1")
                await settle(app, pilot)
            expected = {"board": ""}.get(screen, phase if screen != "action" else "action")
            svg = ""
            for _ in range(100):  # under load a dialog just pushed may not be drawn yet
                await pilot.pause(0.02)
                svg = app.export_screenshot()
                if dialog(app) == expected and "Quit" in "".join(svg_text(svg)):
                    break
            assert dialog(app) == expected
            return svg

    return asyncio.run(scenario())


@pytest.mark.parametrize(("screen", "size"), CASES, ids=[f"{s}-{w}x{h}" for s, (w, h) in CASES])
def test_snapshot(screen, size):
    svg = screenshot(screen, size)
    kept = Path(SNAPSHOTS) / f"app_{screen}_{size[0]}x{size[1]}.svg"
    text = "\n".join(compare_svg_snapshot(svg, kept))
    assert "Quit" in text and "coins" in text
    assert "Hint" in text
    # The side panels beside the board from 120 columns; below, on keys.
    assert ("Progress tokens on the board" in text) == (size[0] >= 120)
