"""The full-screen app at every size from 80x24 to 250x70 (issue 24): what a player needs to
decide is in sight at once and nothing overlaps; below 80x24 one line asks for a larger
terminal; the other panels come on keys; notices have their own line; the card detail; the
glance (both players' prices, distances to the immediate victories, the Age's cards)."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from duel import CARDS, new_game
from duel.app.control.game import Dealer, GameController
from duel.app.screen.app import CardWidget, DuelApp, geometry
from duel.app.text.board import age_line, card_detail, card_face, distance_text
from duel.app.text.view_model import age_count, distances, pyramid_rows

pytestmark = pytest.mark.terminal


def moves_to(age: int, seed: int = 2, after: int = 0) -> list:
    """The moves of a random game up to ``after`` decisions into ``age``'s play phase."""
    rng = random.Random(seed)
    state, moves, count = new_game(), [], 0
    while not state.is_terminal():
        if state.age == age and state.phase == "play" and not state.is_chance():
            if count == after:
                return moves
            count += 1
        move = state.random_move(rng)
        moves.append(move)
        state = state.apply(move)
    raise AssertionError("the game ended first")


def make_app(moves=(), kinds=("human", "human")) -> DuelApp:
    game = GameController(list(kinds), Dealer(seed=1), think=0.1)
    for move in moves:
        game.push(move)
    game.dirty = False
    game.set_players()
    return DuelApp(game, think=0.1, hint_nodes=100, chance_nodes=0)


async def settle(app, pilot) -> None:
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


def region(app, selector):
    return app.query_one(selector).region


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 50), (250, 70)])
def test_age_three_fits_with_cities_track_and_prices_at_every_size(size):
    async def scenario():
        app = make_app(moves_to(3))
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            width, height = size
            shape = app.shape
            assert shape.wide == (width >= 120)
            cards = list(app.query(CardWidget))
            assert len(cards) == 20
            board = region(app, "#board")
            for card in cards:  # every place of the structure is drawn, inside the board
                if card.cell.look != "taken":
                    assert board.contains_region(card.region), (card.cell, card.region, board)
            pyramid = region(app, "#pyramid-box")
            military, cities = region(app, "#military"), region(app, "#cities")
            assert pyramid.bottom <= military.y < military.bottom <= cities.y
            assert cities.bottom <= height - 2  # the notice line and the keys below
            a, b = app.query_one("#city-a"), app.query_one("#city-b")
            for city in (a, b):
                text = str(city.render())
                assert "coin" in text and "science" in text and "military" in text
            if shape.wide:
                side = region(app, "#side")
                assert side.x >= board.right and not side.overlaps(board)
                for section in ("#moves-section", "#hint-section", "#chance-section"):
                    assert app.query_one(section).display
            else:
                assert not app.query_one("#side").display
            # Open cards show both players' prices where the cell is wide enough.
            opened = [c for c in cards if c.cell.look == "open"]
            assert opened and all(c.cell.both for c in opened)
            for c in opened:
                assert c.cell.price in str(c.render())
                if shape.unit >= 9:
                    assert "A " in str(c.render()) and "B " in str(c.render())

    asyncio.run(scenario())


def test_below_80x24_one_line_asks_for_a_larger_terminal_and_the_board_comes_back():
    async def scenario():
        app = make_app(moves_to(1))
        async with app.run_test(size=(79, 24)) as pilot:
            await settle(app, pilot)
            message = app.query_one("#too-small")
            assert message.display and "at least 80x24" in str(message.render())
            assert not app.query_one("#top").display
            await pilot.resize_terminal(80, 24)
            await settle(app, pilot)
            assert not message.display and app.query_one("#top").display

    asyncio.run(scenario())


def test_panels_on_keys_notices_on_their_line_and_the_card_in_full_at_80x24():
    async def scenario():
        app = make_app(moves_to(1, after=3))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            for key, section in (("m", "#moves-section"), ("t", "#tokens-section"),
                                 ("g", "#chance-section")):
                await pilot.press(key)
                assert app.query_one(section).display and not app.query_one("#board").display
                await pilot.press("escape")
                assert app.query_one("#board").display and not app.query_one("#side").display
            app.notify("Game saved to x.json.")
            await pilot.pause()
            assert "Game saved" in str(app.query_one("#notice").render())
            assert not app._notifications  # no toast over a city
            await pilot.press("i")
            await settle(app, pilot)
            assert app.screen.name == "card"
            body = str(app.screen.body)
            assert "Price now: A " in body and ", B " in body and "Gives:" in body
            await pilot.press("c")  # close
            await settle(app, pilot)
            # The action dialog stays above the track and the cities.
            await pilot.press("1")
            await settle(app, pilot)
            assert app.screen.name == "action"
            box = app.screen.query_one(".dialog").region
            assert box.bottom <= region(app, "#military").y
            assert box.right <= 80

    asyncio.run(scenario())


def test_the_glance_counts_and_distances():
    state = new_game()
    rng = random.Random(4)
    for move in moves_to(3, seed=4):
        state = state.apply(move)
    count = age_count(state)
    assert count.left == sum(1 for c in state.pyramid if c != -1)
    backs = dict(count.face_down)
    assert set(backs) <= {"Age III", "Guild"} and sum(backs.values()) == sum(
        1 for c in state.pyramid if c == -2
    )
    assert age_line(state).startswith(f"{count.left} cards left in Age III")
    for player in (0, 1):
        d = distances(state, player)
        ahead = state.pawn if player == 0 else -state.pawn
        assert d.shields == 9 - ahead and d.symbols == len(state.science(player))
        assert f"science {d.symbols}/6" in distance_text(state, player)
    del rng


def test_card_faces_fit_their_cells_and_detail_names_chains():
    state = new_game()
    for move in moves_to(1):
        state = state.apply(move)
    for row in pyramid_rows(state):
        for cell in row:
            for width, height in ((11, 2), (13, 3), (17, 5), (27, 5)):
                lines = card_face(state, cell, width, height)
                assert all(len(line) <= width for line in lines)
                assert len(lines) <= height
                if cell.look in ("back", "guild_back"):
                    assert all(CARDS[c].name not in " ".join(lines) for c in range(len(CARDS)))
    wide = [
        card_face(state, c, 27, 5) for row in pyramid_rows(state) for c in row if c.look == "open"
    ]
    assert all(line for face in wide for line in face[:1])
    baths = next(i for i, c in enumerate(CARDS) if c.name == "Baths")
    assert any("Aqueduct" in line for line in card_detail(state, baths))


def test_geometry_from_80x24_to_250x70():
    for width in range(80, 251, 10):
        for height in range(24, 71, 6):
            for rows in (5, 7):
                g = geometry(width, height, rows)
                assert not g.too_small
                assert 12 * g.unit - 1 <= g.board
                pyramid = g.pyramid or rows * g.card  # row_heights keeps within g.pyramid
                lines = pyramid + 1 + 1 + g.military + 5  # + the card line and the last move
                assert lines <= height - 3, (width, height, rows, g)
    assert geometry(79, 24, 5).too_small and geometry(80, 23, 5).too_small


def test_the_chance_graph_is_a_sparkline_equal_to_the_hint_where_one_was_asked():
    from textual.widgets import Sparkline

    async def scenario():
        game = GameController(["human", "human"], Dealer(seed=1), think=0.1)
        for move in moves_to(1, after=2):
            game.push(move)
        game.set_players()
        app = DuelApp(game, think=0.1, hint_nodes=100, chance_nodes=60)
        async with app.run_test(size=(160, 50)) as pilot:
            await settle(app, pilot)
            for _ in range(4):
                await pilot.press("1", "2")  # discard card 1
                await settle(app, pilot)
            assert len(app.chances) >= 2 and all(0 <= c <= 1 for c in app.chances)
            line = app.query_one("#chance", Sparkline)
            assert line.display and list(line.data) == app.chances
            await pilot.press("h")
            await settle(app, pilot)
            best = float(re.search(r"1\. .*?: (\d+\.\d)%", app.last_hint).group(1)) / 100
            mover = app.state.to_move
            a = best if mover == 0 else 1 - best
            assert abs(app.chances[-1] - a) < 0.0006
            text = str(app.query_one("#chance-text").render())
            assert f"A {100 * app.chances[-1]:.0f}% now (the hint)" in text
            await pilot.press("u")  # undo: the points after the position go
            await settle(app, pilot)
            assert len(app.chances) <= len(app.game.moves) + 1

    asyncio.run(scenario())
