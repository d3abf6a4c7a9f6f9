"""Every move of an expansion game reads back from its notation, and every record and
in-progress save of it reloads to an equal state (issue 61). Shared by
``tests/expansions/test_roundtrip.py`` (a CI-size sample) and ``benchmarks/xroundtrip.py`` (the
full count, with its figures)."""

from __future__ import annotations

import json
import random
import secrets
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from duel.expansions import XMove, new_xgame
from duel.expansions.record import XRecord, load_in_progress, save_in_progress
from duel.expansions.state import XState, observe

#: Chance outcomes read back at a node (the first ones and the one played): some nodes list
#: thousands (Treason's deals, the Conspiracy draws), whose notation is the same few forms.
CHANCE_SAMPLE = 30
#: In-progress saves reloaded per game (besides the finished record): a save after every move
#: would replay the game once per move.
SAVES_PER_GAME = 4


@dataclass
class Tally:
    """What a run checked."""

    games: int = 0
    positions: int = 0
    moves: int = 0  # notations read back (a move offered in several views counts each time)
    line_moves: int = 0  # moves the line mode offered a player, typed back and found legal
    records: int = 0
    saves: int = 0
    kinds: Counter = field(default_factory=Counter)
    by_variant: Counter = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        for name in ("games", "positions", "moves", "line_moves", "records", "saves"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.kinds.update(other.kinds)
        self.by_variant.update(other.by_variant)


def _reads_back(move: XMove, tally: Tally) -> None:
    text = str(move)
    again = XMove.parse(text)
    assert again == move, f"{text!r} reads back as {again!r}, not {move!r}"
    tally.moves += 1
    tally.kinds[move.kind] += 1


def _check_node(state: XState, played: XMove, tally: Tally) -> None:
    """Every decision of the referee and of both views, and a sample of the chance outcomes;
    the moves the line mode offers the player to move, typed back."""
    tally.positions += 1
    if state.is_chance():
        outcomes = [m for m, _ in state.chance_outcomes()[:CHANCE_SAMPLE]]
        for move in [*outcomes, played]:
            _reads_back(move, tally)
        for player in (0, 1):
            view = state.view(player)
            for move, _ in view.chance_outcomes()[:CHANCE_SAMPLE]:
                _reads_back(move, tally)
        return
    for move in state.legal_moves():
        _reads_back(move, tally)
    mover = state.view(state.to_move)
    for move in mover.legal_moves():  # the line mode's list
        typed = XMove.parse(str(move))
        assert mover.why_illegal(typed) is None, f"{move} offered but refused"
        tally.line_moves += 1
    watcher = state.view(1 - state.to_move)
    for move in watcher.legal_moves():  # the opponent's view of this decision
        _reads_back(move, tally)


#: Moves a "plots" game prefers: Agora's Conspiracies are rare in uniform play, and with them
#: the moves only they lead to (a Decree moved, cards swapped, a Wonder sabotaged...).
PLOT_KINDS = frozenset({"prepare", "trigger", "conspire"})


def _choose(state: XState, rng: random.Random, plots: bool) -> XMove:
    if plots and not state.is_chance() and rng.random() < 0.7:
        preferred = [m for m in state.legal_moves() if m.kind in PLOT_KINDS]
        if preferred:
            return rng.choice(preferred)
    return state.random_move(rng)


def assert_same_game(again: XRecord, record: XRecord) -> None:
    """``again`` (``record`` written and read back) replays the same game: the same moves but
    The Great Library's draws, written with only their chosen token and read back with
    placeholders (the same chosen token, other tokens from the box); every state equal but the
    choice's, where only the tokens offered differ."""
    assert len(again.moves) == len(record.moves)
    assert again.redacted == {i for i, m in enumerate(record.moves) if m.kind == "library_draw"}, (
        "every Great Library draw is written with its tokens hidden"
    )
    for i, (read, played) in enumerate(zip(again.moves, record.moves, strict=True)):
        if i in again.redacted:
            assert read.kind == "library_draw" and len(read.args[0]) == len(played.args[0])
            if i + 1 < len(record.moves):
                assert record.moves[i + 1].args[0] in read.args[0]
        else:
            assert read == played, f"move {i + 1}: {read} read back, {played} played"
    choices = {i + 1 for i in again.redacted}
    for i, (read, played) in enumerate(zip(again.states(), record.states(), strict=True)):
        assert read == played or i in choices, f"position {i} differs"


def check_game(
    seed: int, expansions: tuple[str, ...], plots: bool = False, folder: Path | None = None
) -> Tally:
    """Play a random game of ``expansions`` from ``seed`` (``plots``: Conspiracies preferred),
    checking every node; then its record and :data:`SAVES_PER_GAME` in-progress saves reload to
    equal states."""
    tally = Tally(games=1)
    tally.by_variant["+".join(expansions) + (" (plots)" if plots else "")] += 1
    rng = random.Random(seed)
    state = new_xgame(expansions)
    states, moves, public = [state], [], []
    while not state.is_terminal():
        move = _choose(state, rng, plots)
        _check_node(state, move, tally)
        shadow = observe(state, move, 1 - state.to_move)
        assert XMove.parse(str(shadow)) == shadow, str(shadow)
        public.append(str(shadow))
        moves.append(move)
        state = state.apply(move)
        states.append(state)
    record = XRecord(expansions, tuple(moves))
    again = XRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert_same_game(again, record)
    assert again.final_state() == state
    tally.records += 1
    key = secrets.token_bytes(32)
    with tempfile.TemporaryDirectory() if folder is None else _keep(folder) as where:
        path = Path(where) / f"save-{seed}.json"
        for count in sorted(rng.sample(range(1, len(moves) + 1), min(SAVES_PER_GAME, len(moves)))):
            save_in_progress(path, expansions, moves[:count], public[:count], {}, key)
            loaded = load_in_progress(json.loads(path.read_text()), key)
            assert loaded.moves == tuple(moves[:count])
            assert loaded.final_state() == states[count], f"save after {count} moves"
            tally.saves += 1
    return tally


class _keep:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __enter__(self) -> Path:
        return self.folder

    def __exit__(self, *_: object) -> None:
        return None


VARIANTS: tuple[tuple[str, ...], ...] = (("pantheon",), ("agora",), ("agora", "pantheon"))
