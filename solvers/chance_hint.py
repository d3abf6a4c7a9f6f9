"""Advice at a chance node: what the position waits for, and its expected value.

A position or record may stop where the game waits for a card to be turned over (or a token,
a wonder, the guild backs, The Great Library's draw): nobody decides there. ``duel hint`` and
``duel analyze`` then value each outcome with the strongest player (as at a decision) and give
the expected value, weighting each outcome by its exact probability.

Outcomes that lead to another chance event at once (two cards uncovered by one move, an Age's
deal) have the rest of that run dealt by a few seeded samples; an event with more than
:data:`MAX_OUTCOMES` outcomes (where the three guild backs lie: 1,140) is sampled too. Either
way the answer says so.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from duel.moves import Move
from duel.slots import slot_place
from duel.solvers.search import Limit
from duel.state import State

__all__ = ["ChanceAnalysis", "Outcome", "chance_analysis", "chance_lines", "waiting_for"]

#: More outcomes than this are sampled (by their probabilities), not all valued.
MAX_OUTCOMES = 40
#: Deals sampled to finish a run of chance events after an outcome.
RUN_SAMPLES = 3
#: The smallest budget one valued position gets (MCTS iterations, or search nodes).
MIN_NODES = 100
MIN_SECONDS = 0.02


@dataclass(frozen=True)
class Outcome:
    """One outcome: its exact probability and A's chance of winning after it."""

    move: Move
    probability: float
    value_a: float
    exact: bool


@dataclass(frozen=True)
class ChanceAnalysis:
    """The chance node's expected value for A, over ``outcomes`` (each valued), of
    ``count`` outcomes in all; ``sampled``: outcomes or later deals were sampled, not all
    valued."""

    waits_for: str
    value_a: float
    outcomes: tuple[Outcome, ...]
    count: int
    sampled: bool
    exact: bool
    engine: str

    def to_json(self) -> dict:
        return {
            "chance": True,
            "waits_for": self.waits_for,
            "value_a": self.value_a,
            "exact": self.exact,
            "sampled": self.sampled,
            "outcome_count": self.count,
            "engine": self.engine,
            "outcomes": [
                {"move": str(o.move), "probability": o.probability, "value_a": o.value_a}
                for o in self.outcomes
            ],
        }


def waiting_for(state: State, tr=None) -> str:
    """What the chance node ``state`` waits for, in words (``tr``: as in :func:`chance_lines`).

    >>> from duel import new_game
    >>> waiting_for(new_game())
    'a progress token put on the board at the setup (one of 10)'
    """
    from duel.solvers.spread import english

    tr = tr or english
    outcomes = state.chance_outcomes()
    n = len(outcomes)
    phase = state.phase
    if phase == "setup_tokens":
        return tr("a progress token put on the board at the setup (one of {n})", n=n)
    if phase == "setup_wonders":
        return tr("a wonder revealed for the draft (one of {n})", n=n)
    if phase == "deal_guilds":
        return tr(
            "where the three guild backs lie as Age III is laid out (one of {n} ways)",
            n=f"{n:,}",
        )
    if phase == "library_draw":
        return tr("The Great Library's draw of three tokens from the box (one of {n} draws)", n=n)
    slot = outcomes[0][0].slot
    row, place = slot_place(state.age, slot)
    back = tr(" (a guild back)") if state.age == 3 and state.is_guild_slot(slot) else ""
    return tr(
        "the card turned face up in slot {slot}{back}, row {row}, card {place} from the left"
        " (one of {n} cards)",
        slot=slot,
        back=back,
        row=row,
        place=place,
        n=n,
    )


def _value(state: State, share: Limit, seed: int, memory: int | None) -> tuple[float, bool, str]:
    """A's chance of winning at a decision or the end, by the strongest available engine."""
    if state.is_terminal():
        # The end: 1 if A won, 0 if B did, one half for a shared victory.
        return {0: 1.0, 1: 0.0}.get(state.winner, 0.5), True, "end"
    from duel.solvers.hint import cmcts_available, hint_analysis
    from duel.solvers.search import analyse

    if share.depth is None and cmcts_available():
        info = hint_analysis(
            state, iterations=share.nodes, seconds=share.time, top=1, seed=seed, memory=memory
        )
        return info.value.a, info.exact, "cmcts"
    info = analyse(state, share, top=1, seed=seed, memory=memory)
    return info.value.a, info.exact, "search"


def chance_analysis(
    state: State, limit: Limit, *, seed: int = 0, memory: int | None = None
) -> ChanceAnalysis:
    """The expected value for A of the chance node ``state`` within ``limit`` in all
    (``nodes``: MCTS iterations or search nodes; empty: the hint's default budget).

    >>> from duel import new_game
    >>> result = chance_analysis(new_game(), Limit(nodes=100))
    >>> result.count, 0.0 < result.value_a < 1.0, result.sampled
    (10, True, True)
    """
    from duel.solvers.hint import DEFAULT_ITERATIONS, cmcts_available

    if not state.is_chance():
        raise ValueError(f"not a chance node ({state.describe()})")
    if limit == Limit():
        limit = Limit(nodes=DEFAULT_ITERATIONS) if cmcts_available() else Limit(time=2.0)
    outcomes = state.chance_outcomes()
    rng = random.Random(seed)
    sampled = len(outcomes) > MAX_OUTCOMES
    if sampled:
        drawn = rng.choices(range(len(outcomes)), [p for _, p in outcomes], k=MAX_OUTCOMES)
        # Drawn by probability: each draw then counts the same in the mean.
        chosen = [(outcomes[i][0], 1.0 / MAX_OUTCOMES) for i in drawn]
    else:
        chosen = list(outcomes)
    children = [(move, p, state.apply(move, check=False)) for move, p in chosen]
    runs = sum(RUN_SAMPLES if child.is_chance() else 1 for _, _, child in children)
    share = Limit(
        time=max(MIN_SECONDS, limit.time / runs) if limit.time else None,
        nodes=max(MIN_NODES, limit.nodes // runs) if limit.nodes else None,
        depth=limit.depth,
    )
    valued: dict[Move, list] = {}
    exact, engine = True, "end"
    for move, p, child in children:
        finals = [child]
        if child.is_chance():
            sampled = True
            finals = []
            for k in range(RUN_SAMPLES):
                deal_rng = random.Random(seed * 1_000_003 + k)
                s = child
                while s.is_chance():
                    s = s.apply(s.sample_chance(deal_rng), check=False)
                finals.append(s)
        values, leaf_exact = [], True
        for s in finals:
            value, was_exact, used = _value(s, share, seed, memory)
            values.append(value)
            leaf_exact = leaf_exact and was_exact
            engine = used if used != "end" else engine
        exact = exact and leaf_exact
        entry = valued.setdefault(move, [0.0, 0.0, leaf_exact])
        entry[0] += p
        entry[1] += p * sum(values) / len(values)
    total = sum(w for w, _, _ in valued.values())
    expected = sum(v for _, v, _ in valued.values()) / total
    listed = tuple(
        sorted(
            (Outcome(m, w, v / w, e) for m, (w, v, e) in valued.items()),
            key=lambda o: (-o.value_a, str(o.move)),
        )
    )
    return ChanceAnalysis(
        waits_for=waiting_for(state),
        value_a=expected,
        outcomes=listed,
        count=len(outcomes),
        sampled=sampled,
        exact=exact and not sampled,
        engine=engine,
    )


#: At most this many outcomes are listed (the best and the worst for A).
LISTED = 24


def chance_lines(result: ChanceAnalysis, tr=None, waits_for: str | None = None) -> list[str]:
    """The analysis in words, as ``duel hint`` prints it; ``tr`` translates and formats (the
    solvers' English by default, see :func:`duel.solvers.spread.english`), ``waits_for`` is
    :func:`waiting_for` in the same words (default: ``result.waits_for``)."""
    from duel.solvers.spread import english, pct

    tr = tr or english
    kind = tr("exact") if result.exact else tr("estimate")
    how = (
        tr(
            "over {n} sampled outcomes of {count}",
            n=len(result.outcomes),
            count=f"{result.count:,}",
        )
        if result.count > MAX_OUTCOMES
        else tr("over the {count} outcomes, each by its exact probability", count=result.count)
    )
    lines = [
        tr("No decision here: the game waits for {what}.", what=waits_for or result.waits_for),
        tr(
            "Value for A: {value} {kind}, expected {how}.",
            value=pct(result.value_a),
            kind=kind,
            how=how,
        ),
        tr("A's chance of winning after each outcome (probability, value):"),
    ]
    shown = list(result.outcomes)
    hidden = 0
    if len(shown) > LISTED:
        hidden = len(shown) - LISTED
        shown = shown[: LISTED // 2] + shown[-LISTED // 2 :]
    width = max(len(str(o.move)) for o in shown)
    for i, o in enumerate(shown):
        if hidden and i == LISTED // 2:
            lines.append("  ... " + tr("{n} more", n=hidden))
        lines.append(f"  {str(o.move):{width}}  {100 * o.probability:5.1f}%  {pct(o.value_a)}")
    if result.sampled and result.count <= MAX_OUTCOMES:
        lines.append(
            tr(
                "Outcomes that lead straight to more dealing were valued over {n} sampled"
                " deals of the rest.",
                n=RUN_SAMPLES,
            )
        )
    engine = {
        "cmcts": tr("the strongest player (Monte Carlo tree search, calibrated win chances)"),
        "search": tr("the expectiminimax search"),
        "end": tr("the end of the game"),
    }[result.engine]
    lines.append(tr("Each outcome was valued by {engine}.", engine=engine))
    return lines
