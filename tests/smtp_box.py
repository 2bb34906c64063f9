"""A local SMTP server for the tests of the club's reminders: it keeps every message it
is given (envelope recipients and the raw message), on a free port of 127.0.0.1."""

from __future__ import annotations

import socket
from types import TracebackType
from typing import Any

from aiosmtpd.controller import Controller


class _Keep:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(
            {
                "from": envelope.mail_from,
                "rcpt": list(envelope.rcpt_tos),
                "data": envelope.original_content or envelope.content,
            }
        )
        return "250 Message accepted for delivery"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class SmtpBox:
    """``with SmtpBox() as box:`` a server on ``box.port``; ``box.messages`` after."""

    def __init__(self) -> None:
        self.port = _free_port()
        self._keep = _Keep()
        self._controller = Controller(self._keep, hostname="127.0.0.1", port=self.port)

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self._keep.messages

    def __enter__(self) -> SmtpBox:
        self._controller.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._controller.stop()
