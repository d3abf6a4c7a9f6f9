"""The full-screen app at its smallest size (issue 24): a whole game at 80x24 from the start
screen to the review by keys alone, and snapshots of the start screen, the new game's screen and
the review screen at 80x24 and 120x40 (compared by their text, row by row; ``UPDATE_SNAPSHOTS=1``
rewrites them)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from duel.app.screen.app import DuelApp
from duel.app.screen.review import ReviewScreen
from duel.app.screen.start import NewGameScreen, StartScreen
from tests.test_app import compare_svg_snapshot, dialog, settle, svg_text
from tests.test_app_review import random_record, reviewed

pytestmark = pytest.mark.terminal

SNAPSHOTS = os.path.join(os.path.dirname(__file__), "snapshots")


def small_app(**options) -> DuelApp:
    return DuelApp(
        None, think=0.1, chance_nodes=0, review_level="greedy", review_workers=1, **options
    )


def test_a_whole_game_at_80x24_by_keys_alone():
    async def scenario():
        app = small_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("n", "2", "enter")  # you are A, against greedy, a fair deal
            await pilot.pause()
            assert app.game.kinds == ["human", "greedy"] and app.game.dealer.fair
            for _ in range(800):
                await settle(app, pilot)
                state = app.state
                if state.is_terminal():
                    break
                where = dialog(app)
                if where == "action":  # the first of build, discard, wonder that is legal
                    legal = [m for _, m in app.screen.options]
                    n = next(i for i, m in enumerate(legal, 1) if state.why_illegal(m) is None)
                    await pilot.press(str(n))
                elif where:
                    await pilot.press("1")
                elif app.game.next_actor() == "human":
                    await pilot.press("1" if state.phase == "play" else "c")
            await settle(app, pilot)
            assert app.state.is_terminal(), app.state.describe()
            assert dialog(app) == "over"
            await pilot.press("r")  # the review, by duel review's engine (greedy here)
            screen = await reviewed(app, pilot)
            await pilot.press("end", "left", "home", "right")
            assert screen.ply == 1
            await pilot.press("escape")
            await settle(app, pilot)
            assert dialog(app) == "over"
            await pilot.press("q")
            await pilot.pause()
            if dialog(app) == "quit":  # not saved: leave anyway
                await pilot.press("q")
                await pilot.pause()
        assert app.return_value == 0 and app.left

    asyncio.run(scenario())


SCREENS = ["start", "new", "review"]
CASES = [(screen, size) for size in [(80, 24), (120, 40)] for screen in SCREENS]


def screenshot(screen: str, size: tuple[int, int]) -> str:
    async def scenario() -> str:
        app = small_app(review=random_record() if screen == "review" else None)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            if screen == "new":
                await pilot.press("n")
            if screen == "review":
                shown = await reviewed(app, pilot)
                await pilot.press("]")  # the first marked move
                assert shown.move_review(shown.ply).mark
            expected = {"start": StartScreen, "new": NewGameScreen, "review": ReviewScreen}
            svg = ""
            for _ in range(100):
                await pilot.pause(0.02)
                svg = app.export_screenshot()
                if isinstance(app.screen, expected[screen]) and "Quit" in "".join(svg_text(svg)):
                    break
            assert isinstance(app.screen, expected[screen])
            return svg

    return asyncio.run(scenario())


@pytest.mark.parametrize(("screen", "size"), CASES, ids=[f"{s}-{w}x{h}" for s, (w, h) in CASES])
def test_snapshot(screen, size):
    svg = screenshot(screen, size)
    kept = Path(SNAPSHOTS) / f"app_{screen}_{size[0]}x{size[1]}.svg"
    text = "\n".join(compare_svg_snapshot(svg, kept))
    assert "Quit" in text
    if screen == "review":
        assert "Review" in text and "Best:" in text and "coins" in text
        assert ("▲ here" in text) == (size[0] >= 120)  # the graph's marker beside the board
