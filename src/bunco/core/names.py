"""Names and short texts people type: one check for the API, the party log and the club log.

Every text is refused when it holds a control character (NUL, tab, newline, ...), a lone
surrogate, or a character that turns the text's direction around (bidi controls): none
belongs in a name, a prize or a currency sign, and PostgreSQL refuses NUL in text.

A person's name is stricter: it is put in Unicode normal form C (a composed ``é`` and an
``e`` with a combining accent are one spelling), runs of spaces are squeezed to one, and
an invisible character (zero-width space, joiner, byte-order mark, soft hyphen, filler)
is refused, so two names that look alike on a score card cannot hide a difference.

Two names are the same person when they look the same: :func:`name_key` ignores case and
spacing, folds compatibility forms (fullwidth ``Ａ``, ligatures) and maps the Cyrillic and
Greek letters that are drawn like Latin ones to those.

>>> person_name("  Ann   Marie ")
'Ann Marie'
>>> name_key("ＡＮＮ") == name_key("\\u0410nn") == name_key("ann")
True
>>> person_name("Ann\\u200b")
Traceback (most recent call last):
...
bunco.core.errors.InvalidSetup: name 'Ann\\u200b' holds an invisible character \
(U+200B ZERO WIDTH SPACE); expected a name of letters, digits, spaces and punctuation
"""

from __future__ import annotations

import unicodedata

from bunco.core.errors import BuncoError, InvalidSetup, shown

MAX_NAME = 60
"""The longest name, in characters (after spaces are squeezed)."""

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
"""Characters drawn as nothing that are not of the format category (Hangul fillers, the
braille blank, the combining grapheme joiner, Khmer inherent vowels)."""

_LOOK_ALIKES = str.maketrans(
    # Cyrillic capitals and small letters drawn as Latin ones
    "АВЕЅІЈКМНОРСТХУԚԜаеѕіјорсхуԁһԛԝӏ"
    # Greek capitals and small letters drawn as Latin ones
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοινκρυχ"
    # a Latin dotless i
    "ı",
    "ABESIJKMHOPCTXYQWaesijopcxydhqwlABEZHIKMNOPTYXoivkpuxi",
)


_CONTROL_NAMES = {0: "NUL", 9: "TAB", 10: "LINE FEED", 13: "CARRIAGE RETURN", 27: "ESCAPE"}


def _char_name(char: str) -> str:
    name = _CONTROL_NAMES.get(ord(char)) or unicodedata.name(char, "a control character")
    return f"U+{ord(char):04X} {name}"


def text_problem(value: str) -> str | None:
    """What is wrong with ``value`` as any text of the night, or ``None``.

    >>> text_problem("Best Costume") is None, text_problem("A\\x00B")
    (True, 'one of the control characters (NUL, tab, newline, ...): U+0000 NUL')
    """
    for char in value:
        category = unicodedata.category(char)
        if category == "Cc":
            return f"one of the control characters (NUL, tab, newline, ...): {_char_name(char)}"
        if category == "Cs":
            return f"a lone surrogate: U+{ord(char):04X}"
        if char in _BIDI:
            return f"a character that turns the text's direction: {_char_name(char)}"
    return None


def clean_text(value: str, what: str = "text", error: type[BuncoError] = InvalidSetup) -> str:
    """``value`` when it holds no control character, lone surrogate or bidi control.

    >>> clean_text("€")
    '€'
    >>> clean_text("$\\n", "currency")
    Traceback (most recent call last):
    ...
    bunco.core.errors.InvalidSetup: currency '$\\n' holds one of the control characters \
(NUL, tab, newline, ...): U+000A LINE FEED; expected text without control or direction characters
    """
    problem = text_problem(value)
    if problem is not None:
        raise error(
            f"{what} {_excerpt(value)} holds {problem}",
            expected="text without control or direction characters",
        )
    return value


def person_name(value: object, what: str = "name", error: type[BuncoError] = InvalidSetup) -> str:
    """A person's name in its one spelling: NFC, spaces squeezed, 1 to 60 characters,
    nothing invisible; raises ``error`` saying what is wrong."""
    if not isinstance(value, str) or not value.strip():
        raise error(f"{what} {_excerpt(value)} is not a name", expected="a non-empty name")
    clean_text(value, what, error)
    name = " ".join(unicodedata.normalize("NFC", value).split())
    for char in name:
        if unicodedata.category(char) == "Cf" or char in _FILLERS:
            raise error(
                f"{what} {_excerpt(value)} holds an invisible character ({_char_name(char)})",
                expected="a name of letters, digits, spaces and punctuation",
            )
    if len(name) > MAX_NAME:
        raise error(
            f"{what} {_excerpt(name)} is too long ({len(name)} characters)",
            expected=f"a name of at most {MAX_NAME} characters",
        )
    return name


def name_key(name: str) -> str:
    """The form under which two names are the same person: case, spacing, compatibility
    forms and Latin look-alikes from other scripts ignored.

    >>> name_key(" ann  Marie ") == name_key("ANN MARIE")
    True
    >>> name_key("Ａnn") == name_key("\\u0391nn") == name_key("Ann")
    True
    >>> name_key("Anne") == name_key("Ann")
    False
    """
    folded = unicodedata.normalize("NFKC", name).translate(_LOOK_ALIKES).casefold()
    visible = "".join(c for c in folded if unicodedata.category(c) != "Cf" and c not in _FILLERS)
    return " ".join(unicodedata.normalize("NFKC", visible).split())


def same_name(name: str, names: dict[str, str]) -> str | None:
    """The name in ``names`` (keyed by :func:`name_key`) that is ``name``'s person under
    another spelling, or ``None`` (also when it is the very same spelling)."""
    other = names.get(name_key(name))
    return other if other is not None and other != name else None


def _excerpt(value: object, limit: int = 40) -> str:
    """``value`` as a short repr: at most ``limit`` characters of it."""
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit]) + f"... ({len(value):,} characters)"
    return shown(value, limit + 2)
