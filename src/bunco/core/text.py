"""The one check of every text a person sends: names, prizes, announcements, reasons,
currencies, a club's fields.

A text is refused when it holds:

- a control character (NUL, tab, newline, ...: category Cc) or a lone surrogate (Cs);
- a character that turns the text's direction around (the bidi controls);
- a line or paragraph separator (U+2028, U+2029: Zl, Zp), which some readers take for
  the end of a line of a party log;
- any other format character (Cf: zero-width space, joiners, soft hyphen, byte-order
  mark, tags), drawn as nothing: the one exception is the zero-width joiner inside an
  emoji sequence (a family, a flag: between two symbols);
- nothing visible at all: only spaces and characters drawn as nothing (variation
  selectors, Hangul fillers, the braille blank...).

A person's name is checked further by :mod:`bunco.core.names`.

>>> text_problem("Pizza's here 🍕") is None, text_problem("👩\u200d💻 Ann") is None
(True, True)
>>> text_problem("A\\u2028B")
'a line or paragraph separator: U+2028 LINE SEPARATOR'
>>> text_problem("\\u200b")
'an invisible format character: U+200B ZERO WIDTH SPACE'
>>> text_problem("\\u3164 \\ufe0f")
'nothing visible (only spaces and invisible characters: U+3164 HANGUL FILLER)'
"""

from __future__ import annotations

import unicodedata

from bunco.core.errors import BuncoError, InvalidSetup, shown

BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The characters that turn a text's direction (Unicode's Bidi_Control property)."""
FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
"""Characters drawn as nothing that are not of the format category (Hangul fillers, the
braille blank, the combining grapheme joiner, Khmer inherent vowels)."""
_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt), which
Python's ``unicodedata`` does not carry: code points drawn as nothing."""
ZWJ = "\u200d"
_CONTROL_NAMES = {0: "NUL", 9: "TAB", 10: "LINE FEED", 13: "CARRIAGE RETURN", 27: "ESCAPE"}
EXPECTED = "text of letters, digits, spaces, punctuation and symbols, on one line"


def invisible(char: str) -> bool:
    """Whether ``char`` is drawn as nothing (default-ignorable, or a filler).

    >>> invisible("\\ufe0f"), invisible("\\u2800"), invisible("a"), invisible(" ")
    (True, True, False, False)
    """
    if char in FILLERS:
        return True
    point = ord(char)
    return any(low <= point <= high for low, high in _IGNORABLE_RANGES)


def char_name(char: str) -> str:
    """``U+XXXX NAME`` of a character, for messages."""
    name = _CONTROL_NAMES.get(ord(char)) or unicodedata.name(char, "a control character")
    return f"U+{ord(char):04X} {name}"


def _emoji_joiner(value: str, i: int) -> bool:
    """Whether the zero-width joiner at ``value[i]`` joins two symbols (an emoji sequence:
    👩‍💻, 🏳️‍🌈), skipping a variation selector or a skin tone before it."""
    before = value[:i].rstrip("\ufe0f\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff")
    after = value[i + 1 : i + 2]
    return (
        bool(before)
        and bool(after)
        and unicodedata.category(before[-1]) == "So"
        and unicodedata.category(after) == "So"
    )


def text_problem(value: str) -> str | None:
    """What is wrong with ``value`` as any text a person sends, or ``None``.

    >>> text_problem("Best Costume") is None, text_problem("A\\x00B")
    (True, 'one of the control characters (NUL, tab, newline, ...): U+0000 NUL')
    """
    for i, char in enumerate(value):
        category = unicodedata.category(char)
        if category == "Cc":
            return f"one of the control characters (NUL, tab, newline, ...): {char_name(char)}"
        if category == "Cs":
            return f"a lone surrogate: U+{ord(char):04X}"
        if category in ("Zl", "Zp"):
            return f"a line or paragraph separator: {char_name(char)}"
        if char in BIDI:
            return f"a character that turns the text's direction: {char_name(char)}"
        if category == "Cf" and not (char == ZWJ and _emoji_joiner(value, i)):
            return f"an invisible format character: {char_name(char)}"
    if value and all(char.isspace() or invisible(char) for char in value):
        hidden = next((char for char in value if not char.isspace()), None)
        such = f": {char_name(hidden)}" if hidden else ""
        return f"nothing visible (only spaces and invisible characters{such})"
    return None


def excerpt(value: object, limit: int = 40) -> str:
    """``value`` as a short repr: at most ``limit`` characters of it."""
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit]) + f"... ({len(value):,} characters)"
    return shown(value, limit + 2)


def clean_text(value: str, what: str = "text", error: type[BuncoError] = InvalidSetup) -> str:
    """``value`` when :func:`text_problem` finds nothing wrong; else raises ``error``
    saying what is wrong and what is expected.

    >>> clean_text("€")
    '€'
    >>> clean_text("$\\n", "currency")
    Traceback (most recent call last):
    ...
    bunco.core.errors.InvalidSetup: currency '$\\n' holds one of the control characters \
(NUL, tab, newline, ...): U+000A LINE FEED; expected text of letters, digits, spaces, \
punctuation and symbols, on one line
    """
    problem = text_problem(value)
    if problem is not None:
        holds = "is" if problem.startswith("nothing") else "holds"
        raise error(f"{what} {excerpt(value)} {holds} {problem}", expected=EXPECTED)
    return value
