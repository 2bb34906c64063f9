"""The access log: one JSON line per request, on demand (``bunco serve --access-log FILE``,
``-`` for the standard output).

Each line holds when the request arrived (UTC, ISO 8601 with milliseconds), its method,
its path's **template** (``/api/nights/{night_id}/tables/{table}/rolls``: never the path
itself, so no night id, join code or name is written, and never the query, where tokens
travel), the status of the reply (``101`` for a WebSocket accepted; its line is written
when it closes), how long it took in milliseconds, and the client's address as the
trusted proxy reports it (``--trusted-proxy``; else the connection's).

>>> import io
>>> out = io.StringIO()
>>> log = AccessLog(out)
>>> log.write(1767225600.0, "GET", "/api/nights/{night_id}", 200, 0.0042, "192.0.2.7")
>>> out.getvalue()
'{"time":"2026-01-01T00:00:00.000Z","method":"GET","path":"/api/nights/{night_id}","status":200,"ms":4.2,"client":"192.0.2.7"}\\n'
"""

from __future__ import annotations

import json
import sys
import time
from typing import TextIO


class AccessLog:
    """Writes the lines to ``out`` (a file opened for appending, or the standard output),
    each line whole in one write (several processes may append to one file)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._owned = False

    @classmethod
    def open(cls, where: str) -> AccessLog:
        """The log at ``where``: a file name (appended to), or ``-`` (standard output)."""
        if where == "-":
            return cls(sys.stdout)
        log = cls(open(where, "a", encoding="utf-8", buffering=1))  # noqa: SIM115
        log._owned = True
        return log

    def write(
        self,
        arrived: float,
        method: str,
        path: str,
        status: int,
        seconds: float,
        client: str | None,
    ) -> None:
        """One line: ``arrived`` is a Unix time, ``seconds`` how long the request took."""
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(arrived))
        line = json.dumps(
            {
                "time": f"{stamp}.{int(arrived * 1000) % 1000:03d}Z",
                "method": method,
                "path": path,
                "status": status,
                "ms": round(seconds * 1000, 3),
                "client": client,
            },
            separators=(",", ":"),
            ensure_ascii=False,
        )
        self.out.write(line + "\n")
        self.out.flush()

    def close(self) -> None:
        """Close the file (not the standard output)."""
        if self._owned:
            self.out.close()
