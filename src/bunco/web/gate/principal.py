"""Who is asking (:class:`Principal`): the night and role a token grants, a plain value.

The token book (:mod:`bunco.web.gate.auth`) finds it for a token; the rights a command is
decided with (:mod:`bunco.web.decision.rights`) read it, without the store.

>>> Principal("n1", "table", table=2).describe()
'the scorekeeper of table 2'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is asking: the night and role a token grants."""

    night_id: str
    role: str
    table: int | None = None
    player: str | None = None
    caller: str = ""
    """Whose command ids these are: the token's hash (its first 32 hex digits)."""

    def describe(self) -> str:
        """A short description for error messages."""
        if self.role == "table":
            return f"the scorekeeper of table {self.table}"
        if self.role == "player":
            return f"player {self.player}"
        return f"the {self.role}"
