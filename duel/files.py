"""Files of positions, records and saves: read as JSON with every problem a translatable
:class:`~duel.reason.Reason` naming the file, written atomically so that an interruption never
loses the previous file. Every format (the base game's and the expansions' positions and
records, the network games' saves) reads and writes through these two functions.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import tempfile
import time
from pathlib import Path
from typing import Any

from duel.reason import Reason


# --- writing ------------------------------------------------------------------------------------
def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that an interruption never leaves a partial file.

    The text goes to a temporary file in the same folder (``.NAME.XXXXXXXX.tmp``), is flushed
    to the disk and renamed over ``path``; the folder is then synced so that the rename itself
    survives a crash. An existing target keeps its permissions. Targets that are not regular
    files (a symbolic link, ``/dev/full``, a folder) are refused with :class:`OSError` rather
    than replaced, and temporary files of our own naming left by an earlier killed save are
    removed. The folder must exist: none is created. Raises ``OSError`` (``ValueError`` for a
    path with a NUL byte).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_atomically(folder / "a.json", "{}")
    >>> (folder / "a.json").read_text()
    '{}'
    """
    path = Path(path)
    if "\0" in str(path):
        raise ValueError(f"{str(path)!r}: a file name cannot contain a NUL byte")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        # Never created here: a mistyped folder (or one at the filesystem root, as root) would
        # appear unasked. Autosaves create the user data folder themselves (save_somewhere).
        raise FileNotFoundError(errno.ENOENT, f"the folder {directory} does not exist")
    mode = _existing_mode(path)
    _remove_stale_temporaries(directory, path.name)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _sync_folder(directory)


#: Temporary files older than this are left-overs of a killed save (a save takes milliseconds).
STALE_TEMPORARY_SECONDS = 60.0


def _existing_mode(path: Path) -> int:
    """The permissions to give the new file: those of the file replaced, else 0666 - umask."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
    if stat.S_ISLNK(info.st_mode):
        raise OSError(errno.EPERM, f"{path} is a symbolic link; save to the file it points to")
    if stat.S_ISDIR(info.st_mode):
        raise OSError(errno.EISDIR, f"{path} is a folder; name a file (e.g. {path / 'game.json'})")
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EPERM, f"{path} is not a regular file; not replaced")
    return stat.S_IMODE(info.st_mode)


def _remove_stale_temporaries(directory: Path, name: str) -> None:
    """Delete ``.NAME.XXXXXXXX.tmp`` files (our temporary naming) left by an interrupted save."""
    pattern = re.compile(re.escape(f".{name}.") + r"[a-z0-9_]{8}\.tmp")
    now = time.time()
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        with contextlib.suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_TEMPORARY_SECONDS:
                os.unlink(entry.path)


def _sync_folder(directory: Path) -> None:
    """fsync the folder so the rename is on the disk (not every file system allows it)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --- reading ------------------------------------------------------------------------------------
#: Positions and records are a few kilobytes; a bigger file is not one of ours.
MAX_FILE_BYTES = 16 * 1024 * 1024


def read_json_file(path: str | Path, error: type[ValueError] = ValueError) -> Any:
    """Parse a JSON file; every problem raises ``error`` with a :class:`Reason` naming the file
    and what is wrong.

    A missing or unreadable file, a path with a NUL byte, a file that is not UTF-8, too big,
    not JSON, nested too deeply or holding a number too long to convert: always ``error``,
    never another exception.

    >>> read_json_file("no/such/file.json")
    Traceback (most recent call last):
    ...
    ValueError: no/such/file.json: cannot read the file (No such file or directory)
    """
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as problem:
        raise error(
            Reason(
                "{path}: cannot read the file ({problem})",
                path=str(path),
                problem=problem.strerror or str(problem),
            )
        ) from None
    except ValueError:  # a NUL byte in the path
        raise error(
            Reason("{path}: a file name cannot contain a NUL byte", path=repr(str(path)))
        ) from None
    if len(raw) > MAX_FILE_BYTES:
        raise error(
            Reason(
                "{path}: too big for a position or record (over {limit} bytes)",
                path=str(path),
                limit=f"{MAX_FILE_BYTES:,}",
            )
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as problem:
        raise error(
            Reason(
                "{path}: not UTF-8 text (byte {offset}: {byte})",
                path=str(path),
                offset=problem.start,
                byte=f"{raw[problem.start]:#04x}",
            )
        ) from None
    return parse_json(text, str(path), error)


def parse_json(text: str, source: str, error: type[ValueError] = ValueError) -> Any:
    """``json.loads`` whose every failure is ``error`` naming ``source`` and the problem."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as problem:
        raise error(
            Reason(
                "{source}: not valid JSON (line {line}, column {column}: {problem})",
                source=source,
                line=problem.lineno,
                column=problem.colno,
                problem=problem.msg,
            )
        ) from None
    except RecursionError:
        raise error(
            Reason("{source}: nested too deeply to be a position or record", source=source)
        ) from None
    except ValueError as problem:  # e.g. an integer of more than 4,300 digits
        raise error(
            Reason(
                "{source}: not a usable JSON value ({problem})", source=source, problem=str(problem)
            )
        ) from None
