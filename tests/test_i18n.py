"""Issue 26: the programs in English, 简体中文, 繁體中文 and 日本語.

* the catalog: every message of the programs is translated in every language, with the same
  placeholders as the English text;
* the language from ``--lang``, ``$DUEL_LANG`` or the locale (as gettext reads it);
* component names by confidence (docs/i18n.md), Japanese in English by default;
* display width: CJK text takes two columns, the hand-made padding counts so;
* snapshots of the line-mode board (plain and drawn at 120 columns) in en, zh-Hans and ja:
  ``tests/snapshots/i18n/``; ``UPDATE_SNAPSHOTS=1`` rewrites them;
* typed moves with the English name, the shown name or the card's number.
"""

from __future__ import annotations

import io
import json
import os
import random
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from duel import new_game
from duel.app import i18n
from duel.app.i18n import (
    LANGUAGES,
    display_name,
    display_width,
    language_from_env,
    placeholders,
    set_language,
    to_english,
)
from duel.app.text import render as R

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOTS = Path(__file__).parent / "snapshots" / "i18n"
sys.path.insert(0, str(ROOT / "tools"))
from i18n_catalog import compile_mo, load_po, messages, mo_path, mo_table, po_path  # noqa: E402

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


# --- the catalog --------------------------------------------------------------------------------
def _ids(message_id) -> tuple[str, ...]:
    return message_id if isinstance(message_id, tuple) else (message_id,)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(lang):
    found = messages()
    assert len(found) > 200
    table = {m.id: m.string for m in load_po(po_path(lang), lang) if m.id and not m.fuzzy}
    missing = [m for m in found if not all(_ids(table.get(m) or ""))]
    assert not missing, f"{lang}: {len(missing)} messages not translated, e.g. {missing[:3]}"
    differ = [
        m
        for m in found
        for text in _ids(table[m])
        if placeholders(" ".join(_ids(m))) != placeholders(text)
    ]
    assert not differ, f"{lang}: placeholders differ in {differ[:3]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalog_is_up_to_date(lang):
    """<lang>.mo holds what babel compiles from <lang>.po (tools/i18n_catalog.py writes it),
    and the programs read it through the standard library's gettext."""
    committed = mo_path(lang).read_bytes()
    assert mo_table(committed) == mo_table(compile_mo(load_po(po_path(lang), lang))), (
        f"{lang}.mo is stale: run tools/i18n_catalog.py"
    )
    with i18n.mo_path(lang).open("rb") as f:
        assert f.read() == committed
    set_language(lang)
    for msgid, msgstr in mo_table(committed).items():
        if isinstance(msgid, str):
            assert i18n.tr(msgid) == msgstr


def test_the_template_lists_the_messages_of_the_sources():
    """duel.pot is up to date (tools/i18n_catalog.py writes it)."""
    pot = {m.id for m in load_po(ROOT / "duel" / "app" / "locale" / "duel.pot") if m.id}
    assert pot == set(messages())


def test_english_is_the_message_id():
    set_language("en")
    assert i18n.tr("Age {n}", n=2) == "Age 2"
    assert i18n.trn(1, "{n} coin", "{n} coins") == "1 coin"
    assert i18n.trn(3, "{n} coin", "{n} coins") == "3 coins"


# --- choosing the language ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh-Hans"),
        ({"LANG": "zh_SG"}, "zh-Hans"),
        ({"LC_ALL": "zh_TW.UTF-8", "LANG": "ja_JP.UTF-8"}, "zh-Hant"),
        ({"LC_MESSAGES": "zh_HK.Big5"}, "zh-Hant"),
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANGUAGE": "de:ja", "LANG": "en_US.UTF-8"}, "ja"),
        ({"DUEL_LANG": "zh-Hant", "LANG": "ja_JP.UTF-8"}, "zh-Hant"),
    ],
)
def test_language_from_the_environment(env, lang):
    assert language_from_env(env) == lang


def test_lang_option_on_both_programs(tmp_path):
    from duel.app.cli.main import app as duel_app
    from duel.position import save_position
    from wonders.app.cli import app as wonders_app

    runner = CliRunner()
    position = tmp_path / "p.json"
    save_position(_midgame(), position)
    result = runner.invoke(duel_app, ["--lang", "ja", "show", "--plain", str(position)])
    assert result.exit_code == 0, result.output
    assert "第Ⅰ世代" in result.output, result.output
    result = runner.invoke(duel_app, ["--lang", "en", "show", "--plain", str(position)])
    assert "Age I:" in result.output
    bad = runner.invoke(duel_app, ["--lang", "xx", "show", "--plain", str(position)])
    assert bad.exit_code != 0 and "unknown language" in bad.output
    assert runner.invoke(wonders_app, ["--lang", "ja", "--help"]).exit_code == 0


# --- names --------------------------------------------------------------------------------------
def test_names_follow_their_confidence():
    # widely-used: the community name; unknown: English; shared by two cards: English
    assert display_name("card", "Lumber Yard", "zh-Hans") == "伐木场"
    assert display_name("card", "Stone Pit", "zh-Hans") == "Stone Pit"
    assert display_name("card", "Stone Pit", "zh-Hans", "all") == "石矿"
    assert display_name("card", "Arena", "zh-Hans") == "Arena"  # 竞技场 is Circus's too
    assert display_name("card", "Lumber Yard", "zh-Hant") == "Lumber Yard"  # unknown
    assert display_name("wonder", "The Pyramids", "zh-Hant") == "金字塔"
    assert display_name("token", "Law", "zh-Hant") == "Law"  # no zh-Hant source
    # Japanese: the edition prints English names; the community names on request
    assert display_name("wonder", "The Pyramids", "ja") == "The Pyramids"
    assert display_name("wonder", "The Pyramids", "ja", "community") == "ピラミッド"


def test_every_shown_name_designates_one_component():
    for lang in TRANSLATED:
        for mode in ("community", "all"):
            for kind in i18n.KINDS:
                names = [display_name(kind, en, lang, mode) for en in i18n._names()[kind]]
                assert len(names) == len(set(names)), (lang, mode, kind)


# --- width --------------------------------------------------------------------------------------
def test_display_width_and_padding():
    assert display_width("Baths") == 5
    assert display_width("伐木场") == 6
    assert display_width("ピラミッド") == 10
    assert display_width(i18n.ljust("浴场", 6)) == 6
    assert display_width(i18n.rjust("免费", 7)) == 7
    assert display_width(i18n.center("第一时代", 13)) == 13
    assert display_width(i18n.clip("阿尔忒弥斯神庙", 9)) <= 9
    assert i18n.clip("The Great Library", 9) == "The Grea."


# --- snapshots of the board ---------------------------------------------------------------------
def _midgame():
    state, rng = new_game(), random.Random(3)
    while state.is_chance() or state.phase != "play":
        state = state.apply(state.random_move(rng))
    for _ in range(6):
        state = state.apply(state.random_move(rng))
    while state.is_chance():
        state = state.apply(state.random_move(rng))
    return state


def _check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("UPDATE_SNAPSHOTS") or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant", "ja"])
def test_board_snapshots(lang):
    state = _midgame()
    set_language(lang)
    plain = "\n".join(R.plain_table(state, ("human", "cmcts"))) + "\n"
    _check_snapshot(f"board_plain_{lang}.txt", plain)
    console = Console(width=120, height=40, color_system=None, record=True, file=io.StringIO())
    console.print(R.render_table(state, ("human", "cmcts"), width=120))
    drawn = console.export_text()
    _check_snapshot(f"board_120x40_{lang}.txt", drawn)
    # the drawing fits 120 columns, counted in display width
    assert max(display_width(line) for line in drawn.splitlines()) <= 120


def test_pyramid_cells_line_up_in_chinese():
    """Each pyramid line is as wide in columns in zh-Hans as in English (cells padded by width)."""
    state = _midgame()
    english = R.render_pyramid(state, 120).plain.splitlines()
    set_language("zh-Hans")
    chinese = R.render_pyramid(state, 120).plain.splitlines()
    assert [display_width(x) for x in chinese] == [
        display_width(x) for x in english
    ]


# --- typed moves --------------------------------------------------------------------------------
def test_typed_names_become_english():
    assert to_english("build 伐木场") == "build Lumber Yard"
    assert to_english("wonder 空中花园 with 3") == "wonder The Hanging Gardens with 3"
    assert to_english("ピラミッド") == "The Pyramids"
    assert to_english("build Baths") == "build Baths"


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "ja"])
def test_a_move_typed_by_english_name_shown_name_or_number(lang):
    from duel.app.control.game import Dealer
    from duel.app.line.play import Output, Session
    from duel.catalog import CARDS
    from duel.moves import Kind

    set_language(lang)
    session = Session(["human", "human"], Dealer(seed=1), 0.0, 1.0, Output(True), interactive=False)
    state = _midgame()
    session.game.states[-1:] = [state]
    slots = R.numbered_slots(state)
    card = state.pyramid[slots[1]]
    english = CARDS[card].name
    shown = i18n.shown(english)
    for typed in (f"build {english}", f"build {shown}", "build 2"):
        move = session.interpret(typed)
        assert move is not None and move.kind is Kind.BUILD and move.card == card, typed


# --- hints and analysis -------------------------------------------------------------------------
ENDGAME = ROOT / "examples" / "endgames" / "age3_8cards_seed102.json"


def _compiled_search() -> bool:
    from duel.solvers.hint import cmcts_available
    from duel.solvers.search import C_SEARCH

    return C_SEARCH and cmcts_available()


def _chance_position(tmp_path) -> Path:
    """The endgame three moves on: the next card of the structure is turned face up."""
    from duel.moves import Move
    from duel.position import load_position, save_position

    state = load_position(ENDGAME)
    for text in ("discard Builders Guild", "build Gardens", "build Lighthouse"):
        state = state.apply(Move.parse(text))
    assert state.is_chance()
    path = tmp_path / "chance.json"
    save_position(state, path)
    return path


@pytest.mark.skipif(not _compiled_search(), reason="the snapshots are of the compiled search")
@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "ja"])
def test_hint_and_analysis_snapshots(lang, tmp_path):
    """``duel hint`` (a budget in iterations: reproducible), ``duel analyze --exact`` (an exact
    endgame, explained) and the hint at a chance node, in each language; the moves stay in the
    notation, the JSON output stays English."""
    from duel.app.cli.main import app

    runner = CliRunner()
    runs = [
        ["hint", str(ROOT / "examples" / "age2_midgame.json"), "--nodes", "1500"],
        ["analyze", str(ENDGAME), "--exact", "--threads", "1"],
        ["hint", str(_chance_position(tmp_path))],
    ]
    out = []
    for args in runs:
        result = runner.invoke(app, ["--lang", lang, *args])
        assert result.exit_code == 0, result.output
        out.append(f"$ duel --lang {lang} {' '.join(args[:1] + [Path(args[1]).name] + args[2:])}")
        out.append(result.output)
    _check_snapshot(f"hint_analysis_{lang}.txt", "\n".join(out))
    english = runner.invoke(app, ["--lang", "en", "hint", str(ENDGAME), "--json"]).output
    translated = runner.invoke(app, ["--lang", lang, "hint", str(ENDGAME), "--json"]).output
    # the default hint solves this endgame on every core: its node count varies as its time does
    timing = ("time", "nps", "nodes")
    english, translated = (
        # JSON Lines where the exact solve follows the estimate: the answer is the last line
        {k: v for k, v in json.loads(text.splitlines()[-1]).items() if k not in timing}
        for text in (english, translated)
    )
    assert translated == english


# --- review -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def short_record_file(tmp_path_factory) -> Path:
    """The example game's first 50 moves (the draft and the start of Age I), as in test_review."""
    from duel.record import GameRecord

    path = tmp_path_factory.mktemp("review") / "short.json"
    GameRecord.load(ROOT / "examples" / "records" / "greedy_vs_greedy.json").truncated(50).save(
        path
    )
    return path


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "ja"])
def test_review_snapshots(lang, short_record_file, tmp_path):
    """``duel review`` with a node budget (reproducible: search:300) in each language: the move
    table, the graph, the result and the summary; the plot's labels too. Moves stay in the
    notation and the JSON review stays English."""
    from duel.app.cli.main import app

    runner = CliRunner()
    plot = tmp_path / "review.svg"
    args = ["review", str(short_record_file), "--level", "search:300", "--workers", "1"]
    result = runner.invoke(app, ["--lang", lang, *args, "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert str(plot) in lines[-1]  # "Reviewed in N s; graph written to ...": the time varies
    if _compiled_search():  # the pure-Python search values a position a little differently
        _check_snapshot(f"review_{lang}.txt", "\n".join(lines[:-1]) + "\n")
    svg = plot.read_text(encoding="utf-8")
    set_language(lang)
    for label in ("move (above 50%: A ahead, below: B ahead)", "blunder", "Age I"):
        assert i18n.tr(label) in svg and i18n.tr(label) != label
    english = runner.invoke(app, ["--lang", "en", *args, "--json"]).output
    translated = runner.invoke(app, ["--lang", lang, *args, "--json"]).output
    drop = ("seconds_taken",)
    english, translated = (
        {k: v for k, v in json.loads(text).items() if k not in drop}
        for text in (english, translated)
    )
    assert translated == english


# --- --help and the commands' errors ------------------------------------------------------------
def test_help_in_the_chosen_language():
    """typer builds the help when the commands are defined: the group reads --lang (or the
    environment) as it parses, before --help prints, and translates every help text."""
    from duel.app.cli.main import app

    runner = CliRunner()
    ja = runner.invoke(app, ["--lang", "ja", "--help"], terminal_width=100)
    assert ja.exit_code == 0, ja.output
    for text in ("コマンド", "オプション", "ゲームを遊ぶ", "バージョンを表示して終了する"):
        assert text in ja.output, text
    hint = runner.invoke(app, ["--lang", "zh-Hans", "hint", "--help"], terminal_width=100)
    for text in ("最强 AI 的最佳着法", "显示多少个着法", "[默认：3]", "显示此帮助并退出", "参数"):
        assert text in hint.output, text
    env = runner.invoke(app, ["review", "--help"], env={"DUEL_LANG": "zh-Hant"})
    assert "覆盤一局" in env.output and "選項" in env.output
    # back in English, every word as before
    english = runner.invoke(app, ["--lang", "en", "hint", "--help"], terminal_width=100)
    assert "The strongest player's best moves" in english.output
    assert "Options" in english.output and "How many moves to show" in english.output
    assert "选项" not in english.output


def test_command_errors_in_the_chosen_language():
    from duel.app.cli.main import app

    runner = CliRunner()
    opening = str(ROOT / "examples" / "age1_opening.json")
    result = runner.invoke(app, ["--lang", "ja", "hint", opening, "--top", "0"])
    assert result.exit_code == 2 and "duel: --top は 1 以上、0 ではない" in result.output
    result = runner.invoke(app, ["--lang", "zh-Hans", "cost", opening, "Baths", "-p", "C"])
    assert "duel: --player 必须是 A 或 B" in result.output
    result = runner.invoke(app, ["--lang", "en", "hint", opening, "--top", "0"])
    assert "duel: --top must be at least 1, not 0" in result.output


def test_engine_errors_in_the_chosen_language(tmp_path):
    """Errors written below the programs (a malformed position, an unknown name, the payment
    plan, the slot diagram) come out translated; the field of the file stays as written."""
    from duel.app.cli.main import app

    runner = CliRunner()
    opening = ROOT / "examples" / "age1_opening.json"
    bad = json.loads(opening.read_text(encoding="utf-8"))
    bad["players"]["A"]["coins"] = -1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    result = runner.invoke(app, ["--lang", "zh-Hans", "show", str(path)])
    assert result.exit_code != 0 and "players.A.coins：不能为负（-1）" in result.output
    result = runner.invoke(app, ["--lang", "en", "show", str(path)])
    assert "players.A.coins: cannot be negative (-1)" in result.output
    result = runner.invoke(app, ["--lang", "ja", "cost", str(opening), "Lumbr Yard"])
    assert "'Lumbr Yard' というカードも七不思議もない；Lumber Yard" in result.output
    result = runner.invoke(app, ["--lang", "zh-Hant", "show", "--slots"])
    assert "第一時代（第 1-5 行；先從第 5 行拿牌）" in result.output


# --- wonders: the base game ---------------------------------------------------------------------
BASE_REFERENCE = ROOT.parent / "shared" / "reference" / "base"


@pytest.mark.skipif(not BASE_REFERENCE.exists(), reason="reference not available")
def test_base_names_are_the_references_chinese_names():
    """data/base/names_i18n.json holds every card's and Wonder's ``chinese_name`` of the
    reference CSVs (Traditional Chinese), and nothing else: no Simplified form is derived."""
    import csv

    from duel.data import load

    names = load("base/names_i18n.json")

    def rows(name):
        with (BASE_REFERENCE / name).open(encoding="utf-8", newline="") as f:
            return list(csv.DictReader(f))

    cards = {r["name"]: r["chinese_name"] for r in rows("cards.csv")}
    wonders = {r["wonder_name"]: r["chinese_name"] for r in rows("wonders.csv")}
    assert names["card"] == {en: {"zh-Hant": zh} for en, zh in cards.items()}
    assert names["wonder"] == {en: {"zh-Hant": zh} for en, zh in wonders.items()}
    assert {c["name"] for c in load("base/cards.json")} == set(cards)
    assert {w["name"] for w in load("base/wonders.json")} == set(wonders)
    assert all(len(set(table.values())) == len(table) for table in (cards, wonders))


def test_base_names_by_language():
    from duel.app.i18n import base_name, base_to_english

    assert base_name("card", "Lumber Yard", "zh-Hant") == "堆木場"
    assert base_name("wonder", "The Colossus of Rhodes", "zh-Hant") == "太陽神銅像"
    assert base_name("card", "Lumber Yard", "zh-Hant", "english") == "Lumber Yard"
    # zh-Hans: no Simplified source; the Traditional name only on request
    assert base_name("card", "Lumber Yard", "zh-Hans") == "Lumber Yard"
    assert base_name("card", "Lumber Yard", "zh-Hans", "all") == "堆木場"
    assert base_name("card", "Lumber Yard", "ja") == "Lumber Yard"
    assert base_name("card", "Lumber Yard", "ja", "all") == "Lumber Yard"
    assert base_to_english("w 圓形競技場 競技場") == "w Circus Arena"


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans", "ja"])
def test_wonders_snapshots(lang, tmp_path):
    """``wonders play`` in each language: the board, the moves, the help, the cities, a move
    typed by its shown name, the history, undo and quitting; a whole game's score sheet."""
    from wonders.app.cli import app

    runner = CliRunner()
    args = ["--lang", lang, "play", "--players", "3", "--humans", "1", "--seed", "5"]
    typed = "build 礦坑" if lang == "zh-Hant" else "build stone pit"
    result = runner.invoke(
        app,
        args,
        input=f"help\nnonsense\n999\nbuild guard tower\n{typed}\ncities\nhistory\nundo\nq\ny\n",
        env={"XDG_DATA_HOME": str(tmp_path)},
    )
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    _check_snapshot(f"wonders_{lang}.txt", result.output)
    whole = runner.invoke(
        app,
        ["--lang", lang, "play", "--players", "3", "--humans", "1", "--seed", "2"],
        input="1\n" * 40,
        env={"XDG_DATA_HOME": str(tmp_path)},
    )
    assert whole.exit_code == 0, whole.output
    set_language(lang)
    assert i18n.tr("Final scores") in whole.output and i18n.tr("Final scores") != "Final scores"
    assert i18n.tr("Winner: {names}", names="")[:2] in whole.output
    help_page = runner.invoke(app, ["--lang", lang, "play", "--help"])
    assert i18n.tr("random seed") in help_page.output


def test_wonders_in_english_is_unchanged():
    from wonders.app.cli import HELP_TEXT, app

    result = CliRunner().invoke(app, ["play", "--players", "3", "--humans", "0", "--seed", "4"])
    assert "7 Wonders, 3 players, seed 4" in result.output and "Final scores" in result.output
    assert "P0 (" in result.output and "(default {save};" in HELP_TEXT


# --- the engine's reasons -----------------------------------------------------------------------
def _unaffordable_reason():
    """A player who cannot pay for a card in a random game, and the engine's reason."""
    from duel.moves import Kind, Move

    rng = random.Random(7)
    state = new_game()
    while not state.is_terminal():
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state = state.apply(rng.choices(*zip(*outcomes, strict=True))[0])
            continue
        legal = set(state.legal_moves())
        for slot, card in enumerate(state.pyramid if state.phase == "play" else ()):
            if card < 0 or not state.is_accessible(slot) or Move.build(card) in legal:
                continue
            build = Move.build(card)
            assert build.kind is Kind.BUILD
            return state.why_illegal(build)
        state = state.apply(rng.choice(sorted(legal)))
    raise AssertionError("no unaffordable card met")


def test_illegal_move_reasons_are_translated():
    reason = _unaffordable_reason()
    assert "needs" in reason and "you have" in reason  # the English sentence, as before
    for lang, needs in (("zh-Hans", "需要"), ("zh-Hant", "需要"), ("ja", "が必要")):
        set_language(lang)
        try:
            said = i18n.tr_reason(reason)
        finally:
            set_language("en")
        assert needs in said and "needs" not in said and "coin" not in said, said
    assert i18n.tr_reason(reason) == str(reason)  # English is the engine's sentence


def test_reasons_keep_their_template_through_pickle():
    import pickle

    from duel.reason import Reason

    reason = Reason("{card} is not in the discard pile", card="Lumber Yard")
    copy = pickle.loads(pickle.dumps(reason))
    assert copy == reason and copy.template == reason.template and copy.values == reason.values


def test_file_and_field_errors_of_every_format_are_translated(tmp_path):
    """A file that is not JSON, not UTF-8 or missing, and a field of the wrong type, give the
    same translated sentences for the base game's and the expansions' positions and records
    (issue 66: one reader, one place for the file helpers)."""
    from duel.expansions.position import XPositionError
    from duel.expansions.position import load_position as load_xposition
    from duel.expansions.record import XRecord, XRecordError
    from duel.position import PositionError, load_position
    from duel.record import GameRecord, RecordError

    loaders = (
        (load_position, PositionError),
        (GameRecord.load, RecordError),
        (load_xposition, XPositionError),
        (XRecord.load, XRecordError),
    )
    bad = tmp_path / "bad.json"
    cases = (
        (b"{bad", "正しい JSON ではない", "not valid JSON"),
        (b'{"a": \xff}', "UTF-8 のテキストではない", "not UTF-8"),
        (None, "ファイルを読めない", "cannot read"),
    )
    set_language("ja")
    try:
        for content, japanese, english in cases:
            bad.unlink(missing_ok=True)
            if content is not None:
                bad.write_bytes(content)
            for load, error in loaders:
                with pytest.raises(error) as caught:
                    load(bad)
                said = i18n.tr_error(caught.value)
                assert japanese in said and english not in said, (load, said)
        data = {"format": "7wd-xposition", "version": 1, "expansions": ["agora"], "age": "2"}
        bad.write_text(json.dumps(data))
        with pytest.raises(XPositionError) as caught:
            load_xposition(bad)
        said = i18n.tr_error(caught.value)
        assert "age" in said and "整数" in said and "whole number" not in said, said
    finally:
        set_language("en")
