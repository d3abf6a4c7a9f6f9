"""The learned value in C (solvers/csrc/value_model.h) and its uses in the compiled MCTS:
features and values equal to the Python model position by position, known answers for the
``leaf``, ``evaluation`` and ``prior="learned"`` options, and clear errors for bad options."""

from __future__ import annotations

import math
import random

import pytest

from duel import core
from duel.solvers.features import N_FEATURES, STAGES, features
from duel.solvers.match import play_game
from duel.solvers.players import CMctsConfig, CMctsPlayer, GreedyPlayer, UnknownLevelError
from duel.solvers.value import ValueModel, default_model, value
from duel.state import new_game

if not core.AVAILABLE:
    pytest.skip("the compiled core is off (DUEL_PURE) or not built", allow_module_level=True)
_cmcts = pytest.importorskip("duel.solvers._cmcts")
from duel.core import CoreState  # noqa: E402  (needs the C core, as _cmcts does)

ALL_PHASES = {
    "setup_tokens",
    "setup_wonders",
    "draft",
    "reveal",
    "play",
    "choose_starter",
    "choose_token",
    "library_draw",
    "library_choose",
    "destroy",
    "mausoleum",
    "deal_guilds",
    "game_over",
}


def _positions(games: int = 40, seed: int = 0):
    """Every state (chance nodes and game over included) of seeded games: even games random,
    odd games greedy (one ply over the hand-made evaluation), chance drawn at random."""
    for g in range(games):
        rng = random.Random(seed + g)
        greedy = GreedyPlayer(g) if g % 2 else None
        state = new_game()
        while True:
            yield state
            if state.is_terminal():
                break
            if state.is_chance() or greedy is None:
                state = state.apply(state.random_move(rng), check=False)
            else:
                state = state.apply(greedy.choose(state), check=False)


def _random_model(seed: int) -> ValueModel:
    """Weights on every feature (the shipped ones are small or zero on rare features)."""
    rng = random.Random(seed)
    w = [[[rng.gauss(0, 0.3) for _ in range(N_FEATURES)] for _ in range(STAGES)] for _ in "01"]
    return ValueModel(w[0], w[1])


def test_features_and_value_equal_python_at_every_stage():
    shipped = _cmcts.Tree(value_weights=default_model().flat_weights())
    model = _random_model(3)
    other = _cmcts.Tree(value_weights=model.flat_weights())
    phases: set[str] = set()
    ages: set[int] = set()
    n = 0
    for state in _positions():
        c = CoreState.from_state(state)
        assert shipped.value_features(c) == features(state), state.phase
        assert shipped.value(c) == pytest.approx(value(state), abs=1e-9)
        assert other.value(c) == pytest.approx(model(state), abs=1e-9)
        if not state.is_terminal():
            # the definition (feature by feature), not only the fast tables of duel.solvers.value
            reference = 1.0 / (1.0 + math.exp(-max(-30.0, model.reference_logit(state))))
            assert other.value(c) == pytest.approx(reference, abs=1e-9)
        phases.add(state.phase)
        if state.phase == "play":
            ages.add(state.age)
        n += 1
    assert n > 3000
    assert phases == ALL_PHASES, ALL_PHASES - phases
    assert ages == {1, 2, 3}


def test_a_weights_sequence_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match=f"must hold {2 * STAGES * N_FEATURES} floats"):
        _cmcts.Tree(value_weights=[0.0] * (2 * STAGES * N_FEATURES + 5))
    # a file with a hidden layer (an experiment that did not ship) is refused, not half-read
    data = ValueModel.zeros().to_json()
    with pytest.raises(ValueError, match="hidden layer"):
        ValueModel.from_json({**data, "hidden": {"u": [], "v": []}})


def test_terminal_values_are_exact():
    tree = _cmcts.Tree(value_weights=_random_model(1).flat_weights())
    seen = set()
    for state in _positions(games=12, seed=100):
        if state.is_terminal():
            expected = {0: 1.0, 1: 0.0}.get(state.winner, 0.5)
            assert tree.value(CoreState.from_state(state)) == expected
            seen.add(expected)
    assert 1.0 in seen and 0.0 in seen


def _decisions(games: int, seed: int):
    for state in _positions(games, seed):
        if not state.is_terminal() and not state.is_chance() and len(state.legal_moves()) > 1:
            yield state


def _one_descent(state, **options):
    """The only arm visited by one iteration, its move and value for the mover."""
    tree = _cmcts.Tree(seed=1, memory=1 << 22, **options)
    moves = tree.search(CoreState.from_state(state), iterations=1)["moves"]
    ((move, _, q),) = [m for m in moves if m[1] == 1]
    return move, q


def test_leaf_value_and_learned_cut_judge_the_leaf_by_the_learned_value():
    """One iteration: the arm's value is the learned value of the state after the move (for
    the mover), both with leaf=value and with a 0-ply playout cut by evaluation=learned."""
    weights = default_model().flat_weights()
    checked = 0
    for state in _decisions(6, seed=7):
        for options in (
            {"leaf": "value"},
            {"rollout": 0, "evaluation": "learned"},
        ):
            move, q = _one_descent(state, value_weights=weights, **options)
            after = state.apply(next(m for m in state.legal_moves() if int(m) == move))
            if after.is_chance():
                continue  # the descent drew a chance outcome of its own
            v = value(after)
            assert q == pytest.approx(v if state.to_move == 0 else 1 - v, abs=1e-12)
            checked += 1
    assert checked > 50


def test_mix_blends_playout_result_and_learned_value():
    """leaf=mix: (1 - lambda) * result (0, 1/2 or 1) + lambda * learned value of the leaf;
    lambda = 0 is the plain playout, draw for draw."""
    weights = default_model().flat_weights()
    checked = 0
    for state in _decisions(4, seed=21):
        move, q = _one_descent(
            state, value_weights=weights, leaf="mix", mix_lambda=0.25, rollout=-1
        )
        after = state.apply(next(m for m in state.legal_moves() if int(m) == move))
        if after.is_chance():
            continue
        v = value(after)
        v = v if state.to_move == 0 else 1 - v
        assert min(abs(q - 0.25 * v - 0.75 * r) for r in (0.0, 0.5, 1.0)) < 1e-12
        checked += 1
    assert checked > 20
    state = next(_decisions(1, seed=5))
    plain = _cmcts.Tree(seed=4).search(CoreState.from_state(state), iterations=300)
    mixed = _cmcts.Tree(seed=4, leaf="mix", mix_lambda=0.0, value_weights=weights).search(
        CoreState.from_state(state), iterations=300
    )
    assert plain["moves"] == mixed["moves"]


def test_learned_prior_tries_the_best_one_ply_value_first():
    model = default_model()
    checked = 0
    for state in _decisions(4, seed=33):
        move, _ = _one_descent(
            state, value_weights=model.flat_weights(), prior="learned", prior_temperature=1.0
        )
        sign = 1.0 if state.to_move == 0 else -1.0
        scored = sorted(
            ((sign * model(state.apply(m)), int(m)) for m in state.legal_moves()), reverse=True
        )
        if scored[0][0] - scored[1][0] < 1e-6 or abs(scored[0][0]) > 1 - 1e-6:
            continue  # a tie, or clamped to the same weight
        assert move == scored[0][1]
        checked += 1
    assert checked > 30


def _first_moves_follow_the_prior(
    value_model: ValueModel, prior_model: ValueModel, seed: int
) -> int:
    """Asserts on the decisions of random games that a tree with ``prior_weights`` tries first
    the best move by ``prior_model``, and that its leaf (leaf=value) judges by ``value_model``;
    returns how many decisions were checked (ties and clamped weights are skipped)."""
    checked = 0
    for state in _decisions(4, seed=seed):
        move, q = _one_descent(
            state,
            value_weights=value_model.flat_weights(),
            prior_weights=prior_model.flat_weights(),
            prior="learned",
            prior_temperature=1.0,
            leaf="value",
        )
        sign = 1.0 if state.to_move == 0 else -1.0
        scored = sorted(
            ((sign * prior_model(state.apply(m)), int(m)) for m in state.legal_moves()),
            reverse=True,
        )
        if scored[0][0] - scored[1][0] < 1e-6 or abs(scored[0][0]) > 1 - 1e-6:
            continue  # a tie, or clamped to the same weight
        assert move == scored[0][1]
        after = state.apply(next(m for m in state.legal_moves() if int(m) == move))
        if not after.is_chance():
            v = value_model(after)
            assert q == pytest.approx(v if state.to_move == 0 else 1 - v, abs=1e-12)
        checked += 1
    return checked


def test_prior_weights_replace_the_value_in_the_prior_only():
    """prior_weights: the first move tried is the best by the prior's model, not the value's;
    the leaf still judges by the value's (leaf=value: the arm's mean is the value's)."""
    value_model, bent = default_model(), _random_model(3)
    # smaller than _random_model's, so that few values are clamped to the same weight
    prior_model = ValueModel(*([[x / 10 for x in row] for row in w] for w in (bent.w0, bent.w1)))
    assert _first_moves_follow_the_prior(value_model, prior_model, seed=33) > 30
    with pytest.raises(ValueError, match="prior_weights need prior=learned"):
        _cmcts.Tree(
            leaf="value",
            value_weights=value_model.flat_weights(),
            prior_weights=prior_model.flat_weights(),
        )


def test_the_shipped_prior_is_passed_and_plays():
    """prior_value=cmcts2-prior (the default) and cmcts-prior (``cmcts-v4``'s): the shipped
    priors' weights reach the tree, apart from the value's; empty (``cmcts-v3``) gives none; the
    player plays a legal game with them."""
    options = CMctsConfig.from_string("prior_value=cmcts2-prior").tree_options()
    assert len(options["prior_weights"]) == len(options["value_weights"])
    assert options["prior_weights"] != options["value_weights"]
    assert CMctsConfig().tree_options()["prior_weights"] == options["prior_weights"]
    first = CMctsConfig.from_string("prior_value=cmcts-prior").tree_options()["prior_weights"]
    assert first != options["prior_weights"] and len(first) == len(options["prior_weights"])
    assert "prior_weights" not in CMctsConfig(prior_value="").tree_options()
    player = CMctsPlayer(seed=3, iterations=30, config=CMctsConfig(prior_value="cmcts-prior"))
    final, _ = play_game([player, GreedyPlayer(1)], random.Random(2))
    assert final.is_terminal()


def test_player_with_learned_options_plays_legal_games():
    config = CMctsConfig.from_string("leaf=mix,mix_lambda=0.3,prior=learned,rollout=6")
    config = CMctsConfig.from_string("evaluation=learned", config)
    player = CMctsPlayer(seed=2, iterations=40, config=config)

    class Checked:
        def choose(self, state):
            move = player.choose(state)
            assert move in state.legal_moves()
            return move

    final, _ = play_game([Checked(), Checked()], random.Random(8))
    assert final.is_terminal()


def test_value_options_need_weights_and_sane_values():
    with pytest.raises(ValueError, match="needs value_weights"):
        _cmcts.Tree(leaf="value")
    with pytest.raises(ValueError, match="needs value_weights"):
        _cmcts.Tree(prior="learned")
    with pytest.raises(ValueError, match="needs value_weights"):
        _cmcts.Tree(rollout=4, evaluation="learned")
    with pytest.raises(ValueError, match=f"{2 * STAGES * N_FEATURES} floats"):
        _cmcts.Tree(leaf="value", value_weights=[0.0] * 10)
    with pytest.raises(ValueError, match="leaf must be"):
        _cmcts.Tree(leaf="net")
    with pytest.raises(ValueError, match="mix_lambda"):
        _cmcts.Tree(leaf="mix", mix_lambda=1.5, value_weights=[0.0] * (2 * STAGES * N_FEATURES))
    with pytest.raises(ValueError, match="no value_weights"):
        _cmcts.Tree().value(CoreState.from_state(new_game()))
    plain = CMctsConfig(leaf="playout", prior="policy")
    assert not plain.uses_learned_value()
    assert "value_weights" not in plain.tree_options()
    assert (
        len(CMctsConfig().tree_options()["value_weights"]) == 2 * STAGES * N_FEATURES
    )  # the defaults use it
    with pytest.raises(UnknownLevelError, match="leaf must be"):
        CMctsPlayer(iterations=10, config=CMctsConfig(leaf="nope"))


def test_every_descent_is_counted_in_a_root_arm():
    """Regression: a node's first visit adds its arms, and growing the arm block past 8 moved
    it while the selection still pointed into the old block, so the first descent's visit (and
    the child node it created) was lost. Now the root's arms hold every iteration."""
    for state in _decisions(2, seed=40):
        for options in ({}, {"leaf": "value", "value_weights": default_model().flat_weights()}):
            for iterations in (1, 2, 25):
                tree = _cmcts.Tree(seed=1, memory=1 << 22, **options)
                result = tree.search(CoreState.from_state(state), iterations=iterations)
                assert sum(v for _, v, _ in result["moves"]) == iterations


def test_the_cmcts_value_is_shipped_and_chosen_by_option():
    """``value=cmcts2`` (the default) passes data/models/value_cmcts2.json to the tree (C and
    Python agree on it position by position), ``value=cmcts`` (``cmcts-v4``) the first
    generation, ``value=search`` (``cmcts-v1``) the search level's model, and the file records
    how it was made."""
    from duel.solvers.players import make_player
    from duel.solvers.value import CMCTS2_MODEL_PATH, CMCTS_MODEL_PATH, shipped_model

    cmcts_model = shipped_model(CMCTS2_MODEL_PATH)
    assert CMctsConfig().tree_options()["value_weights"] == cmcts_model.flat_weights()
    first = CMctsConfig(value="cmcts").tree_options()["value_weights"]
    assert first == shipped_model(CMCTS_MODEL_PATH).flat_weights() != cmcts_model.flat_weights()
    search_weights = CMctsConfig(value="search").tree_options()["value_weights"]
    assert search_weights == default_model().flat_weights() != cmcts_model.flat_weights()
    assert make_player("cmcts-v1:10").config.value == "search"
    assert make_player("cmcts-v4:10").config.value == "cmcts"
    assert make_player("cmcts:10").config.value == "cmcts2"
    tree = _cmcts.Tree(value_weights=cmcts_model.flat_weights())
    states = list(_positions(games=6, seed=50))
    for state in states:
        expected = cmcts_model(state)
        assert tree.value(CoreState.from_state(state)) == pytest.approx(expected, abs=1e-9)
    assert len(states) > 500
    assert any(t.startswith("cmcts") for t in cmcts_model.meta["teachers"])
    assert "generate --teacher cmcts" in cmcts_model.meta["how"]


@pytest.mark.parametrize("to_move, pair", [(0, False), (1, False), (0, True)])
def test_features_of_what_a_player_can_take_now_equal_python(to_move, pair):
    from tests.test_value import take_now_position

    state, _ = take_now_position(to_move, pair)
    model = _random_model(4)
    tree = _cmcts.Tree(value_weights=model.flat_weights())
    assert tree.value_features(CoreState.from_state(state)) == features(state)
    assert tree.value(CoreState.from_state(state)) == pytest.approx(model(state), abs=1e-9)
