"""The table drawings: pyramid shape, numbering, prices, cities, military track, final score."""

from __future__ import annotations

import io
import random
import re

import pytest

from duel import CARDS, WONDERS, Move, new_game
from duel.app.text import moves as M
from duel.app.text import render as R
from duel.pyramid_layouts import LAYOUTS
from duel.state import State


def advance(seed: int, until, limit: int = 400) -> State:
    """A random game (seeded) up to the first state where ``until(state)`` holds."""
    rng = random.Random(seed)
    state = new_game()
    for _ in range(limit):
        if until(state):
            return state
        state = state.apply(state.random_move(rng))
    raise AssertionError("never reached")


def first_with(predicate, seeds=range(400)) -> State:
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game()
        while not state.is_terminal():
            if predicate(state):
                return state
            state = state.apply(state.random_move(rng), check=False)
        if predicate(state):
            return state
    pytest.skip("no random game reached that situation")


def text_of(renderable, width: int = 100) -> str:
    console = R.make_console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def play_state(age: int, seed: int = 1) -> State:
    return advance(seed, lambda s: s.age == age and s.phase == "play")


@pytest.mark.parametrize("age", [1, 2, 3])
def test_pyramid_has_the_shape_of_the_age(age):
    state = play_state(age)
    text = R.render_pyramid(state, width=100).plain
    lines = text.split("\n")
    layout = LAYOUTS[age]
    assert len(lines) == 2 * len(layout.rows)
    # Each row's cards start at their x position (half-card units of 8 columns).
    for r, row in enumerate(layout.rows):
        top = lines[2 * r]
        for slot in row:
            card = state.pyramid[slot]
            start = (layout.x[slot] - 1) * 8
            if card >= 0:
                assert top[start:].lstrip("0123456789 ").startswith(CARDS[card].name[:5])
            elif card == -2:
                back = "Guild" if state.is_guild_slot(slot) else M.age_name(age)
                assert back in top[start : start + 15]
    assert max(len(line) for line in lines) <= 100


@pytest.mark.parametrize("age", [1, 2, 3])
def test_accessible_cards_are_numbered_and_priced(age):
    state = play_state(age, seed=age + 10)
    slots = R.numbered_slots(state)
    assert sorted(slots) == sorted(state.accessible_slots)
    text = R.render_pyramid(state).plain
    for number, slot in enumerate(slots, 1):
        name = CARDS[state.pyramid[slot]].name
        assert re.search(rf"{number} {re.escape(R._short(name, 13)[:6])}", text)
    price, ok = R.price_text(state, state.to_move, state.pyramid[slots[0]])
    assert price in text
    cost = state.card_cost(state.to_move, state.pyramid[slots[0]])
    assert ok == (cost <= state.coins(state.to_move))


def test_face_down_cards_are_card_backs():
    state = play_state(1)
    assert -2 in state.pyramid
    text = R.render_pyramid(state).plain
    assert "░░░░" in text and "Age I" in text
    plain = "\n".join(R.plain_pyramid(state))
    assert "(face down)" in plain and "[1]" in plain


def test_a_face_down_guild_has_its_own_back():
    state = first_with(
        lambda s: (
            s.age == 3
            and s.phase == "play"
            and any(c == -2 and s.is_guild_slot(x) for x, c in enumerate(s.pyramid))
            and any(c == -2 and not s.is_guild_slot(x) for x, c in enumerate(s.pyramid))
        )
    )
    guild = next(x for x, c in enumerate(state.pyramid) if c == -2 and state.is_guild_slot(x))
    row, place = R.slot_place(3, guild)
    plain = R.plain_pyramid(state)[row - 1].split(": ", 1)[1].split(", ")
    assert plain[place - 1] == "(face-down guild)"
    assert "(face down)" in "\n".join(R.plain_pyramid(state))
    text = R.render_pyramid(state, width=100)
    assert "Guild" in text.plain and "Age III" in text.plain and "▚▚▚" in text.plain
    styles = {str(span.style) for span in text.spans}
    assert R.GUILD_BACK_STYLE in styles and R.BACK_STYLE[3] in styles


def test_plain_table_has_everything_and_no_drawing():
    state = play_state(2, seed=4)
    lines = R.plain_table(state, ("human", "random"))
    text = "\n".join(lines)
    assert text.isascii(), [line for line in lines if not line.isascii()]
    for needed in (
        "Pyramid",
        "Military:",
        "Progress tokens on the board",
        "City of A (human)",
        "City of B (random)",
        "makes:",
        "buys (coins per unit)",
        "science:",
        "wonders:",
        "Cards you can take",
    ):
        assert needed in text
    for slot in state.accessible_slots:
        assert CARDS[state.pyramid[slot]].name in text


def test_prices_of_wonders_for_both_players():
    """Issue #24 item 8: the opponent's wonder prices are shown too (what they would pay as the
    board stands), where the player's own are."""
    state = first_with(
        lambda s: s.phase == "play" and s.wonders(s.to_move) and s.wonders(1 - s.to_move)
    )
    for p in (state.to_move, 1 - state.to_move):
        text = "\n".join(R.plain_city(state, p))
        for w in state.wonders(p):
            assert f"{WONDERS[w].name} ({state.wonder_cost(p, w)}c" in text


def test_city_lines_known_answer_opponent_wonder_prices_and_a_science_pair():
    from tests.tables import make_state

    state = make_state(
        age=2,
        accessible=["Walls"],
        A={"coins": 3, "city": ["Scriptorium", "Library", "Apothecary"], "wonders": ["Piraeus"]},
        B={"coins": 9, "city": ["Quarry", "Stone Pit"], "wonders": ["The Colossus"]},
    )
    assert state.to_move == 0
    a, b = R.plain_city(state, 0), R.plain_city(state, 1)
    assert a[4:] == [
        "  science: wheel, quill (pair)",
        "  progress tokens: none",
        "  wonders: W1 Piraeus (10c, cannot afford)",
    ]
    assert b[-1] == "  wonders: W1 The Colossus (8c)"  # 3 clay and 1 glass at 2 coins
    drawn = R.render_city(state, 1)
    from rich.console import Console

    console = Console(width=100, record=True, color_system=None)
    console.print(drawn, R.render_city(state, 0))
    text = console.export_text()
    assert "W1 The Colossus  8c" in text and "quill (pair)" in text


def test_rich_table_fits_100_columns():
    for age in (1, 2, 3):
        state = play_state(age, seed=age)
        text = text_of(R.render_table(state, ("human", "search"), width=100))
        assert max(len(line) for line in text.splitlines()) <= 100
        assert "Military" in text and "A (human)" in text and "B (search)" in text
        assert "take a card" in text


def test_military_track_shows_pawn_and_looting_tokens():
    state = first_with(lambda s: s.pawn >= 3 and "B2" not in s.military_tokens)
    text = R.render_military(state).plain
    track, loot = text.split("\n")
    assert track.count("●") == 1
    assert "-2 B" not in loot and "-5 A" in loot
    assert f"{state.pawn} towards B's capital" in R.military_text(state)


def test_cities_list_cards_by_colour_with_production_and_science():
    state = first_with(lambda s: len(s.city(0)) >= 8 and s.science(0) and s.production(0))
    text = text_of(R.render_city(state, 0))
    for c in state.city(0):
        assert CARDS[c].name in text
    for symbol in state.science(0):
        assert symbol in text
    assert R.production_text(state, 0) in text.replace("\n", " ") or "makes" in text


@pytest.mark.parametrize(
    "phase, verb",
    [
        ("draft", "pick"),
        ("choose_token", "token"),
        ("library_choose", "token"),
        ("destroy", "destroy"),
        ("mausoleum", "mausoleum"),
        ("choose_starter", "start"),
    ],
)
def test_choices_of_every_decision_are_the_legal_moves(phase, verb):
    state = first_with(lambda s: s.phase == phase)
    options = R.choices(state)
    assert [o.move for o in options] == state.legal_moves()
    assert all(str(o.move).startswith(verb) for o in options)
    text = "\n".join(R.plain_decision(state))
    for i, option in enumerate(options, 1):
        assert f"{i}. {option.label}" in text
    assert text_of(R.render_decision(state))


def test_discard_pile_on_request():
    state = first_with(lambda s: len(s.discard_pile) >= 3)
    text = "\n".join(R.discard_lines(state))
    for c in state.discard_pile:
        assert CARDS[c].name in text
    assert "Discard pile (" in text_of(R.render_discards(state))
    assert R.discard_lines(new_game()) == ["The discard pile is empty."]


@pytest.mark.parametrize("victory", ["civilian", "military", "science"])
def test_final_score_side_by_side(victory):
    seeds = [500] if victory == "science" else range(400)  # science wins are rare at random
    state = first_with(lambda s: s.is_terminal() and s.victory == victory, seeds)
    lines = R.plain_final(state, ("human", "random"))
    assert lines[0] == "Game over."
    assert victory.replace("science", "scientific") in lines[1].lower() or "Shared" in lines[1]
    total = next(line for line in lines if line.startswith("total"))
    assert total.split()[1:] == [str(state.score(0).total), str(state.score(1).total)]
    for category in ("civilian (blue)", "science (green)", "wonders", "military", "coins"):
        assert any(line.startswith(category) for line in lines)
    text = text_of(R.render_final(state, ("human", "random")))
    assert "Game over" in text and "total" in text


def test_describe_chance_and_transitions():
    assert M.describe_chance(Move.parse("reveal slot 9 Baths")) == "Slot 9 revealed: Baths"
    assert M.describe_chance(Move.parse("guilds at slots 0 9 19")) == (
        "Guild backs in Age III: row 1 card 1 (slot 0), row 4 card 1 (slot 9), "
        "row 7 card 2 (slot 19)"
    )
    assert M.describe_chance(Move.parse("draw Law, Economy, Theology")).startswith(
        "The Great Library draws: "
    )
    state = first_with(
        lambda s: (
            s.phase == "play"
            and any(
                CARDS[s.pyramid[x]].shields
                and s.card_cost(s.to_move, s.pyramid[x]) <= s.coins(s.to_move)
                for x in s.accessible_slots
            )
        )
    )
    card = next(
        state.pyramid[x]
        for x in state.accessible_slots
        if CARDS[state.pyramid[x]].shields
        and state.card_cost(state.to_move, state.pyramid[x]) <= state.coins(state.to_move)
    )
    after = state.apply(Move.build(card))
    words = " ".join(M.describe_transition(state, after, Move.build(card)))
    assert "pawn" in words


def test_card_effects_read_well():
    assert R.card_effect(CARDS[0]) == "1 wood"
    assert "shield" in R.card_effect(next(c for c in CARDS if c.shields))
    guild = next(c for c in CARDS if c.age == 4)
    assert "per" in R.card_effect(guild)
    for card in CARDS:
        assert R.card_effect(card) != "-", card.name
    for wonder in WONDERS:
        assert R.wonder_effect(wonder), wonder.name


def test_print_state_plain_and_rich(capsys):
    state = play_state(1)
    R.print_state(state, plain=True)
    out = capsys.readouterr().out
    assert out.startswith("Age I: take a card")
    R.print_state(state)
    assert "Military" in capsys.readouterr().out
    final = first_with(lambda s: s.is_terminal())
    R.print_state(final, plain=True)
    assert "Game over." in capsys.readouterr().out


def test_the_choice_of_who_begins_shows_the_laid_out_structure():
    from tests.rules.test_ages import AGE_TWO_FACE_UP, reveal_layout
    from tests.tables import after, end_of_age

    before = end_of_age(1, ["Tavern"], pawn=2)
    last = after(before, "discard Tavern")
    said = M.describe_transition(before, last, Move.parse("discard Tavern"))
    assert "Age I is over; Age II is laid out, then B chooses who begins it" in said
    state = reveal_layout(last, AGE_TWO_FACE_UP)
    assert state.phase == "choose_starter"
    assert R.laid_out_text(state) == [
        "Age II is laid out. To take first: Caravansery, Aqueduct; also face up: Rostrum, "
        "Barracks, School, Statue, Sawmill, Brickyard, Walls, Library, Dispensary, Forum."
    ]
    text = "\n".join(R.plain_decision(state))
    assert "B: choose who begins this Age" in text and R.laid_out_text(state)[0] in text
    assert "1. A: A begins Age II" in text and "2. B: B begins Age II (you)" in text
    assert "Age II is laid out. To take first: Caravansery, Aqueduct" in text_of(
        R.render_decision(state)
    )
    begun = state.apply(Move.parse("start A"))
    assert M.describe_transition(state, begun, Move.parse("start A")) == [
        "Age II begins; A starts"
    ]
