"""Every move of an expansion game reads back from its notation, and every record and
in-progress save reloads to an equal state (issue 61): a CI-size sample of random games here,
the full count (1,000 games and more) in ``benchmarks/xroundtrip.py``, which prints its figures.
"""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duel.catalog import card_named, token_named, wonder_named
from duel.expansions import XMove
from duel.expansions.components import W_CURIA_JULIA
from duel.expansions.moves import _PARSERS
from tests.expansions.roundtrip import VARIANTS, check_game

pytestmark = pytest.mark.expansions


def slow(examples):
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )


@slow(6)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS))
def test_every_move_of_a_random_game_reads_back_and_its_saves_reload(seed, variant):
    tally = check_game(seed, variant)
    assert tally.moves > 1000 and tally.records == 1 and tally.saves >= 1


@slow(3)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS[1:]))
def test_the_same_with_conspiracies_preferred(seed, variant):
    tally = check_game(seed, variant, plots=True)
    assert tally.kinds["trigger"] > 0


def _card(name):
    return card_named(name).id


#: One move of every kind, with the arguments random play seldom reaches.
EVERY_KIND = [
    XMove("build", (_card("Baths"),)),
    XMove("discard", (_card("Baths"),)),
    XMove("wonder", (wonder_named("The Pyramids"), _card("Baths"))),
    XMove("pick", (W_CURIA_JULIA,)),
    XMove("token", (token_named("Law"),)),
    XMove("destroy", (_card("Baths"),)),
    XMove("mausoleum", (_card("Baths"),)),
    XMove("start", (1,)),
    XMove("reveal_card", (9, _card("Baths"))),
    XMove("reveal_wonder", (wonder_named("The Pyramids"),)),
    XMove("reveal_token", (token_named("Law"),)),
    XMove("library_draw", ((0, 3, 7),)),
    XMove("deal_backs", ("guilds", (0, 5, 19))),
    XMove("deal_backs", ("temples", (1, 2, 3))),
    XMove("place_mythology", (4, "Greek")),
    XMove("place_offerings", ((2, 3, 4),)),
    XMove("draw_divinities", ("Greek", ("Hades", "Zeus"))),
    XMove("draw_divinities", ("Egyptian", None)),
    XMove("seat", ("Zeus", "Greek", 3)),
    XMove("seat", (None, "Phoenician", 5)),
    XMove("flip", (2, "Zeus")),
    XMove("enki_tokens", ((0, 1),)),
    XMove("activate", ("Zeus", (2, 4))),
    XMove("activate", ("Gate", ())),
    XMove("snake", (_card("Library"),)),
    XMove("take", (_card("Lumber Yard"),)),
    XMove("zeus", (7,)),
    XMove("unbuild", (wonder_named("The Pyramids"),)),
    XMove("isis", (wonder_named("The Pyramids"), _card("Baths"))),
    XMove("steal", (wonder_named("The Pyramids"),)),
    XMove("minerva", (-3,)),
    XMove("remove", (2,)),
    XMove("apply", (3,)),
    XMove("top", ("Greek", "Zeus")),
    XMove("theater", ("Roman",)),
    XMove("deck", ("Greek", ("Hades", "Zeus"))),
    XMove("choose", ("Zeus",)),
    XMove("order", (("Zeus", "Hades"),)),
    XMove("decree", (4, "Standing army")),
    XMove("back", (12, "senator")),
    XMove("draw_plots", (("Coup", "Treason"),)),
    XMove("draw_plots", (None,)),
    XMove("keep", (("Coup",), None, None)),
    XMove("keep", (("Coup", "Treason"), None, None)),
    XMove("keep", (("Coup",), "Treason", "bottom")),
    XMove("keep", (None, None, "top")),
    XMove("place", (6,)),
    XMove("evict", (1,)),
    XMove("move_cube", (2, 3)),
    XMove("no_move"),
    XMove("stop"),
    XMove("conspire"),
    XMove("prepare", (_card("Baths"), 2)),
    XMove("trigger", (1, "Turn Of Events")),
    XMove("no_trigger"),
    XMove("lock", (token_named("Law"),)),
    XMove("free_build", (_card("Baths"),)),
    XMove("discard_free", (_card("Baths"),)),
    XMove("no_discard"),
    XMove("swap", (_card("Library"), _card("Scriptorium"))),
    XMove("move_decree", (3, "Green waiver", 6)),
    XMove("move_decree", (2, None, 4)),
    XMove("sabotage", (wonder_named("The Pyramids"),)),
    XMove("treason_deal", (tuple(sorted(map(_card, ("Baths", "Altar", "Theater")))),)),
    XMove("treason_deal", (None,)),
]


@pytest.mark.parametrize("move", EVERY_KIND, ids=str)
def test_every_kind_of_move_reads_back(move):
    assert XMove.parse(str(move)) == move


def test_the_list_holds_every_kind_the_notation_writes():
    import inspect

    from duel.expansions import moves

    written = set(re.findall(r'k == "(\w+)"', inspect.getsource(moves)))
    assert written <= {m.kind for m in EVERY_KIND}
    assert {m.kind for m in EVERY_KIND} <= written
    assert {str(m).split()[0].lower() for m in EVERY_KIND} <= set(_PARSERS)
