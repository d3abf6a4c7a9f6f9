"""The full-screen app at its smallest size (issue 24): a game at 80x24 by keys alone (from the
start screen through Age I, and from Age III's last cards to the review), and snapshots of the
start screen, the new game's screen and the review screen at 80x24 and 120x40 (compared by
their text, row by row; ``UPDATE_SNAPSHOTS=1`` rewrites them)."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from duel import Kind, new_game
from duel.app.control.game import Dealer, GameController
from duel.app.screen.app import DuelApp
from duel.app.screen.review import ReviewScreen
from duel.app.screen.start import NewGameScreen, StartScreen
from duel.record import GameRecord
from duel.state import TAKEN
from tests.test_app import compare_svg_snapshot, dialog, settle, svg_text
from tests.test_app_review import random_record, reviewed

pytestmark = pytest.mark.terminal

SNAPSHOTS = os.path.join(os.path.dirname(__file__), "snapshots")


def small_app(game: GameController | None = None, **options) -> DuelApp:
    return DuelApp(
        game, think=0.1, chance_nodes=0, review_level="greedy", review_workers=1, **options
    )


async def play_by_keys(app: DuelApp, pilot, done: Callable[[], bool]) -> None:
    """The human's moves by keys alone (the first legal of build, discard, wonder; the first
    option of any other dialog; the first card), the AI's by itself, until ``done()``."""
    for _ in range(800):
        await settle(app, pilot)
        state = app.state
        if done():
            return
        where = dialog(app)
        if where == "action":
            legal = [m for _, m in app.screen.options]
            n = next(i for i, m in enumerate(legal, 1) if state.why_illegal(m) is None)
            await pilot.press(str(n))
        elif where:
            await pilot.press("1")
        elif app.game.next_actor() == "human":
            await pilot.press("1" if state.phase == "play" else "c")
    raise AssertionError(f"not done after 800 steps: {app.state.describe()}")


async def quit_by_keys(app: DuelApp, pilot) -> None:
    await pilot.press("q")
    await pilot.pause()
    if dialog(app) == "quit":  # not saved: leave anyway
        await pilot.press("q")
        await pilot.pause()


# The game at 80x24 by keys alone, in two parts that run side by side (each one a worker's):
# from the start screen through the draft, Age I and who begins Age II; then from Age III's last
# six cards to the game over and its review. Ages II and III are played by keys and clicks in
# tests/test_app.py (at 136x40) and drawn at 80x24 in tests/test_app_layout.py and
# tests/test_app_snapshots.py (every decision's dialog): the whole game here drew the same
# screens again (181 s of the suite under load, the longest test).
def test_the_draft_and_age_one_at_80x24_by_keys_alone():
    async def scenario():
        app = small_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("n", "2", "enter")  # you are A, against greedy, a fair deal
            await pilot.pause()
            assert app.game.kinds == ["human", "greedy"] and app.game.dealer.fair
            await play_by_keys(
                app, pilot, lambda: app.state.age == 2 and app.state.phase == "play"
            )
            assert dialog(app) == "" and not app.state.is_terminal()
            starts = [m for m in app.game.moves if m.kind is Kind.STARTER]
            assert len(starts) == 1  # who begins Age II was answered (by a key or the AI)
            await quit_by_keys(app, pilot)
        assert app.return_value == 0 and app.left

    asyncio.run(scenario())


def late_in_age_three(cards: int = 6) -> GameRecord:
    """A random game stopped in Age III where ``cards`` cards are left in the structure."""
    rng = random.Random(0)
    state, moves = new_game(), []
    while not state.is_terminal():
        left = sum(c != TAKEN for c in state.pyramid)
        if state.age == 3 and state.phase == "play" and left <= cards:
            return GameRecord(tuple(moves))
        moves.append(state.random_move(rng))
        state = state.apply(moves[-1])
    raise AssertionError("the random game ended before Age III's last cards")


def test_the_end_of_age_three_at_80x24_by_keys_then_the_review():
    record = late_in_age_three()
    game = GameController(["human", "greedy"], Dealer(seed=1), think=0.1)
    for move in record.moves:
        game.push(move)
    game.dirty = False
    game.set_players()

    async def scenario():
        app = small_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_by_keys(app, pilot, lambda: app.state.is_terminal())
            await settle(app, pilot)
            assert dialog(app) == "over"
            await pilot.press("r")  # the review, by duel review's engine (greedy here)
            screen = await reviewed(app, pilot)
            await pilot.press("end", "left", "home", "right")
            assert screen.ply == 1
            await pilot.press("escape")
            await settle(app, pilot)
            assert dialog(app) == "over"
            await quit_by_keys(app, pilot)
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
