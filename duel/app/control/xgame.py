"""An expansion game without input or output (:class:`XGameControl`): the referee's state, the
players, the dealer, the save after every move (sealed while the game runs), undo
(:mod:`duel.app.control.xundo`) and hints (:func:`hint_lines`). The line mode
(:mod:`duel.app.line.xplay`) and the full screen (:mod:`duel.app.screen.xapp`) drive it.

The game is saved atomically after every move, to ``--record FILE`` or else to a file of its
own in the user's data folder (``duel-xgame-ID.json``), so a closed terminal loses nothing:
``duel play --load FILE`` continues it. While the game runs, the save's readable moves are each
move as the opponent of its player saw it (``seat a Greek Divinity on 3``), and the referee's
moves are sealed (:func:`duel.expansions.record.seal`) by a key kept apart, in the data folder's
``keys`` (:mod:`duel.app.control.xsaves`): opening the file tells no one a face-down card before
the rules reveal it. When the game ends the file becomes the full record (every private move
with its card, as a score sheet written after the game), which
:class:`duel.expansions.record.XRecord` replays, and the key is deleted.
"""

from __future__ import annotations

import contextlib
import random
import secrets
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from duel.app.control.game import autosave_places, save_somewhere
from duel.app.control.levels import MAX_SECONDS
from duel.app.control.saves import user_data_dir
from duel.app.control.xsaves import (
    XSAVE_NAME,
    forget_key,
    key_folders,
    read_save,
    redacted_draws,
    write_key,
)
from duel.app.i18n import tr, tr_error, tr_reason
from duel.app.text.typed import number
from duel.app.text.xboard import move_line
from duel.expansions import XMove, XState, new_xgame, observe
from duel.expansions.position import is_xposition
from duel.expansions.record import XRecord, XRecordError, save_in_progress
from duel.files import read_json_file
from duel.moves import PLAYER_NAMES, MoveParseError

HUMAN = "human"


#: The most iterations an expansion level (``mcts:500``) or ``duel hint --nodes`` may name (the
#: seconds: :data:`~duel.app.control.levels.MAX_SECONDS`, as every time budget).
MAX_ITERATIONS = 10_000_000


def _is_level(kind: object) -> bool:
    """``human`` or a level ``duel.solvers.xplayers.make_xplayer`` makes, with a budget in
    range: ``mcts:2s`` (more than 0 and at most :data:`MAX_SECONDS`), ``mcts:500`` (1 to
    :data:`MAX_ITERATIONS`)."""
    from duel.solvers.xplayers import make_xplayer

    if not isinstance(kind, str):
        return False
    if kind == HUMAN:
        return True
    budget = kind.partition(":")[2]
    try:
        make_xplayer(kind)
        if budget.endswith("s"):
            return 0 < float(budget[:-1]) <= MAX_SECONDS
        return not budget or 0 < int(budget) <= MAX_ITERATIONS
    except (ValueError, OverflowError):
        return False


def valid_think(value: object) -> float | None:
    """A save's ``think`` if it is a time budget in range (more than 0, at most a day)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= MAX_SECONDS:
        return float(value)
    return None


class XGameControl:
    """A game's control, apart from what draws it (the line mode below, the full-screen app of
    :mod:`duel.app.screen.xapp`): the referee state, the players, the dealer and the save."""

    def __init__(
        self,
        expansions: tuple[str, ...],
        seats: tuple[str, str],
        *,
        seed: int | None = None,
        think: float = 1.0,
        record: Path | None = None,
        notify: Callable[[str], None] = print,
        game: str | None = None,
    ) -> None:
        from duel.solvers.xplayers import make_xplayer

        self.state = new_xgame(expansions)
        self.expansions = expansions
        # Fair play without a seed: the operating system's randomness, drawn when the rules
        # reveal a card (a seed makes the deal reproducible, as in the base game).
        self.seed = seed
        self.dealer = random.Random(seed) if seed is not None else random.SystemRandom()
        self.seats = seats
        self.players = tuple(
            None if s == HUMAN else make_xplayer(s, seed=(seed or 0) + i, time_per_move=think)
            for i, s in enumerate(seats)
        )
        self.moves: list[XMove] = []
        self.public_moves: list[str] = []  # each move as the other player saw it
        #: Great Library draws read from a finished record: placeholders but for the chosen
        #: token (:class:`duel.expansions.record.XRecord`), so undo never goes back to them.
        self.redacted: frozenset[int] = frozenset()
        self.record_path = record
        self.saved_to: Path | None = None
        self.notify = notify
        self.think = think
        self.last_human: int | None = None
        self.game = game or secrets.token_hex(16)
        self._key: bytes | None = None
        self._key_kept = False  # written to a key folder
        self._key_warned = False
        self.saved_moves = 0  # how many moves the last good save holds

    @property
    def humans(self) -> list[int]:
        return [p for p in (0, 1) if self.players[p] is None]

    def _metadata(self) -> dict[str, Any]:
        metadata: dict[str, Any] = {
            "players": list(self.seats),
            "game": self.game,
            "think": self.think,
        }
        if self.seed is not None:
            metadata["seed"] = self.seed
        return metadata

    def _places(self) -> list[Path]:
        """Where to save, in order: where the game was saved last, ``--record``, then the
        autosave places (its own file in the data folder, home, temp). Every save tries them
        all again: a disk that filled (or a folder made read-only) loses no move that another
        place can keep."""
        default = autosave_places(user_data_dir() / XSAVE_NAME.format(id=self.game[:8]))
        places = [p for p in (self.saved_to, self.record_path) if p is not None] + default
        return list(dict.fromkeys(places))

    def save(self) -> Path | None:
        """Save the game (:meth:`_places`): in full once it is over; while it runs, every move
        as the opponent of its player saw it, and the referee's moves and the metadata sealed.
        The place, or ``None``; what went wrong is said through ``notify``: a save somewhere
        else than before, a move that could not be saved (with the last good save)."""
        if not self.moves:
            return None
        over = self.state.is_terminal()
        if over:
            record = XRecord(self.expansions, tuple(self.moves), self._metadata())

            def write(place: Path) -> None:
                record.save(place)
        else:
            key = self._game_key()
            meta = self._metadata()
            if self.redacted:  # placeholders among the sealed moves (under the seal's tag)
                meta["redacted"] = sorted(self.redacted)

            def write(place: Path) -> None:
                save_in_progress(place, self.expansions, self.moves, self.public_moves, meta, key)

        places = self._places()
        place, failures = save_somewhere(write, places)
        if place is None:
            self.notify(self._not_saved_text(failures[0] if failures else ""))
            return None  # the last save, if any, stays where it was (and is still named)
        if failures and place != self.saved_to:
            self.notify(
                tr("Game saved to {place} instead ({error}).", place=place, error=failures[0])
            )
        self.saved_to = place
        self.saved_moves = len(self.moves)
        if over:
            forget_key(self.game)
        return place

    def _not_saved_text(self, error: str) -> str:
        if self.saved_to is None:
            return tr(
                "Could not save move {n} ({error}); nothing is saved yet.",
                n=len(self.moves),
                error=error,
            )
        return tr(
            "Could not save move {n} ({error}); the last save, {place}, stops at move {saved}.",
            n=len(self.moves),
            error=error,
            place=self.saved_to,
            saved=self.saved_moves,
        )

    def _game_key(self) -> bytes:
        """This game's sealing key, kept apart from the saves (:func:`key_folders`). Never a
        reason not to save: until a key folder takes it, each save tries them again, and the
        screen says that the save cannot be continued by another run of the program yet."""
        if self._key is None:
            self._key = secrets.token_bytes(32)
        if not self._key_kept:
            failures = []
            for folder in key_folders():
                try:
                    write_key(folder / f"{self.game}.key", self._key)
                    self._key_kept = True
                    break
                except (OSError, ValueError) as error:
                    failures.append(f"{folder}: {getattr(error, 'strerror', None) or error}")
            if not self._key_kept and not self._key_warned:
                self._key_warned = True  # said once; each save still tries the folders
                self.notify(
                    tr(
                        "Could not keep the key to the face-down cards ({error}): the save "
                        "continues only while this program runs.",
                        error=failures[0],
                    )
                )
        return self._key

    @classmethod
    def resume(
        cls,
        path: Path,
        *,
        seats: tuple[str | None, str | None] = (None, None),
        think: float | None = None,
        notify: Callable[[str], None] = print,
    ) -> XGameControl:
        """Continue the game saved in ``path`` (its players unless ``seats`` names them);
        XRecordError saying why it cannot be."""
        record, key = read_save(path)
        meta = record.metadata
        saved = meta.get("players")
        if not (isinstance(saved, list) and len(saved) == 2 and all(map(_is_level, saved))):
            saved = [HUMAN, "mcts"]
        chosen = (seats[0] or saved[0], seats[1] or saved[1])
        seed = meta.get("seed") if type(meta.get("seed")) is int else None
        if think is None:
            think = valid_think(meta.get("think")) or 1.0
        if key is not None:  # in progress: an AI's face-down cards stay hidden from people
            for player in (0, 1):
                if saved[player] != HUMAN and chosen[player] == HUMAN:
                    raise XRecordError(
                        tr(
                            "{path}: {player} is an AI ({level}) in this game, and its "
                            "face-down cards are not for a person to see; continue with the "
                            "saved players or another AI level for {player}",
                            path=path,
                            player=PLAYER_NAMES[player],
                            level=saved[player],
                        )
                    )
        game = meta.get("game") if isinstance(meta.get("game"), str) else None
        control = cls(record.expansions, chosen, seed=seed, think=think, notify=notify, game=game)
        control._key = key
        control._key_kept = key is not None
        control.saved_to = path
        moves = record.moves
        if len(moves) - 1 in record.redacted:
            # A record that stops at The Great Library's draw (a game lost on time there)
            # hides all three tokens: the game goes on from before the draw, dealt again,
            # not from a choice between placeholders.
            moves = moves[:-1]
        for move in moves:
            state = control.state
            if state.is_chance() and seed is not None:
                state.sample_chance(control.dealer)  # the seeded dealer resumes where it was
            control.state = state.apply(move, check=False)
            control.moves.append(move)
            control.public_moves.append(str(observe(state, move, 1 - state.to_move)))
        control.redacted = frozenset(i for i in record.redacted if i < len(moves))
        if key is not None:  # a game resumed from a record, saved in progress since
            control.redacted |= redacted_draws(meta.get("redacted"), moves)
        written = record.notation()
        for index in control.redacted:  # the log shows what the record says, not placeholders
            control.public_moves[index] = written[index]
        control.saved_moves = len(control.moves)
        return control

    def play(self, move: XMove) -> None:
        """Apply ``move`` (legal: from the legal moves or checked by :meth:`read_move`)."""
        state = self.state
        self.state = state.apply(move, check=False)
        self.moves.append(move)
        self.public_moves.append(str(observe(state, move, 1 - state.to_move)))
        self.save()

    def saved_text(self) -> str:
        """The sentence after leaving a game unfinished: where it is and how to continue."""
        if self.saved_to is None:
            if self.moves:
                return tr("Game left unfinished: it could not be saved anywhere.")
            return tr("Game left unfinished.")
        again = f"duel play --load {shlex.quote(str(self.saved_to))}"
        if self.saved_moves < len(self.moves):
            return tr(
                "The last {lost} moves could not be saved: the last save, {place}, stops at "
                "move {saved}. Continue it with: {again}",
                lost=len(self.moves) - self.saved_moves,
                place=self.saved_to,
                saved=self.saved_moves,
                again=again,
            )
        return tr(
            "Game saved to {place}. Continue it with: {again}", place=self.saved_to, again=again
        )

    def advance(self) -> int | None:
        """Deal chance and play the AI's moves until a human decides (that player is returned)
        or the game ends (``None``)."""
        while not self.state.is_terminal():
            state = self.state
            if state.is_chance():
                self.play(state.sample_chance(self.dealer))
                continue
            player = state.to_move
            seat = self.players[player]
            if seat is None:
                return player
            move = seat.choose(state)
            self.notify(
                tr("{player} plays {move}", player=PLAYER_NAMES[player], move=self.public(move))
            )
            self.play(move)
        return None

    def needs_hand_over(self, player: int) -> bool:
        """Between two humans at one terminal: before each change of player."""
        needed = len(self.humans) == 2 and self.last_human not in (None, player)
        self.last_human = player
        return needed

    def view(self, player: int | None = None) -> XState:
        """What the screen may show: a human's view (the one to move between two humans)."""
        if player is None:
            player = self.humans[0] if len(self.humans) == 1 else self.state.to_move
        return self.state.view(player)

    def public(self, move: XMove) -> str:
        """What the human(s) may see of an AI's move."""
        if not self.humans:
            return str(move)
        return str(observe(self.state, move, self.humans[0]))

    def read_move(self, player: int, text: str) -> XMove | str:
        """The move typed (a number of the list or the notation), or why it is not one."""
        view = self.state.view(player)
        moves = view.legal_moves()
        text = text.strip()
        choice = number(text)
        if choice is not None:
            if 1 <= choice <= len(moves):
                return moves[choice - 1]
            return tr("Choose a number from 1 to {n}.", n=len(moves))
        try:
            move = XMove.parse(text)
        except MoveParseError as error:
            return str(error)
        reason = view.why_illegal(move)
        return move if reason is None else tr_reason(reason)

    def result(self) -> str:
        final = self.state
        outcome = (
            tr("Shared victory")
            if final.winner == 2
            else tr(
                "{player} wins ({victory})",
                player=PLAYER_NAMES[final.winner],
                victory=final.victory,
            )
        )
        return tr(
            "Game over: {result}, {a} to {b}.",
            result=outcome,
            a=final.score(0).total,
            b=final.score(1).total,
        )


def hint_lines(
    view: XState, seconds: float | None, top: int, seed: int = 0, nodes: int | None = None
) -> tuple[list[str], dict[str, Any]]:
    """The hint for the player to move in ``view`` (their own view), as lines and as JSON
    (:func:`duel.solvers.xhint.hint_lines`: a move that ends the game, an exact Age III
    endgame, else the ``cmcts`` search's calibrated estimates): ``nodes`` iterations if given,
    else ``seconds``."""
    from duel.solvers.xhint import hint_lines as expansion_hint_lines

    lines, data = expansion_hint_lines(
        view, seconds, top, seed, nodes, tr=tr, move_text=lambda m: move_line(view, m)
    )
    return list(lines), dict(data)


def open_xgame(
    expansions: tuple[str, ...],
    seats: tuple[str | None, str | None],
    *,
    seed: int | None = None,
    think: float | None = None,
    record: Path | None = None,
    load: Path | None = None,
    notify: Callable[[str], None] = print,
) -> XGameControl | None:
    """A new game with ``expansions``, or the one saved in ``load`` continued; ``seats`` are
    levels of ``duel.solvers.xplayers`` or ``human`` (default: a human as A against the default
    expansion level, ``cmcts`` where it is built, as B). ``None`` if it cannot start (a bad
    level, an unreadable save), the reason said through ``notify``."""
    from duel.solvers.xplayers import XLEVELS

    for seat in seats:
        if seat is not None and not _is_level(seat):
            notify(
                tr(
                    "{level}: expansion games are played by human, {levels} (mcts:Ss for at "
                    "most {seconds} seconds a move, mcts:N for 1 to {iterations} iterations)",
                    level=seat,
                    levels=", ".join(XLEVELS),
                    seconds=f"{MAX_SECONDS:,.0f}",
                    iterations=f"{MAX_ITERATIONS:,}",
                )
            )
            return None
    if load is not None:
        try:
            if is_xposition(read_json_file(load, XRecordError)):
                raise XRecordError(
                    tr(
                        "{path}: a position, not a saved game: duel hint and duel show read it",
                        path=load,
                    )
                )
            return XGameControl.resume(load, seats=seats, think=think, notify=notify)
        except XRecordError as error:
            notify(tr_error(error))
            return None
    from duel.solvers.xplayers import DEFAULT_XLEVEL

    chosen = (seats[0] or HUMAN, seats[1] or DEFAULT_XLEVEL)
    return XGameControl(
        expansions, chosen, seed=seed, think=think or 1.0, record=record, notify=notify
    )


def close_xgame(control: XGameControl, write: Callable[[str], None]) -> None:
    """After the game stopped (finished, left, a signal): a save that failed is tried once
    more, and ``write`` says the result or where the game is saved."""
    with contextlib.suppress(Exception):  # after a signal the terminal may be gone
        if control.saved_moves < len(control.moves):
            control.save()  # the last save failed: every place is tried once more
        write(control.result() if control.state.is_terminal() else control.saved_text())
