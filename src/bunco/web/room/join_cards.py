"""The tables' current join codes, kept readable for the night's hosts.

A table's join code and QR token are printed on its card and lie on the table all night,
so every host of the night (the host's phones and the co-hosts) may show and print them
again: each one issued (at the night's creation, and each "New code") is kept with the
night's server options under ``join_cards`` beside the hash that checks it, replaced
when the table gets a new one. Bearer tokens (host, co-host, viewer, table, player) are
still kept only as hashes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from bunco.web.decision.night_options import cards_kept
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.night.service import NightService

KEY: Final = "join_cards"


def kept_cards(live: LiveNight) -> dict[int, tuple[str, str]]:
    """Each table's current code and join token, as kept (tables without one left out)."""
    kept = live.options.get(KEY) or {}
    out: dict[int, tuple[str, str]] = {}
    for table, card in kept.items():
        if isinstance(card, Mapping) and isinstance(card.get("code"), str):
            out[int(table)] = (str(card["code"]), str(card.get("token", "")))
    return dict(sorted(out.items()))


async def keep_cards(
    svc: NightService,
    live: LiveNight,
    cards: Mapping[int, tuple[str, str]],
    *,
    replace: bool = True,
) -> None:
    """Keep ``cards`` (table → code and join token) with the night; ``replace=False`` keeps
    a table's card already kept (a retried creation replays the first codes, which a "New
    code" may have replaced since)."""
    await svc.change_options(live, cards_kept(KEY, cards, replace=replace))
