"""How many WebSocket messages a client may send: a budget per socket.

A page sends ``{"type": "ping"}`` every 10 seconds (six messages a minute) and nothing
else. Each socket has a bucket of :data:`BURST` messages that refills at :data:`RATE`
a second (30 a minute, five times a page's pace); a socket that empties it is closed
with 1008 (policy violation) by :class:`~bunco.web.server.connections.GuardedWebSocketProtocol`
before the messages past the budget reach the application. Every frame the client sends
counts: text, binary, WebSocket pings and pongs.

>>> budget = MessageBudget(burst=3, rate=1.0, now=0.0)
>>> [budget.take(0.0) for _ in range(4)]
[True, True, True, False]
>>> budget.take(1.0), budget.take(1.0)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

BURST = 30
"""Messages a socket may send at once (a page sends one every 10 s)."""
RATE = 0.5
"""Messages a second a socket earns back, up to :data:`BURST`."""
CLOSE_FLOOD = 1008
"""The close code of a socket past its budget (policy violation)."""


@dataclass(slots=True)
class MessageBudget:
    """A token bucket: :meth:`take` one message at ``now`` (seconds, monotonic)."""

    burst: float = BURST
    rate: float = RATE
    now: float = 0.0
    left: float = -1.0

    def __post_init__(self) -> None:
        if self.left < 0:
            self.left = self.burst

    def take(self, now: float) -> bool:
        """Spend one message; ``False`` when the budget is empty (nothing spent)."""
        self.left = min(self.burst, self.left + (now - self.now) * self.rate)
        self.now = now
        if self.left < 1:
            return False
        self.left -= 1
        return True
