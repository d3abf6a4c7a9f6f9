"""Turn structure, actions, special abilities, trading rules, conflicts and the API contract."""

from __future__ import annotations

import pytest

from tests.base.base_helpers import card_id, play, position
from wonders.cards import CARDS
from wonders.game import IllegalMoveError, Move, new_game

BOARDS = [("Gizah", "A"), ("Rhodos", "A"), ("Ephesos", "A")]


def names(ids) -> list[str]:
    return sorted(CARDS[i].name for i in ids)


# ----------------------------------------------------------------- turn structure
def test_pass_left_right_left() -> None:
    s = new_game(4, seed=3)
    assert all(len(h) == 7 for h in s.hands)
    for age, step in ((1, +1), (2, -1), (3, +1)):
        s = position(
            [("Gizah", "A")] * 0 + [b for b in (*BOARDS, ("Babylon", "A"))],
            age=age,
            hands={
                c: ["Altar", f"{n}"]
                for c, n in enumerate(["Baths", "Theater", "Pawnshop", "Stockade"])
            },
        )
        before = s.hands
        after = play(s, {c: "discard Altar" for c in range(4)})
        for c in range(4):
            assert after.hands[(c + step) % 4] == tuple(
                i for i in before[c] if CARDS[i].name != "Altar"
            )


def test_left_is_next_seat_and_conflicts_use_both_neighbours() -> None:
    s = new_game(5, seed=0)
    assert (s.left(0), s.right(0), s.left(4), s.right(4)) == (1, 4, 0, 3)


def test_sixth_turn_leftover_is_discarded_without_coins_then_conflicts() -> None:
    s = position(
        BOARDS,
        turn=6,
        hands={0: ["Altar", "Baths"], 1: ["Barracks", "Theater"], 2: ["Pawnshop", "Tavern"]},
        built={1: ["Guard Tower"]},
        coins={0: 3, 1: 3, 2: 3},
    )
    after = play(s, {0: "discard Altar", 1: "build Barracks", 2: "build Pawnshop"})
    assert [c.coins for c in after.cities] == [6, 3, 3]
    assert names(after.discard) == ["Altar", "Baths", "Tavern", "Theater"]
    # Age I conflicts: Rhodes (city 1) has 2 shields, the others 0
    assert [c.tokens for c in after.cities] == [(-1,), (1, 1), (-1,)]
    assert after.age == 2 and after.turn == 1 and all(len(h) == 7 for h in after.hands)


def test_conflict_tokens_by_age_and_ties() -> None:
    s = position(
        BOARDS,
        turn=6,
        age=2,
        built={0: ["Walls"], 1: ["Walls"], 2: ["Stockade"]},
        hands={c: ["Altar", "Baths"] for c in range(3)},
    )
    after = play(s, {})
    assert [c.tokens for c in after.cities] == [(3,), (3,), (-1, -1)]  # 2 = 2 is a tie


def test_action_timing_uses_start_of_turn_state() -> None:
    # City 1 builds an Ore Vein this turn; city 0 cannot buy that ore this turn.
    s = position(BOARDS, hands={0: ["Barracks", "Altar"], 1: ["Ore Vein", "Altar"]}, coins={0: 5})
    assert Move(0, "build", "Barracks") in s.legal_moves(0)  # Rhodes (left) sells its ore
    s2 = position(
        [("Gizah", "A"), ("Ephesos", "A"), ("Babylon", "A")],
        hands={0: ["Barracks", "Altar"], 1: ["Ore Vein", "Altar"]},
        coins={0: 5},
    )
    assert Move(0, "build", "Barracks") not in s2.legal_moves(0)
    after = play(s2, {1: "build Ore Vein"})
    assert after.cities[1].profile.sell.fixed[3] == 1


# ----------------------------------------------------------------- actions
def test_chain_builds_for_free() -> None:
    s = position(BOARDS, age=2, built={0: ["Altar"]}, hands={0: ["Temple", "Baths"]}, coins={0: 0})
    assert Move(0, "build", "Temple") in s.legal_moves(0)
    after = play(s, {0: "build Temple"})
    assert after.cities[0].coins == 0 and "Temple" in after.cities[0].profile.names


def test_no_two_identical_structures_across_ages() -> None:
    s = position(BOARDS, age=2, built={0: ["Loom"]}, hands={0: ["Loom", "Baths"]})
    assert Move(0, "build", "Loom") not in s.legal_moves(0)
    with pytest.raises(IllegalMoveError, match="already built Loom"):
        s.apply(Move(0, "build", "Loom"))


def test_coin_cost_goes_to_the_bank() -> None:
    s = position(BOARDS, hands={0: ["Timber Yard", "Altar"]}, coins={0: 1})
    after = play(s, {0: "build Timber Yard"})
    assert [c.coins for c in after.cities] == [0, 6, 6]  # the others discarded


def test_illegal_move_says_why() -> None:
    s = position(
        [("Gizah", "A"), ("Rhodos", "A"), ("Ephesos", "A")],
        built={0: ["Lumber Yard"], 1: ["Ore Vein"]},
        hands={0: ["Statue", "Altar"]},
        age=2,
        coins={0: 1},
    )
    with pytest.raises(IllegalMoveError) as err:
        s.apply(Move(0, "build", "Statue"))
    msg = str(err.value)
    assert "needs 1 wood, 2 ore" in msg
    assert "4 coins to the left neighbour for 2 ore" in msg
    assert "you have 1" in msg
    with pytest.raises(IllegalMoveError, match="not in your hand"):
        s.apply(Move(0, "build", "Palace"))
    with pytest.raises(
        IllegalMoveError, match="stage 1 needs 2 stone: you and your neighbours cannot produce"
    ):
        s.apply(Move(0, "wonder", "Statue"))  # Gizah has 1 stone; Rhodes sells none
    poor = position(BOARDS, hands={0: ["Barracks", "Altar"]}, coins={0: 0}, age=1)
    with pytest.raises(IllegalMoveError, match="cannot produce|you have 0"):
        poor.apply(Move(0, "build", "Barracks"))


def test_discard_always_legal_and_gives_three_coins() -> None:
    s = new_game(3, seed=5)
    for p in range(3):
        assert all(Move(p, "discard", CARDS[i].name) in s.legal_moves(p) for i in s.hands[p])


# ----------------------------------------------------------------- trading
def test_trading_prices_and_payments_to_neighbours() -> None:
    # Gizah (0) buys 2 ore from Rhodes (left: starting ore + Ore Vein) at 2 each.
    s = position(
        BOARDS,
        age=2,
        built={1: ["Ore Vein"], 0: ["Lumber Yard"]},
        hands={0: ["Statue", "Altar"]},
        coins={0: 4},
    )
    after = play(s, {0: "build Statue"})
    assert after.cities[0].coins == 0
    assert after.cities[1].coins == 3 + 3 + 4  # its discard + the sale


def test_east_is_right_west_is_left_from_the_next_turn() -> None:
    s = position(BOARDS, hands={0: ["East Trading Post", "Altar"]})
    after = play(s, {0: "build East Trading Post"})
    assert after.cities[0].profile.prices == ((2,) * 7, (1, 1, 1, 1, 2, 2, 2))
    s = position(BOARDS, hands={0: ["West Trading Post", "Altar"]})
    after = play(s, {0: "build West Trading Post"})
    assert after.cities[0].profile.prices == ((1, 1, 1, 1, 2, 2, 2), (2,) * 7)
    s = position(BOARDS, hands={0: ["Marketplace", "Altar"]})
    after = play(s, {0: "build Marketplace"})
    assert after.cities[0].profile.prices == ((2, 2, 2, 2, 1, 1, 1),) * 2


def test_buy_only_what_the_neighbour_produces_and_may_sell() -> None:
    # Ephesos (right of Gizah) has a Caravansery (private) and papyrus; Rhodes (left) 1 ore.
    s = position(
        BOARDS, age=2, built={2: ["Caravansery"]}, hands={0: ["Statue", "Altar"]}, coins={0: 9}
    )
    assert s.card_price(0, CARDS[card_id("Statue")]) is None  # 2 ore + wood: only 1 ore for sale
    assert s.card_price(0, CARDS[card_id("Baths")]).total == 0  # own stone
    # the starting resource is buyable, A/B brown cards either way
    s = position(
        BOARDS,
        built={1: ["Forest Cave", "Ore Vein"]},
        hands={0: ["Statue", "Altar"]},
        age=2,
        coins={0: 9},
    )
    price = s.card_price(0, CARDS[card_id("Statue")])
    assert price.total == 6 and price.paid == (6, 0)  # ore: start + Ore Vein; wood: Forest Cave


def test_both_neighbours_may_buy_the_same_unit_and_the_owner_still_uses_it() -> None:
    s = position(
        BOARDS,
        built={0: ["Ore Vein"]},  # Gizah: stone (start) + ore
        hands={0: ["Barracks", "Altar"], 1: ["Baths", "Altar"], 2: ["Baths", "Altar"]},
        coins={1: 2, 2: 2},
    )
    after = play(s, {0: "build Barracks", 1: "build Baths", 2: "build Baths"})
    assert [c.coins for c in after.cities] == [3 + 4, 0, 0]


def test_coins_earned_this_turn_cannot_be_spent_this_turn() -> None:
    # Rhodes (1) and Ephesos (2) both need Gizah's stone for Baths. Rhodes has 1 coin: the 3
    # coins it gets for discarding this turn come too late to pay.
    s = position(
        BOARDS,
        hands={0: ["Altar", "Pawnshop"], 1: ["Baths", "Altar"], 2: ["Baths", "Altar"]},
        coins={0: 3, 1: 1, 2: 2},
    )
    assert Move(1, "build", "Baths") not in s.legal_moves(1)  # 2 coins needed, has 1
    with pytest.raises(IllegalMoveError, match="you have 1"):
        s.apply(Move(1, "build", "Baths"))
    after = play(s, {2: "build Baths"})
    assert after.cities[0].coins == 3 + 3 + 2 and after.cities[1].coins == 4
    assert after.cities[2].coins == 0


# ----------------------------------------------------------------- Wonder powers
def test_olympia_a_free_build_once_per_age() -> None:
    s = position(
        [("Olympia", "A"), ("Rhodos", "A"), ("Ephesos", "A")],
        stages={0: 2},
        hands={0: ["Palace", "Pantheon", "Altar"]},
        age=3,
    )
    assert Move(0, "free", "Palace") in s.legal_moves(0)
    after = play(s, {0: "free Palace"})
    assert "Palace" in after.cities[0].profile.names and after.cities[0].coins == 3
    assert not any(m.action == "free" for m in after.legal_moves(0))
    with pytest.raises(IllegalMoveError, match="already used this Age"):
        after.apply(Move(0, "free", after.legal_moves(0)[0].card))
    fresh = position(
        [("Olympia", "A"), ("Rhodos", "A"), ("Ephesos", "A")],
        stages={0: 2},
        hands={0: ["Palace", "Altar"]},
        age=3,
    )
    assert any(m.action == "free" for m in fresh.legal_moves(0))


def test_olympia_free_build_not_offered_for_free_cards_and_no_duplicates() -> None:
    s = position(
        [("Olympia", "A"), ("Rhodos", "A"), ("Ephesos", "A")],
        stages={0: 2},
        built={0: ["Altar"]},
        hands={0: ["Altar", "Pawnshop", "Temple"]},
        age=2,
    )
    frees = {m.card for m in s.legal_moves(0) if m.action == "free"}
    assert frees == set()  # Altar owned; Pawnshop costs nothing; Temple chains from Altar


def test_halicarnassus_builds_from_discard_including_this_turns_discards() -> None:
    s = position(
        [("Halikarnassos", "A"), ("Rhodos", "A"), ("Ephesos", "A")],
        built={0: ["Clay Pool", "Foundry", "Ore Vein"]},
        stages={0: 1},
        hands={0: ["Altar", "Baths"], 1: ["Palace", "Altar"], 2: ["Altar", "Pawnshop"]},
        discard=["Temple"],
    )
    after = play(s, {0: "wonder Altar", 1: "discard Palace", 2: "discard Altar"})
    assert after.phase == "pick" and after.current_players() == (0,)
    assert {m.card for m in after.legal_moves(0)} == {"Temple", "Palace", "Altar"}
    done = after.apply(Move(0, "pick", "Palace"))
    assert "Palace" in done.cities[0].profile.names
    assert done.cities[0].coins == 3 and done.turn == 2 and done.phase == "choose"
    assert "Palace" not in names(done.discard)


def test_halicarnassus_on_sixth_turn_sees_the_leftovers() -> None:
    s = position(
        [("Halikarnassos", "B"), ("Rhodos", "A"), ("Ephesos", "A")],
        built={0: ["Foundry"]},
        turn=6,
        hands={0: ["Altar", "Baths"], 1: ["Palace", "Theater"], 2: ["Altar", "Pawnshop"]},
    )
    after = play(s, {0: "wonder Altar", 1: "build Theater", 2: "build Pawnshop"})
    assert after.phase == "pick"
    assert {m.card for m in after.legal_moves(0)} == {"Baths", "Palace", "Altar"}
    done = after.apply(Move(0, "pick", "Palace"))
    assert done.age == 2 and "Palace" in done.cities[0].profile.names


def test_halicarnassus_with_nothing_to_build_skips() -> None:
    s = position(
        [("Halikarnassos", "A"), ("Rhodos", "A"), ("Ephesos", "A")],
        built={0: ["Clay Pool", "Foundry", "Ore Vein", "Altar"]},
        stages={0: 1},
        hands={0: ["Baths", "Pawnshop"], 1: ["Altar", "Pawnshop"], 2: ["Altar", "Pawnshop"]},
    )
    after = play(s, {0: "wonder Baths"})  # the others discard Altar, which city 0 already has
    assert after.phase == "choose" and after.turn == 2
    assert "no card in the discard pile to build" in after.log


def test_babylon_b_plays_the_seventh_card() -> None:
    boards = [("Babylon", "B"), ("Rhodos", "A"), ("Ephesos", "A")]
    s = position(
        boards,
        turn=6,
        stages={0: 2},
        hands={0: ["Altar", "Pawnshop"], 1: ["Theater", "Tavern"], 2: ["Altar", "Baths"]},
    )
    after = play(s, {0: "build Altar"})
    assert after.phase == "last" and after.current_players() == (0,) and after.turn == 7
    assert names(after.hands[0]) == ["Pawnshop"]
    assert names(after.discard) == ["Altar", "Baths", "Tavern", "Theater"]
    done = after.apply(Move(0, "build", "Pawnshop"))
    assert {"Altar", "Pawnshop"} <= done.cities[0].profile.names and done.age == 2


def test_babylon_b_stage_built_on_the_sixth_turn_allows_the_other_card() -> None:
    boards = [("Babylon", "B"), ("Rhodos", "A"), ("Ephesos", "A")]
    s = position(
        boards,
        turn=6,
        stages={0: 1},
        built={0: ["Sawmill", "Glassworks"]},
        hands={0: ["Altar", "Baths"]},
    )
    after = play(s, {0: "wonder Baths"})
    assert after.phase == "last"
    assert {m.action for m in after.legal_moves(0)} == {"build", "discard"}


def test_babylon_a_has_no_seventh_card() -> None:
    s = position(
        [("Babylon", "A"), ("Rhodos", "A"), ("Ephesos", "A")],
        turn=6,
        stages={0: 2},
        hands={0: ["Altar", "Baths"]},
    )
    after = play(s, {0: "build Altar"})
    assert after.phase == "choose" and after.age == 2


# ----------------------------------------------------------------- API contract
def test_apply_does_not_change_the_old_state() -> None:
    s = new_game(3, seed=11)
    snapshot = (s.cities, s.hands, s.discard, s.pending, s.turn, s.age)
    move = s.legal_moves(0)[0]
    s1 = s.apply(move)
    assert (s.cities, s.hands, s.discard, s.pending, s.turn, s.age) == snapshot
    assert s1.pending[0] == move and s.pending[0] is None
    s2 = s1.apply(s1.legal_moves(1)[-1]).apply(s1.legal_moves(2)[-1])
    assert s2.turn == 2 and s1.turn == 1 and s1.pending[0] == move


def test_seeded_games_are_reproducible() -> None:
    assert new_game(5, seed=42) == new_game(5, seed=42)
    assert new_game(5, seed=42).hands != new_game(5, seed=43).hands


def test_cannot_decide_twice_or_for_another_city() -> None:
    s = new_game(3, seed=1)
    s1 = s.apply(s.legal_moves(0)[0])
    with pytest.raises(IllegalMoveError, match="no decision"):
        s1.apply(s.legal_moves(0)[0])
    with pytest.raises(IllegalMoveError, match="no decision"):
        s1.apply(Move(7, "discard", "Altar"))
    assert s1.legal_moves(0) == [] and s1.current_players() == (1, 2)


def test_new_game_rejects_bad_player_counts() -> None:
    for n in (1, 8):
        with pytest.raises(ValueError, match="2 to 7"):
            new_game(n)
