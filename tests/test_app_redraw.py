"""The board redrawn in place after a move within an Age (``Pyramid.show``) looks and behaves
as a pyramid built anew for the same state: the same places, text, classes, colours, sizes,
focus and tooltips; the card widgets are kept (a new Age builds new ones)."""

from __future__ import annotations

import asyncio
import random

import pytest
from textual.containers import Vertical

from duel import new_game
from duel.app.screen.board import CardWidget, Pyramid
from tests.test_app import settle
from tests.test_app_table import app_at, card_text

pytestmark = pytest.mark.terminal


def looks(app) -> list[tuple]:
    return [
        (
            c.id, c.cell, sorted(c.classes), card_text(c), c.can_focus, c.tooltip,
            c.styles.background, c.styles.color, c.styles.width, c.styles.height,
            c.styles.margin, c.parent.styles.height if c.parent else None,
        )
        for c in app.query(CardWidget)
    ]


def age_one(seed: int) -> tuple[list, int]:
    """A random game's moves and the ply of Age I's first decision in play."""
    rng, state, moves, start = random.Random(seed), new_game(), [], -1
    while not state.is_terminal():
        if start < 0 and state.age == 1 and state.phase == "play":
            start = len(moves)
        moves.append(state.random_move(rng))
        state = state.apply(moves[-1])
    return moves, start


@pytest.mark.parametrize("size", [(80, 24), (150, 50)])
def test_a_redraw_in_place_is_a_new_pyramid(size):
    moves, start = age_one(11)

    async def scenario():
        app = app_at(moves[:start])
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            kept = {c.id: c for c in app.query(CardWidget)}
            for move in moves[start : start + 8]:
                app.game.push(move)
                app.refresh_board()
                await pilot.pause()
                assert {c.id: c for c in app.query(CardWidget)} == kept  # drawn in place
                shown = looks(app)
                box = app.query_one("#pyramid-box", Vertical)
                await box.remove_children()
                await box.mount(Pyramid(app.state, app.shape))
                await pilot.pause()
                assert looks(app) == shown
                kept = {c.id: c for c in app.query(CardWidget)}
            assert any(c.cell.look == "taken" for c in kept.values())
            assert app.state.age == 1

    asyncio.run(scenario())
