"""Wording and colours of the drawings: chain symbols by name, plurals, one affordability mark,
the colour-blind palette, and `duel show` in a pipe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from duel.app.text import render as R
from duel.catalog import CARDS, WONDERS, card_named
from duel.state import State
from tests.test_render import first_with

ROOT = Path(__file__).resolve().parents[1]


def test_chain_symbols_are_named_for_players():
    assert R.card_effect(card_named("Baths")) == "3 VP, chain: water drop (Baths -> Aqueduct)"
    assert "free with water drop (Baths -> Aqueduct)" in R.card_cost_text(card_named("Aqueduct"))
    assert "Greek building" in R.card_effect(card_named("Rostrum"))
    for card in CARDS:
        assert "_" not in R.card_effect(card) + R.card_cost_text(card), card.name


def test_no_wrong_plural_anywhere():
    texts = [R.card_effect(c) for c in CARDS] + [R.card_cost_text(c) for c in CARDS]
    texts += [R.wonder_effect(w) for w in WONDERS]
    for text in texts:
        for word in ("coin", "shield", "card"):
            assert f" 1 {word}s" not in f" {text}", text
    assert R.card_effect(card_named("Guard Tower")) == "1 shield"
    assert R.card_cost_text(card_named("Stone Pit")) == "1 coin"


def _unaffordable(state: State) -> bool:
    if state.phase != "play" or state.is_chance():
        return False
    p = state.to_move
    return any(not R.price_text(state, p, state.pyramid[s])[1] for s in R.numbered_slots(state))


def test_pyramid_and_card_list_agree_on_what_cannot_be_afforded():
    state = first_with(_unaffordable)
    pyramid = R.render_pyramid(state, 100).plain
    console = Console(width=100, color_system=None, file=None)
    with console.capture() as capture:
        console.print(R.render_decision(state))
    listing = capture.get()
    for number, _card, price, ok in R._card_rows(state):
        label = R.price_label(price, ok)
        row = next(line for line in listing.splitlines() if line.strip().startswith(f"{number} "))
        assert label in row, (row, label)
        if not ok:
            assert f"{price} ✗" in pyramid and f"{price} ✗" in row


def test_colorblind_palette_separates_brown_and_red_and_tags_every_card():
    try:
        assert R.set_palette("colorblind") == "colorblind"
        for table in (R.CARD_STYLE, R.COVERED_STYLE, R.NAME_STYLE):
            assert len(set(table.values())) == len(table)  # seven distinct colours
        state = first_with(lambda s: s.phase == "play" and s.age == 1 and not s.is_chance())
        text = R.render_pyramid(state, 100).plain
        visible = [s for s in range(20) if 0 <= state.pyramid[s] < len(CARDS)]
        tags = sum(text.count(tag) for tag in R.COLOR_TAG.values())
        assert tags == len(visible)
    finally:
        R.set_palette("default")
    assert R.CARD_STYLE["red"] == "bold white on rgb(190,30,30)"
    with pytest.raises(ValueError, match="unknown palette 'pink'"):
        R.set_palette("pink")


def test_palette_from_the_environment(monkeypatch):
    monkeypatch.setenv("DUEL_PALETTE", "colorblind")
    try:
        assert R.set_palette() == "colorblind"
    finally:
        R.set_palette("default")


def test_show_in_a_pipe_prints_full_names():
    result = subprocess.run(
        [sys.executable, "-c", "from duel.app.cli.main import main; main()", "show",
         str(ROOT / "examples" / "age2_midgame.json")],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Shelf Quarry" in result.stdout and "Quar." not in result.stdout
    assert "Discard pile: 9 cards" in result.stdout  # the example's 9 discards (a reachable table)
