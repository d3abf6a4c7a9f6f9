"""Hidden cards stay hidden in ``duel play``: every route a player could look through.

Screen, save file, record, seed, reload and undo: a fair game (no ``--seed``) deals each hidden
card from the operating system when it is revealed, so none of them can tell a card early;
seeded games say that they are not fair play.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from duel import Kind, new_game
from duel.app.control.game import NOT_FAIR, Dealer, record_moves_to_save, undo_target
from duel.app.line.play import Output, Session, _Restart, run_game
from duel.catalog import TOKENS
from duel.record import GameRecord, RecordError


def feeder(lines: list[str]):
    """A ``read`` function giving ``lines`` then end of input."""
    queue = list(lines)

    def read(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return read


def session(tmp_path: Path, lines: list[str], *, seed: int | None, kinds=("human", "random")):
    s = Session(
        kinds=list(kinds),
        dealer=Dealer(seed=seed),
        delay=0.0,
        think=0.2,
        out=Output(plain=True),
        interactive=False,
        read=feeder(lines),
        autosave_path=tmp_path / "duel-autosave.json",
    )
    s.game.set_players()
    return s


def moves_until_a_human_reveal(seed: int):
    """A seeded random game up to a human decision (A) that is followed by a card reveal."""
    rng = random.Random(seed)
    state, moves, states = new_game(), [], [new_game()]
    while True:
        move = state.random_move(rng)
        after = state.apply(move)
        if (
            state.phase == "play"
            and state.to_move == 0
            and after.is_chance()
            and after.phase == "reveal"
        ):
            return states, moves, move
        moves.append(move)
        states.append(after)
        state = after


# --- the dealer ------------------------------------------------------------------------------
def test_fair_dealer_draws_fresh_cards_each_time():
    states, moves, decision = moves_until_a_human_reveal(3)
    reveal_node = states[-1].apply(decision)
    outcomes = {Dealer().deal(reveal_node, len(moves) + 1) for _ in range(40)}
    assert len(outcomes) > 1  # not a function of the game: nothing to predict it from
    seeded = {Dealer(seed=7).deal(reveal_node, len(moves) + 1) for _ in range(5)}
    assert len(seeded) == 1  # a seeded game is reproducible


def test_fair_dealer_uses_the_operating_system(monkeypatch):
    used = []

    class Spy(random.SystemRandom):
        def random(self):
            used.append(True)
            return super().random()

    monkeypatch.setattr(random, "SystemRandom", Spy)
    Dealer().deal(new_game(), 0)
    assert used


# --- screen and save file ------------------------------------------------------------------------
def test_fair_game_screen_and_save_have_no_seed(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = session(tmp_path, ["1", "1", "save game.json"], seed=None)
    assert s.run() == 0
    out = capsys.readouterr().out
    assert "seed" not in out.lower()
    data = json.loads((tmp_path / "game.json").read_text())
    assert data["metadata"]["fair"] is True and "seed" not in data["metadata"]
    assert "seed" not in json.dumps(data).lower()


def test_seeded_game_says_not_fair_play_on_screen_and_in_the_record(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = run_game(
        ("human", "random"),
        seed=5,
        load=None,
        delay=0,
        think=1,
        plain=True,
        read=feeder(["1", "save s.json"]),
    )
    assert code == 0
    assert NOT_FAIR in capsys.readouterr().out
    meta = GameRecord.load(tmp_path / "s.json").metadata
    assert meta["fair"] is False and meta["seed"] == 5 and meta["dealer"] == NOT_FAIR


# --- reload ---------------------------------------------------------------------------------
def test_reloading_a_fair_game_deals_fresh_and_stays_fair(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    states, moves, decision = moves_until_a_human_reveal(4)
    record = GameRecord(tuple(moves + [decision]), {"fair": True, "players": {"A": "human"}})
    path = tmp_path / "r.json"
    record.save(path)
    firsts = set()
    for _ in range(12):
        s = session(tmp_path, [], seed=None)
        assert s.load(path)
        assert s.game.dealer.fair
        s.deal_chance()
        firsts.add(s.game.moves[len(moves) + 1])
    assert len(firsts) > 1


def test_load_with_seed_makes_an_analysis_game(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    states, moves, _ = moves_until_a_human_reveal(4)
    GameRecord(tuple(moves), {"fair": True}).save(tmp_path / "r.json")
    run_game(
        (None, None),
        seed=9,
        load=tmp_path / "r.json",
        delay=0,
        think=1,
        plain=True,
        read=feeder(["save out.json"]),
    )
    assert "not fair play" in capsys.readouterr().out
    meta = GameRecord.load(tmp_path / "out.json").metadata
    assert meta["fair"] is False and meta["seed"] == 9
    assert meta["seeded_from_move"] == len(moves)


def test_old_records_with_a_seed_stay_seeded():
    assert Dealer.from_metadata({"seed": 11}).seed == 11
    assert Dealer.from_metadata({"seed": 11, "fair": True}).fair
    assert Dealer.from_metadata({"seed": "x"}).fair


# --- undo --------------------------------------------------------------------------------------
def test_undo_never_takes_back_a_dealt_card_in_a_fair_game():
    states, moves, decision = moves_until_a_human_reveal(5)
    states = states + [states[-1].apply(decision)]
    moves = moves + [decision]
    reveal = states[-1].sample_chance(random.Random(0))
    states.append(states[-1].apply(reveal))
    moves.append(reveal)
    human = lambda p: p == 0  # noqa: E731
    refused = undo_target(states, moves, human, may_undo_chance=False)
    assert isinstance(refused, str) and "fair game" in refused
    assert undo_target(states, moves, human, may_undo_chance=True) == len(moves) - 2


def test_undo_in_a_fair_session_is_refused_after_a_reveal(tmp_path, capsys):
    states, moves, decision = moves_until_a_human_reveal(6)
    s = session(tmp_path, [], seed=None)
    s.game.moves, s.game.states = list(moves), list(states)
    s.play(decision)
    s.deal_chance()
    before = list(s.game.moves)
    s.undo()
    assert s.game.moves == before
    assert "Cannot undo" in capsys.readouterr().out


def test_undo_in_a_seeded_session_deals_the_same_card_again(tmp_path):
    states, moves, decision = moves_until_a_human_reveal(6)
    s = session(tmp_path, [], seed=3)
    s.game.moves, s.game.states = list(moves), list(states)
    s.play(decision)
    s.deal_chance()
    dealt = list(s.game.moves)
    with pytest.raises(_Restart):
        s.undo()
    s.play(decision)
    s.deal_chance()
    assert s.game.moves == dealt


# --- records: The Great Library -------------------------------------------------------------------
def library_game():
    """A seeded random game in which The Great Library's draw happens, and its moves."""
    for seed in range(400):
        rng = random.Random(seed)
        state, moves = new_game(), []
        while not state.is_terminal():
            move = state.random_move(rng)
            moves.append(move)
            state = state.apply(move)
            if move.kind is Kind.LIBRARY_DRAW:
                draw = move
                choice = state.random_move(rng)
                moves.append(choice)
                return moves, draw, choice
    raise AssertionError("no Great Library in 400 games")


def test_records_keep_only_the_chosen_library_token():
    moves, draw, choice = library_game()
    record = GameRecord(tuple(moves))
    text = json.dumps(record.to_json())
    unchosen = [TOKENS[t].name for t in range(len(TOKENS)) if draw.token_mask >> t & 1]
    unchosen.remove(TOKENS[choice.token].name)
    assert f"draw {TOKENS[choice.token].name}, ?, ?" in text
    drawn_line = next(m for m in record.to_json()["moves"] if m.startswith("draw"))
    assert not any(name in drawn_line for name in unchosen)
    back = GameRecord.from_json(json.loads(text))
    assert back.final_state() == record.final_state()
    assert back.redacted == {moves.index(draw)}


def test_a_redacted_draw_must_be_followed_by_its_token():
    moves, draw, choice = library_game()
    data = GameRecord(tuple(moves)).to_json()
    i = next(i for i, m in enumerate(data["moves"]) if m.startswith("draw"))
    other = next(t for t in TOKENS if t.id != choice.token)
    data["moves"][i + 1] = f"token {other.name}"
    with pytest.raises(RecordError, match="followed by the choice of its token"):
        GameRecord.from_json(data)


def test_an_ai_library_draw_pending_is_not_saved():
    moves, draw, choice = library_game()
    moves = moves[:-1]
    state = new_game()
    states = [state]
    for m in moves:
        state = state.apply(m)
        states.append(state)
    chooser = state.to_move
    kept = record_moves_to_save(moves, states, lambda p: p != chooser)
    assert kept == moves[:-1]
    assert record_moves_to_save(moves, states, lambda p: True) == moves


def test_who_begins_the_next_age_sees_its_face_up_cards_and_nothing_else():
    """The chooser decides once the new structure is laid out: only its face-up cards have been
    dealt since the last card of the Age (the face-down ones are still chance nodes), and in a
    fair game that last card cannot be taken back (the new cards were seen)."""
    for seed in range(20):
        rng = random.Random(seed)
        state = new_game()
        states, moves = [state], []
        while not state.is_terminal() and state.phase != "choose_starter":
            moves.append(state.random_move(rng))
            state = state.apply(moves[-1])
            states.append(state)
        if state.phase == "choose_starter":
            break
    assert state.phase == "choose_starter" and state.age == 2
    last = max(i for i, m in enumerate(moves) if not m.is_chance)
    dealt = moves[last + 1 :]
    assert [m.kind for m in dealt] == [Kind.REVEAL_CARD] * 12
    assert sorted(m.slot for m in dealt) == [0, 1, 2, 3, 4, 5, 11, 12, 13, 14, 18, 19]
    assert sum(1 for c in state.pyramid if c == -2) == 8
    assert len(state.unseen_cards) == 23 - 12  # 8 face down + 3 removed at setup, all unknown
    taker = states[last].to_move
    refused = undo_target(states, moves, lambda p: p == taker, may_undo_chance=False)
    assert isinstance(refused, str) and "12 cards turned face up" in refused


# --- expansion games: the seal, the key, and who may look (issue 60, item 5) ---------------------
def _xsave(tmp_path: Path, seats=("human", "random"), moves: int = 20):
    from duel.app.control.xgame import XGameControl

    path = tmp_path / "xsave.json"
    control = XGameControl(("pantheon",), seats, seed=6, record=path, notify=lambda _: None)
    while len(control.moves) < moves:
        player = control.advance()
        control.play(control.view(player).legal_moves()[0])
    return control, path


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m.update(players=["human", "human"]),
        lambda m: m.update(think=1e308),
        lambda m: m.update(seed=7),
        lambda m: m.pop("seed"),
        lambda m: m.update(extra="anything"),
    ],
)
def test_an_expansion_saves_metadata_is_under_the_seal(tmp_path, change):
    from duel.app.control.xsaves import read_save
    from duel.expansions.record import XRecordError

    _, path = _xsave(tmp_path)
    data = json.loads(path.read_text())
    change(data["metadata"])
    path.write_text(json.dumps(data))
    with pytest.raises(XRecordError, match="altered"):
        read_save(path)


def test_the_key_is_created_0600_in_a_0700_folder_whatever_the_umask(tmp_path, monkeypatch):
    import os
    import stat

    from duel.app.control import xsaves

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    created: list[int] = []
    real_open = os.open

    def watching_open(path, flags, mode=0o777, *args, **kwargs):
        if ".key." in str(path) and flags & os.O_CREAT:
            created.append(mode)
        return real_open(path, flags, mode, *args, **kwargs)

    monkeypatch.setattr(os, "open", watching_open)
    old = os.umask(0)
    try:
        control, _ = _xsave(tmp_path, moves=3)
    finally:
        os.umask(old)
    key = xsaves.key_file(control.game)
    assert key.parent == tmp_path / "data" / "wonders-duel" / "keys"
    assert created == [0o600]  # never wider, not even before a chmod
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(key.parent.stat().st_mode) == 0o700


def test_no_hint_from_the_command_line_on_a_game_between_two_people(tmp_path, capsys):
    import typer

    from duel.app.cli.xfiles import hint_record

    control, path = _xsave(tmp_path, seats=("human", "human"))
    control.advance()
    with pytest.raises(typer.Exit) as stop:
        hint_record(path, 0.1, 2, 0, True)
    assert stop.value.exit_code == 1
    err = capsys.readouterr().err
    assert "two people" in err and "yours" not in err


def test_loading_a_game_against_the_ai_with_a_human_in_its_seat_is_refused(tmp_path):
    from duel.app.line.xplay import run_xgame

    _, path = _xsave(tmp_path, seats=("human", "random"))
    out: list[str] = []
    assert run_xgame((), (None, "human"), load=path, write=out.append) == 2
    assert "B is an AI (random)" in out[0] and "not for a person to see" in out[0]
    assert not any("yours" in line for line in out)
    # Another AI level in its seat is fine, and so is the human's own seat given to an AI.
    answers = iter(["quit"])
    assert run_xgame((), (None, "greedy"), load=path, read=lambda _: next(answers),
                     write=out.append) == 1  # fmt: skip


# --- the hot seat's hand-over hides everything private (issue 60, items 3 and 4) ----------------
SECRET = "Best moves for the previous player: seat Anubis on 4"


def _fake_hint(seconds: float = 0.0):
    import time

    def hint_lines(view, think, top, seed=0, nodes=None):
        time.sleep(seconds)
        return [SECRET], {}

    return hint_lines


async def _settle(app, pilot) -> None:
    import time

    deadline = time.monotonic() + 60.0
    while time.monotonic() < deadline:
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not app.busy:
            return


def _hand_over_scenario(monkeypatch, *, hint_delay: float, hint_then_play: bool) -> list[str]:
    """A two-human Pantheon game in the full screen: a player asks for a hint (F2) and plays;
    the texts of the log seen at every hand-over screen and right after it."""
    import asyncio

    from duel.app.control.xgame import XGameControl
    from duel.app.screen import xapp as xscreen
    from duel.app.screen.xapp import HandOver, XApp

    monkeypatch.setattr(xscreen, "hint_lines", _fake_hint(hint_delay))
    control = XGameControl(("pantheon",), ("human", "human"), seed=2, notify=lambda _: None)
    seen: list[str] = []

    async def scenario():
        app = XApp(control)
        async with app.run_test(size=(80, 24)) as pilot:
            hinted = 0
            for _ in range(12):
                await _settle(app, pilot)
                if isinstance(app.screen, HandOver):
                    log = app.screen_stack[0].query_one("#log")
                    seen.append(str(log.content) + "|" + "\n".join(app.lines))
                    await pilot.press("enter")
                    await _settle(app, pilot)
                    await pilot.pause(hint_delay + 0.2)  # a hint still thinking arrives now
                    seen.append(str(log.content) + "|" + "\n".join(app.lines))
                    continue
                await pilot.press("f2")
                if not hint_then_play:
                    await app.workers.wait_for_complete()
                    await pilot.pause()
                    assert SECRET in "\n".join(app.lines)  # shown on its own turn
                hinted += 1
                await pilot.press("1", "enter")
            assert hinted >= 3

    asyncio.run(scenario())
    return seen


def test_the_full_screen_hand_over_clears_the_previous_players_hints(monkeypatch):
    seen = _hand_over_scenario(monkeypatch, hint_delay=0.0, hint_then_play=False)
    assert len(seen) >= 4
    assert not any(SECRET in text for text in seen)


def test_a_hint_still_thinking_at_the_hand_over_is_never_shown(monkeypatch):
    seen = _hand_over_scenario(monkeypatch, hint_delay=0.6, hint_then_play=True)
    assert len(seen) >= 4
    assert not any(SECRET in text for text in seen)


def test_the_line_modes_hand_over_clears_screen_and_scrollback(tmp_path, monkeypatch):
    """The bytes written at the hand-over: ED 2 (the screen), ED 3 (the scrollback), home."""
    import sys

    from duel.app.line import xplay

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(xplay, "hint_lines", _fake_hint())
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    out: list[str] = []
    asked: list[str] = []

    def read(prompt: str) -> str:
        if out.count(SECRET) >= 6:
            raise EOFError  # the terminal closed: the game is left saved
        if prompt.startswith("Pass the terminal"):
            return ""
        asked.append(prompt)
        return "hint" if len(asked) % 2 else "1"  # a hint, then a move, each decision

    assert xplay.run_xgame(("pantheon",), ("human", "human"), seed=2, read=read,
                           write=out.append) == 1  # fmt: skip
    clears = [i for i, text in enumerate(out) if "\033[2J" in text]
    assert len(clears) >= 2
    assert all(out[i] == "\033[H\033[2J\033[3J" for i in clears)
    assert out.index(SECRET) < clears[0]


@pytest.mark.terminal
def test_the_line_modes_hand_over_on_a_terminal_writes_ed3(tmp_path):
    """Through a pseudo-terminal: the bytes the program writes at the hand-over."""
    import os
    import sys

    import pexpect

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root), "TERM": "xterm-256color"}
    env["XDG_DATA_HOME"] = str(tmp_path)
    child = pexpect.spawn(
        sys.executable,
        ["-c", "from duel.app.cli.main import main; main()", "play", "--expansions", "pantheon",
         "--a", "human", "--b", "human", "--seed", "2", "--line"],
        cwd=str(tmp_path), env=env, timeout=30, dimensions=(24, 80),
    )  # fmt: skip
    child.expect(rb"Move \(number")
    child.sendline(b"1")
    child.expect(b"Pass the terminal to player B")
    assert b"\x1b[3J" in child.before and b"\x1b[2J" in child.before
    child.sendline(b"")
    child.expect(rb"Move \(number")
    child.sendline(b"quit")
    child.expect(b"Continue it with")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["metadata"].pop("in_progress"),
        lambda d: d["metadata"].update(in_progress=""),
        lambda d: d.pop("metadata"),
        lambda d: d.update(metadata={"players": ["human", "human"]}),
    ],
)
def test_a_save_stripped_of_its_in_progress_mark_is_still_sealed(tmp_path, change):
    """Found by the fuzzer: without the mark, the public moves read as a record of their own
    (another game, its metadata unsealed); the sealed moves say it is a save."""
    from duel.app.control.xsaves import read_save
    from duel.expansions.record import XRecord, XRecordError

    _, path = _xsave(tmp_path, moves=12)
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(XRecordError):
        read_save(path)
    with pytest.raises(XRecordError):
        XRecord.load(path)
