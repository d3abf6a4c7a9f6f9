"""Build the optional C core (duel._ccore) beside the pure-Python engine.

Everything else is in pyproject.toml. Where no C compiler works, the build prints a one-line
notice and installs the pure-Python engine alone (duel.core.AVAILABLE is then False).
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that falls back to pure Python instead of failing the install."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any compiler or setup failure
            self._notice(error)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001
            self._notice(error)

    @staticmethod
    def _notice(error: Exception) -> None:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        print(f"wonders-duel: C core not built ({first}); using the pure-Python engine")


ENGINE_C = ["duel/csrc/duel_core.c", "duel/csrc/duel_core.h", "duel/csrc/duel_tables.h"]
SEARCH_C = [*ENGINE_C, "duel/csrc/ccore_capi.h", "solvers/csrc/heuristic.h"]

setup(
    ext_modules=[
        Extension(
            "duel._ccore",
            sources=["duel/csrc/ccore_module.c"],
            depends=[
                "duel/csrc/duel_core.c",
                "duel/csrc/duel_core.h",
                "duel/csrc/duel_tables.h",
                "duel/csrc/ccore_capi.h",
            ],
            extra_compile_args=["-O2", "-std=gnu11"],
            optional=True,
        ),
        Extension(
            "solvers._csearch",
            sources=["solvers/csrc/csearch_module.c"],
            depends=SEARCH_C,
            extra_compile_args=["-O2", "-std=gnu11"],
            optional=True,
        ),
        Extension(
            "solvers._cmcts",
            sources=["solvers/csrc/cmcts_module.c"],
            depends=[*SEARCH_C, "solvers/csrc/rollout.h", "solvers/csrc/value_model.h"],
            extra_compile_args=["-O2", "-std=gnu11"],
            optional=True,
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
