"""Scripted games over the network by the hundred: ``duel server`` in its own process, two
scripted players and a spectator a game, random disconnects, and the server killed (SIGKILL)
once mid-run and started again.

Every game must end; its record in the server's file and on its three clients must be
identical; every message each client received is checked for what it should not know
(:func:`duel.net.scripted.check_messages`). The figures are counts, not speeds (the machine
is shared):

    .venv/bin/python benchmarks/net_games.py --games 100 --parallel 8
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import tempfile
import time
from collections import Counter
from pathlib import Path

from duel.net.referee import Table
from duel.net.scripted import check_messages, free_port, play_table, server_process

VARIANTS = [(), ("pantheon",), ("agora",), ("agora", "pantheon")]


async def run(games: int, parallel: int, drop: float, seed: int, folder: Path) -> dict:
    rng = random.Random(seed)
    tables = []
    for i in range(games):
        table = Table.new(VARIANTS[i % len(VARIANTS)], ("human", "human"))
        table.path = folder / f"table-{table.id}.json"
        table.deal()
        table.save()
        tables.append(table)
    port = free_port()
    url = f"ws://127.0.0.1:{port}"
    server = server_process(folder, port)
    gate = asyncio.Semaphore(parallel)
    finished: list[int] = []

    async def one(i: int):
        async with gate:
            seen = await play_table(
                url, tables[i].codes, rng=random.Random(rng.random()), drop_chance=drop,
                timeout=600,
            )
            finished.append(i)
            return seen

    started = time.monotonic()
    runs = [asyncio.ensure_future(one(i)) for i in range(games)]
    restarts = 0
    while len(finished) < games // 3:
        await asyncio.sleep(0.1)
    now = [Table.load(t.path) for t in tables]  # started: a decision made since the deal
    in_play = sum(1 for t, n in zip(tables, now, strict=True) if not n.over and n.moves != t.moves)
    server.send_signal(signal.SIGKILL)
    server.wait()
    restarts += 1
    killed_at = len(finished)
    server = await asyncio.to_thread(server_process, folder, port)
    try:
        played = await asyncio.gather(*runs)
    finally:
        server.kill()
        server.wait()
    elapsed = time.monotonic() - started

    figures: Counter = Counter()
    problems: list[str] = []
    for table, seen in zip(tables, played, strict=True):
        final = Table.load(table.path)
        figures["games"] += 1
        figures["ended"] += final.over
        figures[f"ended by {final.result['how'] if final.result else 'nothing'}"] += 1
        figures["moves"] += len(final.moves)
        record = final.record()
        same = all(c.record == record for c in seen.values())
        figures["records identical (server and 3 clients)"] += same
        for seat, connection in seen.items():
            figures["connection attempts after a drop"] += connection.reconnects
            figures["messages checked"] += len(connection.received)
            found = check_messages(final, seat, connection)
            problems += [f"{table.id} {p}" for p in found]
        figures["rejoins (a welcome again after a drop or the restart)"] += sum(
            1 for c in seen.values() for m in c.received if m.get("type") == "welcome"
        ) - len(seen)
    figures["leaks found"] = len(problems)
    return {
        "figures": figures,
        "problems": problems,
        "restarts": restarts,
        "killed after games": killed_at,
        "games in play at the kill": in_play,
        "elapsed": elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--parallel", type=int, default=8)
    parser.add_argument("--drop", type=float, default=0.03, help="chance of a drop a move")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        result = asyncio.run(run(args.games, args.parallel, args.drop, args.seed, Path(folder)))
    figures = result["figures"]
    print(f"load: {os.getloadavg()[0]:.1f} (1 min average) on {os.cpu_count()} cores")
    print(f"{figures['games']} games ({len(VARIANTS)} kinds in turn: base, Pantheon, Agora, both)"
          f", {args.parallel} at a time, in {result['elapsed']:.0f} s")
    print(f"server killed (SIGKILL) once after {result['killed after games']} games had ended,"
          f" {result['games in play at the kill']} in play; restarts: {result['restarts']}")
    for name, value in figures.items():
        if name != "games":
            print(f"  {name}: {value}")
    for problem in result["problems"][:20]:
        print("  LEAK", problem)
    ok = figures["ended"] == figures["games"] == figures[
        "records identical (server and 3 clients)"
    ] and not result["problems"]
    print("all games ended, one record each, no leak" if ok else "FAILED")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
