"""The log's coins are gross: what was paid and to whom, what was got, what the opponent got
(Economy) or lost (looting, a wonder), and they add up to the change in each purse."""

from __future__ import annotations

import random
import re

from duel import new_game
from duel.app.text.moves import coin_flows


def _amounts(text: str) -> dict[str, int]:
    found = {}
    for word in ("pays", "gets", "loses", "has"):
        match = re.search(rf"\b{word} (\d+)", text)
        if match:
            found[word] = int(match.group(1))
    return found


def test_gross_coins_add_up_to_the_change_of_each_purse():
    seen = set()
    for seed in range(40):
        rng, state = random.Random(seed), new_game()
        while not state.is_terminal():
            move = state.random_move(rng)
            after = state.apply(move)
            if not move.is_chance:
                player, other = state.to_move, 1 - state.to_move
                lines = {line[0]: line for line in coin_flows(state, after, move)}
                for p, delta in ((player, after.coins(player) - state.coins(player)),
                                 (other, after.coins(other) - state.coins(other))):
                    line = lines.get("AB"[p], "")
                    got = _amounts(line)
                    assert got.get("gets", 0) - got.get("pays", 0) - got.get("loses", 0) == delta
                    assert got.get("has", after.coins(p)) == after.coins(p), line
                    if p == player and got.get("pays") and got.get("gets"):
                        seen.add("pays and gets")
                    if "by Economy" in line:
                        seen.add("Economy")
                    if "looting token" in line:
                        seen.add("looting")
            state = after
    assert seen == {"pays and gets", "Economy", "looting"}


def test_a_known_move_reads_as_expected():
    rng, state = random.Random(1), new_game()
    while state.phase != "play":
        state = state.apply(state.random_move(rng))
    build = next(m for m in state.legal_moves() if m.kind.name == "BUILD"
                 and state.card_cost(0, m.card) > 0)
    paid = state.card_cost(0, build.card)
    text = coin_flows(state, state.apply(build), build)[0]
    assert text.startswith(f"A pays {paid} coin") and "to the bank" in text
    assert text.endswith(f"has {7 - paid}")
