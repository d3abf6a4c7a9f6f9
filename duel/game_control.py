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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duel.cli_support import user_data_dir
from duel.moves import Kind, Move
from duel.state import State

NOT_FAIR = "seeded game: not fair play"
FAIR = "fair play: every hidden card is dealt from the operating system's randomness when revealed"
MANUAL = "cards typed by the user (a real game's deal)"


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
            return MANUAL + ("" if self.seed is None else f"; Enter deals from seed {self.seed}")
        if self.seed is None:
            return FAIR
        since = "" if self.seeded_from is None else f" from move {self.seeded_from}"
        return f"{NOT_FAIR} (seed {self.seed}{since}: the deal is reproducible)"

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
        return "Nothing to undo."
    if not may_undo_chance:
        dealt = [m for m in moves[target:] if m.is_chance]
        if dealt:
            return (
                "Cannot undo: cards were dealt since that decision "
                f"({_dealt_text(dealt)}), and this is a fair game: taking them back would "
                "let you choose again knowing them. (Games started with --seed allow it.)"
            )
    if target - 1 in redacted:
        return (
            "Cannot undo to The Great Library's choice: the saved game does not keep the two "
            "tokens not chosen."
        )
    return target


def _dealt_text(dealt: Sequence[Move]) -> str:
    kinds = {m.kind for m in dealt}
    if kinds == {Kind.LIBRARY_DRAW}:
        return "The Great Library's draw"
    count = sum(1 for m in dealt if m.kind is Kind.REVEAL_CARD)
    return f"{count} card{'s' if count != 1 else ''} turned face up" if count else "a deal"


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
    failures = []
    for place in places:
        try:
            if place.parent != Path(".") and not place.parent.exists():
                place.parent.mkdir(parents=True, exist_ok=True)
            write(place)
            return place, failures
        except (OSError, ValueError) as error:
            failures.append(f"{place}: {getattr(error, 'strerror', None) or error}")
    return None, failures
