"""``duel play``: 7 Wonders Duel in the terminal.

Two humans at one keyboard, a human against an AI level, or two AIs to watch. Every decision of
the game is typed: a number from the table, a name (forgiving: case, prefixes, "did you mean"),
or the move notation ("build Baths", "discard 3", "wonder sphinx with 3"). Chance events (cards
turned face up, the setup, The Great Library's draw) are dealt by a seeded dealer: the card dealt
at a given point of the game depends only on the seed, the number of moves played and the cards
still unseen, so a saved game that is loaded and continued deals exactly what it would have.

The game is kept as a :class:`~duel.record.GameRecord` (every move, chance included, with the
players and the seed in its metadata): ``save``, ``load`` and ``undo`` work on that record.
"""

from __future__ import annotations

import contextlib
import random
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from duel import render as R
from duel.catalog import (
    CARDS,
    TOKENS,
    WONDERS,
    UnknownNameError,
    card_named,
    token_named,
    wonder_named,
)
from duel.moves import PLAYER_NAMES, Kind, Move, MoveParseError
from duel.record import GameRecord, RecordError
from duel.state import State, new_game

LEVELS = ("human", "random", "greedy", "search", "search-v1", "mcts")  # with budgets: level_error


def level_error(kind: str) -> str | None:
    """``None`` if ``kind`` is a player level ("human" or an AI level of ``solvers.players``,
    budgets such as ``search:2s`` included), else a one-line reason."""
    if kind == "human":
        return None
    try:
        from solvers.players import UnknownLevelError, parse_level
    except ImportError:
        return None if kind == "random" else f"unknown level {kind!r} (choose human or random)"
    try:
        parse_level(kind)
    except UnknownLevelError as error:
        return str(error)
    return None


AUTOSAVE = Path("duel-autosave.json")
DEFAULT_SAVE = Path("duel-game.json")

HELP = """\
Taking a card (the table numbers the cards you can take):
  3                      card number 3; you are then asked: build, discard or a wonder
  baths                  the same, by name (case and unique prefixes are fine)
  build 3 / build baths  build a card            discard 3   discard it for coins
  wonder sphinx with 3   build a wonder with card 3 (wonders may be numbered: 'wonder w1 with 3')
Other decisions (wonder draft, progress tokens, The Great Library, The Mausoleum, destroying a
card, who starts the next Age): type the number or the name of a choice, or the notation
('pick The Sphinx', 'token Law', 'destroy Glassworks', 'mausoleum Baths', 'start A').
Commands:
  cost <card|wonder|n>   how you would pay for it        info <name>   what a card/wonder/token does
  discards               the discard pile                tokens        the progress tokens in play
  table                  draw the table again            history       the moves so far
  moves                  every legal move (notation)     hint          advice from the solver
  undo                   take back your last decision    save [FILE]   save the game
  load FILE              load a saved game               quit          leave (offers to save)
Ctrl-C or end of input: the game is saved (duel-autosave.json unless saved elsewhere)."""


class _Quit(Exception):
    """Leave the game loop with an exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class _Restart(Exception):
    """The game changed under the prompt (undo, load): go back to the main loop."""


# --- the dealer and the AI players --------------------------------------------------------------
def dealer_rng(seed: int, ply: int) -> random.Random:
    """The generator the dealer uses for the chance event after ``ply`` moves."""
    return random.Random(seed * 1_000_003 + ply)


def deal(state: State, seed: int, ply: int) -> Move:
    """The chance outcome the seeded dealer chooses at ``state`` (reached after ``ply`` moves)."""
    return state.sample_chance(dealer_rng(seed, ply))


class _RandomPlayer:
    """Uniformly random legal moves (used only until ``solvers.players`` provides the levels)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, state: State, ply: int = 0) -> Move:
        return state.random_move(random.Random(self.seed * 1_000_033 + ply))


def make_ai(level: str, *, seed: int, think: float):
    """An object with ``choose(state) -> Move`` for an AI level; ValueError if unavailable."""
    try:
        from solvers.players import make_player
    except ImportError:
        make_player = None
    if make_player is not None:
        return make_player(level, seed=seed, time_per_move=think)
    if level == "random":
        return _RandomPlayer(seed)
    raise ValueError(f"the {level!r} player needs the solver (not installed yet)")


# --- input helpers ------------------------------------------------------------------------------
def _norm(text: str) -> str:
    text = " ".join(text.strip().lower().split())
    return text[4:] if text.startswith("the ") else text


def match_name(text: str, names: list[str]) -> int | str:
    """Index of the name ``text`` designates in ``names``, or a message saying why not.

    Case-insensitive; "The " may be left out; a unique prefix or a unique word prefix is
    enough. Near misses are suggested, never guessed.
    """
    import difflib

    key = _norm(text)
    if not key:
        return "type a name"
    keys = [_norm(n) for n in names]
    for test in (
        lambda k: k == key,
        lambda k: k.startswith(key),
        lambda k: any(w.startswith(key) for w in k.split()),
        lambda k: key in k,
    ):
        found = [i for i, k in enumerate(keys) if test(k)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            return f"{text.strip()!r} could be {', '.join(names[i] for i in found)}"
    near = difflib.get_close_matches(key, keys, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(names[keys.index(k)] for k in near)}?" if near else ""
    return f"nothing here is called {text.strip()!r}{hint}"


def _is_tty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# --- output -------------------------------------------------------------------------------------
class Output:
    """Rich or plain printing of everything the game says."""

    def __init__(self, plain: bool) -> None:
        self.plain = plain
        self.console = R.make_console(plain)

    @property
    def width(self) -> int:
        return min(self.console.width, 110)

    def say(self, text: str = "", style: str | None = None) -> None:
        if self.plain:
            print(text, flush=True)
        else:
            self.console.print(text, style=style, markup=False, width=self.width)

    def lines(self, lines: list[str], style: str | None = None) -> None:
        for line in lines:
            self.say(line, style)

    def show(self, renderable) -> None:
        self.console.print(renderable, width=self.width)

    def clear(self) -> None:
        if not self.plain and self.console.is_terminal:
            self.console.clear()


# --- the session ----------------------------------------------------------------------------------
@dataclass
class Session:
    kinds: list[str]
    seed: int
    delay: float
    think: float
    out: Output
    moves: list[Move] = field(default_factory=list)
    states: list[State] = field(default_factory=lambda: [new_game()])
    save_path: Path | None = None
    dirty: bool = False
    ais: dict[int, object] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)
    shown: State | None = None
    created: str = ""
    interactive: bool = True
    manual_chance: bool = False
    read: Callable[[str], str] = input

    # --- state ------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def labels(self) -> tuple[str, str]:
        return (self.kinds[0], self.kinds[1])

    def humans(self) -> bool:
        return "human" in self.kinds

    def record(self) -> GameRecord:
        metadata = {
            "program": "duel play",
            "players": {"A": self.kinds[0], "B": self.kinds[1]},
            "seed": self.seed,
            "created": self.created,
            "saved": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        return GameRecord(tuple(self.moves), metadata)

    def push(self, move: Move) -> State:
        after = self.state.apply(move)
        self.moves.append(move)
        self.states.append(after)
        self.dirty = True
        return after

    def set_players(self) -> None:
        self.ais = {}
        for p, level in enumerate(self.kinds):
            if level != "human":
                self.ais[p] = make_ai(level, seed=self.seed * 2 + p, think=self.think)

    # --- printing ---------------------------------------------------------------------------
    def announce(self, text: str) -> None:
        """An event of the game: printed now, or kept for under the next table in rich mode."""
        if self.out.plain or not (self.humans() or self.delay > 0):
            self.out.say(text)
        else:
            self.events.append(text)

    def show_table(self, *, force: bool = False) -> None:
        state = self.state
        if state is self.shown and not force:
            return
        self.shown = state
        if self.out.plain:
            self.out.say("")
            self.out.lines(R.plain_table(state, self.labels))
            return
        self.out.clear()
        self.out.show(R.render_table(state, self.labels, width=self.out.width))
        if self.events:
            self.out.say("Since the last decision: " + "; ".join(self.events[-12:]), "italic")
            self.events.clear()

    # --- main loop --------------------------------------------------------------------------
    def run(self) -> int:
        try:
            while True:
                try:
                    self.step()
                except _Restart:
                    continue
        except _Quit as stop:
            return stop.code
        except KeyboardInterrupt:
            return self.interrupted()

    def step(self) -> None:
        state = self.state
        if state.is_terminal():
            self.game_over()
            return
        if state.is_chance():
            self.deal_chance()
            return
        player = state.to_move
        if player in self.ais:
            self.ai_move(player)
        else:
            self.human_turn()

    def deal_chance(self) -> None:
        dealt = []
        while self.state.is_chance():
            if self.manual_chance:
                move = self.ask_chance()
            else:
                move = deal(self.state, self.seed, len(self.moves))
            self.push(move)
            dealt.append(move)
        runs: list[list[Move]] = []
        for m in dealt:
            if runs and runs[-1][0].kind is m.kind:
                runs[-1].append(m)
            else:
                runs.append([m])
        for run in runs:
            kind = run[0].kind
            if kind is Kind.REVEAL_CARD and len(run) > 2:
                names = ", ".join(CARDS[m.card].name for m in run)
                self.announce(f"{R.age_name(self.state.age)} is dealt; face up: {names}")
            elif kind is Kind.REVEAL_TOKEN:
                names = ", ".join(TOKENS[m.token].name for m in run)
                self.announce(f"Progress tokens on the board: {names}")
            elif kind is Kind.REVEAL_WONDER:
                names = ", ".join(WONDERS[m.wonder].name for m in run)
                self.announce(f"Wonders for the draft: {names}")
            else:
                for m in run:
                    self.announce(R.describe_chance(m))

    def ask_chance(self) -> Move:
        """--manual-chance: the user types what the real game dealt (Enter deals at random)."""
        from pyramid_layouts import LAYOUTS

        state = self.state
        outcomes = [m for m, _ in state.chance_outcomes()]
        phase = state.phase
        if phase == "reveal":
            slot = outcomes[0].slot
            layout = LAYOUTS[state.age]
            row = layout.row_of[slot]
            place = sorted(layout.rows[row - 1], key=lambda s: layout.x[s]).index(slot) + 1
            if self.shown is None or self.shown.age != state.age:
                self.show_table()
            names = [CARDS[m.card].name for m in outcomes]
            question = f"Which card was turned face up in row {row}, card {place} from the left?"
        elif phase == "setup_tokens":
            names = [TOKENS[m.token].name for m in outcomes]
            question = "Which progress token was put on the board?"
        elif phase == "setup_wonders":
            names = [WONDERS[m.wonder].name for m in outcomes]
            question = "Which wonder was revealed for the draft?"
        else:
            box = state.box_tokens
            names = [TOKENS[t].name for t in box]
            question = "Which tokens did The Great Library draw? (names separated by commas)"
        self.out.say(f"{question} (Enter: deal at random)")
        while True:
            text = self.ask("dealer> ").strip()
            if not text or text.lower() == "random":
                return deal(state, self.seed, len(self.moves))
            if self.command(text, allow_game_commands=False):
                continue
            if phase == "library_draw":
                mask, problems = 0, []
                for part in (p for p in text.replace(" and ", ",").split(",") if p.strip()):
                    found = match_name(part, names)
                    if isinstance(found, int):
                        mask |= 1 << box[found]
                    else:
                        problems.append(found)
                move = Move.library_draw(mask) if mask.bit_count() == 3 else None
                if not problems and move in outcomes:
                    return move
                self.out.say(
                    _sentence(problems[0] if problems else "type three different tokens")
                    + f" In the box: {', '.join(names)}.",
                    "red",
                )
                continue
            found = match_name(text, names)
            if isinstance(found, int):
                return outcomes[found]
            possible = f" It can be: {', '.join(sorted(names))}." if len(names) <= 25 else ""
            self.out.say(_sentence(found) + possible, "red")

    def ai_move(self, player: int) -> None:
        ai = self.ais[player]
        state = self.state
        if not self.humans() and self.delay > 0 and not self.out.plain:
            self.show_table()
        if isinstance(ai, _RandomPlayer):
            move = ai.choose(state, len(self.moves))
        else:
            level = self.kinds[player]
            if level != "random":
                self.out.say(f"{PLAYER_NAMES[player]} ({level}) is thinking...", "dim")
            move = ai.choose(state)
        if self.delay > 0:
            time.sleep(self.delay)
        self.play(move)

    def play(self, move: Move) -> None:
        before = self.state
        after = self.push(move)
        who = PLAYER_NAMES[before.to_move]
        details = R.describe_transition(before, after, move)
        text = f"{who}: {move}"
        if details:
            text += " (" + "; ".join(details) + ")"
        self.announce(text)

    def game_over(self) -> None:
        state = self.state
        if self.out.plain:
            self.out.say("")
            self.out.lines(R.plain_final(state, self.labels))
        else:
            self.out.clear()
            self.out.show(R.render_table(state, self.labels, width=self.out.width, decision=False))
            if self.events:
                self.out.say("Last moves: " + "; ".join(self.events[-12:]), "italic")
                self.events.clear()
            self.out.show(R.render_final(state, self.labels))
        if not self.humans():
            raise _Quit(0)
        self.out.say(
            "The game is over: 'save FILE' keeps the record, 'undo' takes back your last "
            "decision, 'quit' leaves."
        )
        while True:
            text = self.ask("game over> ")
            if not self.command(text.strip(), allow_game_commands=False):
                self.out.say("The game is over: save, undo, history, quit.")

    # --- the human's turn -------------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        try:
            text = self.read(prompt)
        except EOFError:
            self.end_of_input()
            raise AssertionError("unreachable") from None
        if not self.interactive:
            print(text, flush=True)  # echo piped input so the transcript reads like a session
        return text

    def prompt_name(self) -> str:
        state = self.state
        return f"{PLAYER_NAMES[state.to_move]}> "

    def human_turn(self) -> None:
        self.show_table()
        state = self.state
        while True:
            text = self.ask(self.prompt_name()).strip()
            if not text:
                continue
            if self.command(text):
                if self.state is not state:
                    return
                continue
            move = self.interpret(text)
            if move is None:
                continue
            reason = state.why_illegal(move)
            if reason is not None:
                self.out.say(f"Not possible: {reason}", "red")
                continue
            self.play(move)
            return

    # --- commands -----------------------------------------------------------------------------
    def command(self, text: str, *, allow_game_commands: bool = True) -> bool:
        """Run ``text`` if it is a command (not a move); True if it was one."""
        words = text.split(None, 1)
        if not words:
            return False
        verb, rest = words[0].lower(), (words[1].strip() if len(words) > 1 else "")
        if verb in ("help", "?", "h"):
            self.out.say(HELP)
        elif verb in ("quit", "exit", "q"):
            self.quit()
        elif verb == "save":
            self.save(Path(rest) if rest else (self.save_path or DEFAULT_SAVE))
        elif verb == "load":
            if not rest:
                self.out.say("load what? 'load FILE'", "red")
            else:
                self.load(Path(rest))
                raise _Restart
        elif verb == "undo":
            self.undo()
        elif verb in ("history", "log"):
            self.history()
        elif not allow_game_commands:
            return False
        elif verb in ("table", "t", "board", "look", "show"):
            self.show_table(force=True)
        elif verb in ("discards", "pile", "discarded"):
            if self.out.plain:
                self.out.lines(R.discard_lines(self.state))
            else:
                self.out.show(R.render_discards(self.state))
        elif verb == "tokens":
            self.tokens_info()
        elif verb == "cost":
            self.cost(rest)
        elif verb == "info":
            self.info(rest)
        elif verb == "moves":
            self.out.say(", ".join(str(m) for m in self.state.legal_moves()))
        elif verb == "hint":
            self.hint()
        else:
            return False
        return True

    def quit(self) -> None:
        if self.dirty and self.interactive and self.moves:
            answer = self.ask_save("Save the game before leaving?")
            if answer is not None:
                self.save(answer)
        elif self.dirty:
            self.out.say("Left without saving.")
        raise _Quit(0)

    def ask_save(self, question: str) -> Path | None:
        """Ask where to save; None for no. End of input means yes, to the default file."""
        default = self.save_path or AUTOSAVE
        try:
            answer = input(f"{question} [Y/n, or a file name; default {default}] ").strip()
        except (EOFError, KeyboardInterrupt):
            print()
            return default
        if answer.lower() in ("n", "no"):
            return None
        if answer.lower() in ("", "y", "yes"):
            return default
        return Path(answer)

    def save(self, path: Path) -> bool:
        try:
            self.record().save(path)
        except OSError as error:
            self.out.say(f"Could not save to {path}: {error.strerror or error}", "red")
            return False
        self.save_path = path
        self.dirty = False
        self.out.say(
            f"Game saved to {path} ({len(self.moves)} moves). "
            f"Continue it with: duel play --load {path}"
        )
        return True

    def load(self, path: Path, *, players_from_file: bool = True) -> bool:
        try:
            record = GameRecord.load(path)
            states = record.states()
        except RecordError as error:
            self.out.say(f"Could not load: {error}", "red")
            return False
        meta = record.metadata
        self.moves = list(record.moves)
        self.states = states
        self.save_path = path
        self.dirty = False
        self.shown = None
        self.events.clear()
        if isinstance(meta.get("seed"), int):
            self.seed = meta["seed"]
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
            self.out.say(f"{_sentence(str(error))} That player is played by a human now.", "red")
        self.out.say(
            f"Loaded {path}: {len(self.moves)} moves, {self.state.describe()}; "
            f"A {self.kinds[0]}, B {self.kinds[1]}, seed {self.seed}."
        )
        return True

    def undo(self) -> None:
        """Back to the previous decision of a human (AI moves and chance events undone too)."""
        n = len(self.moves)
        target = None
        for i in range(n - 1, -1, -1):
            state = self.states[i]
            if not state.is_chance() and not state.is_terminal() and state.to_move not in self.ais:
                target = i
                break
        if target is None:
            self.out.say("Nothing to undo.", "red")
            return
        undone = self.moves[target:]
        decisions = [str(m) for m in undone if not m.is_chance]
        self.moves = self.moves[:target]
        self.states = self.states[: target + 1]
        self.dirty = True
        self.events.clear()
        self.shown = None
        self.out.say(f"Undone: {'; '.join(decisions)}")
        raise _Restart

    def history(self) -> None:
        lines = []
        state = new_game()
        for i, move in enumerate(self.moves, 1):
            if not move.is_chance:
                lines.append(f"{i:4}. {PLAYER_NAMES[state.to_move]}: {move}")
            elif move.kind is Kind.REVEAL_CARD or move.kind is Kind.LIBRARY_DRAW:
                lines.append(f"{i:4}. ({R.describe_chance(move)})")
            state = self.states[i]
        self.out.lines(lines or ["No moves yet."])

    def tokens_info(self) -> None:
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
        self.out.lines(lines)

    def info(self, text: str) -> None:
        if not text:
            self.out.say("info what? a card, wonder or progress token name", "red")
            return
        card = self.resolve_card(text, quiet=True)
        if isinstance(card, int):
            spec = CARDS[card]
            self.out.say(
                f"{spec.name}: {spec.color} card ({R.COLOR_LABEL[spec.color]}), "
                f"{R.age_name(spec.age)}; costs {R.card_cost_text(spec)}; "
                f"gives {R.card_effect(spec)}"
            )
            return
        for lookup, describe in (
            (
                wonder_named,
                lambda w: (
                    f"{WONDERS[w].name}: {R.wonder_effect(WONDERS[w])}; "
                    f"costs {R._need_text(WONDERS[w].need)}"
                ),
            ),
            (token_named, lambda t: f"{TOKENS[t].name}: {TOKENS[t].text}"),
        ):
            try:
                self.out.say(describe(lookup(text)))
                return
            except UnknownNameError:
                pass
        self.out.say(f"No card, wonder or progress token called {text!r}.", "red")

    def cost(self, text: str) -> None:
        from solvers.payment import payment_plan

        state = self.state
        player = state.to_move
        if not text:
            self.out.say("cost of what? 'cost <card or wonder>' (or its number)", "red")
            return
        wonder = self.resolve_wonder(text, quiet=True)
        if isinstance(wonder, int) and not text.strip().isdigit():
            plan = payment_plan(state, player, wonder=wonder)
        else:
            card = self.resolve_card(text)
            if not isinstance(card, int):
                return
            plan = payment_plan(state, player, card=card)
        self.out.lines(plan.describe())

    def hint(self) -> None:
        try:
            from solvers.search import Limit, analyse
        except ImportError:
            self.out.say("hints need the solver (not installed yet)", "red")
            return
        state = self.state
        seconds = max(0.2, min(self.think, 30.0))
        self.out.say(f"Thinking for {seconds:g} s...")
        info = analyse(state, Limit(time=seconds), top=3, seed=self.seed)
        if not info.moves:
            self.out.say("The solver has no advice here.")
            return
        what = "exact" if info.exact else f"depth {info.depth}"
        self.out.say(
            f"Hint ({what}, {info.nodes} positions): chance of winning for "
            f"{PLAYER_NAMES[state.to_move]} after each move"
        )
        for i, m in enumerate(info.moves, 1):
            line = _line_text(state, m.pv)
            self.out.say(
                f"  {i}. {m.move}: {100 * m.value:.0f}%" + (f"  then {line}" if line else "")
            )

    # --- interpreting a move ------------------------------------------------------------------
    def resolve_card(self, text: str, *, quiet: bool = False) -> int | str:
        """A card id from a number on the table or a name; else an error message (printed)."""
        state = self.state
        text = text.strip()
        slots = R.numbered_slots(state)
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(slots):
                return state.pyramid[slots[n - 1]]
            message = (
                f"there is no card number {n}: the cards you can take are numbered 1-{len(slots)}"
                if slots
                else f"there is no card number {n} now"
            )
        else:
            ids = [state.pyramid[s] for s in slots]
            found = match_name(text, [CARDS[c].name for c in ids])
            if isinstance(found, int):
                return ids[found]
            message = found
            try:
                return card_named(text).id
            except UnknownNameError as error:
                if "could be" not in message:
                    message = str(error)
        if not quiet:
            self.out.say(message, "red")
        return message

    def resolve_wonder(self, text: str, *, quiet: bool = False) -> int | str:
        """A wonder id from its number in the player's list (W1, 2...) or a name."""
        state = self.state
        own = state.wonders(state.to_move)
        key = text.strip().lower()
        if key[:1] == "w" and key[1:].isdigit():
            key = key[1:]
        if key.isdigit():
            n = int(key)
            if 1 <= n <= len(own):
                return own[n - 1]
            message = f"you have no wonder number {n}" + (
                f" (W1-W{len(own)})" if own else " (no wonder left to build)"
            )
        else:
            found = match_name(text, [WONDERS[w].name for w in own])
            if isinstance(found, int):
                return own[found]
            try:
                return wonder_named(text)
            except UnknownNameError as error:
                message = found if "could be" in found else str(error)
        if not quiet:
            self.out.say(message, "red")
        return message

    def interpret(self, text: str) -> Move | None:
        """The move ``text`` asks for, or None (after printing why)."""
        state = self.state
        if state.phase == "play":
            return self.interpret_play(text)
        return self.interpret_choice(text)

    def interpret_play(self, text: str) -> Move | None:
        words = text.split(None, 1)
        verb, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
        if verb in ("build", "b", "discard", "d", "sell") and rest:
            card = self.resolve_card(rest)
            if not isinstance(card, int):
                return None
            return Move.build(card) if verb in ("build", "b") else Move.discard(card)
        if verb in ("wonder", "w") and rest:
            import re

            match = re.fullmatch(r"(.+?)\s+(?:with|using|for|on)\s+(.+)", rest, re.IGNORECASE)
            wonder = self.resolve_wonder(match.group(1) if match else rest)
            if not isinstance(wonder, int):
                return None
            if match:
                card = self.resolve_card(match.group(2))
            else:
                card = self.ask_card(f"{WONDERS[wonder].name} with which card?")
            if not isinstance(card, int):
                return None
            return Move.wonder_with(wonder, card)
        if text.isdigit() or verb not in ("pick", "token", "destroy", "mausoleum", "start"):
            card = self.resolve_card(text, quiet=True)
            if isinstance(card, int) and card in state_cards(self.state):
                return self.ask_action(card)
            if not isinstance(card, int) and text.isdigit():
                self.out.say(card, "red")
                return None
        try:
            return Move.parse(text)
        except MoveParseError as error:
            card = self.resolve_card(text, quiet=True)
            message = card if isinstance(card, str) else str(error)
            self.out.say(f"{_sentence(message)} Type a card number or name, or 'help'.", "red")
            return None

    def ask_card(self, question: str) -> int | None:
        slots = R.numbered_slots(self.state)
        names = ", ".join(
            f"{i} {CARDS[self.state.pyramid[s]].name}" for i, s in enumerate(slots, 1)
        )
        self.out.say(f"{question} {names}")
        text = self.ask("card> ").strip()
        if not text or text.lower() in ("cancel", "back", "c"):
            return None
        card = self.resolve_card(text)
        return card if isinstance(card, int) else None

    def ask_action(self, card: int) -> Move | None:
        """After a card is chosen: build, discard or which wonder."""
        state = self.state
        player = state.to_move
        spec = CARDS[card]
        options: list[tuple[str, Move]] = []
        price, ok = R.price_text(state, player, card)
        build = f"build ({price})" if ok else f"build ({price}, you have {state.coins(player)})"
        options.append((build, Move.build(card)))
        options.append((f"discard (+{R.discard_gain(state, player)} coins)", Move.discard(card)))
        if state.wonders_built_count < 7:
            for w in state.wonders(player):
                cost = state.wonder_cost(player, w)
                note = f"{cost}c" if cost <= state.coins(player) else f"{cost}c, cannot afford"
                options.append((f"wonder {WONDERS[w].name} ({note})", Move.wonder_with(w, card)))
        listing = "  ".join(f"{i}) {label}" for i, (label, _) in enumerate(options, 1))
        self.out.say(f"{spec.name} ({spec.color}: {R.card_effect(spec)}):  {listing}")
        while True:
            text = self.ask(f"{spec.name}: build, discard or wonder? ").strip()
            key = text.lower()
            if not key:
                continue
            if key in ("cancel", "back", "c", "x"):
                return None
            move = self._action(key, options)
            if isinstance(move, Move):
                reason = state.why_illegal(move)
                if reason is None:
                    return move
                self.out.say(f"Not possible: {reason}", "red")
                continue
            if move is None:
                continue
            found = move
            if self.command(text):
                continue
            self.out.say(f"{_sentence(found)} Choose 1-{len(options)}, or 'cancel'.", "red")

    def _action(self, key: str, options: list[tuple[str, Move]]) -> Move | str | None:
        """The option ``key`` designates, None after a message, or a message to complete."""
        card = options[0][1].card
        if key.isdigit():
            n = int(key)
            if 1 <= n <= len(options):
                return options[n - 1][1]
            self.out.say(f"Choose 1-{len(options)} (or 'cancel').", "red")
            return None
        if key in ("b", "build"):
            return Move.build(card)
        if key in ("d", "discard", "sell"):
            return Move.discard(card)
        wonder_options = [m for _, m in options if m.kind is Kind.WONDER]
        if key in ("w", "wonder"):
            if len(wonder_options) == 1:
                return wonder_options[0]
            self.out.say("Which wonder? Type its number or name.", "red")
            return None
        if key.startswith(("wonder ", "w ")):
            key = key.split(None, 1)[1]
        if not wonder_options:
            return "no wonder can be built now"
        found = match_name(key, [WONDERS[m.wonder].name for m in wonder_options])
        return wonder_options[found] if isinstance(found, int) else found

    def interpret_choice(self, text: str) -> Move | None:
        state = self.state
        options = R.choices(state)
        words = text.split(None, 1)
        verb = words[0].lower()
        expected = {
            "draft": "pick",
            "choose_token": "token",
            "library_choose": "token",
            "destroy": "destroy",
            "mausoleum": "mausoleum",
            "choose_starter": "start",
        }[state.phase]
        ref = text
        if verb == expected and len(words) > 1:
            ref = words[1]
        elif verb in (
            "pick",
            "token",
            "destroy",
            "mausoleum",
            "start",
            "build",
            "discard",
            "wonder",
        ):
            try:
                return Move.parse(text)  # the engine explains why it does not fit
            except MoveParseError as error:
                self.out.say(str(error), "red")
                return None
        ref = ref.strip()
        if ref.isdigit():
            n = int(ref)
            if 1 <= n <= len(options):
                return options[n - 1].move
            self.out.say(f"choose 1-{len(options)}", "red")
            return None
        found = match_name(ref, [o.label for o in options])
        if isinstance(found, int):
            return options[found].move
        self.out.say(
            f"{_sentence(found)} Choose 1-{len(options)} or a name; 'help' for more.", "red"
        )
        return None

    # --- leaving ----------------------------------------------------------------------------
    def end_of_input(self) -> None:
        print()
        if self.dirty and self.moves:
            path = self.save_path or AUTOSAVE
            self.out.say("End of input.")
            self.save(path)
        raise _Quit(0)

    def interrupted(self) -> int:
        print()
        self.out.say("Interrupted.")
        if self.dirty and self.moves:
            path: Path | None = self.save_path or AUTOSAVE
            if self.interactive:
                path = self.ask_save("Save the game?")
            if path is not None:
                self.save(path)
        return 130


def _line_text(state: State, pv, limit: int = 4) -> str:
    """The expected continuation after the first move, with who plays: "B build X, A ..."."""
    parts = []
    try:
        for move in pv:
            if not move.is_chance and move is not pv[0]:
                parts.append(f"{PLAYER_NAMES[state.to_move]} {move}")
            state = state.apply(move, check=False)
            if len(parts) >= limit:
                break
    except Exception:  # a principal variation is advice: never let it break the game
        pass
    return ", ".join(parts)


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith(("?", ".", "!")) else text + "."


def state_cards(state: State) -> list[int]:
    return [state.pyramid[s] for s in R.numbered_slots(state)]


# --- entry point ----------------------------------------------------------------------------------
DEFAULT_PLAYERS = ("human", "random")


def run_game(
    players: tuple[str | None, str | None],
    *,
    seed: int | None,
    load: Path | None,
    delay: float,
    think: float,
    plain: bool,
    manual_chance: bool = False,
) -> int:
    """Play a game in the terminal; returns the exit code (0, 2 bad arguments, 130 interrupted).

    ``players`` are the levels of A and B ("human", "random", "greedy", "search"; ``None`` for
    the default: human against random, or the saved game's players with ``load``). With ``load``
    the saved game continues; its players and seed are used unless given here.
    ``manual_chance``: the user types each chance outcome (the card turned face up in a real
    game...) instead of the seeded dealer.
    """
    explicit_players = any(p is not None for p in players)
    kinds = [
        (p if p is not None else default).strip().lower()
        for p, default in zip(players, DEFAULT_PLAYERS, strict=True)
    ]
    for p, kind in zip("AB", kinds, strict=True):
        error = level_error(kind)
        if error is not None:
            print(f"duel: player {p}: {error}", file=sys.stderr)
            return 2
    out = Output(plain)
    session = Session(
        kinds=kinds,
        seed=seed if seed is not None else secrets.randbelow(1_000_000),
        delay=max(0.0, delay),
        think=think,
        out=out,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        interactive=_is_tty(sys.stdin),
        manual_chance=manual_chance,
    )
    if session.interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history for input())
    if load is not None:
        if not session.load(load, players_from_file=not explicit_players):
            return 2
        if seed is not None:
            session.seed = seed
        if explicit_players:
            session.kinds = kinds
    try:
        session.set_players()
    except ValueError as error:
        print(f"duel: {error}", file=sys.stderr)
        return 2
    if load is None:
        out.say(
            f"7 Wonders Duel: A ({kinds[0]}) against B ({kinds[1]}), seed {session.seed}. "
            "Type 'help' at any prompt."
        )
    return session.run()
