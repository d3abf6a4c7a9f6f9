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
from duel.solvers.players import (
    CMctsConfig,
    CMctsPlayer,
    UnknownLevelError,
    decisions_between,
    make_player,
    pick_move,
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
        from duel.moves import Kind

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
    from duel.solvers import players

    real, seen = players.tree_memory, []

    def spy(*args, **kwargs):
        seen.append(real(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(players, "tree_memory", spy)
    make_player("cmcts:2s:arena_rate=500000", seed=1)
    make_player("cmcts:2s", seed=1)
    assert seen == [int(1.5 * 2 * 500_000 * 408), players.TREE_MEMORY]
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
    """From a decision to the next one or two, within an Age: exactly the decisions played, and
    with ``chance=True`` the cards turned face up too, in their order (not the Great Library's
    draw, which the position after it does not tell)."""
    rng = random.Random(8)
    revealed = 0
    for _ in range(3):
        state, history, reveals = new_game(), [], []
        while not state.is_terminal():
            if state.is_chance():
                outcome = state.random_move(rng)
                if outcome.kind == Kind.REVEAL_CARD:
                    reveals.append(outcome)
                state = state.apply(outcome, check=False)
                continue
            move = state.random_move(rng)
            history.append((state, move, len(reveals)))
            state = state.apply(move, check=False)
        history.append((state, None, len(reveals)))
        for i in range(len(history) - 2):
            before = history[i][0]
            for j in (i + 1, i + 2):
                after = history[j][0]
                if before.age != after.age or before.age == 0:
                    continue
                played = [m for _, m, _ in history[i:j]]
                assert decisions_between(before, after, first=played[0]) == played
                everything = []
                for k in range(i, j):
                    everything += [history[k][1], *reveals[history[k][2] : history[k + 1][2]]]
                revealed += len(everything) - len(played)
                assert decisions_between(before, after, first=played[0], chance=True) == everything
    assert revealed > 50
    assert decisions_between(new_game(), history[-1][0]) is None


def test_closed_loop_tree_follows_the_card_revealed():
    """With ``chance_depth`` a reveal leads to a chance node: the tree follows our move and the
    card turned face up (``advance``) and keeps the subtree below that card; a tree left at a
    chance node (the card not passed on) starts afresh rather than search a chance node."""
    options = CMctsConfig(chance_depth=4).tree_options()
    rng = random.Random(6)
    state, followed = new_game(), []
    while not state.is_terminal() and len(followed) < 4:
        if state.is_chance() or state.phase != "play":
            move = state.random_move(rng) if state.is_chance() else state.legal_moves()[0]
            state = state.apply(move, check=False)
            continue
        trees = [_cmcts.Tree(seed=4, **options) for _ in range(2)]
        results = [tree.search(CoreState.from_state(state), iterations=4000) for tree in trees]
        assert results[0]["moves"] == results[1]["moves"]
        move = max(results[0]["moves"], key=lambda row: row[1])[0]
        after = state.apply(move, check=False)
        if after.is_chance() and after.age == state.age:
            card = after.random_move(rng)
            assert trees[0].advance(int(move)) and trees[1].advance(int(move))
            assert trees[0].advance(int(card))
            after = after.apply(card, check=False)
            while after.is_chance():  # a second card turned face up
                card = after.random_move(rng)
                trees[0].advance(int(card))
                after = after.apply(card, check=False)
            if not after.is_terminal():
                core_after = CoreState.from_state(after)
                kept = trees[0].search(core_after, iterations=100)["reused"]
                fresh = trees[1].search(core_after, iterations=100)["reused"]
                followed.append(kept)
                assert fresh == 0
            state = after
        else:
            state = after
    assert len(followed) == 4 and all(r > 0 for r in followed), followed


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
    from duel.moves import Kind, Move

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
    from duel.moves import Kind, Move

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
    from duel.moves import Kind, Move

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
    from duel.moves import Kind, Move

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
    from duel.moves import Kind, Move

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


def test_fading_options_are_checked_and_off_at_an_infinite_horizon():
    """``mix_fade`` and ``prior_fade`` with an infinite horizon change nothing (the factors are
    exactly 1 and 0 in floating point), a finite one changes the search, a negative one is
    refused."""
    state = next(s for s in _random_decisions(1, seed=5) if s.phase == "play")
    core_state = CoreState.from_state(state)
    options = CMctsConfig().tree_options()

    def search(**fading):
        return _cmcts.Tree(seed=3, **{**options, **fading}).search(core_state, iterations=600)

    base = search()["moves"]
    assert search(mix_fade=1e300, prior_fade=1e300)["moves"] == base
    assert search(mix_fade=50.0, prior_fade=50.0)["moves"] != base
    with pytest.raises(ValueError, match="mix_fade"):
        _cmcts.Tree(mix_fade=-1.0)


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


def _tree(seed: int = 1):
    return _cmcts.Tree(seed=seed, **CMctsConfig().tree_options())


def test_halving_shares_each_round_equally_and_keeps_the_better_half():
    """Sequential halving at the root: the m moves of highest prior get the first round's
    descents in equal shares (round robin), each round keeps the better half by mean value, and
    the move chosen is the last one left: in every round the best mean of those still in."""
    tested = 0
    for state in list(_random_decisions(2, seed=41))[::9][:8]:
        moves = state.legal_moves()
        if len(moves) < 5:
            continue
        tested += 1
        tree = _tree()
        result = tree.search(CoreState.from_state(state), iterations=4001, halving=4)
        rows = {m: (n, q) for m, n, q in result["moves"]}
        assert result["chosen"] in {int(m) for m in moves}
        visited = sorted((n for n, _ in rows.values() if n), reverse=True)
        # two rounds of 2,000 descents: 4 x 500, then 2 x 1,000 (and one first descent, PUCT's)
        assert all(1499 <= n <= 1502 for n in visited[:2]), visited
        assert all(499 <= n <= 502 for n in visited[2:4]), visited
        assert all(n <= 1 for n in visited[4:]), visited
        finalists = [m for m, (n, _) in rows.items() if n >= 1499]
        assert result["chosen"] in finalists
        assert rows[result["chosen"]][1] == max(rows[m][1] for m in finalists)
    assert tested >= 4


def test_halving_off_by_default_and_a_player_plays_its_choice():
    """Without `halving` nothing is chosen in C (the pick rule decides); with it the player
    plays the move the halving chose, within its time."""
    state = next(_random_decisions(1, seed=43))
    result = _tree().search(CoreState.from_state(state), iterations=500)
    assert result["chosen"] == -1
    assert CMctsConfig.from_string("halving=8").halving == 8
    assert "halving" not in CMctsConfig(halving=8).tree_options()
    player = make_player("cmcts:3000:halving=8", seed=5)
    move = player.choose(state)
    assert int(move) == player.last_info["chosen"]
    timed = make_player("cmcts:0.05s:halving=8", seed=5)
    start = time.perf_counter()
    timed.choose(state)
    assert time.perf_counter() - start < 0.05 + 0.05


def _age3_decision(max_cards: int, seed: int, min_moves: int = 4):
    """A play decision of Age III with at most ``max_cards`` cards left, from a seeded random
    game, with at least ``min_moves`` legal moves."""
    from duel.solvers.search import exact_feasible

    rng = random.Random(seed)
    while True:
        state = new_game()
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.random_move(rng), check=False)
                continue
            if (
                state.phase == "play"
                and exact_feasible(state, max_cards)
                and len(state.legal_moves()) >= min_moves
            ):
                return state
            state = state.apply(state.random_move(rng), check=False)


def _exact_solver():
    from duel.solvers import _csearch

    return _csearch.Searcher(seed=0, chance_width=-1, chance_samples=4, memory=16 << 20)


def _tree_with(**changes):
    return _cmcts.Tree(**{**CMctsConfig().tree_options(), "seed": 1, **changes})


def test_exact_leaves_value_every_child_by_the_exact_solver():
    """With exact leaves at the root's children, a root move that reveals nothing leads to one
    position, so every visit of its arm backs up that position's exact value: the arm's mean is
    the exact value (as the solver gives it alone)."""
    from duel.solvers._csearch import INF_DEPTH

    checked = 0
    for seed in (1, 2, 3):
        state = _age3_decision(8, seed)
        solver = _exact_solver()
        tree = _tree_with(exact_leaf=8, solver=solver)
        result = tree.search(CoreState.from_state(state), iterations=400)
        assert result["exact_leaves"] > 0 and result["exact_leaves_failed"] == 0
        judge = _exact_solver()
        for move, visits, mean in result["moves"]:
            child = state.apply(Move(move), check=False)
            if not visits or child.is_chance():
                continue
            exact = judge.search(CoreState.from_state(child), INF_DEPTH, 0.0, 1.0)
            mover_value = exact if state.to_move == 0 else 1.0 - exact
            assert mean == pytest.approx(mover_value, abs=1e-9), (move, visits)
            checked += 1
    assert checked >= 6


def test_exact_playouts_only_from_age_three_roots_and_need_a_solver():
    """Exact playouts end each playout of an Age III search where the cards left fall to the
    threshold (counted in the result); a search from Age I uses none; the options are checked."""
    state = _age3_decision(12, seed=5, min_moves=2)
    tree = _tree_with(exact_playout=4, solver=_exact_solver())
    result = tree.search(CoreState.from_state(state), iterations=300)
    assert 0 < result["exact_leaves"] <= 300
    early = next(_random_decisions(1, seed=7))
    tree = _tree_with(exact_playout=4, exact_leaf=6, solver=_exact_solver())
    assert tree.search(CoreState.from_state(early), iterations=300)["exact_leaves"] == 0
    with pytest.raises(ValueError, match="solver"):
        _tree_with(exact_playout=4)
    with pytest.raises(ValueError, match="exact_leaf"):
        _tree_with(exact_leaf=-1, solver=_exact_solver())
    with pytest.raises(TypeError, match="Searcher"):
        _tree_with(exact_leaf=6, solver=object())


def test_a_player_with_exact_playouts_shares_its_exact_searcher():
    """The player hands its own exact searcher to the tree (one table for root solves and
    leaves) and plays a legal move; with two trees the option is refused."""
    state = _age3_decision(13, seed=9, min_moves=2)
    player = make_player("cmcts:2000:exact_playout=4", seed=3)
    move = player.choose(state)
    assert move in state.legal_moves()
    assert player.last_info["exact_leaves"] > 0
    assert player._exact_searcher is not None
    with pytest.raises(UnknownLevelError, match="threads=1"):
        make_player("cmcts:2000:exact_playout=4,threads=2")
