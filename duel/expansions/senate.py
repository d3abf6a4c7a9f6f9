"""Agora's rules: the Senate (cubes, control, Decrees, political supremacy), Senators,
Conspiracies, Agora's military tokens and Wonders (docs/agora.md).

Agora's effects come in chains of *steps* (a Politician's Senate actions, a Conspiracy's cube
moves, a Decree turned up...), queued and resolved by :mod:`duel.expansions.effects`, which also
holds the hooks the shared rules call (a Senator recruited, a tithe, a military token). This
module holds Agora's decisions, chance nodes and moves; each ``_apply_*`` takes ``t``, a fresh
copy of the state being built.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from duel.catalog import AGE_DECK
from duel.expansions.agora import (
    CHAMBERS,
    CONSPIRACIES,
    CONSPIRACIES_WITH_MOVE,
    DECREES,
    SECTION_CHAMBERS,
    SENATORS_PER_AGE,
    adjacent,
)
from duel.expansions.components import (
    SENATOR_IDS,
    SENATOR_KIND,
    T_ORGANIZED_CRIME,
    XCARDS,
)
from duel.expansions.effects import (
    construct_card,
    end_game,
    finish_turn,
    move_pawn,
    next_layout_phase,
    push,
    recompute_science,
    remove_from_structure,
    resolve,
    take_from_pyramid,
    take_uncovered_tokens,
)
from duel.expansions.moves import XMove
from duel.expansions.queries import (
    fraud_cards,
    lockable,
    science_symbols,
    supply,
    swaps,
    symbol_count,
    treason_cards,
    unaccounted_plots,
    visible_decrees,
)
from duel.expansions.table import (
    GUILD_SET,
    TEMPLE_SET,
    DeckCard,
    Plot,
    controller,
)

if TYPE_CHECKING:
    from duel.expansions.state import XState

# --- the Senate ----------------------------------------------------------------------------------
def change_cubes(t: XState, chamber: int, player: int, delta: int) -> None:
    """Add (or take away) ``player``'s cubes in ``chamber``; control changes take effect."""
    before = [controller(t.senate, c.chamber) for c in CHAMBERS]
    a, b = t.senate[chamber - 1]
    pair = (a + delta, b) if player == 0 else (a, b + delta)
    t.senate = (*t.senate[: chamber - 1], pair, *t.senate[chamber:])
    after = [controller(t.senate, c.chamber) for c in CHAMBERS]
    for i, (old, new) in enumerate(zip(before, after, strict=True)):
        if old != new:
            control_changed(t, i + 1, old, new)
            if t.phase == "game_over":
                return
    check_politics(t)


def control_changed(t: XState, chamber: int, old: int | None, new: int | None) -> None:
    """A Chamber changed hands: its face-down Decrees turn up, Standing army moves the pawn."""
    entries = t.decrees[chamber - 1]
    if new is not None:
        hidden = sum(1 for _, up in entries if not up)
        push(t, *[("decree", chamber)] * hidden, front=True)
    if ("Standing army", True) in entries:
        if old is not None and move_pawn(t, 1 - old, 1):
            return
        if new is not None:
            move_pawn(t, new, 1)


def check_politics(t: XState) -> None:
    """Political supremacy: one player controls all six Chambers at once."""
    owners = {controller(t.senate, c.chamber) for c in CHAMBERS}
    owner = owners.pop() if len(owners) == 1 else None
    if owner is not None and t.phase != "game_over":
        end_game(t, owner, "political")


# --- the queue of steps ---------------------------------------------------------------------------
# --- Conspiracies ------------------------------------------------------------------------------
def conspiracy_steps(name: str, player: int) -> list[tuple]:
    """The steps of a triggered Conspiracy."""
    by_name: dict[str, list[tuple[Any, ...]]] = {
        "Extortion": [("steal", player)],
        "Blackmail": [("coins", player, "blackmail")],
        "Expropriation": [("destroy", player, "blue")],
        "Swindle": [("destroy", player, "yellow")],
        "Obscurantism": [("lock", player)],
        "Coup": [("shields", player, 2)],
        "Property Fraud": [("fraud", player)],
        "Treason": [("treason", player)],
        "Political Maneuver": [("place", player), ("evict", player)],
        "Espionage": [("espionage", player)],
        "Turn Of Events": [("discard_any", player, 1), ("discard_any", player, 2)],
        "Embezzlement": [("coins", player, "embezzlement")],
        "Foreclosure": [("take", player)],
        "Coercion": [("coercion", player)],
        "Insider Influence": [("insider", player)],
        "Sabotage": [("sabotage", player)],
    }
    steps = by_name[name]
    if name in CONSPIRACIES_WITH_MOVE:
        steps.append(("move", player))
    return steps


# --- legal decisions ------------------------------------------------------------------------------
def _place_moves(s: XState, chambers) -> list[XMove]:
    return [XMove("place", (c,)) for c in chambers] if supply(s, s.to_move) else []


def _move_moves(s: XState) -> list[XMove]:
    player = s.to_move
    return [
        XMove("move_cube", (c, d))
        for c in range(1, 7)
        if s.senate[c - 1][player]
        for d in adjacent(c)
    ]


def _keep_moves(s: XState) -> list[XMove]:
    drawn = s.drawn_plots
    if drawn is None:
        return [XMove("keep", (None, None, w)) for w in ("top", "bottom")]
    return [
        XMove("keep", ((kept,), other, w))
        for kept in drawn
        for other in drawn
        if other != kept
        for w in ("top", "bottom")
    ]


def _curia_moves(s: XState) -> list[XMove]:
    return [*trigger_moves(s, lambda p: not p.prepared and not p.used), XMove("no_trigger")]


def trigger_moves(s: XState, which) -> list[XMove]:
    """``trigger plot k (NAME)`` for the mover's Conspiracies ``which`` accepts; in a view of
    the opponent's turn, one move per Conspiracy it may be (its name becomes public)."""
    moves: list[XMove] = []
    for i, plot in enumerate(s.cities[s.to_move].plots):
        if which(plot):
            names = [plot.name] if plot.name is not None else unaccounted_plots(s)
            moves.extend(XMove("trigger", (i + 1, name)) for name in names)
    return moves


def _insider_moves(s: XState) -> list[XMove]:
    """Insider Influence: the top Decree of any Chamber, face up or down (BGA moves the Decree
    at the top of the Chamber's stack), to any other Chamber."""
    return [
        XMove("move_decree", (c, entries[0][0] if entries[0][1] else None, d))
        for c, entries in enumerate(s.decrees, 1)
        if entries
        for d in range(1, 7)
        if d != c
    ]


DECISIONS = {
    "place": lambda s: _place_moves(s, range(1, 7)),
    "evict": lambda s: [
        XMove("evict", (c,)) for c in range(1, 7) if s.senate[c - 1][1 - s.to_move]
    ],
    "move_cube": lambda s: [*_move_moves(s), XMove("no_move")],
    "senate": lambda s: [
        *_place_moves(s, SECTION_CHAMBERS[s.step[2]]),
        *_move_moves(s),
        XMove("stop"),
    ],
    "conspirator": lambda s: [*_place_moves(s, range(1, 7)), XMove("conspire")],
    "keep_plot": _keep_moves,
    "lock_token": lambda s: [XMove("lock", (t,)) for t in lockable(s, s.to_move)],
    "fraud": lambda s: [XMove("free_build", (c,)) for c in fraud_cards(s)],
    "treason": lambda s: (
        [XMove("free_build", (c,)) for c in treason_cards(s)] or [XMove("no_discard")]
    ),
    "espionage": lambda s: [XMove("token", (t,)) for t in s.box_tokens],
    "discard_any": lambda s: (
        [
            XMove("discard_free", (s.pyramid[slot],))
            for slot in range(len(s.pyramid))
            if s.accessible >> slot & 1 and s.pyramid[slot] >= 0
        ]
        + ([XMove("no_discard")] if s.step[2] == 2 else [])
    ),
    "coercion": lambda s: [XMove("swap", pair) for pair in swaps(s, s.to_move)],
    "insider": _insider_moves,
    "sabotage": lambda s: [
        XMove("sabotage", (w,)) for w in sorted(w for w, _ in s.cities[1 - s.to_move].built)
    ],
    "curia": _curia_moves,
}


# --- chance --------------------------------------------------------------------------------------
def _decree_outcomes(s: XState) -> list[tuple[XMove, int]]:
    chamber = s.step[1]
    seen = visible_decrees(s)
    return [(XMove("decree", (chamber, d)), 1) for d in DECREES if d not in seen]


def _back_outcomes(s: XState) -> list[tuple[XMove, int]]:
    slot = s.backs.index(None)
    left = _backs_left(s)
    return [(XMove("back", (slot, kind)), n) for kind, n in left.items() if n]


def _backs_left(s: XState) -> dict[str, int]:
    slots = len(s.backs)
    senators = SENATORS_PER_AGE[s.age]
    special = 3 if s.age == 3 else 0
    kind3 = "temple" if "pantheon" in s.expansions else "guild"
    counts = {
        "senator": senators - s.backs.count("senator"),
        kind3: special - s.backs.count(kind3),
    }
    counts["age"] = slots - senators - special - s.backs.count("age")
    return {k: v for k, v in counts.items() if v > 0}


def _draw_plot_outcomes(s: XState) -> list[tuple[XMove, int]]:
    drawer = s.to_move
    if s.observer is not None and s.observer != drawer:
        return [(XMove("draw_plots", (None,)), 1)]
    count = min(2, s.plot_size)
    middle = s.plot_size - len(s.plot_top) - len(s.plot_bottom)
    order = list(s.plot_top) + [None] * middle + list(s.plot_bottom)
    drawn = order[:count]
    known = tuple(c.divinity for c in drawn if c is not None and c.divinity is not None)
    unknown = count - len(known)
    return [
        (XMove("draw_plots", (tuple(sorted(known + extra)),)), 1)
        for extra in combinations(unaccounted_plots(s), unknown)
    ]


def _treason_outcomes(s: XState) -> list[tuple[XMove, int]]:
    drawer = s.to_move
    if s.observer is not None and s.observer != drawer:
        return [(XMove("treason_deal", (None,)), 1)]
    pool = sorted(c for c in s.unseen if (AGE_DECK[s.age] >> c) & 1)
    return [(XMove("treason_deal", (cards,)), 1) for cards in combinations(pool, min(3, len(pool)))]


def senator_reveal_outcomes(s: XState, slot: int) -> list[tuple[XMove, int]]:
    """A Senator back turns up a Senator of each kind with the weight of its unseen cards; the
    card is the kind's lowest-numbered unseen one (identical cards: the number carries nothing)."""
    by_kind: dict[str, list[int]] = {}
    for c in SENATOR_IDS:
        if c not in s.senators_seen:
            by_kind.setdefault(SENATOR_KIND[c].name, []).append(c)
    return [(XMove("reveal_card", (slot, cards[0])), len(cards)) for cards in by_kind.values()]


def agora_reveal_pool(s: XState, slot: int) -> list[int]:
    """The cards a non-Senator slot of an Agora structure can turn out to be."""
    kind = s.backs[slot] if slot < len(s.backs) else None
    if kind in ("guild", "temple"):
        return sorted(s.unseen & (TEMPLE_SET if kind == "temple" else GUILD_SET))
    removed = set(s.removed_now or ())
    return sorted(c for c in s.unseen if (AGE_DECK[s.age] >> c) & 1 and c not in removed)


CHANCE = {
    "decree": _decree_outcomes,
    "back": _back_outcomes,
    "draw_plots": _draw_plot_outcomes,
    "treason_deal": _treason_outcomes,
}


# --- applying moves ------------------------------------------------------------------------------
def _done(t: XState) -> None:
    """A step was answered: the rest of the queue, then the continuation."""
    t.step = None
    t.phase = "play"
    if t.pending:
        resolve(t)
    else:
        finish_turn(t)


def _apply_decree(t: XState, m: XMove) -> None:
    """A face-down Decree turns up: the last face-down one of the Chamber (a Decree Insider
    Influence moved lies under the others). A step ``("decree", chamber, loser)`` of Insider
    Influence also names the controller of the Chamber the Decree left (Standing army's shield
    leaves them)."""
    chamber, name = m.args
    entries = list(t.decrees[chamber - 1])
    i = max(i for i, (_, up) in enumerate(entries) if not up)
    entries[i] = (name, True)
    t.decrees = (*t.decrees[: chamber - 1], tuple(entries), *t.decrees[chamber:])
    loser = t.step[2] if t.step is not None and len(t.step) > 2 else None
    owner = controller(t.senate, chamber)
    if name == "Standing army":
        if loser is not None and move_pawn(t, 1 - loser, 1):
            return
        if owner is not None and move_pawn(t, owner, 1):
            return
    _done(t)


def _apply_back(t: XState, m: XMove) -> None:
    slot, kind = m.args
    backs = list(t.backs)
    backs[slot] = kind
    t.backs = tuple(backs)
    if kind in ("guild", "temple"):
        t.back_slots |= 1 << slot
    if None not in t.backs:
        next_layout_phase(
            t
        )  # Pantheon's tokens (with both expansions), then the face-up cards


def _more_senate_actions(t: XState) -> None:
    """A Senate action taken: the Politician's next one comes before anything it set off, but
    after the Decrees it turned up (those are pushed to the front by the control change)."""
    step = t.step
    if step is not None and step[0] == "senate" and step[3] > 1:
        push(t, ("senate", step[1], step[2], step[3] - 1), front=True)


def _apply_place(t: XState, m: XMove) -> None:
    _more_senate_actions(t)
    change_cubes(t, m.args[0], t.to_move, +1)
    if t.phase != "game_over":
        _done(t)


def _apply_evict(t: XState, m: XMove) -> None:
    change_cubes(t, m.args[0], 1 - t.to_move, -1)
    _done(t)


def _apply_move_cube(t: XState, m: XMove) -> None:
    source, target = m.args
    player = t.to_move
    _more_senate_actions(t)
    change_cubes(t, source, player, -1)
    if t.phase != "game_over":
        change_cubes(t, target, player, +1)
    if t.phase != "game_over":
        _done(t)


def _apply_skip(t: XState, m: XMove) -> None:
    """no move / stop / no trigger / no discard: the step is over."""
    _done(t)


def _apply_conspire(t: XState, m: XMove) -> None:
    push(t, ("conspire", t.to_move), front=True)
    _done(t)


def _apply_draw_plots(t: XState, m: XMove) -> None:
    count = min(2, t.plot_size)
    taken_top = min(count, len(t.plot_top))
    t.plot_top = t.plot_top[taken_top:]
    middle = t.plot_size - taken_top - len(t.plot_top) - len(t.plot_bottom)
    rest = count - taken_top
    from_middle = min(rest, max(0, middle))
    if rest - from_middle:
        t.plot_bottom = t.plot_bottom[rest - from_middle :]
    t.plot_size -= count
    t.drawn_plots = m.args[0]
    player = t.to_move
    if count == 1 or T_ORGANIZED_CRIME in t.cities[player].tokens:
        _keep(t, player, t.drawn_plots, count)
        return
    t.phase = "keep_plot"


def _keep(t: XState, player: int, kept, count: int) -> None:
    city = t.cities[player]
    names = kept if kept is not None else (None,) * count
    city.plots = (*city.plots, *(Plot(n) for n in names))
    t.drawn_plots = ()
    _done(t)


def _apply_keep(t: XState, m: XMove) -> None:
    kept, other, where = m.args
    player = t.to_move
    entry = DeckCard(other, frozenset({player}))
    if where == "top":
        t.plot_top = (entry, *t.plot_top)
    else:
        t.plot_bottom = (*t.plot_bottom, entry)
    t.plot_size += 1
    _keep(t, player, kept, 1)


def _apply_prepare(t: XState, m: XMove) -> None:
    card, index = m.args
    city = t.cities[t.to_move]
    take_from_pyramid(t, card)
    plots = list(city.plots)
    plots[index - 1] = Plot(plots[index - 1].name, prepared=True, fresh=True, card=card)
    city.plots = tuple(plots)
    finish_turn(t)


def _apply_trigger(t: XState, m: XMove) -> None:
    player = t.to_move
    city = t.cities[player]
    index, name = m.args
    plot = city.plots[index - 1]
    plots = list(city.plots)
    plots[index - 1] = Plot(name, prepared=plot.prepared, used=True, card=plot.card)
    city.plots = tuple(plots)
    steps = conspiracy_steps(name, player)
    if t.phase == "curia":  # Curia Julia: inside the Wonder's turn, which goes on after it
        push(t, *steps, front=True)
        _done(t)
        return
    t.triggered = True
    push(t, *steps, front=True)
    if t.continuation is None:
        t.continuation = ("play", player)
    _done(t)


def _apply_lock(t: XState, m: XMove) -> None:
    token = m.args[0]
    player = t.to_move
    t.board = t.board - {token}
    opponent = t.cities[1 - player]
    t.locked = t.locked | {token}
    if token in opponent.tokens:
        opponent.tokens = opponent.tokens - {token}  # and its effects: Law's symbol too
        if recompute_science(t):
            return
    _done(t)


def _apply_free_build(t: XState, m: XMove) -> None:
    card = m.args[0]
    if card in t.pyramid:
        remove_from_structure(t, t.pyramid.index(card))
    t.removed = t.removed - {card}
    if t.removed_now:
        t.removed_now = tuple(c for c in t.removed_now if c != card)
    t.unseen = t.unseen - {card}
    t.phase = "play"
    if construct_card(t, t.to_move, card):
        return
    if t.phase == "play":
        _done(t)


def _apply_treason_deal(t: XState, m: XMove) -> None:
    cards = m.args[0]
    t.removed_now = cards
    t.removed_by = t.to_move
    t.phase = "treason"


def _apply_discard_free(t: XState, m: XMove) -> None:
    """Turn of Events: a card to the discard pile. With Pantheon, the tokens of the cards it
    uncovers go to the player at once (BGA ``DiscardAvailableCardTrait``: a Mythology token's
    Divinity is placed before the second discard), so a token never leaves with a card."""
    card = m.args[0]
    take_from_pyramid(t, card)
    t.discard = t.discard | {card}
    if t.pantheon and not take_uncovered_tokens(t):
        t.step = None  # the Mythology draw first; the seat resumes the steps (finish_turn)
        return
    _done(t)


def _apply_swap(t: XState, m: XMove) -> None:
    """Coercion (BGA ``SwapBuildingTrait::actionSwapBuilding``): the cards change cities; a
    green card that gives its new owner a pair of symbols offers them a Progress token, the
    mover first; scientific supremacy is checked after both choices (both at six: a draw)."""
    mine, theirs = m.args
    player = t.to_move
    city, other = t.cities[player], t.cities[1 - player]
    city.cards = (city.cards - {mine}) | {theirs}
    other.cards = (other.cards - {theirs}) | {mine}
    for p in (0, 1):
        if t.cities[p].snake in (mine, theirs):
            t.cities[p].snake = None  # the card changed city: the Snake token falls off
        t.cities[p].science = science_symbols(t, p)
    pairs = [
        ("pair", p)
        for p, card in ((player, theirs), (1 - player, mine))
        if XCARDS[card].science and symbol_count(t, p, XCARDS[card].science) >= 2
    ]
    push(t, *pairs, ("supremacy", player), front=True)
    _done(t)


def _apply_move_decree(t: XState, m: XMove) -> None:
    """Insider Influence moves the top Decree of a Chamber under the Decrees of another (BGA
    ``Senate::moveDecree``). Nothing else happens when both Chambers have the same controller
    (or none); otherwise a face-down Decree turns up, and Standing army's shield leaves the
    source's controller and joins the target's."""
    source, _, target = m.args
    old_source, old_target = controller(t.senate, source), controller(t.senate, target)
    decrees = list(t.decrees)
    moved, *rest = decrees[source - 1]
    decrees[source - 1] = tuple(rest)
    decrees[target - 1] = (*decrees[target - 1], moved)
    t.decrees = tuple(decrees)
    if old_source == old_target:
        _done(t)
        return
    name, face_up = moved
    if not face_up:  # turned up under the target's Decrees; its effect then (_apply_decree)
        push(t, ("decree", target, old_source), front=True)
    elif name == "Standing army":
        if old_source is not None and move_pawn(t, 1 - old_source, 1):
            return
        if old_target is not None and move_pawn(t, old_target, 1):
            return
    _done(t)


def _apply_sabotage(t: XState, m: XMove) -> None:
    wonder = m.args[0]
    victim = t.cities[1 - t.to_move]
    card = dict(victim.built)[wonder]
    victim.built = tuple(b for b in victim.built if b[0] != wonder)
    t.discard = t.discard | {card}
    _done(t)


APPLY = {
    "decree": _apply_decree,
    "back": _apply_back,
    "place": _apply_place,
    "evict": _apply_evict,
    "move_cube": _apply_move_cube,
    "no_move": _apply_skip,
    "stop": _apply_skip,
    "no_trigger": _apply_skip,
    "no_discard": _apply_skip,
    "conspire": _apply_conspire,
    "draw_plots": _apply_draw_plots,
    "keep": _apply_keep,
    "prepare": _apply_prepare,
    "trigger": _apply_trigger,
    "lock": _apply_lock,
    "free_build": _apply_free_build,
    "treason_deal": _apply_treason_deal,
    "discard_free": _apply_discard_free,
    "swap": _apply_swap,
    "move_decree": _apply_move_decree,
    "sabotage": _apply_sabotage,
}


# --- setup ----------------------------------------------------------------------------------------
def setup_decrees(t: XState) -> None:
    """The three face-up Decrees (Chambers 1, 3, 5), dealt after the board's tokens."""
    t.decrees = tuple(((None, False),) for _ in CHAMBERS)
    push(t, *[("decree", c.chamber) for c in CHAMBERS if c.decree_face_up])
    t.continuation = ("resume", "setup_wonders", t.to_move)
    resolve(t)


assert len(DECREES) == 16 and len(CONSPIRACIES) == 16
