"""The effects the rules of an expansion game share: coins, the Conflict pawn, a card built,
science, the structure, the end of a turn and of an Age, and Agora's queue of steps (docs/agora.md,
"Steps", below). :mod:`duel.expansions.rules` (the base game's and Pantheon's moves) and
:mod:`duel.expansions.senate` (Agora's) both build on this module; neither imports the other's
private functions, and this module imports neither.

**Steps.** Agora's effects come in chains: a Politician gives up to three Senate actions, a
Conspiracy places a cube, removes one and moves another, a cube that takes a Chamber turns its
face-down Decree up (chance) and may move the Conflict pawn (Standing army), which may take an
Agora military token (another cube to place)... Each effect is a *step* queued in
``t.pending``. :func:`resolve` works through the queue: a step that needs nobody's decision is
applied at once; a step that needs a decision or a chance outcome becomes the state's phase
(the step itself in ``t.step``), and the move that answers it resolves the rest of the queue.
When the queue is empty, ``t.continuation`` says what comes next: ``("finish", player)`` the
end of ``player``'s turn, ``("play", player)`` the rest of a turn that began with a Conspiracy,
``("resume", phase, player)`` the Wonder draft.

Every function takes ``t``, a fresh copy of the state being built (mutated in place, then frozen
by :meth:`duel.expansions.state.XState.apply`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from pyrsistent import pvector

from duel.catalog import AGE_DECK, T_ECONOMY, T_LAW, T_STRATEGY, bits
from duel.expansions.agora import TITHES, senate_actions
from duel.expansions.components import (
    SENATOR_KIND,
    T_POLIORCETICS,
    XCARDS,
    XTOKENS,
    structure_of,
    token_slots,
)
from duel.expansions.queries import (
    blue_cards,
    fraud_cards,
    in_force,
    lockable,
    opponent_cubes,
    science_symbols,
    supply,
    swaps,
    useful_to_trigger,
)
from duel.expansions.table import (
    COLOR_OF,
    GUILD_SET,
    HIDDEN,
    LOOT,
    SCIENCE_VICTORY_SYMBOLS,
    SENATOR_SET,
    TAKEN,
    TEMPLE_SET,
    category_count,
    cubes_placed,
    deck_index,
)

if TYPE_CHECKING:
    from duel.expansions.state import XState


def gain_coins(t: XState, player: int, amount: int) -> None:
    t.cities[player].coins += amount


def lose_coins(t: XState, player: int, amount: int) -> None:
    """A loss (military token, Appian Way, Poliorcetics) takes treasury coins only."""
    city = t.cities[player]
    city.coins = max(0, city.coins - amount)


def pay(t: XState, player: int, total: int, trade: int) -> None:
    """Spend ``total`` coins, the treasury first and Astarte's for the rest; Economy gives the
    opponent the ``trade`` part."""
    city = t.cities[player]
    from_treasury = min(city.coins, total)
    city.coins -= from_treasury
    city.astarte -= total - from_treasury
    if trade and T_ECONOMY in t.cities[1 - player].tokens:
        gain_coins(t, 1 - player, trade)


def end_game(t: XState, winner: int, victory: str) -> None:
    t.phase = "game_over"
    t.winner = winner
    t.victory = victory
    t.extra = False


def move_pawn(t: XState, player: int, shields: int) -> bool:
    """Move the Conflict pawn ``shields`` spaces towards the opponent (the Minerva pawn stops it
    a space short); loot, Poliorcetics. True if the game ends."""
    sign = 1 if player == 0 else -1
    old = t.pawn * sign
    new = min(9, old + shields)
    if t.minerva is not None and old < t.minerva * sign <= new:
        new = t.minerva * sign - 1
        t.minerva = None
    side_shift = 2 if player == 0 else 0  # A loots the tokens on B's side
    for distance, coins, bit in LOOT:
        token = bit << side_shift
        if old < distance <= new and t.military & token:
            t.military &= ~token
            if t.agora:  # Agora's tokens: a cube to place, or one to remove (no coins)
                military_token(t, player, large=distance == 6)
            else:
                lose_coins(t, 1 - player, coins)
    if T_POLIORCETICS in t.cities[player].tokens and new > old:
        lose_coins(t, 1 - player, new - old)
    t.pawn = new * sign
    if new >= 9:
        end_game(t, player, "military")
        return True
    return False


def gain_science(t: XState, player: int, symbol: str) -> bool:
    """Add a symbol; a pair lets the player choose a board token. True if that wins (6)."""
    city = t.cities[player]
    if symbol in city.science:
        if t.board:
            t.phase = "choose_token"
        return False
    city.science = city.science | {symbol}
    if len(city.science) >= SCIENCE_VICTORY_SYMBOLS:
        end_game(t, player, "science")
        return True
    return False


def construct_card(t: XState, player: int, card: int) -> bool:
    """Put ``card`` in ``player``'s city with its immediate effects; True if the game ended."""
    city = t.cities[player]
    city.cards = city.cards | {card}
    spec = XCARDS[card]
    if t.agora:
        tithes(t, spec.color)
        if card in SENATOR_SET:
            on_senator(t, player, card)
            return False
    if spec.coins:
        gain_coins(t, player, spec.coins)
    if spec.coins_per:
        categories, each = spec.coins_per
        gain_coins(t, player, each * category_count(t, player, categories))
    if spec.coins_per_max:
        categories, each = spec.coins_per_max
        gain_coins(t, player, each * max(category_count(t, p, categories) for p in (0, 1)))
    if spec.shields:
        bonus = 1 if T_STRATEGY in city.tokens else 0
        if move_pawn(t, player, spec.shields + bonus):
            return True
    if spec.science:
        return gain_science(t, player, spec.science)
    return False


def gain_token(t: XState, player: int, token: int) -> bool:
    city = t.cities[player]
    city.tokens = city.tokens | {token}
    if XTOKENS[token].coins:
        gain_coins(t, player, XTOKENS[token].coins)
    if token == T_LAW:
        return gain_science(t, player, "law")
    return False


def remove_from_structure(t: XState, slot: int) -> None:
    """The card at ``slot`` leaves the structure: the cards it covered may become accessible
    (a face-down one is then turned over at the end of the turn)."""
    t.pyramid = t.pyramid.set(slot, TAKEN)
    # A token still on the card (uncovered and taken in one Conspiracy's steps) goes with it.
    t.mythology_on = t.mythology_on.discard(slot)
    t.offering_on = t.offering_on.discard(slot)
    t.present &= ~(1 << slot)
    t.accessible &= ~(1 << slot)
    t.reveal &= ~(1 << slot)
    layout = structure_of(t.expansions, t.age)
    for under in layout.covers[slot]:
        if not t.present >> under & 1:
            continue
        if not any(t.present >> c & 1 for c in layout.covered_by[under]):
            t.accessible |= 1 << under
            if t.pyramid[under] == HIDDEN:
                t.reveal |= 1 << under


def take_from_pyramid(t: XState, card: int) -> None:
    remove_from_structure(t, t.pyramid.index(card))


def take_uncovered_tokens(t: XState) -> bool:
    """The tokens on cards uncovered this turn go to the player whose turn it was, before the
    cards are turned over. False if a Mythology token needs that player's draw first."""
    for slot in sorted(t.offering_on):
        if t.accessible >> slot & 1:
            value = t.offering_on[slot]
            t.offering_on = t.offering_on.discard(slot)
            city = t.cities[t.to_move]
            city.offerings = tuple(sorted((*city.offerings, value)))
    for slot in sorted(t.mythology_on):
        if t.accessible >> slot & 1:
            mythology = t.mythology_on[slot]
            t.mythology_on = t.mythology_on.discard(slot)
            city = t.cities[t.to_move]
            city.mythology = (*city.mythology, mythology)
            if t.deck_size[deck_index(mythology)]:
                t.drawing = mythology
                t.phase = "draw_divinities"
                return False
    return True


def finish_turn(t: XState) -> None:
    """End of the active player's turn: Agora's pending steps first (their continuation may be
    the rest of the turn, or of the draft), its tokens, then the next Age, a replay, or the
    other player."""
    t.step = None  # a step answered by a shared rule (Extortion's steal, Espionage's token)
    if t.pending:
        if t.continuation is None:
            # whose turn it is: a step of the opponent's (a military token the pawn gave them,
            # a pair from Coercion) makes them the mover for a while
            t.continuation = ("finish", t.to_move)
        resolve(t)
        return
    continuation, t.continuation = t.continuation, None
    if continuation is not None and continuation[0] == "finish":
        t.to_move = continuation[1]
    if continuation is not None and continuation[0] == "resume":
        t.phase, t.to_move = continuation[1], continuation[2]
        return
    if continuation is not None and continuation[0] == "play" and t.present:
        # The rest of the turn after a Conspiracy: the tokens of the cards it uncovered go to
        # the player first (a Mythology token's draw, then the turn goes on).
        t.to_move = continuation[1]
        if t.pantheon and not take_uncovered_tokens(t):
            t.continuation = continuation
            return
        t.phase = "reveal" if t.reveal else "play"
        return
    t.phase = "play"
    if t.pantheon and not take_uncovered_tokens(t):
        return
    player = t.to_move
    extra = t.extra
    t.extra = False
    if t.agora:
        t.triggered = False
        city = t.cities[player]
        if any(p.fresh for p in city.plots):
            city.plots = tuple(replace(p, fresh=False) for p in city.plots)
    if t.present:
        t.to_move = player if extra else 1 - player
        t.phase = "reveal" if t.reveal else "play"
        return
    if t.age == 3:  # the Age is over; a pending Play Again is lost
        civilian_end(t)
        return
    if t.agora:  # the cards never seen in the Age are the ones removed at its setup
        age_cards = frozenset(bits(AGE_DECK[t.age]))
        t.removed = t.removed | (t.unseen & age_cards)
        t.removed_now = None
        for city in t.cities:
            city.removed_seen = frozenset()
    pawn = t.pawn
    start_age(t, t.age + 1, 1 if pawn > 0 else 0 if pawn < 0 else player)


def civilian_end(t: XState) -> None:
    a, b = t.score(0), t.score(1)
    if a.total != b.total:
        winner = 0 if a.total > b.total else 1
    else:
        winner = 2 if a.blue == b.blue else 0 if a.blue > b.blue else 1
    end_game(t, winner, "civilian")


def start_age(t: XState, age: int, to_move: int) -> None:
    """Lay out ``age``'s structure; its chance nodes (token slots, backs, face-up cards) come
    next; ``to_move`` begins Age I, or chooses who begins Age II/III once it is laid out."""
    layout = structure_of(t.expansions, age)
    t.age = age
    t.pyramid = pvector([HIDDEN] * layout.slots)
    t.present = (1 << layout.slots) - 1
    t.accessible = sum(1 << s for s in layout.initially_accessible)
    t.reveal = layout.face_up_mask
    backs = TEMPLE_SET if t.pantheon else GUILD_SET
    t.unseen = frozenset(bits(AGE_DECK[age])) | (backs if age == 3 else frozenset())
    t.back_slots = 0
    t.backs = (None,) * layout.slots if t.agora else ()
    t.to_move = to_move
    next_layout_phase(t)


def next_layout_phase(t: XState) -> None:
    """The next chance node of a new structure: its backs (Agora: slot by slot; the base game
    and Pantheon: the three Age III backs at once), Pantheon's tokens, then the face-up cards."""
    mythology_slots, _ = token_slots(t.expansions)
    if t.agora and None in t.backs:
        t.phase = "back"
    elif not t.agora and t.age == 3 and not t.back_slots:
        t.phase = "deal_backs"
    elif t.pantheon and t.age == 1 and len(t.mythology_on) < len(mythology_slots):
        t.phase = "place_mythology"
    elif t.pantheon and t.age == 2 and not t.offering_on:
        t.phase = "place_offerings"
    else:
        t.phase = "reveal"


def check_science_supremacy(t: XState) -> bool:
    """Scientific supremacy after an effect that can change both players' symbols (BGA
    ``checkImmediateVictory``): six for one player wins, six for both is a draw. True if the
    game ended."""
    reached = [len(t.cities[p].science) >= SCIENCE_VICTORY_SYMBOLS for p in (0, 1)]
    if all(reached):
        end_game(t, 2, "science")
    elif any(reached):
        end_game(t, reached.index(True), "science")
    return any(reached)


def recompute_science(t: XState) -> bool:
    """After a player's symbols changed otherwise than by gaining one (Obscurantism's lock):
    each player's symbols (:func:`science_symbols`); True if that ends the game."""
    for player in (0, 1):
        t.cities[player].science = science_symbols(t, player)
    return check_science_supremacy(t)


def push(t: XState, *steps: tuple, front: bool = False) -> None:
    t.pending = (*steps, *t.pending) if front else (*t.pending, *steps)


def resolve(t: XState) -> None:
    """Work through the pending steps (see the module docstring); then the continuation."""
    while t.pending:
        if t.phase == "game_over":
            t.pending = ()
            t.continuation = None
            return
        step, t.pending = t.pending[0], t.pending[1:]
        if not _start_step(t, step):
            return
    if t.phase != "game_over":
        finish_turn(t)


def _start_step(t: XState, step: tuple) -> bool:  # noqa: C901 - one branch per kind of step
    """Begin ``step``: True if it was applied at once, False if it is now the phase."""
    kind = step[0]
    if kind == "decree":  # chance: whoever is to move stays so
        t.step = step
        t.phase = "decree"
        return False
    player = step[1]
    opponent = t.cities[1 - player]
    wait = None
    if kind == "place":
        wait = "place" if supply(t, player) else None
    elif kind == "evict":
        wait = "evict" if opponent_cubes(t, player) else None
    elif kind == "move":
        wait = "move_cube" if cubes_placed(t.senate, player) else None
    elif kind == "senate":
        wait = "senate" if step[3] > 0 else None
    elif kind == "conspirator":
        wait = "conspirator"
    elif kind == "conspire":
        wait = "draw_plots" if t.plot_size else None
    elif kind == "steal":
        wait = "ra" if opponent.wonders else None
    elif kind == "destroy":
        if any(COLOR_OF[c] == step[2] for c in opponent.cards):
            t.destroying = step[2]
            wait = "destroy"
    elif kind == "lock":
        wait = "lock_token" if lockable(t, player) else None
    elif kind == "fraud":
        wait = "fraud" if fraud_cards(t) else None
    elif kind == "treason":
        wait = "treason_deal" if t.removed_now is None and t.age else "treason"
    elif kind == "espionage":
        wait = "espionage" if t.box_tokens else None
    elif kind == "discard_any":
        if t.reveal:  # the cards the first discard uncovered are turned over first
            push(t, step, front=True)
            t.phase = "reveal"
            return False
        wait = "discard_any" if t.accessible else None
    elif kind == "take":
        wait = "baal" if any(COLOR_OF[c] in ("brown", "grey") for c in opponent.cards) else None
    elif kind == "coercion":
        wait = "coercion" if swaps(t, player) else None
    elif kind == "insider":
        wait = "insider" if any(t.decrees) else None
    elif kind == "sabotage":
        wait = "sabotage" if opponent.built else None
    elif kind == "curia":
        plots = [p for p in t.cities[player].plots if not p.prepared and not p.used]
        # BGA skips the step when none is useful; a name this view cannot see might be
        wait = (
            "curia"
            if any(p.name is None or useful_to_trigger(t, player, p.name) for p in plots)
            else None
        )
    elif kind == "pair":
        wait = "choose_token" if t.board else None
    elif kind == "supremacy":
        check_science_supremacy(t)
    elif kind == "coins":
        _auto_coins(t, player, step[2])
    elif kind == "shields":
        move_pawn(t, player, step[2])
    else:
        raise ValueError(f"unknown step {step!r}")
    if wait is None:
        return True
    t.step = step
    t.phase = wait
    t.to_move = player
    return False


def _auto_coins(t: XState, player: int, what: str) -> None:
    opponent = 1 - player
    if what == "blackmail":
        amount = (t.cities[opponent].coins + 1) // 2
        lose_coins(t, opponent, amount)
        gain_coins(t, player, amount)
    elif what == "embezzlement":
        gain_coins(t, player, cubes_placed(t.senate, player))
        lose_coins(t, opponent, cubes_placed(t.senate, opponent))


def military_token(t: XState, player: int, large: bool) -> None:
    """An Agora military token taken by ``player``: a cube to place, or an opponent's cube to
    remove and one of theirs to move. Its actions come before the rest of the chain that moved
    the pawn (BGA prepends them: a Politician's next action, Knossos's or Political Maneuver's
    next step waits), after the Decrees the same change turns up (BGA turns them at once)."""
    steps = (("evict", player), ("move", player)) if large else (("place", player),)
    lead = 0
    while lead < len(t.pending) and t.pending[lead][0] == "decree":
        lead += 1
    t.pending = (*t.pending[:lead], *steps, *t.pending[lead:])


def tithes(t: XState, colour: str) -> None:
    """Whoever controls the tithe Decree of ``colour`` ("wonder" for a Wonder) gains the Age."""
    for decree, what in TITHES.items():
        if what == colour:
            for player in (0, 1):
                if in_force(t, player, decree):
                    gain_coins(t, player, t.age)


def on_senator(t: XState, player: int, card: int) -> None:
    """A Senator recruited: its Senate actions or its conspirator action."""
    kind = SENATOR_KIND[card]
    if kind.kind == "politician":
        blue = blue_cards(t, player) + (2 if in_force(t, player, "Civic weight") else 0)
        push(t, ("senate", player, kind.section, senate_actions(blue)))
    else:
        push(t, ("conspirator", player))
        if in_force(t, player, "Swift plots"):
            t.extra = True
