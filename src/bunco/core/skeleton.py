"""Look-alike letters: the skeletons of Unicode's confusables (UTS #39, section 4), made
case-blind for people's names.

Unicode's ``confusables.txt`` maps each character that is drawn like another (Cyrillic
``А``, Cherokee ``Ꭺ``, Armenian ``ո``, the letter ``m`` and ``rn``) to a *prototype*;
two texts are confusable when their skeletons, every character replaced by its
prototype, are equal. The table is Unicode's, as the ``confusable-homoglyphs`` package
ships it (``confusables.json``, built from ``confusables.txt``, keeping each pair in both
directions): each class of look-alikes is a prototype and the characters that map to it.

Names ignore case, so a character and its case-folded form join their classes too:
small capital ``ᴀ`` is drawn as Cherokee ``ꭺ``, whose capital ``Ꭺ`` is drawn as ``A``.
A join of two classes that hold different Latin letters or digits is not made: the
capital and small forms of some scripts look like two different Latin letters (Warang
Citi's ``𑢦`` is drawn as ``E`` and its small ``𑣆`` as ``7``), and capital ``I``, drawn
as ``l``, does not make ``i`` an ``l``. Each class stands
for one member of it: its several-character prototype where it has one (``rn`` for
``m``), else its small Latin letter or digit, else its first character.

>>> key = lambda text: skeleton(text.casefold())
>>> key("Ann") == key("\\u0410nn") == key("\\u13aann") == key("Aոո") == key("ᴀnn")
True
>>> key("rn") == key("m"), key("Ann") == key("Anne")
(True, False)
>>> key("e") == key("7"), key("y") == key("r"), key("Eli") == key("Ell")
(False, False, False)
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources

_MARKS = str.maketrans("", "", "\u200e\u200f")
"""Direction marks the package's file puts around right-to-left characters (they are
no part of the characters)."""


class _Classes:
    """Union-find over the table's texts, each class knowing its Latin letters and digits."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}
        self.latin: dict[str, frozenset[str]] = {}

    def add(self, text: str) -> None:
        if text not in self.parent:
            self.parent[text] = text
            plain = len(text) == 1 and text.isascii() and text.isalnum()
            self.latin[text] = frozenset([text.casefold()] if plain else [])

    def root(self, text: str) -> str:
        while self.parent[text] != text:
            self.parent[text] = self.parent[self.parent[text]]
            text = self.parent[text]
        return text

    def join(self, a: str, b: str, *, keep_apart: bool) -> None:
        ra, rb = self.root(a), self.root(b)
        if ra == rb:
            return
        a_latin, b_latin = self.latin[ra], self.latin[rb]
        if keep_apart and a_latin and b_latin and a_latin != b_latin:
            return  # Latin letters (or digits) would join others they are not drawn like
        self.parent[rb] = ra
        self.latin[ra] |= self.latin.pop(rb)


@functools.cache
def _standing() -> dict[str, str]:
    """Each character of the table → the text that stands for its class."""
    pairs: dict[str, list[dict[str, str]]] = json.loads(
        (resources.files("confusable_homoglyphs") / "confusables.json").read_text("utf-8")
    )
    classes = _Classes()
    for text, others in pairs.items():
        for other in others:
            a, b = text.translate(_MARKS), other["c"].translate(_MARKS)
            classes.add(a)
            classes.add(b)
            classes.join(a, b, keep_apart=False)  # Unicode's own pairs
    singles = sorted(t for t in classes.parent if len(t) == 1)
    for char in sorted(singles, key=lambda c: not c.isascii()):  # Latin's own cases first
        folded = char.casefold()
        if len(folded) == 1 and folded != char:
            classes.add(folded)
            classes.join(char, folded, keep_apart=True)
    members: dict[str, list[str]] = {}
    for text in classes.parent:
        members.setdefault(classes.root(text), []).append(text)
    standing: dict[str, str] = {}
    for group in members.values():
        many = sorted(t for t in group if len(t) > 1)
        plain = sorted(t for t in group if t.isascii() and t.isalnum() and t == t.casefold())
        stand = many[0] if many else plain[0] if plain else min(group)
        standing.update({t: stand for t in group if len(t) == 1 and t != stand})
    return standing


def skeleton(text: str) -> str:
    """``text`` with every character replaced by the text that stands for its class of
    look-alikes (in normal form D, as UTS #39 does)."""
    standing = _standing()
    out = unicodedata.normalize("NFD", text)
    for _ in range(3):  # a several-character prototype: its characters stand for theirs
        mapped = unicodedata.normalize("NFD", "".join(standing.get(c, c) for c in out))
        if mapped == out:
            break
        out = mapped
    return out
