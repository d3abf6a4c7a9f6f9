"""Build the optional C core (duel._ccore) beside the pure-Python engine.

Everything else is in pyproject.toml. Where no C compiler works, the build prints a one-line
notice and installs the pure-Python engine alone (duel.core.AVAILABLE is then False). With
DUEL_REQUIRE_C=1 in the environment (CI sets it) a compile error fails the install instead, and
our C is compiled with every warning an error.
"""

import os
import platform
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def _popcnt() -> bool:
    """Whether this x86-64 machine counts bits in one instruction (every x86-64 CPU since 2008).

    The engine and the exact solver count bits of card sets all the time: the instruction makes
    the exact solver about 1.2x faster than the inline fallback. The extension is built on the
    machine that runs it (pip install), so the build asks this CPU.
    """
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    cpuinfo = Path("/proc/cpuinfo")
    if not cpuinfo.exists():
        return False
    return " popcnt" in cpuinfo.read_text(errors="replace")


#: Set in CI (.ci/run): a C file that does not compile fails the build instead of falling back.
REQUIRE_C = os.environ.get("DUEL_REQUIRE_C", "") not in ("", "0")

#: Our sources compile clean of these; Python's headers are included as system headers (-isystem
#: below), so their warnings are not ours to fix. -Werror only where the build must not fall
#: back: a user's newer compiler with a new warning still gets the C core.
WARNINGS = ["-Wall", "-Wextra", *(["-Werror"] if REQUIRE_C else [])]


def _python_headers_as_system() -> list[str]:
    """-isystem for Python's include directories, so that -Wall -Wextra judge our code only."""
    import sysconfig

    paths = {sysconfig.get_path("include"), sysconfig.get_path("platinclude")}
    return [f"-isystem{path}" for path in sorted(p for p in paths if p)]


FLAGS = [
    "-O3",
    "-std=gnu11",
    *(["-mpopcnt"] if _popcnt() else []),
    *_python_headers_as_system(),
    *WARNINGS,
]


class OptionalBuildExt(build_ext):
    """build_ext that falls back to pure Python instead of failing the install (unless
    DUEL_REQUIRE_C is set: then any failure is raised, and pip fails loudly)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any compiler or setup failure
            if REQUIRE_C:
                raise
            self._notice(error)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001
            if REQUIRE_C:
                raise
            self._notice(error)

    @staticmethod
    def _notice(error: Exception) -> None:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        print(f"wonders-duel: C core not built ({first}); using the pure-Python engine")


ENGINE_C = [
    "duel/csrc/duel_core.c",
    "duel/csrc/duel_core.h",
    "duel/csrc/duel_layout.h",
    "duel/csrc/duel_tables.h",
]
XCORE_C = [
    f"duel/csrc/{part}"
    for part in (
        "xcore.h",
        "xcore_layout.h",
        "xcore_tables.h",
        "xcore_state.c",
        "xcore_rules.c",
        "xcore_senate.c",
        "xcore_legal.c",
    )
]
SEARCH_C = [*ENGINE_C, "duel/csrc/ccore_capi.h", "solvers/csrc/heuristic.h"]
# The parts solvers/csrc/csearch_module.c includes, in its order: one translation unit, so pip
# must rebuild the module when any of them changes.
CSEARCH_PARTS = [
    f"solvers/csrc/csearch/{part}.h"
    for part in (
        "common",
        "profile",
        "prices",
        "apply",
        "context",
        "tt",
        "exact_key",
        "movepick",
        "picks",
        "search",
        "bound_parts",
        "bound_takes",
        "bound",
        "small",
        "exact",
        "node",
        "searcher",
        "threads",
    )
]

setup(
    ext_modules=[
        Extension(
            "duel._ccore",
            sources=["duel/csrc/ccore_module.c"],
            depends=[*ENGINE_C, "duel/csrc/ccore_capi.h"],
            extra_compile_args=FLAGS,
            optional=not REQUIRE_C,
        ),
        Extension(
            # The expansions on the compiled core: a sibling of duel._ccore sharing its tables
            # and helpers (duel/csrc/xcore.h says why the base state is left as it is).
            "duel._xcore",
            sources=["duel/csrc/xcore_module.c"],
            depends=[*ENGINE_C, *XCORE_C],
            extra_compile_args=FLAGS,
            optional=True,
        ),
        Extension(
            # The expansion MCTS over the compiled expansion core (issue 63's expansion AI)
            "duel.solvers._xmcts",
            sources=["solvers/csrc/xmcts_module.c"],
            depends=[
                *ENGINE_C,
                *XCORE_C,
                "solvers/csrc/xmcts_tree.h",
                "solvers/csrc/xpolicy.h",
                "solvers/csrc/xvalue.h",
            ],
            extra_compile_args=FLAGS,
            optional=True,
        ),
        Extension(
            "duel.solvers._csearch",
            sources=["solvers/csrc/csearch_module.c"],
            depends=[*SEARCH_C, *CSEARCH_PARTS, "solvers/csrc/csearch_capi.h"],
            extra_compile_args=FLAGS,
            optional=not REQUIRE_C,
        ),
        Extension(
            "duel.solvers._cmcts",
            sources=["solvers/csrc/cmcts_module.c"],
            depends=[
                *SEARCH_C,
                "solvers/csrc/rollout.h",
                "solvers/csrc/value_model.h",
            ],
            extra_compile_args=FLAGS,
            optional=not REQUIRE_C,
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
