"""Mutations of JSON documents for the loaders' fuzz tests: a valid position or record with a few
values replaced, deleted, renamed or copied from elsewhere in it (the plausible mistakes of a
hand-written file) or replaced by arbitrary JSON."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from hypothesis import strategies as st


def json_values(names: Sequence[str], *, max_leaves: int = 20) -> st.SearchStrategy:
    """Arbitrary JSON: edge numbers, ``names`` and short text at the leaves."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-12, 25),
        st.sampled_from([10**18, -(10**18), 2**63, 10**4000]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from(list(names)),
        st.text(max_size=12),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=5)
        ),
        max_leaves=max_leaves,
    )


def paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every path (keys and indices) into ``value``, the empty one first."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, (*prefix, i))


def mutations(samples: Sequence[Any], names: Sequence[str]) -> st.SearchStrategy:
    """One of ``samples`` with one to three values changed."""
    anything = json_values(names)

    @st.composite
    def mutated(draw):
        data = json.loads(json.dumps(draw(st.sampled_from(samples))))
        for _ in range(draw(st.integers(1, 3))):
            path = draw(st.sampled_from([p for p in paths(data) if p]))
            parent = data
            for key in path[:-1]:
                parent = parent[key]
            how = draw(st.sampled_from(["replace", "delete", "name", "copy"]))
            if how == "delete":
                del parent[path[-1]]
            elif how == "name":
                parent[path[-1]] = draw(st.sampled_from(list(names)))
            elif how == "copy":
                value = data
                for key in draw(st.sampled_from([p for p in paths(data) if p])):
                    value = value[key]
                parent[path[-1]] = json.loads(json.dumps(value))
            else:
                parent[path[-1]] = draw(anything)
        return data

    return mutated()
