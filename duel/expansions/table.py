"""The pieces of an expansion game's state: a city, a Pantheon space, a card known to lie
in a Mythology deck, the score sheet; the constants of the rules they share."""

from __future__ import annotations

from dataclasses import dataclass

from duel.catalog import (
    GUILDS,
    TOKENS,
    WONDERS,
    bits,
)
from duel.expansions.components import (
    AGORA_TOKENS,
    AGORA_WONDERS,
    MYTHOLOGIES,
    PANTHEON_TOKENS,
    PANTHEON_WONDERS,
    SENATOR_IDS,
    TEMPLE_IDS,
    XCARDS,
)
from duel.state import Score

EXPANSIONS = ("agora", "pantheon")
#: The sets of expansions by the names the benchmarks and calibration files use.
NAMED_SETS: dict[str, tuple[str, ...]] = {
    "pantheon": ("pantheon",),
    "agora": ("agora",),
    "both": ("agora", "pantheon"),
}
#: How a view weighs the cards an opponent may have chosen (see the module docstring).
CHANCE_MODEL = "uniform-consistent"
TAKEN, HIDDEN = -1, -2
START_COINS = 7
BOARD_TOKEN_COUNT = 5
DRAFT_ORDER = (0, 1, 1, 0, 1, 0, 0, 1)
#: Military tokens as in the base engine: bit i is MILITARY_TOKEN_NAMES[i]; (distance, coins).
LOOT = ((3, 2, 0b0001), (6, 5, 0b0010))
ALL_MILITARY = 0b1111
TOKEN_LOSS = (2, 5, 2, 5)
SCIENCE_VICTORY_SYMBOLS = 6
_MILITARY_A = [0 if p <= 0 else 2 if p <= 2 else 5 if p <= 5 else 10 for p in range(-9, 10)]
MILITARY_POINTS = (_MILITARY_A, _MILITARY_A[::-1])
COLOR_OF = {c.id: c.color for c in XCARDS}


class XIllegalMoveError(ValueError):
    """A move that is not legal here; the message says why."""


@dataclass(frozen=True, slots=True)
class Space:
    """A Pantheon space: its Divinity (``None`` if face down and unknown to the observer)."""

    divinity: str | None
    mythology: str | None  # None for the Gate
    owner: int  # who seated it; -1 for the Gate
    face_up: bool


@dataclass(frozen=True, slots=True)
class DeckCard:
    """A card known to lie at its place from the top of a Mythology deck, and who knows it."""

    divinity: str | None  # None: known to ``known_to``, not to the state's observer
    known_to: frozenset[int]


@dataclass(frozen=True)
class XScore(Score):
    """A city's victory points by category: the base score sheet's, and ``divinities``
    (Aphrodite's 9, a point per coin left on Astarte)."""

    divinities: int = 0
    senate: int = 0  # Agora: the points of the Chambers controlled

    @property
    def total(self) -> int:
        return super().total + self.divinities + self.senate

    CATEGORIES: tuple[str, ...] = (*Score.CATEGORIES, "divinities", "senate")  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class Plot:
    """An Agora Conspiracy in a player's hand (``name`` is ``None`` where the observer does not
    know it: the opponent's, until it is triggered)."""

    name: str | None
    prepared: bool = False
    fresh: bool = False  # prepared this turn: it cannot be triggered before the next one
    used: bool = False  # triggered: face up, public
    card: int | None = None  # the Age card tucked under it to prepare it


class City:
    """One player's side of the table. Immutable by contract once in a state."""

    __slots__ = (
        "coins",
        "astarte",
        "cards",
        "wonders",
        "built",
        "tokens",
        "science",
        "mythology",
        "offerings",
        "divinities",
        "snake",
        "plots",
        "removed_seen",
    )

    def __init__(self) -> None:
        self.coins = START_COINS
        self.astarte = 0  # coins lying on Astarte: spendable, never lost, 1 VP each
        self.cards: frozenset[int] = frozenset()
        self.wonders: tuple[int, ...] = ()  # owned, not built
        self.built: tuple[tuple[int, int], ...] = ()  # (wonder, the Age card under it)
        self.tokens: frozenset[int] = frozenset()
        self.science: frozenset[str] = frozenset()  # distinct symbols
        self.mythology: tuple[str, ...] = ()  # Mythology tokens held
        self.offerings: tuple[int, ...] = ()  # Offering tokens held (their values)
        self.divinities: tuple[str, ...] = ()  # activated (and the Gate)
        self.snake: int | None = None  # Nisaba: the opponent's green card whose symbol is ours
        self.plots: tuple[Plot, ...] = ()  # Agora: Conspiracies in hand, in the order drawn
        self.removed_seen: frozenset[int] = frozenset()  # Treason: this Age's removed cards

    def copy(self) -> City:
        other = City.__new__(City)
        for name in City.__slots__:
            setattr(other, name, getattr(self, name))
        return other

    def key(self) -> tuple:
        return tuple(getattr(self, name) for name in City.__slots__)

    @property
    def built_wonders(self) -> tuple[int, ...]:
        return tuple(w for w, _ in self.built)

    def count(self, color: str) -> int:
        return sum(1 for c in self.cards if COLOR_OF[c] == color)

    @property
    def funds(self) -> int:
        """Coins that can be spent: the treasury and Astarte's."""
        return self.coins + self.astarte


FIELDS = (
    "expansions",
    "observer",
    "phase",
    "to_move",
    "age",
    "pyramid",
    "present",
    "accessible",
    "reveal",
    "unseen",
    "back_slots",
    "pawn",
    "military",
    "minerva",
    "board",
    "library",
    "enki_tokens",
    "discard",
    "offer",
    "wonders_unseen",
    "picks",
    "extra",
    "winner",
    "victory",
    "destroying",
    "cities",
    "spaces",
    "deck_size",
    "deck_tops",
    "mythology_on",
    "offering_on",
    "drawing",
    "drawn",
    "revealing",
    "chosen",
    # Agora
    "senate",
    "decrees",
    "plot_size",
    "plot_top",
    "plot_bottom",
    "drawn_plots",
    "pending",
    "continuation",
    "triggered",
    "backs",
    "senators_seen",
    "removed",
    "removed_now",
    "removed_by",
    "step",
    "locked",
)


TEMPLE_SET = frozenset(TEMPLE_IDS)
GUILD_SET = frozenset(bits(GUILDS))


SENATOR_SET = frozenset(SENATOR_IDS)


def token_pool(expansions: tuple[str, ...]) -> tuple[int, ...]:
    extra = PANTHEON_TOKENS if "pantheon" in expansions else ()
    extra += AGORA_TOKENS if "agora" in expansions else ()
    return tuple(range(len(TOKENS))) + extra


def wonder_pool(expansions: tuple[str, ...]) -> frozenset[int]:
    extra = PANTHEON_WONDERS if "pantheon" in expansions else ()
    extra += AGORA_WONDERS if "agora" in expansions else ()
    return frozenset(range(len(WONDERS))) | frozenset(extra)


def controller(senate: tuple[tuple[int, int], ...], chamber: int) -> int | None:
    """Who controls ``chamber`` (1-6): strictly more cubes; a tie controls nothing."""
    a, b = senate[chamber - 1]
    return 0 if a > b else 1 if b > a else None


def cubes_placed(senate: tuple[tuple[int, int], ...], player: int) -> int:
    return sum(pair[player] for pair in senate)


def deck_index(mythology: str) -> int:
    return MYTHOLOGIES.index(mythology)


def category_count(state, player: int, categories: tuple[str, ...]) -> int:
    """How many of ``categories`` (card colours, "wonder", "coins_div3") ``player`` has: what a
    guild or a commercial card counts."""
    city = state.cities[player]
    total = 0
    for category in categories:
        if category == "wonder":
            total += len(city.built)
        elif category == "coins_div3":
            total += city.coins // 3
        else:
            total += city.count(category)
    return total
