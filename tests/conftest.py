"""Session-wide test settings."""

import os
import tempfile

# Programs started by the tests save interrupted games to the user data folder: keep those
# files out of the real home directory (tests that check the file set their own folder).
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="wonders-duel-test-data-")
