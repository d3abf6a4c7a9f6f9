"""The full-screen app of ``duel play`` driven headless with Textual's Pilot.

Key presses and clicks through a whole game against the AI, every special decision as its
dialog, manual chance, save/load, undo, hint, quitting; SVG snapshots of the main screens are
compared by their text (``tests/snapshots/``; ``UPDATE_SNAPSHOTS=1`` rewrites them).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import sys
import time
from pathlib import Path

import pexpect
import pytest

from duel import CARDS, Kind, Move, new_game
from duel.app.control.game import Dealer, GameController
from duel.app.screen.app import CardWidget, Dialog, DuelApp
from duel.record import GameRecord

# Terminal tests drive the programs, not the engine: CI runs them on the compiled path only.
pytestmark = pytest.mark.terminal

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = Path(__file__).parent / "snapshots"
SIZE = (150, 50)


def make_app(
    kinds=("human", "random"), seed: int | None = 3, *, moves=(), manual=False, chance_nodes=150
):
    game = GameController(list(kinds), Dealer(seed=seed, manual=manual), think=0.1)
    for move in moves:
        game.push(move)
    game.dirty = False
    game.set_players()
    return DuelApp(game, think=0.1, hint_nodes=400, chance_nodes=chance_nodes)


async def settle(app: DuelApp, pilot) -> None:
    """Let the AI, the dealer and the chance measure finish, and the screen catch up: until the
    app is idle and one more pause changed nothing (by the clock, not a count of pauses, so
    that a loaded machine does not cut it short)."""
    deadline = time.monotonic() + 60.0
    while time.monotonic() < deadline:
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not app.busy and not app.waiting:
            await pilot.pause()
            if not app.busy and not app.waiting:
                return


def dialog(app: DuelApp) -> str:
    return (app.screen.name or "") if isinstance(app.screen, Dialog) else ""


def run(coro) -> None:
    asyncio.run(coro)


def record_reaching(phase: str) -> GameRecord:
    """A random game stopped at the first decision of ``phase``."""
    for seed in range(500):
        rng = random.Random(seed)
        state, moves = new_game(), []
        while not state.is_terminal():
            if state.phase == phase:
                return GameRecord(tuple(moves))
            move = state.random_move(rng)
            moves.append(move)
            state = state.apply(move)
    pytest.skip(f"no random game reached {phase}")


# --- a whole game -----------------------------------------------------------------------------
def record_reaching_age(age: int) -> GameRecord:
    """A random game stopped where Age ``age`` is to be dealt (a chance node)."""
    for seed in range(500):
        rng = random.Random(seed)
        state, moves = new_game(), []
        while not state.is_terminal() and state.age < age:
            moves.append(state.random_move(rng))
            state = state.apply(moves[-1])
        if state.age == age:
            return GameRecord(tuple(moves))
    pytest.skip(f"no random game reached Age {age}")


def test_a_whole_game_against_the_ai_by_keys_and_clicks(tmp_path):
    """Age III to the end by clicks and keys alternated, the dialogs on the way (who begins Age
    III, the game over, quitting). The draft and Age I are played from the start screen by keys
    in tests/test_app_small.py, Age II's layout and who begins it below, and every special
    decision's dialog (the draft's by a click) in the tests below: starting at Age III draws
    half the frames that starting at Age II did (63 against 123 s side by side under load)."""
    record = record_reaching_age(3)

    async def scenario():
        app = make_app(("human", "random"), seed=5, moves=record.moves, chance_nodes=0)
        clicks = keys = 0
        async with app.run_test(size=(136, 40)) as pilot:  # smaller: each frame costs less
            for _ in range(400):
                await settle(app, pilot)
                state = app.state
                if state.is_terminal():
                    break
                where = dialog(app)
                if where == "action":
                    legal = [m for _, m in app.screen.options]
                    n = next(i for i, m in enumerate(legal, 1) if state.why_illegal(m) is None)
                    if clicks <= keys:
                        await pilot.click(f"#choice-{n}")
                        clicks += 1
                    else:
                        await pilot.press(str(n))
                        keys += 1
                elif where:
                    await pilot.press(str(len(app.screen.options)))
                elif state.phase == "play":
                    cards = list(app.query(CardWidget).filter(".open"))
                    card = cards[len(app.game.moves) % len(cards)]
                    if len(app.game.moves) % 2:
                        await pilot.click(f"#{card.id}")
                    else:
                        card.focus()
                        await pilot.press("enter")
            await settle(app, pilot)
            assert app.state.is_terminal(), app.state.describe()
            assert dialog(app) == "over"
            assert clicks >= 3 and keys >= 3
            assert any(line.startswith("B: ") for line in app.log_lines)
            app.save_screenshot("over.svg", str(tmp_path))
            await pilot.click("#button-quit")
            await pilot.pause()
            if dialog(app) == "quit":
                await pilot.click("#button-quit")
        assert app.return_value == 0 and app.left

    run(scenario())


# --- every special decision -----------------------------------------------------------------
@pytest.mark.parametrize(
    "phase", ["draft", "choose_token", "library_choose", "destroy", "mausoleum", "choose_starter"]
)
def test_every_special_decision_is_its_own_dialog(phase):
    record = record_reaching(phase)

    async def scenario():
        app = make_app(("human", "human"), seed=1, moves=record.moves)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert dialog(app) == phase
            options = app.screen.options
            before = len(app.game.moves)
            await pilot.press(str(len(options)))
            await settle(app, pilot)
            assert app.game.moves[before] == options[-1][1]

    run(scenario())


def test_who_begins_age_two_is_asked_once_its_structure_is_dealt_and_shown():
    """The game ends Age I at the last card; the dealer lays out Age II (its 12 face-up cards)
    before the dialog asks who begins, and the dialog names the cards to take first."""
    record = record_reaching_age(2)
    assert record.final_state().age == 2 and record.final_state().is_chance()

    async def scenario():
        app = make_app(("human", "human"), seed=1, moves=record.moves)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert dialog(app) == "choose_starter"
            state = app.state
            dealt = app.game.moves[len(record.moves) :]
            assert [m.kind for m in dealt] == [Kind.REVEAL_CARD] * 12  # the layout, then asked
            first = [CARDS[state.pyramid[s]].name for s in (18, 19)]
            heading = app.screen.heading
            assert "Age II is laid out. To take first: " in heading
            assert all(name in heading for name in first)
            assert sum(1 for c in state.pyramid if c == -2) == 8  # face down: still unseen
            await pilot.press("2")
            await settle(app, pilot)
            assert str(app.game.moves[-1]) == "start B" and app.state.pyramid == state.pyramid

    run(scenario())


def test_escape_shows_the_board_and_c_reopens_the_decision():
    async def scenario():
        app = make_app(("human", "human"))
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert dialog(app) == "draft"
            await pilot.press("escape")
            assert dialog(app) == ""
            await pilot.press("c")
            assert dialog(app) == "draft"
            await pilot.click("#choice-2")
            await settle(app, pilot)
            assert app.game.moves[-1].kind is Kind.PICK_WONDER

    run(scenario())


def test_manual_chance_dialogs_deal_what_the_user_chose():
    async def scenario():
        app = make_app(("human", "human"), seed=2, manual=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert dialog(app) == "setup_tokens"
            await pilot.press("down", "enter")  # the first name (the list is sorted)
            await settle(app, pilot)
            assert str(app.game.moves[0]) == "reveal token Agriculture"
            while dialog(app) in ("setup_tokens", "setup_wonders"):
                await pilot.press("enter")  # the first option: deal at random
                await settle(app, pilot)
            assert dialog(app) == "draft"

    run(scenario())


def test_manual_chance_guild_backs_are_typed_as_row_card():
    rng = random.Random(0)
    for _ in range(300):
        state, moves = new_game(), []
        while not state.is_terminal() and state.phase != "deal_guilds":
            moves.append(state.random_move(rng))
            state = state.apply(moves[-1])
        if state.phase == "deal_guilds":
            break

    async def scenario():
        app = make_app(("human", "human"), seed=2, moves=moves, manual=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert dialog(app) == "deal_guilds"
            await pilot.press(*"9.9", "enter")  # wrong: asked again with the reason
            await settle(app, pilot)
            assert dialog(app) == "deal_guilds"
            await pilot.press(*"2.1 4.2 6.3", "enter")
            await settle(app, pilot)
            assert app.game.moves[len(moves)] == Move.deal_guilds([2, 10, 17])
            guilds = app.query(CardWidget).filter(".guild-back")
            assert len(guilds) == 3 and all("Guild" in str(g.render()) for g in guilds)
            assert app.query(CardWidget).filter(".back")  # other face-down cards look different

    run(scenario())


# --- save, load, undo, hint, quit ---------------------------------------------------------------
def test_save_load_undo_and_hint(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    async def scenario():
        app = make_app(("human", "random"), seed=4)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await pilot.press("1")  # the draft
            await settle(app, pilot)
            await pilot.press("escape", "s")
            assert dialog(app) == "save"
            app.screen.query_one("#answer").value = ""
            await pilot.press(*"g.json", "enter")
            await settle(app, pilot)
            saved = GameRecord.load(tmp_path / "g.json")
            assert saved.moves == tuple(app.game.moves) and not app.game.dirty
            count = len(app.game.moves)
            await pilot.press("c", "1")
            await settle(app, pilot)
            assert len(app.game.moves) > count
            await pilot.press("escape", "u")
            await settle(app, pilot)
            assert len(app.game.moves) == count
            assert app.log_lines[-1].startswith("Took back: A pick")
            await pilot.press("escape", "c", "1")
            await settle(app, pilot)
            await pilot.press("escape", "l", *"g.json", "enter")
            await settle(app, pilot)
            assert tuple(app.game.moves) == saved.moves
            assert app.log_lines[-1].startswith("Loaded g.json")
            await pilot.press("escape", "h")
            await settle(app, pilot)
            hint = str(app.query_one("#hint").render())
            assert re.search(r"1\. pick .*: \d+\.\d% (exact|\(range|estimate)", hint), hint
            assert "nodes" not in hint and "depth" not in hint
            assert app.chances and all(0 <= c <= 1 for c in app.chances)
            await pilot.press("escape", "c", "1", "escape", "q")
            assert dialog(app) == "quit"
            await pilot.click("#button-cancel")
            assert dialog(app) == ""
            await pilot.press("q")
            await pilot.click("#button-save")
            await pilot.press("enter")
        assert app.left and GameRecord.load(tmp_path / "g.json").moves == tuple(app.game.moves)

    run(scenario())


def moves_before_the_last_pick() -> tuple[Move, ...]:
    """A random game's draft up to its last wonder pick (the one the Age I deal follows)."""
    moves = record_reaching("play").moves
    return moves[: max(i for i, m in enumerate(moves) if m.kind is Kind.PICK_WONDER)]


def test_fair_undo_is_refused_in_the_app():
    # From the draft's last pick, not the start: the picks before it only drew frames.
    async def scenario():
        app = make_app(("human", "human"), seed=None, moves=moves_before_the_last_pick(),
                       chance_nodes=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert dialog(app) == "draft"
            await pilot.press("1")
            await settle(app, pilot)
            assert app.state.phase == "play"
            await pilot.press("u")  # the last wonder pick was followed by the Age I deal
            await settle(app, pilot)
            assert app.state.phase == "play"

    run(scenario())


def test_a_number_key_pressed_just_after_the_numbers_changed_asks_again():
    """A key pressed within NUMBER_GRACE of a new numbering was aimed at the board before: if
    that number now means another card the app says so and takes nothing; pressed again, the
    number is the one on screen."""

    async def scenario():
        # From the draft's last pick (the picks before it only drew frames); no graph.
        app = make_app(("human", "human"), seed=3, moves=moves_before_the_last_pick(),
                       chance_nodes=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            assert dialog(app) == "draft"
            await pilot.press("1")
            await settle(app, pilot)
            assert app.state.phase == "play" and app.state.to_move == 0
            before = app.game.numbering()
            await pilot.press("1", "1")  # A builds (or buys) card 1 from the action dialog
            await settle(app, pilot)
            after = app.game.numbering()
            assert app.state.to_move == 1 and after[0] != before[0]
            app.numbering_changed = time.monotonic()  # "at once", however slow the machine
            await pilot.press("1")  # at once: meant for A's board
            await pilot.pause()
            assert dialog(app) == "" and len(app.game.moves) > 0
            await pilot.press("1")
            await pilot.pause()
            assert dialog(app) == "action"
            assert CARDS[after[0]].name in app.screen.heading

    run(scenario())


@pytest.mark.parametrize("name", ["default", "colorblind"])
def test_the_palette_colours_the_cards_of_the_app(name):
    """--palette (set before the app starts, as duel play does) colours the app's cards with
    the line mode's tables; the colour-blind palette also names each card's colour."""
    from rich.style import Style

    from duel.app.text import render as R

    async def scenario():
        app = make_app(("human", "random"), seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            while app.state.phase != "play":
                await pilot.press("1")
                await settle(app, pilot)
            cards = [c for c in app.query(CardWidget) if c.cell.card is not None]
            assert cards
            for card in cards:
                color = CARDS[card.cell.card].color
                table = R.COVERED_STYLE if card.cell.look == "covered" else R.CARD_STYLE
                expected = Style.parse(table[color]).bgcolor.triplet.hex
                assert card.styles.background.hex.lower() == expected.lower(), card.cell
                tagged = R.COLOR_TAG[color] in str(card.render())
                assert tagged == (name == "colorblind")

    R.set_palette(name)
    try:
        run(scenario())
    finally:
        R.set_palette("default")
    assert R.CARD_STYLE["red"] != R.COLORBLIND_CARD_STYLE["red"]


# --- snapshots ----------------------------------------------------------------------------------
def svg_text(svg: str) -> list[str]:
    """The text lines of a Textual SVG screenshot (what a structural comparison keeps)."""
    lines = re.findall(r'<text class="[^"]*" x="[^"]*" y="([^"]*)"[^>]*>([^<]*)</text>', svg)
    rows: dict[float, list[str]] = {}
    for y, text in lines:
        rows.setdefault(float(y), []).append(text.replace("&#160;", " "))
    return ["".join(parts).rstrip() for _, parts in sorted(rows.items())]


def compare_svg_snapshot(svg: str, kept: Path) -> list[str]:
    """The text rows of ``svg``, asserted equal to those of the snapshot ``kept`` (written when it
    is missing or with ``UPDATE_SNAPSHOTS=1``). Percentages and the win-chance sparkline are
    masked: a win chance, and how many positions the graph has valued when the screenshot is
    taken, depend on the engine path, the budget and the clock; the layout does not."""
    if os.environ.get("UPDATE_SNAPSHOTS") or not kept.exists():
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(svg, encoding="utf-8")

    def masked(line: str) -> str:
        line = re.sub(r"\d+(\.\d)?%", "NN%", line)
        line = re.sub(r"over \d+ positions", "over N positions", line)
        return re.sub(r"[▁▂▃▄▅▆▇█]*[▁▂▃▅▆▇][▁▂▃▄▅▆▇█]*", "<sparkline>", line)

    old_lines, new_lines = (
        [masked(line) for line in svg_text(s)] for s in (kept.read_text(encoding="utf-8"), svg)
    )
    assert new_lines == old_lines
    return new_lines


@pytest.mark.parametrize("screen", ["board", "draft", "action"])
def test_snapshots_of_the_main_screens(tmp_path, screen):
    async def scenario():
        app = make_app(("human", "random"), seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            if screen != "draft":
                await pilot.press("1")
                await settle(app, pilot)
                while dialog(app) == "draft":
                    await pilot.press("1")
                    await settle(app, pilot)
            if screen == "action":
                await pilot.press("1")
                await settle(app, pilot)
            expected = {"board": "", "draft": "draft", "action": "action"}[screen]
            for _ in range(100):  # under load a dialog just pushed may not be drawn yet
                await pilot.pause(0.02)
                svg = app.export_screenshot()
                if dialog(app) == expected and "Quit" in "".join(svg_text(svg)):
                    break
            (tmp_path / f"{screen}.svg").write_text(svg)

    run(scenario())
    new = (tmp_path / f"{screen}.svg").read_text()
    text = "\n".join(compare_svg_snapshot(new, SNAPSHOTS / f"app_{screen}.svg"))
    assert "Hint" in text and "Moves" in text and "Quit" in text
    if screen == "board":
        assert "military" in text and "A (human)" in text and "B (random)" in text


# --- through a real terminal --------------------------------------------------------------------
def test_duel_play_in_a_terminal_opens_the_app_and_q_leaves(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    env["XDG_DATA_HOME"] = str(tmp_path)
    child = pexpect.spawn(
        sys.executable,
        ["-c", "from duel.app.cli.main import main; main()", "play", "--seed", "1"],
        cwd=str(tmp_path), env=env, encoding="utf-8", timeout=30, dimensions=(50, 150),
    )
    child.expect("Quit")  # the footer
    child.send("q")
    child.expect("Save and quit")  # the deal of the setup is not saved yet
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def spawn_app(tmp_path: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    env["XDG_DATA_HOME"] = str(tmp_path)  # the autosave goes to the user data folder
    return pexpect.spawn(
        sys.executable,
        ["-c", "from duel.app.cli.main import main; main()", "play", *args],
        cwd=str(tmp_path), env=env, encoding="utf-8", timeout=30, dimensions=(50, 150),
    )


def autosaved(tmp_path: Path) -> GameRecord:
    return GameRecord.load(next((tmp_path / "wonders-duel").glob("duel-autosave-*.json")))


def pick_a_wonder(child: pexpect.spawn) -> None:
    """Answer the draft's first dialog with its first wonder (a decision of the human)."""
    child.expect("Quit")  # the footer: the app is drawn
    child.expect("1\\. ")  # the draft's dialog
    child.send("1")
    child.expect("B: pick ")  # the moves panel: the random player answered


@pytest.mark.parametrize(("signum", "code"), [("SIGHUP", 129), ("SIGTERM", 143), ("SIGINT", 130)])
def test_a_signal_to_the_app_saves_the_game(tmp_path, signum, code):
    import signal

    child = spawn_app(tmp_path, "--a", "human", "--b", "random", "--seed", "1")
    pick_a_wonder(child)
    child.kill(getattr(signal, signum))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == code, (child.exitstatus, child.signalstatus)
    assert any(str(m).startswith("pick") for m in autosaved(tmp_path).moves)


def test_a_closed_terminal_saves_the_game(tmp_path):
    """The terminal goes away (a window closed, ``tmux kill-session``): the kernel hangs up."""
    child = spawn_app(tmp_path, "--a", "human", "--b", "random", "--seed", "1")
    pick_a_wonder(child)
    os.close(child.child_fd)  # the terminal's end: the app gets SIGHUP and EIO
    for _ in range(200):  # it must end by itself (Textual alone could hang on the lost terminal)
        pid, status = os.waitpid(child.pid, os.WNOHANG)
        if pid:
            break
        time.sleep(0.1)
    else:
        os.kill(child.pid, 9)
        pytest.fail("the app did not end after its terminal closed")
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 129, status
    assert any(str(m).startswith("pick") for m in autosaved(tmp_path).moves)


def test_ctrl_c_in_the_app_asks_to_save_and_quits(tmp_path):
    child = spawn_app(tmp_path, "--a", "human", "--b", "random", "--seed", "1")
    pick_a_wonder(child)
    child.send("\x03")  # Ctrl-C: a key in the app
    child.expect("Save and quit")
    child.send("s")
    child.expect("Save the game to:")
    child.send("\r")  # the default name, duel-game.json
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert GameRecord.load(tmp_path / "duel-game.json").moves
