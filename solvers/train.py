"""Training the learned value (:mod:`duel.solvers.value`): self-play, fit, validate, ship weights.

The pipeline, each step a subcommand of ``python -m duel.solvers.train``:

1. ``generate``: self-play games by a *teacher* (``greedy`` one-ply or ``search`` with a node
   budget, over the hand-made evaluation ``v1`` or a learned model), with a fraction
   ``epsilon`` of uniformly random moves for variety, in local worker processes. Each game is
   one JSON line: the seed, every move (chance included) and the winner, so positions are
   replayed exactly later and the features can change without new games.
2. ``fit``: every position of the games that is a decision or follows one, labelled with the
   game's result (1 if A won, 0 if B won, 1/2 shared), or with ``--search-weight w`` a mix of
   it and what a ``cmcts`` teacher's search valued the position at (recorded with each game's
   decisions as ``values``: a target with less noise than one result per game). Games are
   split by ``index % 5``: 0-2 fit the weights, 3 calibrates them, 4 is held out. One
   L2-regularised logistic regression per stage (Newton's method, numpy), the two taper weight
   vectors fitted jointly, then each stage's weights multiplied by the factor that fits the
   calibration games' results best
   (temperature scaling: positions of one game share its result, so the raw fit is
   overconfident on new games). Reports log loss, Brier score and a calibration table
   by deciles on the held-out positions, next to the same figures for the hand-made
   evaluation, and writes the weights (``--out``, default the package's
   ``data/models/value.json``).
3. ``recipe``: the exact sequence that produced the shipped weights (see ``docs/strength.md``).

Everything is seeded: the same command gives the same games and the same weights (workers
only change the speed: :mod:`duel.solvers.batch` merges results in game order, and an interrupted
``generate`` resumes where it stopped when run again).

>>> records = generate(Teacher("greedy", epsilon=0.2), games=2, seed=1, workers=1)
>>> [len(r["moves"]) > 50 for r in records]
[True, True]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from duel.solvers.features import N_FEATURES, STAGES, features, stage
from duel.solvers.value import ValueModel, value_function
from duel.state import GAME_OVER, PHASE, WINNER, State, new_game

__all__ = [
    "Teacher",
    "build_dataset",
    "calibration_table",
    "calibration_test",
    "fit",
    "generate",
    "main",
    "metrics",
]

HOLDOUT_MOD = 5  # index % 5: 0-2 fit the weights, 3 calibrates their scale, 4 is held out
CALIBRATION_FOLD, HOLDOUT_FOLD = 3, 4


# --- self-play -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Teacher:
    """Who plays the self-play games: ``kind`` "greedy" (one ply), "search" (``nodes`` per
    move) or "cmcts" (the compiled MCTS, ``nodes`` iterations per move: expert iteration, the
    strongest player teaching the value it leans on); ``value``: "v1" (hand-made evaluation),
    "learned" (the shipped model) or a weights file, for greedy and search; for cmcts the
    learned value it plays with (:class:`~duel.solvers.players.CMctsConfig`'s ``value``:
    ``cmcts``, ``search`` or a weights file; "v1" means its default); ``epsilon``: probability
    of a uniformly random move at each decision; ``prior_value``: for cmcts, the weights of its
    learned prior (``CMctsConfig.prior_value``: None for its default, empty for the value's own,
    ``cmcts-prior`` or a file), so the next generation of the prior learns from the search the
    last one guided."""

    kind: str = "greedy"
    nodes: int = 300
    epsilon: float = 0.05
    value: str = "v1"
    prior_value: str | None = None

    def label(self) -> str:
        if self.kind == "cmcts":
            value, prior = self.cmcts_value(), self.cmcts_prior() or "value"
            return f"cmcts:{self.nodes}/value={value}/prior={prior}/eps{self.epsilon:g}"
        budget = f":{self.nodes}" if self.kind == "search" else ""
        return f"{self.kind}{budget}/{self.value}/eps{self.epsilon:g}"

    def cmcts_value(self) -> str:
        """The learned value a cmcts teacher plays with."""
        from duel.solvers.players import CMctsConfig

        return CMctsConfig().value if self.value == "v1" else self.value

    def cmcts_prior(self) -> str:
        """The learned prior's weights a cmcts teacher plays with (empty: its value's)."""
        from duel.solvers.players import CMctsConfig

        return CMctsConfig().prior_value if self.prior_value is None else self.prior_value


def _player(teacher: Teacher, seed: int):
    from duel.solvers.players import CMctsConfig, CMctsPlayer, GreedyPlayer, SearchPlayer

    if teacher.kind == "cmcts":
        config = CMctsConfig(value=teacher.cmcts_value(), prior_value=teacher.cmcts_prior())
        return CMctsPlayer(seed, time_per_move=None, iterations=teacher.nodes, config=config)
    value_fn = value_function(teacher.value)
    if teacher.prior_value is not None:
        raise ValueError("a prior (--prior-value) is for the cmcts teacher only")
    if teacher.kind == "greedy":
        return GreedyPlayer(seed, value_fn=value_fn)
    if teacher.kind == "search":
        return SearchPlayer(seed, time_per_move=None, nodes=teacher.nodes, value_fn=value_fn)
    raise ValueError(f"unknown teacher {teacher.kind!r}: expected greedy, search or cmcts")


def play_selfplay_game(job: dict) -> dict:
    """One self-play game (``job``: teacher fields, generation seed, game index) as a record."""
    teacher = Teacher(**job["teacher"])
    seed, index = job["seed"], job["index"]
    start = time.process_time()
    rng = random.Random(seed * 1_000_003 + index)
    players = [_player(teacher, seed * 7919 + 2 * index + seat) for seat in (0, 1)]
    state = new_game()
    moves: list[int] = []
    values: list[list[float]] = []
    visits: list[list] = []
    while state.fields[PHASE] != GAME_OVER:
        if state.is_chance():
            move = state.sample_chance(rng)
        elif rng.random() < teacher.epsilon:
            move = state.random_move(rng)
        else:
            player = players[state.to_move]
            move = player.choose(state)
            value = searched_value(player, state, int(move))
            if value is not None:
                values.append([len(moves), round(value, 5)])
            shares = searched_visits(player)
            if shares is not None:
                visits.append([len(moves), shares])
        moves.append(int(move))
        state = state.apply(move, check=False)
    record = {
        "seed": seed,
        "index": index,
        "teacher": teacher.label(),
        "moves": moves,
        "winner": state.fields[WINNER],
        "cpu": round(time.process_time() - start, 4),
    }
    if teacher.kind == "cmcts":
        record["values"] = values
        record["visits"] = visits
    return record


def searched_visits(player) -> list[list[int]] | None:
    """The root's visits of a ``cmcts`` teacher's last search, ``[[move, visits], ...]`` (the
    moves it visited), where it searched more than one move: the target of the learned prior
    (:mod:`duel.solvers.train_prior`). None elsewhere (a forced move, an exact answer)."""
    from duel.solvers.players import CMctsPlayer

    if not isinstance(player, CMctsPlayer) or not isinstance(player.last_info, dict):
        return None
    rows = [[int(m), int(n)] for m, n, _ in player.last_info["moves"] if n]
    return rows if len(rows) > 1 else None


def searched_value(player, state: State, move: int) -> float | None:
    """What a ``cmcts`` teacher's search valued the move it chose at, for A: the root mean of
    the move, or the exact value where the exact solver answered; None where it did not search
    (a forced move) or for another teacher. A target with less noise than the game's result
    (``fit --search-weight``)."""
    from duel.solvers.players import CMctsPlayer
    from duel.solvers.search import AnalysisInfo

    if not isinstance(player, CMctsPlayer):
        return None
    info = player.last_info
    if isinstance(info, AnalysisInfo):
        return float(info.value.a) if info.exact else None
    if not isinstance(info, dict):
        return None
    for row_move, visits, mean in info["moves"]:
        if row_move == move and visits:
            return float(mean) if state.to_move == 0 else 1.0 - float(mean)
    return None


def generate(
    teacher: Teacher,
    *,
    games: int,
    seed: int,
    workers: int = 1,
    first_index: int = 0,
    resume_file: str | Path | None = None,
) -> list[dict]:
    """``games`` self-play records (indices ``first_index``...), reproducible from ``seed``,
    played by :func:`duel.solvers.batch.run_jobs` (``resume_file``: its resumable results file)."""
    from duel.solvers.batch import run_jobs

    jobs = [
        {"teacher": asdict(teacher), "seed": seed, "index": first_index + i} for i in range(games)
    ]
    return list(run_jobs(play_selfplay_game, jobs, workers=workers, out=resume_file, label="games"))


def read_records(paths: Iterable[str | Path]) -> list[dict]:
    records = []
    for path in paths:
        p = Path(path)
        if not p.is_file():
            raise SystemExit(f"error: no game file {str(p)!r}")
        with p.open(encoding="utf-8") as fh:
            records.extend(json.loads(line) for line in fh if line.strip())
    return records


# --- data set ------------------------------------------------------------------------------------
def result_label(winner: int) -> float:
    """1 if A won, 0 if B won, 1/2 for a shared victory."""
    return 1.0 if winner == 0 else 0.0 if winner == 1 else 0.5


def positions(record: dict) -> Iterator[State]:
    """The positions of a game that the value is asked about: decisions and what follows one.

    Chance nodes in a row (an Age's opening deal) are skipped but for the first."""
    for _, state in indexed_positions(record):
        yield state


def indexed_positions(record: dict) -> Iterator[tuple[int, State]]:
    """:func:`positions` with the index in ``record["moves"]`` of the decision each is or
    follows (the decision whose searched value, if recorded, is the position's value too)."""
    state = new_game()
    after_decision = False
    for i, move in enumerate(record["moves"]):
        if not state.is_chance():
            yield i, state
        elif after_decision:
            yield i - 1, state
        after_decision = not state.is_chance()
        state = state.apply(move, check=False)


def build_dataset(records: list[dict], with_v1: bool = True, search_weight: float = 0.0):
    """Arrays for fitting: features ``X`` (n x K, int16), ``stage``, ``taper``, label ``y`` (the
    game's result), ``target`` (what the weights are fitted to: ``y``, or where the teacher's
    search valued the position, ``(1 - search_weight) * y + search_weight * value``),
    ``searched`` (those positions), ``game`` (record number), ``fold`` (game index % 5) and
    ``v1`` (the hand-made evaluation).

    >>> record = {"moves": [], "winner": 0, "index": 0, "values": []}
    >>> build_dataset([record])["y"].shape
    (0,)
    """
    import numpy as np

    from duel.solvers.search import evaluate

    if not 0.0 <= search_weight <= 1.0:
        raise ValueError(f"the search weight must be within 0..1, not {search_weight}")
    rows, stages, tapers, ys, targets, searched_rows, games, hold, v1 = ([] for _ in range(9))
    for g, record in enumerate(records):
        y = result_label(record["winner"])
        fold = record["index"] % HOLDOUT_MOD
        searched = {int(i): float(v) for i, v in record.get("values", ())} if search_weight else {}
        for i, state in indexed_positions(record):
            s, num, den = stage(state.fields)
            rows.append(features(state))
            stages.append(s)
            tapers.append(num / den)
            ys.append(y)
            value = searched.get(i)
            targets.append(y if value is None else (1 - search_weight) * y + search_weight * value)
            searched_rows.append(value is not None)
            games.append(g)
            hold.append(fold)
            if with_v1:
                v1.append(evaluate(state))
    return {
        "X": np.array(rows, dtype=np.int16).reshape(-1, N_FEATURES),
        "stage": np.array(stages, dtype=np.int8),
        "taper": np.array(tapers, dtype=np.float64),
        "y": np.array(ys, dtype=np.float64),
        "target": np.array(targets, dtype=np.float64),
        "searched": np.array(searched_rows, dtype=bool),
        "game": np.array(games, dtype=np.int32),
        "fold": np.array(hold, dtype=np.int8),
        "v1": np.array(v1, dtype=np.float64),
    }


# --- fitting -------------------------------------------------------------------------------------
def _design(X, taper):
    import numpy as np

    x = X.astype(np.float64)
    t = taper[:, None]
    return np.hstack([(1.0 - t) * x, t * x])


def _newton_logistic(Z, y, l2: float, iterations: int = 30):
    """Weights minimising sum(log loss) + l2/2 * |w|^2 (no bias: the model is antisymmetric)."""
    import numpy as np

    n, k = Z.shape
    w = np.zeros(k)
    for _ in range(iterations):
        z = np.clip(Z @ w, -30.0, 30.0)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = Z.T @ (p - y) + l2 * w
        h = (Z * (p * (1.0 - p))[:, None]).T @ Z + l2 * np.eye(k)
        step = np.linalg.solve(h, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-7:
            break
    return w


def _scale_logits(z, y, iterations: int = 30) -> float:
    """The factor ``c`` minimising the log loss of ``sigmoid(c * z)`` (temperature scaling)."""
    import numpy as np

    c = 1.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(c * z, -30.0, 30.0)))
        grad = float(np.sum((p - y) * z))
        hess = float(np.sum(p * (1.0 - p) * z * z)) + 1e-9
        c -= grad / hess
        if abs(grad / hess) < 1e-9:
            break
    # A fit that means anything points the right way: a tiny or degenerate calibration set
    # must not flip or erase it.
    return min(max(c, 0.1), 10.0)


def fit(data: dict, l2: float = 1.0, rows=None, calibration_rows=None) -> ValueModel:
    """One logistic regression per stage on ``data`` (the ``rows`` mask, default all), fitted to
    ``data["target"]`` where it is given (else the results ``y``); then, if
    ``calibration_rows`` are given, each stage's logit is rescaled to fit those rows' results
    best (the fit is overconfident on new games: positions of one game share its result)."""
    import numpy as np

    rows = np.ones(len(data["y"]), dtype=bool) if rows is None else rows
    target = data.get("target", data["y"])
    w0, w1 = [], []
    for s in range(STAGES):
        sel = rows & (data["stage"] == s)
        if sel.sum() < 10:
            w0.append([0.0] * N_FEATURES)
            w1.append([0.0] * N_FEATURES)
            continue
        Z = _design(data["X"][sel], data["taper"][sel])
        scale = Z.std(axis=0)
        scale[scale < 1e-9] = 1.0  # a constant column (always 0): its weight stays 0
        w = _newton_logistic(Z / scale, target[sel], l2) / scale
        if calibration_rows is not None:
            cal = calibration_rows & (data["stage"] == s)
            if cal.sum() >= 10:
                z = _design(data["X"][cal], data["taper"][cal]) @ w
                w = w * _scale_logits(z, data["y"][cal])
        w0.append(w[:N_FEATURES].tolist())
        w1.append(w[N_FEATURES:].tolist())
    return ValueModel(w0, w1)


def predict(model: ValueModel, data: dict, rows=None):
    """The model's values for the rows of ``data`` (vectorised; equal to ``model(state)``)."""
    import numpy as np

    rows = np.ones(len(data["y"]), dtype=bool) if rows is None else rows
    X = data["X"][rows].astype(np.float64)
    st = data["stage"][rows]
    t = data["taper"][rows]
    w0 = np.array(model.w0)[st]
    w1 = np.array(model.w1)[st]
    x0 = (X * w0).sum(axis=1)
    x1 = (X * w1).sum(axis=1)
    z = x0 + (x1 - x0) * t
    z = np.clip(z, -30.0, 30.0)
    return 1.0 / (1.0 + np.exp(-z))


# --- validation ----------------------------------------------------------------------------------
def metrics(p, y) -> dict:
    """Brier score and log loss of predictions ``p`` against results ``y``."""
    import numpy as np

    q = np.clip(p, 1e-9, 1 - 1e-9)
    return {
        "positions": int(len(y)),
        "brier": float(np.mean((p - y) ** 2)),
        "log_loss": float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))),
    }


def calibration_table(p, y, bins: int = 10) -> list[dict]:
    """Per decile of the predicted value: positions, mean prediction, fraction won (shared = 1/2).

    >>> import numpy as np
    >>> calibration_table(np.array([0.05, 0.95]), np.array([0.0, 1.0]))[0]
    {'bin': '0.0-0.1', 'positions': 1, 'predicted': 0.05, 'won': 0.0}
    """
    import numpy as np

    idx = np.minimum((p * bins).astype(int), bins - 1)
    table = []
    for b in range(bins):
        sel = idx == b
        n = int(sel.sum())
        table.append(
            {
                "bin": f"{b / bins:.1f}-{(b + 1) / bins:.1f}",
                "positions": n,
                "predicted": round(float(p[sel].mean()), 4) if n else None,
                "won": round(float(y[sel].mean()), 4) if n else None,
            }
        )
    return table


def calibration_test(table: list[dict]) -> tuple[float, int, float]:
    """A calibration table read as a test (Hosmer-Lemeshow): the statistic
    ``sum n (won - predicted)^2 / (predicted (1 - predicted))`` over its non-empty bins, their
    number (the degrees of freedom, for predictions held out from their fit), and the chance of a
    statistic at least as large if every prediction were exactly calibrated. Where a largest
    decile gap depends on the luck of the smallest bin, this weighs each bin by its count.

    >>> chi2, bins, p = calibration_test([{"positions": 100, "predicted": 0.5, "won": 0.6}])
    >>> round(chi2, 6), bins, round(p, 4)  # 0.1 off with a standard error of 0.05: 2 sigma
    (4.0, 1, 0.0455)
    """
    import math

    chi2, bins = 0.0, 0
    for row in table:
        n, p = row["positions"], row["predicted"]
        if not n or p is None or not 0.0 < p < 1.0:
            continue
        chi2 += n * (row["won"] - p) ** 2 / (p * (1.0 - p))
        bins += 1
    if bins == 0:
        return 0.0, 0, 1.0
    # the chi-square survival function: 1 - P(bins / 2, chi2 / 2), P by its power series
    a, x = bins / 2.0, chi2 / 2.0
    if x == 0.0:
        return chi2, bins, 1.0
    term = total = 1.0 / a
    k = 0
    while term > 1e-16 * total:
        k += 1
        term *= x / (a + k)
        total += term
    lower = total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    return chi2, bins, max(0.0, 1.0 - lower)


def validate(model: ValueModel, data: dict) -> dict:
    """Held-out figures of ``model`` and of the hand-made evaluation on the same positions."""
    rows = data["fold"] == HOLDOUT_FOLD
    y = data["y"][rows]
    p = predict(model, data, rows)
    report = {"learned": metrics(p, y), "learned_calibration": calibration_table(p, y)}
    if len(data["v1"]):
        q = data["v1"][rows]
        report["v1"] = metrics(q, y)
        report["v1_calibration"] = calibration_table(q, y)
    return report


def format_report(report: dict) -> str:
    lines = []
    for name in ("learned", "v1"):
        if name not in report:
            continue
        m = report[name]
        lines.append(
            f"{name}: {m['positions']} held-out positions, Brier {m['brier']:.4f}, "
            f"log loss {m['log_loss']:.4f}"
        )
        lines.append("  bin        positions  predicted  won")
        for row in report[f"{name}_calibration"]:
            if row["positions"]:
                lines.append(
                    f"  {row['bin']}  {row['positions']:9d}  {row['predicted']:9.3f}  "
                    f"{row['won']:.3f}"
                )
    return "\n".join(lines)


# --- command line ---------------------------------------------------------------------------------
def _default_out() -> Path:
    from duel import data

    return Path(data.__file__).parent / "models" / "value.json"


def cmd_generate(args) -> None:
    teacher = Teacher(args.teacher, args.nodes, args.epsilon, args.value, args.prior_value)
    generate_to_file(
        args.out,
        lambda partial: generate(
            teacher,
            games=args.games,
            seed=args.seed,
            workers=args.workers,
            first_index=args.first,
            resume_file=partial,
        ),
        f"by {teacher.label()}",
        args.workers,
    )


def generate_to_file(
    out: str | Path, play, label: str, workers: int, what: str = "games"
) -> list[dict]:
    """Self-play records (or other records with a ``cpu`` field: ``what`` names them) into the
    JSON-lines file ``out``: ``play(partial)`` plays the games with the batch layer's results
    file ``partial``, so an interrupted run resumes from it; the game file itself is written
    whole at the end, so a file under the real name is always complete. Prints the count and
    the cost."""
    start = time.perf_counter()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    records = play(partial)
    with out.open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record, separators=(",", ":")) + "\n")
    partial.unlink(missing_ok=True)
    cpu = sum(r["cpu"] for r in records)
    print(
        f"{len(records)} {what} {label} -> {out}: "
        f"{cpu:.0f} s CPU, {time.perf_counter() - start:.0f} s wall, {workers} workers"
    )
    return records


def train(
    paths: list[str],
    l2: float,
    out: str | Path | None,
    quiet: bool = False,
    calibrate: bool = True,
    search_weight: float = 0.0,
) -> dict:
    """Fit on the games in ``paths`` (held-out games excluded), validate, write the weights.

    ``calibrate=False`` fits on the calibration games too and does not rescale.
    ``search_weight``: the share of the teacher's searched values in the target
    (:func:`build_dataset`); validation is always against the games' results."""
    start = time.process_time()
    records = read_records(paths)
    if not records:
        raise SystemExit("error: no games to learn from")
    data = build_dataset(records, search_weight=search_weight)
    fold = data["fold"]
    if calibrate:
        model = fit(
            data, l2=l2, rows=fold < CALIBRATION_FOLD, calibration_rows=fold == CALIBRATION_FOLD
        )
    else:
        model = fit(data, l2=l2, rows=fold != HOLDOUT_FOLD)
    report = validate(model, data)
    teachers: dict[str, int] = {}
    for r in records:
        teachers[r["teacher"]] = teachers.get(r["teacher"], 0) + 1
    model.meta = {
        "games": len(records),
        "teachers": teachers,
        "selfplay_cpu_seconds": round(sum(r["cpu"] for r in records), 1),
        "positions": int(len(data["y"])),
        "train_positions": int((fold < CALIBRATION_FOLD).sum()),
        "calibration_positions": int((fold == CALIBRATION_FOLD).sum()),
        "holdout_positions": int((fold == HOLDOUT_FOLD).sum()),
        "l2": l2,
        "search_weight": search_weight,
        "searched_positions": int(data["searched"].sum()),
        "calibrated": calibrate,
        "brier_holdout": round(report["learned"]["brier"], 5),
        "brier_holdout_v1": round(report["v1"]["brier"], 5),
        "fit_cpu_seconds": round(time.process_time() - start, 1),
    }
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        model.save(out)
    if not quiet:
        print(format_report(report))
        print(json.dumps(model.meta))
    report["meta"] = model.meta
    return report


def cmd_fit(args) -> None:
    report = train(
        args.games,
        args.l2,
        args.out or _default_out(),
        search_weight=args.search_weight,
    )
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


#: The recipe of the shipped weights: (file, teacher, games, seed), generated in this order.
#: The "{prev}" teacher uses weights fitted (l2 = PREV_L2, no calibration step) on the files
#: before it. The final fit uses ``--l2`` (default FINAL_L2).
RECIPE: tuple[tuple[str, Teacher, int, int], ...] = (
    ("gen0_greedy.jsonl", Teacher("greedy", epsilon=0.1, value="v1"), 4000, 1),
    ("gen1_search.jsonl", Teacher("search", nodes=300, epsilon=0.03, value="v1"), 2000, 2),
    ("gen2_learned.jsonl", Teacher("search", nodes=300, epsilon=0.03, value="{prev}"), 644, 3),
)
PREV_L2, FINAL_L2 = 300.0, 1000.0


def cmd_fit_prior(args) -> None:
    from duel.solvers.train_prior import DEFAULT_L2, train_prior

    train_prior(
        read_records(args.games),
        args.start,
        DEFAULT_L2 if args.l2 is None else args.l2,
        args.out,
        folds=HOLDOUT_MOD,
        holdout_fold=HOLDOUT_FOLD,
        epochs=args.epochs,
    )


def cmd_recipe(args) -> None:
    """Run the whole recipe into ``args.dir`` (files already there are reused)."""
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    done: list[str] = []
    for name, teacher, games, seed in RECIPE:
        path = folder / name
        if teacher.value == "{prev}":
            prev = folder / f"value_{len(done)}.json"
            train([str(p) for p in done], PREV_L2, prev, quiet=True, calibrate=False)
            teacher = Teacher(teacher.kind, teacher.nodes, teacher.epsilon, str(prev))
        if not path.exists():
            args2 = argparse.Namespace(
                teacher=teacher.kind,
                nodes=teacher.nodes,
                epsilon=teacher.epsilon,
                value=teacher.value,
                games=games,
                seed=seed,
                workers=args.workers,
                first=0,
                out=str(path),
            )
            cmd_generate(args2)
        done.append(str(path))
    report = train(done, args.l2, args.out or _default_out())
    (folder / "report.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m duel.solvers.train", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="self-play games to a JSON-lines file")
    g.add_argument("--teacher", choices=("greedy", "search", "cmcts"), default="greedy")
    g.add_argument(
        "--nodes", type=int, default=300, help="search nodes (cmcts: iterations) per move"
    )
    g.add_argument("--epsilon", type=float, default=0.05, help="random-move probability")
    g.add_argument(
        "--value",
        default="v1",
        help="v1, learned or a weights file; for cmcts: cmcts, search or a file (v1: default)",
    )
    g.add_argument(
        "--prior-value",
        default=None,
        help="cmcts: its prior's weights (cmcts-prior, a file, or '' for the value's own;"
        " default: the player's default)",
    )
    g.add_argument("--games", type=int, required=True)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--first", type=int, default=0, help="index of the first game")
    g.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    g.add_argument("--out", required=True)
    g.set_defaults(func=cmd_generate)
    f = sub.add_parser("fit", help="fit and validate on game files, write the weights")
    f.add_argument("games", nargs="+")
    f.add_argument("--l2", type=float, default=FINAL_L2)
    f.add_argument("--out", default=None, help="weights file (default: the package's)")
    f.add_argument("--report", default=None, help="write the validation report (JSON) here")
    f.add_argument(
        "--search-weight",
        type=float,
        default=0.0,
        help="share of the cmcts teacher's searched value in the target, 0..1 (the rest: the "
        "game's result); validated against results",
    )
    f.set_defaults(func=cmd_fit)
    fp = sub.add_parser(
        "fit-prior",
        help="fit the learned prior to a cmcts teacher's root visits (duel.solvers.train_prior)",
    )
    fp.add_argument("games", nargs="+")
    fp.add_argument(
        "--start", default="cmcts", help="the value it starts from: cmcts, search or a file"
    )
    fp.add_argument(
        "--l2", type=float, default=None, help="penalty on the change from --start (default 1e-5)"
    )
    fp.add_argument("--epochs", type=int, default=600, help="(600, the shipped prior's)")
    fp.add_argument("--out", required=True, help="weights file (CMctsConfig.prior_value)")
    fp.set_defaults(func=cmd_fit_prior)
    r = sub.add_parser("recipe", help="the whole pipeline of the shipped weights")
    r.add_argument("--dir", default="runs/value")
    r.add_argument("--l2", type=float, default=FINAL_L2)
    r.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    r.add_argument("--out", default=None)
    r.set_defaults(func=cmd_recipe)
    args = parser.parse_args(argv)
    if args.command == "generate" and args.games < 1:
        parser.error("--games must be at least 1")
    try:
        args.func(args)
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None


if __name__ == "__main__":
    main(sys.argv[1:])
