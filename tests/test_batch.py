"""The batch layer: same results for any number of workers, resume after a kill, a crashed
worker's job retried once, and the same results on a local Ray instance."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duel.app.cli.support import expand_optional_values
from duel.solvers.batch import (
    BatchError,
    BatchInterrupted,
    ResultStore,
    _Queue,
    _square,
    job_key,
    run_jobs,
)
from duel.solvers.match import (
    GameResult,
    MatchResult,
    match_jobs,
    play_match,
    play_match_game_json,
)

ROOT = Path(__file__).resolve().parents[1]


def outcome(games: list[GameResult]) -> list[tuple]:
    """Everything about the games but their durations."""
    return [(g.index, g.first_seat, g.winner, g.victory, g.moves) for g in games]


# Job functions for the worker processes: module level, so that a worker can import them.
def crash_once(job: dict) -> dict:
    """Kill this worker process the first time the job runs (a marker file remembers)."""
    marker = job.get("marker")
    if job["x"] == 3 and marker and not Path(marker).exists():
        Path(marker).write_text("crashed")
        os.kill(os.getpid(), signal.SIGKILL)
    return {"x": job["x"]}


def crash_always(job: dict) -> dict:
    if job["x"] == 1:
        os._exit(7)
    return {"x": job["x"]}


def echo(job: dict) -> dict:
    return {"x": job["x"], "text": job["text"][::-1]}


def fail_always(job: dict) -> dict:
    raise ValueError(f"job {job['x']} is bad")


def test_one_worker_and_two_workers_play_the_same_games():
    one = play_match("greedy", "random", games=8, seed=5, workers=1)
    two = play_match("greedy", "random", games=8, seed=5, workers=2)
    assert outcome(one.games_list) == outcome(two.games_list)
    assert [g.index for g in two.games_list] == list(range(8))  # merged in job order
    assert one.to_json()["wins"] == two.to_json()["wins"]


def test_results_come_in_job_order_and_as_json_reads():
    jobs = [{"x": x} for x in range(20)]
    results = list(run_jobs(crash_once, jobs, workers=2, chunksize=3, report=lambda _: None))
    # x == 3 crashes only when a marker path exists in the job: here it has none
    assert [r["x"] for r in results] == list(range(20))


def test_a_worker_that_dies_is_reported_and_its_job_retried_once(tmp_path):
    jobs = [{"x": x, "marker": str(tmp_path / "crashed")} for x in range(6)]
    notes: list[str] = []
    out = tmp_path / "run.jsonl"
    results = list(run_jobs(crash_once, jobs, workers=2, out=out, report=notes.append))
    assert [r["x"] for r in results] == list(range(6))
    assert len(notes) == 1 and '"x":3' in notes[0] and "died" in notes[0]
    assert "retrying it once" in notes[0] and "-9" in notes[0]  # SIGKILL
    lines = out.read_text().splitlines()
    assert sorted(json.loads(line)["result"]["x"] for line in lines) == list(range(6))


def test_a_job_that_fails_twice_stops_the_run(tmp_path):
    notes: list[str] = []
    with pytest.raises(BatchError, match=r'"x":1.*failed twice.*exit code 7'):
        list(run_jobs(crash_always, [{"x": x} for x in range(4)], workers=2, report=notes.append))
    assert len(notes) == 1
    with pytest.raises(BatchError, match="failed twice.*ValueError: job 0 is bad"):
        list(run_jobs(fail_always, [{"x": 0}], workers=2, report=notes.append))


def test_large_jobs_and_results_do_not_block_the_pipes():
    jobs = [{"x": x, "text": str(x) * 40_000} for x in range(40)]  # chunks of about 4 MB
    results = list(run_jobs(echo, jobs, workers=2, chunksize=20, progress=False))
    assert [r["text"] for r in results] == [j["text"][::-1] for j in jobs]


def test_chunks_grow_with_cheap_jobs_and_shrink_at_the_end():
    queue = _Queue([(i, {"x": i}) for i in range(1000)], None, target=0.05, parallel=2)
    assert len(queue.take()) == 1  # cost unknown: one at a time
    queue.record(1, 0.001)  # a millisecond a job: 50 jobs make 50 ms
    assert len(queue.take()) == 50
    sizes = []
    while queue:
        sizes.append(len(queue.take()))
    assert sizes[-1] == 1 and max(sizes) == 50 and sum(sizes) == 1000 - 51
    queue.put_back([(7, {"x": 7}), (8, {"x": 8})])
    assert queue.take() == [(7, {"x": 7}), (8, {"x": 8})]  # a chunk put back goes first, whole
    fixed = _Queue([(i, i) for i in range(10)], 4, target=0.05, parallel=2)
    assert [len(fixed.take()) for _ in range(3)] == [4, 4, 2]


def test_bad_jobs_and_files_are_clear_errors(tmp_path):
    with pytest.raises(BatchError, match="same key"):
        list(run_jobs(crash_once, [{"x": 1}, {"x": 1}], workers=1))
    with pytest.raises(BatchError, match="module-level function"):
        list(run_jobs(lambda job: job, [{"x": 1}, {"x": 2}], workers=2))
    other = tmp_path / "position.json"
    other.write_text('{"format": "something else"}\n{"key": 1, "result": 2}\n')
    with pytest.raises(BatchError, match="line 1 is not a result line"):
        list(run_jobs(crash_once, [{"x": 1}], workers=1, out=other))


def test_a_torn_last_line_is_dropped_and_its_job_run_again(tmp_path):
    out = tmp_path / "run.jsonl"
    jobs = [{"x": x} for x in range(4)]
    list(run_jobs(crash_once, jobs[:2], workers=1, out=out))
    with out.open("a") as handle:
        handle.write('{"key":"{\\"x\\":2}","resu')  # a kill -9 in the middle of a write
    assert set(ResultStore(out).load()) == {job_key(j) for j in jobs[:2]}
    results = list(run_jobs(crash_once, jobs, workers=1, out=out))
    assert [r["x"] for r in results] == [0, 1, 2, 3]
    keys = [json.loads(line)["key"] for line in out.read_text().splitlines()]
    assert sorted(keys) == sorted(job_key(j) for j in jobs)


@settings(max_examples=40, deadline=None)
@given(
    xs=st.lists(st.integers(-1000, 1000), unique=True, max_size=30),
    cut=st.integers(0, 30),
    torn=st.booleans(),
)
def test_any_interruption_then_a_rerun_gives_every_result_once(xs, cut, torn):
    """Stop a run after any number of results (maybe mid-line), run again: the same results in
    the same order as one straight run, and every key exactly once in the file."""
    jobs = [{"x": x} for x in xs]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "run.jsonl"
        for done, _ in enumerate(run_jobs(_square, jobs, workers=1, out=out)):
            if done + 1 >= cut:
                break
        if torn:
            with out.open("a") as handle:
                handle.write('{"key": "half a li')
        again = list(run_jobs(_square, jobs, workers=1, out=out))
        assert again == list(run_jobs(_square, jobs, workers=1))
        keys = [json.loads(line)["key"] for line in out.read_text().splitlines()]
        assert sorted(keys) == sorted(job_key(j) for j in jobs)


def test_interrupt_message_says_how_to_resume(tmp_path):
    assert "run the same command again to resume" in str(BatchInterrupted(3, 10, tmp_path))
    assert "--out FILE" in str(BatchInterrupted(3, 10, None, "games"))


def test_ray_flag_may_stand_alone():
    assert expand_optional_values(["match", "a", "b", "--ray", "--games", "2"])[3] == "--ray="
    assert expand_optional_values(["--ray", "ray://head:10001"]) == ["--ray", "ray://head:10001"]


def _duel(*args: str, **kwargs) -> subprocess.Popen:
    code = "import sys; from duel.app.cli.main import main; sys.argv[0] = 'duel'; main()"
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


MATCH = ("match", "search:300", "random", "--games", "16", "--seed", "3", "--workers", "2")


def _lines(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


def _wait_for_lines(path: Path, count: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while _lines(path) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no results written"
        time.sleep(0.02)


def test_kill_9_then_the_same_command_resumes_losing_and_doubling_nothing(tmp_path):
    out = tmp_path / "match.jsonl"
    first = _duel(*MATCH, "--out", str(out), "--json")
    _wait_for_lines(out, 3, first)
    first.send_signal(signal.SIGKILL)  # kill -9 of the command, its workers left orphaned
    first.communicate()
    kept = _lines(out)
    assert 3 <= kept < 16, "the run was meant to be cut short"
    second = _duel(*MATCH, "--out", str(out), "--json")
    stdout, stderr = second.communicate(timeout=120)
    assert second.returncode == 0, stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    games = sorted(r["result"]["index"] for r in records)
    assert games == list(range(16))  # nothing lost, nothing doubled
    resumed = json.loads(stdout)
    straight = play_match("search:300", "random", games=16, seed=3, workers=1)
    for field in ("wins", "losses", "shared", "victories", "seat_a_wins"):
        assert resumed[field] == straight.to_json()[field]


def test_ctrl_c_stops_cleanly_and_says_how_to_resume(tmp_path):
    out = tmp_path / "match.jsonl"
    run = _duel(*MATCH, "--out", str(out), start_new_session=True)
    _wait_for_lines(out, 2, run)
    os.killpg(run.pid, signal.SIGINT)  # what a terminal sends the whole process group
    _, stderr = run.communicate(timeout=30)
    assert run.returncode == 130, stderr
    # Mostly the batch layer is running a game when Ctrl-C lands and says how far it got; on a
    # loaded machine it may land while the command prints a finished game, between two steps of
    # the batch layer's generator, and the command's own handler says it instead. Either way
    # one line says how to resume, and nothing is lost (the resume test above).
    batch = "interrupted after" in stderr and "run the same command again to resume" in stderr
    between = "interrupted; with --out FILE, the same command resumes" in stderr
    assert batch or between, stderr
    assert "Traceback" not in stderr


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip(
        "ray", reason="Ray is not installed (an optional extra: pip install -e '.[cluster]')"
    )
    import logging

    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.WARNING)
    yield ray
    ray.shutdown()


def test_ray_gives_the_same_results_as_the_local_pool(local_ray):
    pool = play_match("greedy", "random", games=6, seed=11, workers=2)
    ray_match = play_match("greedy", "random", games=6, seed=11, ray="")
    assert outcome(ray_match.games_list) == outcome(pool.games_list)
    jobs = match_jobs("random", "random", games=10, seed=2)

    def games(results):
        timing = ("seconds", "think_mean", "think_max", "load")
        return [{k: v for k, v in r.items() if k not in timing} for r in results]

    on_ray = games(run_jobs(play_match_game_json, jobs, ray="", chunksize=4))
    assert on_ray == games(run_jobs(play_match_game_json, jobs, workers=1))


def test_a_match_counts_its_seats_and_its_deal_pairs():
    """Games 2k and 2k + 1 share a deal with the seats swapped: the first player's score by seat
    and the deals it won twice, split or lost twice (a shared victory splits; a deal with one
    game yet is not counted)."""

    def game(index: int, winner: int | None) -> GameResult:
        return GameResult(index, index % 2, winner, "civilian", 60, 1.0)

    # deal 0: first player A wins, then as B wins; deal 1: wins as A, loses as B;
    # deal 2: loses both; deal 3: shared as A, wins as B; deal 4: one game only (a win as A)
    games = [game(0, 0), game(1, 1), game(2, 0), game(3, 0), game(4, 1), game(5, 0)]
    games += [game(6, None), game(7, 1), game(8, 0)]
    match = MatchResult("x", "y", 0, games)
    assert match.score_by_seat() == ((3.5, 5), (2.0, 4))
    assert match.deal_pairs() == (1, 2, 1)
    assert match.score == 5.5 / 9
