"""Session-wide test settings."""

import os
import tempfile

import pytest

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
