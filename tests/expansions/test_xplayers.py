"""The players of expansion games: legal moves to the end of a game, a search that reads only
its player's view, and a search stronger than random play."""

import random

import pytest

from duel.expansions import new_xgame
from duel.expansions.table import Space
from duel.solvers.xplayers import (
    DEFAULT_XLEVEL,
    XCompiledPlayer,
    XGreedyPlayer,
    XMctsPlayer,
    XRandomPlayer,
    compiled_available,
    evaluate,
    make_xplayer,
    play_xgame,
    search,
)

pytestmark = pytest.mark.expansions


def _first(predicate, seed=0):
    rng = random.Random(seed)
    s = new_xgame(("pantheon",))
    while not predicate(s):
        s = s.apply(s.random_move(rng), check=False)
    return s


@pytest.mark.parametrize(
    "players",
    [
        (XRandomPlayer(1), XGreedyPlayer(2)),
        (XMctsPlayer(3, iterations=8), XRandomPlayer(4)),
    ],
)
def test_players_play_legal_moves_to_the_end(players):
    final = play_xgame(players, new_xgame(("pantheon",)), random.Random(5))
    assert final.is_terminal()


def test_the_search_reads_only_the_players_view():
    # Age I, after the opponent seated a Divinity face down: swap it for another of its deck
    s = _first(lambda s: s.phase == "play" and any(sp and not sp.face_up for sp in s.spaces))
    index = next(i for i, sp in enumerate(s.spaces) if sp and not sp.face_up)
    seated = s.spaces[index]
    s = s._copy()
    s.to_move = 1 - seated.owner
    s = s._freeze()
    others = [d for d in s.unaccounted(seated.mythology) if d != seated.divinity]
    if not others:
        pytest.skip("no other card of that deck is unaccounted")
    changed = s._copy()
    spaces = list(changed.spaces)
    spaces[index] = Space(others[0], seated.mythology, seated.owner, False)
    changed.spaces = tuple(spaces)
    changed = changed._freeze()
    assert changed != s and changed.view(s.to_move) == s.view(s.to_move)
    first = search(s, iterations=40, seed=9)
    second = search(changed, iterations=40, seed=9)
    assert first.moves == second.moves


def test_evaluate_is_a_probability_and_exact_at_the_end():
    final = play_xgame(
        (XRandomPlayer(1), XRandomPlayer(2)), new_xgame(("pantheon",)), random.Random(3)
    )
    assert evaluate(final) in (0.0, 0.5, 1.0)
    middle = _first(lambda s: s.age == 2 and s.phase == "play")
    assert 0.0 < evaluate(middle) < 1.0


def test_levels_by_name():
    assert isinstance(make_xplayer("mcts:20"), XMctsPlayer)
    assert make_xplayer("mcts:0.5s").seconds == 0.5
    with pytest.raises(ValueError, match="expected random, greedy, mcts, cmcts"):
        make_xplayer("cmtcs")
    for bad in ("mcts:0s", "mcts:-3", "cmcts:1e308s", "mcts:nans", "random:5", "mcts:1s:c=1"):
        with pytest.raises(ValueError):
            make_xplayer(bad)


cmcts_only = pytest.mark.skipif(not compiled_available(), reason="compiled search not built")


@cmcts_only
def test_cmcts_levels_parse_budget_and_knobs():
    assert DEFAULT_XLEVEL == "cmcts"
    assert isinstance(make_xplayer("cmcts"), XCompiledPlayer)
    assert make_xplayer("cmcts", time_per_move=0.25).seconds == 0.25
    assert make_xplayer("cmcts:300").iterations == 300
    assert make_xplayer("cmcts:0.5s").seconds == 0.5
    timed = make_xplayer("cmcts:0.5s:exploration=0.8")
    assert timed.knobs == {"exploration": 0.8}
    with pytest.raises(ValueError, match="key=number"):
        make_xplayer("cmcts:1s:exploration")
    with pytest.raises(ValueError, match="unknown knob"):
        make_xplayer("cmcts:1s:explore=1")


@cmcts_only
@pytest.mark.parametrize("expansions", [("pantheon",), ("agora",), ("agora", "pantheon")])
def test_cmcts_plays_legal_moves_to_the_end(expansions):
    players = (make_xplayer("cmcts:60", seed=1), XRandomPlayer(2))
    final = play_xgame(players, new_xgame(expansions), random.Random(5))
    assert final.is_terminal()


@cmcts_only
def test_cmcts_values_are_probabilities_most_visited_first():
    s = _first(lambda s: s.phase == "play" and s.age == 1)
    rows = make_xplayer("cmcts:400", seed=3).analyse(s)
    assert rows and all(0.0 <= v <= 1.0 for _, _, v in rows)
    assert [n for _, n, _ in rows] == sorted((n for _, n, _ in rows), reverse=True)
    assert {m for m, _, _ in rows} <= set(s.legal_moves())


@cmcts_only
def test_cmcts_reads_only_the_players_view():
    s = _first(lambda s: s.phase == "play" and any(sp and not sp.face_up for sp in s.spaces))
    index = next(i for i, sp in enumerate(s.spaces) if sp and not sp.face_up)
    seated = s.spaces[index]
    s = s._copy()
    s.to_move = 1 - seated.owner
    s = s._freeze()
    others = [d for d in s.unaccounted(seated.mythology) if d != seated.divinity]
    if not others:
        pytest.skip("no other card of that deck is unaccounted")
    changed = s._copy()
    spaces = list(changed.spaces)
    spaces[index] = Space(others[0], seated.mythology, seated.owner, False)
    changed.spaces = tuple(spaces)
    changed = changed._freeze()
    assert changed != s
    first = make_xplayer("cmcts:300", seed=9).analyse(s)
    second = make_xplayer("cmcts:300", seed=9).analyse(changed)
    assert first == second
