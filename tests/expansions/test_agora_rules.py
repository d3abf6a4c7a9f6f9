"""Known-answer tests of Agora (docs/agora.md): the Senate, Senators, Decrees, Conspiracies,
its military tokens, Wonders and Progress tokens, its structures and political supremacy.

Positions are reached by seeded random play and then arranged field by field, as in
``test_pantheon_rules.py``.
"""

import random

import pytest

from duel.catalog import card_named, token_named, wonder_named
from duel.expansions import XMove
from duel.expansions.agora import CONSPIRACIES, DECREES
from duel.expansions.components import (
    SENATOR_IDS,
    SENATOR_KIND,
    T_CORRUPTION,
    T_ORGANIZED_CRIME,
    W_CURIA_JULIA,
    W_KNOSSOS,
    XCARDS,
)
from duel.expansions.table import Plot
from tests.expansions import positions
from tests.expansions.positions import arrange

pytestmark = pytest.mark.expansions
AGORA = ("agora",)


def reach(predicate, seed=0, expansions=AGORA):
    return positions.reach(predicate, seed, expansions)


def card(name):
    return card_named(name).id


def senator(kind_name, n=0):
    return [c for c in SENATOR_IDS if SENATOR_KIND[c].name == kind_name][n]


def play_turn(seed=0):
    """A decision of the play phase in Age I, with no step pending."""
    return reach(lambda s: s.phase == "play" and s.age == 1 and not s.pending, seed)


EMPTY_SENATE = ((0, 0),) * 6


def with_senate(state, senate, decrees=None):
    return arrange(state, senate=senate, decrees=decrees or ((("Blue tithe", True),),) + ((),) * 5)


# --- setup and structures ------------------------------------------------------------------------
def test_three_decrees_are_dealt_face_up_in_chambers_1_3_5_and_three_face_down():
    s = reach(lambda s: s.phase == "decree")
    assert [m.args[0] for m, _ in s.chance_outcomes()] == [1] * 16
    for _ in range(3):
        s = s.apply(s.chance_outcomes()[0][0])
    assert s.phase == "setup_wonders"
    up = [[name for name, shown in entries if shown] for entries in s.decrees]
    assert [len(u) for u in up] == [1, 0, 1, 0, 1, 0]
    assert [len(e) for e in s.decrees] == [1, 1, 1, 1, 1, 1]


def test_the_agora_structures_hold_25_25_23_cards_and_public_senator_backs():
    s = reach(lambda s: s.phase == "back" and s.age == 1)
    assert len(s.pyramid) == 25
    while s.phase == "back":
        s = s.apply(s.sample_chance(random.Random(1)))
    assert s.backs.count("senator") == 5 and s.backs.count("age") == 20
    s3 = reach(lambda s: s.age == 3 and s.phase == "reveal", seed=1)
    assert len(s3.pyramid) == 23
    assert s3.backs.count("senator") == 3 and s3.backs.count("guild") == 3


def test_a_senator_back_turns_up_a_senator_weighted_by_its_unseen_cards():
    s = reach(lambda s: s.phase == "reveal" and s.age == 1 and s.backs and "senator" in s.backs)
    slot = s.backs.index("senator")
    t = arrange(s, reveal=1 << slot)
    weights = {XCARDS[m.args[1]].name: w for m, w in t.chance_weights()[0]}
    assert (
        weights
        == {
            "Politician (left section)": 2,
            "Politician (middle section)": 3,
            "Politician (right section)": 2,
            "Conspirator": 6,
        }
        or sum(weights.values()) < 13
    )  # some were seen already


# --- Senators and the Senate ----------------------------------------------------------------------
def test_a_senator_costs_as_many_coins_as_senators_already_recruited():
    s = play_turn()
    player = s.to_move
    two = frozenset({senator("Conspirator", 0), senator("Conspirator", 1)})
    s = arrange(s, cities={player: {"cards": two}})
    assert s.card_cost(player, senator("Conspirator", 2)) == 2
    s = arrange(s, cities={player: {"tokens": frozenset({T_CORRUPTION})}})
    assert s.card_cost(player, senator("Conspirator", 2)) == 0


def _recruit(state, card, player=None):
    """``state`` with ``card`` accessible in slot 0's place, then recruited."""
    player = state.to_move if player is None else player
    slot = state.accessible_slots[0]
    t = arrange(state, pyramid=state.pyramid.set(slot, card), cities={player: {"coins": 30}})
    return t.apply(XMove("build", (card,)))


@pytest.mark.parametrize(("blue", "actions"), [(0, 1), (1, 1), (2, 2), (3, 2), (4, 3)])
def test_a_politician_gives_actions_by_blue_cards_in_its_section(blue, actions):
    s = play_turn()
    player = s.to_move
    blues = frozenset([card("Theater"), card("Altar"), card("Baths"), card("Temple")][:blue])
    s = arrange(s, senate=EMPTY_SENATE, cities={player: {"cards": blues}})
    s = _recruit(s, senator("Politician (middle section)"))
    assert s.phase == "senate" and s.step[3] == actions
    places = {m.args[0] for m in s.legal_moves() if m.kind == "place"}
    assert places == {3, 4}
    assert XMove("stop") in s.legal_moves()


def test_control_needs_strictly_more_cubes_and_the_first_control_turns_the_decree_up():
    s = play_turn()
    decrees = ((("Blue tithe", True),), ((None, False),), (), (), (), ())
    s = arrange(s, senate=EMPTY_SENATE, decrees=decrees)
    s = _recruit(s, senator("Politician (left section)"))
    s = s.apply(XMove("place", (2,)))
    assert s.phase == "decree" and s.is_chance()
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 15 and "Blue tithe" not in {m.args[1] for m, _ in outcomes}


def test_a_tie_controls_nothing():
    s = play_turn()
    from duel.expansions.table import controller

    assert controller(((2, 2),) + ((0, 0),) * 5, 1) is None
    assert controller(((3, 2),) + ((0, 0),) * 5, 1) == 0
    assert s.age == 1


def test_political_supremacy_ends_the_game_at_once():
    s = play_turn()
    player = s.to_move
    senate = [(0, 0)] * 6
    for i in range(5):
        senate[i] = (1, 0) if player == 0 else (0, 1)
    decrees = ((("Blue tithe", True),),) + ((),) * 5
    s = arrange(s, senate=tuple(senate), decrees=decrees)
    s = _recruit(s, senator("Politician (right section)"))
    s = s.apply(XMove("place", (6,)))
    assert s.is_terminal() and s.victory == "political" and s.winner == player


def test_a_conspirator_places_a_cube_anywhere_or_conspires():
    s = play_turn()
    s = arrange(s, senate=EMPTY_SENATE, decrees=((),) * 6)
    s = _recruit(s, senator("Conspirator"))
    assert s.phase == "conspirator"
    assert {m.args[0] for m in s.legal_moves() if m.kind == "place"} == set(range(1, 7))
    assert XMove("conspire") in s.legal_moves()


def fresh_plots(state, **more):
    """No Conspiracy drawn yet: all 16 in the deck, nobody's hand."""
    none = {"plots": ()}
    cities = {0: dict(none), 1: dict(none)}
    for player, changes in more.pop("cities", {}).items():
        cities[player].update(changes)
    return arrange(
        state, plot_size=16, plot_top=(), plot_bottom=(), decrees=((),) * 6, cities=cities, **more
    )


def test_conspiring_keeps_one_card_and_puts_the_other_on_top_or_at_the_bottom():
    s = play_turn()
    player = s.to_move
    s = fresh_plots(s)
    s = _recruit(s, senator("Conspirator")).apply(XMove("conspire"))
    assert s.phase == "draw_plots"
    assert len(s.chance_outcomes()) == 16 * 15 // 2
    assert s.view(1 - player).chance_outcomes() == [(XMove("draw_plots", (None,)), 1.0)]
    s = s.apply(XMove("draw_plots", (("Blackmail", "Coup"),)))
    assert len(s.legal_moves()) == 4
    s = s.apply(XMove("keep", (("Coup",), "Blackmail", "bottom")))
    assert s.cities[player].plots == (Plot("Coup"),)
    assert s.plot_bottom[-1].divinity == "Blackmail" and s.plot_size == 15
    assert s.view(1 - player).cities[player].plots == (Plot(None),)


def test_organized_crime_keeps_both():
    s = play_turn()
    player = s.to_move
    s = fresh_plots(s, cities={player: {"tokens": frozenset({T_ORGANIZED_CRIME})}})
    s = _recruit(s, senator("Conspirator")).apply(XMove("conspire"))
    s = s.apply(XMove("draw_plots", (("Blackmail", "Coup"),)))
    assert [p.name for p in s.cities[player].plots] == ["Blackmail", "Coup"]


# --- Conspiracies ---------------------------------------------------------------------------------
def with_plot(state, name, prepared=True):
    player = state.to_move
    return arrange(state, cities={player: {"plots": (Plot(name, prepared=prepared),)}})


def trigger(state, name):
    return state.apply(XMove("trigger", (1, name)))


def test_a_conspiracy_is_prepared_with_a_card_and_not_triggered_the_same_turn():
    s = play_turn()
    player = s.to_move
    s = arrange(s, cities={player: {"plots": (Plot("Coup"),)}})
    card_id = s.pyramid[s.accessible_slots[0]]
    s = s.apply(XMove("prepare", (card_id, 1)))
    plot = s.cities[player].plots[0]
    assert plot.prepared and plot.card == card_id
    # the opponent's turn now; back to the player: the Conspiracy may be triggered
    assert not any(m.kind == "trigger" for m in s.view(player).legal_moves())


def test_a_triggered_conspiracy_comes_before_the_turn_which_goes_on():
    s = play_turn()
    player = s.to_move
    s = arrange(s, pawn=0, military=0)
    s = trigger(with_plot(s, "Coup"), "Coup")
    assert s.to_move == player and s.phase == "play" and s.pawn == (2 if player == 0 else -2)
    assert s.triggered and not any(m.kind == "trigger" for m in s.legal_moves())
    assert s.cities[player].plots[0].used


def test_blackmail_takes_half_the_coins_rounded_up():
    s = play_turn()
    player = s.to_move
    s = arrange(s, cities={player: {"coins": 0}, 1 - player: {"coins": 7}})
    s = trigger(with_plot(s, "Blackmail"), "Blackmail")
    assert s.cities[player].coins == 4 and s.cities[1 - player].coins == 3


def test_embezzlement_counts_each_players_cubes():
    s = play_turn()
    player = s.to_move
    senate = [(0, 0)] * 6
    senate[0] = (3, 1) if player == 0 else (1, 3)
    s = arrange(
        s,
        senate=tuple(senate),
        decrees=((),) * 6,
        cities={player: {"coins": 0}, 1 - player: {"coins": 5}},
    )
    s = trigger(with_plot(s, "Embezzlement"), "Embezzlement")
    assert s.cities[player].coins == 3 and s.cities[1 - player].coins == 4


def test_sabotage_sends_a_built_wonder_back_to_the_box():
    s = play_turn()
    player = s.to_move
    pyramids, baths = wonder_named("The Pyramids"), card("Baths")
    s = arrange(s, cities={1 - player: {"built": ((pyramids, baths),), "wonders": ()}})
    s = trigger(with_plot(s, "Sabotage"), "Sabotage").apply(XMove("sabotage", (pyramids,)))
    assert s.cities[1 - player].built == () and pyramids not in s.cities[1 - player].wonders
    assert baths in s.discard


def test_obscurantism_locks_a_token_out_of_the_game():
    s = play_turn()
    law = token_named("Law")
    s = arrange(s, board=s.board | {law})
    s = trigger(with_plot(s, "Obscurantism"), "Obscurantism").apply(XMove("lock", (law,)))
    assert law not in s.board and law not in s.box_tokens and law in s.locked


def test_treason_offers_this_ages_removed_cards_privately():
    s = play_turn()
    player = s.to_move
    s = trigger(with_plot(s, "Treason"), "Treason")
    assert s.phase == "treason_deal"
    assert s.view(1 - player).chance_outcomes() == [(XMove("treason_deal", (None,)), 1.0)]
    outcome = s.chance_outcomes()[0][0]
    s = s.apply(outcome)
    assert s.phase == "treason"
    built = s.legal_moves()[0]
    s = s.apply(built)
    assert built.args[0] in s.cities[player].cards


def test_coercion_swaps_two_cards_of_the_same_colour_and_science_follows():
    s = play_turn()
    player = s.to_move
    mine, theirs = card("Workshop"), card("Apothecary")
    s = arrange(
        s,
        decrees=((),) * 6,
        cities={
            player: {"cards": frozenset({mine}), "science": frozenset({"pendulum"})},
            1 - player: {"cards": frozenset({theirs}), "science": frozenset({"wheel"})},
        },
    )
    s = trigger(with_plot(s, "Coercion"), "Coercion").apply(XMove("swap", (mine, theirs)))
    assert s.cities[player].science == frozenset({"wheel"})
    assert s.cities[1 - player].science == frozenset({"pendulum"})


def test_turn_of_events_discards_two_cards_for_nothing():
    s = play_turn()
    player = s.to_move
    coins = s.cities[player].coins
    s = trigger(with_plot(s, "Turn Of Events"), "Turn Of Events")
    first = s.legal_moves()[0]
    s = s.apply(first)
    while s.is_chance():
        s = s.apply(s.chance_outcomes()[0][0])
    assert s.phase == "discard_any" and XMove("no_discard") in s.legal_moves()
    s = s.apply(XMove("no_discard"))
    assert first.args[0] in s.discard and s.cities[player].coins == coins


def test_insider_influence_moves_a_decree_under_another():
    s = play_turn()
    decrees = ((("Blue tithe", True),), (), (("Red tithe", True),), (), (), ())
    s = arrange(s, senate=EMPTY_SENATE, decrees=decrees)
    s = trigger(with_plot(s, "Insider Influence"), "Insider Influence")
    s = s.apply(XMove("move_decree", (1, "Blue tithe", 3)))
    assert s.decrees[0] == () and s.decrees[2] == (("Red tithe", True), ("Blue tithe", True))


def quiet(state):
    """No cube and no Decree in the Senate: a Conspiracy's optional cube move is skipped."""
    return arrange(state, senate=EMPTY_SENATE, decrees=((),) * 6)


def test_extortion_takes_an_unbuilt_wonder_of_the_opponent():
    s = quiet(play_turn())
    player = s.to_move
    pyramids = wonder_named("The Pyramids")
    s = arrange(s, cities={player: {"wonders": ()}, 1 - player: {"wonders": (pyramids,)}})
    s = trigger(with_plot(s, "Extortion"), "Extortion")
    assert s.phase == "ra"
    s = s.apply(XMove("steal", (pyramids,)))
    assert s.cities[player].wonders == (pyramids,) and s.cities[1 - player].wonders == ()
    assert s.to_move == player and s.phase in ("play", "reveal")


@pytest.mark.parametrize(("name", "victim"), [("Expropriation", "Altar"), ("Swindle", "Tavern")])
def test_expropriation_and_swindle_destroy_a_blue_or_yellow_card(name, victim):
    s = quiet(play_turn())
    player = s.to_move
    target = card(victim)
    s = arrange(s, cities={1 - player: {"cards": frozenset({target, card("Lumber Yard")})}})
    s = trigger(with_plot(s, name), name)
    assert s.phase == "destroy" and s.legal_moves() == [XMove("destroy", (target,))]
    s = s.apply(XMove("destroy", (target,)))
    assert target not in s.cities[1 - player].cards and target in s.discard


def test_property_fraud_builds_a_card_of_the_farthest_row_for_free():
    from duel.expansions.components import structure_of

    s = quiet(play_turn())
    player = s.to_move
    slot = structure_of(s.expansions, s.age).rows[0][0]
    target = s.pyramid[slot]
    if target < 0 or target in SENATOR_IDS:  # face down: lay an unseen Age I card there
        target = min(c for c in s.unseen if XCARDS[c].age == 1)
        s = arrange(s, pyramid=s.pyramid.set(slot, target), unseen=s.unseen - {target})
    s = arrange(s, cities={player: {"coins": 0, "cards": frozenset()}})
    s = trigger(with_plot(s, "Property Fraud"), "Property Fraud")
    assert s.phase == "fraud" and XMove("free_build", (target,)) in s.legal_moves()
    s = s.apply(XMove("free_build", (target,)))
    assert target in s.cities[player].cards
    assert s.cities[player].coins == XCARDS[target].coins  # nothing paid
    assert not s.present >> slot & 1


def test_political_maneuver_places_a_cube_and_removes_one_of_the_opponent():
    s = quiet(play_turn())
    player = s.to_move
    senate = [(0, 0)] * 6
    senate[1] = (0, 1) if player == 0 else (1, 0)
    s = arrange(s, senate=tuple(senate))
    s = trigger(with_plot(s, "Political Maneuver"), "Political Maneuver")
    assert s.phase == "place"
    s = s.apply(XMove("place", (4,)))
    assert s.phase == "evict" and s.legal_moves() == [XMove("evict", (2,))]
    s = s.apply(XMove("evict", (2,)))
    assert s.phase == "move_cube" and XMove("no_move") in s.legal_moves()
    s = s.apply(XMove("no_move"))
    assert s.senate[1] == (0, 0) and s.senate[3][player] == 1


def test_espionage_takes_a_progress_token_from_the_box():
    s = quiet(play_turn())
    player = s.to_move
    box = s.box_tokens
    s = trigger(with_plot(s, "Espionage"), "Espionage")
    assert s.phase == "espionage"
    assert {m.args[0] for m in s.legal_moves()} == set(box)
    s = s.apply(XMove("token", (box[0],)))
    assert box[0] in s.cities[player].tokens and box[0] not in s.box_tokens


def test_foreclosure_takes_a_brown_or_grey_card_of_the_opponent():
    s = quiet(play_turn())
    player = s.to_move
    lumber, altar = card("Lumber Yard"), card("Altar")
    s = arrange(
        s,
        cities={player: {"cards": frozenset()}, 1 - player: {"cards": frozenset({lumber, altar})}},
    )
    s = trigger(with_plot(s, "Foreclosure"), "Foreclosure")
    assert s.phase == "baal" and s.legal_moves() == [XMove("take", (lumber,))]
    s = s.apply(XMove("take", (lumber,)))
    assert lumber in s.cities[player].cards and lumber not in s.cities[1 - player].cards


# --- Decrees --------------------------------------------------------------------------------------
def controlled_by(state, player, *names):
    senate = [(0, 0)] * 6
    senate[0] = (1, 0) if player == 0 else (0, 1)
    decrees = (tuple((n, True) for n in names),) + ((),) * 5
    return arrange(state, senate=tuple(senate), decrees=decrees)


@pytest.mark.parametrize(
    ("decree", "name"),
    [
        ("Blue tithe", "Altar"),
        ("Green tithe", "Scriptorium"),
        ("Yellow tithe", "Stone Reserve"),
        ("Red tithe", "Stable"),
    ],
)
def test_a_tithe_pays_the_controller_the_age_when_either_player_builds_the_colour(decree, name):
    s = play_turn()
    player = s.to_move
    s = controlled_by(s, 1 - player, decree)
    built = card(name)
    slot = s.accessible_slots[0]
    s = arrange(
        s,
        pyramid=s.pyramid.set(slot, built),
        cities={player: {"coins": 10, "cards": frozenset()}, 1 - player: {"coins": 0}},
    )
    s = s.apply(XMove("build", (built,)))
    assert s.cities[1 - player].coins == 1  # Age I
    assert built in s.cities[player].cards


def test_the_wonder_tithe_pays_the_controller_when_a_wonder_is_built():
    s = play_turn()
    player = s.to_move
    s = controlled_by(s, 1 - player, "Wonder tithe")
    pyramids = wonder_named("The Pyramids")
    under = s.pyramid[s.accessible_slots[0]]
    s = arrange(
        s,
        cities={
            player: {"coins": 30, "wonders": (pyramids,), "built": ()},
            1 - player: {"coins": 0},
        },
    )
    s = s.apply(XMove("wonder", (pyramids, under)))
    assert (pyramids, under) in s.cities[player].built
    assert s.cities[1 - player].coins == 1  # Age I


@pytest.mark.parametrize(
    ("decree", "name", "plain"),
    [("Yellow waiver", "Stone Reserve", 3), ("Green waiver", "Scriptorium", 2)],
)
def test_a_waiver_ignores_the_coin_cost_of_its_colour(decree, name, plain):
    s = quiet(play_turn())
    player = s.to_move
    s = arrange(s, cities={player: {"cards": frozenset()}, 1 - player: {"cards": frozenset()}})
    assert s.card_cost(player, card(name)) == plain
    assert controlled_by(s, player, decree).card_cost(player, card(name)) == 0
    assert controlled_by(s, 1 - player, decree).card_cost(player, card(name)) == plain


def test_the_wonder_waiver_ignores_one_resource_of_a_wonder():
    s = quiet(play_turn())
    player = s.to_move
    s = arrange(s, cities={player: {"cards": frozenset()}, 1 - player: {"cards": frozenset()}})
    pyramids = wonder_named("The Pyramids")  # 3 stone and 1 papyrus, 2 coins each here
    assert s.wonder_cost(player, pyramids) == 8
    assert controlled_by(s, player, "Wonder waiver").wonder_cost(player, pyramids) == 6


def test_the_manufactured_goods_rebate_lowers_glass_and_papyrus():
    s = quiet(play_turn())
    player = s.to_move
    s = arrange(s, cities={player: {"cards": frozenset()}, 1 - player: {"cards": frozenset()}})
    plain = s.trade_prices(player)
    rebated = controlled_by(s, player, "Manufactured goods rebate").trade_prices(player)
    assert rebated[:3] == plain[:3] and rebated[3:] == tuple(max(1, p - 1) for p in plain[3:])


def test_shared_chains_build_from_the_opponents_chain_symbols():
    s = quiet(play_turn())
    player = s.to_move
    stable, breeders = card("Stable"), card("Horse Breeders")  # horseshoe
    s = arrange(
        s, cities={player: {"cards": frozenset()}, 1 - player: {"cards": frozenset({stable})}}
    )
    assert s.card_cost(player, breeders) > 0
    assert controlled_by(s, player, "Shared chains").card_cost(player, breeders) == 0


def test_swift_plots_give_another_turn_when_a_conspirator_is_recruited():
    s = play_turn()
    player = s.to_move
    s = controlled_by(s, player, "Swift plots")
    s = _recruit(s, senator("Conspirator"))
    assert s.phase == "conspirator"
    s = s.apply(XMove("place", (2,)))
    while s.is_chance():
        s = s.apply(s.chance_outcomes()[0][0])
    assert s.to_move == player and s.phase == "play"
    plain = _recruit(controlled_by(play_turn(), 1 - player, "Swift plots"), senator("Conspirator"))
    plain = plain.apply(XMove("place", (2,)))
    while plain.is_chance():
        plain = plain.apply(plain.chance_outcomes()[0][0])
    assert plain.to_move == 1 - player


def test_rebates_and_waivers_lower_prices():
    s = play_turn()
    player = s.to_move
    s = arrange(s, cities={player: {"cards": frozenset()}, 1 - player: {"cards": frozenset()}})
    plain = s.trade_prices(player)
    rebated = controlled_by(s, player, "Raw goods rebate").trade_prices(player)
    assert rebated[:3] == tuple(max(1, p - 1) for p in plain[:3]) and rebated[3:] == plain[3:]
    stable = card("Stable")  # red, 1 wood
    assert controlled_by(s, player, "Red waiver").card_cost(player, stable) == 0
    assert s.card_cost(player, stable) == 2


def test_scrap_dealers_and_civic_weight():
    s = play_turn()
    player = s.to_move
    s = controlled_by(s, player, "Scrap dealers", "Civic weight")
    coins = s.cities[player].coins
    yellow = s.cities[player].count("yellow")
    card_id = s.pyramid[s.accessible_slots[0]]
    after = s.apply(XMove("discard", (card_id,)))
    assert after.cities[player].coins == coins + 2 + yellow + 2
    s = _recruit(s, senator("Politician (left section)"))
    assert s.step[3] == 2  # 0 blue cards + 2 from Civic weight


def test_standing_army_moves_the_pawn_when_control_changes():
    s = play_turn()
    player = s.to_move
    decrees = ((("Standing army", True),),) + ((),) * 5
    s = arrange(s, senate=EMPTY_SENATE, decrees=decrees, pawn=0, military=0)
    s = _recruit(s, senator("Politician (left section)"))
    s = s.apply(XMove("place", (1,)))
    assert s.pawn == (1 if player == 0 else -1)


# --- military tokens, Wonders, tokens, scoring ----------------------------------------------------
def test_an_agora_military_token_places_a_cube_and_takes_no_coins():
    s = play_turn()
    player = s.to_move
    s = arrange(s, pawn=2 if player == 0 else -2, cities={1 - player: {"coins": 9}})
    s = trigger(with_plot(s, "Coup"), "Coup")
    assert s.phase == "place" and s.cities[1 - player].coins == 9


def test_drafting_curia_julia_conspires_and_knossos_places_a_cube():
    s = reach(lambda s: s.phase == "draft")
    s = arrange(s, offer=frozenset({W_CURIA_JULIA, W_KNOSSOS, 0, 1}))
    s = s.apply(XMove("pick", (W_KNOSSOS,)))
    assert s.phase == "place"
    s = s.apply(XMove("place", (3,)))
    assert s.phase in ("draft", "decree")


def test_the_senate_scores_its_chambers_for_their_controllers():
    s = play_turn()
    senate = ((1, 0), (1, 0), (0, 1), (0, 0), (2, 1), (0, 0))
    s = arrange(s, senate=senate)
    assert s.score(0).senate == 1 + 2 + 2 and s.score(1).senate == 3


def test_every_decree_and_conspiracy_is_in_the_data():
    assert len(DECREES) == 16 and len(CONSPIRACIES) == 16


def test_with_pantheon_the_agora_structures_carry_the_pantheon_tokens_on_their_own_slots():
    from duel.expansions.components import token_slots

    both = ("agora", "pantheon")
    mythology, offering = token_slots(both)
    s = reach(lambda s: s.age == 1 and s.phase == "play", expansions=both)
    assert sorted(s.mythology_on) == sorted(mythology)
    s = reach(lambda s: s.age == 2 and s.phase in ("play", "choose_starter"), expansions=both)
    assert sorted(s.offering_on) == sorted(offering) or len(s.offering_on) < 3
    assert any(sp is not None for sp in s.spaces)  # Divinities were seated in Age I
