"""The host's words at the ``bunco play`` prompt for what the host page has beside the dice:
verifying cards, judged prizes, who went home, breaks, drawings and closing the cards.

Each word becomes one event of the party log, applied through the driver (so the log
keeps it, and the engine may refuse it with what to type instead). The words:

- ``verify Ann`` (or ``verify all``; ``verify Ann by Staff 1`` names the checker)
- ``judge best costume: Ann`` or ``judge best costume Team 1: Ann, Bea`` (a ranking: the
  winner first, then who comes next if passed over)
- ``absent Ann`` / ``present Ann``
- ``break`` or ``break 10`` (minutes), ``endbreak``
- ``draw`` or ``draw Door prize`` (a drawing among the players present, with
  :func:`secrets.randbelow`), ``draw! Door prize`` leaves out earlier winners
- ``close`` (after the last round: the prizes from the cards as verified; it names the
  cards not verified and asks ``close yes`` to go ahead)

>>> parse_host_word("judge best costume Team 1: Ann, Bea")
HostWord(word='judge', names=('Ann', 'Bea'), text='best costume Team 1', group=None)
>>> parse_host_word("verify Ann by Staff 1")
HostWord(word='verify', names=('Ann',), text='Staff 1', group=None)
>>> parse_host_word("roll") is None
True
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TypeAlias

from bunco.core.errors import BuncoError, NotAllowedNow
from bunco.core.events import VerifyEvent
from bunco.core.host_events import BreakEvent, HostEvent, JudgeEvent
from bunco.core.hosting import drawing_event, judged_prizes, prize_key
from bunco.core.verification import awaiting_cards, waiting_for_cards
from bunco.play.driver import Driver

WORDS = ("verify", "judge", "absent", "present", "break", "endbreak", "draw", "draw!", "close")

HOST_HELP = """\
The host, at any time (as on the host page):
  [bold]verify Ann[/]  [bold]verify all[/]  a checker verifies cards ([bold]verify Ann by Staff 1[/])
  [bold]judge best costume: Ann[/]  a judged prize ([bold]judge best costume Team 1: Ann, Bea[/])
  [bold]absent Ann[/]  [bold]present Ann[/]  who has gone home, who is back
  [bold]break 10[/]  a break (minutes)   [bold]endbreak[/]   [bold]draw Door prize[/]  a drawing
  [bold]close[/]  after the last round: the prizes from the cards as verified"""


class HostWordError(BuncoError):
    """A host's word that does not parse."""

    code = "bad_input"


@dataclass(frozen=True, slots=True)
class HostWord:
    """One parsed host's word: the word, the names it gives, its text (the checker, the
    prize key, the minutes or the drawing's name) and a group."""

    word: str
    names: tuple[str, ...] = ()
    text: str = ""
    group: str | None = None


def _names(text: str) -> tuple[str, ...]:
    return tuple(" ".join(n.split()) for n in text.split(",") if n.strip())


def parse_host_word(line: str) -> HostWord | None:
    """The host's word on ``line``, or None when the line is not one; raises
    :class:`HostWordError` for a host's word that lacks what it needs."""
    text = " ".join(line.split())
    head, _, rest = text.partition(" ")
    word = head.lower()
    if word not in WORDS:
        return None
    if word == "verify":
        who, _, checker = rest.partition(" by ")
        if not who.strip():
            raise HostWordError(
                "verify needs a player (or all)", expected="verify Ann, or verify all"
            )
        return HostWord(word, _names(who), checker.strip())
    if word == "judge":
        prize, colon, ranking = rest.partition(":")
        if not colon or not prize.strip() or not _names(ranking):
            raise HostWordError(
                f"judge needs a prize, a colon and the winner, got {rest!r}",
                expected="judge best costume: Ann (with groups: judge best costume Team 1: Ann)",
            )
        return HostWord(word, _names(ranking), prize.strip())
    if word in ("absent", "present"):
        if not rest:
            raise HostWordError(f"{word} needs a player", expected=f"{word} Ann")
        return HostWord(word, (rest,))
    if word == "break":
        if rest and not rest.isdigit():
            raise HostWordError(
                f"break {rest!r}: minutes are a whole number", expected="break, or break 10"
            )
        return HostWord(word, (), rest)
    return HostWord(word, (), rest)


def _judge(driver: Driver, said: HostWord) -> JudgeEvent:
    """The judge event: the prize's key (and group) found in what the host typed."""
    night = driver.night
    typed = said.text
    grouped = bool(night.groups) and night.rules.prize_groups
    for group in sorted(night.groups, key=len, reverse=True) if grouped else ():
        if typed.lower().endswith(" " + group.lower()):
            key = prize_key(typed[: -len(group)])
            return {"type": "judge", "prize": key, "group": group, "ranking": list(said.names)}
    key = prize_key(typed)
    known = [p.key for p in judged_prizes(night.setup)]
    if grouped and key in known:
        raise HostWordError(
            f"{typed} is judged per group",
            expected=f"judge {typed} GROUP: Ann, GROUP one of "
            + ", ".join(night.groups)
            + f" (or judge group {typed}: a group)",
        )
    return {"type": "judge", "prize": key, "ranking": list(said.names)}


HostWordEvent: TypeAlias = VerifyEvent | HostEvent
"""An event a host's word stands for."""


def _verify(player: str, checker: str) -> VerifyEvent:
    event: VerifyEvent = {"type": "verify", "player": player}
    if checker:
        event["checker"] = checker
    return event


def host_events(driver: Driver, said: HostWord) -> list[HostWordEvent]:
    """The events a host's word stands for (a drawing drawn now)."""
    night = driver.night
    if said.word == "verify":
        names = list(night.roster) if said.names == ("all",) else list(said.names)
        return [_verify(n, said.text) for n in names]
    if said.word == "judge":
        return [_judge(driver, said)]
    if said.word == "absent":
        return [{"type": "absent", "player": said.names[0]}]
    if said.word == "present":
        return [{"type": "present", "player": said.names[0]}]
    if said.word == "break":
        pause: BreakEvent = {"type": "break"}
        if said.text:
            pause["minutes"] = int(said.text)
        return [pause]
    if said.word == "endbreak":
        return [{"type": "end_break"}]
    if said.word in ("draw", "draw!"):
        return [
            drawing_event(
                night,
                secrets.randbelow,
                exclude_winners=said.word == "draw!",
                name=said.text or None,
            )
        ]
    waiting = awaiting_cards(night)
    if not waiting_for_cards(night):
        raise NotAllowedNow(
            "there are no cards to close",
            expected="close after the last round, while the prizes wait for cards",
        )
    if said.text.lower() != "yes":
        raise NotAllowedNow(
            "closing gives the prizes from the cards as verified; not verified as they stand: "
            + ", ".join(waiting),
            expected="close yes to go ahead, or verify them first (verify all)",
        )
    return [{"type": "close_cards", "unverified": list(waiting)}]


def run_host_word(driver: Driver, said: HostWord) -> str:
    """Apply a host's word; returns what happened, in words (refusals raise)."""
    events = host_events(driver, said)
    for event in events:
        driver.submit(event)
    last = events[-1]
    if last["type"] == "verify":
        return f"✓ verified: {', '.join(e['player'] for e in events if e['type'] == 'verify')}"
    if last["type"] == "drawing":
        return f"🎉 {last.get('name') or 'The drawing'}: {last['winner']}!"
    if last["type"] == "close_cards":
        return "✓ the cards are closed: the prizes are decided"
    return {
        "judge": f"✓ {', '.join(said.names)} named for {said.text}",
        "absent": f"✓ {said.names[0] if said.names else ''} has gone home",
        "present": f"✓ {said.names[0] if said.names else ''} is back",
        "break": "✓ the break begins",
        "end_break": "✓ the break is over",
    }[last["type"]]
