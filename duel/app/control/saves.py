"""Where the programs keep a user's games: the data folder and the base game's autosaves
(one file per game, the folders tried in turn, the clean-up of old ones)."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

DATA_FOLDER = "wonders-duel"


def user_data_dir() -> Path:
    """The folder for files the programs keep for the user (not the current directory, which
    may be a git checkout): ``$XDG_DATA_HOME/wonders-duel``, by default
    ``~/.local/share/wonders-duel`` (``%LOCALAPPDATA%\\wonders-duel`` on Windows). Not created
    here: saving creates it.

    >>> user_data_dir().name
    'wonders-duel'
    """
    base = os.environ.get("XDG_DATA_HOME") or (
        os.environ.get("LOCALAPPDATA") if os.name == "nt" else None
    )
    root = Path(base) if base else Path.home() / ".local" / "share"
    return root / DATA_FOLDER


#: A base game's own autosave: ``duel-autosave-20261202-013000-7f3a.json`` (its start, UTC,
#: and 4 random hex digits: two games started in the same second keep a file each). Files
#: named ``duel-autosave.json`` (one slot, before issue 60) are still listed and loaded.
_AUTOSAVE_NAME = re.compile(r"duel-autosave(-\d{8}-\d{6}-[0-9a-f]{4})?\.json")


#: The clean-up of old autosaves (:func:`clean_old_autosaves`, docs/playing.md): the newest
#: ones are kept whatever their age; of the others, those untouched this many days go.
AUTOSAVES_KEPT = 20


AUTOSAVE_DAYS = 30


def autosave_path() -> Path:
    """A new game's own autosave file in the data folder (one per game: a second game
    interrupted never replaces the first)."""
    import secrets
    from datetime import UTC, datetime

    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return user_data_dir() / f"duel-autosave-{stamp}-{secrets.token_hex(2)}.json"


def is_autosave(path: Path) -> bool:
    """Whether ``path`` is named as a base game's autosave.

    >>> is_autosave(Path("duel-autosave-20261202-013000-7f3a.json"))
    True
    >>> is_autosave(Path("duel-autosave.json")), is_autosave(Path("my-game.json"))
    (True, False)
    """
    return _AUTOSAVE_NAME.fullmatch(path.name) is not None


def autosave_folders() -> list[Path]:
    """Where autosaves go, in order (a full or read-only data folder falls back to the next):
    the data folder, home, the temporary folder."""
    import tempfile

    return [user_data_dir(), Path(os.path.expanduser("~")), Path(tempfile.gettempdir())]


def known_autosaves() -> list[Path]:
    """Every autosave of the autosave folders, newest first."""
    found: dict[Path, float] = {}
    for folder in autosave_folders():
        with contextlib.suppress(OSError):
            for path in folder.glob("duel-autosave*.json"):
                if is_autosave(path) and path.is_file():
                    found[path] = path.stat().st_mtime
    return sorted(found, key=lambda p: found[p], reverse=True)


def clean_old_autosaves(now: float | None = None) -> list[Path]:
    """Delete the autosaves beyond the :data:`AUTOSAVES_KEPT` newest that are older than
    :data:`AUTOSAVE_DAYS` days; the files deleted. Called when ``duel play`` starts."""
    import time

    limit = (time.time() if now is None else now) - AUTOSAVE_DAYS * 86_400
    removed = []
    for path in known_autosaves()[AUTOSAVES_KEPT:]:
        with contextlib.suppress(OSError):
            if path.stat().st_mtime < limit:
                path.unlink()
                removed.append(path)
    return removed

