"""The compiled MCTS (duel.solvers._cmcts) and its player level ``cmcts``: legal answers at every
kind of decision, determinism under an iteration budget, time control, public information only,
and the configuration parser."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from duel import core  # noqa: E402
from duel.moves import Kind, Move
from duel.solvers.cmcts_player import pick_move
from duel.solvers.players import (
    CMctsConfig,
    CMctsPlayer,
    UnknownLevelError,
    decisions_between,
    make_player,
)
from duel.state import new_game

if not core.AVAILABLE:
    pytest.skip("the compiled core is off (DUEL_PURE) or not built", allow_module_level=True)
_cmcts = pytest.importorskip("duel.solvers._cmcts")
from duel.core import CoreState  # noqa: E402  (needs the C core, as _cmcts does)

PHASES = {
    "draft",
    "play",
    "choose_token",
    "library_choose",
    "destroy",
    "mausoleum",
    "choose_starter",
}


def _random_decisions(games: int, seed: int):
    """Decision positions with more than one legal move from seeded random games."""
    rng = random.Random(seed)
    for _ in range(games):
        state = new_game()
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.random_move(rng), check=False)
                continue
            if len(state.legal_moves()) > 1:
                yield state
            state = state.apply(state.random_move(rng), check=False)


def test_legal_move_at_every_decision_kind():
    """A short search answers a legal move at each kind of decision met in random games."""
    seen: set[str] = set()
    counts: dict[str, int] = {}
    for policy in ("scored", "kind", "plans"):
        tree = _cmcts.Tree(seed=3, policy=policy, memory=1 << 22)
        for state in _random_decisions(40, seed=11):
            if counts.get(state.phase, 0) >= 6:
                continue
            counts[state.phase] = counts.get(state.phase, 0) + 1
            tree.reset()
            result = tree.search(CoreState.from_state(state), iterations=60)
            legal = {int(m) for m in state.legal_moves()}
            assert {m for m, _, _ in result["moves"]} == legal
            best = max(result["moves"], key=lambda m: (m[1], m[2]))[0]
            assert best in legal
            seen.add(state.phase)
        counts.clear()
    assert seen >= PHASES - {"mausoleum", "library_choose"}, seen


def test_player_plays_whole_games_legally():
    player = make_player("cmcts:40", seed=2)
    rng = random.Random(4)
    state = new_game()
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.random_move(rng), check=False)
            continue
        move = player.choose(state)
        assert move in state.legal_moves()
        state = state.apply(move)


def test_deterministic_with_iterations_and_seed():
    state = next(s for s in _random_decisions(1, seed=5) if s.phase == "play")
    core = CoreState.from_state(state)
    runs = [_cmcts.Tree(seed=9).search(core, iterations=400)["moves"] for _ in range(2)]
    assert runs[0] == runs[1]
    assert make_player("cmcts:300", seed=1).choose(state) == make_player(
        "cmcts:300", seed=1
    ).choose(state)


def test_time_control():
    """Never over the budget by more than 10% + 50 ms. The best of two tries per position, so
    that one stall of a loaded machine's scheduler does not fail the test."""
    player = make_player("cmcts", seed=1, time_per_move=0.1)
    for i, state in enumerate(_random_decisions(1, seed=6)):
        if i % 10:
            continue
        took = []
        for _ in range(2):
            start = time.perf_counter()
            player.choose(state)
            took.append(time.perf_counter() - start)
        assert min(took) <= 0.1 * 1.1 + 0.05, took


def test_public_information_only():
    """Two deals of Age I that share the face-up cards but differ in the face-down and removed
    ones reach the same position (the State holds public information only), and the search
    gives the same analysis there for the same seed and iteration budget."""

    def age1_start(deck_seed: int):

        # the same 12 cards face up, the other 11 of Age I shuffled differently per deal
        # (3 removed from the game, 8 face down)
        face_up, rest = list(range(12)), list(range(12, 23))
        random.Random(deck_seed).shuffle(rest)
        deck = face_up + rest
        state, rng = new_game(), random.Random(1)
        while state.is_chance() or state.phase == "draft":
            if not state.is_chance():
                state = state.apply(state.legal_moves()[0], check=False)
                continue
            outcomes = [m for m, _ in state.chance_outcomes()]
            if outcomes[0].kind == Kind.REVEAL_CARD:
                state = state.apply(next(m for m in outcomes if m.card == deck[0]), check=False)
                deck.pop(0)
            else:
                state = state.apply(state.random_move(rng), check=False)
        return state, deck

    (a, deck_a), (b, deck_b) = age1_start(1), age1_start(2)
    assert deck_a != deck_b and a == b
    ra = _cmcts.Tree(seed=4).search(CoreState.from_state(a), iterations=500)
    rb = _cmcts.Tree(seed=4).search(CoreState.from_state(b), iterations=500)
    assert ra["moves"] == rb["moves"]


def test_config_parsing_and_levels():
    cfg = CMctsConfig.from_string("rollout=4, modes=0, prior=value, c=1.5")
    assert (cfg.rollout, cfg.modes, cfg.prior, cfg.c) == (4, False, "value", 1.5)
    with pytest.raises(ValueError, match="unknown cmcts option"):
        CMctsConfig.from_string("speed=3")
    with pytest.raises(ValueError, match="bad value"):
        CMctsConfig.from_string("c=fast")
    with pytest.raises(UnknownLevelError):
        make_player("cmcts:zero")
    assert isinstance(make_player("cmcts:0.5s"), CMctsPlayer)
    with pytest.raises(ValueError, match="policy must be"):
        _cmcts.Tree(policy="clever")


def test_pick_by_visits_mean_or_lower_confidence_bound():
    rows = [(10, 5000, 0.52), (11, 3000, 0.55), (12, 40, 0.80), (13, 0, 0.50)]
    assert pick_move(rows, CMctsConfig(pick="visits")) == 10  # the most visited
    assert pick_move(rows, CMctsConfig(pick="value")) == 11  # 12 has under 10% of the visits
    assert pick_move(rows, CMctsConfig(pick="value", pick_share=0.001)) == 12
    # lcb (q - 1 / sqrt(n)): 0.506 for 10, 0.532 for 11, 0.642 for 12 (40 visits: a wide bound)
    assert pick_move(rows, CMctsConfig()) == 12  # lcb, the default
    assert pick_move(rows, CMctsConfig(pick="lcb", pick_z=20.0)) == 10  # wide bounds: visits win
    with pytest.raises(UnknownLevelError, match="pick must be"):
        CMctsPlayer(iterations=10, config=CMctsConfig(pick="best"))


def test_the_arena_is_sized_for_the_given_iteration_rate(monkeypatch):
    """``arena_rate`` sizes a timed player's arena (the default rate keeps 256 MB at 2 s)."""
    from duel.solvers import cmcts_player

    real, seen = cmcts_player.tree_memory, []

    def spy(*args, **kwargs):
        seen.append(real(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(cmcts_player, "tree_memory", spy)
    make_player("cmcts:2s:arena_rate=500000", seed=1)
    make_player("cmcts:2s", seed=1)
    assert seen == [int(1.5 * 2 * 500_000 * 408), cmcts_player.TREE_MEMORY]
    assert make_player("cmcts:2s:arena_rate=500000,threads=2", seed=1).arena_bytes == seen[0] // 2
    with pytest.raises(UnknownLevelError, match="arena_rate"):
        make_player("cmcts:2s:arena_rate=-1")


def test_a_cmcts_level_takes_options_after_its_budget():
    player = make_player("cmcts:0.3s:pick=lcb,c=0.8", seed=2)
    assert isinstance(player, CMctsPlayer) and player.time_per_move == 0.3
    assert (player.config.pick, player.config.c) == ("lcb", 0.8)
    assert make_player("cmcts:250:pick=value").iterations == 250
    assert make_player("cmcts:0.3s").config == CMctsConfig()  # a budget alone: the defaults
    assert make_player("cmcts-v1:0.3s:pick=lcb").config.value == "search"
    # the fixed baselines pick the most visited move, as cmcts did before 2026-11-26
    first = CMctsConfig(value="cmcts", mix_lambda=0.3)
    assert make_player("cmcts-v2:10").config == replace(first, pick="visits", prior_value="")
    assert make_player("cmcts-v1:10").config == replace(
        first, pick="visits", value="search", prior_value=""
    )
    # v3 the value's own prior, as cmcts did before 2026-11-27
    assert make_player("cmcts-v3:10").config == replace(first, prior_value="")
    # v4 the first generation's value and prior, a leaf 0.3 of the value (before 2026-11-28)
    assert make_player("cmcts-v4:10").config == replace(first, prior_value="cmcts-prior")
    assert CMctsConfig().value == "cmcts2" and CMctsConfig().mix_lambda == 0.5
    for bad in ("cmcts:0.3s:speed=2", "cmcts:0.3s:c=fast", "mcts:0.3s:pick=lcb", "cmcts::c=1"):
        with pytest.raises(UnknownLevelError):
            make_player(bad)


def test_decisions_between_finds_the_moves_played():
    """From a decision to the next one or two, within an Age: exactly the decisions played."""
    rng = random.Random(8)
    checked = 0
    for _ in range(3):
        state, history = new_game(), []
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.random_move(rng), check=False)
                continue
            move = state.random_move(rng)
            history.append((state, move))
            state = state.apply(move, check=False)
        history.append((state, None))
        for i in range(len(history) - 2):
            before = history[i][0]
            for j in (i + 1, i + 2):
                after = history[j][0]
                if before.age != after.age or before.age == 0:
                    continue
                played = [m for _, m in history[i:j]]
                assert decisions_between(before, after, first=played[0]) == played
                checked += 1
    assert checked > 100
    assert decisions_between(new_game(), history[-1][0]) is None


def test_tree_reuse_keeps_the_subtree():
    """After our move and the reply, the next search starts from the statistics kept."""
    player = make_player("cmcts:2000", seed=1)
    rng = random.Random(2)
    state, kept = new_game(), []
    while not state.is_terminal() and len(kept) < 12:
        if state.is_chance():
            state = state.apply(state.random_move(rng), check=False)
            continue
        if state.to_move == 0 and len(state.legal_moves()) > 1:
            move = player.choose(state)
            kept.append(player.last_info["reused"])
        else:
            move = state.legal_moves()[0]
        state = state.apply(move, check=False)
    assert sum(1 for r in kept if r > 0) >= len(kept) // 2, kept


def test_compacting_the_kept_subtree_changes_no_statistic():
    """Moving the kept subtree to the front of the arena is only a move: two trees with the same
    seed, one of them compacted after every move played, give bit-identical root statistics,
    and the compacted one holds fewer nodes."""
    from duel.solvers.players import CMctsConfig

    options = CMctsConfig().tree_options()
    trees = [_cmcts.Tree(seed=11, **options), _cmcts.Tree(seed=11, **options)]
    rng = random.Random(5)
    state, searches, nodes = new_game(), 0, []
    while not state.is_terminal() and searches < 8:
        if state.is_chance():
            state = state.apply(state.random_move(rng), check=False)
            continue
        core_state = CoreState.from_state(state)
        results = [tree.search(core_state, iterations=3000) for tree in trees]
        assert results[0]["moves"] == results[1]["moves"]
        assert results[0]["reused"] == results[1]["reused"]
        nodes.append((results[0]["nodes"], results[1]["nodes"]))
        searches += 1
        move = max(results[0]["moves"], key=lambda row: row[1])[0]
        for tree in trees:
            tree.advance(move)
        trees[1].compact()
        state = state.apply(move, check=False)
    assert all(kept <= full for full, kept in nodes) and nodes[-1][1] < nodes[-1][0], nodes


def test_a_long_think_keeps_its_subtree():
    """A search that fills most of the arena still passes its subtree on to the next move (it
    used to start afresh once the arena was three quarters full, dead nodes included)."""
    from duel.solvers.players import CMctsConfig

    # 8 MB: the searches leave enough dead nodes for a compaction; at 4 MB a subtree of 6,000
    # iterations can itself pass three quarters of the arms, and a fresh start is then right
    options = {**CMctsConfig().tree_options(), "memory": 8 << 20}
    tree = _cmcts.Tree(seed=3, **options)
    rng = random.Random(4)
    state, reused = new_game(), []
    while not state.is_terminal() and len(reused) < 6:
        if state.is_chance():
            state = state.apply(state.random_move(rng), check=False)
            continue
        if state.to_move == 0:  # the tree's player
            result = tree.search(CoreState.from_state(state), iterations=6000)
            reused.append(result["reused"])
            move = max(result["moves"], key=lambda row: row[1])[0]
        else:  # B replies as the tree expects (so the reply is in the tree)
            move = tree.principal_line(CoreState.from_state(state), max_len=1)[0]
        assert tree.advance(int(move))
        state = state.apply(move, check=False)
    assert all(r > 0 for r in reused[1:]), reused


# --- the "plans" playout policy (MCTS-BR's, in words in solvers/csrc/rollout.h) -----------------


def _plans_decisions(predicate, games: int = 60, seed: int = 21):
    """Decisions of random games for which ``predicate(state, moves)`` holds."""
    for state in _random_decisions(games, seed):
        moves = state.legal_moves()
        if predicate(state, moves):
            yield state, moves


def _colour(move) -> str:
    from duel.catalog import CARDS

    return CARDS[move.card].color


def test_plans_science_plan_builds_an_affordable_green_card():

    tree = _cmcts.Tree(seed=5, policy="plans")
    found = 0
    for state, _moves in _plans_decisions(
        lambda s, ms: (
            s.phase == "play" and any(m.kind == Kind.BUILD and _colour(m) == "green" for m in ms)
        )
    ):
        science_a, science_b = state.to_move == 0, state.to_move == 1
        for _ in range(5):
            move = Move(tree.playout_move(CoreState.from_state(state), science_a, science_b))
            assert move.kind == Kind.BUILD and _colour(move) == "green", str(move)
        found += 1
    assert found >= 5


def test_plans_age_one_builds_resources_and_trade_first():

    tree = _cmcts.Tree(seed=6, policy="plans")
    economy = ("brown", "grey", "yellow")
    found = 0
    for state, _moves in _plans_decisions(
        lambda s, ms: (
            s.phase == "play"
            and s.age == 1
            and any(m.kind == Kind.BUILD and _colour(m) in economy for m in ms)
        )
    ):
        for _ in range(5):
            move = Move(tree.playout_move(CoreState.from_state(state)))  # normal plans
            assert move.kind == Kind.BUILD and _colour(move) in economy, str(move)
        found += 1
    assert found >= 5


def test_plans_mixes_discards_builds_and_wonders_in_later_ages():
    """Where no preference applies: a random card and kind, discard 0.15 / build 0.35 /
    wonder 0.5, redrawn until affordable; so discards stay near 15% when a wonder is
    affordable with every card and every card is affordable."""

    tree = _cmcts.Tree(seed=7, policy="plans")
    counts = {Kind.BUILD: 0, Kind.DISCARD: 0, Kind.WONDER: 0}
    for state, moves in _plans_decisions(
        lambda s, ms: (
            s.phase == "play"
            and s.age >= 2
            and any(m.kind == Kind.WONDER for m in ms)
            and all(
                any(m.kind == Kind.BUILD and m.card == d.card for m in ms)
                for d in ms
                if d.kind == Kind.DISCARD
            )
        ),
        games=150,
    ):
        for _ in range(40):
            move = Move(tree.playout_move(CoreState.from_state(state)))
            assert move in moves
            counts[move.kind] += 1
    total = sum(counts.values())
    assert total >= 400
    assert 0.10 < counts[Kind.DISCARD] / total < 0.20, counts
    assert 0.28 < counts[Kind.BUILD] / total < 0.42, counts
    assert 0.43 < counts[Kind.WONDER] / total < 0.57, counts


def test_plans_starting_player_chosen_is_oneself_and_science_takes_law():
    from duel.catalog import token_named

    tree = _cmcts.Tree(seed=8, policy="plans")
    starters = laws = 0
    law = token_named("Law")
    for state, moves in _plans_decisions(
        lambda s, ms: s.phase in ("choose_starter", "choose_token", "library_choose"), games=120
    ):
        core = CoreState.from_state(state)
        if state.phase == "choose_starter":
            assert Move(tree.playout_move(core)).player == state.to_move
            starters += 1
        elif any(m.token == law for m in moves):
            me = state.to_move
            move = Move(tree.playout_move(core, me == 0, me == 1))
            assert move.kind == Kind.TOKEN and move.token == law
            laws += 1
    assert starters >= 3 and laws >= 1, (starters, laws)


def test_two_threads_search_two_trees_and_sum_their_statistics():
    player = CMctsPlayer(seed=3, iterations=300, config=CMctsConfig(threads=2))
    assert len(player.trees) == 2
    state = next(s for s in _random_decisions(3, seed=5) if s.phase == "play")
    move = player.choose(state)
    assert move in state.legal_moves()
    info = player.last_info
    assert info["iterations"] == 600
    assert sum(n for _, n, _ in info["moves"]) >= 598  # every descent but a finished one
    with pytest.raises(UnknownLevelError):
        CMctsPlayer(config=CMctsConfig(threads=0))


def test_age_horizon_search_answers_legally_across_an_age_end():
    tree = _cmcts.Tree(seed=2, policy="plans", age_horizon=True, memory=1 << 22)
    for state in _random_decisions(6, seed=13):
        if state.phase == "play" and len(state.accessible_slots) <= 2:
            result = tree.search(CoreState.from_state(state), iterations=200)
            assert {m for m, _, _ in result["moves"]} == {int(m) for m in state.legal_moves()}
            tree.reset()


def test_plans_block_science_takes_or_discards_the_opponents_fifth_symbol():
    from duel.catalog import CARDS

    tree = _cmcts.Tree(seed=9, policy="plans", block_science=True)
    found = 0
    for state in _random_decisions(400, seed=41):
        if state.phase != "play":
            continue
        theirs = set(state.science(1 - state.to_move))
        if len(theirs) < 4:
            continue
        threats = {
            m.card
            for m in state.legal_moves()
            if m.kind in (Kind.BUILD, Kind.DISCARD)
            and CARDS[m.card].science
            and CARDS[m.card].science not in theirs
        }
        if not threats:
            continue
        core = CoreState.from_state(state)
        for _ in range(3):
            move = Move(tree.playout_move(core))
            assert move.kind in (Kind.BUILD, Kind.DISCARD) and move.card in threats, str(move)
        found += 1
        if found >= 3:
            break
    assert found >= 1


def test_the_exact_table_is_kept_between_moves():
    """The player's exact searcher keeps its table for the whole game: solving the same Age III
    position again costs a small fraction of the first solve."""
    from duel.solvers.search import exact_feasible

    rng = random.Random(3)
    state = new_game()
    while not (state.phase == "play" and exact_feasible(state, 9)):
        state = state.apply(state.random_move(rng), check=False)
    player = make_player("cmcts", seed=1, time_per_move=2.0)
    player.choose(state)
    first = player.last_info
    player.choose(state)
    again = player.last_info
    assert first.exact and again.exact and first.best_move == again.best_move
    assert again.nodes * 10 < max(first.nodes, 100)


def test_only_what_ships_is_an_option():
    """The experiments that did not ship (fading, root exploration, sequential halving, exact
    leaves and playouts, closed-loop reveals; tag journal-2026-11-29) are no options: asking
    for one is an error, not a silent no-op."""
    gone = ("mix_fade", "prior_fade", "root_c", "c_base", "halving", "chance_depth")
    gone += ("exact_leaf", "exact_leaf_nodes", "exact_playout")
    for name in gone:
        with pytest.raises(ValueError, match="unknown cmcts option"):
            CMctsConfig.from_string(f"{name}=1")
        with pytest.raises(TypeError):
            _cmcts.Tree(**{name: 1})
    with pytest.raises(UnknownLevelError, match="halving"):
        make_player("cmcts:100:halving=8")
    state = next(_random_decisions(1, seed=43))
    result = _cmcts.Tree(seed=1, **CMctsConfig().tree_options()).search(
        CoreState.from_state(state), iterations=50
    )
    assert set(result) == {"iterations", "seconds", "reused", "moves", "nodes", "arms"}
