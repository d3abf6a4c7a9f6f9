"""Old game records: version 1 (``start X`` before the next Age's layout), and those written
before guild backs were public (no 'guilds at slots' move)."""

import json
import random
import re
from pathlib import Path

import pytest

from duel import Kind, Move, new_game
from duel.catalog import GUILDS
from duel.position import dumps_position
from duel.record import VERSION, GameRecord, RecordError
from tests.tables import old_order

ROOT = Path(__file__).resolve().parents[1]


def game_to_age_three_end(seed: int) -> list[Move]:
    """The moves of a random game (seed) that ends with the civilian count after Age III."""
    for s in range(seed, seed + 200):
        rng = random.Random(s)
        state, moves = new_game(), []
        while not state.is_terminal():
            moves.append(state.random_move(rng))
            state = state.apply(moves[-1])
        if state.victory == "civilian":
            return moves
    raise AssertionError("no civilian ending")


def test_an_old_order_record_is_reordered_on_reading():
    moves = game_to_age_three_end(3)
    old = old_order(moves)
    starts = [i for i, m in enumerate(old) if m.kind is Kind.STARTER]
    assert len(starts) == 2 and old != moves
    assert [old[i + 1].kind for i in starts] == [Kind.REVEAL_CARD, Kind.DEAL_GUILDS]
    data = {"format": "7wd-record", "version": 1, "moves": [str(m) for m in old]}
    record = GameRecord.from_json(data)
    assert record.moves == tuple(moves)
    assert record.final_state() == GameRecord(tuple(moves)).final_state()
    written = record.to_json()
    assert written["version"] == VERSION == 2
    assert written["moves"] == GameRecord(tuple(moves)).notation()
    assert GameRecord.from_json(written).final_state() == record.final_state()
    # without a version the order is read from the moves themselves
    assert GameRecord.from_json({"moves": data["moves"]}).moves == tuple(moves)


def test_the_example_record_of_version_1_replays_to_the_same_final_position():
    """examples/records/greedy_vs_greedy.json was written in the old order; the golden file is
    its final position as the engine of that time replayed it."""
    path = ROOT / "examples" / "records" / "greedy_vs_greedy.json"
    assert json.loads(path.read_text())["version"] == 1
    record = GameRecord.load(path)
    expected = (ROOT / "tests" / "golden" / "record_v1_final_position.json").read_text()
    assert dumps_position(record.final_state()) == expected
    states = record.states()
    for i, m in enumerate(record.moves):
        if m.kind is Kind.STARTER:  # chosen at choose_starter, with the new structure revealed
            assert states[i].phase == "choose_starter" and record.moves[i - 1].is_chance
            assert states[i].fields[3] == states[i + 1].fields[3]  # the pyramid, unchanged


def test_an_old_record_that_stops_during_the_layout_loses_only_its_start():
    moves = game_to_age_three_end(3)
    old = old_order(moves)
    first = next(i for i, m in enumerate(old) if m.kind is Kind.STARTER)
    cut = old[: first + 4]  # the start of Age II and three of its face-up cards
    record = GameRecord.from_json({"version": 1, "moves": [str(m) for m in cut]})
    assert record.moves == tuple(cut[:first] + cut[first + 1 :])
    state = record.final_state()
    assert state.age == 2 and state.phase == "reveal"  # the choice comes after the layout


def test_a_version_2_record_is_not_reordered_and_other_versions_are_refused():
    moves = game_to_age_three_end(3)
    old = [str(m) for m in old_order(moves)]
    with pytest.raises(RecordError, match=r"move \d+ \(start [AB]\): a chance event comes first"):
        GameRecord.from_json({"version": 2, "moves": old})
    for version in (0, 3, "1", True):
        with pytest.raises(RecordError, match="version: this program reads versions 1 and 2"):
            GameRecord.from_json({"version": version, "moves": []})


def test_an_old_record_gets_the_guild_deal_from_its_reveals():
    moves = game_to_age_three_end(1)
    old = old_order(moves)
    at = next(i for i, m in enumerate(old) if m.kind is Kind.DEAL_GUILDS)
    old = [str(m) for m in old[:at] + old[at + 1 :]]
    record = GameRecord.from_json({"format": "7wd-record", "version": 1, "moves": old})
    assert record.moves == tuple(moves)
    at = next(i for i, m in enumerate(moves) if m.kind is Kind.DEAL_GUILDS)
    guild_reveals = {
        m.slot for m in moves[at:] if m.kind is Kind.REVEAL_CARD and GUILDS >> m.card & 1
    }
    assert set(moves[at].guild_slots) == guild_reveals


def test_an_old_record_cut_before_the_guilds_show_is_refused_with_what_to_add():
    moves = old_order(game_to_age_three_end(1))
    at = next(i for i, m in enumerate(moves) if m.kind is Kind.DEAL_GUILDS)
    guilds = sorted(
        m.slot for m in moves[at:] if m.kind is Kind.REVEAL_CARD and GUILDS >> m.card & 1
    )
    # Cut the record just after the first face-up cards of Age III are dealt.
    old = [str(m) for m in moves[:at] + moves[at + 1 : at + 7]]
    shown = [m.slot for m in moves[at + 1 : at + 7] if GUILDS >> m.card & 1]
    assert len(shown) < 3 and set(shown) <= set(guilds)
    with pytest.raises(RecordError) as info:
        GameRecord.from_json({"moves": old})
    message = str(info.value)
    assert message.startswith(f"moves[{at}]: this record predates public guild backs")
    assert f"insert 'guilds at slots{''.join(f' {s}' for s in shown)} ...' before moves[{at}]" in (
        message
    )
    assert "among the slots never revealed" in message


def test_a_new_record_is_read_as_written():
    moves = game_to_age_three_end(2)
    record = GameRecord(tuple(moves))
    back = GameRecord.from_json(record.to_json())
    # Equal as written: a Great Library draw keeps only its chosen token (placeholders on reading).
    assert back.to_json() == record.to_json() and back.final_state() == record.final_state()
    assert any(str(m).startswith("guilds at slots ") for m in record.to_json()["moves"])


def test_an_old_record_with_a_hidden_library_draw_in_age_three():
    """The inferred guild deal goes in before the replay that fills in the hidden draw."""
    for seed in range(1, 400):
        moves = game_to_age_three_end(seed)
        at = next(i for i, m in enumerate(moves) if m.kind is Kind.DEAL_GUILDS)
        if any(m.kind is Kind.LIBRARY_DRAW for m in moves[at:]):
            break
    else:
        raise AssertionError("no Great Library in Age III")
    written = GameRecord(tuple(moves)).to_json()["moves"]
    assert any(", ?, ?" in m for m in written[at:])
    old_moves = old_order(moves)
    deal = next(i for i, m in enumerate(old_moves) if m.kind is Kind.DEAL_GUILDS)
    old = GameRecord(tuple(old_moves)).notation()
    old = old[:deal] + old[deal + 1 :]  # no guild deal, the starts before the layouts
    assert old[deal - 1].startswith("start ")
    back = GameRecord.from_json({"moves": old})
    assert back.final_state() == GameRecord(tuple(moves)).final_state()
    assert back.moves[at] == moves[at]
    assert [back.moves[i].kind for i in back.redacted] == [Kind.LIBRARY_DRAW] * len(back.redacted)
    assert back.to_json()["moves"] == written


# --- one autosave per game, and --record that never replaces a game unasked (issue 60, item 6) ---
def test_two_interrupted_games_keep_an_autosave_each(tmp_path, monkeypatch):
    from duel.app.control.game import Dealer
    from duel.app.line.play import Output, Session

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    moves = []
    for seed in (3, 4):
        lines = iter(["1", "1"])

        def read(prompt: str, lines=lines) -> str:
            try:
                return next(lines)
            except StopIteration:
                raise EOFError from None

        session = Session(
            kinds=["human", "random"], dealer=Dealer(seed=seed), delay=0.0, think=0.2,
            out=Output(plain=True), interactive=False, read=read,
        )  # fmt: skip
        session.game.set_players()
        session.run()
        moves.append(tuple(session.game.moves))
    saves = sorted((tmp_path / "wonders-duel").glob("duel-autosave-*.json"))
    assert len(saves) == 2
    assert {GameRecord.load(p).moves for p in saves} == set(moves)


def test_a_game_loaded_from_its_autosave_goes_on_in_that_file(tmp_path, monkeypatch):
    from duel.app.control.game import Dealer, GameController

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    game = GameController(["random", "random"], Dealer(seed=1))
    game.set_players()
    game.deal_pending()
    game.play(game.ai_choose())
    place, _ = game.autosave()
    again = GameController(["random", "random"], Dealer(seed=1))
    again.load(place)
    assert again.autosave_path == place
    other = GameController(["random", "random"], Dealer(seed=1))
    assert other.autosave_path != place


def test_old_autosaves_are_cleaned_up_by_the_policy(tmp_path, monkeypatch):
    import os

    from duel.app.control.saves import AUTOSAVE_DAYS, AUTOSAVES_KEPT, clean_old_autosaves

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder = tmp_path / "data" / "wonders-duel"
    folder.mkdir(parents=True)
    now = 2_000_000_000.0
    made = []
    for i in range(AUTOSAVES_KEPT + 5):
        path = folder / f"duel-autosave-20260101-0000{i:02d}-abcd.json"
        path.write_text("{}")
        age_days = AUTOSAVE_DAYS + 1 if i < 8 else 1  # the 8 oldest are out of date
        os.utime(path, (now - age_days * 86_400 - i, now - age_days * 86_400 - i))
        made.append(path)
    mine = folder / "my-game.json"
    mine.write_text("{}")
    os.utime(mine, (0, 0))
    removed = clean_old_autosaves(now)
    # 25 files, 20 kept by recency; of the 5 others, only those older than 30 days go.
    assert len(removed) == 5 and all(p in made[:8] for p in removed)
    assert mine.exists() and len(list(folder.glob("duel-autosave-*.json"))) == AUTOSAVES_KEPT


def test_the_start_screen_lists_every_autosave_with_its_date(tmp_path, monkeypatch):
    from duel.app.control.game import Dealer, GameController
    from duel.app.screen.start import _dated, known_games

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    monkeypatch.chdir(tmp_path)
    places = []
    for seed in (1, 2):
        game = GameController(["random", "random"], Dealer(seed=seed))
        game.set_players()
        game.deal_pending()
        game.play(game.ai_choose())
        if seed == 2:  # the data folder was full: this one went to the home folder
            game.autosave_path = tmp_path / "home" / game.autosave_path.name
        place, _ = game.autosave()
        places.append(place)
    listed = known_games()
    assert set(places) <= set(listed)
    label = _dated(places[0])
    assert re.search(r"\(\d{4}-\d{2}-\d{2} \d{2}:\d{2}\)$", label)


def test_record_refuses_to_replace_a_file_without_force(tmp_path):
    from typer.testing import CliRunner

    from duel.app.cli.main import app

    other = tmp_path / "other.json"
    other.write_text('{"format": "7wd-record", "version": 2, "expansions": ["agora"], "moves": []}')
    result = CliRunner().invoke(
        app, ["play", "--expansions", "pantheon", "--line", "--record", str(other)], input="quit\n"
    )
    assert result.exit_code == 2
    assert "holds another game" in result.output and "--force" in result.output
    assert json.loads(other.read_text())["expansions"] == ["agora"]
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    result = CliRunner().invoke(
        app, ["play", "--expansions", "pantheon", "--line", "--record", str(notes)], input="quit\n"
    )
    assert result.exit_code == 2 and "exists; add --force" in result.output
    assert notes.read_text() == "my notes"
    result = CliRunner().invoke(
        app,
        ["play", "--expansions", "pantheon", "--line", "--b", "random", "--seed", "1",
         "--record", str(other), "--force"],
        input="1\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "Continue it with" in result.output


# --- small items (issue 60, item 9) --------------------------------------------------------------
@pytest.mark.parametrize("at", [-(10**20), 10**20, -10_000, 10_000])
def test_a_huge_at_is_answered_with_the_number_typed_and_the_range(at):
    from duel.record import Replay, ReplayError

    game = Replay.of(GameRecord(()))
    with pytest.raises(ReplayError) as error:
        game.index(at)
    assert str(error.value) == (
        f"no move {at}: the game has moves 0 to 0 (-1 to -1 from the end)"
    )
    assert game.index(-1) == game.index(0) == 0


def test_base_game_commands_on_an_expansion_game_say_what_they_read(tmp_path):
    from typer.testing import CliRunner

    from duel.app.cli.main import app

    path = tmp_path / "x.json"
    path.write_text(
        json.dumps({"format": "7wd-record", "version": 2, "expansions": ["pantheon", "agora"],
                    "moves": ["divinities greek zeus, hades"]})
    )  # fmt: skip
    with pytest.raises(RecordError, match="a game with expansions \\(pantheon, agora\\)"):
        GameRecord.load(path)
    # export reads expansion records (issue 61): this one's first move is not a possible deal.
    result = CliRunner().invoke(app, ["export", str(path)])
    assert result.exit_code == 2 and "is not a possible outcome" in result.output
    assert "Corruption" not in result.output and "Traceback" not in result.output
    for args in (["analyze", str(path)], ["cost", str(path), "Baths"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "a game with expansions" in result.output and "Corruption" not in result.output
        assert "duel show, duel hint and duel play --load" in result.output
