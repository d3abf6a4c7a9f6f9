"""``duel play --expansions pantheon``: a game with an expansion in the terminal, line by line.

Each player sees their own view only (:meth:`duel.expansions.XState.view`): the opponent's
Divinity seated face down shows as its Mythology, the card the opponent put back on a deck as
"a card". Between two humans at one terminal, a hand-over screen comes before each player's
turn, so that one player's private cards are off the screen when the other sits down.
Against an AI, the screen always shows the human's view; the AI reads its own view.

The game is saved atomically after every move, to ``--record FILE`` or else to a file of its
own in the user's data folder (``duel-xgame-ID.json``), so a closed terminal loses nothing:
``duel play --load FILE`` continues it. While the game runs, the save's readable moves are each
move as the opponent of its player saw it (``seat a Greek Divinity on 3``), and the referee's
moves are sealed (:func:`duel.expansions.record.seal`) by a key kept apart, in the data folder's
``keys``: opening the file tells no one a face-down card before the rules reveal it. When the
game ends the file becomes the full record (every private move with its card, as a score sheet
written after the game), which :class:`duel.expansions.record.XRecord` replays, and the key is
deleted.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import re
import secrets
import shlex
import stat
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from duel.app.cli.support import MAX_SECONDS, number, user_data_dir
from duel.app.control.game import autosave_places, save_somewhere
from duel.app.control.xundo import UNDO_WORDS, undo
from duel.app.i18n import N_, shown, tr, tr_error, tr_reason
from duel.catalog import AGE_NAMES
from duel.expansions import XMove, XState, new_xgame, observe, senate
from duel.expansions.agora import CHAMBERS
from duel.expansions.components import (
    MYTHOLOGIES,
    XCARDS,
    XTOKENS,
    XWONDERS,
    space_price,
    structure_of,
)
from duel.expansions.position import XPositionError, is_xposition, load_position
from duel.expansions.record import XRecord, XRecordError, load_in_progress, save_in_progress
from duel.expansions.table import HIDDEN, TAKEN, controller
from duel.moves import PLAYER_NAMES, MoveParseError
from duel.position import read_json_file
from duel.reason import Reason, reason_of

HUMAN = "human"
#: The most iterations an expansion level (``mcts:500``) or ``duel hint --nodes`` may name (the
#: seconds: :data:`~duel.app.cli.support.MAX_SECONDS`, as every time budget).
MAX_ITERATIONS = 10_000_000
#: The name of a game's save in the data folder when no ``--record`` is given.
XSAVE_NAME = "duel-xgame-{id}.json"
EXPANSION_TITLES = {"pantheon": N_("Pantheon"), "agora": N_("Agora")}
#: The hand-over's clearing: the screen (ED 2), the scrollback (ED 3: xterm, tmux, VTE,
#: kitty, Windows Terminal), the cursor home; so that the previous player's cards and hints
#: cannot be scrolled back to.
CLEAR = "\033[H\033[2J\033[3J"
_COLOURS = ("brown", "grey", "yellow", "blue", "green", "red", "purple")
_COLOUR_WORDS = {
    "brown": N_("brown"),
    "grey": N_("grey"),
    "yellow": N_("yellow"),
    "blue": N_("blue"),
    "green": N_("green"),
    "red": N_("red"),
    "purple": N_("purple"),
}


def _coins(n: int) -> str:
    return tr("{n} coin", n=n) if n == 1 else tr("{n} coins", n=n)


def _names(ids, table) -> str:
    return ", ".join(shown(table[i].name) for i in ids) or tr("none")


def _track(state: XState) -> str:
    cells = []
    for x in range(-9, 10):
        if x == state.pawn:
            cells.append("#")
        elif state.minerva is not None and x == state.minerva:
            cells.append("M")
        elif x == 0:
            cells.append("|")
        else:
            cells.append("·")
    loot = [n for i, n in enumerate(("A2", "A5", "B2", "B5")) if state.military >> i & 1]
    return tr(
        "Military: A {track} B   loot left: {tokens}",
        track=" ".join(cells),
        tokens=" ".join(loot) or tr("none"),
    )


def _space_line(state: XState, index: int) -> str:
    space = state.spaces[index]
    prices = tr("A pays {a}, B pays {b}", a=space_price(0, index + 1), b=space_price(1, index + 1))
    if space is None:
        what = tr("(empty)")
    elif space.divinity == "Gate":
        what = tr("the Gate (twice the price)")
    elif not space.face_up and space.divinity is None:
        what = tr(
            "a face-down Divinity ({mythology}), seated by {player}",
            mythology=shown(space.mythology),
            player=PLAYER_NAMES[space.owner],
        )
    elif not space.face_up:
        what = tr(
            "{divinity} ({mythology}), face down: yours",
            divinity=shown(space.divinity),
            mythology=shown(space.mythology),
        )
    else:
        what = f"{shown(space.divinity)} ({shown(space.mythology)})"
    return f"  {index + 1}  {what:50}  {prices}"


def _decks_line(state: XState) -> str:
    parts = []
    for i, mythology in enumerate(MYTHOLOGIES):
        known = [c.divinity for c in state.deck_tops[i] if c.divinity is not None]
        part = f"{shown(mythology)} {state.deck_size[i]}"
        if known:
            part += " (" + tr("top: {cards}", cards=", ".join(map(shown, known))) + ")"
        parts.append(part)
    return tr("Mythology decks: {decks}", decks="; ".join(parts))


def _structure_lines(state: XState) -> list[str]:
    if not state.age:
        return []
    lines = [tr("Structure of {age} (* takeable):", age=tr(AGE_NAMES[state.age]))]
    for row in structure_of(state.expansions, state.age).rows:
        cells = []
        for slot in row:
            card = state.pyramid[slot]
            if card == TAKEN:
                continue
            if card == HIDDEN:
                text = "[?]"
                if state.back_slots >> slot & 1:
                    text = "[" + tr("temple or guild") + "]"
                elif state.backs and state.backs[slot] == "senator":
                    text = "[" + tr("Senator") + "]"
            else:
                text = shown(XCARDS[card].name)
            if state.accessible >> slot & 1:
                text = "*" + text
            token = state.mythology_on.get(slot) or state.offering_on.get(slot)
            if token:
                text += " <" + (shown(token) if isinstance(token, str) else f"+{token}") + ">"
            cells.append(text)
        if cells:
            lines.append("   " + " | ".join(cells))
    return lines


def _city_lines(state: XState, player: int) -> list[str]:
    city = state.cities[player]
    score = state.score(player)
    coins = _coins(city.coins)
    if city.astarte:
        coins += " " + tr("(+{n} on Astarte)", n=city.astarte)
    lines = [f"{PLAYER_NAMES[player]}: {coins} · " + tr("{n} VP", n=score.total)]
    by_colour = []
    for colour in _COLOURS:
        ids = sorted(c for c in city.cards if XCARDS[c].color == colour)
        if ids:
            by_colour.append(f"{tr(_COLOUR_WORDS[colour])}: {_names(ids, XCARDS)}")
    lines.append("   " + ("; ".join(by_colour) or tr("no card yet")))
    built = [w for w, _ in city.built]
    lines.append(
        "   "
        + tr(
            "Wonders built: {built}; to build: {unbuilt}",
            built=_names(built, XWONDERS),
            unbuilt=_names(city.wonders, XWONDERS),
        )
    )
    extras = [tr("Progress tokens: {tokens}", tokens=_names(sorted(city.tokens), XTOKENS))]
    if city.science:
        extras.append(tr("science: {symbols}", symbols=", ".join(sorted(city.science))))
    if city.mythology:
        extras.append(
            tr("Mythology tokens: {tokens}", tokens=", ".join(map(shown, city.mythology)))
        )
    if city.offerings:
        extras.append(tr("Offerings: {values}", values=", ".join(f"-{v}" for v in city.offerings)))
    if city.divinities:
        extras.append(tr("Divinities: {names}", names=", ".join(map(shown, city.divinities))))
    if city.plots:
        extras.append(
            tr("Conspiracies: {plots}", plots=", ".join(_plot_text(p) for p in city.plots))
        )
    lines.append("   " + " · ".join(extras))
    return lines


def _plot_text(plot) -> str:
    name = plot.name if plot.name is not None else "?"
    if plot.used:
        return tr("{name} (triggered)", name=name)
    if plot.prepared:
        return tr("{name} (prepared)", name=name)
    return name


def _senate_lines(state: XState) -> list[str]:
    lines = [
        tr(
            "Senate (strictly more cubes controls a Chamber; cubes left: A {a}, B {b}):",
            a=senate.supply(state, 0),
            b=senate.supply(state, 1),
        )
    ]
    for chamber in CHAMBERS:
        a, b = state.senate[chamber.chamber - 1]
        owner = controller(state.senate, chamber.chamber)
        who = PLAYER_NAMES[owner] if owner is not None else "-"
        decrees = ", ".join(
            name if up else tr("a face-down Decree")
            for name, up in state.decrees[chamber.chamber - 1]
        )
        lines.append(
            f"  {chamber.chamber} ({chamber.points} VP)  A {a} · B {b}  → {who}   {decrees}"
        )
    lines.append(tr("Conspiracy deck: {n} cards", n=state.plot_size))
    return lines


def board_lines(state: XState) -> list[str]:
    """The table as ``state``'s observer sees it (a view: the opponent's secrets unknown)."""
    who = tr("chance") if state.is_chance() else PLAYER_NAMES[state.to_move]
    age = tr(AGE_NAMES[state.age]) if state.age else tr("setup")
    title = " + ".join(tr(EXPANSION_TITLES[e]) for e in state.expansions)
    lines = [
        tr("{expansions} · {age} · {player} to move", expansions=title, age=age, player=who),
        _track(state),
    ]
    lines.append(
        tr("Progress tokens on the board: {tokens}", tokens=_names(sorted(state.board), XTOKENS))
    )
    if state.pantheon:
        lines.append(tr("Pantheon (activate from Age II, instead of taking a card):"))
        lines.extend(_space_line(state, i) for i in range(len(state.spaces)))
        lines.append(_decks_line(state))
    if state.agora:
        lines.extend(_senate_lines(state))
    lines.extend(_structure_lines(state))
    for player in (0, 1):
        lines.extend(_city_lines(state, player))
    return lines


def move_line(state: XState, move: XMove) -> str:
    """A legal move with its price where it has one."""
    text = str(move)
    player = state.to_move
    if move.kind == "build":
        cost = state.card_cost(player, move.args[0])
        return text + (f"  ({_coins(cost)})" if cost else "")
    if move.kind == "wonder":
        cost = state.wonder_cost(player, move.args[0])
        return text + f"  ({_coins(cost)})"
    if move.kind == "activate":
        index = next(i for i, s in enumerate(state.spaces) if s and s.divinity == move.args[0])
        cost = max(0, state.activation_price(player, index + 1) - sum(move.args[1]))
        return text + f"  ({_coins(cost)})"
    return text


# --- saves --------------------------------------------------------------------------------------
def key_folders() -> list[Path]:
    """Where the keys that seal the saves may be kept, in order: the data folder's ``keys``,
    then (when that cannot be written: a full or read-only disk) a folder in the home folder,
    then one in the temporary folder. Each is made 0700; a key file is 0600."""
    user = getattr(os, "getuid", lambda: "user")()
    return [
        user_data_dir() / "keys",
        Path(os.path.expanduser("~")) / ".wonders-duel-keys",
        Path(tempfile.gettempdir()) / f"wonders-duel-keys-{user}",
    ]


def key_file(game: str) -> Path:
    """Where the key that seals the saves of game ``game`` is (apart from the saves): the first
    key folder that holds it, else the first key folder."""
    places = [folder / f"{game}.key" for folder in key_folders()]
    return next((place for place in places if place.is_file()), places[0])


def write_key(path: Path, key: bytes) -> None:
    """Write ``key`` to ``path`` readable by its owner only, whatever the umask: the file is
    created 0600 (never wider, not even for a moment) in a folder of ours made 0700, then
    renamed into place. OSError if the folder is a link or another user's."""
    folder = path.parent
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode):
        raise OSError(errno.ENOTDIR, f"{folder} is not a folder")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise OSError(errno.EPERM, f"{folder} belongs to another user")
    os.chmod(folder, 0o700)
    tmp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        try:
            os.write(fd, (key.hex() + "\n").encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def forget_key(game: str) -> None:
    """Delete game ``game``'s key wherever it is kept (the game is over: its record is full)."""
    for folder in key_folders():
        with contextlib.suppress(OSError):
            (folder / f"{game}.key").unlink(missing_ok=True)


def record_refusal(path: Path) -> str | None:
    """Why ``--record FILE`` will not write ``path`` without ``--force``: it holds something
    already (another game, or any file: a new game would replace it); ``None`` if it is free."""
    try:
        exists = path.exists() and path.stat().st_size > 0
    except (OSError, ValueError):
        return None  # the save says what is wrong with the place
    if not exists:
        return None
    if is_expansion_file(path):
        return tr(
            "--record: {path} holds another game; continue it with duel play --load {quoted}, "
            "or add --force to replace it",
            path=path,
            quoted=shlex.quote(str(path)),
        )
    return tr("--record: {path} exists; add --force to replace it", path=path)


def is_expansion_file(path: Path) -> bool:
    """Whether ``path`` holds an expansion game's record, save or position (a JSON object with
    a list of expansions); anything else goes to the base game's loaders and their messages."""
    try:
        data = read_json_file(path)
    except ValueError:
        return False
    return isinstance(data, dict) and (bool(data.get("expansions")) or is_xposition(data))


def read_save(path: Path) -> tuple[XRecord, bytes | None]:
    """The referee's record of an expansion game saved in ``path`` (in progress: unsealed with
    the key kept in the data folder) and that key; XRecordError naming the file and the
    problem."""
    data = read_json_file(path, XRecordError)
    meta = data.get("metadata") if isinstance(data, dict) else None
    try:
        # A save in progress is known by its sealed moves too: removing its in_progress mark
        # must not turn its public moves into a record played on without the seal.
        sealed = isinstance(data, dict) and "sealed" in data
        if not (sealed or (isinstance(meta, dict) and meta.get("in_progress"))):
            return XRecord.from_json(data), None
        if not isinstance(meta, dict):
            raise XRecordError(Reason("metadata: expected an object"))
        game = meta.get("game")
        if not isinstance(game, str) or not re.fullmatch(r"[0-9a-f]{32}", game):
            raise XRecordError(Reason("metadata: game: expected the game's id, 32 hex digits"))
        try:
            key = bytes.fromhex(key_file(game).read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            raise XRecordError(
                Reason(
                    "the key to its face-down cards is not in {folder}; a game in progress"
                    " continues only on the computer (and user) that saved it",
                    folder=key_file(game).parent,
                )
            ) from None
        return load_in_progress(data, key), key
    except XRecordError as error:
        raise XRecordError(Reason("{path}: {error}", path=path, error=reason_of(error))) from None
    except RecursionError:
        raise XRecordError(Reason("{path}: nested too deeply to be a record", path=path)) from None


def _redacted_draws(value: object, moves: Sequence[XMove]) -> frozenset[int]:
    """The indexes of The Great Library's draws a save in progress lists as placeholders (a
    game resumed from a finished record, which keeps only the chosen token): the ones that are
    draws followed by their choice."""
    if not isinstance(value, list):
        return frozenset()
    return frozenset(
        i
        for i in value
        if type(i) is int
        and 0 <= i < len(moves) - 1
        and moves[i].kind == "library_draw"
        and moves[i + 1].kind == "token"
    )


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
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return float(value) if number and 0 < value <= MAX_SECONDS else None


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

    def _metadata(self) -> dict:
        metadata: dict = {"players": list(self.seats), "game": self.game, "think": self.think}
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
            control.redacted |= _redacted_draws(meta.get("redacted"), moves)
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
            if self.players[player] is None:
                return player
            move = self.players[player].choose(state)
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


def _play_lines(
    control: XGameControl, read: Callable[[str], str], write: Callable[[str], None]
) -> int:
    """The line mode: the board and the numbered moves before each human decision; the exit
    code (0 the game is over, 1 left unfinished)."""
    while (player := control.advance()) is not None:
        if control.needs_hand_over(player):
            write(CLEAR if sys.stdout.isatty() else "")
            try:
                read(
                    tr(
                        "Pass the terminal to player {player}, then press Enter: ",
                        player=PLAYER_NAMES[player],
                    )
                )
            except (EOFError, KeyboardInterrupt):
                return 1  # the caller says where the game is saved
        view = control.view(player)
        write("\n".join(board_lines(view)))
        write(tr("Your moves, {player}:", player=PLAYER_NAMES[player]))
        for n, move in enumerate(view.legal_moves(), 1):
            write(f"  {n:3}  {move_line(view, move)}")
        while True:
            try:
                text = read(tr("Move (number, notation, hint, undo or quit): ")).strip()
            except (EOFError, KeyboardInterrupt):
                text = "quit"
            if text.lower() in ("quit", "q", "exit"):
                return 1  # the caller says where the game is saved
            if not text:
                continue
            if text.lower() == "hint":
                write("\n".join(hint_lines(view, control.think, 5)[0]))
                continue
            if text.lower() in UNDO_WORDS:
                write(undo(control))
                break
            move = control.read_move(player, text)
            if isinstance(move, str):
                write(move)
                continue
            control.play(move)
            break
    write("\n".join(board_lines(control.view())))
    return 0  # the caller says the result


def run_xgame(
    expansions: tuple[str, ...],
    seats: tuple[str | None, str | None],
    *,
    seed: int | None = None,
    think: float | None = None,
    record: Path | None = None,
    load: Path | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    screen: Callable[[XGameControl], int] | None = None,
) -> int:
    """Play a game with ``expansions`` (or continue the one saved in ``load``) line by line, or
    on ``screen`` (the full-screen app, :func:`duel.app.screen.xapp.run_xscreen`: the caller passes
    it, as the app builds on this module); ``seats`` are levels of ``duel.solvers.xplayers`` or
    ``human`` (default: a human as A against ``mcts`` as B). The exit code: 0 finished, 1 left
    unfinished (saved), 2 the game could not start, 128 + the signal that stopped it."""
    from duel.solvers.xplayers import XLEVELS

    for seat in seats:
        if seat is not None and not _is_level(seat):
            write(
                tr(
                    "{level}: expansion games are played by human, {levels} (mcts:Ss for at "
                    "most {seconds} seconds a move, mcts:N for 1 to {iterations} iterations)",
                    level=seat,
                    levels=", ".join(XLEVELS),
                    seconds=f"{MAX_SECONDS:,.0f}",
                    iterations=f"{MAX_ITERATIONS:,}",
                )
            )
            return 2
    if load is not None:
        try:
            if is_xposition(read_json_file(load, XRecordError)):
                raise XRecordError(
                    tr(
                        "{path}: a position, not a saved game: duel hint and duel show read it",
                        path=load,
                    )
                )
            control = XGameControl.resume(load, seats=seats, think=think, notify=write)
        except XRecordError as error:
            write(tr_error(error))
            return 2
    else:
        chosen = (seats[0] or HUMAN, seats[1] or "mcts")
        control = XGameControl(
            expansions, chosen, seed=seed, think=think or 1.0, record=record, notify=write
        )
    # Every move is saved as it is played: a signal (the terminal closed, a kill) loses
    # nothing, and the message says where the game is. The full-screen app catches the
    # signals in its event loop.
    if screen is not None:
        code = screen(control)
    else:
        from duel.app.cli.support import Signalled, signals_save_the_game

        try:
            with signals_save_the_game():
                code = _play_lines(control, read, write)
        except Signalled as stop:
            code = 128 + stop.signum
        except KeyboardInterrupt:  # Ctrl-C while the AI thinks (at a prompt it is "quit")
            code = 130
    with contextlib.suppress(Exception):  # after a signal the terminal may be gone
        if control.saved_moves < len(control.moves):
            control.save()  # the last save failed: every place is tried once more
        write(control.result() if control.state.is_terminal() else control.saved_text())
    return code


def hint_lines(
    view: XState, seconds: float | None, top: int, seed: int = 0, nodes: int | None = None
) -> tuple[list[str], dict]:
    """The search's best moves for the player to move in ``view`` (their own view), as lines and
    as JSON: ``nodes`` iterations if given, else ``seconds``."""
    from duel.solvers.xplayers import search

    if nodes is not None:
        result = search(view, iterations=nodes, seed=seed)
    else:
        result = search(view, seconds=seconds, seed=seed)
    ranked = sorted(result.moves, key=lambda m: (m[1], m[2]), reverse=True)[:top]
    player = PLAYER_NAMES[view.to_move]
    note = tr(
        "Monte Carlo tree search, {n} simulated games in {time} s; estimates",
        n=f"{result.iterations:,}",
        time=f"{result.seconds:.1f}",
    )
    lines = [tr("Best moves for {player} ({note}):", player=player, note=note)]
    for rank, (move, visits, value) in enumerate(ranked, 1):
        lines.append(f"  {rank}. {move_line(view, move):50} {value:6.1%}  ({visits:,})")
    data = {
        "position": view.describe(),
        "player": player,
        "iterations": result.iterations,
        "seconds": round(result.seconds, 3),
        "moves": [{"move": str(m), "win_chance": round(v, 4), "visits": n} for m, n, v in ranked],
    }
    return lines, data


def show_expansion_file(path: Path, at: int | None) -> int:
    """``duel show FILE`` for a game with expansions: a position, or a finished record's table
    after move ``at`` (default: the end). A save in progress shows only what its readable part
    shows, so it is refused (``duel play --load`` continues it)."""
    from duel.app.cli.support import fail

    try:
        data = read_json_file(path, XPositionError)
        if is_xposition(data):
            state = load_position(path)
        else:
            states = XRecord.load(path).states()
            index = len(states) - 1 if at is None or at == -1 else at
            if not 0 <= index < len(states):
                fail(tr("--at: the record has {n} moves", n=len(states) - 1))
            state = states[index]
    except (XRecordError, XPositionError) as error:
        fail(tr_error(error))
    print("\n".join(board_lines(state)))
    print(state.describe())
    return 0


def hint_record(
    path: Path,
    seconds: float | None,
    top: int,
    seed: int,
    as_json: bool,
    nodes: int | None = None,
) -> int:
    """``duel hint FILE`` for a game with expansions (a record, the save of a game in progress,
    or a position): the moves of the player to move at its end, searched on that player's view
    for ``nodes`` iterations or ``seconds`` (default 2). A save's AI seat gets no hint (its view
    holds cards the human may not see), nor a save of a game between two people (the command
    cannot tell which of them asks: hints are given in the game, at the asker's turn), nor a
    position that is the other player's view."""
    from duel.app.cli.support import check_finite, fail

    check_finite("--time", seconds, positive=True)
    if nodes is not None and not 1 <= nodes <= MAX_ITERATIONS:
        fail(
            tr(
                "{option} must be between 1 and {top}, not {value}",
                option="--nodes",
                top=f"{MAX_ITERATIONS:,}",
                value=nodes,
            )
        )
    try:
        if is_xposition(read_json_file(path, XPositionError)):
            state, players = load_position(path), None
        else:
            record, key = read_save(path)
            state = record.final_state()
            players = record.metadata.get("players") if key is not None else None
    except (XRecordError, XPositionError) as error:
        fail(tr_error(error))
    if state.is_terminal() or state.is_chance():
        fail(
            tr(
                "{path}: no decision to hint at ({position})",
                path=path,
                position=state.describe(),
            ),
            1,
        )
    if (
        not state.is_terminal()
        and isinstance(players, list)
        and len(players) == 2
        and players[state.to_move] != HUMAN
    ):
        fail(
            tr(
                "{path}: {player} to move is an AI ({level}); hints are for a human's decisions",
                path=path,
                player=PLAYER_NAMES[state.to_move],
                level=players[state.to_move],
            ),
            1,
        )
    if isinstance(players, list) and players.count(HUMAN) == 2:
        fail(
            tr(
                "{path}: a game between two people, each with face-down cards the other may "
                "not see; ask for a hint in the game, at your turn (hint, or F2)",
                path=path,
            ),
            1,
        )
    if state.observer not in (None, state.to_move):
        fail(
            tr(
                "{path}: the position is {observer}'s view and {player} is to move; a hint "
                "reads the mover's own view",
                path=path,
                observer=PLAYER_NAMES[state.observer],
                player=PLAYER_NAMES[state.to_move],
            ),
            1,
        )
    view = state if state.observer is not None else state.view(state.to_move)
    lines, data = hint_lines(
        view, seconds if seconds is not None else 2.0, max(1, top), seed, nodes=nodes
    )
    if as_json:
        print(json.dumps(data, indent=1))
    else:
        print("\n".join(board_lines(view)))
        print("\n".join(lines))
    return 0
