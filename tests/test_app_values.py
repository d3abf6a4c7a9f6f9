"""One engine for every number on screen (issue 62, items 2 and 9): the app's graph of A's chance,
its "now" value and the hint come from the hint's engine, at decisions and at chance nodes (the
value of the move played before a reveal, never a separate search); the in-game graph is the
review's graph at the same budget and seed; the app's review and ``duel review`` give a move the
same value, loss, sign and mark."""

from __future__ import annotations

import asyncio
import json

import pytest
from typer.testing import CliRunner

from duel.app.control.game import Dealer, GameController
from duel.app.control.values import graph_level
from duel.app.screen.app import DuelApp
from duel.app.screen.review import ReviewScreen
from duel.app.text.review import move_lines
from duel.record import GameRecord
from duel.solvers.hint import hint_analysis
from duel.solvers.review import review_record
from tests.test_app import settle
from tests.test_app_review import random_record

pytestmark = pytest.mark.terminal

NODES = 120


def fixed_game_app() -> DuelApp:
    """Two humans, a seeded deal, the setup and the draft played: Age I's first decision."""
    game = GameController(["human", "human"], Dealer(seed=11), think=0.1)
    game.set_players()
    while game.state.is_chance() or game.state.phase != "play":
        state = game.state
        game.push(game.deal() if state.is_chance() else state.legal_moves()[0])
    game.dirty = False
    return DuelApp(game, think=0.1, hint_nodes=NODES, chance_nodes=NODES)


async def play_first_moves(app: DuelApp, pilot, decisions: int) -> None:
    """Play the first legal move at ``decisions`` decisions, the deals between them dealt."""
    await settle(app, pilot)
    for _ in range(decisions):
        assert app.game.state.phase == "play" and not app.game.state.is_chance()
        app.play(app.game.state.legal_moves()[0])
        await settle(app, pilot)


def test_graph_is_the_hint_engines_value_at_decisions_and_reveals():
    """On a fixed game into Age I: each decision's point is the hint engine's value there;
    each chance node's is that engine's value of the move played before it (so a reveal
    makes no jump of its own); the whole in-game graph is the review's graph at the same
    budget and seed."""

    async def scenario():
        app = fixed_game_app()
        start = len(app.game.moves)
        async with app.run_test(size=(120, 40)) as pilot:
            await play_first_moves(app, pilot, 10)
            states, moves = list(app.game.states), list(app.game.moves)
            series = dict(app.values.series(states, moves))
            seed = app.game.hint_seed
            chance_text = str(app.query_one("#chance-text").render())
        assert sorted(series) == list(range(start, len(states))), "a position not valued"
        assert any(states[i].is_chance() for i in series), "no reveal valued"
        last_decision = None
        for ply, value in sorted(series.items()):
            state = states[ply]
            if not state.is_chance():
                info = hint_analysis(
                    state, iterations=NODES, top=len(state.legal_moves()), seed=seed
                )
                assert value == pytest.approx(info.value.a, abs=1e-6), ply
                last_decision = (ply, info)
            else:
                d, info = last_decision
                assert all(states[k].is_chance() for k in range(d + 1, ply + 1))
                played = next((m.value for m in info.moves if m.move == moves[d]), None)
                if played is None:  # a move no tree visited (not listed): the position's value
                    mine = info.value.a
                else:
                    mine = played if states[d].to_move == 0 else 1.0 - played
                assert value == pytest.approx(mine, abs=1e-6), ply
        # The value "now" is the graph's last point.
        now = series[len(moves)]
        assert f"A {100 * now:.0f}% now" in chance_text
        # The same engine as the review: the review's graph at the same budget and seed.
        record = GameRecord(tuple(moves))
        review = review_record(record, level=graph_level(NODES), seed=seed, workers=1)
        reviewed = {i: v for i, v in review.graph if i >= start}
        assert reviewed == pytest.approx(series, abs=1e-6)

    asyncio.run(scenario())


def test_a_hint_replaces_the_point_and_values_the_reveal_after_it():
    async def scenario():
        app = fixed_game_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await play_first_moves(app, pilot, 2)
            await pilot.press("h")
            await settle(app, pilot)
            ply = len(app.game.moves)
            states, moves = app.game.states, app.game.moves
            value, source = app.values.value_at(states, moves, ply)
            assert source == "hint"
            hint = app.game.hint(nodes=NODES)
            best = hint.moves[0]
            assert value == pytest.approx(best.value if hint.player == 0 else 1 - best.value)
            app.play(best.move)
            await settle(app, pilot)
            after = app.values.value_at(app.game.states, app.game.moves, ply + 1)
            assert after is not None
            if app.game.states[ply + 1].is_chance():  # the hint's value of the move played
                assert after[0] == pytest.approx(value, abs=1e-6)

    asyncio.run(scenario())


def test_app_review_and_duel_review_give_a_move_the_same_value_loss_and_mark(tmp_path):
    """Item 9: the same budget and seed, the same figures, the same sign, the same mark."""
    record = GameRecord(random_record(5).moves[:60], {"players": {"A": "human", "B": "random"}})
    path = tmp_path / "game.json"
    record.save(path)
    level = graph_level(NODES)
    from duel.app.cli.main import app as cli

    result = CliRunner().invoke(
        cli, ["review", str(path), "--level", level, "--json", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    command_line = json.loads(result.output)["moves"]

    async def scenario():
        app = DuelApp(
            None, think=0.1, chance_nodes=0, review=record, review_level=level, review_workers=1
        )
        async with app.run_test(size=(160, 50)) as pilot:
            for _ in range(600):
                await app.workers.wait_for_complete()
                await pilot.pause()
                if isinstance(app.screen, ReviewScreen) and app.screen.review is not None:
                    break
            screen = app.screen
            assert isinstance(screen, ReviewScreen) and screen.review is not None
            review = screen.review
            assert [m for m in review.to_json()["moves"]] == command_line
            shown = 0
            for m in review.moves:
                if m.player == "chance" or m.value is None:
                    continue
                screen.action_go(m.number - 1)
                first = screen.move_text(200)[0]
                table = move_lines(m)[0]
                for figure in (f"{100 * m.value:.1f}%", *(table.split()[-3:] if m.mark else ())):
                    assert figure in first and figure in table, (first, table)
                shown += 1
            assert shown > 10

    asyncio.run(scenario())
    assert any(m.get("mark") for m in command_line if m["player"] != "chance")
