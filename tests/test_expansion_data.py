"""The expansion data files (Pantheon, Agora) against the base vocabulary and their rules pages.

The engine plays Pantheon (``duel.expansions``) and not yet Agora (issue #27); these tests keep
``data/duel/pantheon.json`` and ``data/duel/agora.json`` well formed and in agreement with
``docs/pantheon.md`` and ``docs/agora.md``, so that an implementation can be built from them.
"""

import re
from collections import Counter
from math import comb
from pathlib import Path

import pytest

from duel import data
from duel.catalog import RESOURCES
from duel.expansions import EXPANSIONS as ENGINE_EXPANSIONS

DOCS = Path(__file__).resolve().parents[1] / "docs"
PANTHEON = data.load("duel/pantheon.json")
AGORA = data.load("duel/agora.json")
EXPANSIONS = {"pantheon": PANTHEON, "agora": AGORA}
BASE_LAYOUTS = data.load("duel/layouts.json")

# The component lists of each file: kind -> entries (each with name, count, cost, effects).
KINDS = {
    "pantheon": (
        "divinities",
        "gates",
        "mythology_tokens",
        "offering_tokens",
        "grand_temples",
        "wonders",
        "progress_tokens",
    ),
    "agora": (
        "senators",
        "decrees",
        "conspiracies",
        "wonders",
        "progress_tokens",
        "military_tokens",
    ),
}


def doc(name):
    return (DOCS / f"{name}.md").read_text(encoding="utf-8")


def base_effect_kinds():
    kinds = set()
    for name in ("cards", "wonders", "progress_tokens"):
        for entry in data.load(f"duel/{name}.json"):
            kinds |= set(entry["effects"])
    return kinds


def entries(expansion):
    for kind in KINDS[expansion]:
        for entry in EXPANSIONS[expansion][kind]:
            yield kind, entry


def total(expansion, kind):
    return sum(entry["count"] for entry in EXPANSIONS[expansion][kind])


def counts_table(text):
    """The "Components at a glance" table of a rules page: component -> count."""
    section = text.split("## Components at a glance", 1)[1].split("\n## ", 1)[0]
    return {m[1]: int(m[2]) for m in re.finditer(r"^\| (\w+) \| (\d+) \|$", section, re.M)}


# --- counts ------------------------------------------------------------------------------------


def test_pantheon_counts_per_kind():
    counts = PANTHEON["counts"]
    assert total("pantheon", "divinities") == counts["divinities"] == 15
    assert total("pantheon", "gates") == counts["gates"] == 1
    assert total("pantheon", "mythology_tokens") == counts["mythology_tokens"] == 10
    assert total("pantheon", "offering_tokens") == counts["offering_tokens"] == 3
    assert total("pantheon", "grand_temples") == counts["grand_temples"] == 5
    assert total("pantheon", "wonders") == counts["wonders"] == 2
    assert total("pantheon", "progress_tokens") == counts["progress_tokens"] == 3
    mythologies = [m["name"] for m in PANTHEON["mythologies"]]
    assert len(mythologies) == counts["mythologies"] == 5
    per_mythology = Counter(d["mythology"] for d in PANTHEON["divinities"])
    assert per_mythology == {m: counts["divinities_per_mythology"] for m in mythologies}
    tokens = {t["mythology"]: t["count"] for t in PANTHEON["mythology_tokens"]}
    assert tokens == {m: counts["mythology_tokens_per_mythology"] for m in mythologies}
    temples = Counter(t["chain_from"] for t in PANTHEON["grand_temples"])
    assert temples == {f"mythology:{m}": 1 for m in mythologies}
    assert sorted(t["effects"]["activation_discount"] for t in PANTHEON["offering_tokens"]) == [
        2,
        3,
        4,
    ]
    assert len(PANTHEON["pantheon_board"]["spaces"]) == counts["pantheon_spaces"] == 6


def test_agora_counts_per_kind():
    counts = AGORA["counts"]
    senators = AGORA["senators"]
    assert total("agora", "senators") == counts["senators"] == 13
    politicians = sum(s["count"] for s in senators if s["kind"] == "politician")
    conspirators = sum(s["count"] for s in senators if s["kind"] == "conspirator")
    assert (politicians, conspirators) == (counts["politicians"], counts["conspirators"]) == (7, 6)
    by_section = {s["section"]: s["count"] for s in senators if s["kind"] == "politician"}
    assert by_section == {"left": 2, "middle": 3, "right": 2}
    assert total("agora", "decrees") == counts["decrees"] == 16
    assert total("agora", "conspiracies") == counts["conspiracies"] == 16
    assert total("agora", "wonders") == counts["wonders"] == 2
    assert total("agora", "progress_tokens") == counts["progress_tokens"] == 2
    assert total("agora", "military_tokens") == counts["military_tokens"] == 4
    dealt = [counts[f"senators_in_age_{a}"] for a in (1, 2, 3)]
    assert dealt == [5, 5, 3] and sum(dealt) == counts["senators"]
    assert len(AGORA["senate"]) == counts["chambers"] == 6
    assert len({c["section"] for c in AGORA["senate"]}) == counts["sections"] == 3


# --- vocabulary, names, costs -------------------------------------------------------------------


@pytest.mark.parametrize("expansion", sorted(EXPANSIONS))
def test_every_effect_kind_is_known(expansion):
    base = base_effect_kinds()
    new = set(EXPANSIONS[expansion]["new_effect_kinds"])
    assert not new & base, "a new kind must not redefine a base kind"
    used = set()
    for kind, entry in entries(expansion):
        assert entry["effects"], (kind, entry["name"])
        for key, value in entry["effects"].items():
            used.add(key)
            if key == "on_draft":
                used |= set(value)
    assert used <= base | new, used - base - new
    assert new <= used, f"documented but unused: {new - used}"
    text = doc(expansion)
    for key in new:
        assert f"`{key}`" in text, f"{key} is not described in docs/{expansion}.md"


@pytest.mark.parametrize("expansion", sorted(EXPANSIONS))
def test_names_are_unique(expansion):
    base_names = {e["name"] for name in ("cards", "wonders", "progress_tokens")
                  for e in data.load(f"duel/{name}.json")}
    names = [entry["name"] for _, entry in entries(expansion)]
    assert len(names) == len(set(names))
    assert not set(names) & base_names


def test_names_are_unique_across_both_expansions():
    pantheon = {entry["name"] for _, entry in entries("pantheon")}
    agora = {entry["name"] for _, entry in entries("agora")}
    assert not pantheon & agora


@pytest.mark.parametrize("expansion", sorted(EXPANSIONS))
def test_costs_are_well_formed(expansion):
    rules = set(EXPANSIONS[expansion]["cost_rules"])
    used_rules = set()
    for kind, entry in entries(expansion):
        assert isinstance(entry["count"], int) and entry["count"] >= 1
        if kind == "progress_tokens":
            assert "cost" not in entry  # like the base tokens: gained, never paid for
            continue
        cost = entry["cost"]
        if "rule" in cost:
            assert set(cost) == {"rule"} and cost["rule"] in rules, (kind, entry["name"])
            used_rules.add(cost["rule"])
            continue
        assert set(cost) <= {"coins", *RESOURCES}, (kind, entry["name"])
        assert all(isinstance(n, int) and n >= 0 for n in cost.values())
        assert sum(n for r, n in cost.items() if r != "coins") > 0, entry["name"]
        if kind == "wonders":
            assert "coins" not in cost  # as in wonders.json
        if kind == "grand_temples":
            assert cost["coins"] == 0  # as in cards.json
    assert used_rules == rules, f"documented but unused cost rules: {rules - used_rules}"
    text = doc(expansion)
    for rule in rules:
        assert f"`{rule}`" in text


# --- the rules pages agree with the data --------------------------------------------------------


@pytest.mark.parametrize("expansion", sorted(EXPANSIONS))
def test_counts_table_of_the_docs_matches_the_data(expansion):
    assert counts_table(doc(expansion)) == EXPANSIONS[expansion]["counts"]


@pytest.mark.parametrize("expansion", sorted(EXPANSIONS))
def test_docs_name_every_component_and_say_whether_the_engine_plays_it(expansion):
    text = doc(expansion)
    supported = EXPANSIONS[expansion]["engine_support"]
    assert ("not implemented yet" in text.splitlines()[0]) is not supported
    assert supported is (expansion in ENGINE_EXPANSIONS)
    for _, entry in entries(expansion):
        assert entry["name"].split(" (")[0] in text, entry["name"]


def test_pantheon_docs_figures():
    text = doc("pantheon")
    board = PANTHEON["pantheon_board"]
    assert "| A pays | " + " | ".join(map(str, board["cost_player_a"])) + " |" in text
    assert "| B pays | " + " | ".join(map(str, board["cost_player_b"])) + " |" in text
    assert {a + b for a, b in zip(board["cost_player_a"], board["cost_player_b"], strict=True)} == {
        11
    }
    assert board["gate_cost_multiplier"] == 2 and "**twice**" in text
    points = PANTHEON["grand_temple_points"]
    assert (points["1"], points["2"], points["3"]) == (5, 12, 21)
    assert "1 temple = 5 VP, 2 = 12 VP, 3 = 21 VP" in text
    for mythology in PANTHEON["mythologies"]:
        section = text.split(f"### {mythology['name']}", 1)[1].split("\n## ", 1)[0]
        section = section.split("\n### ", 1)[0]
        listed = re.findall(r"^\| (\w+) \| ", section, re.M)
        names = [d["name"] for d in PANTHEON["divinities"] if d["mythology"] == mythology["name"]]
        assert [n for n in listed if n != "Divinity"] == names
    for token in PANTHEON["token_slots"]["base"] + PANTHEON["token_slots"]["with_agora"]:
        flat = " ".join(text.replace("**", "").split())
        assert ", ".join(map(str, token["slots"][:-1])) + f", {token['slots'][-1]}" in flat


def test_pantheon_mythology_token_odds_add_up():
    # 5 of 10 tokens (2 per Mythology) on 5 slots: a sequence with j Mythologies twice has
    # probability 2**(5 - j) / (10*9*8*7*6) (docs/pantheon.md, "Random draws").
    denominator = 10 * 9 * 8 * 7 * 6
    sequences = {j: comb(5, j) * comb(5 - j, 5 - 2 * j) * 120 // 2**j for j in (0, 1, 2)}
    assert sequences == {0: 120, 1: 1200, 2: 900}
    assert sum(n * 2 ** (5 - j) for j, n in sequences.items()) == denominator == 30240
    assert "30,240" in doc("pantheon")


def test_agora_docs_figures():
    text = doc("agora")
    points = [c["points"] for c in AGORA["senate"]]
    assert points == [1, 2, 3, 3, 2, 1]
    assert "| VP at the end to its controller | 1 | 2 | 3 | 3 | 2 | 1 |" in text
    assert [c["chamber"] for c in AGORA["senate"] if c["decree_face_up"]] == [1, 3, 5]
    assert Counter(c["section"] for c in AGORA["senate"]) == {"left": 2, "middle": 2, "right": 2}
    ladder = [(s["blue_cards_min"], s["actions"]) for s in AGORA["senate_actions_by_blue_cards"]]
    assert ladder == [(0, 1), (2, 2), (4, 3)]
    assert "0-1 blue cards: 1 action; 2-3: 2 actions; 4 or more: 3" in text
    assert AGORA["counts"]["influence_cubes_per_player"] == 12 and "12 Influence cubes" in text
    assert f"{comb(25, 5):,}" in text and f"{comb(23, 3) * comb(20, 3):,}" in text
    moving = sorted(c["name"] for c in AGORA["conspiracies"] if "move_influence" in c["effects"])
    rows = re.findall(r"^\| ([A-Z][\w ]+) \| .* \| (yes|no) \|$", text, re.M)
    assert sorted(name for name, move in rows if move == "yes") == moving
    assert len(moving) == 8 and "Eight Conspiracies" in text


# --- layouts and token slots --------------------------------------------------------------------


def check_layout(slots):
    by_pos = {(s["row"], s["x"]): s["slot"] for s in slots}
    assert [s["slot"] for s in slots] == list(range(len(slots)))
    for s in slots:
        assert s["face_up"] == (s["row"] % 2 == 1)
        expected = [by_pos[(s["row"] + 1, s["x"] + d)] for d in (-1, 1) if
                    (s["row"] + 1, s["x"] + d) in by_pos]
        assert s["covered_by"] == expected
    last = max(s["row"] for s in slots)
    assert {s["slot"] for s in slots if not s["covered_by"]} == {
        s["slot"] for s in slots if s["row"] == last
    }


def test_agora_layouts():
    layouts = AGORA["layouts"]
    for slots in list(layouts.values()) + list(BASE_LAYOUTS.values()):
        check_layout(slots)
    sizes = {age: len(slots) for age, slots in layouts.items()}
    # deck sizes: 23 - 3 + 5 Senators; Age III: 20 - 3 + 3 Guilds (or Grand Temples) + 3 Senators
    assert sizes == {"1": 25, "2": 25, "3": 23}
    face_down = {age: sum(not s["face_up"] for s in slots) for age, slots in layouts.items()}
    assert face_down == {"1": 10, "2": 10, "3": 11}
    rows = {age: list(Counter(s["row"] for s in slots).values()) for age, slots in layouts.items()}
    assert rows == {"1": [3, 4, 5, 6, 7], "2": [7, 6, 5, 4, 3], "3": [2, 3, 4, 5, 4, 3, 2]}


@pytest.mark.parametrize(("which", "layouts"), [("base", BASE_LAYOUTS), ("with_agora", None)])
def test_pantheon_tokens_lie_on_face_down_slots(which, layouts):
    layouts = layouts or AGORA["layouts"]
    expected = {"mythology": (1, 5), "offering": (2, 3)}
    for token in PANTHEON["token_slots"][which]:
        age, count = expected[token["token"]]
        assert token["age"] == age and len(set(token["slots"])) == count
        slots = layouts[str(age)]
        assert all(not slots[s]["face_up"] for s in token["slots"])
