"""Nodes and CPU time of the exact solver on the hint_truth positions (issue 64's reach).

Each position is solved on one thread with a node cap, by a fresh searcher (as the judge in
``hint_truth.py solve`` does), and one JSON line is printed per position: the value, the best
move, whether it finished, nodes, the process CPU seconds of the solve and the profile counters
(``Searcher.stats()``, per cards left) summed into a few totals. Levers of the C searcher can be
set from the command line (``--set star2_cards=6``) to compare them on the same positions, and
``--csearch`` runs a copy of another build of the compiled search (two builds side by side).

    PYTHONPATH=. python benchmarks/exact_reach.py --cards 14 --max-nodes 200000000 > out.jsonl
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgames import cards_left  # noqa: E402

import duel.solvers.search as search  # noqa: E402
from duel.position import load_position  # noqa: E402

POSITIONS = Path(__file__).resolve().parent / "results" / "hint_truth" / "positions"


def solve(
    path: Path,
    max_nodes: int,
    levers: dict[str, int],
    top: int,
    memory: int = search.DEFAULT_MEMORY,
) -> dict:
    state = load_position(path)
    search.EXACT_CARDS_C = max(search.EXACT_CARDS_C, cards_left(state))
    s = search.new_searcher(chance_width=None, chance_samples=4, threads=1, memory=memory)
    if not search.exact_feasible(state, 10):
        s._c.huge_pages()  # as analysis() does for a searcher of its own
    for name, value in levers.items():
        setattr(s._c, name, value)
    cpu = time.process_time()
    info = search.analyse(
        state, search.Limit(nodes=max_nodes), exact=True, margin=False, searcher=s, top=top
    )
    cpu = time.process_time() - cpu
    st = s._c.stats()
    return {
        "position": path.stem,
        "cards": cards_left(state),
        "value_a": info.value.a,
        "exact": bool(info.exact),
        "nodes": info.nodes,
        "cpu": round(cpu, 2),
        "best": str(info.best_move) if info.moves else None,
        "moves": {str(m.move): m.value for m in info.moves} if top > 1 else None,
        "load": round(os.getloadavg()[0], 2),
        "stats": {k: v for k, v in st.items()},
    }


def load_csearch(path: Path) -> ModuleType:
    """duel.solvers._csearch loaded from `path` (the searcher the solves below then use)."""
    spec = importlib.util.spec_from_file_location("duel.solvers._csearch", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, nargs="+", default=[14])
    parser.add_argument("--only", nargs="*", default=None, help="position names (g6411_14 ...)")
    parser.add_argument("--max-nodes", type=int, default=200_000_000)
    parser.add_argument("--top", type=int, default=1, help="moves with exact values")
    parser.add_argument("--set", nargs="*", default=[], help="lever=value of the C searcher")
    parser.add_argument("--memory", type=int, default=search.DEFAULT_MEMORY >> 20, help="MB")
    parser.add_argument(
        "--csearch",
        type=Path,
        help="the compiled search from this file: a copy of another "
        "build's _csearch .so, to compare two builds side by side",
    )
    args = parser.parse_args()
    if args.csearch:
        search._csearch = load_csearch(args.csearch)
    levers = {k: int(v) for k, v in (item.split("=") for item in args.set)}
    paths = sorted(POSITIONS.glob("g*_*.json"))
    paths = [p for p in paths if int(p.stem.split("_")[1]) in args.cards]
    if args.only:
        paths = [p for p in paths if p.stem in args.only]
    for path in paths:
        row = solve(path, args.max_nodes, levers, args.top, args.memory << 20)
        print(json.dumps(row | {"memory_mb": args.memory}), flush=True)


if __name__ == "__main__":
    main()
