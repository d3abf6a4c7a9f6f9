"""The in-app review with its default workers (issue 62, item 1): opened after a game, from the
start screen and with ``duel review RECORD --app``, it computes on worker processes while
Textual holds ``sys.stderr`` (a capture whose file number is -1).

The regression: ``multiprocessing`` starts its resource tracker on the first worker process
and passes it ``sys.stderr.fileno()``; under Textual that is -1, and the review failed with
"bad value(s) in fds_to_keep". The tracker is started once per process, so each test stops it
first (else an earlier test that started workers outside the app would hide the failure).
"""

from __future__ import annotations

import asyncio
from multiprocessing import resource_tracker

import pytest

from duel.app.screen.app import DuelApp
from duel.app.screen.review import ReviewScreen
from duel.app.screen.start import FileScreen
from duel.record import GameRecord
from tests.test_app import dialog, make_app, settle
from tests.test_app_review import random_record

pytestmark = pytest.mark.terminal


@pytest.fixture(autouse=True)
def no_resource_tracker():
    """No tracker running yet: the app's review must start it (private API, for the test)."""
    resource_tracker._resource_tracker._stop()
    yield


async def review_done(app: DuelApp, pilot) -> ReviewScreen:
    for _ in range(600):
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, ReviewScreen) and (screen.review is not None or screen.failed):
            return screen
    raise AssertionError("the review neither finished nor failed")


def assert_reviewed(screen: ReviewScreen) -> None:
    assert screen.failed is None, screen.failed
    assert screen.review is not None and screen.review.graph


SHORT = GameRecord(random_record().moves[:40], {"players": {"A": "human", "B": "random"}})


@pytest.mark.parametrize("workers", [None, 1, 2])
def test_review_with_app_opens_on_worker_processes(workers):
    """``duel review RECORD --app``: the record reviewed first, the default workers (every
    core) and 1 and 2; the default engine (the hint's cmcts) at a short budget."""

    async def scenario():
        app = DuelApp(
            None,
            think=0.1,
            chance_nodes=0,
            review=SHORT,
            review_seconds=0.02,
            review_workers=workers,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            assert_reviewed(await review_done(app, pilot))

    asyncio.run(scenario())


def test_review_after_a_game_opens_with_default_workers():
    async def scenario():
        near_the_end = random_record().moves[:-6]
        app = make_app(("random", "random"), seed=7, moves=near_the_end, chance_nodes=0)
        app.review_level = "greedy"  # the default workers: the regression is in starting them
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(500):
                await settle(app, pilot)
                if dialog(app) == "over":
                    break
            assert dialog(app) == "over"
            await pilot.press("r")
            assert_reviewed(await review_done(app, pilot))

    asyncio.run(scenario())


def test_review_from_the_start_screen_opens_with_default_workers(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    SHORT.save(tmp_path / "duel-game.json")

    async def scenario():
        app = DuelApp(None, think=0.1, chance_nodes=0, review_level="greedy")
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, FileScreen) and len(app.screen.games) == 1
            await pilot.press("enter")
            assert_reviewed(await review_done(app, pilot))

    asyncio.run(scenario())
