"""The party log of a game in progress: written line by line, so a crash loses nothing.

The party line goes first; every accepted event is appended and flushed at once.
``bunco play --resume FILE`` folds the file again with :func:`~bunco.core.party_log.read_log`.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "night.jsonl"
>>> log = PartyLog.create(path, {"type": "party", "rules": "classic", "players": ["A", "B"]})
>>> log.append({"type": "roll", "table": 1, "dice": [1, 1, 2]})
>>> log.close()
>>> night = resume_night(path)
>>> night.cards["A"].points, night.tables[0].points
(0, (2, 0))
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from bunco.core.errors import BuncoError, LogError
from bunco.core.events import dump_event
from bunco.core.night import Night
from bunco.core.party_log import decode_lines, read_log


class LogFileError(BuncoError):
    """A party log that cannot be written or resumed."""

    code = "log_file_error"


def default_log_name(now: dt.datetime | None = None) -> str:
    """``bunco-night-YYYYMMDD-HHMMSS.jsonl`` for ``now`` (default: the local time).

    >>> default_log_name(dt.datetime(2026, 11, 24, 20, 5, 9))
    'bunco-night-20261124-200509.jsonl'
    """
    stamp = (now or dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    return f"bunco-night-{stamp}.jsonl"


def default_log_dir() -> Path:
    """The folder of the party logs ``bunco play`` writes when no ``--log`` is given.

    ``$XDG_DATA_HOME/bunco/nights``, or ``~/.local/share/bunco/nights`` (beside the
    database of ``bunco serve``), so that nights never litter the current folder.
    """
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bunco" / "nights"


def new_log_path(now: dt.datetime | None = None) -> Path:
    """A free path for a new night's log in :func:`default_log_dir` (the folder is
    created): ``bunco-night-YYYYMMDD-HHMMSS.jsonl``, ``…-2.jsonl`` when that exists."""
    folder = default_log_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LogFileError(
            f"cannot make the folder of the party logs {folder}: {exc.strerror}",
            expected="a writable $XDG_DATA_HOME or home folder, or --log FILE",
        ) from None
    base = folder / default_log_name(now)
    candidate, n = base, 1
    while candidate.exists():
        n += 1
        candidate = base.with_name(f"{base.stem}-{n}{base.suffix}")
    return candidate


class PartyLog:
    """An open party log that events are appended to."""

    def __init__(self, path: Path, handle: IO[str]) -> None:
        self.path = path
        self._handle = handle
        self.sync = True  # also push each line to the disk (fsync), not only to the OS

    @classmethod
    def create(cls, path: Path, party: Mapping[str, Any], *, overwrite: bool = False) -> PartyLog:
        """Start a new log with its party line; refuses to replace a file unless ``overwrite``."""
        if path.exists() and not overwrite:
            raise LogFileError(
                f"{path} already exists",
                expected=f"another --log FILE, or continue it with: bunco play --resume {path}",
            )
        try:
            handle = path.open("w", encoding="utf-8")
        except OSError as exc:
            raise LogFileError(
                f"cannot write {path}: {exc.strerror}", expected="a --log FILE in a writable folder"
            ) from None
        log = cls(path, handle)
        log._write(party)
        return log

    @classmethod
    def reopen(cls, path: Path) -> PartyLog:
        """Append to an existing log (after :func:`resume_night` read it)."""
        try:
            ends_a_line = path.read_bytes().endswith(b"\n")
            handle = path.open("a", encoding="utf-8")
        except OSError as exc:
            raise LogFileError(
                f"cannot append to {path}: {exc.strerror}", expected="a writable party log"
            ) from None
        if not ends_a_line and path.stat().st_size:
            handle.write("\n")
        return cls(path, handle)

    def append(self, event: Mapping[str, Any]) -> None:
        """Write one accepted event and flush it (a crash of the program loses nothing)."""
        self._write(event)

    def _write(self, data: Mapping[str, Any]) -> None:
        self._handle.write(dump_event(data) + "\n")
        self._handle.flush()
        if self.sync:
            try:
                os.fsync(self._handle.fileno())
            except OSError:  # pragma: no cover - pipes and odd filesystems
                self.sync = False

    def close(self) -> None:
        self._handle.close()


def set_aside_cut_line(path: Path) -> tuple[Path, str] | None:
    """Keep aside a last line cut short by a crash, so that the log can be resumed.

    A log is written a whole line at a time; a last line without its newline that is no
    JSON was cut short while being written. The file as it was is copied to a backup
    (``night.jsonl.bak``, or ``night.jsonl.2.bak``, ...) and the log is cut back to its
    last whole line. Returns the backup and the line set aside, or None when the log ends
    cleanly (or is broken before its last line: then nothing is touched). Nothing is ever
    dropped without this.
    """
    try:
        data = path.read_bytes()
    except OSError:
        return None  # resume_night says what is wrong with the path
    if not data or data.endswith(b"\n"):
        return None
    cut = data.rfind(b"\n") + 1
    try:
        json.loads(data[cut:])
        return None  # a whole event that only lacks its newline
    except (ValueError, RecursionError):
        pass
    try:
        read_log(decode_lines(data[:cut]))
    except LogError:
        return None  # not a log cut short but a broken file: resume_night says where
    backup = path.with_name(path.name + ".bak")
    n = 1
    while backup.exists():
        n += 1
        backup = path.with_name(f"{path.name}.{n}.bak")
    try:
        backup.write_bytes(data)
        with path.open("r+b") as raw:
            raw.truncate(cut)
    except OSError as exc:
        raise LogFileError(
            f"the last line of {path} was cut short, and it cannot be set aside: {exc.strerror}",
            expected="a party log in a folder you may write to",
        ) from None
    return backup, data[cut:].decode("utf-8", errors="replace")


def resume_night(path: Path) -> Night:
    """The night in the log at ``path``; raises :class:`LogFileError` saying what is wrong.

    Every line must be an event: a line cut short by a crash is refused with its number
    (:func:`set_aside_cut_line` keeps it aside first).
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise LogFileError(
            f"there is no party log {path}",
            expected="the FILE that bunco play printed when it stopped",
        ) from None
    except OSError as exc:
        raise LogFileError(f"cannot read {path}: {exc.strerror}", expected="a party log") from None
    try:
        return read_log(decode_lines(data))
    except LogError as exc:
        raise LogFileError(f"{path}: {exc.message}", expected=exc.expected) from None
