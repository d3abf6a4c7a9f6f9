"""``duel play --expansions pantheon``: a game with an expansion in the terminal, line by line.

Each player sees their own view only (:meth:`duel.expansions.XState.view`): the opponent's
Divinity seated face down shows as its Mythology, the card the opponent put back on a deck as
"a card". Between two humans at one terminal, a hand-over screen comes before each player's
turn, so that one player's private cards are off the screen when the other sits down.
Against an AI, the screen always shows the human's view; the AI reads its own view.

``--record FILE`` is written atomically after every move. While the game runs it holds each
move as the opponent of its player saw it (``seat a Greek Divinity on 3``), marked
``in_progress``, so the file tells no one a face-down card before the rules reveal it; when the
game ends it becomes the full record (every private move with its card, as a score sheet
written after the game), which :class:`duel.expansions.record.XRecord` replays. Resuming a game
in progress is not offered yet: it needs the sealed saves of docs/engine.md ("Records and
saves").
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

from duel.app.i18n import N_, shown, tr
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
from duel.expansions.record import FORMAT as RECORD_FORMAT
from duel.expansions.record import VERSION as RECORD_VERSION
from duel.expansions.record import XRecord
from duel.expansions.table import HIDDEN, TAKEN, controller
from duel.moves import PLAYER_NAMES
from duel.position import write_atomically

HUMAN = "human"
EXPANSION_TITLES = {"pantheon": N_("Pantheon"), "agora": N_("Agora")}
CLEAR = "\033[2J\033[H"
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
            "a {mythology} Divinity, face down, seated by {player}",
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


class XGameControl:
    """A game's control, apart from what draws it (the line mode below, the full-screen app of
    :mod:`duel.app.xscreen`): the referee state, the players, the dealer and the record."""

    def __init__(
        self,
        expansions: tuple[str, ...],
        seats: tuple[str, str],
        *,
        seed: int | None = None,
        think: float = 1.0,
        record: Path | None = None,
        notify: Callable[[str], None] = print,
    ) -> None:
        from duel.solvers.xplayers import make_xplayer

        self.state = new_xgame(expansions)
        self.expansions = expansions
        # Fair play without a seed: the operating system's randomness, drawn when the rules
        # reveal a card (a seed makes the deal reproducible, as in the base game).
        self.dealer = random.Random(seed) if seed is not None else random.SystemRandom()
        self.seats = seats
        self.players = tuple(
            None if s == HUMAN else make_xplayer(s, seed=(seed or 0) + i, time_per_move=think)
            for i, s in enumerate(seats)
        )
        self.moves: list[XMove] = []
        self.public_moves: list[str] = []  # each move as the other player saw it
        self.record_path = record
        self.notify = notify
        self.think = think
        self.last_human: int | None = None

    @property
    def humans(self) -> list[int]:
        return [p for p in (0, 1) if self.players[p] is None]

    def save(self) -> None:
        """Write the record: in full once the game is over; while it runs, every move as the
        opponent of its player saw it, so that the file tells no one a face-down card early."""
        if self.record_path is None:
            return
        metadata = {"players": list(self.seats)}
        try:
            if self.state.is_terminal():
                XRecord(self.expansions, tuple(self.moves), metadata).save(self.record_path)
                return
            data = {
                "format": RECORD_FORMAT,
                "version": RECORD_VERSION,
                "expansions": list(self.expansions),
                "metadata": {**metadata, "in_progress": True},
                "moves": self.public_moves,
            }
            write_atomically(Path(self.record_path), json.dumps(data, indent=1) + "\n")
        except OSError as error:
            self.notify(tr("Could not write the record: {error}", error=error))

    def play(self, move: XMove) -> None:
        """Apply ``move`` (legal: from the legal moves or checked by :meth:`read_move`)."""
        state = self.state
        self.state = state.apply(move, check=False)
        self.moves.append(move)
        self.public_moves.append(str(observe(state, move, 1 - state.to_move)))
        self.save()

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
        if text.isdigit():
            if 1 <= int(text) <= len(moves):
                return moves[int(text) - 1]
            return tr("Choose a number from 1 to {n}.", n=len(moves))
        try:
            move = XMove.parse(text)
        except ValueError as error:
            return str(error)
        reason = view.why_illegal(move)
        return move if reason is None else reason

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
    """The line mode: the board and the numbered moves before each human decision."""
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
                write(tr("Game left unfinished."))
                return 1
        view = control.view(player)
        write("\n".join(board_lines(view)))
        write(tr("Your moves, {player}:", player=PLAYER_NAMES[player]))
        for number, move in enumerate(view.legal_moves(), 1):
            write(f"  {number:3}  {move_line(view, move)}")
        while True:
            try:
                text = read(tr("Move (number, notation, hint or quit): ")).strip()
            except (EOFError, KeyboardInterrupt):
                text = "quit"
            if text.lower() in ("quit", "q", "exit"):
                write(tr("Game left unfinished."))
                return 1
            if not text:
                continue
            if text.lower() == "hint":
                write("\n".join(hint_lines(view, control.think, 5)[0]))
                continue
            move = control.read_move(player, text)
            if isinstance(move, str):
                write(move)
                continue
            control.play(move)
            break
    write("\n".join(board_lines(control.view())))
    write(control.result())
    return 0


def run_xgame(
    expansions: tuple[str, ...],
    seats: tuple[str | None, str | None],
    *,
    seed: int | None = None,
    think: float = 1.0,
    record: Path | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    full_screen: bool = False,
) -> int:
    """Play a game with ``expansions``, line by line or ``full_screen``; ``seats`` are levels of
    ``duel.solvers.xplayers`` or ``human`` (default: a human as A against ``mcts`` as B)."""
    chosen = (seats[0] or HUMAN, seats[1] or "mcts")
    from duel.solvers.xplayers import XLEVELS

    for seat in chosen:
        if seat != HUMAN and seat.partition(":")[0] not in XLEVELS:
            write(
                tr(
                    "{level}: expansion games are played by human, {levels}",
                    level=seat,
                    levels=", ".join(XLEVELS),
                )
            )
            return 2
    control = XGameControl(expansions, chosen, seed=seed, think=think, record=record, notify=write)
    return _play_lines(control, read, write)


def hint_lines(view: XState, seconds: float, top: int, seed: int = 0) -> tuple[list[str], dict]:
    """The search's best moves for the player to move in ``view`` (their own view), as lines and
    as JSON."""
    from duel.solvers.xplayers import search

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


def hint_record(path: Path, seconds: float | None, top: int, seed: int, as_json: bool) -> int:
    """``duel hint RECORD`` for a game with expansions: the moves of the player to move at the
    record's end, searched on that player's view."""
    from duel.app.cli_support import fail
    from duel.expansions.record import XRecordError

    try:
        state = XRecord.load(path).final_state()
    except XRecordError as error:
        fail(str(error))
    if state.is_terminal() or state.is_chance():
        fail(
            tr(
                "{path}: no decision to hint at ({position})",
                path=path,
                position=state.describe(),
            ),
            1,
        )
    view = state.view(state.to_move)
    lines, data = hint_lines(view, seconds if seconds is not None else 2.0, max(1, top), seed)
    if as_json:
        print(json.dumps(data, indent=1))
    else:
        print("\n".join(board_lines(view)))
        print("\n".join(lines))
    return 0
