"""``duel play`` driven through a pseudo-terminal, as a person would play it.

The whole-game test keeps its own copy of the game (the same seeded dealer the program uses) to
choose legal moves, types them in every accepted form (numbers, names, notation, the
build/discard/wonder question), checks that the program answers each with the move it made, and
saves, quits, loads and finishes the game.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from duel import CARDS, TOKENS, WONDERS, Kind, Move, new_game
from duel.app.line.play import deal
from duel.app.text.render import choices, numbered_slots
from duel.record import GameRecord

ROOT = Path(__file__).resolve().parent.parent
#: Escape sequences a line editor draws before a prompt (and in place of its trailing space).
ESC = r"(?:\x1b\[[0-9;?]*[A-Za-z])*"


def prompt(name: str) -> str:
    """A new prompt ``name> ``, drawn plainly or by the line editor (``--line``).

    It must follow a line break: the line editor draws the prompt again on the same line as
    the typed keys arrive (moving the cursor back, not down), and that is not a new prompt.
    """
    return rf"\n{ESC}{name}>"


PROMPT = prompt("(A|B|game over)")
SUB_PROMPT = rf"\n{ESC}[^\n]*: build, discard or wonder\?"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def line_mode(args: tuple[str, ...]) -> list[str]:
    """A pty is a terminal: ask for the line mode (drawn table) unless --plain is given, since
    the full-screen app opens there otherwise (it is tested with Pilot in test_app.py)."""
    return [*args] if "--plain" in args or "--line" in args else [*args, "--line"]


def spawn(tmp_path: Path, *args: str, timeout: float = 30) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "COLUMNS": "100"}
    env["XDG_DATA_HOME"] = str(tmp_path)  # the autosave goes to the user data folder
    env.pop("NO_COLOR", None)
    return pexpect.spawn(
        sys.executable,
        ["-c", "from duel.app.cli.main import main; main()", "play", *line_mode(args)],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=timeout,
        dimensions=(60, 100),
    )


class Mirror:
    """The test's own copy of the game: same dealer, same moves."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.states = [new_game()]
        self.moves: list[Move] = []
        self.deal()

    @property
    def state(self):
        return self.states[-1]

    def apply(self, move: Move) -> None:
        self.states.append(self.state.apply(move))
        self.moves.append(move)
        self.deal()

    def deal(self) -> None:
        while self.state.is_chance():
            self.apply(deal(self.state, self.seed, len(self.moves)))

    def truncate(self, length: int) -> None:
        del self.moves[length:]
        del self.states[length + 1 :]


def type_move(child: pexpect.spawn, state, move: Move, rng: random.Random) -> None:
    """Type ``move`` at the prompt in one of the accepted forms (chosen at random)."""
    kind = move.kind
    if kind in (Kind.BUILD, Kind.DISCARD, Kind.WONDER):
        slots = numbered_slots(state)
        number = next(i for i, s in enumerate(slots, 1) if state.pyramid[s] == move.card)
        name = CARDS[move.card].name
        style = rng.randrange(4)
        if style == 0:  # number, then the question
            child.sendline(str(number))
            child.expect(SUB_PROMPT)
            if kind is Kind.BUILD:
                child.sendline(rng.choice(["b", "build", "1"]))
            elif kind is Kind.DISCARD:
                child.sendline(rng.choice(["d", "discard", "2"]))
            else:
                own = state.wonders(state.to_move)
                child.sendline(str(3 + own.index(move.wonder)))
        elif style == 1:  # name (lower case), then the question
            child.sendline(name.lower())
            child.expect(SUB_PROMPT)
            if kind is Kind.WONDER:
                child.sendline("wonder " + WONDERS[move.wonder].name.removeprefix("The "))
            else:
                child.sendline("build" if kind is Kind.BUILD else "discard")
        elif style == 2:  # verb and number
            if kind is Kind.WONDER:
                own = state.wonders(state.to_move)
                child.sendline(f"wonder w{own.index(move.wonder) + 1} with {number}")
            else:
                child.sendline(f"{'build' if kind is Kind.BUILD else 'discard'} {number}")
        else:  # the notation, forgivingly spelt
            child.sendline(str(move).lower())
        return
    options = [c.move for c in choices(state)]
    index = options.index(move)
    label = choices(state)[index].label
    style = rng.randrange(3)
    if style == 0:
        child.sendline(str(index + 1))
    elif style == 1:
        child.sendline(label.lower().removeprefix("the "))
    else:
        child.sendline(str(move))


def play_until(child, mirror: Mirror, rng: random.Random, stop) -> None:
    """Play random legal moves through the terminal until ``stop(mirror)`` or the game ends."""
    while not mirror.state.is_terminal() and not stop(mirror):
        state = mirror.state
        child.expect(PROMPT)
        assert child.match.group(1) == "AB"[state.to_move], child.before[-2000:]
        move = rng.choice(state.legal_moves())
        type_move(child, state, move, rng)
        child.expect_exact(f"{'AB'[state.to_move]}: {move}")
        mirror.apply(move)


def check_final_scores(child, state) -> None:
    child.expect("Game over.")
    child.expect(r"total\s+(\d+)\s+(\d+)")
    assert (int(child.match.group(1)), int(child.match.group(2))) == (
        state.score(0).total,
        state.score(1).total,
    )


def test_whole_game_two_humans_with_save_and_load(tmp_path):
    seed, rng = 11, random.Random(5)
    mirror = Mirror(seed)
    child = spawn(tmp_path, "--a", "human", "--b", "human", "--seed", str(seed), "--plain")
    child.expect("seed 11")
    # The first half of the game, then an undo and a save.
    play_until(child, mirror, rng, lambda m: m.state.age == 2 and m.state.phase == "play")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect("Took back: ")
    decision = max(
        i for i, s in enumerate(mirror.states[:-1]) if not s.is_chance() and not s.is_terminal()
    )
    mirror.truncate(decision)
    play_until(child, mirror, rng, lambda m: len([x for x in m.moves if not x.is_chance]) >= 45)
    child.expect(PROMPT)
    child.sendline("save game.json")
    child.expect_exact("Game saved to game.json")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = GameRecord.load(tmp_path / "game.json")
    assert list(record.moves) == mirror.moves
    assert record.metadata["players"] == {"A": "human", "B": "human"}
    assert record.metadata["seed"] == seed
    # Load it (players and seed come from the file) and finish the game.
    child = spawn(tmp_path, "--load", "game.json", "--plain")
    child.expect("Loaded game.json")
    child.expect("A human, B human, seed 11")
    play_until(child, mirror, rng, lambda m: False)
    check_final_scores(child, mirror.state)
    child.expect(PROMPT)
    child.sendline("save final.json")
    child.expect_exact("Game saved to final.json")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert GameRecord.load(tmp_path / "final.json").final_state() == mirror.state


def test_whole_game_against_random_in_the_rich_table(tmp_path):
    """Colours and the drawn table; the human always takes card 1 and discards it."""
    child = spawn(tmp_path, "--a", "human", "--b", "random", "--seed", "3")
    seen_table = False
    while True:
        i = child.expect([prompt("A"), SUB_PROMPT, prompt("game over")])
        if i == 0:
            screen = ANSI.sub("", child.before)
            if "Military" in screen and "wonders" in screen:
                seen_table = True
            child.sendline("1")
        elif i == 1:
            child.sendline("discard")
        else:
            break
    screen = ANSI.sub("", child.before)
    assert "Game over" in screen and "total" in screen
    assert "\x1b[" in child.before  # colours
    assert seen_table
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_bad_input_reprompts_with_a_reason(tmp_path):
    mirror = Mirror(2)
    child = spawn(tmp_path, "--a", "human", "--b", "human", "--seed", "2", "--plain")
    child.expect(PROMPT)
    child.sendline("xyzzy")
    child.expect("(?i)nothing here is called 'xyzzy'")
    child.sendline("9")
    child.expect("(?i)choose 1-4")
    child.sendline("build Baths")
    child.expect("Not possible: .*wonder draft")
    child.sendline("cost Baths")  # works in any phase
    child.expect("Baths for player A")
    child.sendline("help")
    child.expect("Taking a card")
    rng = random.Random(1)
    play_until(child, mirror, rng, lambda m: m.state.phase == "play")
    child.expect(PROMPT)
    state = mirror.state
    child.sendline("42")
    child.expect("(?i)there is no card number 42")
    child.sendline("build pyramids")
    child.expect("(?i)did you mean|not in the Age I structure|no card named")
    other = next(w for w in range(len(WONDERS)) if w not in state.wonders(0))
    child.sendline(f"wonder {WONDERS[other].name} with 1")
    child.expect("is not one of your wonders")
    expensive = [
        c
        for c in (state.pyramid[s] for s in numbered_slots(state))
        if state.card_cost(0, c) > state.coins(0)
    ]
    if expensive:
        child.sendline(f"build {CARDS[expensive[0]].name}")
        child.expect("Not possible: .* needs .* you have")
    child.sendline("1")
    child.expect(SUB_PROMPT)
    child.sendline("9")
    child.expect(r"Choose 1-\d+")
    child.sendline("cancel")
    child.expect(PROMPT)
    child.sendline("discards")
    child.expect("discard pile is empty")
    child.sendline("tokens")
    child.expect("Progress tokens on the board:")
    child.sendline("info Law")
    child.expect(TOKENS[3].text[:20])
    child.sendline("hint")
    child.expect(r"A's chance of winning after each move|hints need the solver")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_ctrl_c_offers_to_save(tmp_path):
    child = spawn(tmp_path, "--a", "human", "--b", "random", "--seed", "4", "--plain")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Interrupted")
    child.expect("Save the game")
    child.sendline("")
    child.expect(r"Game saved to \S*wonders-duel/duel-autosave-\S*.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    record = GameRecord.load(next((tmp_path / "wonders-duel").glob("duel-autosave-*.json")))
    assert record.metadata["players"] == {"A": "human", "B": "random"}
    assert any(str(m).startswith("pick") for m in record.moves)


def test_end_of_input_autosaves_and_loading_continues_exactly(tmp_path):
    command = [sys.executable, "-c", "from duel.app.cli.main import main; main()", "play"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path)}
    result = subprocess.run(
        [*command, "--seed", "9", "--plain"],
        input="1\n1\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "End of input" in result.stdout
    saved = next((tmp_path / "wonders-duel").glob("duel-autosave-*.json"))
    first = GameRecord.load(saved)
    # Continue it: the dealer deals from the seed and the move count, so loading and going on
    # gives the same game as not stopping at all.
    result = subprocess.run(
        [*command, "--load", str(saved), "--plain"],
        input="1\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    second = GameRecord.load(saved)
    assert second.moves[: len(first.moves)] == first.moves
    assert len(second.moves) > len(first.moves)
    mirror = Mirror(9)
    for move in second.moves:
        if not move.is_chance:
            mirror.apply(move)
    assert mirror.moves == list(second.moves)


def test_ai_against_ai_plays_to_the_end(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from duel.app.cli.main import main; main()",
            "play",
            "--a",
            "random",
            "--b",
            "random",
            "--seed",
            "21",
            "--plain",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Game over." in out
    assert re.search(r"wins (by military|by scientific|the civilian)|Shared victory", out)
    assert re.search(r"(?m)^civilian \(blue\)\s+\d+\s+\d+$", out)
    assert "Age II is dealt" in out and "Age III is dealt" in out


def test_unknown_level_is_an_error(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", "from duel.app.cli.main import main; main()", "play", "--a",
         "wizard"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert result.returncode == 2
    assert "unknown level 'wizard'" in result.stderr


def test_loading_a_bad_file_says_why(tmp_path):
    (tmp_path / "bad.json").write_text(json.dumps({"format": "7wd-record", "moves": ["build X"]}))
    result = subprocess.run(
        [sys.executable, "-c", "from duel.app.cli.main import main; main()", "play", "--load"]
        + ["bad.json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert result.returncode == 2
    assert "Could not load" in result.stdout + result.stderr


@pytest.mark.parametrize("plain", [True, False])
def test_undo_skips_ai_moves_and_chance(tmp_path, plain):
    args = ["--a", "human", "--b", "random", "--seed", "6"] + (["--plain"] if plain else [])
    child = spawn(tmp_path, *args)
    child.expect(PROMPT)
    child.sendline("1")  # A picks a wonder, B picks two
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect(r"Took back: A pick .*, B pick .*, B pick ")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect("Nothing to undo")
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_manual_chance_takes_the_outcomes_of_a_real_game(tmp_path):
    """run_game(manual_chance=True): the user types what was dealt; Enter deals at random."""
    code = (
        "import sys; from duel.app.line.play import run_game; "
        "sys.exit(run_game(('human', 'human'), "
        "seed=1, load=None, delay=0, think=1, plain=True, manual_chance=True))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = pexpect.spawn(
        sys.executable,
        ["-c", code],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 100),
    )
    child.expect("Which progress token was put on the board?")
    child.sendline("law")
    child.expect("dealer> ")
    child.sendline("law")
    child.expect("Nothing here is called 'law'. It can be: Agriculture, Architecture")
    child.sendline("eco")
    for _ in range(3):
        child.expect("dealer> ")
        child.sendline("")
    child.expect("Which wonder was revealed")
    child.sendline("sphinx")
    for _ in range(3):
        child.expect("dealer> ")
        child.sendline("")
    child.expect(PROMPT)
    child.sendline("save manual.json")
    child.expect("Game saved")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    moves = [str(m) for m in GameRecord.load(tmp_path / "manual.json").moves]
    assert moves[:2] == ["reveal token Law", "reveal token Economy"]
    assert moves[5] == "reveal wonder The Sphinx"


def record_reaching(phase: str) -> GameRecord:
    """A random game (any seed) stopped at the first decision of ``phase``."""
    for seed in range(500):
        rng = random.Random(seed)
        state, moves = new_game(), []
        while not state.is_terminal():
            if state.phase == phase:
                return GameRecord(tuple(moves), {"players": {"A": "human", "B": "human"}})
            move = state.random_move(rng)
            moves.append(move)
            state = state.apply(move)
    pytest.skip(f"no random game reached {phase}")


@pytest.mark.parametrize(
    "phase, how",
    [
        ("choose_token", "name"),
        ("library_choose", "number"),
        ("destroy", "name"),
        ("mausoleum", "notation"),
        ("choose_starter", "name"),
    ],
)
def test_every_special_decision_from_the_keyboard(tmp_path, phase, how):
    record = record_reaching(phase)
    record.save(tmp_path / "game.json")
    state = record.final_state()
    options = choices(state)
    option = options[-1]
    child = spawn(tmp_path, "--load", "game.json", "--plain")
    child.expect(PROMPT)
    assert child.match.group(1) == "AB"[state.to_move]
    if how == "name":
        child.sendline(option.label.lower())
    elif how == "number":
        child.sendline(str(len(options)))
    else:
        child.sendline(str(option.move))
    child.expect_exact(f"{'AB'[state.to_move]}: {option.move}")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("Save the game before leaving")
    child.sendline("n")
    child.expect(pexpect.EOF)


FACE_UP_III = (0, 1, 5, 6, 7, 8, 11, 12, 13, 14, 18, 19)


def test_manual_chance_asks_where_the_guild_backs_are(tmp_path):
    """At the Age III layout the user types the three guild-backed cards as row.card; the
    choice of who begins Age III comes after the layout, with its face-up cards named."""
    for seed in range(200):
        rng = random.Random(seed)
        state, moves = new_game(), []
        while not (state.age == 3 and state.phase == "deal_guilds"):
            if state.is_terminal():
                break
            moves.append(state.random_move(rng))
            state = state.apply(moves[-1])
        if not state.is_terminal():
            break
    GameRecord(tuple(moves), {"players": {"A": "human", "B": "human"}}).save(tmp_path / "g.json")
    code = (
        "import sys; from pathlib import Path; from duel.app.line.play import run_game; "
        "sys.exit(run_game((None, None), seed=1, load=Path('g.json'), delay=0, think=1, "
        "plain=True, manual_chance=True))"
    )
    child = pexpect.spawn(
        sys.executable,
        ["-c", code],
        cwd=str(tmp_path),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 100),
    )
    child.expect("Which three cards have the guild back?")
    child.expect("dealer> ")
    child.sendline("9.1 2.1 4.2")
    child.expect("There is no row 9")
    child.sendline("1.2 4.2 6.3")  # slots 1, 10 and 17
    child.expect("Which card was turned face up in row 1, card 1 from the left?")
    child.sendline("")
    child.expect("Which guild card was turned face up in row 1, card 2 from the left?")
    child.expect("dealer> ")
    child.sendline("Arsenal")
    child.expect("It can be: Builders Guild")
    child.sendline("builders")
    for _ in range(10):
        child.expect("dealer> ")
        child.sendline("")
    child.expect("Age III is laid out. To take first: ")  # the chooser sees the new structure
    child.expect(PROMPT)
    child.sendline("start A")
    child.expect(PROMPT)
    child.sendline("save manual.json")
    child.expect("Game saved")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    saved = [str(m) for m in GameRecord.load(tmp_path / "manual.json").moves]
    assert saved[len(moves)] == "guilds at slots 1 10 17"
    layout = saved[len(moves) + 1 : len(moves) + 13]
    assert [m.split()[:3] for m in layout] == [["reveal", "slot", str(s)] for s in FACE_UP_III]
    assert "reveal slot 1 Builders Guild" in layout and saved[len(moves) + 13] == "start A"
