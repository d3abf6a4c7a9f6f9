"""An expansion game's files: which files are expansion games (:func:`is_expansion_file`), the
keys that seal a save in progress, kept apart from the saves (:func:`key_file`,
:func:`write_key`, :func:`forget_key`), and reading a save back (:func:`read_save`)."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import shlex
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from duel.app.control.saves import user_data_dir
from duel.app.i18n import tr
from duel.expansions import XMove
from duel.expansions.position import is_xposition
from duel.expansions.record import XRecord, XRecordError, load_in_progress
from duel.files import read_json_file
from duel.reason import Reason, reason_of

#: The name of a game's save in the data folder when no ``--record`` is given.
XSAVE_NAME = "duel-xgame-{id}.json"


# --- saves --------------------------------------------------------------------------------------
def key_folders() -> list[Path]:
    """Where the keys that seal the saves may be kept, in order: the data folder's ``keys``,
    then (when that cannot be written: a full or read-only disk) a folder in the home folder,
    then one in the temporary folder. Each is made 0700; a key file is 0600."""
    user = getattr(os, "getuid", lambda: "user")()
    return [
        user_data_dir() / "keys",
        Path(os.path.expanduser("~")) / ".wonders-duel-keys",
        Path(tempfile.gettempdir()) / f"wonders-duel-keys-{user}",
    ]


def key_file(game: str) -> Path:
    """Where the key that seals the saves of game ``game`` is (apart from the saves): the first
    key folder that holds it, else the first key folder."""
    places = [folder / f"{game}.key" for folder in key_folders()]
    return next((place for place in places if place.is_file()), places[0])


def write_key(path: Path, key: bytes) -> None:
    """Write ``key`` to ``path`` readable by its owner only, whatever the umask: the file is
    created 0600 (never wider, not even for a moment) in a folder of ours made 0700, then
    renamed into place. OSError if the folder is a link or another user's."""
    folder = path.parent
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode):
        raise OSError(errno.ENOTDIR, f"{folder} is not a folder")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise OSError(errno.EPERM, f"{folder} belongs to another user")
    os.chmod(folder, 0o700)
    tmp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        try:
            os.write(fd, (key.hex() + "\n").encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def forget_key(game: str) -> None:
    """Delete game ``game``'s key wherever it is kept (the game is over: its record is full)."""
    for folder in key_folders():
        with contextlib.suppress(OSError):
            (folder / f"{game}.key").unlink(missing_ok=True)


def record_refusal(path: Path) -> str | None:
    """Why ``--record FILE`` will not write ``path`` without ``--force``: it holds something
    already (another game, or any file: a new game would replace it); ``None`` if it is free."""
    try:
        exists = path.exists() and path.stat().st_size > 0
    except (OSError, ValueError):
        return None  # the save says what is wrong with the place
    if not exists:
        return None
    if is_expansion_file(path):
        return tr(
            "--record: {path} holds another game; continue it with duel play --load {quoted}, "
            "or add --force to replace it",
            path=path,
            quoted=shlex.quote(str(path)),
        )
    return tr("--record: {path} exists; add --force to replace it", path=path)


def is_expansion_file(path: Path) -> bool:
    """Whether ``path`` holds an expansion game's record, save or position (a JSON object with
    a list of expansions); anything else goes to the base game's loaders and their messages."""
    try:
        data = read_json_file(path)
    except ValueError:
        return False
    return isinstance(data, dict) and (bool(data.get("expansions")) or is_xposition(data))


def read_save(path: Path) -> tuple[XRecord, bytes | None]:
    """The referee's record of an expansion game saved in ``path`` (in progress: unsealed with
    the key kept in the data folder) and that key; XRecordError naming the file and the
    problem."""
    data = read_json_file(path, XRecordError)
    meta = data.get("metadata") if isinstance(data, dict) else None
    try:
        # A save in progress is known by its sealed moves too: removing its in_progress mark
        # must not turn its public moves into a record played on without the seal.
        sealed = isinstance(data, dict) and "sealed" in data
        if not (sealed or (isinstance(meta, dict) and meta.get("in_progress"))):
            return XRecord.from_json(data), None
        if not isinstance(meta, dict):
            raise XRecordError(Reason("metadata: expected an object"))
        game = meta.get("game")
        if not isinstance(game, str) or not re.fullmatch(r"[0-9a-f]{32}", game):
            raise XRecordError(Reason("metadata: game: expected the game's id, 32 hex digits"))
        try:
            key = bytes.fromhex(key_file(game).read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            raise XRecordError(
                Reason(
                    "the key to its face-down cards is not in {folder}; a game in progress"
                    " continues only on the computer (and user) that saved it",
                    folder=key_file(game).parent,
                )
            ) from None
        return load_in_progress(data, key), key
    except XRecordError as error:
        raise XRecordError(Reason("{path}: {error}", path=path, error=reason_of(error))) from None
    except RecursionError:
        raise XRecordError(Reason("{path}: nested too deeply to be a record", path=path)) from None


def redacted_draws(value: object, moves: Sequence[XMove]) -> frozenset[int]:
    """The indexes of The Great Library's draws a save in progress lists as placeholders (a
    game resumed from a finished record, which keeps only the chosen token): the ones that are
    draws followed by their choice."""
    if not isinstance(value, list):
        return frozenset()
    return frozenset(
        i
        for i in value
        if type(i) is int
        and 0 <= i < len(moves) - 1
        and moves[i].kind == "library_draw"
        and moves[i + 1].kind == "token"
    )

