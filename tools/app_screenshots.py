"""SVG screenshots of the full-screen app's board for the docs (docs/images/app_board_WxH.svg):
a seeded game against the random AI in Age II, the human to move, at 80x24, 120x40 and 160x50
(the last with the live analysis open). Run: ``python tools/app_screenshots.py``."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from duel.app.control.game import Dealer, GameController
from duel.app.screen.app import DuelApp

SIZES = ((80, 24), (120, 40), (160, 50))
OUT = Path(__file__).resolve().parent.parent / "docs" / "images"


def position() -> GameController:
    game = GameController(["human", "random"], Dealer(seed=5), think=0.1)
    game.set_players()
    rng = random.Random(3)
    while not (
        game.state.age == 2 and game.state.phase == "play" and game.state.to_move == 0
    ) or len(game.state.accessible_slots) < 3:
        state = game.state
        game.push(game.deal() if state.is_chance() else state.random_move(rng))
    game.dirty = False
    return game


async def shoot(size: tuple[int, int]) -> str:
    app = DuelApp(position(), think=0.1, hint_nodes=500, chance_nodes=300)
    async with app.run_test(size=size) as pilot:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (app.busy or app.measuring):
            await pilot.pause(0.2)
        if size[0] >= 160:
            app.analysis_steps = [500, 1000, 2000, 4000]
            await pilot.press("a")
            while time.monotonic() < deadline + 60 and not (
                app.analysis and app.analysis.finished
            ):
                await pilot.pause(0.2)
            app.draw_analysis()
        await pilot.pause(0.5)
        return app.export_screenshot(title=f"duel play at {size[0]}x{size[1]}")


def main() -> None:
    for size in SIZES:
        path = OUT / f"app_board_{size[0]}x{size[1]}.svg"
        path.write_text(asyncio.run(shoot(size)), encoding="utf-8")
        print(path)


if __name__ == "__main__":
    main()
