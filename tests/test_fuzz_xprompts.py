"""Typed text in expansion games: every line at the line mode's prompts, every text typed in the
full screen, and every move of a record gets one line of answer, never a traceback (issue 60,
item 7). ``XMove.parse`` raises only its own :class:`~duel.moves.MoveParseError`."""

from __future__ import annotations

import asyncio
import json
import os
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duel.app.control.xgame import XGameControl
from duel.app.line.xplay import run_xgame
from duel.expansions import XMove
from duel.expansions.moves import _PARSERS
from duel.moves import MoveParseError

pytestmark = pytest.mark.expansions

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
#: The texts that crashed (issue 60) and their neighbours: verbs with no or a wrong object,
#: digits that are not ASCII, huge numbers.
TRAPS = [
    "no", "no foo", "no move", "²", "٣", "seat zeus on ٣", "seat zeus on ²", "activate ٣",
    "back of slot ٣: temple", "9" * 5000, "-1", "0", "\0", "seat", "activate", "keep",
    "keep a, b at the top", "prepare x under plot y", "deck", "move cube", "trigger plot",
    "decree", "start C", "take A9", "divinities", "reveal", "quit later", "hint me",
]  # fmt: skip
#: Every verb the notation knows, so arbitrary text reaches each sub-parser.
VERBS = sorted(_PARSERS)
TEXTS = st.one_of(
    st.text(max_size=40),
    st.sampled_from(TRAPS),
    st.builds(lambda v, rest: f"{v} {rest}", st.sampled_from(VERBS), st.text(max_size=30)),
)


@FUZZ
@given(text=TEXTS)
def test_parse_reads_a_move_or_raises_its_own_error(text):
    try:
        move = XMove.parse(text)
    except MoveParseError as error:
        assert str(error) and "\n" not in str(error)
        return
    assert XMove.parse(str(move)) == move


@pytest.mark.parametrize("text", ["no", "no foo", "²", "٣", "seat zeus on ٣", "seat zeus on ²"])
def test_the_texts_that_crashed_are_refused_with_the_parsers_error(text):
    with pytest.raises(MoveParseError, match="cannot read|unknown move"):
        XMove.parse(text)


def test_non_ascii_digits_are_not_numbers_at_the_prompt():
    control = XGameControl(("pantheon",), ("human", "random"), seed=1, notify=lambda _: None)
    player = control.advance()
    for text in ("²", "٣", "١"):
        assert isinstance(control.read_move(player, text), str)
    assert not isinstance(control.read_move(player, "1"), str)


@FUZZ
@given(lines=st.lists(TEXTS, min_size=1, max_size=25), seed=st.integers(0, 50))
def test_any_line_at_the_expansion_line_mode_keeps_the_game(tmp_path, lines, seed):
    queue = list(lines)
    rng = random.Random(seed)

    def read(prompt: str) -> str:
        # The fuzzer's lines, with a legal choice now and then so the game moves on.
        if queue:
            return queue.pop(0) if rng.random() < 0.7 else "1"
        return "quit"

    out: list[str] = []
    expansions = [("pantheon",), ("agora",), ("agora", "pantheon")][seed % 3]
    path = tmp_path / f"fuzz-{seed}.json"
    path.unlink(missing_ok=True)
    code = run_xgame(
        expansions, ("human", "random"), seed=seed, record=path, read=read, write=out.append
    )
    assert code in (0, 1)
    assert not any("Traceback" in line for line in out)
    if code == 1 and path.exists():
        assert XGameControl.resume(path, notify=lambda _: None).expansions == expansions


def test_a_record_holding_a_bad_move_is_one_line_everywhere(tmp_path, capsys):
    from typer.testing import CliRunner

    from duel.app.cli.main import app

    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {"format": "7wd-record", "version": 2, "expansions": ["pantheon"], "moves": ["no foo"]}
        )
    )
    for args in (["show", str(path)], ["hint", str(path)], ["play", "--line", "--load", str(path)]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1 and "no foo" in lines[0], (args, result.output)


async def _settle(app, pilot) -> None:
    deadline = time.monotonic() + 60.0
    while time.monotonic() < deadline:
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not app.busy:
            return


@pytest.mark.terminal
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_any_text_typed_in_the_expansion_full_screen_keeps_the_app(tmp_path, seed):
    from duel.app.screen.xapp import XApp

    rng = random.Random(seed)
    texts = [rng.choice(TRAPS) for _ in range(12)]
    junk = "ab z²٣9\0-,:"
    typed = ("".join(rng.choice(junk) for _ in range(rng.randint(1, 9))) for _ in range(8))
    texts += list(typed)
    control = XGameControl(
        ("agora", "pantheon"), ("human", "random"), seed=seed, record=tmp_path / "g.json"
    )

    async def scenario():
        app = XApp(control)
        async with app.run_test(size=(80, 24)) as pilot:
            for text in texts:
                await _settle(app, pilot)
                assert app.is_running and app.player == 0
                entry = app.query_one("#entry")
                entry.value = text.replace("\0", "")
                entry.focus()
                await pilot.press("enter")
                await _settle(app, pilot)
                if rng.random() < 0.3:
                    await pilot.press("1", "enter")
            await _settle(app, pilot)
            assert app.is_running

    asyncio.run(scenario())
