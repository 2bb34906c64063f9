"""Who plays: turning ``--players`` and ``--human`` into names, humans and bots.

``--players`` is either a count (bots get friendly names) or a list of names; ``--human``
marks who plays at this keyboard. Named players are all humans unless some ``--human`` is
given, then only those are. A count includes the humans.

>>> r = make_roster("4", ["Ann"])
>>> r.players, r.bots
(('Ann', 'Bea', 'Cal', 'Dot'), ('Bea', 'Cal', 'Dot'))
>>> make_roster("Ann, Bo, Cy", []).bots
()
>>> make_roster("Ann,Bo,Cy", ["Bo"]).bots
('Ann', 'Cy')
>>> make_roster("3", [], all_bots=True).humans
()
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bunco.core.errors import InvalidSetup
from bunco.core.setup import MAX_PLAYERS

#: Friendly names for bots, in the order they are handed out (then "Bot 27", "Bot 28", ...).
BOT_NAMES = (
    "Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou",
    "Max", "Ned", "Oli", "Pam", "Quin", "Rae", "Sam", "Tess", "Uma", "Vic", "Wes", "Xia",
    "Yul", "Zoe",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Roster:
    """The night's players in seating order, and which of them are bots."""

    players: tuple[str, ...]
    bots: tuple[str, ...]

    @property
    def humans(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.bots)


def split_names(text: str) -> list[str]:
    """Names from ``"Ann, Bea Cat"``-style text: commas separate; without commas, spaces do.

    >>> split_names("Ann Marie, Bo")
    ['Ann Marie', 'Bo']
    >>> split_names("Ann Bo  Cy")
    ['Ann', 'Bo', 'Cy']
    """
    parts = text.split(",") if "," in text else text.split()
    return [" ".join(p.split()) for p in parts if p.strip()]


def bot_names(count: int, taken: Sequence[str]) -> list[str]:
    """``count`` friendly bot names that are not in ``taken``.

    >>> bot_names(2, ["Ann"])
    ['Bea', 'Cal']
    """
    used = {t.casefold() for t in taken}
    out: list[str] = []
    extra = len(BOT_NAMES) + 1
    pool = iter(BOT_NAMES)
    while len(out) < count:
        name = next(pool, None)
        if name is None:
            name = f"Bot {extra}"
            extra += 1
        if name.casefold() not in used:
            used.add(name.casefold())
            out.append(name)
    return out


def make_roster(spec: str, humans: Sequence[str], *, all_bots: bool = False) -> Roster:
    """The roster for ``--players SPEC`` and ``--human`` names; raises :class:`InvalidSetup`.

    ``all_bots`` (``--auto``) turns every player into a bot.
    """
    text = spec.strip()
    marked = [" ".join(h.split()) for h in humans if h.strip()]
    if _dupes(marked):
        raise InvalidSetup(f"--human {_dupes(marked)!r} is given twice", expected="each human once")
    if re.fullmatch(r"[+-]?\d+", text):
        count = int(text)
        if not 2 <= count <= MAX_PLAYERS:
            raise InvalidSetup(
                f"--players {count} is not a party",
                expected=f"a count from 2 to {MAX_PLAYERS}, or names such as --players Ann,Bea",
            )
        if len(marked) > count:
            raise InvalidSetup(
                f"{len(marked)} humans do not fit in {count} players",
                expected=f"--players {len(marked)} or more, or fewer --human names",
            )
        players = [*marked, *bot_names(count - len(marked), marked)]
        humans_set = set(marked)
    else:
        players = split_names(text)
        if len(players) < 2:
            raise InvalidSetup(
                f"--players {spec!r} names fewer than two players",
                expected="a count such as --players 4, or names such as --players Ann,Bea,Cat",
            )
        if _dupes(players):
            raise InvalidSetup(
                f"player {_dupes(players)!r} is named twice", expected="every name once"
            )
        unknown = [h for h in marked if h not in players]
        if unknown:
            raise InvalidSetup(
                f"--human {unknown[0]!r} is not one of --players {', '.join(players)}",
                expected=f"add {unknown[0]} to --players, or give --human one of those names",
            )
        humans_set = set(marked) if marked else set(players)
    if all_bots:
        humans_set = set()
    return Roster(tuple(players), tuple(p for p in players if p not in humans_set))


def _dupes(names: Sequence[str]) -> str | None:
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            return name
        seen.add(name.casefold())
    return None
