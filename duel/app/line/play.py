"""``duel play``: 7 Wonders Duel in the terminal.

Two humans at one keyboard, a human against an AI level, or two AIs to watch. Every decision of
the game is typed: a number from the table, a name (forgiving: case, prefixes, "did you mean"),
or the move notation ("build Baths", "discard 3", "wonder sphinx with 3"). Chance events (cards
turned face up, the setup, The Great Library's draw) are dealt by a :class:`~duel.app.control.game.
Dealer`: from the operating system's randomness at the moment of each reveal (a fair game), or
from ``--seed`` (reproducible, labelled "seeded game: not fair play").

The game is kept as a :class:`~duel.record.GameRecord` (every move, chance included, with the
players and the dealer in its metadata): ``save``, ``load`` and ``undo`` work on that record.
No input ends the program with a traceback: an unexpected error is reported, the game is saved
to the autosave file and play goes on; end of input, SIGHUP and SIGTERM save it too.
"""

from __future__ import annotations

import contextlib
import math
import shlex
import signal
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from duel.app.control.game import (
    NOT_FAIR,
    Dealer,
    GameController,
    autosave_places,
    deal,
    dealer_rng,
    level_error,
    make_ai,
)
from duel.app.control.levels import default_player
from duel.app.control.saves import autosave_path as new_autosave_path
from duel.app.control.saves import is_autosave
from duel.app.control.signals import SAVE_SIGNALS, Signalled, signals_save_the_game
from duel.app.i18n import N_, shown, to_english, tr, tr_error, tr_reason
from duel.app.text import moves as M
from duel.app.text import render as R
from duel.app.text.typed import (
    Ambiguous,
    file_named,
    guild_slots_typed,
    match_name,
    number,
    save_target,
)
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
from duel.quote import quoted, shortened
from duel.record import RecordError
from duel.state import State

__all__ = ["Session", "deal", "dealer_rng", "make_ai", "open_game", "run_game"]

DEFAULT_SAVE = Path("duel-game.json")

HELP = N_("""\
Taking a card (the table numbers the cards you can take):
  3                      card number 3; you are then asked: build, discard or a wonder
  baths                  the same, by name (case and unique prefixes are fine)
  build 3 / build baths  build a card            discard 3   discard it for coins
  wonder sphinx with 3   build a wonder with card 3 (wonders may be numbered: 'wonder w1 with 3')
Other decisions (wonder draft, progress tokens, The Great Library, The Mausoleum, destroying a
card, who begins Age II or III): type the number or the name of a choice, or the notation
('pick The Sphinx', 'token Law', 'destroy Glassworks', 'mausoleum Baths', 'start A').
Commands:
  cost <card|wonder|n>   how you would pay for it        info <name>   what a card/wonder/token does
  discards               the discard pile                tokens        the progress tokens in play
  table                  draw the table again            history       the moves so far
  moves                  every legal move (notation)     hint [-v]     advice from the solver
  undo                   take back your last decision    save [FILE]   save the game
  load FILE              load a saved game               quit          leave (offers to save)
  review                 after the game: every move analysed, marked and graphed (duel review)
Ctrl-C or end of input: the game is saved (its own file, duel-autosave-DATE.json).
A fair game (no --seed) deals every hidden card when it is revealed; undo never takes back a
dealt card there. A game with --seed is reproducible and says so: not fair play.""")


class _Quit(Exception):
    """Leave the game loop with an exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class _Restart(Exception):
    """The game changed under the prompt (undo, load): go back to the main loop."""


#: Characters of a piped line echoed in the transcript.
ECHO_LIMIT = 200

#: An error that recurs this many times without any input in between ends the program (the
#: game saved), rather than looping.
MAX_REPEATED_ERRORS = 3


# --- input helpers ------------------------------------------------------------------------------
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


# --- the session ---------------------------------------------------------------------------------
class Session:
    """The line mode: draws the table, reads lines, and drives a :class:`GameController`.

    Everything about the game itself (whose move, dealing, AI moves, undo, save, load) is the
    controller's (:attr:`game`); this class only prints and reads.
    """

    def __init__(
        self,
        kinds: list[str],
        dealer: Dealer,
        delay: float,
        think: float,
        out: Output,
        *,
        created: str = "",
        interactive: bool = True,
        read: Callable[[str], str] = input,
        autosave_path: Path | None = None,
    ) -> None:
        self.game = GameController(
            kinds=kinds,
            dealer=dealer,
            think=think,
            created=created,
            autosave_path=autosave_path or new_autosave_path(),  # one file per game
        )
        self.delay = delay
        self.out = out
        self.interactive = interactive
        self.read = read
        self.events: list[str] = []
        self.shown: State | None = None
        #: Lines read so far (an error after new input is the input's, not a loop).
        self.inputs = 0
        #: Whether a line typed ahead waits to be read (only a terminal can tell; a terminal
        #: reader knows best, since a line editor may hold typed keys of its own).
        self.pending: Callable[[], bool] = getattr(read, "pending", None) or (
            _typed_ahead if interactive and read is input else _nothing_pending
        )
        #: The card numbering of the last table printed.
        self.shown_numbering: tuple[int, ...] | None = None
        #: The numbering the lines still waiting were typed on (a table printed since changed
        #: the numbers), and the numbering the line just read was typed on (None: the table
        #: on screen).
        self.stale_numbering: tuple[int, ...] | None = None
        self.typed_on: tuple[int, ...] | None = None

    # --- printing ---------------------------------------------------------------------------
    def announce(self, text: str) -> None:
        """An event of the game: printed now, or kept for under the next table in rich mode."""
        if self.out.plain or not (self.game.humans() or self.delay > 0):
            self.out.say(text)
        else:
            self.events.append(text)

    def show_table(self, *, force: bool = False) -> None:
        state = self.game.state
        if state is self.shown and not force:
            return
        self.shown = state
        previous, self.shown_numbering = self.shown_numbering, self.game.numbering()
        if self.stale_numbering is None and previous != self.shown_numbering and self.pending():
            # A line typed before this table was printed read the numbers of the one before.
            self.stale_numbering = previous
        if self.out.plain:
            self.out.say("")
            self.out.lines(R.plain_table(state, self.game.labels))
            return
        self.out.clear()
        self.out.show(R.render_table(state, self.game.labels, width=self.out.width))
        if self.events:
            self.out.say("Since the last decision: " + "; ".join(self.events[-12:]), "italic")
            self.events.clear()

    # --- main loop --------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game is left; the exit code. No exception escapes with the game."""
        repeated = 0
        try:
            while True:
                inputs = self.inputs
                try:
                    self.step()
                    repeated = 0
                except _Restart:
                    continue
                except (_Quit, KeyboardInterrupt, Signalled):
                    raise
                except Exception as error:  # a bug must never cost the player the game
                    repeated = 1 if self.inputs != inputs else repeated + 1
                    self.internal_error(error)
                    if repeated >= MAX_REPEATED_ERRORS:
                        self.say_safely("The same error keeps coming back: leaving.", "red")
                        return 1
        except _Quit as stop:
            return stop.code
        except KeyboardInterrupt:
            return self.interrupted()
        except Signalled as stop:
            return self.signalled(stop.signum)

    def step(self) -> None:
        state = self.game.state
        if state.is_terminal():
            self.game_over()
            return
        if state.is_chance():
            self.deal_chance()
            return
        player = state.to_move
        if player in self.game.ais:
            self.ai_move(player)
        else:
            self.human_turn()

    def deal_chance(self) -> None:
        if not self.game.dealer.manual:
            for text in self.game.deal_pending():
                self.announce(text)
            return
        dealt = []
        while self.game.state.is_chance():
            move = self.ask_chance()
            self.game.push(move)
            dealt.append(move)
        for text in self.game.announce_dealt(dealt):
            self.announce(text)

    def ask_chance(self) -> Move:
        """--manual-chance: the user types what the real game dealt (Enter deals at random)."""
        state = self.game.state
        outcomes = [m for m, _ in state.chance_outcomes()]
        phase = state.phase
        if phase == "deal_guilds":
            return self.ask_guild_slots()
        if phase == "reveal":
            slot = outcomes[0].slot
            row, place = R.slot_place(state.age, slot)
            if self.shown is None or self.shown.age != state.age:
                self.show_table()
            names = [CARDS[m.card].name for m in outcomes]
            back = "guild " if state.age == 3 and state.is_guild_slot(slot) else ""
            question = (
                f"Which {back}card was turned face up in row {row}, card {place} from the left?"
            )
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
                return self.game.deal()
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

    def ask_guild_slots(self) -> Move:
        """--manual-chance at the Age III layout: which three cards show the guild back."""
        from duel.pyramid_layouts import LAYOUTS

        rows = LAYOUTS[3].rows
        self.out.say(
            "Age III is laid out. Which three cards have the guild back? Type each as row.card "
            "(2.1 = row 2, first card from the left; row 1 is the most covered), e.g. "
            "'2.1 4.2 6.3' (Enter: deal at random)"
        )
        self.out.say(
            "Cards per row: " + ", ".join(f"row {r}: {len(s)}" for r, s in enumerate(rows, 1))
        )
        while True:
            text = self.ask("dealer> ").strip()
            if not text or text.lower() == "random":
                return self.game.deal()
            if self.command(text, allow_game_commands=False):
                continue
            try:
                return Move.deal_guilds(guild_slots_typed(text))
            except ValueError as error:
                self.out.say(_sentence(str(error)), "red")

    def ai_move(self, player: int) -> None:
        if not self.game.humans() and self.delay > 0 and not self.out.plain:
            self.show_table()
        level = self.game.kinds[player]
        if level != "random":
            self.out.say(
                tr("{player} ({level}) is thinking...", player=PLAYER_NAMES[player], level=level),
                "dim",
            )
        move = self.game.ai_choose(player)
        if self.delay > 0:
            time.sleep(self.delay)
        self.play(move)

    def play(self, move: Move) -> None:
        self.announce(self.game.play(move))

    def game_over(self) -> None:
        state = self.game.state
        if self.out.plain:
            self.out.say("")
            self.out.lines(R.plain_final(state, self.game.labels))
        else:
            self.out.clear()
            self.out.show(
                R.render_table(state, self.game.labels, width=self.out.width, decision=False)
            )
            if self.events:
                self.out.say(tr("Last moves: ") + "; ".join(self.events[-12:]), "italic")
                self.events.clear()
            self.out.show(R.render_final(state, self.game.labels))
        if not self.game.humans():
            raise _Quit(0)
        self.out.say(
            tr(
                "The game is over: 'save FILE' keeps the record, 'review' analyses every move, "
                "'undo' takes back your last decision, 'quit' leaves."
            )
        )
        while True:
            text = self.ask("game over> ")
            if not self.command(text.strip(), allow_game_commands=False):
                self.out.say(tr("The game is over: save, review, undo, history, quit."))

    # --- the human's turn -------------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        try:
            text = self.read(prompt)
        except EOFError:
            self.end_of_input()
            raise AssertionError("unreachable") from None
        self.inputs += 1
        self.typed_on = self.stale_numbering
        if self.stale_numbering is not None and not self.pending():
            self.stale_numbering = None
        if not self.interactive:
            # Echo piped input so the transcript reads like a session (a pasted page cut).
            print(shortened(text, ECHO_LIMIT), flush=True)
        return text

    def prompt_name(self) -> str:
        state = self.game.state
        return f"{PLAYER_NAMES[state.to_move]}> "

    def human_turn(self) -> None:
        self.show_table()
        state = self.game.state
        while True:
            text = self.ask(self.prompt_name()).strip()
            if not text:
                continue
            if self.command(text):
                if self.game.state is not state:
                    return
                continue
            move = self.interpret(text)
            if move is None:
                continue
            reason = state.why_illegal(move)
            if reason is not None:
                self.out.say(tr("Not possible: {reason}", reason=tr_reason(reason)), "red")
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
            self.out.say(tr(HELP))
        elif verb in ("quit", "exit", "q"):
            self.quit()
        elif verb == "save":
            self.save_as(rest)
        elif verb == "load":
            try:
                path = file_named(rest)
            except ValueError:
                self.out.say(tr("load what? 'load FILE'"), "red")
            else:
                self.load(path)
                raise _Restart
        elif verb == "undo":
            self.undo()
        elif verb in ("history", "log"):
            self.history()
        elif verb == "review":
            self.review()
        elif not allow_game_commands:
            return False
        elif verb in ("table", "t", "board", "look", "show"):
            self.show_table(force=True)
        elif verb in ("discards", "pile", "discarded"):
            if self.out.plain:
                self.out.lines(R.discard_lines(self.game.state))
            else:
                self.out.show(R.render_discards(self.game.state))
        elif verb == "tokens":
            self.tokens_info()
        elif verb == "cost":
            self.cost(rest)
        elif verb == "info":
            self.info(rest)
        elif verb == "moves":
            self.out.say(", ".join(str(m) for m in self.game.state.legal_moves()))
        elif verb == "hint":
            self.hint(rest)
        else:
            return False
        return True

    def review(self) -> None:
        """The review of the game just played (``duel review``), at the AI's time per move."""
        if not self.game.state.is_terminal():
            self.out.say(tr("review is for a finished game: 'hint' advises on this position."))
            return
        from duel.app.text.review import review_and_print

        game = self.game
        review_and_print(
            game.record(), seconds=game.think, progress=self.interactive, seed=game.hint_seed
        )

    def quit(self) -> None:
        """Leave; a game that changed is saved unless the player says not to (a script piping
        ``quit`` is not asked, and its game goes to the autosave file)."""
        if self.game.dirty and self.game.moves:
            answer = (
                self.ask_save("Save the game before leaving?")
                if self.interactive
                else self.game.autosave_path
            )
            if answer is None:
                self.out.say(tr("Left without saving."))
            elif answer == self.game.autosave_path:
                if self.autosave() is None:
                    raise _Quit(1)
            elif not self.save(answer) and self.autosave() is None:
                self.out.say(tr("Not leaving: the game could not be saved."), "red")
                return
        raise _Quit(0)

    def ask_save(self, question: str) -> Path | None:
        """Ask where to save; None for no. End of input means yes, to the autosave file."""
        default = self.game.autosave_path
        try:
            answer = self.read(f"{question} [Y/n, or a file name; default {default}] ").strip()
        except (EOFError, KeyboardInterrupt):
            print()
            return default
        if answer.lower() in ("n", "no"):
            return None
        if answer.lower() in ("", "y", "yes"):
            return default
        try:
            return save_target(answer)
        except ValueError as error:  # the game still goes to the autosave file
            self.say_safely(f"Could not save to {quoted(answer)}: {error}.", "red")
            return default

    def save_as(self, text: str) -> bool:
        """``save [FILE]``: the file typed (``~`` expanded, its folder must exist), else the
        one last saved to or loaded, else duel-game.json."""
        if not text:
            return self.save(self.game.save_path or DEFAULT_SAVE)
        try:
            path = save_target(text)
        except ValueError as error:
            self.out.say(f"Could not save to {quoted(text)}: {error}.", "red")
            return False
        return self.save(path)

    def save(self, path: Path) -> bool:
        """Save to ``path`` and say so (or why not)."""
        try:
            self.game.save(path)
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or error
            self.out.say(f"Could not save to {path}: {reason}", "red")
            return False
        self.out.say(
            f"Game saved to {path} ({len(self.game.moves)} moves). "
            f"Continue it with: duel play --load {shlex.quote(str(path))}"
        )
        return True

    def autosave(self) -> Path | None:
        """Save to the autosave file, else the data folder, home or temp; None if all fail.

        Never raises and never overwrites the file the game was loaded from.
        """
        if not self.game.moves:
            return None
        place, failures = self.game.autosave(autosave_places(self.game.autosave_path))
        for failure in failures:
            self.say_safely(f"Could not save to {failure}", "red")
        if place is None:
            self.say_safely("The game could not be saved anywhere.", "red")
            return None
        self.say_safely(
            f"Game saved to {place} ({len(self.game.moves)} moves). "
            f"Continue it with: duel play --load {shlex.quote(str(place))}"
        )
        return place

    def say_safely(self, text: str, style: str | None = None) -> None:
        """Print if the terminal is still there (after SIGHUP it may not be)."""
        with contextlib.suppress(Exception):
            self.out.say(text, style)

    def internal_error(self, error: Exception) -> None:
        """An unexpected error: say it in one line, save the game, keep playing."""
        self.shown = None
        what = f"{type(error).__name__}: {error}"
        if len(what) > 200:
            what = what[:197] + "..."
        self.say_safely(f"Internal error ({what}). The game is kept.", "red")
        if self.game.dirty:
            self.autosave()

    def load(self, path: Path, *, players_from_file: bool = True) -> bool:
        try:
            problem = self.game.load(path, players_from_file=players_from_file)
        except RecordError as error:
            self.out.say(tr("Could not load: {error}", error=tr_error(error)), "red")
            return False
        self.shown = None
        self.events.clear()
        if is_autosave(path):
            self.game.autosave_path = path  # the game goes on in its own autosave, not a second one
        if problem is not None:
            self.out.say(f"{_sentence(problem)} That player is played by a human now.", "red")
        self.out.say(self.game.loaded_text(path))
        if not self.game.dealer.fair:
            self.out.say(f"This is a {self.game.dealer.label()}.")
        return True

    def reseed(self, seed: int) -> None:
        """``--load FILE --seed N``: deal the rest of the game from ``seed`` (not fair play)."""
        self.out.say(self.game.reseed(seed))

    def undo(self) -> None:
        """Back to the previous decision of a human (AI moves and chance events undone too).

        In a fair game a dealt card is never taken back (see :func:`undo_target`).
        """
        undone = self.game.undo()
        if isinstance(undone, str):
            self.out.say(undone, "red")
            return
        self.events.clear()
        self.shown = None
        self.out.say(undone.text)
        raise _Restart

    def history(self) -> None:
        self.out.lines(self.game.history() or ["No moves yet."])

    def tokens_info(self) -> None:
        self.out.lines(self.game.tokens_info())

    def info(self, text: str) -> None:
        if not text:
            self.out.say("info what? a card, wonder or progress token name", "red")
            return
        card = self.resolve_card(text, quiet=True)
        if isinstance(card, int):
            spec = CARDS[card]
            self.out.say(
                f"{spec.name}: {spec.color} card ({R.COLOR_LABEL[spec.color]}), "
                f"{M.age_name(spec.age)}; costs {R.card_cost_text(spec)}; "
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
        self.out.say(f"No card, wonder or progress token called {quoted(text)}.", "red")

    def cost(self, text: str) -> None:
        from duel.solvers.payment import payment_plan

        state = self.game.state
        player = state.to_move
        if not text:
            self.out.say("cost of what? 'cost <card or wonder>' (or its number)", "red")
            return
        wonder = self.resolve_wonder(text, quiet=True)
        if isinstance(wonder, int) and number(text) is None:
            plan = payment_plan(state, player, wonder=wonder)
        else:
            card = self.resolve_card(text)
            if not isinstance(card, int):
                return
            plan = payment_plan(state, player, card=card)
        self.out.lines([tr_reason(line) for line in plan.describe()])

    def hint(self, option: str = "") -> None:
        """The solver's advice (``hint -v``: with the search's figures and the whole line)."""
        verbose = option.strip().lower() in ("-v", "v", "verbose", "--verbose")
        try:
            import duel.solvers.search  # noqa: F401
        except ImportError:
            self.out.say("hints need the solver (not installed yet)", "red")
            return
        seconds = max(0.2, min(self.game.think, 30.0))
        self.out.say(f"Thinking for {seconds:g} s...")
        hint = self.game.hint(seconds, verbose=verbose)
        self.out.lines([
            line if i == 0 else "  " + line
            for i, line in enumerate(self.game.hint_lines(hint, verbose=verbose))
        ])

    # --- interpreting a move ------------------------------------------------------------------
    def resolve_card(self, text: str, *, quiet: bool = False) -> int | str:
        """A card id from a number on the table or a name; else an error message (printed)."""
        state = self.game.state
        text = text.strip()
        slots = R.numbered_slots(state)
        n = number(text)
        stale = self.game.stale_number(n, self.typed_on) if n is not None else None
        if stale is not None:
            self.typed_on = None  # told: typed again, the number is the table's on screen
            message = tr("{stale} Type it again, or use the card's name.", stale=stale)
        elif n is not None:
            if 1 <= n <= len(slots):
                return state.pyramid[slots[n - 1]]
            message = (
                tr(
                    "there is no card number {n}: the cards you can take are numbered 1-{count}",
                    n=n,
                    count=len(slots),
                )
                if slots
                else tr("there is no card number {n} now", n=n)
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
                if not isinstance(message, Ambiguous):
                    message = str(error)
        if not quiet:
            self.out.say(message, "red")
        return message

    def resolve_wonder(self, text: str, *, quiet: bool = False) -> int | str:
        """A wonder id from its number in the player's list (W1, 2...) or a name."""
        state = self.game.state
        own = state.wonders(state.to_move)
        key = text.strip().lower()
        if key[:1] == "w" and number(key[1:]) is not None:
            key = key[1:]
        n = number(key)
        if n is not None:
            if 1 <= n <= len(own):
                return own[n - 1]
            message = tr("you have no wonder number {n}", n=n) + (
                f" (W1-W{len(own)})" if own else tr(" (no wonder left to build)")
            )
        else:
            found = match_name(text, [WONDERS[w].name for w in own])
            if isinstance(found, int):
                return own[found]
            try:
                return wonder_named(text)
            except UnknownNameError as error:
                message = found if isinstance(found, Ambiguous) else str(error)
        if not quiet:
            self.out.say(message, "red")
        return message

    def interpret(self, text: str) -> Move | None:
        """The move ``text`` asks for, or None (after printing why)."""
        state = self.game.state
        text = to_english(text)  # a card, wonder or token typed by its shown name
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
            used: int | str | None
            if match:
                used = self.resolve_card(match.group(2))
            else:
                used = self.ask_card(
                    tr("{wonder} with which card?", wonder=shown(WONDERS[wonder].name))
                )
            if not isinstance(used, int):
                return None
            return Move.wonder_with(wonder, used)
        is_number = number(text) is not None
        if is_number or verb not in ("pick", "token", "destroy", "mausoleum", "start"):
            card = self.resolve_card(text, quiet=True)
            if isinstance(card, int) and card in state_cards(self.game.state):
                return self.ask_action(card)
            if not isinstance(card, int) and is_number:
                self.out.say(card, "red")
                return None
        try:
            return Move.parse(text)
        except MoveParseError as error:
            card = self.resolve_card(text, quiet=True)
            message = card if isinstance(card, str) else tr_error(error)
            self.out.say(
                _sentence(message) + tr(" Type a card number or name, or 'help'."), "red"
            )
            return None

    def ask_card(self, question: str) -> int | None:
        slots = R.numbered_slots(self.game.state)
        names = ", ".join(
            f"{i} {shown(CARDS[self.game.state.pyramid[s]].name)}" for i, s in enumerate(slots, 1)
        )
        self.out.say(f"{question} {names}")
        text = to_english(self.ask("card> ").strip())
        if not text or text.lower() in ("cancel", "back", "c"):
            return None
        card = self.resolve_card(text)
        return card if isinstance(card, int) else None

    def ask_action(self, card: int) -> Move | None:
        """After a card is chosen: build, discard or which wonder."""
        state = self.game.state
        spec = CARDS[card]
        options = self.game.card_actions(card)
        listing = "  ".join(f"{i}) {label}" for i, (label, _) in enumerate(options, 1))
        name = shown(spec.name)
        self.out.say(f"{name} ({R.color_word(spec.color)}: {R.card_effect(spec)}):  {listing}")
        while True:
            text = self.ask(tr("{card}: build, discard or wonder? ", card=name)).strip()
            text = to_english(text)
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
                self.out.say(tr("Not possible: {reason}", reason=tr_reason(reason)), "red")
                continue
            if move is None:
                continue
            found = move
            if self.command(text):
                continue
            self.out.say(
                _sentence(found) + tr(" Choose 1-{n}, or 'cancel'.", n=len(options)), "red"
            )

    def _action(self, key: str, options: list[tuple[str, Move]]) -> Move | str | None:
        """The option ``key`` designates, None after a message, or a message to complete."""
        card = options[0][1].card
        n = number(key)
        if n is not None:
            if 1 <= n <= len(options):
                return options[n - 1][1]
            self.out.say(tr("Choose 1-{n} (or 'cancel').", n=len(options)), "red")
            return None
        if key in ("b", "build"):
            return Move.build(card)
        if key in ("d", "discard", "sell"):
            return Move.discard(card)
        wonder_options = [m for _, m in options if m.kind is Kind.WONDER]
        if key in ("w", "wonder"):
            if len(wonder_options) == 1:
                return wonder_options[0]
            self.out.say(tr("Which wonder? Type its number or name."), "red")
            return None
        if key.startswith(("wonder ", "w ")):
            key = key.split(None, 1)[1]
        if not wonder_options:
            return tr("no wonder can be built now")
        found = match_name(key, [WONDERS[m.wonder].name for m in wonder_options])
        return wonder_options[found] if isinstance(found, int) else found

    def interpret_choice(self, text: str) -> Move | None:
        state = self.game.state
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
                self.out.say(tr_error(error), "red")
                return None
        ref = ref.strip()
        n = number(ref)
        if n is not None:
            if 1 <= n <= len(options):
                return options[n - 1].move
            self.out.say(tr("choose 1-{n}", n=len(options)), "red")
            return None
        found = match_name(ref, [to_english(o.label) for o in options])
        if isinstance(found, int):
            return options[found].move
        self.out.say(
            _sentence(found) + tr(" Choose 1-{n} or a name; 'help' for more.", n=len(options)),
            "red",
        )
        return None

    # --- leaving ----------------------------------------------------------------------------
    def end_of_input(self) -> None:
        """End of input saves the game to its own autosave file (exit 1 if nowhere works)."""
        self.say_safely("")
        if self.game.dirty and self.game.moves:
            self.say_safely("End of input.")
            if self.autosave() is None:
                raise _Quit(1)
        raise _Quit(0)

    def interrupted(self) -> int:
        self.say_safely("")
        self.say_safely("Interrupted.")
        if self.game.dirty and self.game.moves:
            path: Path | None = self.game.autosave_path
            if self.interactive:
                path = self.ask_save("Save the game?")
            if path == self.game.autosave_path:
                return 130 if self.autosave() is not None else 1
            if path is not None and not self.save(path):
                return 130 if self.autosave() is not None else 1
        return 130

    def signalled(self, signum: int) -> int:
        """SIGHUP (the terminal closed) or SIGTERM: save without asking; exit 128 + signal."""
        for sig in SAVE_SIGNALS:
            with contextlib.suppress(ValueError, OSError):
                signal.signal(sig, signal.SIG_IGN)
        self.say_safely("")
        self.say_safely(f"Stopped by {signal.Signals(signum).name}.")
        if self.game.dirty and self.game.moves and self.autosave() is None:
            return 1
        return 128 + signum


def _typed_ahead() -> bool:
    """Whether a whole line waits on standard input (a terminal delivers only whole lines)."""
    import select

    try:
        return bool(select.select([sys.stdin], [], [], 0)[0])
    except (OSError, ValueError):
        return False


def _nothing_pending() -> bool:
    return False


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith(("?", ".", "!", "。", "？", "！")) else text + "."


def state_cards(state: State) -> list[int]:
    return [state.pyramid[s] for s in R.numbered_slots(state)]


# --- entry point ----------------------------------------------------------------------------------
#: You against the strongest AI, cmcts, at ``--think`` (1 s) per move; ``--b random`` to practise.
DEFAULT_PLAYERS = ("human", "cmcts")


#: What Tab completes at the line editor's prompt, besides card, wonder and token names.
COMMANDS = (
    "help", "build", "discard", "wonder", "pick", "token", "destroy", "mausoleum", "start",
    "cost", "info", "discards", "tokens", "table", "history", "moves", "hint", "undo", "save",
    "load", "quit", "review", "cancel",
)


def _completion_words() -> list[str]:
    return [
        *COMMANDS,
        *(c.name for c in CARDS),
        *(w.name for w in WONDERS),
        *(t.name for t in TOKENS),
    ]


def open_game(
    players: tuple[str | None, str | None],
    *,
    seed: int | None,
    load: Path | None,
    delay: float,
    think: float,
    plain: bool,
    manual_chance: bool = False,
    read: Callable[[str], str] = input,
) -> Session | int:
    """A game set up for the terminal, the line mode's or the full screen's (whose
    :func:`duel.app.screen.app.run_app` plays :attr:`Session.game`); or the exit code 2 when
    it cannot start (a bad level, a bad number, a save that does not load), said in one line.

    ``players`` are the levels of A and B ("human", "random", "greedy", "search", "cmcts"...;
    ``None`` for the default: human against cmcts (:data:`DEFAULT_PLAYERS`), or the saved game's
    players with ``load``). Without ``seed`` the game is fair: each hidden card is dealt from
    the operating system's randomness when it is revealed. With ``seed`` the deal is
    reproducible and the game is labelled not fair play. With ``load`` the saved game continues
    with its players and its dealer; a ``seed`` given with ``load`` deals the rest of the game
    from that seed (not fair play). ``manual_chance``: the user types each chance outcome (a
    real game's cards). ``read`` reads a line.
    """
    explicit_players = any(p is not None for p in players)
    kinds = [
        (p if p is not None else default_player(default)).strip().lower()
        for p, default in zip(players, DEFAULT_PLAYERS, strict=True)
    ]
    for p, kind in zip("AB", kinds, strict=True):
        error = level_error(kind)
        if error is not None:
            print(f"duel: player {p}: {error}", file=sys.stderr)
            return 2
    for name, value in (("--delay", delay), ("--think", think)):
        if not math.isfinite(value) or value < 0 or (name == "--think" and value == 0):
            print(f"duel: {name} must be a finite positive number, not {value}", file=sys.stderr)
            return 2
    out = Output(plain)
    session = Session(
        kinds=kinds,
        dealer=Dealer(seed=seed if load is None else None, manual=manual_chance),
        delay=delay,
        think=think,
        out=out,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        interactive=_is_tty(sys.stdin),
        read=read,
    )
    if load is not None:
        if not session.load(load, players_from_file=not explicit_players):
            return 2
        if seed is not None:
            session.reseed(seed)
        if explicit_players:
            session.game.kinds = kinds
    try:
        session.game.set_players()
    except ValueError as error:
        print(f"duel: {error}", file=sys.stderr)
        return 2
    if load is None:
        dealer = session.game.dealer
        how = f"seed {dealer.seed} ({NOT_FAIR})" if dealer.seed is not None else dealer.label()
        out.say(
            f"7 Wonders Duel: A ({kinds[0]}) against B ({kinds[1]}), {how}. "
            "Type 'help' at any prompt."
        )
    return session


def run_game(
    players: tuple[str | None, str | None],
    *,
    seed: int | None,
    load: Path | None,
    delay: float,
    think: float,
    plain: bool,
    manual_chance: bool = False,
    read: Callable[[str], str] | None = None,
) -> int:
    """Play a game in line mode (:func:`open_game` says what the arguments mean); the exit code
    (0; 1 the game could not be saved; 2 bad arguments; 130 interrupted; 129/143 after
    SIGHUP/SIGTERM, the game saved). ``read`` reads a line (default: ``input()`` on a pipe; on a
    terminal a reader without GNU readline, whose key handling can crash the process:
    :mod:`duel.app.line.input`). Whether the game is played here or full screen is the
    command's choice (:mod:`duel.app.cli.main`).
    """
    if read is None:
        read = input
        if _is_tty(sys.stdin) and _is_tty(sys.stdout):
            from duel.app.line.input import terminal_reader

            read = terminal_reader(plain=plain, words=_completion_words)
    session = open_game(
        players,
        seed=seed,
        load=load,
        delay=delay,
        think=think,
        plain=plain,
        manual_chance=manual_chance,
        read=read,
    )
    if isinstance(session, int):
        return session
    with signals_save_the_game():
        return session.run()
