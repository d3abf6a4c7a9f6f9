"""Session-wide test settings."""

import os
import tempfile

import pytest
from hypothesis import Phase, settings

# hypothesis: in CI (CI=true, as .ci/run and the common CI services set it) every run draws the
# same examples (derandomized: each test's seed is fixed by its name), so a failure there is a
# failure on a developer's machine too, and no example database is kept between runs. A failure
# prints the blob that reproduces it (@reproduce_failure) everywhere. HYPOTHESIS_PROFILE=dev
# gets the random seeds back in CI; HYPOTHESIS_PROFILE=ci derandomizes a local run.
settings.register_profile(
    "ci", derandomize=True, database=None, print_blob=True, phases=tuple(Phase)
)
settings.register_profile("dev", print_blob=True)
HYPOTHESIS_PROFILE = os.environ.get(
    "HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI", "").lower() == "true" else "dev"
)
settings.load_profile(HYPOTHESIS_PROFILE)

# Programs started by the tests save interrupted games to the user data folder: keep those
# files out of the real home directory (tests that check the file set their own folder).
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="wonders-duel-test-data-")
# The programs read their language from the locale (issue 26): the tests expect English unless
# they choose a language, whatever the machine's locale.
os.environ["DUEL_LANG"] = "en"
os.environ.pop("DUEL_NAMES", None)
# pytest-xdist's workers set COLUMNS=80 and LINES=24 for their own output; a program started on
# a pty by a test would take them over the pty's size (and draw at 80x24 what the test expects
# at its own size).
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A test that switches the language (directly or through ``--lang``) leaves English."""
    yield
    from duel.app.i18n import set_language

    set_language("en")


def pytest_report_header(config: pytest.Config) -> str:
    seed = config.getoption("hypothesis_seed", None)
    how = (
        "derandomized (each test's seed fixed by its name)"
        if settings.default.derandomize
        else f"seed {seed}"
        if seed is not None
        else "random seeds (a failure prints its reproduce_failure blob)"
    )
    return f"hypothesis profile {HYPOTHESIS_PROFILE}: {how}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test module's own fixtures of module or session scope (a network game played once for
    several tests, a review computed once) are built once per worker that runs one of their
    tests: the tests that use one run on one worker (pyproject's ``--dist loadgroup``), so that
    ``-n auto`` does not build them twice; every other test is spread as before."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        module = getattr(item, "module", None)
        if info is None or module is None:
            continue
        shared = any(
            definitions[-1].scope != "function"
            and getattr(definitions[-1].func, "__module__", None) == module.__name__
            for name in info.names_closure
            if (definitions := info.name2fixturedefs.get(name))
        )
        if shared:
            item.add_marker(pytest.mark.xdist_group(module.__name__))
