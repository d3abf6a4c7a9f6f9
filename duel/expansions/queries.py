"""What the rules ask of an expansion state, without changing it: Agora's Senate (whose Decrees
are in force, the cubes in supply, the Chambers' points), the targets of a Conspiracy, and the
science symbols a city shows. Shared by :mod:`duel.expansions.effects`,
:mod:`duel.expansions.senate`, :mod:`duel.expansions.rules` and the state's scoring."""

from __future__ import annotations

from typing import TYPE_CHECKING

from duel.catalog import T_LAW
from duel.expansions.agora import CHAMBERS, CONSPIRACIES, CUBES
from duel.expansions.components import XCARDS, structure_of
from duel.expansions.table import COLOR_OF, SENATOR_SET, controller, cubes_placed

if TYPE_CHECKING:
    from duel.expansions.state import XState


def in_force(s: XState, player: int, decree: str) -> bool:
    """Whether ``decree`` lies face up in a Chamber ``player`` controls."""
    if "agora" not in s.expansions:
        return False
    return any(
        controller(s.senate, i + 1) == player and (decree, True) in entries
        for i, entries in enumerate(s.decrees)
    )


def supply(s: XState, player: int) -> int:
    return CUBES - cubes_placed(s.senate, player)


def senate_points(s: XState, player: int) -> int:
    return sum(c.points for c in CHAMBERS if controller(s.senate, c.chamber) == player)


def opponent_cubes(s: XState, player: int) -> bool:
    return any(pair[1 - player] for pair in s.senate)


def lockable(s: XState, player: int) -> list[int]:
    return sorted(set(s.board) | s.cities[1 - player].tokens | set(s.box_tokens))


def fraud_cards(s: XState) -> list[int]:
    """Property Fraud: the cards of row 1 (the farthest) still in the structure, no Senator."""
    layout = structure_of(s.expansions, s.age) if s.age else None
    if layout is None:
        return []
    return [
        s.pyramid[slot]
        for slot in layout.rows[0]
        if s.present >> slot & 1 and s.pyramid[slot] >= 0 and s.pyramid[slot] not in SENATOR_SET
    ]


def treason_cards(s: XState) -> list[int]:
    """Treason: the cards removed at setup from this Age (once seen) and the earlier ones."""
    built = set().union(*(c.cards for c in s.cities)) | set(s.discard)
    known = set(s.removed) | set(s.removed_now or ())
    return sorted(c for c in known if c not in built)


def swaps(s: XState, player: int) -> list[tuple[int, int]]:
    mine, theirs = s.cities[player].cards, s.cities[1 - player].cards
    return [
        (m, o)
        for colour in ("blue", "green")
        for m in sorted(mine)
        if COLOR_OF[m] == colour
        for o in sorted(theirs)
        if COLOR_OF[o] == colour
    ]


def useful_to_trigger(s: XState, player: int, name: str) -> bool:
    """Whether triggering Conspiracy ``name`` now could do anything (BGA
    ``Conspiracy::isUsefulToTrigger``, which decides whether Curia Julia's step is offered):
    its main effect has a target, or its cube move (or Senate action) has a cube to use."""
    opponent = s.cities[1 - player]
    mine, theirs = cubes_placed(s.senate, player), cubes_placed(s.senate, 1 - player)
    colours = {COLOR_OF[c] for c in opponent.cards}
    if name == "Extortion":
        return bool(opponent.wonders) or mine > 0
    if name == "Blackmail":
        return opponent.coins > 0 or mine > 0
    if name == "Expropriation":
        return "blue" in colours or mine > 0
    if name == "Swindle":
        return "yellow" in colours or mine > 0
    if name == "Property Fraud":
        return bool(fraud_cards(s))
    if name == "Political Maneuver":
        return supply(s, player) > 0 or theirs > 0 or mine > 0
    if name == "Turn Of Events":
        return bool(s.present) or mine > 0
    if name == "Embezzlement":
        return mine > 0 or (theirs > 0 and opponent.coins > 0)
    if name == "Foreclosure":
        return bool(colours & {"brown", "grey"})
    if name == "Coercion":
        return bool(swaps(s, player)) or mine > 0
    if name == "Sabotage":
        return bool(opponent.built)
    # Obscurantism, Coup, Treason, Espionage, Insider Influence: always something to do
    return True


def unaccounted_plots(s: XState) -> tuple[str, ...]:
    """Conspiracies whose place the observer does not know."""
    known = {p.name for city in s.cities for p in city.plots}
    known.update(c.divinity for c in (*s.plot_top, *s.plot_bottom))
    if s.drawn_plots:
        known.update(s.drawn_plots)
    return tuple(c for c in CONSPIRACIES if c not in known)


def visible_decrees(s: XState) -> set[str]:
    return {name for entries in s.decrees for name, up in entries if up}


def blue_cards(t: XState, player: int) -> int:
    return t.cities[player].count("blue")


def science_symbols(t: XState, player: int) -> frozenset[str]:
    """``player``'s distinct science symbols as the table shows them: their green cards, Law
    (the token or Ishtar) and the symbol under Nisaba's Snake."""
    city, other = t.cities[player], t.cities[1 - player]
    symbols = {XCARDS[c].science for c in city.cards if XCARDS[c].science}
    if T_LAW in city.tokens or "Ishtar" in city.divinities:
        symbols.add("law")
    if city.snake is not None and city.snake in other.cards:
        symbols.add(XCARDS[city.snake].science)
    return frozenset(symbols)


def symbol_count(t: XState, player: int, symbol: str) -> int:
    """How many times ``symbol`` shows in ``player``'s city (BGA ``hasScientificSymbolPair``):
    its green cards, Law (the token, Ishtar) and the Snake token."""
    city, other = t.cities[player], t.cities[1 - player]
    count = sum(1 for c in city.cards if XCARDS[c].science == symbol)
    if symbol == "law":
        count += (T_LAW in city.tokens) + ("Ishtar" in city.divinities)
    snake = city.snake
    if snake is not None and snake in other.cards and XCARDS[snake].science == symbol:
        count += 1
    return count
