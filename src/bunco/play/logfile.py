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

import codecs
import datetime as dt
import json
import os
import shutil
from pathlib import Path
from typing import IO

from bunco.core.errors import BuncoError, LogError, excerpt
from bunco.core.events import Event, dump_event
from bunco.core.night import Night
from bunco.core.party_log import MAX_LINE, read_log_stream
from bunco.core.party_setup import PartyLine

_CHUNK = 1 << 16


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
    def create(cls, path: Path, party: PartyLine, *, overwrite: bool = False) -> PartyLog:
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
            with path.open("rb") as raw:
                size = raw.seek(0, os.SEEK_END)
                ends_a_line = size == 0 or (raw.seek(size - 1) >= 0 and raw.read(1) == b"\n")
            handle = path.open("a", encoding="utf-8")
        except OSError as exc:
            raise LogFileError(
                f"cannot append to {path}: {exc.strerror}", expected="a writable party log"
            ) from None
        if not ends_a_line and path.stat().st_size:
            handle.write("\n")
        return cls(path, handle)

    def append(self, event: Event) -> None:
        """Write one accepted event and flush it (a crash of the program loses nothing)."""
        self._write(event)

    def _write(self, data: PartyLine | Event) -> None:
        self._handle.write(dump_event(data) + "\n")
        self._handle.flush()
        if self.sync:
            try:
                os.fsync(self._handle.fileno())
            except OSError:  # pragma: no cover - pipes and odd filesystems
                self.sync = False

    def close(self) -> None:
        self._handle.close()


def _last_line(raw: IO[bytes]) -> tuple[int, int]:
    """Where the last line with something on it starts and ends in ``raw`` (byte offsets;
    ``(0, 0)`` for a file of blank lines), found from the end a chunk at a time."""
    end = raw.seek(0, os.SEEK_END)
    pos, content_end = end, None
    while pos > 0:
        step = min(_CHUNK, pos)
        pos -= step
        raw.seek(pos)
        chunk = raw.read(step)
        if content_end is None:
            kept = len(chunk.rstrip())
            if kept == 0:
                continue
            content_end, chunk = pos + kept, chunk[:kept]
        newline = chunk.rfind(b"\n")
        if newline >= 0:
            return pos + newline + 1, content_end
    return 0, content_end or 0


_LITERALS = ("true", "false", "null", "-")


def _cut_short(line: bytes) -> bool:
    """True when ``line`` is the start of a JSON object that stops early, as a line the
    program was writing when it stopped: UTF-8 (a character may be cut at the very end),
    a ``{`` first, and JSON that only runs out. A line that is whole JSON, or broken in
    its middle (a byte that is not UTF-8, a stray character), is no cut line."""
    if len(line) > MAX_LINE:
        return False
    try:
        text = codecs.getincrementaldecoder("utf-8")().decode(line, final=False)
    except UnicodeDecodeError:
        return False
    text = text.rstrip()
    if not text.startswith("{"):
        return False
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg.startswith("Unterminated string") or exc.pos >= len(text):
            return True
        rest = text[exc.pos :]
        return exc.msg == "Expecting value" and any(w.startswith(rest) for w in _LITERALS)
    except (ValueError, RecursionError):
        return False
    return False  # whole JSON: an event (or not) that resume_night will judge


def set_aside_cut_line(path: Path) -> tuple[Path, str] | None:
    """Keep aside a last line cut short by a crash, so that the log can be resumed.

    A log is written a whole line at a time; a last line that starts a JSON object and
    stops early was cut short while being written, whether or not a newline followed it (an
    editor or another program may have added one). A last line broken in its middle (not
    UTF-8, not a JSON object) is no cut line: :func:`resume_night` refuses it by number. The file as it was is copied to a backup
    (``night.jsonl.bak``, or ``night.jsonl.2.bak``, ...) and the log is cut back to its
    last whole line. Returns the backup and (a short excerpt of) the line set aside, or
    None when the log ends cleanly (or is broken before its last line: then nothing is
    touched). Nothing is ever dropped without this. The file is read a line at a time.
    """
    try:
        with path.open("rb") as raw:
            cut, end = _last_line(raw)
            if end == 0:
                return None
            raw.seek(cut)
            line = raw.read(min(end - cut, MAX_LINE + 1))
            if not _cut_short(line):
                return None  # a whole event (perhaps only lacking its newline), or a broken line
            raw.seek(0)
            try:
                read_log_stream(raw, limit=cut)
            except LogError:
                return None  # not a log cut short but a broken file: resume_night says where
    except OSError:
        return None  # resume_night says what is wrong with the path
    backup = path.with_name(path.name + ".bak")
    n = 1
    while backup.exists():
        n += 1
        backup = path.with_name(f"{path.name}.{n}.bak")
    try:
        shutil.copyfile(path, backup)
        with path.open("r+b") as raw:
            raw.truncate(cut)
    except OSError as exc:
        raise LogFileError(
            f"the last line of {path} was cut short, and it cannot be set aside: {exc.strerror}",
            expected="a party log in a folder you may write to",
        ) from None
    return backup, excerpt(line[:1000].decode("utf-8", errors="replace"), 200)


def resume_night(path: Path) -> Night:
    """The night in the log at ``path``; raises :class:`LogFileError` saying what is wrong.

    Every line must be an event: a line cut short by a crash is refused with its number
    (:func:`set_aside_cut_line` keeps it aside first). The log is read a line at a time.
    """
    try:
        with path.open("rb") as raw:
            return read_log_stream(raw)
    except FileNotFoundError:
        raise LogFileError(
            f"there is no party log {path}",
            expected="the FILE that bunco play printed when it stopped",
        ) from None
    except OSError as exc:
        raise LogFileError(f"cannot read {path}: {exc.strerror}", expected="a party log") from None
    except LogError as exc:
        raise LogFileError(f"{path}: {exc.message}", expected=exc.expected) from None
