"""The official 2-player variant with the Free City (rules.md section 11)."""

from __future__ import annotations

from dataclasses import replace

from tests.base.base_helpers import position
from wonders.bots import RandomBot, play_game
from wonders.cards import CARDS
from wonders.game import Move, new_game


def test_setup_three_cities_seven_cards_each_and_a_pile() -> None:
    s = new_game(2, seed=4)
    assert s.n == 3 and s.free_city == 2 and s.players == 2
    assert [c.coins for c in s.cities] == [3, 3, 3]
    # Age I: the player to the left of the Free City holds the card; left(2) == 0
    assert s.fc_holder == s.left(2) == 0
    assert len(s.hands[0]) == 8  # 7 + the top card of the Free City pile
    assert len(s.hands[1]) == 7 and s.hands[2] == () and len(s.fc_pile) == 6
    assert s.current_players() == (0, 1)


def test_controller_chooses_own_card_first_then_the_free_citys() -> None:
    s = new_game(2, seed=4)
    assert s.decision_city(0) == 0
    own = s.legal_moves(0)[0]
    s1 = s.apply(own)
    assert s1.decision_city(0) == 2 and s1.current_players() == (0, 1)
    fc_moves = s1.legal_moves(0)
    assert fc_moves and all(m.city == 2 for m in fc_moves)
    # the Free City's card comes from the 7 cards left in the controller's hand
    assert len(s1.options(0)) == 7


def test_control_alternates_and_hands_swap() -> None:
    s = new_game(2, seed=9)
    rng = RandomBot(0)
    holders = []
    while s.age == 1:
        holders.append(s.fc_holder)
        for p in s.current_players():
            while s.decision_city(p) is not None:
                s = s.apply(rng.choose(s, p))
    assert holders == [0, 1, 0, 1, 0, 1]
    # Age II starts with the player to the right of the Free City: right(2) == 1
    assert s.fc_holder == s.right(2) == 1
    assert len(s.hands[1]) == 8 and len(s.hands[0]) == 7
    # three cards of Age I were discarded at the end (2 hands + the pile), plus any discards
    age1 = [i for i in s.discard if CARDS[i].age == 1]
    assert len(age1) >= 3 and s.fc_pile != ()


def test_free_city_may_not_discard_a_playable_card() -> None:
    boards = [("Gizah", "A"), ("Rhodos", "A"), ("Ephesos", "A")]
    s = position(
        boards, players=2, hands={0: ["Altar", "Baths", "Palace"], 1: ["Theater", "Pawnshop"]}
    )
    s = replace(s, fc_holder=0)
    s1 = s.apply(Move(0, "build", "Altar"))
    fc = s1.legal_moves(0)
    # Baths is playable (stone bought from Gizah, its left neighbour): no discard at all
    assert fc == [Move(2, "build", "Baths")]
    # Without coins the Free City can play neither Baths nor Palace nor a stage: discard only
    poor = replace(s, cities=(*s.cities[:2], replace(s.cities[2], coins=0)))
    s2 = poor.apply(Move(0, "build", "Altar"))
    assert s2.legal_moves(0) == [Move(2, "discard", "Baths"), Move(2, "discard", "Palace")]


def test_free_city_pays_its_neighbours_from_its_own_treasury() -> None:
    boards = [("Gizah", "A"), ("Rhodos", "A"), ("Ephesos", "A")]
    s = position(boards, players=2, hands={0: ["Altar", "Baths"], 1: ["Theater", "Pawnshop"]})
    s = replace(s, fc_holder=0)
    s = s.apply(Move(0, "build", "Altar")).apply(Move(2, "build", "Baths"))
    s = s.apply(Move(1, "build", "Theater"))
    assert [c.coins for c in s.cities] == [3 + 2, 3, 1]
    assert s.fc_holder == 1  # control passes with the stack


def test_free_city_does_not_win_and_random_games_finish() -> None:
    s = play_game(new_game(2, seed=1), [RandomBot(1), RandomBot(2)])
    assert s.is_terminal()
    assert set(s.winners()) <= {0, 1}
    assert len(s.returns()) == 2 and abs(sum(s.returns()) - 1.0) < 1e-9
    assert len(s.scores()) == 3  # the Free City is scored but does not compete
