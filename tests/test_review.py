"""``duel review``: values and marks (known answers on exact endgames), the review's consistency,
JSON, plots, parallel = sequential, and one-line errors."""

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duel import new_game
from duel.app.cli.main import app
from duel.app.control.replay import Replay
from duel.record import GameRecord
from duel.solvers.review import (
    HIDDEN_NOTE,
    MARKS,
    THRESHOLDS,
    analyse_job,
    analyse_position,
    assemble,
    mark_for,
    review_record,
)
from duel.solvers.search import expectimax

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "records" / "greedy_vs_greedy.json"
runner = CliRunner()
#: A node budget: reviews that depend only on the record (fast: a few ms per position).
BUDGET = "search:300"


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def short_record() -> GameRecord:
    """The example game's first 50 moves: the draft and the start of Age I (19 decisions)."""
    return GameRecord.load(EXAMPLE).truncated(50)


@pytest.fixture(scope="module")
def short_review(short_record):
    return review_record(short_record, level=BUDGET, workers=1)


def _endgame_record(seed: int, left: int = 5) -> tuple[list, object] | None:
    """A random game's moves up to an Age III decision with at most ``left`` cards left."""
    rng = random.Random(seed)
    state, moves = new_game(), []
    while not state.is_terminal():
        if state.age == 3 and state.phase == "play" and sum(c != -1 for c in state.pyramid) <= left:
            return moves, state
        move = state.random_move(rng)
        moves.append(move)
        state = state.apply(move)
    return None


def _blunder_endgame():
    """An endgame where the worst move loses at least the blunder threshold (exact values)."""
    for seed in range(60):
        found = _endgame_record(seed)
        if found is None:
            continue
        moves, state = found
        memo: dict = {}
        sign = 1 if state.to_move == 0 else -1
        values = {m: expectimax(state.apply(m), memo) for m in state.legal_moves()}
        mover = {m: v if sign == 1 else 1 - v for m, v in values.items()}
        worst, best = min(mover, key=mover.get), max(mover.values())
        if best - mover[worst] >= THRESHOLDS["blunder"] + 0.01:
            return moves, state, mover, worst
    raise AssertionError("no endgame with a blunder among the seeds")


# --- known answers --------------------------------------------------------------------------------
def test_marks_follow_the_documented_thresholds():
    assert THRESHOLDS == {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
    losses = (0.0, 0.0494, 0.0496, 0.05, 0.0994, 0.0999, 0.1, 0.1994, 0.2, 1.0)
    assert [mark_for(x) for x in losses] == [
        None,
        None,
        "inaccuracy",  # shown as 5.0%: the marks start at 5%
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_a_mark_agrees_with_the_loss_as_shown():
    """Issue 62: a loss printed 5.0% got no mark though the marks start at 5%."""
    for tenths in range(0, 400):
        for jitter in (-0.00049, 0.0, 0.00049):
            loss = tenths / 1000 + jitter
            if loss < 0:
                continue
            shown = float(f"{100 * loss:.1f}") / 100
            expected = None
            for name in MARKS:
                if shown >= THRESHOLDS[name] - 1e-12:
                    expected = name
            assert mark_for(loss) == expected, (loss, f"{100 * loss:.1f}%")


def test_every_move_value_is_exact_in_a_small_endgame():
    """analyse_position values every legal move, and in a small endgame exactly."""
    moves, state, mover, _ = _blunder_endgame()
    result = analyse_position(state, level="search:200000")
    assert result.info["exact"]
    assert {m for m, _ in result.values} == set(state.legal_moves())
    for move, value in result.values:
        assert value == pytest.approx(mover[move], abs=1e-9), str(move)
    assert result.best_move == result.values[0][0]
    assert result.best_value == pytest.approx(max(mover.values()), abs=1e-9)
    a_best = result.best_value if state.to_move == 0 else 1 - result.best_value
    assert result.value_a == pytest.approx(a_best, abs=1e-9)


def test_a_blunder_and_a_best_move_are_marked_with_their_exact_loss():
    moves, state, mover, worst = _blunder_endgame()
    best = max(mover, key=mover.get)
    for played, mark in ((worst, "blunder"), (best, None)):
        record = GameRecord((*moves, played))
        replay = Replay.of(record)
        index = len(moves)
        level = "search:200000"
        job = {"moves": list(replay.notation), "index": index, "seconds": 1, "level": level}
        review = assemble(replay, {index: analyse_job(job)}, level=level, seconds=1)
        m = review.moves[index]
        assert m.player == "AB"[state.to_move] and m.move == str(played)
        assert m.value == pytest.approx(mover[played], abs=1e-6)
        assert m.loss == pytest.approx(max(mover.values()) - mover[played], abs=1e-6)
        assert m.mark == mark
        assert review.summary[m.player].decisions == 1
        assert getattr(review.summary[m.player], mark or "best") == 1
        # The other decisions were not analysed here: listed, not judged.
        earlier = [r for r in review.moves[:index] if r.player != "chance"]
        assert all(r.value is None and r.note in ("not analysed", HIDDEN_NOTE) for r in earlier)


# --- a whole review -----------------------------------------------------------------------------
def test_the_review_of_a_short_record_is_consistent(short_record, short_review):
    replay = Replay.of(short_record)
    assert len(short_review.moves) == replay.last
    decisions = [m for m in short_review.moves if m.player != "chance"]
    assert len(decisions) == 19
    for m in short_review.moves:
        before = replay.states[m.number - 1]
        if m.player == "chance":
            assert m.probability == pytest.approx(
                float(before.chance_probability(replay.moves[m.number - 1]))
            )
            continue
        assert m.note is None and m.choices == len(before.legal_moves())
        assert 0 <= m.value <= m.best_value + 1e-9 <= 1 + 1e-9
        assert m.loss == pytest.approx(m.best_value - m.value, abs=1e-6)
        assert m.mark == (mark_for(m.loss) if m.choices > 1 else None)
        a_value = m.best_value if m.player == "A" else 1 - m.best_value
        assert m.value_a == pytest.approx(a_value, abs=1e-6)
    for player in "AB":
        mine = [m for m in decisions if m.player == player and m.choices > 1]
        summary = short_review.summary[player]
        assert summary.decisions == len(mine)
        average = sum(m.loss for m in mine) / len(mine)
        assert summary.average_loss == pytest.approx(average, abs=1e-6)
        for mark in MARKS:
            assert getattr(summary, mark) == sum(m.mark == mark for m in mine)
    # The graph: A's chance before every decision, and now (the game stopped at a decision);
    # at each chance node after a decision, the value of the move played there (no separate
    # search at a reveal: the graph does not jump when a card is turned face up).
    assert not replay.states[-1].is_chance()
    points = dict(short_review.graph)
    decided = [m.number - 1 for m in decisions]
    assert [i for i in points if not replay.states[i].is_chance()] == decided + [50]
    chance_points = [i for i in points if replay.states[i].is_chance()]
    assert chance_points
    for i in chance_points:
        last = short_review.moves[max(d for d in decided if d < i)]
        assert all(replay.states[k].is_chance() for k in range(last.number, i + 1))
        mine = last.value if last.player == "A" else 1.0 - last.value
        assert points[i] == pytest.approx(mine, abs=1e-6)


def test_parallel_review_equals_the_sequential_one(short_record, short_review):
    parallel = review_record(short_record, level=BUDGET, workers=2)
    assert parallel.to_json() == short_review.to_json()


def test_a_finished_game_ends_the_graph_with_its_result_and_hides_the_library_draw():
    review = review_record(GameRecord.load(EXAMPLE), level="greedy", workers=1)
    assert review.graph[-1] == (144, 1.0)  # A won
    draw, choice = review.moves[-2], review.moves[-1]
    assert draw.player == "chance" and draw.hidden and draw.probability is None
    assert draw.move == "draw Economy, ?, ?"
    assert choice.note is not None and "hides" in choice.note
    assert choice.best_move is None and choice.value is None
    # The placeholders standing for the hidden tokens appear nowhere.
    text = json.dumps(review.to_json()["moves"][-2:])
    assert text.count("token") == 2 and "Economy" in text


# --- the command ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def short_file(tmp_path_factory, short_record) -> Path:
    path = tmp_path_factory.mktemp("review") / "short.json"
    short_record.save(path)
    return path


def test_json_schema(short_file):
    result = run("review", short_file, "--level", BUDGET, "--workers", 1, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["format"] == "7wd-review" and data["version"] == 1
    assert data["thresholds"] == THRESHOLDS
    assert data["engine"] == {"level": BUDGET, "seconds_per_move": None}  # no clock
    assert set(data["summary"]) == {"A", "B"}
    assert set(data["summary"]["A"]) == {
        "decisions",
        "average_loss",
        "best",
        "inaccuracy",
        "mistake",
        "blunder",
    }
    decision_keys = {
        "number", "player", "move", "value_a", "value", "best_move", "best_value", "loss",
        "mark", "choices", "note", "info",
    }  # fmt: skip
    chance_keys = {"number", "player", "move", "probability", "hidden", "note", "info"}
    assert len(data["moves"]) == 50
    for m in data["moves"]:
        assert set(m) == (chance_keys if m["player"] == "chance" else decision_keys)
        if m["player"] != "chance":
            assert m["mark"] in (None, *MARKS)
            assert {"engine", "depth", "nodes", "exact"} <= set(m["info"])
    assert all(isinstance(i, int) and 0 <= v <= 1 for i, v in data["graph"])


def test_terminal_output_lists_moves_graph_and_summary(short_file):
    result = run("review", short_file, "--level", BUDGET, "--workers", 1)
    assert result.exit_code == 0, result.output
    out = result.output
    assert " 10 A pick Circus Maximus" in out
    assert "  1   chance: reveal token Law (p 10.0%)" in out
    assert "100% │" in out and " 50% ┼" in out and "  0% │" in out
    assert "player  decisions  average loss" in out
    assert "--no-chance" not in out
    quiet = run("review", short_file, "--level", BUDGET, "--workers", 1, "--no-chance")
    assert "chance:" not in quiet.output


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_plot_file_is_written(tmp_path, short_file, suffix):
    if suffix == ".png":
        pytest.importorskip("matplotlib")
    path = tmp_path / f"graph{suffix}"
    result = run("review", short_file, "--level", "greedy", "--workers", 1, "--plot", path)
    assert result.exit_code == 0, result.output
    assert f"graph written to {path}" in result.output
    data = path.read_bytes()
    if suffix == ".png":
        assert data.startswith(b"\x89PNG")
    else:
        root = ET.fromstring(data)
        assert root.tag.endswith("svg")
        assert any(e.tag.endswith("polyline") for e in root.iter())


def test_png_without_matplotlib_is_one_line(tmp_path, short_file, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec

    def find_spec(name, *args):
        return None if name == "matplotlib" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    result = run("review", short_file, "--level", "greedy", "--plot", tmp_path / "g.png")
    assert result.exit_code == 2
    assert result.output.strip() == (
        "duel: --plot: PNG needs matplotlib (pip install 'wonders-duel[plot]'); "
        "an .svg file needs nothing"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.json"], "missing.json"),
        (["{bad"], "not valid JSON"),
        ([ROOT / "examples" / "age1_opening.json"], "a position, not a game record"),
        (['{"format": "7wd-record", "moves": ["build Baths"]}'], "move 1 (build Baths)"),
        ([EXAMPLE, "--level", "random"], "the random level cannot analyse"),
        ([EXAMPLE, "--level", "random"], "use cmcts, search, search-v1, mcts or greedy"),
        ([EXAMPLE, "--level", "search:x"], "bad search budget"),
        ([EXAMPLE, "--time", "nan"], "--time must be a finite number"),
        ([EXAMPLE, "--time", "0"], "--time must be positive"),
        ([EXAMPLE, "--plot", "graph.pdf"], "write a .svg or .png file"),
        ([EXAMPLE, "--plot", "no/such/folder/g.svg"], "no folder"),
    ],
)
def test_bad_input_is_one_line(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    if isinstance(args[0], str) and args[0].startswith("{"):
        (tmp_path / "bad.json").write_text(args[0])
        args = ["bad.json", *args[1:]]
    result = run("review", *args)
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.output
    assert "Traceback" not in result.output


def test_review_after_a_game_in_duel_play(tmp_path):
    """'review' at the game-over prompt of the line mode reviews the game just played."""
    import pexpect

    from tests.test_tui import SUB_PROMPT, prompt, spawn

    child = spawn(tmp_path, "--a", "human", "--b", "random", "--seed", "3", "--plain",
                  "--think", "0.02", timeout=120)  # fmt: skip
    while True:
        i = child.expect([prompt("A"), SUB_PROMPT, prompt("game over")])
        if i == 0:
            child.sendline("1")
        elif i == 1:
            child.sendline("discard")
        else:
            break
    assert "'review' analyses every move" in child.before
    child.sendline("review")
    child.expect("player  decisions  average loss")
    assert "chance of winning" in child.before and " 50% ┼" in child.before
    child.expect(r"(?m)^game over> ")
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_hints_best_moves_are_not_marked_by_the_review():
    """Issue #24 item 5: the review judges with the hint's engine (cmcts through hint_analysis)
    by default, so a game that follows the hint at a budget and seed gets no mark from a review
    at the same budget and seed."""
    from duel.solvers.hint import cmcts_available
    from duel.solvers.search import Limit
    from duel.solvers.spread import advise

    if not cmcts_available():
        pytest.skip("needs the compiled MCTS")
    rng, state, moves, advised = random.Random(4), new_game(), [], 0
    while advised < 14:  # the draft and the first moves of Age I
        if state.is_chance():
            move = state.random_move(rng)
        else:
            info, _ = advise(state, Limit(nodes=600), top=3, seed=0)
            move, advised = info.best_move, advised + 1
        moves.append(move)
        state = state.apply(move)
    review = review_record(GameRecord(tuple(moves)), level="cmcts:600", workers=1, seed=0)
    judged = [m for m in review.moves if m.player != "chance" and m.choices > 1]
    assert len(judged) >= 10
    assert all(m.info["engine"] in ("cmcts", "exact") for m in judged)
    assert [(m.number, m.mark, m.loss) for m in judged] == [(m.number, None, 0.0) for m in judged]
    assert all(m.move == m.best_move for m in judged)


def test_the_default_engine_is_the_hints(short_file):
    result = run("review", short_file, "--time", "0.02", "--workers", 1, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    from duel.app.control.levels import default_player

    # cmcts where it is built; the search on the pure path (as duel play's opponent)
    assert data["engine"] == {"level": default_player("cmcts"), "seconds_per_move": 0.02}
    engines = {m["info"]["engine"] for m in data["moves"] if m["player"] != "chance"}
    assert engines <= {"cmcts", "exact", "search"} and engines
    help_text = run("review", "--help").output
    assert "cmcts" in help_text


@pytest.mark.parametrize("level", ["search-v1:200", "mcts:100", "cmcts:200"])
def test_every_level_that_can_analyse_reviews(short_record, level):
    from duel.solvers.hint import cmcts_available

    if level.startswith("cmcts") and not cmcts_available():
        pytest.skip("the compiled MCTS is not built or DUEL_PURE is set")
    review = review_record(short_record.truncated(14), level=level, workers=1)
    judged = [m for m in review.moves if m.player != "chance" and m.value is not None]
    assert judged and all(m.loss >= 0 and m.best_move is not None for m in judged)


def test_a_played_move_the_mcts_skipped_is_valued_after_it(short_record):
    """With 3 iterations (one per tree) most moves go unvisited: the move played still gets a
    value, from the analysis of the position it leads to."""
    from duel.solvers.hint import cmcts_available
    from duel.solvers.review import decisions_to_analyse

    if not cmcts_available():
        pytest.skip("needs the compiled MCTS")
    replay = Replay.of(short_record)
    after = []
    for index in decisions_to_analyse(replay)[:-1]:
        job = {"moves": list(replay.notation), "index": index, "seconds": 1, "level": "cmcts:3"}
        result = analyse_job(job)
        played = replay.notation[index]
        assert played in {m for m, _ in result["values"]} or replay.states[index + 1].is_chance()
        if result["info"].get("played_valued_after"):
            value_a = analyse_position(replay.states[index + 1], 1, "cmcts:3").value_a
            mover_value = value_a if replay.states[index].to_move == 0 else 1 - value_a
            assert dict(map(tuple, result["values"]))[played] == round(mover_value, 6)
            after.append(index)
    assert after


def test_an_unfinished_games_result_says_unfinished(short_record, short_review):
    """Issue #24 item 8: the result of a game stopped in Age I read "age 1, play, A to move"."""
    final = Replay.of(short_record).states[-1]
    assert not final.is_terminal()
    assert short_review.final == f"unfinished: {final.describe()}"
    assert short_review.to_json()["final"].startswith("unfinished: age 1, ")
    done = review_record(GameRecord.load(EXAMPLE).truncated(200), level="greedy", workers=1)
    assert done.final == "game over: A wins (civilian)"


def test_a_level_without_a_clock_reports_no_seconds(short_file):
    """Issue #24 item 8: ``--json --level greedy`` said ``seconds_per_move: 1.0``."""
    result = run("review", short_file, "--level", "greedy", "--workers", 1, "--json")
    data = json.loads(result.output)
    assert data["engine"] == {"level": "greedy", "seconds_per_move": None}
    text = run("review", short_file, "--level", "greedy", "--workers", 1).output
    assert "Engine: greedy; values are" in text
    timed = run("review", short_file, "--level", "search-v1:0.01s", "--workers", 1).output
    assert "Engine: search-v1:0.01s, 0.01 s per move;" in timed
