"""Names people type: one check for the API, the party log and the club log.

Every text goes through :func:`bunco.core.text.clean_text` (no control, format, bidi or
line-separator character, nothing invisible-only). A person's name is stricter: it is put
in Unicode normal form C (a composed ``é`` and an ``e`` with a combining accent are one
spelling), runs of spaces are squeezed to one, and a character drawn as nothing (a
variation selector after a letter, a filler) is refused, so two names that look alike on
a score card cannot hide a difference.

Two names are the same person when they look the same: :func:`name_key` compares them by
a skeleton (Unicode's confusables, UTS #39, :mod:`bunco.core.skeleton`) after NFKC, with
case and spacing ignored and anything drawn as nothing left out.

>>> person_name("  Ann   Marie ")
'Ann Marie'
>>> len({name_key(n) for n in ("Ann", "ＡＮＮ", "\u0410nn", "A nn", "\u13aann", "ᴀnn", "Aոո")})
1
>>> person_name("Ann\u200b")
Traceback (most recent call last):
...
bunco.core.errors.InvalidSetup: name 'Ann\u200b' holds an invisible format character: U+200B ZERO WIDTH SPACE; expected text of letters, digits, spaces, punctuation and symbols, on one line
"""

from __future__ import annotations

import functools
import unicodedata

from bunco.core.errors import BuncoError, InvalidSetup
from bunco.core.skeleton import skeleton
from bunco.core.text import char_name, excerpt, invisible
from bunco.core.text import clean_text as clean_text  # the one check of every text
from bunco.core.text import text_problem as text_problem

MAX_NAME = 60
"""The longest name, in characters (after spaces are squeezed)."""
_SELECTORS = frozenset("\ufe0e\ufe0f")
"""Variation selectors: a symbol's text or emoji form (after a symbol, not a letter)."""


def person_name(value: object, what: str = "name", error: type[BuncoError] = InvalidSetup) -> str:
    """A person's name in its one spelling: NFC, spaces squeezed, 1 to 60 characters,
    nothing invisible; raises ``error`` saying what is wrong."""
    if not isinstance(value, str) or not value.strip():
        raise error(f"{what} {excerpt(value)} is not a name", expected="a non-empty name")
    clean_text(value, what, error)
    name = " ".join(unicodedata.normalize("NFC", value).split())
    hidden = [
        char
        for i, char in enumerate(name)
        if invisible(char)
        and not (char in _SELECTORS and i > 0 and unicodedata.category(name[i - 1]) in ("So", "Sk"))
    ]
    if hidden:
        shown_as = " ".join("".join(c for c in name if c not in hidden).split())
        raise error(
            f"{what} {excerpt(value)} holds an invisible character ({char_name(hidden[0])}): "
            f"it is drawn as {shown_as!r}",
            expected="a name of letters, digits, spaces and punctuation",
        )
    if len(name) > MAX_NAME:
        raise error(
            f"{what} {excerpt(name)} is too long ({len(name)} characters)",
            expected=f"a name of at most {MAX_NAME} characters",
        )
    return name


@functools.lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """The form under which two names are the same person: NFKC, spacing and anything
    drawn as nothing left out, case ignored, each character by its class of look-alikes
    (:func:`~bunco.core.skeleton.skeleton`). Capital ASCII letters are taken small
    first, so that ``I`` is ``i`` (and not the ``l`` it looks like).

    >>> name_key(" ann  Marie ") == name_key("ANN MARIE") == name_key("AnnMarie")
    True
    >>> name_key("Ａnn") == name_key("\u0391\u039d\u039d") == name_key("An\ufe0fn") == name_key("Ann")
    True
    >>> name_key("Anne") == name_key("Ann"), name_key("Ian") == name_key("ian")
    (False, True)
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c.lower() if c.isascii() else c for c in text if not _left_out(c))
    text = skeleton(text)
    for _ in range(3):  # a folded look-alike may be another's: fold and map again
        folded = skeleton(text.casefold())
        if folded == text:
            break
        text = folded
    return text


def _left_out(char: str) -> bool:
    return char.isspace() or invisible(char) or unicodedata.category(char) == "Cf"


def same_name(name: str, names: dict[str, str]) -> str | None:
    """The name in ``names`` (keyed by :func:`name_key`) that is ``name``'s person under
    another spelling, or ``None`` (also when it is the very same spelling)."""
    other = names.get(name_key(name))
    return other if other is not None and other != name else None
