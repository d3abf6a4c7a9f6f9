"""The eight points where the expansion engine played otherwise than the licensed Board Game
Arena implementation (issue 61; docs/agora.md and docs/pantheon.md, "Where sources disagree"),
each a known-answer test from a position that shows it."""

import pytest
from pyrsistent import pmap

from duel.catalog import token_named
from duel.expansions import XMove
from duel.expansions.agora import DECREES
from duel.expansions.components import W_CURIA_JULIA, W_KNOSSOS, structure_of
from duel.expansions.queries import science_symbols
from duel.expansions.table import Plot, deck_index
from tests.expansions import positions
from tests.expansions.positions import arrange
from tests.expansions.test_agora_rules import (
    EMPTY_SENATE,
    _recruit,
    card,
    play_turn,
    senator,
    trigger,
    with_plot,
)

pytestmark = pytest.mark.expansions


# --- 8. the Decree move's notation reads back ----------------------------------------------------
@pytest.mark.parametrize("name", [*DECREES, None])
def test_a_decree_move_reads_back(name):
    move = XMove("move_decree", (3, name, 6))
    assert XMove.parse(str(move)) == move


def test_the_decree_notation_is_the_one_documented():
    move = XMove("move_decree", (3, "Green waiver", 6))
    assert str(move) == "move decree Green waiver from 3 to 6"
    assert str(XMove("move_decree", (2, None, 4))) == "move face-down decree from 2 to 4"
    assert XMove.parse("move cube 2 to 3") == XMove("move_cube", (2, 3))
    assert XMove.parse("MOVE decree green WAIVER from 3 to 6").args == (3, "Green waiver", 6)


# --- 1. Insider Influence between two Chambers of one controller changes nothing ----------------
def _insider(decrees, senate, pawn=0, military=0, seed=0):
    s = play_turn(seed)
    s = arrange(s, senate=senate, decrees=decrees, pawn=pawn, military=military)
    return trigger(with_plot(s, "Insider Influence"), "Insider Influence")


def _senate_for(player, chambers, other=()):
    """``player`` holds one cube in each of ``chambers``, the opponent one in each of ``other``."""
    pairs = []
    for c in range(1, 7):
        mine, theirs = int(c in chambers), int(c in other)
        pairs.append((mine, theirs) if player == 0 else (theirs, mine))
    return tuple(pairs)


def test_standing_army_between_two_chambers_of_one_controller_does_not_move_the_pawn():
    s = play_turn()
    player = s.to_move
    decrees = ((("Standing army", True),),) + ((),) * 5
    # the pawn one step from the player's capital: losing the shield a moment would lose the game
    pawn = -8 if player == 0 else 8
    s = _insider(decrees, _senate_for(player, (1, 3)), pawn=pawn)
    s = s.apply(XMove("move_decree", (1, "Standing army", 3)))
    assert s.pawn == pawn and not s.is_terminal()
    assert s.decrees[2] == (("Standing army", True),)


def test_standing_army_between_two_chambers_nobody_controls_does_not_move_the_pawn():
    decrees = ((("Standing army", True),),) + ((),) * 5
    s = _insider(decrees, EMPTY_SENATE)
    s = s.apply(XMove("move_decree", (1, "Standing army", 4)))
    assert s.pawn == 0 and s.decrees[3] == (("Standing army", True),)


def test_standing_army_from_the_opponents_chamber_to_mine_moves_the_pawn_two_spaces():
    s = play_turn()
    player = s.to_move
    decrees = ((("Standing army", True),),) + ((),) * 5
    s = _insider(decrees, _senate_for(player, (3,), other=(1,)))
    s = s.apply(XMove("move_decree", (1, "Standing army", 3)))
    assert s.pawn == (2 if player == 0 else -2)


# --- 2. any top Decree may move, face down too; only the top of a Chamber of two ----------------
def test_insider_influence_offers_the_top_decree_of_each_chamber_face_down_ones_too():
    decrees = (
        (("Blue tithe", True), ("Red tithe", True)),
        ((None, False),),
        (),
        (),
        (),
        (),
    )
    s = _insider(decrees, EMPTY_SENATE)
    sources = {(m.args[0], m.args[1]) for m in s.legal_moves()}
    assert sources == {(1, "Blue tithe"), (2, None)}
    assert len(s.legal_moves()) == 10


def test_a_face_down_decree_moved_into_a_controlled_chamber_turns_up_under_the_decree_there():
    s = play_turn()
    player = s.to_move
    decrees = (((None, False),), (), (("Red tithe", True),), (), (), ())
    s = _insider(decrees, _senate_for(player, (3,)))
    s = s.apply(XMove("move_decree", (1, None, 3)))
    assert s.phase == "decree" and s.decrees[2] == (("Red tithe", True), (None, False))
    s = s.apply(XMove("decree", (3, "Standing army")))
    assert s.decrees[2] == (("Red tithe", True), ("Standing army", True))
    assert s.pawn == (1 if player == 0 else -1)  # gained by the target's controller


def test_a_face_down_decree_leaving_a_controlled_chamber_turns_up_and_its_shield_leaves():
    s = play_turn()
    player = s.to_move
    # Chamber 1 is the player's; its face-down Decree (possible after an earlier move) leaves for
    # Chamber 6 under a face-down Decree nobody has seen: the moved one turns up, not that one
    decrees = (((None, False),), (), (), (), (), ((None, False),))
    s = _insider(decrees, _senate_for(player, (1,)))
    s = s.apply(XMove("move_decree", (1, None, 6)))
    assert s.phase == "decree"
    s = s.apply(XMove("decree", (6, "Standing army")))
    assert s.decrees[5] == ((None, False), ("Standing army", True))
    assert s.pawn == (-1 if player == 0 else 1)  # a step back towards the player


def test_a_face_down_decree_between_chambers_nobody_controls_stays_face_down():
    decrees = (((None, False),), (), (), (), (), ())
    s = _insider(decrees, EMPTY_SENATE)
    s = s.apply(XMove("move_decree", (1, None, 5)))
    assert s.phase != "decree" and s.decrees[4] == ((None, False),)


# --- 3. Coercion's received green pair offers the Progress token --------------------------------
def _coercion(mine, theirs, my_cards, their_cards, my_tokens=frozenset()):
    s = play_turn()
    player = s.to_move
    cities = {
        player: {"cards": frozenset(map(card, my_cards)), "tokens": my_tokens},
        1 - player: {"cards": frozenset(map(card, their_cards)), "tokens": frozenset()},
    }
    s = arrange(s, cities=cities, decrees=((),) * 6, senate=EMPTY_SENATE)
    s = arrange(s, cities={p: {"science": science_symbols(s, p)} for p in (0, 1)})
    s = trigger(with_plot(s, "Coercion"), "Coercion")
    return s.apply(XMove("swap", (card(mine), card(theirs)))), player


def test_a_green_pair_received_by_coercion_offers_a_progress_token():
    # the player holds Scriptorium (quill) and takes Library, the other quill
    s, player = _coercion("Apothecary", "Library", {"Apothecary", "Scriptorium"}, {"Library"})
    assert s.phase == "choose_token" and s.to_move == player
    token = s.legal_moves()[0]
    s = s.apply(token)
    assert token.args[0] in s.cities[player].tokens and s.to_move == player


def test_both_players_may_complete_a_pair_the_mover_chooses_first():
    s, player = _coercion(
        "Scriptorium", "Pharmacist", {"Scriptorium", "Dispensary"}, {"Pharmacist", "Library"}
    )
    assert s.phase == "choose_token" and s.to_move == player
    s = s.apply(s.legal_moves()[0])
    assert s.phase == "choose_token" and s.to_move == 1 - player
    s = s.apply(s.legal_moves()[0])
    assert len(s.cities[0].tokens) == len(s.cities[1].tokens) == 1
    assert s.phase == "play" and s.to_move == player  # the turn goes on after the Conspiracy


def test_a_symbol_given_away_and_received_back_is_no_pair():
    s, player = _coercion("Scriptorium", "Library", {"Scriptorium"}, {"Library"})
    assert s.phase == "play" and s.to_move == player


# --- 4. both players at six science symbols at once is a draw -----------------------------------
def test_both_players_reaching_six_symbols_at_once_is_a_draw():
    # the player: Law, pendulum twice, wheel, quill, mortar (5); the opponent: sundial twice,
    # wheel, quill, mortar, globe (5); a pendulum for a sundial gives both their sixth
    s, player = _coercion(
        "Laboratory",
        "Study",
        {"Workshop", "Laboratory", "Apothecary", "Scriptorium", "Pharmacist"},
        {"Academy", "Study", "School", "Library", "Dispensary", "University"},
        my_tokens=frozenset({token_named("Law")}),
    )
    assert s.is_terminal() and s.is_shared_victory and s.victory == "science"
    assert s.returns() == (0.0, 0.0)
    assert s.describe() == "game over: shared victory (science)"


def test_one_player_reaching_six_by_coercion_wins():
    s, player = _coercion(
        "Laboratory",
        "Study",
        {"Workshop", "Laboratory", "Apothecary", "Scriptorium", "Pharmacist"},
        {"Academy", "Study"},
        my_tokens=frozenset({token_named("Law")}),
    )
    assert s.is_terminal() and s.winner == player and s.victory == "science"


# --- 5. Turn of Events with Pantheon hands out each uncovered token at once ----------------------
BOTH = ("agora", "pantheon")


def _one_discard_from(s, tokens):
    """A token slot a single discard would uncover: covered by one present card only."""
    layout = structure_of(s.expansions, s.age)
    return any(
        sum(s.present >> c & 1 for c in layout.covered_by[x]) == 1
        and all(s.accessible >> c & 1 for c in layout.covered_by[x] if s.present >> c & 1)
        for x in tokens
    )


def _turn_of_events(kind, age):
    """A Turn of Events with both expansions whose first discard uncovers a card holding a
    ``kind`` token ("offering" or "mythology"): the state, that discard and the slot."""
    for seed in range(20):
        s = positions.reach(
            lambda s: (
                s.phase == "play"
                and s.age == age
                and not s.pending
                and not s.reveal
                and _one_discard_from(s, s.offering_on if kind == "offering" else s.mythology_on)
            ),
            seed,
            BOTH,
        )
        s = arrange(s, senate=EMPTY_SENATE, decrees=((),) * 6)
        s = trigger(with_plot(s, "Turn Of Events"), "Turn Of Events")
        tokens = s.offering_on if kind == "offering" else s.mythology_on
        for move in s.legal_moves():
            after = s.apply(move)
            slots = [x for x in tokens if after.accessible >> x & 1]
            if slots:
                return s, move, slots[0]
    raise AssertionError("no such position in 20 games")


def _turn_up(s):
    while s.is_chance() and s.phase == "reveal":
        s = s.apply(s.chance_outcomes()[0][0])
    return s


def test_an_offering_token_uncovered_by_the_first_discard_stays_the_players():
    s, first, slot = _turn_of_events("offering", 2)
    player = s.to_move
    value = s.offering_on[slot]
    before = s.cities[player].offerings
    s = _turn_up(s.apply(first))
    assert sorted(s.cities[player].offerings) == sorted((*before, value))
    # the second discard takes the card the first uncovered: the token is already the player's
    s = s.apply(XMove("discard_free", (s.pyramid[slot],)))
    assert sorted(s.cities[player].offerings) == sorted((*before, value))


def test_a_mythology_token_uncovered_by_the_first_discard_places_a_divinity_before_the_second():
    s, first, slot = _turn_of_events("mythology", 1)
    player = s.to_move
    mythology = s.mythology_on[slot]
    s = s.apply(first)
    assert s.phase == "draw_divinities" and s.to_move == player
    assert s.cities[player].mythology[-1] == mythology
    s = s.apply(s.chance_outcomes()[0][0])
    assert s.phase == "seat"
    s = _turn_up(s.apply(s.legal_moves()[0]))
    assert s.phase == "discard_any" and s.to_move == player
    assert XMove("discard_free", (s.pyramid[slot],)) in s.legal_moves()


def _a_discard_uncovering_two(s):
    """An accessible card whose discard alone uncovers two cards, and those two slots."""
    layout = structure_of(s.expansions, s.age)
    for c in range(len(s.pyramid)):
        if not (s.present >> c & 1 and s.accessible >> c & 1):
            continue
        uncovered = [
            x
            for x in range(len(s.pyramid))
            if s.present >> x & 1
            and not s.accessible >> x & 1
            and {y for y in layout.covered_by[x] if s.present >> y & 1} == {c}
        ]
        if len(uncovered) >= 2:
            return c, uncovered[:2]
    return None


def test_two_mythology_tokens_uncovered_by_one_discard_both_place_before_the_second():
    """BGA hands out every token a discard uncovers before the next discard: with two
    Mythology tokens, both Divinities are seated first (the second token never leaves with
    its card)."""
    s = positions.reach(
        lambda s: s.phase == "play"
        and s.age == 1
        and not s.pending
        and not s.reveal
        and _a_discard_uncovering_two(s) is not None,
        0,
        BOTH,
    )
    card_slot, (x, y) = _a_discard_uncovering_two(s)
    mythologies = [m for m in s.mythology_on.values() if s.deck_size[deck_index(m)] >= 2]
    s = arrange(
        s,
        senate=EMPTY_SENATE,
        decrees=((),) * 6,
        mythology_on=pmap({x: mythologies[0], y: mythologies[1]}),
    )
    player = s.to_move
    before = len(s.cities[player].mythology)
    s = trigger(with_plot(s, "Turn Of Events"), "Turn Of Events")
    start, played = s, [XMove("discard_free", (s.pyramid[card_slot],))]
    s = s.apply(played[0])
    for _ in range(2):  # one draw and one seat for each token
        assert s.phase == "draw_divinities" and s.to_move == player
        played.append(s.chance_outcomes()[0][0])
        s = s.apply(played[-1])
        assert s.phase == "seat"
        played.append(s.legal_moves()[0])
        s = s.apply(played[-1])
    assert len(s.cities[player].mythology) == before + 2 and not s.mythology_on
    # the compiled core plays the same
    from duel import xcore

    if xcore.compiled(BOTH):
        c = xcore.CXState.from_xstate(start)
        for move in played:
            c = c.apply(move)
        assert c.to_xstate() == s
    s = _turn_up(s)
    assert s.phase == "discard_any" and s.to_move == player


# --- 6. a military token taken mid-chain is handled first ---------------------------------------
STANDING_ARMY_IN_2 = ((), (("Standing army", True),), (), (), (), ())


def _near_small_token(player):
    """The pawn two spaces from the centre on the opponent's side: one more enters the small
    token's zone (3-5)."""
    return 2 if player == 0 else -2


def test_a_politicians_military_token_comes_before_its_next_senate_action():
    s = play_turn()
    player = s.to_move
    blues = frozenset({card("Theater"), card("Altar")})  # two Senate actions
    s = arrange(
        s,
        senate=EMPTY_SENATE,
        decrees=STANDING_ARMY_IN_2,
        pawn=_near_small_token(player),
        cities={player: {"cards": blues}},
    )
    s = _recruit(s, senator("Politician (left section)"))
    s = s.apply(XMove("place", (2,)))  # control of 2: Standing army moves the pawn onto a token
    assert s.pawn == (3 if player == 0 else -3)
    assert s.phase == "place" and s.to_move == player  # the token's cube, anywhere
    assert s.pending[0][0] == "senate" and s.pending[0][3] == 1  # then the second action
    s = s.apply(XMove("place", (5,)))
    assert s.phase == "senate" and s.step[3] == 1


def test_knossos_military_token_comes_before_its_cube_move():
    s = play_turn()
    player = s.to_move
    s = arrange(
        s,
        senate=EMPTY_SENATE,
        decrees=STANDING_ARMY_IN_2,
        pawn=_near_small_token(player),
        cities={player: {"wonders": (W_KNOSSOS,), "coins": 30}},
    )
    slot = s.accessible_slots[0]
    s = s.apply(XMove("wonder", (W_KNOSSOS, s.pyramid[slot])))
    assert s.phase == "place"
    s = s.apply(XMove("place", (2,)))
    assert s.phase == "place" and s.pending[0] == ("move", player)


def test_political_maneuvers_military_token_comes_before_its_eviction():
    s = play_turn()
    player = s.to_move
    senate = _senate_for(player, (), other=(6,))
    s = arrange(s, senate=senate, decrees=STANDING_ARMY_IN_2, pawn=_near_small_token(player))
    s = trigger(with_plot(s, "Political Maneuver"), "Political Maneuver")
    s = s.apply(XMove("place", (2,)))
    assert s.phase == "place" and s.pending[0] == ("evict", player)


def test_after_the_opponents_military_token_the_turn_passes_as_usual():
    # the player moves their only cube out of Chamber 2: Standing army's shield goes back to the
    # opponent, whose pawn step takes the small token on the player's side; the opponent places
    # its cube, and then it is the opponent's turn (not the player's again)
    s = play_turn()
    player = s.to_move
    s = arrange(
        s,
        senate=_senate_for(player, (2,)),
        decrees=STANDING_ARMY_IN_2,
        pawn=-_near_small_token(player),
        military=0b1111,
    )
    s = _recruit(s, senator("Politician (left section)"))
    s = s.apply(XMove("move_cube", (2, 3)))
    assert s.phase == "place" and s.to_move == 1 - player
    s = s.apply(XMove("place", (6,)))
    assert s.phase in ("play", "reveal") and s.to_move == 1 - player


# --- 7. Curia Julia skips a Conspiracy step that can do nothing ---------------------------------
def _build_curia(plots, opponent_cards=frozenset(), senate=EMPTY_SENATE):
    s = play_turn()
    player = s.to_move
    s = arrange(
        s,
        senate=senate,
        decrees=((),) * 6,
        cities={
            player: {"wonders": (W_CURIA_JULIA,), "coins": 30, "plots": plots},
            1 - player: {"cards": opponent_cards},
        },
    )
    slot = s.accessible_slots[0]
    return s.apply(XMove("wonder", (W_CURIA_JULIA, s.pyramid[slot]))), player


def test_curia_julia_skips_an_unprepared_foreclosure_against_no_brown_or_grey_card():
    s, player = _build_curia((Plot("Foreclosure"),), frozenset({card("Theater")}))
    assert s.phase != "curia" and s.to_move == player  # Curia Julia's Play Again
    assert not s.cities[player].plots[0].used


def test_curia_julia_offers_a_foreclosure_with_a_card_to_take():
    s, player = _build_curia((Plot("Foreclosure"),), frozenset({card("Lumber Yard")}))
    assert s.phase == "curia"
    assert XMove("trigger", (1, "Foreclosure")) in s.legal_moves()


def test_curia_julia_offers_a_useless_main_effect_when_the_cube_move_is_useful():
    s = play_turn()
    senate = _senate_for(s.to_move, (3,))
    s, player = _build_curia((Plot("Swindle"),), frozenset(), senate=senate)
    assert s.phase == "curia"


@pytest.mark.parametrize(
    ("name", "useful"),
    [
        ("Extortion", False),
        ("Blackmail", False),
        ("Expropriation", False),
        ("Swindle", False),
        ("Obscurantism", True),
        ("Coup", True),
        ("Treason", True),
        ("Espionage", True),
        ("Embezzlement", False),
        ("Foreclosure", False),
        ("Coercion", False),
        ("Insider Influence", True),
        ("Sabotage", False),
    ],
)
def test_which_conspiracies_are_useful_with_nothing_to_act_on(name, useful):
    from duel.expansions.queries import useful_to_trigger

    s = play_turn()
    player = s.to_move
    s = arrange(
        s,
        senate=EMPTY_SENATE,
        cities={1 - player: {"cards": frozenset(), "wonders": (), "built": (), "coins": 0}},
    )
    assert useful_to_trigger(s, player, name) is useful
