"""Live analysis (issue 62, item 5), as lichess's local analysis: ``a`` opens a panel that keeps
searching the position while the player thinks (the hint's entry point with doubling budgets,
in a process of its own), shows the best moves with values that settle as it deepens, says
"exact" when the exact solver finishes in Age III, stops at once when a move is played, and is
off (and says so) between two people."""

from __future__ import annotations

import asyncio
import time

import pytest

from duel.app.control.analysis import AnalysisSession
from duel.app.control.game import Dealer, GameController
from duel.app.screen.app import DuelApp
from tests.test_app import settle
from tests.test_app_table import random_moves

pytestmark = pytest.mark.terminal

STEPS = [200, 400, 800, 1600, 3200, 6400, 12800, 25600, 51200]


def game_at(moves, kinds=("human", "random")) -> GameController:
    game = GameController(list(kinds), Dealer(seed=11), think=0.1)
    game.set_players()
    for move in moves:
        game.push(move)
    while game.state.is_chance() or game.state.phase == "setup":
        game.push(game.deal())
    game.dirty = False
    return game


def human_to_move_in_play(kinds=("human", "random")) -> GameController:
    moves = random_moves(3, lambda s, m: s.phase == "play" and s.age == 1 and s.to_move == 0)
    return game_at(moves[:-1], kinds)


async def wait_for(app: DuelApp, pilot, test, seconds: float = 90.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await pilot.pause(0.2)
        if test():
            return
    raise AssertionError("timed out")


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 50)])
def test_live_analysis_starts_deepens_and_stops_at_a_move(size):
    async def scenario():
        game = human_to_move_in_play()
        assert game.state.to_move == 0 and game.next_actor() == "human"
        app = DuelApp(game, think=0.1, hint_nodes=100, chance_nodes=0)
        app.analysis_steps = STEPS
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await pilot.press("a")
            await pilot.pause()
            session = app.analysis
            assert app.analysis_on and session is not None and session.ply == len(game.moves)
            seen: list[int] = []

            def deepened() -> bool:
                snap = session.latest
                if snap is not None and (not seen or snap.iterations != seen[-1]):
                    seen.append(snap.iterations)
                return len(seen) >= 3

            await wait_for(app, pilot, deepened)
            assert seen == sorted(seen) and len(set(seen)) == len(seen)  # deeper each time
            panel = str(app.query_one("#analysis").render())
            best = session.latest.moves[0]
            assert "Live analysis" in panel and best.move in panel, panel
            assert f"{100 * best.value:.1f}%" in panel
            if size[0] < 120:  # the summary on the card line once the board is back
                await pilot.press("escape")
                await pilot.pause(0.5)
                assert "Analysis:" in str(app.query_one("#card-info").render())
            # A move: the session stops at once, its process is gone, no stale value shown.
            app.play(game.state.legal_moves()[0])
            assert session.stopped and session._process is None
            await settle(app, pilot)
            later = app.analysis
            assert later is None or later.ply == len(game.moves)
            await pilot.press("a")  # off
            await pilot.pause()
            assert not app.analysis_on and app.analysis is None

    asyncio.run(scenario())


def test_live_analysis_is_off_between_two_people():
    async def scenario():
        game = human_to_move_in_play(("human", "human"))
        app = DuelApp(game, think=0.1, hint_nodes=100, chance_nodes=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("a")
            await pilot.pause()
            assert not app.analysis_on and app.analysis is None
            assert "off in a game between two people" in app.notices[-1]

    asyncio.run(scenario())


def test_live_analysis_says_exact_when_the_solver_finishes_in_age_three():
    moves = random_moves(
        2,
        lambda s, m: s.age == 3
        and s.phase == "play"
        and sum(c >= 0 for c in s.pyramid) <= 6
        and s.to_move == 0,
    )
    game = game_at(moves[:-1])
    session = AnalysisSession(game.moves, game.state.to_move, steps=[2000, 4000])
    session.start()
    try:
        snapshot = session.wait(120)
        while snapshot is not None and not snapshot.done:
            snapshot = session.wait(120)
    finally:
        session.stop()
    assert snapshot is not None and snapshot.exact and snapshot.done
    assert snapshot.engine == "exact"
    from duel.app.text.analysis import analysis_text

    assert "exact" in analysis_text(snapshot, running=False, width=60).plain


def test_the_control_draws_nothing():
    """The analysis session and the graph's values are control: no textual, no rich."""
    import ast
    from pathlib import Path

    import duel.app.control.analysis as session
    import duel.app.control.values as values

    for module in (session, values):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        names = [
            alias.name if isinstance(node, ast.Import) else node.module or ""
            for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for alias in (node.names if isinstance(node, ast.Import) else [node])
        ]
        assert not [n for n in names if n.split(".")[0] in ("textual", "rich")], names
