"""The review inside the full-screen app (issue 24): computed by ``duel review``'s engine in a
thread with its progress shown, stepped through on the board, the marks, the best move and its
line, the graph; after a game and with ``duel review RECORD --app``; "play from here" starts a
what-if game that knows no card the record revealed later."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from typer.testing import CliRunner

from duel import Kind, new_game
from duel.app.screen.app import DuelApp
from duel.app.screen.review import ReviewScreen, what_if_game
from duel.catalog import CARDS, WONDERS
from duel.record import GameRecord, Replay
from duel.solvers.review import analyse_position, review_record
from tests.test_app import dialog, make_app, settle

pytestmark = pytest.mark.terminal


def random_record(seed: int = 2) -> GameRecord:
    rng = random.Random(seed)
    state, moves = new_game(), []
    while not state.is_terminal():
        move = state.random_move(rng)
        moves.append(move)
        state = state.apply(move)
    return GameRecord(tuple(moves), {"players": {"A": "human", "B": "random"}, "fair": True})


def review_app(record: GameRecord) -> DuelApp:
    return DuelApp(
        None, think=0.1, chance_nodes=0, review=record, review_level="greedy", review_workers=1
    )


async def reviewed(app: DuelApp, pilot) -> ReviewScreen:
    for _ in range(200):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if isinstance(app.screen, ReviewScreen) and app.screen.review is not None:
            return app.screen
    raise AssertionError("the review did not finish")


def later_reveals(record: GameRecord, ply: int) -> set[str]:
    """The cards the record turns face up after position ``ply``."""
    return {CARDS[m.card].name for m in record.moves[ply:] if m.kind is Kind.REVEAL_CARD}


def mentions(text: str, card: str) -> bool:
    """``card`` named in ``text`` (not as part of a wonder's name: Statue, The Statue of Zeus)."""
    for wonder in WONDERS:
        text = text.replace(wonder.name, "")
    return re.search(rf"\b{re.escape(card)}\b", text) is not None


def test_the_review_reports_progress_and_keeps_the_best_line():
    record = GameRecord(random_record().moves[:40])
    seen = []
    review = review_record(
        record, level="greedy", workers=1, on_progress=lambda d, t: seen.append((d, t))
    )
    total = seen[0][1]
    assert seen[0] == (0, total) and seen[-1] == (total, total) and len(seen) == total + 1
    assert review.graph
    state = next(s for s in Replay.of(record).states[20:] if not s.is_chance())
    result = analyse_position(state, level="search:300")
    assert result.info["line"][0] == str(result.best_move)

    class Stop(Exception):
        pass

    def stop(done, total):
        if done == 2:
            raise Stop

    with pytest.raises(Stop):
        review_record(record, level="greedy", workers=1, on_progress=stop)


def test_stepping_through_the_review_on_the_board():
    record = random_record()

    async def scenario():
        app = review_app(record)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await reviewed(app, pilot)
            assert screen.progress[0] == screen.progress[1] > 0
            assert not screen.query_one("#rv-progress-row").display
            for key in ("right", "j", "l", "right"):
                await pilot.press(key)
            assert screen.ply == 3
            await pilot.press("left", "k")
            assert screen.ply == 1
            await pilot.press("end")
            assert screen.ply == record_last(record)
            await pilot.press("home", "]")
            m = screen.review.moves[screen.ply]
            assert m.mark is not None and m.best_move != m.move
            info = "\n".join(screen.move_text(200))
            assert m.mark in info and f"Best: {m.best_move}" in info
            assert app.screen is screen  # the game's keys (h, s, u) do nothing here
            await pilot.press("escape")  # back to the start screen
            await pilot.pause()
            assert not isinstance(app.screen, ReviewScreen)

    asyncio.run(scenario())


def record_last(record: GameRecord) -> int:
    return len(record.moves)


def test_play_from_here_hides_what_the_record_revealed_later():
    record = random_record()
    replay = Replay.of(record)
    # A decision in Age I with face-down cards still to come.
    ply = next(
        i
        for i, s in enumerate(replay.states)
        if s.age == 1 and s.phase == "play" and not s.is_chance() and i > 25
    )
    hidden = later_reveals(record, ply)
    assert hidden
    game = what_if_game(record, ply, "random", think=0.1)
    assert game.moves == list(record.moves[:ply]) and game.dealer.fair
    assert game.kinds[game.state.to_move] == "human"
    saved = json.dumps(game.record().to_json())
    shown = "\n".join(game.history())
    for name in hidden:
        assert not mentions(saved, name) and not mentions(shown, name), name
    assert not {CARDS[c].name for c in game.state.pyramid if c >= 0} & hidden

    async def scenario():
        app = review_app(record)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await reviewed(app, pilot)
            screen.action_go(ply)
            await pilot.press("p")
            await settle(app, pilot)
            assert not isinstance(app.screen, ReviewScreen)
            assert app.game.moves[:ply] == list(record.moves[:ply])
            assert app.game.dealer.fair and "human" in app.game.kinds
            text = "\n".join(app.log_lines)
            dealt = {CARDS[m.card].name for m in app.game.moves[ply:] if m.kind is Kind.REVEAL_CARD}
            assert not {name for name in hidden - dealt if mentions(text, name)}

    asyncio.run(scenario())


def test_review_after_a_game_in_the_app_and_back():
    async def scenario():
        near_the_end = random_record().moves[:-8]
        app = make_app(("random", "random"), seed=7, moves=near_the_end, chance_nodes=0)
        app.review_level, app.review_workers = "greedy", 1
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(500):  # the AIs play the game through
                await settle(app, pilot)
                if dialog(app) == "over":
                    break
            assert dialog(app) == "over"
            await pilot.press("r")
            screen = await reviewed(app, pilot)
            assert screen.record.moves == tuple(app.game.moves)
            await pilot.press("escape")
            await settle(app, pilot)
            assert dialog(app) == "over"  # the final score again

    asyncio.run(scenario())


def test_duel_review_app_needs_a_terminal_and_no_json(tmp_path):
    from duel.app.cli.main import app

    path = tmp_path / "game.json"
    random_record().save(path)
    result = CliRunner().invoke(app, ["review", str(path), "--app"])
    assert result.exit_code != 0 and "--app needs a terminal" in result.output
    result = CliRunner().invoke(app, ["review", str(path), "--app", "--json"])
    assert result.exit_code != 0 and "without --json" in result.output
