"""What ``duel play`` decides without any input or output: dealing, undo, saving safely.

* :class:`Dealer`: who turns the cards over. A **fair** game deals each chance event (a card
  turned face up, a setup token or wonder, The Great Library's draw) from the operating
  system's randomness at the moment the rules reveal it, so no seed, save file or reload can
  tell a player a face-down card in advance: the card is not chosen yet. A **seeded** game
  (``--seed``) deals from the seed and the number of moves, reproducibly, for tests and
  analysis; it is labelled "seeded game: not fair play" on screen and in its record.
* :func:`undo_target`: the undo policy (a fair game never takes back a dealt card).
* :func:`record_moves_to_save`, :func:`autosave_places`, :func:`save_somewhere`: what a save
  holds and where an automatic save goes when the first place fails.

>>> from duel import new_game
>>> Dealer(seed=5).deal(new_game(), 0) == Dealer(seed=5).deal(new_game(), 0)
True
>>> Dealer().fair, Dealer(seed=5).fair
(True, False)
"""

from __future__ import annotations

import os
import random
import secrets
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from duel.app.control.saves import autosave_path, is_autosave, user_data_dir
from duel.app.i18n import N_, display_name, tr, trn
from duel.moves import PLAYER_NAMES, Kind, Move
from duel.quote import quoted
from duel.record import GameRecord
from duel.state import State
from duel.state import new_game as _new_game

#: The dealers in words: English in a record's metadata, translated on screen (``label``).
NOT_FAIR = N_("seeded game: not fair play")
FAIR = N_(
    "fair play: every hidden card is dealt from the operating system's randomness when revealed"
)
MANUAL = N_("cards typed by the user (a real game's deal)")


def dealer_rng(seed: int, ply: int) -> random.Random:
    """The generator a seeded dealer uses for the chance event after ``ply`` moves."""
    return random.Random(seed * 1_000_003 + ply)


def deal(state: State, seed: int, ply: int) -> Move:
    """The chance outcome the seeded dealer chooses at ``state`` (reached after ``ply`` moves)."""
    return state.sample_chance(dealer_rng(seed, ply))


@dataclass
class Dealer:
    """Deals chance events: seeded (reproducible, not fair) or from the OS (fair).

    ``manual``: the user types what a real game dealt (``--manual-chance``); random dealing is
    then only the fallback when they press Enter, and it is fair unless a seed is given.
    """

    seed: int | None = None
    manual: bool = False
    #: Number of moves at which a fair game became seeded (``--load FILE --seed N``).
    seeded_from: int | None = None

    @property
    def fair(self) -> bool:
        """Whether nobody can know a hidden card before it is revealed."""
        return self.seed is None

    def deal(self, state: State, ply: int) -> Move:
        if self.seed is None:
            return state.sample_chance(random.SystemRandom())
        return deal(state, self.seed, ply)

    def ai_seed(self, player: int) -> int:
        """The AI's seed: derived from the game's seed, or fresh (and never saved) if fair."""
        return secrets.randbits(48) if self.seed is None else self.seed * 2 + player

    def label(self) -> str:
        """One line for the screen: fair play, or that the deal is seeded."""
        if self.manual:
            if self.seed is None:
                return tr(MANUAL)
            return tr(MANUAL) + tr("; Enter deals from seed {seed}", seed=self.seed)
        if self.seed is None:
            return tr(FAIR)
        since = "" if self.seeded_from is None else tr(" from move {n}", n=self.seeded_from)
        return tr(
            "{not_fair} (seed {seed}{since}: the deal is reproducible)",
            not_fair=tr(NOT_FAIR),
            seed=self.seed,
            since=since,
        )

    def metadata(self) -> dict[str, Any]:
        """What a record says about its dealer (a fair game stores no seed: there is none)."""
        meta: dict[str, Any] = {
            "fair": self.fair and not self.manual,
            "dealer": MANUAL if self.manual else FAIR if self.fair else NOT_FAIR,
        }
        if self.seed is not None:
            meta["seed"] = self.seed
        if self.seeded_from is not None:
            meta["seeded_from_move"] = self.seeded_from
        return meta

    @staticmethod
    def from_metadata(meta: dict[str, Any], *, manual: bool = False) -> Dealer:
        """The dealer a saved game continues with: its seed if it was seeded, else fair.

        Records written before fair dealing existed have a seed and no ``fair`` key: seeded.
        """
        seed = meta.get("seed")
        if meta.get("fair") is True or not _is_seed(seed):
            return Dealer(manual=manual)
        start = meta.get("seeded_from_move")
        return Dealer(seed=seed, manual=manual, seeded_from=start if _is_seed(start) else None)


def _is_seed(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**63


def undo_target(
    states: Sequence[State],
    moves: Sequence[Move],
    is_human: Callable[[int], bool],
    *,
    may_undo_chance: bool,
    redacted: frozenset[int] = frozenset(),
) -> int | str:
    """The number of moves to keep for an undo, or a sentence saying why there is none.

    Undo goes back to the last decision of a human, taking back the AI's replies and the chance
    events since. ``may_undo_chance`` is false in a fair game: a card dealt since that
    decision has been seen, and taking it back would let the player choose again knowing it.

    >>> from duel import new_game
    >>> undo_target([new_game()], [], lambda p: True, may_undo_chance=True)
    'Nothing to undo.'
    """
    target = None
    for i in range(len(moves) - 1, -1, -1):
        state = states[i]
        if not state.is_chance() and not state.is_terminal() and is_human(state.to_move):
            target = i
            break
    if target is None:
        return tr("Nothing to undo.")
    if not may_undo_chance:
        dealt = [m for m in moves[target:] if m.is_chance]
        if dealt:
            return tr(
                "Cannot undo: cards were dealt since that decision ({dealt}), and this is a "
                "fair game: taking them back would let you choose again knowing them. (Games "
                "started with --seed allow it.)",
                dealt=_dealt_text(dealt),
            )
    if target - 1 in redacted:
        return tr(
            "Cannot undo to The Great Library's choice: the saved game does not keep the two "
            "tokens not chosen."
        )
    return target


def _runs(moves: Sequence[Move]) -> list[tuple[int, int]]:
    """``(start, end)`` of each line of the history: a decision alone; chance events of one
    kind together (an Age's deal, the setup's tokens), except one or two cards turned up
    during play, each on its own line.

    >>> _runs([Move.parse("discard Baths"), Move.parse("reveal slot 9 Altar")])
    [(0, 1), (1, 2)]
    """
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(moves):
        end = i + 1
        if moves[i].is_chance:
            while end < len(moves) and moves[end].kind is moves[i].kind:
                end += 1
            if moves[i].kind is Kind.REVEAL_CARD and end - i <= 2:
                end = i + 1
        runs.append((i, end))
        i = end
    return runs


def _dealt_text(dealt: Sequence[Move]) -> str:
    kinds = {m.kind for m in dealt}
    if kinds == {Kind.LIBRARY_DRAW}:
        return tr("The Great Library's draw")
    count = sum(1 for m in dealt if m.kind is Kind.REVEAL_CARD)
    if not count:
        return tr("a deal")
    return trn(count, "{n} card turned face up", "{n} cards turned face up")


def record_moves_to_save(
    moves: Sequence[Move], states: Sequence[State], is_human: Callable[[int], bool]
) -> list[Move]:
    """The moves a save keeps: all, except The Great Library's draw while an AI chooses.

    The AI's three tokens are not the human's to see; without the draw the game reloads just
    before it and the draw is dealt again (from the OS in a fair game).
    """
    if moves and moves[-1].kind is Kind.LIBRARY_DRAW and not is_human(states[-1].to_move):
        return list(moves[:-1])
    return list(moves)


def autosave_places(first: Path) -> list[Path]:
    """Where an automatic save may go, in order: ``first``, the user data folder, home, temp.

    >>> autosave_places(Path("duel-autosave.json"))[0]
    PosixPath('duel-autosave.json')
    """
    name = first.name
    places = [
        first,
        user_data_dir() / name,
        Path(os.path.expanduser("~")) / name,
        Path(tempfile.gettempdir()) / name,
    ]
    unique: list[Path] = []
    for place in places:
        if place not in unique:
            unique.append(place)
    return unique


def save_somewhere(
    write: Callable[[Path], None], places: Sequence[Path]
) -> tuple[Path | None, list[str]]:
    """Try ``write`` at each place in turn; the place that worked and the failures before it."""
    failures: list[str] = []
    for place in places:
        try:
            if place.parent != Path(".") and not place.parent.exists():
                place.parent.mkdir(parents=True, exist_ok=True)
            write(place)
            return place, failures
        except (OSError, ValueError) as error:
            failures.append(f"{place}: {getattr(error, 'strerror', None) or error}")
    return None, failures


# --- the game controller ------------------------------------------------------------------------
def level_error(kind: str) -> str | None:
    """``None`` if ``kind`` is a player level ("human" or an AI level of ``duel.solvers.players``,
    budgets such as ``search:2s`` included), else a one-line reason."""
    if kind == "human":
        return None
    try:
        from duel.solvers.players import UnknownLevelError, parse_level
    except ImportError:
        if kind == "random":
            return None
        return f"unknown level {quoted(kind)} (choose human or random)"
    try:
        parse_level(kind)
    except UnknownLevelError as error:
        return str(error)
    return None


class _RandomPlayer:
    """Uniformly random legal moves (used only when ``duel.solvers.players`` is not installed)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, state: State, ply: int = 0) -> Move:
        return state.random_move(random.Random(self.seed * 1_000_033 + ply))


def make_ai(level: str, *, seed: int, think: float) -> Any:
    """An object with ``choose(state) -> Move`` for an AI level; ValueError if unavailable."""
    try:
        from duel.solvers.players import make_player
    except ImportError:
        make_player = None
    if make_player is not None:
        return make_player(level, seed=seed, time_per_move=think)
    if level == "random":
        return _RandomPlayer(seed)
    raise ValueError(f"the {level!r} player needs the solver (not installed yet)")


@dataclass(frozen=True)
class Undone:
    """What an undo took back: the decisions with who made them, and how many chance events.

    >>> Undone((("A", Move.parse("discard Baths")), ("B", Move.parse("build Tavern")))).text
    'Took back: A discard Baths, B build Tavern'
    """

    decisions: tuple[tuple[str, Move], ...]
    dealt: tuple[Move, ...] = ()

    @property
    def moves(self) -> list[Move]:
        return [m for _, m in self.decisions]

    @property
    def text(self) -> str:
        """The sentence for the log: ``Took back: A build Baths, B build Palisade``."""
        moves = ", ".join(f"{who} {move}" for who, move in self.decisions)
        text = tr("Took back: {moves}", moves=moves)
        if self.dealt:
            text += tr(" (and {dealt})", dealt=_dealt_text(self.dealt))
        return text


@dataclass(frozen=True)
class HintLine:
    """One advised move: its value for the player to move, that value in words as ``duel
    hint`` says it (``57.1% exact``, ``57.1% (range 52.0-61.3% over 3 samplings)``) and the
    continuation in words."""

    move: Move
    value: float | None  # None: not searched
    line: str
    value_text: str = ""


@dataclass(frozen=True)
class Hint:
    """What ``hint`` shows: the best moves; ``stats`` (depth, positions, samplings) is for a
    verbose display only."""

    player: int
    moves: tuple[HintLine, ...]
    exact: bool
    stats: tuple[str, ...] = ()


def continuation_text(
    state: State, pv: Sequence[Move], limit: int = 4, *, through_chance: bool = False
) -> str:
    """The expected continuation after the first move, with who plays: "B build X, A ...".

    It stops at the first chance outcome (:func:`duel.app.text.lines.line_text`): what follows
    depends on a card nobody has seen, and the search followed only one guess of it.
    ``through_chance`` (a verbose hint) goes on, each chance step marked
    ``[chance: if ... is revealed ...]``.

    >>> from duel import new_game
    >>> continuation_text(new_game(), [])
    ''
    """
    from duel.app.text.lines import line_text

    if len(pv) < 2:
        return ""
    try:
        line = list(pv[1 : 1 + (len(pv) if through_chance else limit)])
        return line_text(state.apply(pv[0], check=False), line, through_chance=through_chance)
    except Exception:  # a principal variation is advice: never let it break the game
        return ""


@dataclass
class GameController:
    """One game of ``duel play`` with no input or output: every view (the line mode, the
    full-screen app) drives it and draws its :attr:`state`.

    It knows whose move it is, deals chance events through its :class:`Dealer`, plays the AI
    seats, undoes (with the fair-play policy), saves, loads and autosaves. Methods return what
    happened as data or short sentences; they never print or read.

    >>> game = GameController(["random", "random"], Dealer(seed=1))
    >>> game.set_players()
    >>> game.deal_pending()[0].startswith("Progress tokens on the board")
    True
    >>> game.next_actor()
    'ai'
    >>> game.play(game.ai_choose()).startswith("A: pick ")
    True
    >>> game.undo()
    'Nothing to undo.'
    """

    kinds: list[str]
    dealer: Dealer
    think: float = 1.0
    moves: list[Move] = field(default_factory=list)
    states: list[State] = field(default_factory=lambda: [_new_game()])
    save_path: Path | None = None
    dirty: bool = False
    ais: dict[int, Any] = field(default_factory=dict)
    created: str = ""
    #: Moves read from a file whose Great Library draw keeps only the chosen token.
    redacted: frozenset[int] = frozenset()
    autosave_path: Path = field(default_factory=autosave_path)  # the game's own file
    hint_seed: int = 0

    # --- what the game is now -------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def labels(self) -> tuple[str, str]:
        return (self.kinds[0], self.kinds[1])

    def humans(self) -> bool:
        return "human" in self.kinds

    def is_human(self, player: int) -> bool:
        return player not in self.ais

    def next_actor(self) -> str:
        """Who acts now: ``over``, ``chance`` (the dealer, or the user with manual chance),
        ``ai`` or ``human``."""
        state = self.state
        if state.is_terminal():
            return "over"
        if state.is_chance():
            return "chance"
        return "ai" if state.to_move in self.ais else "human"

    def set_players(self) -> None:
        """Make the AI seats' players (ValueError if a level is not available)."""
        self.ais = {}
        for p, level in enumerate(self.kinds):
            if level != "human":
                self.ais[p] = make_ai(level, seed=self.dealer.ai_seed(p), think=self.think)
        self.hint_seed = self.dealer.ai_seed(0)

    def record(self) -> GameRecord:
        """The game as saved: no seed in a fair game, no AI's Great Library draw pending."""
        metadata = {
            "program": "duel play",
            "players": {"A": self.kinds[0], "B": self.kinds[1]},
            **self.dealer.metadata(),
            "created": self.created,
            "saved": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        moves = record_moves_to_save(self.moves, self.states, self.is_human)
        return GameRecord(tuple(moves), metadata, self.redacted)

    # --- moves ----------------------------------------------------------------------------------
    def push(self, move: Move) -> State:
        """Apply ``move`` (IllegalMoveError if it is not legal) and keep it."""
        after = self.state.apply(move)
        self.moves.append(move)
        self.states.append(after)
        self.dirty = True
        return after

    def play(self, move: Move) -> str:
        """Play a decision; the sentence that announces it with its effects."""
        before = self.state
        return self.move_text(before, self.push(move), move)

    def deal(self) -> Move:
        """The dealer's outcome for the chance event now (not played)."""
        return self.dealer.deal(self.state, len(self.moves))

    def deal_pending(self) -> list[str]:
        """Deal every chance event now pending; the sentences that announce them."""
        dealt = []
        while self.state.is_chance():
            move = self.deal()
            self.push(move)
            dealt.append(move)
        return self.announce_dealt(dealt)

    def announce_dealt(
        self, dealt: Sequence[Move], after: State | None = None, *, name_draw: bool = True
    ) -> list[str]:
        """Sentences for a run of chance events that led to ``after`` (default: now). An AI's
        Great Library draw stays unnamed, and every draw with ``name_draw`` false."""
        from duel.app.text import moves as M
        from duel.catalog import CARDS, TOKENS, WONDERS

        after = self.state if after is None else after
        runs: list[list[Move]] = []
        for m in dealt:
            if runs and runs[-1][0].kind is m.kind:
                runs[-1].append(m)
            else:
                runs.append([m])
        out = []
        for run in runs:
            kind = run[0].kind
            if kind is Kind.DEAL_GUILDS:
                places = M.guild_places(run[0])
                out.append(tr("Age III is laid out; guild backs at {places}", places=places))
            elif kind is Kind.REVEAL_CARD and len(run) > 2:
                names = ", ".join(display_name("card", CARDS[m.card].name) for m in run)
                age = M.age_name(after.age)
                out.append(tr("{age} is dealt; face up: {names}", age=age, names=names))
            elif kind is Kind.REVEAL_TOKEN:
                names = ", ".join(display_name("token", TOKENS[m.token].name) for m in run)
                out.append(tr("Progress tokens on the board: {names}", names=names))
            elif kind is Kind.REVEAL_WONDER:
                names = ", ".join(display_name("wonder", WONDERS[m.wonder].name) for m in run)
                out.append(tr("Wonders for the draft: {names}", names=names))
            elif kind is Kind.LIBRARY_DRAW and not (name_draw and self.is_human(after.to_move)):
                # The tokens an AI does not choose go back to the box unseen.
                who = PLAYER_NAMES[after.to_move]
                out.append(tr("The Great Library draws 3 tokens for {player}", player=who))
            else:
                out.extend(M.describe_chance(m) for m in run)
        return out

    def ai_choose(self, player: int | None = None) -> Move:
        """The AI seat's move now (it may think for ``think`` seconds); not played."""
        player = self.state.to_move if player is None else player
        ai = self.ais[player]
        if isinstance(ai, _RandomPlayer):
            return ai.choose(self.state, len(self.moves))
        move: Move = ai.choose(self.state)
        return move

    # --- card numbers -------------------------------------------------------------------------
    def numbering(self) -> tuple[int, ...]:
        """The cards the player to move can take, in the order the table numbers them."""
        from duel.app.text.view_model import numbered_slots

        state = self.state
        return tuple(state.pyramid[s] for s in numbered_slots(state))

    def stale_number(self, n: int, shown: Sequence[int] | None) -> str | None:
        """Why card number ``n`` cannot be taken as typed, if it was typed on a board whose
        numbering (``shown``) differs from today's and ``n`` now means another card; else None.

        Numbers change every turn: a number read on an older screen (typed ahead while the AI
        moved, or just before an undo or a load redrew the board) would take another card than
        the one the player saw. The card is never chosen for them: they are told what the
        number means now and what it meant, and type it again or use the name.

        >>> game = GameController(["human", "human"], Dealer(seed=1))
        >>> game.stale_number(1, None) is None
        True
        """
        if shown is None:
            return None
        from duel.catalog import CARDS

        now = self.numbering()
        old = shown[n - 1] if 1 <= n <= len(shown) else None
        new = now[n - 1] if 1 <= n <= len(now) else None
        if old is None or old == new:  # no card had that number then: nothing to mistake
            return None
        old_name = display_name("card", CARDS[old].name)
        if old in now:
            was = tr("it was {card}, now number {n}", card=old_name, n=now.index(old) + 1)
        else:
            was = tr("it was {card}, which is no longer there", card=old_name)
        if new is not None:
            means = tr("is now {card}", card=display_name("card", CARDS[new].name))
        else:
            means = tr("is no card now")
        return tr("The board changed since it was shown: {n} {means} ({was}).", n=n, means=means,
                  was=was)

    def card_actions(self, card: int) -> list[tuple[str, Move]]:
        """What can be done with an accessible card: build, discard, each wonder, labelled
        with prices for the player to move (the first two always, even if not affordable)."""
        from duel.app.text import moves as M
        from duel.app.text.view_model import price_text
        from duel.catalog import WONDERS

        state = self.state
        player = state.to_move
        price, ok = price_text(state, player, card)
        build = tr("build ({price})", price=price) if ok else tr(
            "build ({price}, cannot afford)", price=price
        )
        gain = M.discard_gain(state, player)
        options = [
            (build, Move.build(card)),
            (tr("discard (+{n} coins)", n=gain), Move.discard(card)),
        ]
        if state.wonders_built_count < 7:
            for w in state.wonders(player):
                cost = state.wonder_cost(player, w)
                note = f"{cost}c" if cost <= state.coins(player) else tr(
                    "{price}, cannot afford", price=f"{cost}c"
                )
                name = display_name("wonder", WONDERS[w].name)
                label = tr("wonder {wonder} ({note})", wonder=name, note=note)
                options.append((label, Move.wonder_with(w, card)))
        return options

    # --- undo, save, load -----------------------------------------------------------------------
    def undo(self) -> Undone | str:
        """Back to the previous decision of a human (AI moves and chance events since undone);
        what was taken back, or why undo is refused (a fair game never takes back a dealt
        card: see :func:`undo_target`)."""
        target = undo_target(
            self.states,
            self.moves,
            self.is_human,
            may_undo_chance=not self.dealer.fair or self.dealer.manual,
            redacted=self.redacted,
        )
        if isinstance(target, str):
            return target
        undone = Undone(
            tuple(
                (PLAYER_NAMES[self.states[i].to_move], m)
                for i, m in enumerate(self.moves[target:], target)
                if not m.is_chance
            ),
            tuple(m for m in self.moves[target:] if m.is_chance),
        )
        self.moves = self.moves[:target]
        self.states = self.states[: target + 1]
        self.dirty = True
        return undone

    def save(self, path: Path) -> None:
        """Save the record to ``path`` (OSError or ValueError saying why not)."""
        self.record().save(path)
        self.save_path = path
        self.dirty = False

    def autosave(
        self, places: Sequence[Path] | None = None
    ) -> tuple[Path | None, list[str]]:
        """Save to the first of ``places`` that works (default: the autosave file, the data
        folder, home, temp); the place and the failures before it. Never raises."""
        if not self.moves:
            return None, []
        try:
            record = self.record()
        except Exception as error:  # noqa: BLE001 - report, never lose the exit path
            return None, [f"the record: {error}"]
        place, failures = save_somewhere(
            record.save, autosave_places(self.autosave_path) if places is None else places
        )
        if place is not None:
            self.dirty = False
        return place, failures

    def load(self, path: Path, *, players_from_file: bool = True) -> str | None:
        """Continue the game saved in ``path`` with its dealer (and players unless told not
        to); RecordError if it cannot be read; a sentence if a player had to become human."""
        record = GameRecord.load(path)
        states = record.states()
        meta = record.metadata
        self.moves = list(record.moves)
        self.states = states
        self.redacted = record.redacted
        self.save_path = path
        if is_autosave(path):
            self.autosave_path = path  # the game goes on in its own autosave, not a second one
        self.dirty = False
        self.dealer = Dealer.from_metadata(meta, manual=self.dealer.manual)
        if isinstance(meta.get("created"), str):
            self.created = meta["created"]
        players = meta.get("players")
        if (
            players_from_file
            and isinstance(players, dict)
            and all(
                isinstance(players.get(k), str) and level_error(players[k]) is None for k in "AB"
            )
        ):
            self.kinds = [players["A"], players["B"]]
        try:
            self.set_players()
        except ValueError as error:
            self.kinds = [k if k in ("human", "random") else "human" for k in self.kinds]
            self.set_players()
            return str(error)
        return None

    def loaded_text(self, path: Path) -> str:
        """The sentence after a load: moves, where the game is, players and dealer."""
        seed = self.dealer.seed
        dealer = tr("seed {seed}", seed=seed) if seed is not None else tr("fair play")
        return tr(
            "Loaded {path}: {n} moves, {position}; A {a}, B {b}, {dealer}.",
            path=path,
            n=len(self.moves),
            position=self.state.describe(),
            a=tr(self.kinds[0]) if self.kinds[0] == "human" else self.kinds[0],
            b=tr(self.kinds[1]) if self.kinds[1] == "human" else self.kinds[1],
            dealer=dealer,
        )

    def reseed(self, seed: int) -> str:
        """``--load FILE --seed N``: deal the rest of the game from ``seed`` (not fair play)."""
        if seed != self.dealer.seed:
            self.dealer = Dealer(seed=seed, manual=self.dealer.manual, seeded_from=len(self.moves))
        return tr("From now on: {dealer}.", dealer=self.dealer.label())

    # --- what views list ------------------------------------------------------------------------
    def history(self) -> list[str]:
        """Every move from the start, numbered as in the record (``duel replay`` and ``duel
        show --at`` count the same way), under a heading for the setup, the draft and each
        Age; the cards an Age deals in one line; each decision with what it did (coins paid
        and got, the pawn...). The Great Library's draw is never named here: the tokens an AI
        left were not its opponent's to see.

        >>> game = GameController(["random", "random"], Dealer(seed=1))
        >>> game.set_players()
        >>> _ = game.deal_pending()
        >>> [line.split(". ")[0].strip() for line in game.history()]
        ['Setup', '1-5', '6-9']
        """
        from duel.app.text import moves as M

        lines: list[str] = []
        heading = ""
        for start, end in _runs(self.moves):
            before, after = self.states[start], self.states[end]
            picked = any(m.kind is Kind.PICK_WONDER for m in self.moves[:end])
            draft = tr("Wonder draft") if picked else tr("Setup")
            section = M.age_name(before.age) if before.age else draft
            if section != heading:
                heading = section
                lines.append(section)
            number = f"{start + 1}" if end == start + 1 else f"{start + 1}-{end}"
            move = self.moves[start]
            if move.is_chance:
                said = self.announce_dealt(self.moves[start:end], after, name_draw=False)
                lines.append(f"{number:>8}. {said[0]}")
            else:
                lines.append(f"{number:>8}. {self.move_text(before, after, move)}")
        return lines

    @staticmethod
    def move_text(before: State, after: State, move: Move) -> str:
        """A decision for the log: ``A: build Baths (A pays 2 coins to the bank, has 5)``."""
        from duel.app.text.moves import describe_transition

        details = describe_transition(before, after, move)
        text = f"{PLAYER_NAMES[before.to_move]}: {move}"
        return text + (" (" + "; ".join(details) + ")" if details else "")

    def tokens_info(self) -> list[str]:
        """The progress tokens in play with their rules text, and who owns which."""
        from duel.catalog import TOKENS
        from duel.moves import PLAYER_NAMES

        state = self.state
        lines = ["Progress tokens on the board:"]
        lines += [f"  {TOKENS[t].name}: {TOKENS[t].text}" for t in state.board_token_ids]
        if state.library_offer:
            lines.append("Drawn by The Great Library:")
            lines += [f"  {TOKENS[t].name}: {TOKENS[t].text}" for t in state.library_offer]
        for p in (0, 1):
            owned = state.tokens(p)
            if owned:
                lines.append(f"{PLAYER_NAMES[p]} owns: {', '.join(TOKENS[t].name for t in owned)}")
        return lines

    def hint(
        self,
        seconds: float | None = None,
        *,
        nodes: int | None = None,
        top: int = 3,
        verbose: bool = False,
    ) -> Hint:
        """The strongest player's best moves now, as ``duel hint`` gives them
        (:func:`duel.solvers.spread.advise`; ImportError without the solver): ``seconds`` in all
        (default ``think``, kept within 0.2-30 s) or a budget of MCTS iterations (search nodes
        on the pure path).
        ``verbose``: the line through chance outcomes."""
        from duel.solvers.search import Limit
        from duel.solvers.spread import advise, search_stats, value_text

        state = self.state
        if nodes is not None:
            limit = Limit(nodes=nodes)
        else:
            limit = Limit(time=max(0.2, min(self.think if seconds is None else seconds, 30.0)))
        info, spread = advise(state, limit, top=top, seed=self.hint_seed)
        lines = tuple(
            HintLine(
                m.move,
                m.value,
                continuation_text(state, m.pv, through_chance=verbose),
                value_text(info, m, spread, tr=tr),
            )
            for m in info.moves
        )
        return Hint(state.to_move, lines, info.exact, tuple(search_stats(info, spread)))

    def hint_lines(self, hint: Hint, *, verbose: bool = False) -> list[str]:
        """The hint in words, the same for every view: a heading, then each move with its
        value and the line after it; the search's figures only when ``verbose``."""
        if not hint.moves:
            return [tr("The solver has no advice here.")]
        who = PLAYER_NAMES[hint.player]
        out = [tr("{player}'s chance of winning after each move:", player=who)]
        stop = tr("then chance (a face-down card or a draw): the line stops here")
        for i, m in enumerate(hint.moves, 1):
            out.append(f"{i}. {m.move}: {m.value_text}")
            if m.line:  # a line that stops at chance already says "then chance ..."
                then = m.line.startswith(("then ", stop))
                out.append("   " + (m.line if then else tr("then {line}", line=m.line)))
        if verbose:
            out += list(hint.stats)
        return out

    def win_chance(self, *, nodes: int = 3000) -> float | None:
        """A's chance of winning now, as the app's graph gives it
        (:class:`duel.app.control.values.ValueTrack`: the hint's engine at ``nodes``
        iterations and the hint's seed; at a chance node the value of the move played before
        it); None without the solver."""
        from duel.app.control.values import ValueTrack

        track = ValueTrack(nodes, self.hint_seed)
        wanted = track.wanted(self.states)
        try:
            if wanted:
                track.analyse(self.states, wanted[0])
        except ImportError:
            return None
        found = track.value_at(self.states, self.moves, len(self.states) - 1)
        return None if found is None else found[0]
