"""Every wonder's effect, the seven-wonder limit and Play Again."""

from duel import card_named
from tests.tables import after, end_of_age, make_state, settle


def with_wonder(wonder, accessible=("Tavern", "Theater"), coins=40, **kwargs):
    a = {"coins": coins, "wonders": [wonder], **kwargs.pop("A", {})}
    return make_state(age=1, accessible=list(accessible), A=a, **kwargs)


def build(state, wonder, card="Tavern"):
    return after(state, f"wonder {wonder} with {card}")


def test_appian_way_coins_opponent_loss_and_replay():
    state = build(with_wonder("The Appian Way", B={"coins": 2}), "The Appian Way")
    assert state.coins(1) == 0  # loses 3 but had 2
    assert state.to_move == 0  # Play Again
    assert state.score(0).wonders == 3


def test_circus_maximus_destroys_a_grey_card_into_the_discard():
    state = with_wonder("Circus Maximus", B={"city": ["Glassworks", "Lumber Yard"]})
    state = build(state, "Circus Maximus")
    assert state.phase == "destroy" and state.pawn == 1
    assert [str(m) for m in state.legal_moves()] == ["destroy Glassworks"]
    state = after(state, "destroy Glassworks")
    glassworks = card_named("Glassworks").id
    assert glassworks in state.discard_pile and glassworks not in state.city(1)
    assert state.production(1) == {"wood": 1} and state.to_move == 1


def test_destroy_does_nothing_when_the_opponent_has_no_such_card():
    state = build(with_wonder("The Statue of Zeus", B={"city": ["Press"]}), "The Statue of Zeus")
    assert state.phase != "destroy" and state.to_move == 1 and state.pawn == 1


def test_statue_of_zeus_destroys_a_brown_card():
    state = with_wonder("The Statue of Zeus", B={"city": ["Quarry", "Press"]})
    state = build(state, "The Statue of Zeus")
    assert [str(m) for m in state.legal_moves()] == ["destroy Quarry"]


def test_colossus_two_shields():
    state = build(with_wonder("The Colossus"), "The Colossus")
    assert state.pawn == 2 and state.score(0).wonders == 3


def test_great_library_draws_three_of_the_five_set_aside_tokens():
    board = ["Agriculture", "Law", "Masonry", "Philosophy", "Theology"]
    state = build(with_wonder("The Great Library", board=board), "The Great Library")
    assert state.phase == "library_draw" and state.is_chance()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 10 and all(abs(p - 0.1) < 1e-12 for _, p in outcomes)
    drawn = {name for m, _ in outcomes for name in str(m)[5:].split(", ")}
    assert drawn == {"Architecture", "Economy", "Mathematics", "Strategy", "Urbanism"}
    state = after(state, "draw Economy, Strategy, Urbanism")
    assert sorted(str(m) for m in state.legal_moves()) == [
        "token Economy",
        "token Strategy",
        "token Urbanism",
    ]
    state = after(state, "token Urbanism")
    assert state.coins(0) == 40 - 10 + 6 and list(state.board_tokens) == board


def test_great_lighthouse_and_piraeus_produce_one_of_without_changing_prices():
    state = with_wonder("The Great Lighthouse", A={"city": ["Press"]})
    prices_before = state.trade_prices(1)
    state = build(state, "The Great Lighthouse")
    assert state.choice_production(0) == (1, 0) and state.trade_prices(1) == prices_before
    state = build(with_wonder("Piraeus"), "Piraeus")
    assert state.choice_production(0) == (0, 1) and state.to_move == 0


def test_hanging_gardens_and_temple_of_artemis_coins_and_replay():
    state = build(with_wonder("The Hanging Gardens", coins=20), "The Hanging Gardens")
    assert state.coins(0) == 20 - 8 + 6 and state.to_move == 0
    state = build(with_wonder("The Temple of Artemis", coins=20), "The Temple of Artemis")
    assert state.coins(0) == 20 - 8 + 12 and state.to_move == 0


def test_mausoleum_builds_a_discarded_card_for_free():
    state = with_wonder("The Mausoleum", discard=["Baths"], A={"coins": 10})
    state = build(state, "The Mausoleum")
    assert [str(m) for m in state.legal_moves()] == ["mausoleum Baths"]
    state = after(state, "mausoleum Baths")
    assert card_named("Baths").id in state.city(0) and not state.discard_pile
    assert state.coins(0) == 0 and state.to_move == 1  # 2 clay 2 glass 1 papyrus at 2 each


def test_mausoleum_with_an_empty_discard_pile_can_still_be_built():
    state = build(with_wonder("The Mausoleum"), "The Mausoleum")
    assert state.phase != "mausoleum" and state.built_wonders(0) and state.to_move == 1


def test_mausoleum_build_is_not_a_chain_for_urbanism():
    state = make_state(
        age=2,
        accessible=["Walls"],
        discard=["Aqueduct"],
        A={
            "coins": 20,
            "wonders": ["The Mausoleum"],
            "city": ["Baths"],
            "progress_tokens": ["Urbanism"],
        },
        board=[],
    )
    state = after(state, "wonder The Mausoleum with Walls", "mausoleum Aqueduct")
    assert state.coins(0) == 20 - 10


def test_mausoleum_card_can_form_a_science_pair():
    state = make_state(
        age=2,
        accessible=["Walls"],
        discard=["Laboratory"],
        A={"coins": 20, "wonders": ["The Mausoleum"], "city": ["Workshop"]},
    )
    state = after(state, "wonder The Mausoleum with Walls", "mausoleum Laboratory")
    assert state.phase == "choose_token"


def test_pyramids_and_sphinx_points():
    assert build(with_wonder("The Pyramids"), "The Pyramids").score(0).wonders == 9
    state = build(with_wonder("The Sphinx"), "The Sphinx")
    assert state.score(0).wonders == 6 and state.to_move == 0


def test_only_seven_wonders_are_built_and_the_eighth_leaves():
    state = make_state(
        age=1,
        accessible=["Tavern"],
        A={
            "coins": 40,
            "built_wonders": ["The Pyramids", "The Sphinx", "The Colossus"],
            "wonders": ["Piraeus"],
        },
        B={
            "built_wonders": ["The Appian Way", "Circus Maximus", "The Mausoleum"],
            "wonders": ["The Great Library"],
        },
    )
    state = after(state, "wonder Piraeus with Tavern")
    assert state.wonders_built_count == 7 and state.wonders(1) == []


def test_play_again_is_lost_with_the_last_card_of_an_age():
    state = end_of_age(1, ["Tavern"], A={"coins": 30, "wonders": ["The Sphinx"]})
    state = after(state, "wonder The Sphinx with Tavern")
    assert state.age == 2 and state.phase == "reveal" and not state.extra_turn_pending()
    state = settle(state)  # Age II laid out; A took the last card with the pawn centred: A chooses
    assert state.phase == "choose_starter" and state.to_move == 0
    assert not state.extra_turn_pending()
    state = after(state, "start B")
    assert state.phase == "play" and state.to_move == 1  # no Play Again carried over


def test_play_again_chains():
    state = with_wonder("The Sphinx", A={"wonders": ["The Sphinx", "The Hanging Gardens"]})
    state = build(state, "The Sphinx")
    state = build(state, "The Hanging Gardens", "Theater")
    assert state.to_move == 0


def test_theology_gives_every_wonder_play_again_but_never_twice():
    state = with_wonder("The Pyramids", A={"progress_tokens": ["Theology"]}, board=[])
    assert build(state, "The Pyramids").to_move == 0
    state = with_wonder("The Sphinx", A={"progress_tokens": ["Theology"]}, board=[])
    state = build(state, "The Sphinx")
    assert state.to_move == 0
    assert after(state, "discard Theater").to_move == 1  # one extra turn, not two


def test_mausoleum_never_offers_cards_removed_at_setup():
    state = end_of_age(
        1, ["Tavern"], A={"coins": 30, "wonders": ["The Mausoleum"]}, discard=["Baths"]
    )
    removed = state.unseen_cards
    assert len(removed) == 3  # the three Age I cards returned to the box, still unknown
    state = after(state, "wonder The Mausoleum with Tavern")
    offered = {m.card for m in state.legal_moves()}
    assert card_named("Baths").id in offered and not offered & set(removed)
    assert card_named("Tavern").id not in offered  # the wonder's card is not discarded
