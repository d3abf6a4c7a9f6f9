"""The table a player reads at a glance (issue 62, items 3-8 and 11), at 80x24, 120x40 and
160x50: each takeable card says what it gives and both players' prices (never one alone when
the mover's is free), the focused card is highlighted and never emptied, the last move is on a
line of its own, the cities are whole or say how much is left out, the board's progress tokens
and the looting tokens are in sight, notices clear on the next move and the header keeps the
cards left and the fair-play label."""

from __future__ import annotations

import asyncio
import random

import pytest
from textual.geometry import Region

from duel import Kind, new_game
from duel.app.control.game import Dealer, GameController
from duel.app.screen.app import DuelApp
from duel.app.screen.board import CardWidget
from duel.app.text.board import prices_text
from duel.app.text.render import card_effect, compact_effect
from duel.catalog import CARDS, TOKENS
from duel.state import State
from tests.test_app import settle

pytestmark = pytest.mark.terminal

SIZES = [(80, 24), (120, 40), (160, 50)]


def app_at(moves, kinds=("human", "human"), seed: int | None = 5) -> DuelApp:
    game = GameController(list(kinds), Dealer(seed=seed), think=0.1)
    game.set_players()
    for move in moves:
        game.push(move)
    game.dirty = False
    return DuelApp(game, think=0.1, hint_nodes=100, chance_nodes=0)


def random_moves(seed: int, until) -> list:
    """A random game's moves up to and including the first move ``until(state, move)``
    accepts, then the chance events after it."""
    rng = random.Random(seed)
    state, moves, found = new_game(), [], False
    while not state.is_terminal():
        if found and not state.is_chance():
            return moves
        move = state.random_move(rng)
        found = found or (not move.is_chance and until(state, move))
        moves.append(move)
        state = state.apply(move)
    return moves if found else []


def first_decision_in_play(seed: int = 3) -> list:
    return random_moves(seed, lambda s, m: s.phase == "play" and s.age == 1)


def card_text(card: CardWidget) -> list[str]:
    width, height = card.size
    return [strip.text for strip in card.render_lines(Region(0, 0, width, height))]


@pytest.mark.parametrize("size", SIZES)
def test_takeable_cards_show_effect_and_both_prices_and_stay_full_when_focused(size):
    async def scenario():
        app = app_at(first_decision_in_play()[:-1])
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            cards = [c for c in app.query(CardWidget) if c.cell.look == "open"]
            assert cards
            for card in cards:
                plain = card_text(card)
                card.focus()
                await pilot.pause()
                lines = card_text(card)
                assert lines == plain, (size, plain, lines)  # the focus empties nothing
                assert card.has_pseudo_class("focus") and card.styles.text_style.reverse
                spec = CARDS[card.cell.card]
                assert lines[0].startswith(f"{card.cell.number} "), lines
                text = " ".join(" ".join(lines).split())
                effect = (compact_effect(spec), card_effect(spec).split(",")[0].split()[0])
                assert any(e in text for e in effect), (lines, effect)  # what it gives
                assert "A" in lines[-1] and "B" in lines[-1], lines  # both prices

    asyncio.run(scenario())


def test_both_prices_when_the_movers_is_free():
    """Item 3: the opponent's price stayed hidden when the mover's was free."""
    from duel.app.text.view_model import Cell

    for width in (11, 13, 20):
        cell = Cell(0, 0, "open", 1, 1, "free", True, (("free", True), ("5c", False)))
        text = prices_text(cell, width)
        assert text.startswith("A") and "B" in text and "5" in text, text
    # and on the board: a card free for one player only shows the other's price
    for seed in range(40):
        moves = random_moves(seed, lambda s, m: _free_for_one(s))
        if moves:
            break
    app = app_at(moves[:-1])

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            found = 0
            for card in app.query(CardWidget):
                both = card.cell.both
                if card.cell.look == "open" and both and (both[0][0] == "free") != (
                    both[1][0] == "free"
                ):
                    last = card_text(card)[-1]
                    assert "A" in last and "B" in last, last
                    found += 1
            assert found

    asyncio.run(scenario())


def _free_for_one(state: State) -> bool:
    if state.phase != "play" or state.is_chance():
        return False
    for slot in state.accessible_slots:
        card = state.pyramid[slot]
        costs = [state.card_cost(p, card) == 0 for p in (0, 1)]
        if costs[0] != costs[1]:
            return True
    return False


KINDS = {
    "build": lambda s, m: m.kind is Kind.BUILD,
    "discard": lambda s, m: m.kind is Kind.DISCARD,
    "wonder with a token": lambda s, m: m.kind is Kind.TOKEN and s.phase != "choose_token",
    "token": lambda s, m: m.kind is Kind.TOKEN,
    "mausoleum": lambda s, m: m.kind is Kind.MAUSOLEUM,
    "destroy": lambda s, m: m.kind is Kind.DESTROY,
    "age change": lambda s, m: m.kind is Kind.STARTER and s.age > 1,
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_last_move_has_a_line_of_its_own(kind):
    for seed in range(300):
        moves = random_moves(seed, KINDS[kind])
        if moves:
            break
    else:
        pytest.skip(f"no random game with a {kind}")
    decision = max(i for i, m in enumerate(moves) if not m.is_chance)
    move = moves[decision]

    async def scenario():
        app = app_at(moves)
        for size in SIZES:
            async with app.run_test(size=size) as pilot:
                await settle(app, pilot)
                line = str(app.query_one("#last-move").render())
                assert line.startswith("Last:"), line
                who = "AB"[app.game.states[decision].to_move]
                if move.kind is Kind.STARTER:
                    assert f"start {'AB'[move.player]}" in line, line
                elif move.kind is Kind.TOKEN:
                    assert TOKENS[move.token].name in line, line
                else:
                    assert f"{who} {str(move).split()[0]}" in line, line
                    assert CARDS[move.card].name[:6] in line, line
                before, after = app.game.states[decision], app.game.states[decision + 1]
                for p in (0, 1):
                    delta = after.coins(p) - before.coins(p)
                    if delta and size[0] >= 120:
                        assert f"{'AB'[p]} {delta:+d}c" in line, line
            app = app_at(moves)

    asyncio.run(scenario())


@pytest.mark.parametrize("size", SIZES)
def test_cities_whole_or_marked_and_the_tokens_in_sight(size):
    moves = random_moves(8, lambda s, m: s.age == 3 and s.phase == "play")

    async def scenario():
        app = app_at(moves[:-1])
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            state = app.game.state
            track = str(app.query_one("#military").render())
            for t in state.board_token_ids:
                assert TOKENS[t].name[:3] in track, track
            for name in state.military_tokens:
                assert f"-{name[1]} {name[0]}" in track
            for player, part in ((0, "#city-a"), (1, "#city-b")):
                shown = str(app.query_one(part).render())
                built = [CARDS[c].name for c in state.city(player)]
                missing = [n for n in built if n not in shown.replace("\n", " ")]
                assert not missing or "more line" in shown, (size, missing, shown)

    asyncio.run(scenario())


def test_header_keeps_cards_left_and_fair_play_at_80_columns_and_notices_clear():
    moves = random_moves(4, lambda s, m: s.age == 2 and s.phase == "play")

    async def scenario():
        app = app_at(moves[:-1])
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            header = str(app.query_one("#status").render())
            assert "left" in header and "not fair play" in header, header
            app.notify("Not possible: a test notice")
            await pilot.pause()
            assert "a test notice" in str(app.query_one("#notice").render())
            app.play(app.game.state.legal_moves()[0])
            await settle(app, pilot)
            assert "a test notice" not in str(app.query_one("#notice").render())

    asyncio.run(scenario())
