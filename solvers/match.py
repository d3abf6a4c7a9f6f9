"""Matches between two players, seats alternated, with a 95% confidence interval.

Game ``i`` seats the first player as A when ``i`` is even and as B when it is odd (A starts
Age I; in human games the first player wins about 54%). Chance is dealt by a generator seeded from
the match seed and the pair number, so games ``2k`` and ``2k + 1`` start from the same deal, and
each game's players are seeded from the match seed and the game number. A game depends on
nothing but its job (:func:`match_jobs`), so the games can be played in any order by any number
of worker processes (:mod:`duel.solvers.batch`) and the match is reproducible for players that are
(random, greedy, search with a node budget).

The score counts a win as 1 and a shared victory as 1/2. The 95% interval is Wilson's score
interval for that proportion over the games played.

>>> result = play_match("random", "random", games=4, seed=1)
>>> result.games, result.wins + result.losses + result.shared
(4, 4)
>>> play_match_game(match_jobs("random", "greedy", games=2, seed=1)[1]).first_seat
1
"""

from __future__ import annotations

import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from duel.solvers.players import make_player
from duel.state import State, new_game

__all__ = [
    "GameResult",
    "MatchResult",
    "match_jobs",
    "play_game",
    "play_match",
    "play_match_game",
    "play_match_game_json",
    "wilson_interval",
]


def wilson_interval(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``score`` observed over ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = score
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class GameResult:
    """One game of a match. ``think_mean``/``think_max``: the first and the second player's mean
    and longest time per decision with more than one legal move; ``load``: the machine's
    1-minute load average at the start and the end of the game (a timed match is only as fair
    as the cores it had). Files written before these fields existed read them as empty."""

    index: int
    first_seat: int  # the seat (0 = A, 1 = B) of the match's first player
    winner: int | None  # seat of the winner, None if shared
    victory: str
    moves: int
    seconds: float
    think_mean: tuple[float, ...] = ()
    think_max: tuple[float, ...] = ()
    load: tuple[float, ...] = ()

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> GameResult:
        data = dict(data)
        for key in ("think_mean", "think_max", "load"):
            data[key] = tuple(data.get(key, ()))
        return cls(**data)

    @property
    def first_player_score(self) -> float:
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == self.first_seat else 0.0


@dataclass
class MatchResult:
    first: str
    second: str
    seed: int
    games_list: list[GameResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.games_list)

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games_list if g.first_player_score == 1.0)

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games_list if g.first_player_score == 0.0)

    @property
    def shared(self) -> int:
        return sum(1 for g in self.games_list if g.winner is None)

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.shared) / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.score, self.games)

    def victories(self) -> dict[str, Counter]:
        """Victory types of the first player's wins, of its losses, and of shared results."""
        out = {"wins": Counter(), "losses": Counter(), "shared": Counter()}
        for g in self.games_list:
            s = g.first_player_score
            key = "wins" if s == 1.0 else "losses" if s == 0.0 else "shared"
            out[key][g.victory] += 1
        return out

    def seat_a_wins(self) -> int:
        return sum(1 for g in self.games_list if g.winner == 0)

    def score_by_seat(self) -> tuple[tuple[float, int], tuple[float, int]]:
        """The first player's points and games with seat A, then with seat B.

        >>> m = MatchResult("x", "y", 0, [GameResult(0, 0, 0, "civilian", 60, 1.0),
        ...                               GameResult(1, 1, None, "civilian", 60, 1.0)])
        >>> m.score_by_seat()
        ((1.0, 1), (0.5, 1))
        """
        points, games = [0.0, 0.0], [0, 0]
        for g in self.games_list:
            points[g.first_seat] += g.first_player_score
            games[g.first_seat] += 1
        return (points[0], games[0]), (points[1], games[1])

    def deal_pairs(self) -> tuple[int, int, int]:
        """Deals played twice with the seats swapped (games 2k and 2k + 1 share a deal, see
        :func:`play_match_game`): how many the first player won both times, split (anything
        between, shared victories included) and lost both times. A deal with one game played
        yet is left out."""
        by_deal: dict[int, list[float]] = {}
        for g in self.games_list:
            by_deal.setdefault(g.index // 2, []).append(g.first_player_score)
        both = [sum(s) for s in by_deal.values() if len(s) == 2]
        won, lost = both.count(2.0), both.count(0.0)
        return won, len(both) - won - lost, lost

    def to_json(self) -> dict:
        lo, hi = self.interval
        return {
            "first": self.first,
            "second": self.second,
            "seed": self.seed,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "shared": self.shared,
            "score": self.score,
            "ci95": [lo, hi],
            "ci_method": "Wilson score interval, shared victory = 1/2",
            "victories": {k: dict(v) for k, v in self.victories().items()},
            "seat_a_wins": self.seat_a_wins(),
            "seconds": sum(g.seconds for g in self.games_list),
            "games_list": [g.to_json() for g in self.games_list],
        }

    def summary(self) -> list[str]:
        lo, hi = self.interval
        v = self.victories()

        def kinds(c: Counter) -> str:
            return ", ".join(f"{k} {c[k]}" for k in ("civilian", "military", "science") if c[k])

        lines = [
            f"{self.first} vs {self.second}: {self.games} games (seed {self.seed}), seats"
            " alternated",
            f"  {self.first}: {self.wins} wins, {self.losses} losses, {self.shared} shared",
            f"  score {100 * self.score:.1f}%  (95% CI {100 * lo:.1f}-{100 * hi:.1f}%, Wilson)",
        ]
        if self.wins:
            lines.append(f"  wins by: {kinds(v['wins'])}")
        if self.losses:
            lines.append(f"  losses by: {kinds(v['losses'])}")
        lines.append(f"  seat A won {self.seat_a_wins()} of {self.games}")
        timed = [g for g in self.games_list if g.think_mean]
        if timed:
            for k, name in enumerate((self.first, self.second)):
                mean = sum(g.think_mean[k] for g in timed) / len(timed)
                slowest = max(g.think_max[k] for g in timed)
                lines.append(f"  {name}: {mean:.3f} s a move on average, slowest {slowest:.3f} s")
            loads = [x for g in timed for x in g.load]
            lines.append(f"  load (1 min) {min(loads):.2f} to {max(loads):.2f}")
        return lines


def play_game(
    players,
    rng: random.Random,
    state: State | None = None,
    think: tuple[list[float], list[float]] | None = None,
) -> tuple[State, int]:
    """Play to the end: ``players[seat].choose`` at decisions, ``rng`` deals chance; ``think``
    (one list per seat) gets the time of each decision that had more than one legal move."""
    state = new_game() if state is None else state
    moves = 0
    while not state.is_terminal():
        if state.is_chance():
            move = state.sample_chance(rng)
        else:
            start = time.perf_counter()
            move = players[state.to_move].choose(state)
            if think is not None and len(state.legal_moves()) > 1:
                think[state.to_move].append(time.perf_counter() - start)
            moves += 1
        state = state.apply(move, check=False)
    return state, moves


def match_jobs(
    first: str, second: str, *, games: int, seed: int = 0, time_per_move: float = 1.0
) -> list[dict]:
    """The games of a match as batch jobs (JSON), one per game, for :func:`play_match_game`."""
    return [
        {
            "match": [first, second],
            "seed": seed,
            "time_per_move": time_per_move,
            "game": i,
        }
        for i in range(games)
    ]


def play_match_game(job: dict) -> GameResult:
    """Play game ``job["game"]`` of a match; the result depends on the job alone."""
    first, second = job["match"]
    seed, i, think = job["seed"], job["game"], job["time_per_move"]
    first_seat = i % 2
    # Seeds from the match seed and the game number only (never from earlier games), so a
    # game played by any worker in any order is the same game.
    p1 = make_player(first, seed=(seed * 1_000_003 + i) * 2 + 1, time_per_move=think)
    p2 = make_player(second, seed=(seed * 1_000_003 + i) * 2 + 2, time_per_move=think)
    seats = (p1, p2) if first_seat == 0 else (p2, p1)
    rng = random.Random(seed * 1_000_003 + i // 2)
    load_start = os.getloadavg()[0]
    start = time.perf_counter()
    think: tuple[list[float], list[float]] = ([], [])
    final, moves = play_game(seats, rng, think=think)
    seconds = time.perf_counter() - start
    by_player = (think[first_seat], think[1 - first_seat])
    return GameResult(
        i,
        first_seat,
        final.winner,
        final.victory,
        moves,
        seconds,
        think_mean=tuple(round(sum(t) / len(t), 4) if t else 0.0 for t in by_player),
        think_max=tuple(round(max(t, default=0.0), 4) for t in by_player),
        load=(round(load_start, 2), round(os.getloadavg()[0], 2)),
    )


def play_match_game_json(job: dict) -> dict:
    """:func:`play_match_game` for the batch layer (results as JSON)."""
    return play_match_game(job).to_json()


def play_match(
    first: str,
    second: str,
    *,
    games: int,
    seed: int = 0,
    time_per_move: float = 1.0,
    on_game: Callable[[GameResult], None] | None = None,
    workers: int = 1,
    out: str | Path | None = None,
    ray: str | None = None,
    progress: bool | None = False,
) -> MatchResult:
    """Play ``games`` games between two levels (see :mod:`duel.solvers.players`), seats alternated.

    ``workers``, ``out`` (resumable JSON lines), ``ray`` and ``progress`` are those of
    :func:`duel.solvers.batch.run_jobs`; ``on_game`` sees every game in order, resumed ones too.
    The result is the same for any number of workers.
    """
    from duel.solvers.batch import run_jobs

    make_player(first, time_per_move=time_per_move)  # an unknown level fails here, not in a worker
    make_player(second, time_per_move=time_per_move)
    jobs = match_jobs(first, second, games=games, seed=seed, time_per_move=time_per_move)
    result = MatchResult(first, second, seed)
    for data in run_jobs(
        play_match_game_json,
        jobs,
        workers=workers,
        out=out,
        ray=ray,
        progress=progress,
        label=f"{first} vs {second} games",
    ):
        game = GameResult.from_json(data)
        result.games_list.append(game)
        if on_game is not None:
            on_game(game)
    return result
