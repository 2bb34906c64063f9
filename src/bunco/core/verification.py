"""Which score cards are final: verified by a checker as they stand, or closed by the host.

With ``verify_for_prizes`` (seeds/004: "Wins, Bunco's & Mini Bunco's must be highlighted
by each team's assigned staff") only what a checker verified counts for prizes. A card is
**final** when its verified figures (Buncos, Minis, Wins) are the figures it shows now: a
card verified at a break that changes afterwards needs verifying again. The prizes (and
their roll-offs) wait, after the last round, until every present player's card is final,
or until the host closes the cards (``close_cards``), which names the cards left
unverified; those count what was verified of them (nothing, if never verified).

A night that does not verify has final cards the moment its last round ends.

>>> from bunco.core.night import Night
>>> night = Night.start({"rules": "tournament", "players": ["Ann", "Bea"]})
>>> night = night.apply({"type": "verify", "player": "Ann", "checker": "Staff 1"})
>>> verification_report(night)["cards"]["Ann"]
{'checker': 'Staff 1', 'after': None, 'current': True}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from typing_extensions import TypedDict

from bunco.core.cards import Card
from bunco.core.host_shapes import SetRound
from bunco.core.hosting import HostedNight, present


@dataclass(frozen=True, slots=True)
class Verification:
    """Who verified a card and when: ``after`` is the (set, round) last played then."""

    checker: str | None
    figures: tuple[int, int, int]  # Buncos, Minis, Wins as verified
    after: tuple[int, int] | None


class VerifyingNight(HostedNight, Protocol):
    """A night that records verifications (:class:`~bunco.core.night.Night`)."""

    @property
    def verifications(self) -> Mapping[str, Verification]: ...
    @property
    def sets(self) -> int: ...


def figures(card: Card) -> tuple[int, int, int]:
    """What a checker verifies on a card: Buncos, Minis, Wins."""
    return (card.buncos, card.minis, card.wins)


def card_final(night: VerifyingNight, name: str) -> bool:
    """True when ``name``'s card is verified as it stands now."""
    seen = night.verifications.get(name)
    return seen is not None and seen.figures == figures(night.cards[name])


def rounds_over(night: HostedNight) -> bool:
    """True once the last round was played (the night over, or only prize roll-offs left)."""
    return night.phase == "over" or (
        night.phase == "rolloff"
        and night.rolloff_for is not None
        and night.rolloff_for[0] == "prize"
    )


def awaiting_cards(night: VerifyingNight) -> tuple[str, ...]:
    """The present players whose cards the prizes wait for (empty once they are decided)."""
    if not night.rules.verify_for_prizes or night.prize_cards is not None:
        return ()
    if not rounds_over(night):
        return ()
    return tuple(p for p in present(night) if not card_final(night, p))


def waiting_for_cards(night: VerifyingNight) -> bool:
    """True after the last round while the prizes wait for cards to be verified."""
    return rounds_over(night) and night.prize_cards is None


class CardCheck(TypedDict):
    """Who verified a card, after which round, and whether that still stands."""

    checker: str | None
    after: SetRound | None
    current: bool


class VerificationReport(TypedDict):
    """The report's ``verification`` (:func:`verification_report`)."""

    required: bool
    cards: dict[str, CardCheck]  # player → their card's check
    unverified: list[str]
    waiting: bool
    awaiting: list[str]
    closed_unverified: list[str] | None


def verification_report(night: VerifyingNight) -> VerificationReport:
    """The report's ``verification``: whether the night verifies, each card's checker,
    when it was verified and whether that still stands, who the prizes wait for, and the
    cards the host closed unverified."""
    cards: dict[str, CardCheck] = {}
    for name in night.roster:
        seen = night.verifications.get(name)
        if seen is None:
            continue
        after: SetRound | None = (
            None if seen.after is None else {"set": seen.after[0], "round": seen.after[1]}
        )
        cards[name] = {"checker": seen.checker, "after": after, "current": card_final(night, name)}
    closed = night.host.closed_unverified
    return {
        "required": night.rules.verify_for_prizes,
        "cards": cards,
        "unverified": [p for p in night.roster if not card_final(night, p)]
        if night.rules.verify_for_prizes
        else [],
        "waiting": waiting_for_cards(night) and night.rules.verify_for_prizes,
        "awaiting": list(awaiting_cards(night)),
        "closed_unverified": None if closed is None else list(closed),
    }


def verified_text(night: VerifyingNight, name: str) -> str:
    """One card's verification in words, for the terminal and the sheets.

    >>> from bunco.core.night import Night
    >>> night = Night.start({"rules": "tournament", "players": ["Ann", "Bea"]})
    >>> verified_text(night, "Ann")
    'not verified'

    A card verified after the last round reads "verified by Staff 1 at the end, after
    round 6": when each card was last checked is on every sheet.
    """
    seen = night.verifications.get(name)
    if seen is None:
        return "not verified"
    by = f" by {seen.checker}" if seen.checker else ""
    when = "" if seen.after is None else f" after round {seen.after[1]}"
    if seen.after is not None and night.sets > 1:
        when = f" after set {seen.after[0]} round {seen.after[1]}"
    last = night.history[-1] if night.history else None
    if (
        rounds_over(night)
        and last is not None
        and seen.after == (last.set_no, last.round_no)
        and card_final(night, name)
    ):
        when = " at the end" + when.replace(" after", ", after")  # the seed's last check
    if not card_final(night, name):
        return f"verified{by}{when}; changed since: verify again"
    return f"verified{by}{when}"
