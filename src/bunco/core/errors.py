"""Typed errors of the rules engine.

Every error says what was wrong and what was expected instead, so a CLI, a web
page or a log reader can show it to a person as it is.

>>> err = InvalidDice("a die showed 7", expected="three faces, each from 1 to 6")
>>> str(err)
'a die showed 7; expected three faces, each from 1 to 6'
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def nearest(word: str, choices: Iterable[str]) -> str | None:
    """The choice closest to a mistyped ``word``, if one is close enough (difflib).

    >>> nearest("clasic", ["winning-moves", "classic", "scil"]), nearest("zzz", ["classic"])
    ('classic', None)
    """
    close = difflib.get_close_matches(word.strip().lower(), list(choices), n=1, cutoff=0.7)
    return close[0] if close else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'classic'?"`` for the nearest of ``choices``, or ``""``.

    >>> did_you_mean("wipout", ["wipeout", "quick_game"])
    "; did you mean 'wipeout'?"
    """
    close = nearest(word, choices)
    return f"; did you mean {close!r}?" if close else ""


def excerpt(text: str, limit: int = 300) -> str:
    """``text`` when it is short, else its first ``limit`` characters and how long it was:
    an error never echoes a whole bad line back.

    >>> excerpt("x" * 1000, 5)
    'xxxxx... (1,000 characters)'
    """
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters; never fails (Python has
    no text for an integer of more than 4,300 digits).

    >>> shown("Ann"), shown("x" * 100, 5), shown(10**5000)
    ("'Ann'", "'xxxx...", 'a number too long to show')
    """
    try:
        text = repr(value)
    except ValueError:
        return "a number too long to show"
    return text if len(text) <= limit else text[:limit] + "..."


class BuncoError(ValueError):
    """Base of every refusal: a bad input or a command that does not fit the state."""

    code = "bunco_error"

    def __init__(self, message: str, *, expected: str | None = None) -> None:
        self.message = message
        self.expected = expected
        text = message if expected is None else f"{message}; expected {expected}"
        super().__init__(text)

    def as_dict(self) -> dict[str, str | None]:
        """The error as plain data, for ``--json`` output and HTTP bodies."""
        return {"error": self.code, "message": self.message, "expected": self.expected}


class InvalidDice(BuncoError):
    """Faces that are not exactly three integers from 1 to 6."""

    code = "invalid_dice"


class InvalidTally(BuncoError):
    """A quick-tally outcome that does not exist or cannot happen in this round."""

    code = "invalid_tally"


class UnknownPreset(BuncoError):
    """A preset name that is not one of the presets or their aliases."""

    code = "unknown_preset"


class UnknownRule(BuncoError):
    """A house-rule name that is not a field of the rule set."""

    code = "unknown_rule"


class InvalidRuleValue(BuncoError):
    """A house-rule value of the wrong type or out of range."""

    code = "invalid_rule_value"


class InvalidSetup(BuncoError):
    """A party set-up (players, tables, sets, prizes) that cannot be played."""

    code = "invalid_setup"


class NotYourTurn(BuncoError):
    """A roll credited to a player whose turn it is not."""

    code = "not_your_turn"


class RoundOver(BuncoError):
    """A roll at a table where nobody may roll any more in this round."""

    code = "round_over"


class WrongTable(BuncoError):
    """A table number that does not exist, or a roll that needs a table and has none."""

    code = "wrong_table"


class NotAllowedNow(BuncoError):
    """A command that is valid in general but not in the present state of the night."""

    code = "not_allowed_now"


class InvalidEvent(BuncoError):
    """A malformed event: unknown type, missing or mistyped field."""

    code = "invalid_event"


class LogError(BuncoError):
    """A party log refused at one line; ``line`` is 1-based. Its message and what was
    expected are cut to a short excerpt (a bad value may be megabytes long)."""

    code = "log_error"

    def __init__(self, line: int, cause: BuncoError) -> None:
        self.line = line
        self.cause = cause
        expected = None if cause.expected is None else excerpt(cause.expected, 500)
        super().__init__(f"line {line}: {excerpt(cause.message)}", expected=expected)

    def as_dict(self) -> dict[str, str | None]:
        data = super().as_dict()
        data["line"] = str(self.line)
        data["cause"] = self.cause.code
        return data
