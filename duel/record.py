"""Game records: the moves of a game from the very start, chance outcomes included.

Replaying a record from a new game reproduces the final state exactly. The file is JSON with the
moves in the readable notation (``docs/record-format.md``).

>>> import random
>>> from duel import new_game
>>> state, moves = new_game(), []
>>> rng = random.Random(7)
>>> while not state.is_terminal():
...     move = state.random_move(rng)
...     moves.append(move)
...     state = state.apply(move)
>>> record = GameRecord(tuple(moves))
>>> GameRecord.from_json(record.to_json()).final_state() == state
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duel.catalog import AGE_NAMES, GUILDS, TOKENS, UnknownNameError, token_named
from duel.files import read_json_file, write_atomically
from duel.json_reader import JsonReader
from duel.moves import PLAYER_NAMES, Kind, Move, MoveParseError
from duel.position import PositionError
from duel.quote import quoted
from duel.reason import Reason, reason_of
from duel.state import IllegalMoveError, State, new_game

FORMAT = "7wd-record"
#: Version 2: the next Age's layout (guild deal, face-up reveals) comes before ``start X``.
#: Version 1 records have ``start X`` right after the last card of the Age; they are reordered
#: on reading (:func:`_parse_moves`).
VERSION = 2
READABLE_VERSIONS = (1, 2)
#: A game is about 150 moves (chance included); a record far longer is not a game.
MAX_MOVES = 2000
#: The Great Library's draw once its token is chosen: the two tokens not chosen go back to the
#: box unseen by the opponent, so a record keeps only the chosen one ("draw Law, ?, ?").
_REDACTED_DRAW = re.compile(r"draw\s+([^,?]+?)\s*,\s*\?\s*,\s*\?\s*", re.IGNORECASE)


class RecordError(ValueError):
    """A malformed record or one whose moves do not replay; the message says which move."""


#: The reader of a record's fields: errors are :class:`RecordError`\ s naming the field.
_READ = JsonReader(RecordError)


@dataclass(frozen=True)
class GameRecord:
    """A sequence of moves from the initial state, plus free-form metadata (players, date...)."""

    moves: tuple[Move, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)
    #: Indexes of The Great Library's draws read from a file: only their chosen token is true,
    #: the other two are placeholders (the first tokens of the box), so the choice between
    #: them must not be replayed (``duel play`` refuses to undo back to it).
    redacted: frozenset[int] = frozenset()

    def states(self) -> list[State]:
        """Every state of the game, from the new game to the last move."""
        state = new_game()
        out = [state]
        for i, move in enumerate(self.moves):
            try:
                state = state.apply(move)
            except IllegalMoveError as error:
                raise RecordError(
                    Reason(
                        "move {number} ({move}): {error}",
                        number=i + 1,
                        move=move,
                        error=reason_of(error),
                    )
                ) from None
            out.append(state)
        return out

    def final_state(self) -> State:
        return self.states()[-1]

    def append(self, move: Move) -> GameRecord:
        return GameRecord(self.moves + (move,), self.metadata, self.redacted)

    def truncated(self, length: int) -> GameRecord:
        return GameRecord(
            self.moves[:length], self.metadata, frozenset(i for i in self.redacted if i < length)
        )

    def notation(self) -> list[str]:
        """The moves as written to a file: a Great Library draw whose choice is made keeps
        only the chosen token.

        >>> from duel.catalog import token_named
        >>> drawn = ("Law", "Economy", "Urbanism")
        >>> draw = Move.library_draw(sum(1 << token_named(n) for n in drawn))
        >>> GameRecord((draw, Move.choose_token(token_named("Law")))).notation()
        ['draw Law, ?, ?', 'token Law']
        """
        out = []
        for i, move in enumerate(self.moves):
            chosen = self.moves[i + 1] if i + 1 < len(self.moves) else None
            if (
                move.kind is Kind.LIBRARY_DRAW
                and chosen is not None
                and chosen.kind is Kind.TOKEN
                and move.token_mask >> chosen.token & 1
            ):
                out.append(f"draw {TOKENS[chosen.token].name}, ?, ?")
            else:
                out.append(str(move))
        return out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        if self.metadata:
            out["metadata"] = self.metadata
        out["moves"] = self.notation()
        return out

    @staticmethod
    def from_json(data: Any) -> GameRecord:
        data = _READ.obj(data, Reason("a record is a JSON object"))
        _READ.format(data, FORMAT, default=FORMAT)
        expansions = data.get("expansions")
        if expansions:
            listed = expansions if isinstance(expansions, list) else [expansions]
            raise RecordError(
                Reason(
                    "a game with expansions ({names}): this command reads games without them"
                    " for now; duel show, duel hint and duel play --load read it",
                    names=", ".join(str(e)[:20] for e in listed[:3]),
                )
            )
        # No version: an old record (version 1's order is detected). A version written is a
        # readable number; type(): true == 1 and 1.0 == 1 in Python, but neither is a version.
        version = data.get("version")
        if "version" in data and (type(version) is not int or version not in READABLE_VERSIONS):
            readable = " and ".join(map(str, READABLE_VERSIONS))
            raise RecordError(
                Reason(
                    "version: this program reads versions {readable}, not {value}",
                    readable=readable,
                    value=quoted(version),
                )
            )
        moves_raw = _READ.moves(data, MAX_MOVES)
        metadata = _READ.metadata(data)
        moves, redacted = _parse_moves(moves_raw, version)
        return GameRecord(tuple(moves), metadata, frozenset(redacted))  # moves replayed

    def save(self, path: str | Path) -> None:
        """Write atomically: an interrupted save never destroys the previous file."""
        write_atomically(Path(path), json.dumps(self.to_json(), indent=1) + "\n")

    @staticmethod
    def load(path: str | Path) -> GameRecord:
        """Read a record file; every problem is a :class:`RecordError` naming the file."""
        data = read_json_file(path, RecordError)
        try:
            return GameRecord.from_json(data)
        except RecordError as error:
            raise RecordError(
                Reason("{path}: {error}", path=path, error=reason_of(error))
            ) from None
        except RecursionError:
            raise RecordError(
                Reason("{path}: nested too deeply to be a record", path=path)
            ) from None


def _parse_moves(moves_raw: list[Any], version: int | None) -> tuple[list[Move], list[int]]:
    """Moves from their notation, replayed to fill in redacted Great Library draws; returns the
    moves and the redacted draws' indexes.

    A record in the old order (version 1, or no version, with a ``start`` right after the last
    card of an Age) is put in the new order: the guild deal of a record that predates it is
    inserted (:func:`with_guild_deal`), and each ``start`` waits until the next structure is
    laid out (it is applied at ``choose_starter``).
    """
    parsed, hidden = _read_notation(moves_raw)
    items: list[tuple[Move, int | None]] = [(m, i) for i, m in enumerate(parsed)]
    old_order = version != 2 and starts_before_layout(parsed)
    if old_order:
        # The guild deal goes in before the replay: an old record does not replay without it.
        moves = with_guild_deal(parsed)
        if len(moves) > len(parsed):
            at = next((j for j, m in enumerate(parsed) if moves[j] is not m), len(parsed))
            items.insert(at, (moves[at], None))

    out: list[Move] = []
    redacted: list[int] = []
    pending: tuple[Move, int] | None = None  # an old record's start, waiting for the layout
    where: Reason | str
    state = new_game()
    for move, raw in items:
        if raw is None:
            where = Reason("moves[{i}] (inferred {move})", i=len(out), move=str(move))
        else:
            where = f"moves[{raw}] ({quoted(moves_raw[raw])})"
            if raw in hidden:
                try:
                    move = _placeholder_draw(state, hidden[raw])
                except MoveParseError as error:
                    raise RecordError(
                        Reason("{where}: {error}", where=where, error=reason_of(error))
                    ) from None
                redacted.append(len(out))
        if old_order and move.kind is Kind.STARTER and state.is_chance() and raw is not None:
            pending = (move, raw)
            continue
        state = _replay(state, move, raw, where)
        out.append(move)
        if pending is not None and state.phase == "choose_starter":
            state = _replay(state, pending[0], pending[1], "")
            out.append(pending[0])
            pending = None
    # An old record that stops while the next structure is being laid out loses its start: the
    # choice is made again, once the layout is complete (the rules' order).
    return out, redacted


def _replay(state: State, move: Move, raw: int | None, where: str) -> State:
    try:
        return state.apply(move)
    except IllegalMoveError as error:
        if raw is None:
            raise RecordError(
                Reason("{where}: {error}", where=where, error=reason_of(error))
            ) from None
        raise RecordError(
            Reason(
                "move {number} ({move}): {error}", number=raw + 1, move=move, error=reason_of(error)
            )
        ) from None


def starts_before_layout(moves: list[Move]) -> bool:
    """True if ``moves`` are in the old order (record version 1): a ``start`` right after the
    last card of an Age, before the next structure is laid out.

    In the new order a ``start`` always follows the last face-up card's reveal (a chance
    outcome); in the old order it follows the decision that took the Age's last card.

    >>> old = [Move.parse(m) for m in ("discard Tavern", "start A", "reveal slot 0 Sawmill")]
    >>> starts_before_layout(old), starts_before_layout([old[0], old[2], old[1]])
    (True, False)
    """
    return any(
        m.kind is Kind.STARTER and i > 0 and not moves[i - 1].is_chance for i, m in enumerate(moves)
    )


def _read_notation(moves_raw: list[Any]) -> tuple[list[Move], dict[int, int]]:
    """Moves parsed without replaying them, and the chosen token of each redacted draw by index.

    A redacted draw stands in the list as a draw of its chosen token and the two first other
    tokens until the replay knows which tokens were in the box.
    """
    moves: list[Move] = []
    hidden: dict[int, int] = {}
    for i, text in enumerate(moves_raw):
        if not isinstance(text, str):
            raise RecordError(
                Reason(
                    "moves[{i}]: expected a move in notation, got {value}", i=i, value=quoted(text)
                )
            )
        draw = _REDACTED_DRAW.fullmatch(text)
        try:
            if draw:
                chosen = token_named(draw.group(1))
                others = [t for t in range(len(TOKENS)) if t != chosen][:2]
                move = Move.library_draw(sum(1 << t for t in (chosen, *others)))
            else:
                move = Move.parse(text)
        except (MoveParseError, UnknownNameError) as error:
            raise RecordError(
                Reason(
                    "moves[{i}] ({value}): {error}", i=i, value=quoted(text), error=reason_of(error)
                )
            ) from None
        if draw:
            following = moves_raw[i + 1] if i + 1 < len(moves_raw) else None
            token = f"token {TOKENS[chosen].name}"
            if not isinstance(following, str) or _safe_parse(following) != Move.parse(token):
                raise RecordError(
                    Reason(
                        "moves[{i}] ({value}): a draw with hidden tokens must be followed by the "
                        "choice of its token ({token})",
                        i=i,
                        value=quoted(text),
                        token=repr(token),
                    )
                )
            hidden[i] = chosen
        moves.append(move)
    return moves, hidden


def _placeholder_draw(state: State, chosen: int) -> Move:
    box = state.box_tokens
    if state.phase != "library_draw" or chosen not in box:
        raise MoveParseError(
            Reason("{token} cannot be drawn by The Great Library here", token=TOKENS[chosen].name)
        )
    others = [t for t in box if t != chosen][:2]
    return Move.library_draw(sum(1 << t for t in (chosen, *others)))


def _safe_parse(text: str) -> Move | None:
    try:
        return Move.parse(text)
    except MoveParseError:
        return None


def with_guild_deal(moves: list[Move]) -> list[Move]:
    """``moves`` with the Age III guild deal added if the record predates it.

    Records written before guild backs were public go from ``start X`` (the Age III starter)
    straight to ``reveal slot ...``. The deal is inferred from where the guilds were revealed:
    when the reveals show all three guild slots, or the slots never revealed are exactly the
    guilds not yet seen. Otherwise the record cannot be read; the message says which move to add.

    >>> from duel.moves import Move
    >>> old = [Move.parse(m) for m in ("start A", "reveal slot 0 Arsenal")]
    >>> with_guild_deal(old[:1]) == old[:1]  # nothing after the start: the deal is still to come
    True
    """
    starts = [i for i, m in enumerate(moves) if m.kind is Kind.STARTER]
    if len(starts) < 2:
        return moves
    at = starts[1] + 1  # Age I ends with the first starter choice, Age II with the second
    if at >= len(moves) or moves[at].kind is Kind.DEAL_GUILDS:
        return moves
    reveals = [m for m in moves[at:] if m.kind is Kind.REVEAL_CARD]
    guilds = sorted({m.slot for m in reveals if GUILDS >> m.card & 1})
    unrevealed = sorted(set(range(20)) - {m.slot for m in reveals})
    if len(guilds) + len(unrevealed) == 3:
        guilds += unrevealed
    if len(guilds) != 3:
        missing = 3 - len(guilds)
        shown = f" {' '.join(map(str, guilds))}" if guilds else ""
        raise RecordError(
            Reason(
                "moves[{at}]: this record predates public guild backs and its Age III reveals "
                "show {n} of the 3 guild slots: insert 'guilds at slots{shown} ...' before "
                "moves[{at}] ({move}), naming the other {missing} among the slots never revealed "
                "({unrevealed})",
                at=at,
                n=len(guilds),
                shown=shown,
                move=str(moves[at]),
                missing=missing,
                unrevealed=", ".join(map(str, unrevealed)),
            )
        )
    return [*moves[:at], Move.deal_guilds(guilds), *moves[at:]]


# --- the positions of a record -------------------------------------------------------------------
class ReplayError(ValueError):
    """An index outside the game or a command that is not one."""


def mover(before: State, move: Move) -> str:
    """Who made ``move`` from ``before``: ``A``, ``B``, or ``chance`` for a chance outcome.

    A ``start`` move is the decision of the player to move (the one who chooses who begins)."""
    if move.is_chance or before.is_chance():
        return "chance"
    return PLAYER_NAMES[before.to_move]


@dataclass(frozen=True)
class Replay:
    """The positions of a record, computed once: ``states[n]`` follows the first ``n`` moves."""

    record: GameRecord
    states: tuple[State, ...]
    #: The moves as the record writes them: The Great Library's draw keeps only its chosen token
    #: (``draw Law, ?, ?``), as a file read back holds placeholders for the other two.
    notation: tuple[str, ...]

    @staticmethod
    def of(record: GameRecord) -> Replay:
        return Replay(record, tuple(record.states()), tuple(record.notation()))

    @property
    def moves(self) -> tuple[Move, ...]:
        return self.record.moves

    @property
    def last(self) -> int:
        """The index of the last position (the number of moves)."""
        return len(self.record.moves)

    def check(self, index: int) -> int:
        """``index`` if it is a position of the game, else a :class:`ReplayError`."""
        if not 0 <= index <= self.last:
            raise ReplayError(
                Reason(
                    "no move {index}: the game has moves 0 to {last}", index=index, last=self.last
                )
            )
        return index

    def index(self, at: int) -> int:
        """The position ``at`` names (negative counts from the end, as in Python), else a
        :class:`ReplayError` naming ``at`` as typed and the range (tests/test_record.py)."""
        if not -(self.last + 1) <= at <= self.last:
            raise ReplayError(
                Reason(
                    "no move {index}: the game has moves 0 to {last} (-1 to {first} from the end)",
                    index=at,
                    last=self.last,
                    first=-(self.last + 1),
                )
            )
        return at if at >= 0 else at + self.last + 1

    def state(self, index: int) -> State:
        """The position after ``index`` moves (negative counts from the end, as in Python)."""
        return self.states[self.index(index)]

    def move_text(self, number: int) -> str:
        """``B build Baths`` for move ``number`` (1-based: the move that leads to index
        ``number``); a chance outcome reads ``chance: reveal slot 9 Baths``."""
        if not 1 <= number <= self.last:
            raise ReplayError(
                Reason(
                    "no move {number}: the game has moves 1 to {last}",
                    number=number,
                    last=self.last,
                )
            )
        move = self.moves[number - 1]
        who = mover(self.states[number - 1], move)
        text = self.notation[number - 1]
        return f"{who}: {text}" if who == "chance" else f"{who} {text}"

    def move_line(self, number: int) -> str:
        """``12. B build Baths``: the move list's line for move ``number``."""
        return f"{number}. {self.move_text(number)}"

    def age_marks(self) -> dict[int, str]:
        """Move numbers where an Age begins (``{31: "Age I", ...}``), for the move list: the
        first move made in it (Age II and III: the first card of its layout turned over; the
        move that took the last card of the Age before belongs to that Age)."""
        marks = {}
        for n in range(1, self.last + 1):
            age = self.states[n - 1].age
            if age and (n == 1 or self.states[n - 2].age != age):
                marks[n] = AGE_NAMES[age]
        return marks


__all__ = ["GameRecord", "PositionError", "RecordError", "Replay", "ReplayError", "mover"]
