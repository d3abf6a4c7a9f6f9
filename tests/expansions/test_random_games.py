"""Random games of each expansion (Pantheon, Agora, both): properties that hold at every step,
and the private information.

* every game ends; coins (treasury and Astarte's) never go negative;
* every card and every Divinity is in at most one place;
* applying a move never changes the state it is applied to;
* a view holds only what its player knows, and advancing a view by what its player sees of
  each move gives the view of the advanced referee state:
  ``view(apply(R, m), p) == apply(view(R, p), observe(R, m, p))``;
* what really happens is always among a view's chance outcomes and legal moves.
"""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duel.expansions import new_xgame, observe
from duel.expansions.table import HIDDEN

pytestmark = pytest.mark.expansions

GAMES = 20


def _places_of_cards(s):
    places = [c for c in s.pyramid if c >= 0]
    places += list(s.unseen) + list(s.discard)
    for city in s.cities:
        places += list(city.cards) + [card for _, card in city.built]
        places += [p.card for p in city.plots if p.card is not None]
    return places


def _places_of_conspiracies(s):
    places = [p.name for city in s.cities for p in city.plots if p.name]
    places += [c.divinity for c in (*s.plot_top, *s.plot_bottom) if c.divinity]
    places += list(s.drawn_plots or ())
    return places


def _places_of_divinities(s):
    places = [sp.divinity for sp in s.spaces if sp is not None and sp.divinity]
    places += [c.divinity for tops in s.deck_tops for c in tops if c.divinity]
    places += [d for city in s.cities for d in city.divinities]
    places += list(s.drawn or ())
    return places


def _check_invariants(s):
    for city in s.cities:
        assert city.coins >= 0 and city.astarte >= 0
    cards = Counter(_places_of_cards(s))
    assert not [c for c, n in cards.items() if n > 1], s.describe()
    divinities = Counter(_places_of_divinities(s))
    assert not [d for d, n in divinities.items() if n > 1 and d != "Gate"], s.describe()
    assert all(0 <= n <= 3 for n in s.deck_size)
    plots = Counter(_places_of_conspiracies(s))
    assert not [c for c, n in plots.items() if n > 1], s.describe()
    assert all(0 <= a <= 12 and 0 <= b <= 12 for a, b in s.senate)
    assert sum(a for a, _ in s.senate) <= 12 and sum(b for _, b in s.senate) <= 12


def _check_views(s, move):
    child = s.apply(move, check=False)
    for p in (0, 1):
        view = s.view(p)
        seen = observe(s, move, p)
        if s.is_chance():
            assert seen in [m for m, _ in view.chance_outcomes()], (str(move), p)
        else:
            assert seen in view.legal_moves(), (str(move), p)
        assert view.apply(seen, check=False) == child.view(p), (str(move), p)
        _check_nothing_private_leaks(child.view(p), p)


def _check_nothing_private_leaks(view, p):
    for space in view.spaces:
        if space is not None and not space.face_up and space.owner != p:
            assert space.divinity is None
    for tops in view.deck_tops:
        for c in tops:
            assert c.divinity is None or p in c.known_to
    if view.phase == "seat" and view.to_move != p:
        assert view.drawn is None
    for plot in view.cities[1 - p].plots:
        assert plot.name is None or plot.used
    for c in (*view.plot_top, *view.plot_bottom):
        assert c.divinity is None or p in c.known_to
    if view.phase == "keep_plot" and view.to_move != p:
        assert view.drawn_plots is None
    if view.removed_by not in (None, p):
        assert view.removed_now is None


EXPANSION_SETS = [("pantheon",), ("agora",), ("agora", "pantheon")]


@pytest.mark.parametrize("expansions", EXPANSION_SETS, ids="+".join)
@pytest.mark.parametrize("seed", range(GAMES))
def test_a_random_game_ends_and_keeps_every_invariant(seed, expansions):
    rng = random.Random(seed)
    s = new_xgame(expansions)
    steps = 0
    while not s.is_terminal():
        _check_invariants(s)
        key = s.key()
        move = s.random_move(rng)
        _check_views(s, move)
        assert s.key() == key, "applying a move changed the state it was applied to"
        if s.is_chance():
            assert abs(sum(p for _, p in s.chance_outcomes()) - 1) < 1e-9
        s = s.apply(move)  # checked: every random move is legal
        steps += 1
    _check_invariants(s)
    assert s.victory in ("military", "science", "civilian", "political") and steps < 3000


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_the_seated_divinities_are_private_until_age_two(seed):
    rng = random.Random(seed)
    s = new_xgame(("pantheon",))
    while not s.is_terminal() and s.age < 2:
        s = s.apply(s.random_move(rng), check=False)
        for p in (0, 1):
            view = s.view(p)
            for space in view.spaces:
                if space is not None and space.owner == 1 - p:
                    assert space.divinity is None or space.face_up


def test_every_structure_slot_is_hidden_or_a_card():
    s = new_xgame(("pantheon",))
    assert all(c == HIDDEN for c in s.pyramid)
