"""The C core (duel/csrc, duel._ccore) against the Python reference engine.

The differential test plays seeded games through both and requires, after every step, identical
states, legal moves (in order), chance outcomes and weights, prices of every accessible card and
every wonder for both players, and points; then identical results. The pure path is tested with
the extension disabled in a subprocess.
"""

import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyrsistent import pvector

from duel import new_game
from duel import state as s
from duel.core import AVAILABLE, CoreState, ccore
from duel.position import dumps_position, load_position
from duel.pricing import min_purchase_cost
from duel.state import IllegalMoveError, State
from tests.games import GAMES, choice_game

ROOT = Path(__file__).resolve().parents[1]
CSRC = ROOT / "duel" / "csrc"
needs_core = pytest.mark.skipif(not AVAILABLE, reason="C core not built or DUEL_PURE set")
#: Differential games in the suite: 500, about a quarter of the 2,000 it ran before (85 s of test
#: time on a loaded machine); the long run is the same test with more: ``DUEL_DIFF_GAMES=10000``.
DIFF_GAMES = int(os.environ.get("DUEL_DIFF_GAMES", "500"))
EXAMPLES = sorted(
    p
    for p in (ROOT / "examples").rglob("*.json")
    if json.loads(p.read_text(encoding="utf-8")).get("format") == "7wd-position"
)


def _compiler() -> str | None:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc)


def assert_same_node(py: State, c) -> None:
    """Everything a caller can observe at one node, compared between the engines."""
    assert c.to_state() == py
    assert c.is_chance() == py.is_chance() and c.is_terminal() == py.is_terminal()
    if py.is_chance():
        outcomes, total = py.chance_weights()
        assert c.chance_weights() == ([(int(m), w) for m, w in outcomes], total)
        return
    assert c.legal_moves() == [int(m) for m in py.legal_moves()]
    for p in (0, 1):
        assert c.total_points(p) == s.total_points(py.fields, p)
        for card in py.pyramid:
            if card < 0 or not py.is_accessible(py.pyramid.index(card)):
                continue  # taken, or face down until the pending reveal
            assert c.card_cost(p, card) == py.card_cost(p, card)
        for w in py.wonders(0) + py.wonders(1):  # the wonders still to build, both owners'
            assert c.wonder_cost(p, w) == py.wonder_cost(p, w)


def play_both(seed: int, start: State | None = None, *, c_moves: bool = False) -> int:
    """One game through both engines from ``start``; returns its length.

    Moves are drawn uniformly by Python's rng (or, with ``c_moves``, by the C core's
    random_move, which the Python engine then validates); chance by Python's exact sampler.
    """
    rng = random.Random(seed)
    py = new_game() if start is None else start
    c = CoreState.from_state(py)
    steps = 0
    while not py.is_terminal():
        assert_same_node(py, c)
        if py.is_chance():
            move = py.sample_chance(rng)
            py = py.apply(move, check=False)
        elif c_moves:
            move = c.random_move(rng)
            py = py.apply(move)  # validated: the C random move must be legal
        else:
            move = rng.choice(py.legal_moves())
            py = py.apply(move, check=False)
        c = c.apply(move)
        steps += 1
    assert_same_node(py, c)
    assert (c.winner, c.victory) == (py.winner, py.victory)
    for p in (0, 1):
        score = py.score(p)
        assert c.score(p) == tuple(getattr(score, k) for k in score.CATEGORIES)
    return steps


# --- the differential test -----------------------------------------------------------------
#: The differential games in chunks (the same seeds, range(DIFF_GAMES), in all), so that CI's two
#: workers share them instead of one playing them all while the other waits at the end.
DIFF_CHUNKS = 4


@needs_core
@pytest.mark.parametrize("chunk", range(DIFF_CHUNKS))
def test_differential_random_games(chunk):
    seeds = range(chunk, DIFF_GAMES, DIFF_CHUNKS)
    steps = sum(play_both(seed, c_moves=seed % 2 == 1) for seed in seeds)
    assert steps > 100 * len(seeds)


@needs_core
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_differential_from_example_positions(path):
    """Hand-made positions (Age III endgames, threats) as well as reachable ones."""
    start = load_position(path)
    for seed in range(20):
        play_both(seed, start, c_moves=seed % 2 == 1)


@needs_core
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=GAMES, depth=st.integers(0, 200))
def test_property_reachable_states_agree_with_every_child(choices, depth):
    """A reachable state (a game drawn as its choices, tests/games.py): the same node in C, and
    the same child after every move."""
    py = choice_game(choices, plies=depth)[0][-1]
    c = CoreState.from_state(py)
    assert_same_node(py, c)
    moves = [m for m, _ in py.chance_weights()[0]] if py.is_chance() else py.legal_moves()
    for move in moves[:60]:
        assert c.apply(move).to_state() == py.apply(move, check=False)
    assert CoreState.from_state(py) == c and hash(CoreState.from_state(py)) == hash(c)


@needs_core
@settings(max_examples=300, deadline=None)
@given(
    need=st.tuples(*[st.integers(0, 4)] * 5),
    prod=st.tuples(*[st.integers(0, 4)] * 5),
    raw=st.integers(0, 3),
    man=st.integers(0, 3),
    prices=st.tuples(*[st.integers(1, 9)] * 5),
    waivable=st.sampled_from([0, 2]),
)
def test_property_c_pricing_is_the_python_greedy(need, prod, raw, man, prices, waivable):
    expected = min_purchase_cost(need, prod, raw, man, prices, waivable)
    assert ccore.min_purchase_cost(need, prod, raw, man, prices, waivable) == expected


# --- known answers ---------------------------------------------------------------------------
def c_perft(c, depth: int) -> int:
    if depth == 0 or c.is_terminal():
        return 1
    children = [m for m, _ in c.chance_weights()[0]] if c.is_chance() else c.legal_moves()
    return sum(c_perft(c.apply(m), depth - 1) for m in children)


@needs_core
def test_c_perft_matches_the_golden_file():
    from tests.test_golden import CHECKPOINTS, SEEDS, walk

    golden = json.loads((ROOT / "tests" / "golden" / "perft.json").read_text())
    for seed in SEEDS:
        steps = walk(seed)
        for checkpoint in CHECKPOINTS:
            key = f"seed {seed} step {checkpoint}"
            if key not in golden:
                continue
            c = CoreState.from_state(steps[checkpoint][1])
            assert (c_perft(c, 1), c_perft(c, 2)) == (golden[key]["perft1"], golden[key]["perft2"])


@needs_core
def test_new_game_and_terminal_conversions():
    assert CoreState.new_game().to_state() == new_game()
    assert CoreState.new_game() == CoreState.from_state(new_game())
    final = CoreState.new_game().random_playout(7)
    assert final.is_terminal() and final.victory in ("military", "science", "civilian")
    assert dumps_position(final.to_state())  # a valid position the Python side can save


@needs_core
def test_apply_returns_a_new_state_and_keeps_the_old_one():
    start = CoreState.new_game()
    child = start.apply(start.sample_chance(1))
    assert start == CoreState.new_game() and child != start


@needs_core
def test_illegal_moves_raise_the_python_reason():
    c = CoreState.from_state(load_position(ROOT / "examples" / "age1_opening.json"))
    with pytest.raises(IllegalMoveError):
        c.apply(1 << 16 | 72)  # discard a guild that is not in the Age I structure
    with pytest.raises(IllegalMoveError):
        c.apply(-5)


@needs_core
def test_bad_input_gives_one_line_errors():
    with pytest.raises(AttributeError):
        CoreState.from_state(42)
    fields = list(new_game().fields)
    fields[s.PAWN] = 12
    with pytest.raises(ValueError, match="out of range"):
        CoreState.from_state(State(pvector(fields)))
    with pytest.raises(ValueError, match="player"):
        CoreState.new_game().total_points(2)


# --- randomness: uniform moves, exact chance -------------------------------------------------
@needs_core
def test_c_random_move_is_uniform_over_the_legal_moves():
    rng = random.Random(3)
    py = new_game()
    while py.phase != "play" or len(py.legal_moves()) < 8:
        py = py.apply(py.random_move(rng), check=False)
    c, moves = CoreState.from_state(py), py.legal_moves()
    draws = 200 * len(moves)
    counts = {m: 0 for m in moves}
    for seed in range(draws):
        counts[c.random_move(seed)] += 1
    # Each count is Binomial(draws, 1/k): mean 200, sd about 14; 5 sd either side.
    assert all(130 <= n <= 270 for n in counts.values()), counts


@needs_core
def test_c_sample_chance_follows_the_exact_weights():
    rng = random.Random(11)
    py = new_game()
    while not (py.is_chance() and py.age == 3):
        py = py.apply(py.random_move(rng), check=False)
    c = CoreState.from_state(py)
    outcomes, total = py.chance_weights()
    draws = 40 * len(outcomes)
    counts = {int(m): 0 for m, _ in outcomes}
    for seed in range(draws):
        counts[c.sample_chance(seed)] += 1
    for m, w in outcomes:
        expected = draws * w / total
        assert abs(counts[int(m)] - expected) <= 5 * (expected**0.5) + 1, (m, counts[int(m)])


@needs_core
def test_play_random_games_in_bulk():
    result = ccore.play_random_games(200, 1)
    assert result["games"] == 200 and sum(result["wins"]) == 200
    assert sum(result["victories"].values()) == 200
    assert 100 * 200 < result["steps"] < 200 * 200
    assert result == ccore.play_random_games(200, 1)  # seeded: reproducible


# --- build and packaging ---------------------------------------------------------------------
def test_generated_tables_are_up_to_date():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from gen_ctables import HEADER, LAYOUT_HEADER, generate, generate_layout
    finally:
        sys.path.pop(0)
    assert HEADER.read_text(encoding="utf-8") == generate(), "run python tools/gen_ctables.py"
    # the C state's layout and the Python field indices it converts (duel.state's)
    layout = LAYOUT_HEADER.read_text(encoding="utf-8")
    assert layout == generate_layout(), "run python tools/gen_ctables.py"


@pytest.mark.skipif(
    _compiler() is None or bool(os.environ.get("DUEL_PURE")), reason="no C compiler, or pure"
)
def test_the_extension_is_built_where_a_compiler_exists():
    """So that a broken build cannot hide behind the pure-Python fallback in CI."""
    assert AVAILABLE


def test_pure_path_works_without_the_extension():
    code = (
        "import random, sys\n"
        "import duel.core, duel.solvers.search\n"
        "from duel import play_random_game\n"
        "assert not duel.core.AVAILABLE and duel.core.CoreState is None\n"
        "assert 'duel._ccore' not in sys.modules\n"
        "try:\n"
        "    duel.core.require()\n"
        "except RuntimeError as error:\n"
        "    print(error)\n"
        "print(play_random_game(random.Random(1)).is_terminal())\n"
    )
    env = {**os.environ, "DUEL_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["the C core is not available: DUEL_PURE is set", "True"]


def test_a_missing_extension_falls_back_to_the_pure_path():
    code = (
        "import sys\n"
        "sys.modules['duel._ccore'] = None  # as if it had never been built\n"
        "import duel.core\n"
        "print(duel.core.AVAILABLE)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DUEL_PURE"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


C_PROGRAM = r"""
#include <stdio.h>
#include "duel_core.c"

int main(void) {
    dc_rng rng;
    dc_rng_seed(&rng, 1);
    long steps = 0;
    for (int g = 0; g < 100; g++) {
        dc_state s, keep;
        dc_new_game(&s);
        keep = s; /* a copy is a saved position */
        steps += dc_random_playout(&s, &rng);
        if (!dc_is_terminal(&s) || dc_is_terminal(&keep)) return 1;
        int sheet[DC_SCORE_CATEGORIES], sum = 0;
        dc_score_breakdown(&s, 0, sheet);
        for (int i = 0; i < DC_SCORE_CATEGORIES; i++) sum += sheet[i];
        if (sum != dc_total_points(&s, 0)) return 2;
    }
    printf("%ld\n", steps);
    return 0;
}
"""


@pytest.mark.skipif(_compiler() is None, reason="no C compiler")
def test_the_c_api_compiles_standalone(tmp_path):
    """A C searcher includes duel_core.c into its own program or extension, without Python."""
    source = tmp_path / "smoke.c"
    source.write_text(C_PROGRAM)
    binary = tmp_path / "smoke"
    flags = ["-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", f"-I{CSRC}"]
    subprocess.run([_compiler(), *flags, str(source), "-o", str(binary)], check=True)
    out = subprocess.run([str(binary)], capture_output=True, text=True, check=True)
    assert 100 * 100 < int(out.stdout) < 100 * 200


PROBE_EXTENSION = r"""
#include <Python.h>
#include "duel_core.c"
#include "ccore_capi.h"

static const dc_capi *capi;

/* play(core_state, seed): random moves to the end in this module's copy of the engine. */
static PyObject *play(PyObject *m, PyObject *args) {
    PyObject *obj;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OK", &obj, &seed)) return NULL;
    dc_state s;
    if (capi->get_state(obj, &s) < 0) return NULL;
    dc_rng rng;
    dc_rng_seed(&rng, seed);
    dc_random_playout(&s, &rng);
    return capi->new_state(&s);
}

static PyObject *round_trip(PyObject *m, PyObject *state) {
    dc_state s;
    if (capi->from_python(state, &s) < 0) return NULL;
    return capi->to_python(&s);
}

static PyMethodDef methods[] = {
    {"play", play, METH_VARARGS, NULL}, {"round_trip", round_trip, METH_O, NULL}, {NULL}};
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "probe", NULL, -1, methods};

PyMODINIT_FUNC PyInit_probe(void) {
    capi = dc_import_capi();
    if (!capi) return NULL;
    return PyModule_Create(&def);
}
"""


@needs_core
@pytest.mark.skipif(
    _compiler() is None or not sys.platform.startswith("linux"), reason="needs gcc/clang on Linux"
)
def test_another_extension_uses_the_engine_and_the_capsule(tmp_path):
    """The path of a C searcher: its own copy of the engine, conversions through the capsule."""
    source = tmp_path / "probe.c"
    source.write_text(PROBE_EXTENSION)
    target = tmp_path / f"probe{sysconfig.get_config_var('EXT_SUFFIX')}"
    include = sysconfig.get_paths()["include"]
    flags = ["-std=gnu11", "-O1", "-shared", "-fPIC", "-Wall", "-Werror", f"-I{CSRC}"]
    subprocess.run(
        [_compiler(), *flags, f"-I{include}", str(source), "-o", str(target)], check=True
    )
    sys.path.insert(0, str(tmp_path))
    try:
        import probe
    finally:
        sys.path.pop(0)
    start = CoreState.new_game()
    assert probe.play(start, 5) == start.random_playout(5)  # same engine, same generator
    py = load_position(ROOT / "examples" / "age2_midgame.json")
    assert probe.round_trip(py) == py
    with pytest.raises(TypeError, match="CoreState"):
        probe.play(py, 1)


@needs_core
@pytest.mark.skipif(
    not hasattr(s, "DEAL_GUILDS"), reason="guild backs (issue 10) not in the engine"
)
def test_every_guild_deal_agrees():
    """All 1140 outcomes of the Age III guild deal, then the first reveal of each."""
    rng = random.Random(4)
    py = new_game()
    while py.fields[s.PHASE] != s.DEAL_GUILDS:
        py = py.apply(py.random_move(rng), check=False)
    c = CoreState.from_state(py)
    outcomes, _ = py.chance_weights()
    assert len(outcomes) == 1140
    for move, _ in outcomes:
        child = py.apply(move, check=False)
        c_child = c.apply(move)
        assert c_child.to_state() == child
        assert c_child.chance_weights() == (
            [(int(m), w) for m, w in child.chance_weights()[0]],
            child.chance_weights()[1],
        )
