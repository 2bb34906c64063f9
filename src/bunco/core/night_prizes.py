"""The end of the night: the prizes decided from the cards (as verified, where the rules
say so), their roll-offs and a set's, the checkers' verifications, and the host's closing
of the cards that were not verified.

The functions here are methods of :class:`~bunco.core.night.Night` (its class body installs
each under its name with a leading underscore: :func:`end_night` is ``Night._end_night``),
so they take the night as ``self`` and return a new one. The prizes themselves are
decided by :mod:`bunco.core.prizes`; what the checkers verify is :mod:`bunco.core.verification`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bunco.core.cards import Card
from bunco.core.errors import InvalidEvent, InvalidSetup, NotAllowedNow
from bunco.core.events import ScoringEvent, VerifyEvent
from bunco.core.evolve import evolve
from bunco.core.host_events import CloseCardsEvent
from bunco.core.hosting import apply_host_event
from bunco.core.prizes import PrizeResult, decide_prizes, rolloffs_again
from bunco.core.rolloff import RollOff
from bunco.core.rules import PrizeTies
from bunco.core.verification import Verification, awaiting_cards, figures, waiting_for_cards

if TYPE_CHECKING:
    from bunco.core.night import Night


def end_night(self: Night, cards: dict[str, Card] | None = None) -> Night:
    """Decide the prizes (from ``cards`` when given, else from the cards as they stand).

    With ``verify_for_prizes`` the prizes wait for every present player's card to be
    final (bunco.core.verification): until then the night is over with no prizes.
    """
    if cards is None and self.rules.verify_for_prizes and self.host.closed_unverified is None:
        waiting = evolve(
            self,
            prizes=(),
            prize_cards=None,
            phase="over",
            tables=(),
            rolloff=None,
            rolloff_for=None,
        )
        if awaiting_cards(waiting):
            return waiting
    cards = self._prize_cards() if cards is None else cards
    night = evolve(
        self,
        prizes=tuple(self._prizes_of(cards)),
        prize_cards=cards,
        phase="over",
        tables=(),
        rolloff=None,
        rolloff_for=None,
    )
    return night._next_prize_rolloff()


def prizes_of(self: Night, cards: dict[str, Card]) -> list[PrizeResult]:
    """The prizes the rules give, decided from ``cards``
    (:func:`~bunco.core.prizes.decide_prizes`)."""
    return decide_prizes(
        [p.value for p in self.rules.prizes],
        cards,
        shared=self.rules.prize_ties is PrizeTies.SHARED,
        last_bunco=self.last_bunco,
        traveler=self.traveler,
        groups=self.groups if self.rules.prize_groups else None,
        mini_label=self.rules.mini_label,
    )


def prizes_again(self: Night) -> tuple[Night, list[str]]:
    """The prizes decided again from the corrected cards (a correction after they were
    decided): a roll-off whose prize is tied again among the same players is kept (its
    winner, or the roll-off under way goes on); one whose tie the correction broke is
    cancelled; a new tie is rolled off. Returns the night and what became of each
    roll-off, in words."""
    under_way = self.rolloff_for[1] if self.rolloff_for and self.rolloff_for[0] == "prize" else None
    cards = self._prize_cards()
    prizes, resume, words = rolloffs_again(self.prizes, self._prizes_of(cards), under_way)
    night = evolve(
        self,
        prizes=tuple(prizes),
        prize_cards=cards,
        phase="over",
        tables=(),
        rolloff=None,
        rolloff_for=None,
    )
    if resume is not None:
        return evolve(
            night, phase="rolloff", rolloff=self.rolloff, rolloff_for=("prize", resume)
        ), words
    night = night._next_prize_rolloff()
    if night.rolloff is not None and night.rolloff_for is not None:
        prize = night.prizes[night.rolloff_for[1]]
        named = prize.label + (f" ({prize.group})" if prize.group else "")
        fresh = f"{named}: a roll-off among {', '.join(prize.candidates)} is due"
        if not any(w.startswith(f"{named}:") for w in words):
            words.append(fresh)
    return night, words


def prize_cards(self: Night) -> dict[str, Card]:
    """The cards prizes count: with ``verify_for_prizes``, the last verified figures."""
    if not self.rules.verify_for_prizes:
        return self.cards
    return {name: self._prize_card(name) for name in self.cards}


def prize_card(self: Night, name: str) -> Card:
    """``name``'s card as the prizes count it: with ``verify_for_prizes``, its last
    verified figures."""
    card = self.cards[name]
    if not self.rules.verify_for_prizes:
        return card
    buncos, minis, wins = self.verified.get(name, (0, 0, 0))
    return Card(buncos=buncos, minis=minis, wins=wins, losses=card.losses, points=card.points)


def next_prize_rolloff(self: Night) -> Night:
    """The first prize still tied begins its roll-off; with none, the night is over."""
    for index, prize in enumerate(self.prizes):
        if prize.settled_by == "pending_roll_off":
            label = prize.label + (f" ({prize.group})" if prize.group else "")
            rolloff = RollOff.begin(  # for the round just completed, as a set's roll-off
                label, prize.candidates, round_no=self.round_no, goal=self.rules.roll_off_target
            )
            return evolve(self, phase="rolloff", rolloff=rolloff, rolloff_for=("prize", index))
    return evolve(self, phase="over", rolloff=None, rolloff_for=None)


def rolloff_roll(self: Night, ev: ScoringEvent) -> Night:
    """A roll in the roll-off under way: once it has a winner, it settles the set (the
    night goes on) or the prize."""
    rolloff = self.rolloff
    assert rolloff is not None and self.rolloff_for is not None
    if ev.get("table") is not None:
        raise NotAllowedNow(
            f"a roll-off for {rolloff.purpose} is due, not play at a table",
            expected=f"a roll with no table by {rolloff.roller}",
        )
    roller = rolloff.roller
    assert roller is not None
    self._check_player(ev, roller, None)
    dice = self._dice_of(ev, rolloff.ordering, "the roll-off")
    done = rolloff.roll(dice, self.rules)
    night = evolve(self, rolloff=done, started=True)
    if done.winner is None:
        return night
    what, index = self.rolloff_for
    night = evolve(night, rolloff=None, rolloff_for=None)
    if what == "set":
        sets = list(night.set_results)
        sets[-1] = evolve(sets[-1], winner=done.winner, settled_by="roll_off")
        night = evolve(night, set_results=tuple(sets))._new_period()
        return night._after_set(self.history[-1])
    prizes = list(night.prizes)
    prizes[index] = evolve(prizes[index], winners=(done.winner,), settled_by="roll_off")
    return evolve(night, prizes=tuple(prizes))._next_prize_rolloff()


def verify(self: Night, ev: VerifyEvent) -> Night:
    """A checker verifies a card: what it shows now counts for prizes (004)."""
    name = ev["player"]
    if name not in self.cards:
        raise InvalidSetup(
            f"{name!r} is not a player tonight", expected="one of " + ", ".join(self.roster)
        )
    card = self.cards[name]
    last = self.history[-1] if self.history else None
    seen = Verification(
        ev.get("checker"), figures(card), None if last is None else (last.set_no, last.round_no)
    )
    night = evolve(
        self,
        verified={**self.verified, name: seen.figures},
        verifications={**self.verifications, name: seen},
    )
    if not self.rules.verify_for_prizes:
        return night
    if waiting_for_cards(self):  # 004: the staff verify after the last round
        return night._decide_when_final()
    prizes_decided = self.phase == "over" or (
        self.rolloff_for is not None and self.rolloff_for[0] == "prize"
    )
    if not prizes_decided or self.verified.get(name) == seen.figures:
        return night  # during the night, or nothing the prizes count changed
    started = any(p.settled_by == "roll_off" for p in self.prizes) or (
        self.rolloff is not None and bool(self.rolloff.rolls)
    )
    if started:
        raise NotAllowedNow(
            "the prize roll-offs have begun, so cards can no longer be verified",
            expected="verifications before the first roll-off roll",
        )
    # only this card changed: decide again from the cards used last time, one replaced
    cards = dict(self.prize_cards) if self.prize_cards is not None else None
    if cards is not None:
        cards[name] = night._prize_card(name)
    return night._end_night(cards)


def decide_when_final(self: Night) -> Night:
    """After the last round, the prizes once every present player's card is final."""
    if not (self.rules.verify_for_prizes and waiting_for_cards(self)):
        return self
    return self if awaiting_cards(self) else self._end_night()


def close_cards(self: Night, ev: CloseCardsEvent) -> Night:
    """The host gives the prizes from the cards as verified, naming those that are not."""
    if not self.rules.verify_for_prizes:
        raise NotAllowedNow(
            "tonight's cards need no verifying, so there are none to close",
            expected="close_cards only on a night that verifies cards for prizes",
        )
    if not waiting_for_cards(self):
        doing = (
            "the prizes are decided"
            if self.prize_cards is not None
            else ("the last round has not been played")
        )
        raise NotAllowedNow(
            f"there are no cards to close: {doing}",
            expected="close_cards after the last round, while the prizes wait for cards",
        )
    waiting = awaiting_cards(self)
    if sorted(ev["unverified"]) != sorted(waiting):
        raise InvalidEvent(
            "the cards not verified as they stand are "
            + ", ".join(waiting)
            + ", not "
            + (", ".join(ev["unverified"]) or "none"),
            expected='"unverified": [' + ", ".join(f'"{p}"' for p in waiting) + "]",
        )
    return apply_host_event(self, ev)._end_night()
