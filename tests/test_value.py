"""The learned value: features, antisymmetry, exact terminals, the shipped weights' calibration,
the training pipeline end to end on a tiny data set, and its use by the search."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from pyrsistent import pvector

from duel import new_game
from duel.catalog import CARDS, SCIENCE_SYMBOLS, card_named
from duel.solvers import train
from duel.solvers.features import (
    FEATURE_NAMES,
    N_FEATURES,
    STAGES,
    _accessible_cards,
    features,
    player_features,
    stage,
)
from duel.solvers.players import make_player
from duel.solvers.search import Limit, analyse, evaluate
from duel.solvers.value import NAMED_MODELS, ValueModel, default_model, named_model, value
from duel.state import (
    AGE,
    BASE,
    CITY,
    COINS,
    DRAFT,
    ECON,
    MILITARY,
    PAWN,
    PHASE,
    PLAY,
    PLAYER_FIELDS,
    SCIENCE,
    SETUP_TOKENS,
    SETUP_WONDERS,
    TO_MOVE,
    WINNER,
    State,
)
from tests.games import GAMES, choice_game


def swap_players(state: State) -> State:
    """The same position with A and B exchanged (pawn mirrored, looting tokens swapped)."""
    f = list(state.fields)
    a, b = BASE
    f[a : a + PLAYER_FIELDS], f[b : b + PLAYER_FIELDS] = (
        f[b : b + PLAYER_FIELDS],
        f[a : a + PLAYER_FIELDS],
    )
    f[PAWN] = -f[PAWN]
    f[MILITARY] = (f[MILITARY] & 3) << 2 | f[MILITARY] >> 2
    f[TO_MOVE] = 1 - f[TO_MOVE]
    if f[WINNER] in (0, 1):
        f[WINNER] = 1 - f[WINNER]
    return State(pvector(f))


def game_states(seed: int) -> list[State]:
    rng = random.Random(seed)
    state = new_game()
    out = []
    while not state.is_terminal():
        out.append(state)
        state = state.apply(state.random_move(rng), check=False)
    out.append(state)
    return out


def test_feature_names_match_the_vector():
    assert len(FEATURE_NAMES) == N_FEATURES == len(set(FEATURE_NAMES))
    assert len(features(new_game())) == N_FEATURES


def test_known_features_of_a_built_card():
    state = new_game()
    rng = random.Random(3)
    while state.is_chance() or state.phase != "play":
        state = state.apply(state.random_move(rng), check=False)
    # Give A a Lumber Yard by hand: wood production 1, B's wood price 3.
    lumber = card_named("Lumber Yard")
    f = list(state.fields)
    f[BASE[0] + CITY] |= lumber.bit
    f[BASE[0] + ECON] += 1  # one wood
    s = State(pvector(f))
    g = dict(zip(FEATURE_NAMES, player_features(s, 0), strict=True))
    h = dict(zip(FEATURE_NAMES, player_features(s, 1), strict=True))
    assert g["prod_wood_ge1"] == 1 and g["prod_wood_ge2"] == 0 and g["n_brown"] == 1
    assert h["price_wood"] == 3 and g["price_wood"] == 2
    assert g["coins"] == 7 and g["to_move"] == 1 and h["to_move"] == 0


def take_now_position(to_move: int = 0, pair: bool = False) -> tuple[State, int]:
    """An Age I turn with a red and a green card accessible, A rich, the pawn one red card
    from B's capital and A holding five science symbols (with the green card's own when
    ``pair``, else the sixth would be the green card's). Returns it and the red card's
    shields."""
    for seed in range(100):
        for state in game_states(seed):
            f = state.fields
            if state.is_terminal() or f[PHASE] != PLAY or f[AGE] != 1:
                continue
            acc = _accessible_cards(f)
            red = [c for c in acc if CARDS[c].shields]
            green = [c for c in acc if CARDS[c].science]
            if red and green:
                shields = CARDS[red[0]].shields
                symbol = 1 << SCIENCE_SYMBOLS.index(CARDS[green[0]].science)
                others = [1 << i for i in range(len(SCIENCE_SYMBOLS)) if 1 << i != symbol]
                science = sum(others[:4]) | (symbol if pair else others[4])
                g = list(f)
                g[BASE[0] + COINS] = 40
                g[PAWN] = 9 - shields
                g[BASE[0] + SCIENCE] = science
                g[TO_MOVE] = to_move
                return State(pvector(g)), shields
    raise AssertionError("no Age I turn with a red and a green card accessible")


def test_what_a_player_can_take_now():
    """best_shields .. win_cards count the cards a player can pay for; the ``move_`` copies
    only for the side taking the next card."""
    state, shields = take_now_position(to_move=0)
    g = dict(zip(FEATURE_NAMES, player_features(state, 0), strict=True))
    h = dict(zip(FEATURE_NAMES, player_features(state, 1), strict=True))
    assert g["best_shields"] >= shields and g["mil_win_now"] == 1 and g["sci_win_now"] == 1
    assert g["win_cards"] >= 2 and g["sci_pair_now"] == 0
    assert [g[f"move_{k}"] for k in ("shields", "mil_win", "sci_win")] == [
        g["best_shields"],
        1,
        1,
    ]
    assert g["best_pts"] == max(
        [CARDS[c].points for c in _accessible_cards(state.fields) if state.card_cost(0, c) <= 40],
        default=0,
    )
    assert h["mil_win_now"] == 0 and all(h[n] == 0 for n in FEATURE_NAMES if n.startswith("move_"))
    # B to take the next card: A's threats stand, its move_ copies are gone.
    state, _ = take_now_position(to_move=1)
    g = dict(zip(FEATURE_NAMES, player_features(state, 0), strict=True))
    assert g["mil_win_now"] == 1 and g["move_mil_win"] == 0 and g["move_sci_win"] == 0
    # The green card's symbol already held: a pair, not a win.
    state, _ = take_now_position(pair=True)
    g = dict(zip(FEATURE_NAMES, player_features(state, 0), strict=True))
    assert g["sci_pair_now"] == 1 and g["sci_win_now"] == 0 and g["move_sci_pair"] == 1


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES)
def test_value_is_antisymmetric_under_swapping_the_players(choices):
    model = default_model()
    for state in choice_game(choices)[0][::5]:
        if state.fields[PHASE] in (SETUP_TOKENS, SETUP_WONDERS, DRAFT):
            continue  # the draft order is not symmetric
        mirrored = swap_players(state)
        assert features(mirrored) == [-x for x in features(state)]
        assert model(mirrored) == pytest.approx(1.0 - model(state), abs=1e-12)


def test_terminal_values_are_exact():
    seen = set()
    for seed in range(40):
        final = game_states(seed)[-1]
        w = final.fields[WINNER]
        assert value(final) == (1.0 if w == 0 else 0.0 if w == 1 else 0.5)
        seen.add(w)
    assert {0, 1} <= seen


def test_stage_and_taper():
    states = game_states(5)
    assert stage(states[0].fields) == (0, 0, 8)
    ages = [stage(s.fields)[0] for s in states if not s.is_terminal()]
    assert ages == sorted(ages) and set(ages) == {0, 1, 2, 3}
    for s in states:
        st_, num, den = stage(s.fields)
        assert 0 <= num <= den


def test_vectorised_prediction_equals_the_model():
    records = train.generate(train.Teacher("greedy", epsilon=0.3), games=3, seed=5, workers=1)
    data = train.build_dataset(records, with_v1=False)
    model = default_model()
    p = train.predict(model, data)
    states = [s for r in records for s in train.positions(r)]
    assert len(states) == len(p)
    for i in range(0, len(states), 17):
        assert model(states[i]) == pytest.approx(p[i], abs=1e-9)


def calibration_sample():
    """A small fixed held-out sample: 300 greedy self-play games (seed 77, used nowhere else)."""
    records = train.generate(train.Teacher("greedy", epsilon=0.1), games=300, seed=77, workers=1)
    return train.build_dataset(records)


def test_shipped_value_is_calibrated_and_beats_the_hand_made_evaluation():
    data = calibration_sample()
    y = data["y"]
    p = train.predict(default_model(), data)
    brier, brier_v1 = np.mean((p - y) ** 2), np.mean((data["v1"] - y) ** 2)
    assert brier < brier_v1 - 0.01
    # Quintiles of the predicted value: each bin's win rate within 0.07 of its mean prediction
    # (300 games: a bin's win rate has a game-level standard error of about 0.03).
    order = np.argsort(p)
    for chunk in np.array_split(order, 5):
        assert abs(p[chunk].mean() - y[chunk].mean()) < 0.07


def test_pipeline_trains_a_tiny_model(tmp_path):
    games = tmp_path / "games.jsonl"
    out = tmp_path / "value.json"
    train.main(
        ["generate", "--games", "30", "--seed", "1", "--epsilon", "0.2", "--workers", "1"]
        + ["--out", str(games)]
    )
    assert len(games.read_text().splitlines()) == 30
    report = tmp_path / "report.json"
    train.main(["fit", str(games), "--out", str(out), "--report", str(report), "--l2", "100"])
    model = ValueModel.load(out)
    assert model.meta["games"] == 30 and model.meta["train_positions"] > 1000
    assert any(abs(x) > 1e-3 for w in model.w0 for x in w)  # it learned something
    got = json.loads(report.read_text())
    assert len(got["learned_calibration"]) == 10 and 0 < got["learned"]["brier"] < 0.3
    # Reproducible: the same games and the same fit give the same weights.
    again = tmp_path / "again.json"
    train.main(["fit", str(games), "--out", str(again), "--l2", "100"])
    assert ValueModel.load(again).w1 == model.w1


def test_a_cmcts_teacher_records_what_its_search_valued_each_decision_at():
    """Each searched decision of a ``cmcts`` teacher's game carries its value for A, in 0..1:
    the root mean of the move chosen (the mover's, turned to A's), or the exact value; forced
    moves and random ones carry none. Searched decisions carry the root's visits too."""
    from duel.solvers.hint import cmcts_available

    if not cmcts_available():
        pytest.skip("needs the compiled MCTS")
    (record,) = train.generate(
        train.Teacher("cmcts", nodes=60, epsilon=0.1), games=1, seed=4, workers=1
    )
    values = dict((i, v) for i, v in record["values"])
    assert len(values) > 20 and all(0.0 <= v <= 1.0 for v in values.values())
    # and the root's visits, the learned prior's target (duel.solvers.train_prior)
    visits = dict((i, rows) for i, rows in record["visits"])
    assert len(visits) > 20
    state = new_game()
    for i, move in enumerate(record["moves"]):
        if i in values:
            assert not state.is_chance() and len(state.legal_moves()) > 1
        if i in visits:
            legal = {int(m) for m in state.legal_moves()}
            assert len(visits[i]) > 1 and all(m in legal and n > 0 for m, n in visits[i])
        state = state.apply(move, check=False)
    (greedy,) = train.generate(train.Teacher("greedy"), games=1, seed=4, workers=1)
    assert "values" not in greedy and "visits" not in greedy


def test_a_cmcts_teacher_plays_with_the_prior_it_is_given(tmp_path):
    """Expert iteration's next generation: the teacher searches with a fitted prior
    (``prior_value``), its label says so, and a prior is refused for any other teacher."""
    from duel.solvers.hint import cmcts_available

    if not cmcts_available():
        pytest.skip("needs the compiled MCTS")
    from duel.solvers.players import CMctsConfig
    from duel.solvers.value import named_model

    weights = tmp_path / "prior.json"
    named_model("cmcts-prior").save(weights)
    teacher = train.Teacher("cmcts", nodes=60, epsilon=0.1, prior_value=str(weights))
    assert train._player(teacher, 1).config.prior_value == str(weights)
    assert f"/prior={weights}/" in teacher.label()
    own = train.Teacher("cmcts", nodes=60, prior_value="")
    assert train._player(own, 1).config.prior_value == ""
    assert "/prior=value/" in own.label()
    # by default the player's own default
    default = train._player(train.Teacher("cmcts", nodes=60), 1).config.prior_value
    assert default == CMctsConfig().prior_value
    with pytest.raises(ValueError, match="cmcts teacher only"):
        train._player(train.Teacher("greedy", prior_value="cmcts-prior"), 1)


def test_the_target_mixes_the_result_with_the_searched_value():
    """``search_weight`` w: a position whose decision (or whose decision just before, for the
    chance that follows it) was searched is fitted to (1 - w) * result + w * value; the rest to
    the result; ``y`` stays the result, for validation."""
    record = train.generate(train.Teacher("greedy", epsilon=0.2), games=1, seed=9, workers=1)[0]
    decisions = [i for i, _ in train.indexed_positions(record)]
    record["values"] = [[i, 0.25] for i in decisions[::3]]
    searched = {i for i, _ in record["values"]}
    plain = train.build_dataset([record], with_v1=False)
    mixed = train.build_dataset([record], with_v1=False, search_weight=0.4)
    assert (plain["target"] == plain["y"]).all() and (mixed["y"] == plain["y"]).all()
    result = train.result_label(record["winner"])
    for row, (i, state) in enumerate(train.indexed_positions(record)):
        want = 0.6 * result + 0.4 * 0.25 if i in searched else result
        assert mixed["target"][row] == pytest.approx(want)
        assert mixed["searched"][row] == (i in searched) and not plain["searched"][row]
        assert state.is_chance() == (row > 0 and decisions[row - 1] == i)
    assert [s for _, s in train.indexed_positions(record)] == list(train.positions(record))
    with pytest.raises(ValueError, match="within 0..1"):
        train.build_dataset([record], search_weight=1.5)


def test_a_fit_follows_its_target():
    """Fitted to a value of 1/2 everywhere (the whole weight on a search that saw nothing), the
    model learns nothing from the results; fitted to the results, it does."""
    records = train.generate(train.Teacher("greedy", epsilon=0.2), games=20, seed=12, workers=1)
    for r in records:
        r["values"] = [[i, 0.5] for i, _ in train.indexed_positions(r)]
    flat = train.build_dataset(records, with_v1=False, search_weight=1.0)
    assert (flat["target"] == 0.5).all()
    model = train.fit(flat, l2=10.0)
    assert max(abs(x) for w in model.w0 + model.w1 for x in w) < 1e-6
    learned = train.fit(train.build_dataset(records, with_v1=False), l2=10.0)
    assert max(abs(x) for w in learned.w0 + learned.w1 for x in w) > 1e-3


def test_train_command_errors_are_one_line():
    proc = subprocess.run(
        [sys.executable, "-m", "duel.solvers.train", "fit", "no/such/file.jsonl"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode != 0
    assert proc.stderr.strip() == "error: no game file 'no/such/file.jsonl'"


def test_weights_for_other_features_are_refused():
    obj = ValueModel.zeros().to_json()
    obj["features"] = obj["features"][1:]
    with pytest.raises(ValueError, match="other features"):
        ValueModel.from_json(obj)


def test_weights_of_an_earlier_feature_table_value_every_position_as_before():
    """A file over the first 98 features (the table before ``best_pts``) gets weight 0 for
    the features added since: its values are what its own features give."""
    rng = random.Random(5)
    old = FEATURE_NAMES.index("best_pts")
    w0 = [[rng.gauss(0, 0.3) for _ in range(old)] for _ in range(STAGES)]
    w1 = [[rng.gauss(0, 0.3) for _ in range(old)] for _ in range(STAGES)]
    obj = {"features": list(FEATURE_NAMES[:old]), "w0": w0, "w1": w1}
    model = ValueModel.from_json(obj)
    for state in game_states(3)[::7]:
        if state.is_terminal():
            continue
        s, num, den = stage(state.fields)
        d = features(state)[:old]
        expected = sum(
            ((1 - num / den) * a + num / den * b) * x
            for a, b, x in zip(w0[s], w1[s], d, strict=True)
        )
        assert model.reference_logit(state) == pytest.approx(expected, abs=1e-9)
        assert model.logit(state) == pytest.approx(expected, abs=1e-9)


def test_search_uses_the_value_function():
    state = game_states(2)[40]
    while state.is_chance() or state.phase != "play":
        state = state.apply(state.random_move(random.Random(0)), check=False)
    calls = []

    def counting(s: State) -> float:
        calls.append(s)
        return evaluate(s)

    info = analyse(state, Limit(nodes=400), seed=1, value_fn=counting)
    assert calls and info.best_move in state.legal_moves()
    baseline = analyse(state, Limit(nodes=400), seed=1)
    assert baseline.value.a == pytest.approx(info.value.a)  # same evaluation, same search
    learned = analyse(state, Limit(nodes=400), seed=1, value_fn=value)
    assert learned.best_move in state.legal_moves()


def test_v1_level_keeps_the_hand_made_evaluation():
    assert make_player("search-v1:100").value_fn is evaluate
    assert make_player("search:100").value_fn is value


@pytest.mark.parametrize("name", sorted(NAMED_MODELS))
def test_every_named_model_ships_with_its_recipe(name):
    """Each model a ``cmcts`` option can name loads from the package, covers the whole feature
    table, says in its ``meta`` what it was fitted to (the recipe, or for the oldest file its
    teachers), and values the start within (0, 1)."""
    model = named_model(name)
    assert len(model.w0[0]) == N_FEATURES
    assert model.meta.get("games", 0) > 0
    assert model.meta.get("how") or model.meta.get("teachers")
    assert 0.0 < model(new_game()) < 1.0
