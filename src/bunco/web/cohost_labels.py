"""How a co-host's token is labelled: ``co-host 2 · Bea`` in the token's ``player`` column,
so the co-hosts can be listed and revoked, and the audit list can say who sent a change.

>>> label(2, "Bea"), label(3, None), number_of("co-host 12 · Bea"), number_of("Ann")
('co-host 2 · Bea', 'co-host 3', 12, None)
"""

from __future__ import annotations

import re

LABEL = re.compile(r"^co-host (\d+)(?: · .*)?$")


def label(number: int, name: str | None) -> str:
    """The stored label of co-host ``number``."""
    name = " ".join((name or "").split())
    return f"co-host {number}" + (f" · {name}" if name else "")


def number_of(text: str | None) -> int | None:
    """The number in a co-host's label, or ``None`` for any other token."""
    found = LABEL.match(text or "")
    return int(found.group(1)) if found else None
