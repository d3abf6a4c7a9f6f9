"""The full-screen app in Chinese and Japanese (issue 26): snapshots of the board at 120x40 in
zh-Hans and ja and of the start screen at 80x24 in zh-Hans (text rows compared, as in
tests/test_app_snapshots.py; ``UPDATE_SNAPSHOTS=1`` rewrites them), no row wider than the
terminal at 80x24 in zh-Hans (CJK characters take two columns), and card faces that fit their
cells."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest

from duel.app.i18n import display_width, set_language
from duel.app.screen.app import DuelApp
from duel.app.screen.start import StartScreen
from duel.app.text.board import card_face
from duel.app.text.view_model import pyramid_rows
from tests.test_app import compare_svg_snapshot, dialog, make_app, record_reaching, settle, svg_text

pytestmark = pytest.mark.terminal

SNAPSHOTS = os.path.join(os.path.dirname(__file__), "snapshots", "i18n")


@pytest.fixture(autouse=True)
def _no_name_mode(monkeypatch):
    monkeypatch.delenv("DUEL_NAMES", raising=False)


def board_svg(size: tuple[int, int]) -> str:
    record = record_reaching("play")

    async def scenario() -> str:
        app = make_app(("human", "human"), seed=1, moves=record.moves, chance_nodes=0)
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            svg = ""
            for _ in range(100):  # under load the board may not be drawn yet
                await pilot.pause(0.02)
                svg = app.export_screenshot()
                if dialog(app) == "" and svg_text(svg)[-1].strip():
                    break
            return svg

    return asyncio.run(scenario())


def start_svg(size: tuple[int, int]) -> str:
    async def scenario() -> str:
        app = DuelApp(None, think=0.1, hint_nodes=100, chance_nodes=0)
        async with app.run_test(size=size) as pilot:
            for _ in range(100):
                await pilot.pause(0.02)
                if isinstance(app.screen, StartScreen):
                    break
            assert isinstance(app.screen, StartScreen)
            await pilot.pause(0.1)
            return app.export_screenshot()

    return asyncio.run(scenario())


def compare(svg: str, name: str) -> list[str]:
    return compare_svg_snapshot(svg, Path(SNAPSHOTS) / f"app_{name}.svg")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh-Hans", ["场上的发展标记", "提示", "退出", "弃牌堆", "拿牌"]),
        ("ja", ["場の進歩トークン", "ヒント", "終了", "捨て札", "カードを取る"]),
    ],
)
def test_the_board_at_120x40(lang, words):
    set_language(lang)
    lines = compare(board_svg((120, 40)), f"board_{lang}_120x40")
    text = "\n".join(lines)
    for word in words:
        assert word in text
    assert "Quit" not in text and "Progress tokens on the board" not in text


def test_the_start_screen_at_80x24_in_zh_hans():
    set_language("zh-Hans")
    lines = compare(start_svg((80, 24)), "start_zh-Hans_80x24")
    text = "\n".join(lines)
    assert "新游戏" in text and "读取存档" in text and "复盘对局记录" in text
    assert all(display_width(line) <= 80 for line in lines)


def test_no_row_wider_than_80_columns_at_80x24_in_zh_hans():
    """The screen as composed (every row's text, spaces included), measured by wcwidth: no row
    runs past the terminal's 80 columns, and Textual's measure agrees with ours."""
    set_language("zh-Hans")
    record = record_reaching("play")

    async def scenario() -> list:
        app = make_app(("human", "human"), seed=1, moves=record.moves, chance_nodes=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.pause(0.1)
            return app.screen._compositor.render_strips()

    strips = asyncio.run(scenario())
    assert len(strips) == 24
    rows = [strip.text for strip in strips]
    wide = [(display_width(row), row) for row in rows if display_width(row) > 80]
    assert not wide
    assert all(strip.cell_length == display_width(strip.text) for strip in strips)
    text = "\n".join(rows)
    assert "退出" in text and "拿牌" in text and "金币" in text  # translated: keys, hint, cities


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "ja"])
def test_card_faces_fit_their_cells(lang):
    set_language(lang, "all")  # the most community names: the widest faces
    record = record_reaching("play")
    from duel import new_game

    state = new_game()
    for move in record.moves:
        state = state.apply(move)
    cells = [c for row in pyramid_rows(state) for c in row if c.look != "taken"]
    assert cells
    for width, height in ((13, 3), (11, 2), (9, 2)):
        for cell in cells:
            for line in card_face(state, cell, width, height):
                assert display_width(line) <= width, (lang, width, line)


def test_no_message_hidden_in_an_f_string():
    """babel does not look inside f-strings (one token before Python 3.12): a ``tr("…")``
    written in one would never reach the catalog (``f"{tr('setup and draft')}"`` did)."""
    import io
    import tokenize
    from pathlib import Path

    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[1]
    with open(root / "duel" / "app" / "locale" / "duel.pot", "rb") as f:
        known = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    call = re.compile(r"\btrn?\(\s*(?:\w+,\s*)?(['\"])(.*?)\1")
    lost = []
    for path in sorted((root / "duel" / "app").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.STRING and token.string[:2].lower() in ("f'", 'f"'):
                for _, msgid in call.findall(token.string):
                    if msgid not in known:
                        lost.append((path.name, token.start[0], msgid))
    assert not lost
