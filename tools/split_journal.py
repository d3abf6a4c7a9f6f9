"""Move the dated sections of docs/strength.md, docs/search.md and docs/benchmarks.md into
docs/journal/, verbatim, by their headings (issue 66, 2026-12-02).

It finds the sections by title, not by line, so it can be run again on the three documents as
they were before the move with other edits merged in (take those versions, then
``python tools/split_journal.py``). Once merged it has done its work: delete it.
"""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
DOCS = ROOT / "docs"
JOURNAL = DOCS / "journal"


def sections(lines: list[str]) -> list[tuple[int, int, str]]:
    """(start, level, title) of every heading outside code blocks."""
    out, fenced = [], False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else re.match(r"(#{1,6}) (.*)", line)
        if m:
            out.append((i, len(m.group(1)), m.group(2).strip()))
    return out


def span(lines: list[str], first: str, last: str | None = None) -> tuple[int, int]:
    """Lines from the heading starting with ``first`` to the end of the section starting with
    ``last`` (or of ``first``'s own section): up to the next heading of the same or a higher
    level."""
    heads = sections(lines)

    def find(prefix: str) -> int:
        hits = [k for k, (_, _, title) in enumerate(heads) if title.startswith(prefix)]
        assert len(hits) == 1, (prefix, hits)
        return hits[0]

    a = find(first)
    b = find(last) if last else a
    level = heads[b][1]
    end = next((i for i, lvl, _ in heads[b + 1 :] if lvl <= level), len(lines))
    return heads[a][0], end


def take(doc: str, parts: list[tuple[str, str | None]]) -> tuple[list[str], list[list[str]]]:
    """``doc``'s lines without the spans of ``parts``, and the spans' lines."""
    lines = (DOCS / doc).read_text(encoding="utf-8").splitlines(keepends=True)
    spans = [span(lines, a, b) for a, b in parts]
    moved = [lines[a:b] for a, b in spans]
    keep = [line for i, line in enumerate(lines) if not any(a <= i < b for a, b in spans)]
    return keep, moved


def write(name: str, title: str, intro: str, chunks: list[list[str]]) -> None:
    body = "".join(line for chunk in chunks for line in chunk).rstrip("\n") + "\n"
    body = body.replace("](images/", "](../images/")
    intro = textwrap.fill(intro.strip(), 100, break_on_hyphens=False, break_long_words=False)
    (JOURNAL / name).write_text(f"# {title}\n\n{intro}\n\n{body}", encoding="utf-8")


TAG_NOTE = (
    "Dated entries, moved verbatim from `{src}` (2026-12-02). Figures are as measured then; "
    "what ships today is in {ref}. Options that did not ship (fading, root exploration, "
    "sequential halving, exact leaves, closed-loop reveals, hidden layers) were removed from the "
    "code afterwards: check out the tag `journal-2026-11-29` to run the commands quoted here. "
    "Raw logs: [`benchmarks/results/`](../../benchmarks/results/)."
)

STRENGTH = {
    "2026-11-23-cmcts-against-mctsbr.md": (
        "The `cmcts` level against MCTS-BR: how its defaults were found (2026-11-23 to 25)",
        [
            ("Results against MCTS-BR", None),
            ("The learned value in `cmcts`", None),
            ("What was left out, and what to try next", None),
        ],
    ),
    "2026-11-26-every-think-time.md": (
        "Every think time (issue 29), and the second generation against MCTS-BR (2026-11-26 to 29)",
        [("Every think time (issue 29)", "Why the 1 s figure of issue 15")],
    ),
    "2026-11-25-against-mctsbr-and-the-first-ladder.md": (
        "The value taught by `cmcts`'s own games against MCTS-BR, 1 s, and the first time ladder "
        "(2026-11-25)",
        [("The value taught by `cmcts`'s own games, against MCTS-BR", "The self-play time ladder")],
    ),
    "longer-thinks.md": (
        "Making a longer think pay: the time ladder, the pick rule, the arena, the kept tree "
        "(2026-11-26 to 29)",
        [("Picking the move by a lower confidence bound", "The ladder move by move")],
    ),
    "2026-11-27-halving-and-exact-leaves.md": (
        "Sequential halving, an exact judge, exact playouts and leaves, the exact reach "
        "(2026-11-27)",
        [("Sequential halving at the root", "The exact reach by the median")],
    ),
    "learned-value-and-prior.md": (
        "The learned value and prior: generations, hidden layers, targets, fading "
        "(2026-11-23 to 28)",
        [("The learned value taught by `cmcts`'s own games", "Fading the learned value")],
    ),
}


def main() -> None:
    JOURNAL.mkdir(exist_ok=True)
    index = []
    # strength.md
    parts = [p for _, (_, ps) in STRENGTH.items() for p in ps]
    keep, moved = take("strength.md", parts)
    k = 0
    for name, (title, ps) in STRENGTH.items():
        chunks = moved[k : k + len(ps)]
        k += len(ps)
        note = TAG_NOTE.format(
            src="docs/strength.md", ref="`docs/strength.md` and `docs/players.md`"
        )
        write(name, title, note, chunks)
        heads = [t for c in chunks for _, _, t in sections(c)]
        index.append((name, title, heads))
    at = next(i for i, x in enumerate(keep) if x.startswith("## The learned value"))
    keep[at:at] = [
        'The sections quoted by title here and elsewhere that are not in this file ("The second\n',
        'generation", "The tree\'s arena", ...) are dated entries of the journal: '
        "`docs/journal/`\n",
        "(`README.md` there lists each one's file).\n",
        "\n",
    ]
    (DOCS / "strength.md").write_text("".join(keep), encoding="utf-8")
    # search.md: the dated measurements of the exact solver
    keep, moved = take("search.md", [("Measured figures", None)])
    lines = moved[0]
    start = next(i for i, x in enumerate(lines) if x.startswith("**Compiled search** (2026-11-23"))
    end = next(i for i, x in enumerate(lines) if x.startswith("**The curve on a quiet machine"))
    kept_part = (
        lines[:start]
        + [
            "The dated measurements of the compiled search and the exact solver (each lever, its\n",
            "figures, 2026-11-23 to 25) are in `docs/journal/exact-search.md`; the curve today:\n",
            "\n",
        ]
        + lines[end:]
    )
    at = next(i for i, x in enumerate(keep) if i > 0 and keep[i - 1].startswith("Bad input prints"))
    keep[at:at] = ["\n", *kept_part] if keep[at - 1].strip() else kept_part
    (DOCS / "search.md").write_text("".join(keep).rstrip("\n") + "\n", encoding="utf-8")
    note = TAG_NOTE.format(src="docs/search.md", ref="`docs/search.md`")
    write(
        "exact-search.md",
        "The compiled search and the exact solver, lever by lever (2026-11-23 to 25)",
        note,
        [lines[start:end]],
    )
    index.append(("exact-search.md", "The compiled search and the exact solver", []))
    # benchmarks.md: one file per day
    text = (DOCS / "benchmarks.md").read_text(encoding="utf-8").splitlines(keepends=True)
    heads = [(i, t) for i, lvl, t in sections(text) if lvl == 2 and re.match(r"2026-11-\d\d", t)]
    last = next(i for i, lvl, t in sections(text) if lvl == 2 and t.startswith("Layout"))
    days: dict[str, list[str]] = {}
    for n, (i, title) in enumerate(heads):
        end = heads[n + 1][0] if n + 1 < len(heads) else last
        days.setdefault(title[:10], []).extend(text[i:end])
    for day, chunk in days.items():
        note = TAG_NOTE.format(src="docs/benchmarks.md", ref="`docs/benchmarks.md`")
        write(f"benchmarks-{day}.md", f"Benchmark runs of {day}", note, [chunk])
        index.append(
            (
                f"benchmarks-{day}.md",
                f"Benchmark runs of {day}",
                [t for _, lvl, t in sections(chunk) if lvl == 2],
            )
        )
    text = text[: heads[0][0]] + text[last:]
    old = (
        "in the document about it: `docs/search.md`, `docs/mcts.md`, `docs/strength.md`, "
        "`docs/scale.md`."
    )
    joined = "".join(text)
    flat = re.sub(r"\s+", " ", joined)
    assert old in flat, "benchmarks.md's introduction changed"
    text = [
        re.sub(
            r"(`docs/scale.md`\.)\n",
            r"\1 The dated runs,\nday by day, are in `docs/journal/` (`benchmarks-DATE.md`).\n",
            joined,
            count=1,
        )
    ]
    (DOCS / "benchmarks.md").write_text("".join(text), encoding="utf-8")
    # the index
    out = [
        "# The journal\n\n",
        "What was measured and tried, dated, moved out of the reference documents "
        "(`docs/strength.md`, `docs/search.md`, `docs/benchmarks.md`; what ships and how to use "
        "it: `docs/players.md`) on 2026-12-02. The code of the experiments that did not ship "
        'is at the tag `journal-2026-11-29`. A section quoted elsewhere by its title ("The '
        "tree's arena\") is in the file listed with it below. The logs the entries quote are in "
        "[`benchmarks/results/`](../../benchmarks/results/); the behaviour-neutral checks of "
        "the removal: [`cmcts_removal_same_games_and_speed_2026-12-02.txt`]"
        "(../../benchmarks/results/cmcts_removal_same_games_and_speed_2026-12-02.txt).\n\n",
    ]
    out = [
        out[0],
        textwrap.fill("".join(out[1:]).strip(), 100, break_on_hyphens=False, break_long_words=False)
        + "\n\n",
    ]
    for name, title, hs in index:
        out.append(f"- [`{name}`]({name}): {title}\n")
        for h in hs:
            out.append(f"  - {h}\n")
    (JOURNAL / "README.md").write_text("".join(out), encoding="utf-8")


if __name__ == "__main__":
    main()
