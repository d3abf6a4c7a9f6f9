"""The ``wonders`` command: play the base game against bots, or watch bots play.

    wonders play --players 4 --humans 1 --seed 7 --bot greedy
    wonders selfplay --players 7 --games 20 --seed 1

Engine modules are imported inside the commands so that ``wonders --help`` stays fast.
"""

from __future__ import annotations

import contextlib
import difflib
import shlex
import signal
import sys
import time
from typing import TYPE_CHECKING

import typer

from duel.app.i18n import N_, base_name, base_to_english, language, tr, tr_reason
from duel.app.text.typed import number
from duel.app.text.words import plural, word
from duel.quote import quoted

if TYPE_CHECKING:
    from wonders.game import GameState, Move

from duel.app.cli.support import CONTEXT_SETTINGS, add_common_options
from duel.app.control.signals import SAVE_SIGNALS, Signalled, signals_save_the_game
from duel.app.text.typed import save_target

app = typer.Typer(
    name="wonders",
    no_args_is_help=True,
    context_settings=CONTEXT_SETTINGS,
    help=N_("7 Wonders (base game, 2-7 players; 2 = the Free City variant)."),
)
add_common_options(app, "wonders")

DEFAULT_SAVE = "wonders-game.json"
#: The file (in the user data folder) a game is kept in when it ends without a save.
AUTOSAVE_NAME = "wonders-autosave.json"
ACTION_WORDS = {
    "b": "build",
    "build": "build",
    "w": "wonder",
    "wonder": "wonder",
    "s": "wonder",
    "stage": "wonder",
    "d": "discard",
    "discard": "discard",
    "sell": "discard",
    "f": "free",
    "free": "free",
    "p": "pick",
    "pick": "pick",
}
HELP_TEXT = N_(
    "Type a number from the list, or an action and a card: 'build temple', 'w baths' (Wonder "
    "stage), 'd altar' (discard for 3 coins), 'free palace' (Olympia), 'pick study' "
    "(Halicarnassus). Card names may be abbreviated. 'cities' shows every city, 'history' the "
    "moves so far, 'undo' takes back your last decision, 'save [FILE]' saves the game "
    "(default {save}; continue it with 'wonders play --load FILE'), 'q' quits."
)
#: The base game's words not shared with the Duel (the others are in duel.app.text.words).
BASE_WORDS = (
    N_("ore"),
    N_("loom"),
    N_("treasury"),
    N_("commerce"),
    N_("guilds"),
)


# --------------------------------------------------------------------------- names
def card_name(english: str) -> str:
    """A card's name as shown (its Traditional Chinese name in zh-Hant, see docs/i18n.md)."""
    return base_name("card", english)


def said(reason: str) -> str:
    """A sentence of the base game's engine (a :class:`~duel.reason.Reason`) in the current
    language, its card and Wonder names as shown."""
    return tr_reason(reason, _base_shown)


def _base_shown(english: str) -> str:
    name = base_name("card", english)
    return name if name != english else base_name("wonder", english)


def city_name(state: GameState, c: int) -> str:
    """``P0 (Gizah A)``; in Chinese the Wonder's name where it is shown (``P0 (古夫金字塔 A)``)."""
    if language() == "en":
        return state.city_name(c)
    from wonders.game import FREE_CITY_NAME

    base = tr(FREE_CITY_NAME) if c == state.free_city else f"P{c}"
    return f"{base} ({board_label(state, c)})"


def board_label(state: GameState, c: int) -> str:
    """``Gizah A``: the city's board and side; in Chinese its Wonder's name where shown."""
    board = state.cities[c].board
    shown = base_name("wonder", board.name)
    return board.label if shown == board.name else f"{shown} {board.side}"


class Quit(Exception):
    """The game stops: ``chosen`` when a human said so (and that unsaved moves are lost), not
    when input ended or Ctrl-C was pressed (the game is then saved to the autosave file)."""

    def __init__(self, chosen: bool = True) -> None:
        super().__init__(chosen)
        self.chosen = chosen


class Command(Exception):
    """A session command typed at the prompt (``undo``, ``save FILE``, ``history``)."""

    def __init__(self, verb: str, argument: str = "") -> None:
        super().__init__(verb)
        self.verb = verb
        self.argument = argument


# --------------------------------------------------------------------------- rendering
def _resources(fixed: tuple[int, ...], choices: tuple[tuple[int, ...], ...]) -> str:
    from wonders.cards import RESOURCES

    parts = [f"{n} {word(RESOURCES[r])}" for r, n in enumerate(fixed) if n]
    parts += ["/".join(word(RESOURCES[r]) for r in c) for c in choices]
    return ", ".join(parts) or tr("nothing")


def city_text(state: GameState, c: int, *, full: bool = True) -> str:
    from wonders.cards import CARDS, COLORS, RESOURCES

    city = state.cities[c]
    prof = city.profile
    board = city.board
    if city.stages < len(board.stages):
        nxt = board.stages[city.stages]
        cost = ", ".join(f"{n} {word(RESOURCES[r])}" for r, n in enumerate(nxt.cost) if n)
        wonder = tr(
            "{built}/{stages} (next: {cost} -> {effect})",
            built=city.stages,
            stages=len(board.stages),
            cost=cost,
            effect=said(nxt.describe()),
        )
    else:
        wonder = tr("{built}/{stages} complete", built=city.stages, stages=len(board.stages))
    tokens = " ".join(f"{t:+d}" for t in city.tokens) or "-"
    lines = [
        tr(
            "{city}: {coins}, {shields}, tokens {tokens}",
            city=city_name(state, c),
            coins=plural(city.coins, "coin"),
            shields=plural(prof.shields, "shield"),
            tokens=tokens,
        ),
        "  " + tr("wonder {wonder}", wonder=wonder),
        "  " + tr("produces {resources}", resources=_resources(prof.own.fixed, prof.own.choices)),
    ]
    if full:
        by_color: dict[str, list[str]] = {}
        for cid in city.built:
            by_color.setdefault(CARDS[cid].color, []).append(card_name(CARDS[cid].name))
        for color in COLORS:
            if color in by_color:
                lines.append(f"  {tr(color)}: {', '.join(by_color[color])}")
    return "\n".join(lines)


def move_text(state: GameState, move: Move) -> str:
    from wonders.cards import CARD_BY_NAME

    card = CARD_BY_NAME[move.card]
    name, colour = card_name(card.name), tr(card.color)
    if move.action == "build":
        price = state.card_price(move.city, card)
        chain = tr(" (chain)") if card.name in state.cities[move.city].profile.chain_free else ""
        paid = _paid(price) if price else ""
        return tr(
            "build {card} [{color}: {effect}]{chain}{paid}",
            card=name,
            color=colour,
            effect=said(card.describe()),
            chain=chain,
            paid=paid,
        )
    if move.action == "wonder":
        city = state.cities[move.city]
        stage = city.board.stages[city.stages]
        price = state.stage_price(move.city)
        paid = _paid(price) if price else ""
        return tr(
            "wonder stage {n} with {card} [{effect}]{paid}",
            n=city.stages + 1,
            card=name,
            effect=said(stage.describe()),
            paid=paid,
        )
    if move.action == "discard":
        return tr("discard {card} for 3 coins", card=name)
    if move.action == "free":
        return tr(
            "free build {card} (Olympia) [{color}: {effect}]",
            card=name,
            color=colour,
            effect=said(card.describe()),
        )
    return tr(
        "pick {card} from the discard pile [{color}: {effect}]",
        card=name,
        color=colour,
        effect=said(card.describe()),
    )


def _paid(price) -> str:
    """Who is paid for a build (the engine's ``_paid_text``, in the current language)."""
    from wonders.game import _paid_text

    if language() == "en":
        return _paid_text(price)
    parts = []
    bank = price.total - sum(price.paid)
    if bank:
        parts.append(tr("{n} to the bank", n=bank))
    for side, amount in zip((N_("left"), N_("right")), price.paid, strict=True):
        if amount:
            parts.append(tr("{n} to the {side}", n=amount, side=tr(side)))
    return tr(" (paying {parts})", parts=", ".join(parts)) if parts else ""


def score_table(state: GameState, console=None) -> None:
    """The score sheet, at most 80 columns wide for 7 players: columns are headed ``P0``...
    (``FC`` for the Free City) and a legend names the wonders."""
    from rich.console import Console
    from rich.table import Table

    from wonders.game import CATEGORIES

    sheets = state.scores()
    title = tr("Final scores") if state.is_terminal() else tr("Scores so far")
    table = Table(title=title, padding=(0, 1))
    table.add_column("")
    heads = ["FC" if c == state.free_city else f"P{c}" for c in range(state.n)]
    for head in heads:
        table.add_column(head, justify="right")
    for cat in CATEGORIES:
        table.add_row(tr(cat), *(str(getattr(s, cat)) for s in sheets))
    table.add_row(tr("total"), *(f"[bold]{s.total}[/bold]" for s in sheets))
    table.add_row(tr("coins"), *(str(s.coins) for s in sheets))
    console = console or Console(width=80)
    console.print(table)
    legend = ", ".join(f"{h} {board_label(state, c)}" for c, h in enumerate(heads))
    console.print(legend)
    if state.is_terminal():
        win = state.winners()
        names = ", ".join(city_name(state, p) for p in win)
        if len(win) > 1:
            console.print(tr("Winner (shared): {names}", names=names))
        else:
            console.print(tr("Winner: {names}", names=names))
        if state.free_city is not None:
            console.print(tr("(The Free City does not compete.)"))


# --------------------------------------------------------------------------- human input
def _match_card(text: str, names: list[str]) -> list[str]:
    t = text.strip().lower()
    if not t:
        return []
    for test in (
        lambda n: n.lower() == t,
        lambda n: n.lower().startswith(t),
        lambda n: all(w in n.lower() for w in t.split()),
    ):
        found = [n for n in names if test(n)]
        if found:
            return found
    return difflib.get_close_matches(text.strip().title(), names, n=3, cutoff=0.6)


def parse_input(state: GameState, player: int, text: str) -> Move | str:
    """A move from the human's text, or a message explaining what went wrong."""
    from wonders.game import Move

    moves = state.legal_moves(player)
    text = text.strip()
    k = number(text)
    if k is not None:
        if 1 <= k <= len(moves):
            return moves[k - 1]
        return tr("choose a number from 1 to {n}", n=len(moves))
    text = base_to_english(text)
    words = text.split()
    action = ACTION_WORDS.get(words[0].lower()) if words else None
    card_text = " ".join(words[1:]) if action else text
    c = moves[0].city
    from wonders.cards import CARDS

    names = list(dict.fromkeys(CARDS[i].name for i in state.options(player)))
    shown = ", ".join(map(card_name, names))
    if not card_text.strip():
        return tr("which card? ({cards})", cards=shown)
    found = _match_card(card_text, names)
    if not found:
        return tr("no card matching {text} (cards: {cards})", text=quoted(card_text), cards=shown)
    if len(found) > 1:
        return tr(
            "{text} is ambiguous: {cards}",
            text=quoted(card_text),
            cards=", ".join(map(card_name, found)),
        )
    name = found[0]
    if action is None:
        options = [m for m in moves if m.card == name]
        builds = [m for m in options if m.action in ("build", "pick")]
        if builds:
            return builds[0]
        choices = " / ".join(f"{m.action} {name}" for m in options)
        why = said(state.why_illegal(Move(c, "build", name))) if state.phase != "pick" else ""
        ask = tr("say what to do with {card}: {choices}", card=card_name(name), choices=choices)
        return f"{why}; {ask}" if why else ask
    move = Move(c, action, name)
    if move in moves:
        return move
    return said(state.why_illegal(move))


def ask_human(state: GameState, player: int, prompt_fn=input) -> Move:
    moves = state.legal_moves(player)
    c = moves[0].city
    print()
    head = tr("Age {age}, turn {turn}", age=state.age, turn=min(state.turn, 6))
    if state.phase == "pick":
        head = tr("{head}: build a card from the discard pile", head=head)
    elif state.phase == "last":
        head = tr("{head}: your last card (Babylon)", head=head)
    who = city_name(state, c)
    if c != player:
        who = tr("{city}, which you control this turn as P{player}", city=who, player=player)
    print(f"=== {head} - {who} ===")
    print(city_text(state, c))
    for nb, label in ((state.left(c), N_("left")), (state.right(c), N_("right"))):
        prof = state.cities[nb].profile
        prices = state.cities[c].profile.prices[0 if label == "left" else 1]
        print(
            "  "
            + tr(
                "{side}: {city} sells {resources} (raw {raw}, manufactured {manufactured} each)",
                side=tr(label),
                city=city_name(state, nb),
                resources=_resources(prof.sell.fixed, prof.sell.choices),
                raw=prices[0],
                manufactured=prices[4],
            )
        )
    for k, m in enumerate(moves, 1):
        print(f"  {k:2d}. {move_text(state, m)}")
    for line in cannot_build(state, player):
        print("  " + tr("cannot build: {reason}", reason=line))
    while True:
        try:
            text = prompt_fn(f"P{player}> ")
        except (EOFError, KeyboardInterrupt):
            raise Quit(chosen=False) from None
        t = text.strip().lower()
        if t in ("q", "quit", "exit"):
            if confirm_quit(prompt_fn):
                raise Quit(chosen=True)
            continue
        verb, _, argument = text.strip().partition(" ")
        if verb.lower() in ("undo", "u", "save", "history"):
            raise Command("undo" if verb.lower() == "u" else verb.lower(), argument.strip())
        if t in ("", "?", "h", "help"):
            print(tr(HELP_TEXT, save=DEFAULT_SAVE))
            continue
        if t in ("c", "cities"):
            for x in range(state.n):
                print(city_text(state, x))
            continue
        try:
            result = parse_input(state, player, text)
        except Exception as error:  # bad input must never end the game
            result = tr("could not read that ({error})", error=f"{type(error).__name__}: {error}")[
                :200
            ]
        if isinstance(result, str):
            print(f"  ! {result}")
            continue
        return result


def cannot_build(state: GameState, player: int) -> list[str]:
    """``Statue needs 1 wood, 2 ore: ...`` for each card of the hand that cannot be built now
    (the engine's own reason, as ``duel`` gives it)."""
    from wonders.cards import CARDS
    from wonders.game import Move

    if state.phase != "choose":
        return []
    c = state.decision_city(player)
    if c is None:
        return []
    legal = {m.card for m in state.legal_moves(player) if m.action in ("build", "free")}
    lines = []
    for name in dict.fromkeys(CARDS[i].name for i in state.options(player)):
        if name not in legal:
            lines.append(said(state.why_illegal(Move(c, "build", name))))
    return lines


def confirm_quit(prompt_fn=input) -> bool:
    """Ask before leaving a game; end of input leaves too, with the game saved
    (:class:`Quit` not ``chosen``): nobody said the moves may be lost."""
    try:
        answer = prompt_fn(tr("Quit this game? Unsaved moves are lost (save FILE first) [y/N] "))
    except (EOFError, KeyboardInterrupt):
        raise Quit(chosen=False) from None
    return answer.strip().lower() in ("y", "yes")


def play_to_the_end(session: Session, bots: list, humans: int, read=input) -> GameState:
    """Play the session's game to the end: seats below ``humans`` typed at ``read`` (with the
    commands undo, history and save), the others played by ``bots``.

    Raises :class:`Quit` when a human leaves (or input ends); bad input is answered and asked
    again, never raised.
    """
    while not session.state.is_terminal():
        state = session.state
        age = state.age
        p = state.current_players()[0]
        if p < humans:
            try:
                move = ask_human(state, p, read)
            except Command as command:
                _run_command(session, command)
                continue
        else:
            move = bots[p].choose(state, p)
        session.apply(move)
        state = session.state
        # Others' choices show only once the turn is resolved (simultaneous play).
        if humans and session.resolved == len(session.record.moves):
            for line in state.log:
                print(f"  - {said(line)}")
            if state.age != age and not state.is_terminal():
                print("\n*** " + tr("Age {age} begins", age=state.age) + " ***")
    return session.state


# --------------------------------------------------------------------------- commands
def _check(players: int, humans: int, bot: str) -> None:
    if not 2 <= players <= 7:
        raise typer.BadParameter(tr("players must be 2 to 7"), param_hint="--players")
    if not 0 <= humans <= players:
        raise typer.BadParameter(tr("humans must be 0 to {n}", n=players), param_hint="--humans")
    if bot not in ("random", "greedy"):
        raise typer.BadParameter(tr("bot must be random or greedy"), param_hint="--bot")


class Session:
    """A game being played: the record of every decision, and which of them were resolved (a
    player sees the others' choices only once the turn is resolved)."""

    def __init__(self, record, humans: int) -> None:
        self.record = record
        self.states = record.states()
        self.humans = humans
        self.resolved = len(record.moves)
        #: Moves made or undone since the game was loaded or saved.
        self.dirty = False

    @property
    def state(self):
        return self.states[-1]

    def apply(self, move) -> None:
        self.states.append(self.state.apply(move))
        self.record = self.record.append(move)
        self.dirty = True
        if all(m is None for m in self.state.pending):
            self.resolved = len(self.record.moves)

    def undo(self) -> str:
        """Back to before the last human decision; says what was taken back."""
        moves = self.record.moves
        for i in range(len(moves) - 1, -1, -1):
            if self.states[i].controller(moves[i].city) < self.humans:
                taken = moves[i]
                self.record = self.record.truncated(i)
                self.dirty = True
                del self.states[i + 1 :]
                self.resolved = min(self.resolved, i)
                while self.resolved and any(self.states[self.resolved].pending):
                    self.resolved -= 1
                city = city_name(self.state, taken.city)
                return tr(
                    "Took back {city}'s {move} (and the moves after it).", city=city, move=taken
                )
        return tr("Nothing to undo: no decision of yours yet.")

    def history(self) -> list[str]:
        """The resolved decisions, by Age and turn (hidden choices of this turn left out)."""
        lines = []
        heading = None
        for i, move in enumerate(self.record.moves[: self.resolved]):
            before = self.states[i]
            head = tr("Age {age}, turn {turn}", age=before.age, turn=min(before.turn, 6))
            if before.phase == "pick":
                head = tr("{head} (discard pile)", head=head)
            if head != heading:
                lines.append(tr("{head}:", head=head))
                heading = head
            lines.append(f"  {city_name(before, move.city)}: {move}")
        return lines or [tr("No move yet.")]

    def autosave(self) -> int:
        """Keep a game the player did not choose to drop: save it to the autosave file (the
        first of the usual places that works) and say where; the exit code (1: nowhere)."""
        from duel.app.control.game import autosave_places, save_somewhere
        from duel.app.control.saves import user_data_dir

        if not (self.dirty and self.record.moves):
            return 0
        place, failures = save_somewhere(
            self.record.save, autosave_places(user_data_dir() / AUTOSAVE_NAME)
        )
        for failure in failures:
            _say(tr("Could not save to {place}", place=failure))
        if place is None:
            _say(tr("The game could not be saved anywhere."))
            return 1
        self.dirty = False
        _say(
            tr(
                "Game saved to {place} ({n} moves). Continue it with: wonders play --load {file}",
                place=place,
                n=len(self.record.moves),
                file=shlex.quote(str(place)),
            )
        )
        return 0


def _say(text: str) -> None:
    """Print if the terminal is still there (after a hang-up it may not be)."""
    with contextlib.suppress(OSError, ValueError):
        print(text, flush=True)


@app.command()
def play(
    players: int = typer.Option(3, "--players", "-p", help=N_("2-7 (2 = Free City variant)")),
    humans: int = typer.Option(1, "--humans", "-k", help=N_("human players (seats 0..K-1)")),
    seed: int | None = typer.Option(None, "--seed", "-s", help=N_("random seed")),
    bot: str = typer.Option("greedy", "--bot", "-b", help=N_("AI level: random or greedy")),
    sides: str = typer.Option("random", "--sides", help=N_("Wonder sides: random, A or B")),
    load: str | None = typer.Option(
        None, "--load", help=N_("Continue a saved game (its players, seed and sides)")
    ),
) -> None:
    """Play a game: K humans (hot seat) against AI players, or all AI with --humans 0."""
    from wonders.bots import make_bot
    from wonders.record import GameRecord, RecordError

    if load is not None:
        try:
            record = GameRecord.load(load)
        except RecordError as error:
            print(f"wonders: {error}", file=sys.stderr)
            raise typer.Exit(code=2) from None
        players, seed, sides = record.players, record.seed, record.sides
        humans = min(humans, players)
        print(tr("Continuing {file}: {n} moves so far", file=load, n=len(record.moves)))
    else:
        if seed is None:
            seed = int(time.time()) % 100000
        record = GameRecord(players, seed, sides, metadata={"program": "wonders play"})
    _check(players, humans, bot)
    if sides not in ("random", "A", "B"):
        raise typer.BadParameter(tr("sides must be random, A or B"), param_hint="--sides")
    record = GameRecord(
        record.players,
        record.seed,
        record.sides,
        record.moves,
        {**record.metadata, "humans": humans, "bot": bot},
    )
    print(tr("7 Wonders, {n} players, seed {seed}", n=players, seed=seed))
    session = Session(record, humans)
    state = session.state
    bots = [make_bot(bot, seed + p) for p in range(players)]
    for c in range(state.n):
        if c < humans:
            kind = tr("human")
        else:
            kind = tr("{level} AI", level=bot) if c < players else tr("Free City")
        print(f"  {city_name(state, c)}: {kind}")
    read = input
    if _is_terminal():
        from duel.app.line.input import terminal_reader

        read = terminal_reader(plain=True)  # never readline, whose keys can crash the process
    try:
        with signals_save_the_game():
            state = play_to_the_end(session, bots, humans, read)
    except Quit as stop:
        if stop.chosen:
            print("\n" + tr("Game abandoned. Bye!"))
            raise typer.Exit(code=0) from None
        _say("")
        raise typer.Exit(code=session.autosave()) from None
    except KeyboardInterrupt:  # Ctrl-C while the bots play (at the prompt it is a Quit)
        _say("\n" + tr("Interrupted."))
        raise typer.Exit(code=session.autosave() or 130) from None
    except Signalled as stop:
        for sig in SAVE_SIGNALS:  # a second signal must not interrupt the save
            signal.signal(sig, signal.SIG_IGN)
        _say("\n" + tr("Stopped by {signal}.", signal=signal.Signals(stop.signum).name))
        code = session.autosave()
        raise typer.Exit(code=code or 128 + stop.signum) from None
    print()
    for c in range(state.n):
        print(city_text(state, c))
    score_table(state)


def _is_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _run_command(session: Session, command: Command) -> None:
    if command.verb == "undo":
        print(session.undo())
    elif command.verb == "history":
        print("\n".join(session.history()))
    elif command.verb == "save":
        text = command.argument or DEFAULT_SAVE
        try:
            path = save_target(text)
            session.record.save(path)
        except (OSError, ValueError) as error:  # ValueError: RecordError, a NUL in the name
            reason = getattr(error, "strerror", None) or error
            print("  ! " + tr("cannot save to {file}: {reason}", file=quoted(text), reason=reason))
            return
        session.dirty = False
        print(tr("Game saved to {place} ({n} moves).", place=path, n=len(session.record.moves)))


@app.command()
def selfplay(
    players: int = typer.Option(3, "--players", "-p", help="2-7"),
    games: int = typer.Option(100, "--games", "-g", help=N_("number of games")),
    seed: int = typer.Option(0, "--seed", "-s", help=N_("first seed")),
    bot: str = typer.Option(
        "greedy", "--bot", "-b", help=N_("random, greedy, or mixed (greedy in even seats)")
    ),
) -> None:
    """Bots play each other; prints wins and average scores per seat."""
    _check(players, 0, bot if bot != "mixed" else "greedy")
    if games < 1:
        raise typer.BadParameter(tr("games must be at least 1"), param_hint="--games")
    from wonders.bots import make_bot, play_game
    from wonders.game import new_game

    wins = [0.0] * players
    totals = [0] * players
    start = time.perf_counter()
    state = None
    for g in range(games):
        kinds = [
            ("greedy" if p % 2 == 0 else "random") if bot == "mixed" else bot
            for p in range(players)
        ]
        bots = [make_bot(k, seed + g * 10 + p) for p, k in enumerate(kinds)]
        state = play_game(new_game(players, seed + g), bots)
        for p, r in enumerate(state.returns()):
            wins[p] += r
        for p, s in enumerate(state.scores()[:players]):
            totals[p] += s.total
    elapsed = time.perf_counter() - start
    print(
        tr(
            "{games} games, {n} players, {rate} games/s",
            games=games,
            n=players,
            rate=f"{games / elapsed:.1f}",
        )
    )
    for p in range(players):
        kind = ("greedy" if p % 2 == 0 else "random") if bot == "mixed" else bot
        print(
            tr(
                "  P{seat} ({level}): wins {wins}, average score {average}",
                seat=p,
                level=kind,
                wins=f"{wins[p]:.1f}",
                average=f"{totals[p] / games:.1f}",
            )
        )
    if state is not None:
        print(tr("Last game:"))
        score_table(state)


def main() -> None:
    """Entry point of the ``wonders`` console script."""
    try:
        app()
    except KeyboardInterrupt:
        print("\n" + tr("Interrupted. Bye!"))
        sys.exit(130)


if __name__ == "__main__":
    main()
