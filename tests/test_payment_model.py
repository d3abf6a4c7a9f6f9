"""The shared CP-SAT payment model: known answers, validity and a brute-force property."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duel.payment_model import (
    Market,
    PaymentProblem,
    PaymentSolution,
    Producer,
    Purchase,
    brute_force,
    check_solution,
    solve,
)


def _solve(problem: PaymentProblem) -> PaymentSolution:
    solution = solve(problem)
    assert solution is not None
    assert check_solution(problem, solution) == []
    assert solution.coins == brute_force(problem)
    return solution


def test_nothing_needed_costs_nothing() -> None:
    assert solve(PaymentProblem({"wood": 0})) == PaymentSolution(0, (), (), ())


def test_duel_masonry_waiver_and_choice_producer_interact() -> None:
    # Duel-style: bank prices differ per resource; Forum-like choice glass/papyrus; waive 2.
    # Need 2 stone (3 each), 1 glass (4), 1 papyrus (5). The choice and the waiver cover glass,
    # papyrus and one stone; one stone is bought for 3. Which of glass/papyrus the Forum takes is a
    # tie: the documented tie-break uses earlier resources (in `need` order) first, so glass.
    problem = PaymentProblem(
        need={"stone": 2, "glass": 1, "papyrus": 1},
        own=(Producer(("glass", "papyrus"), label="Forum"),),
        markets=(Market("bank", {"stone": 3, "glass": 4, "papyrus": 5}),),
        waivable=2,
    )
    solution = _solve(problem)
    assert solution.coins == 3
    assert solution.own_used == (("Forum", "glass", 1),)
    assert solution.purchases == (Purchase("bank", "stone", 1, 3),)
    assert sorted(solution.waived) == [("papyrus", 1), ("stone", 1)]
    # Without the waiver the same problem costs 3 + 3 + 4 = 10 (Forum takes the papyrus).
    no_waiver = PaymentProblem(problem.need, problem.own, problem.markets)
    assert _solve(no_waiver).coins == 10


def test_waiver_takes_the_most_expensive_units() -> None:
    problem = PaymentProblem(
        need={"wood": 1, "clay": 1, "glass": 1},
        markets=(Market("bank", {"wood": 2, "clay": 6, "glass": 4}),),
        waivable=2,
    )
    assert _solve(problem).coins == 2


def test_base_game_buys_from_the_cheaper_neighbour() -> None:
    # West Trading Post: raw from the left costs 1. Both neighbours produce ore.
    problem = PaymentProblem(
        need={"ore": 2},
        markets=(
            Market("left", {"ore": 1}, (Producer(("ore",), label="Ore Vein"),)),
            Market("right", {"ore": 2}, (Producer(("ore",), 2, label="Foundry"),)),
        ),
    )
    solution = _solve(problem)
    assert solution.coins == 3
    assert solution.coins_to("left") == 1
    assert solution.coins_to("right") == 2


def test_each_producer_unit_sold_at_most_once() -> None:
    problem = PaymentProblem(
        need={"ore": 2},
        markets=(Market("left", {"ore": 1}, (Producer(("ore",), label="Ore Vein"),)),),
    )
    assert solve(problem) is None
    assert brute_force(problem) is None


def test_choice_producer_gives_one_unit_of_one_resource() -> None:
    # A Tree Farm sells wood OR clay, not both; the other unit comes from the other neighbour.
    problem = PaymentProblem(
        need={"wood": 1, "clay": 1},
        markets=(
            Market("left", {"wood": 1, "clay": 1}, (Producer(("wood", "clay"), label="TF"),)),
            Market("right", {"wood": 2, "clay": 2}, (Producer(("clay",), label="Clay Pool"),)),
        ),
    )
    solution = _solve(problem)
    assert solution.coins == 3
    assert {(p.market, p.resource) for p in solution.purchases} == {
        ("left", "wood"),
        ("right", "clay"),
    }


def test_own_production_preferred_on_ties() -> None:
    problem = PaymentProblem(
        need={"wood": 1},
        own=(Producer(("wood",), label="Lumber Yard"),),
        markets=(Market("left", {"wood": 0}, (Producer(("wood",), label="LY"),)),),
    )
    solution = _solve(problem)
    assert solution.purchases == ()
    assert solution.own_used == (("Lumber Yard", "wood", 1),)


def test_lower_market_index_preferred_on_ties() -> None:
    ore = (Producer(("ore",), label="Ore Vein"),)
    problem = PaymentProblem(
        need={"ore": 1},
        markets=(Market("right", {"ore": 2}, ore), Market("left", {"ore": 2}, ore)),
    )
    assert _solve(problem).purchases == (Purchase("right", "ore", 1, 2, "Ore Vein"),)


def test_infeasible_when_nobody_produces_it() -> None:
    problem = PaymentProblem(
        need={"papyrus": 1, "wood": 1},
        own=(Producer(("wood",)),),
        markets=(Market("left", {"papyrus": 2}, (Producer(("glass",)),)),),
    )
    assert solve(problem) is None
    assert brute_force(problem) is None


def test_unbuyable_resource_at_a_market() -> None:
    # The market's producer makes glass but the market does not price it: it is not for sale.
    problem = PaymentProblem(
        need={"glass": 1}, markets=(Market("left", {}, (Producer(("glass",)),)),)
    )
    assert solve(problem) is None


def test_check_solution_reports_errors() -> None:
    problem = PaymentProblem({"wood": 2}, own=(Producer(("wood", "clay"), label="TF"),))
    bad = PaymentSolution(0, (("TF", "wood", 2),), (), ())
    assert any("used for 2 units" in e for e in check_solution(problem, bad))


RESOURCES = ("wood", "stone", "clay", "glass")


@st.composite
def producers(draw: st.DrawFn, max_size: int) -> tuple[Producer, ...]:
    out = []
    for i in range(draw(st.integers(0, max_size))):
        options = draw(st.lists(st.sampled_from(RESOURCES), min_size=1, max_size=2, unique=True))
        out.append(Producer(tuple(options), draw(st.integers(1, 2)), label=f"p{i}"))
    return tuple(out)


@st.composite
def problems(draw: st.DrawFn) -> PaymentProblem:
    need = {r: draw(st.integers(0, 2)) for r in RESOURCES}
    markets = []
    for label in draw(st.sampled_from([(), ("left",), ("left", "right"), ("bank",)])):
        prices = {r: draw(st.integers(0, 4)) for r in RESOURCES if draw(st.booleans())}
        supply = None if label == "bank" else draw(producers(3))
        markets.append(Market(label, prices, supply))
    return PaymentProblem(
        need=need,
        own=draw(producers(3)),
        markets=tuple(markets),
        waivable=draw(st.sampled_from([0, 0, 1, 2])),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_solve_matches_brute_force_and_is_valid(problem: PaymentProblem) -> None:
    expected = brute_force(problem)
    solution = solve(problem)
    if expected is None:
        assert solution is None
        return
    assert solution is not None
    assert solution.coins == expected
    assert check_solution(problem, solution) == []


def test_ortools_not_imported_by_other_modules() -> None:
    # Importing the model module alone must not pull OR-Tools in (lazy import inside solve()).
    import subprocess

    code = "import duel.payment_model, sys; print('ortools' in sys.modules)"
    root = Path(__file__).resolve().parents[1]  # the repository
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root, env=env
    )
    assert out.stdout.strip() == "False"
