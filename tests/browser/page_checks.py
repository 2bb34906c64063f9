"""What every page a host or guest sees must hold to, measured in the browser at 390×844
(issue 36): how many phone screens tall it is, tap targets of 44×44 px at least, nothing
wider than the phone, plain words (none of the words that belong to programmers), and
axe-core with no serious or critical violation."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page

from .conftest import PHONE, axe

SCREEN = PHONE["height"]
MOST_SCREENS = 4.0
"""The host page, in every moment of the night and every tab, at 12 and 120 players."""

PROGRAMMER_WORDS = re.compile(
    r"\b(tokens?|seq|outbox(es)?|wake ?lock|json|secure page|websockets?|api|event log)\b",
    re.IGNORECASE,
)
"""Words a host or guest must never read on a page (issue 36)."""

SMALL_TARGETS = """() => {
  // checkVisibility: not in a closed <details>, not display:none, not visibility:hidden
  const shown = (el) => el.checkVisibility({ visibilityProperty: true });
  const out = [];
  const controls = "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=tab]";
  for (const el of document.querySelectorAll(controls)) {
    if (!shown(el) || el.closest(".sr-only, .keep-awake") || el.getAttribute("aria-hidden") === "true") continue;
    // a box or a round choice is tapped anywhere on its label
    const box = el.matches("input[type=checkbox], input[type=radio]") && el.closest("label") ? el.closest("label") : el;
    const r = box.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) {
      const name = (el.id ? "#" + el.id : el.tagName.toLowerCase()) + " " + (el.textContent || el.value || el.getAttribute("aria-label") || "").trim().slice(0, 30);
      out.push(`${name} (${Math.round(r.width)}×${Math.round(r.height)})`);
    }
  }
  return out;
}"""

# the words a person reads: the text shown, and what the controls say (labels, hints)
READ_WORDS = """() => {
  const shown = (el) => el.checkVisibility({ visibilityProperty: true });
  const said = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll("[aria-label], [placeholder], [title], img[alt]")) {
    if (!shown(el)) continue;
    for (const a of ["aria-label", "placeholder", "title", "alt"]) if (el.getAttribute(a)) said.push(el.getAttribute(a));
  }
  return said.join("\\n");
}"""


def screens(page: Page) -> float:
    """How many phone screens tall the page is now."""
    height: int = page.evaluate("document.scrollingElement.scrollHeight")
    return height / SCREEN


def wider_than_the_phone(page: Page) -> int:
    """How many pixels the page scrolls sideways (0: none)."""
    width: int = page.evaluate(
        "document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth"
    )
    return width


def small_targets(page: Page) -> list[str]:
    """The controls shown that are less than 44×44 px to tap."""
    found: list[str] = page.evaluate(SMALL_TARGETS)
    return found


def programmer_words(page: Page) -> list[str]:
    """The lines shown with a word that belongs to programmers."""
    text: str = page.evaluate(READ_WORDS)
    return [line.strip() for line in text.splitlines() if PROGRAMMER_WORDS.search(line)]


def serious(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as shown."""
    return [v for v in axe(page) if v["impact"] in ("serious", "critical")]


def in_first_screen(page: Page, selector: str) -> bool:
    """True when ``selector`` is on the page's first screen, whole, with the page at its top."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SCREEN


def check_page(page: Page, what: str, *, most: float | None = None) -> dict[str, Any]:
    """Every check above on the page as shown; returns what was measured and asserts the
    limits (``most`` screens, when given)."""
    measured = {
        "screens": round(screens(page), 2),
        "sideways": wider_than_the_phone(page),
        "small": small_targets(page),
        "words": programmer_words(page),
        "axe": serious(page),
    }
    assert measured["sideways"] == 0, (what, measured)
    assert measured["small"] == [], (what, measured["small"])
    assert measured["words"] == [], (what, measured["words"])
    assert measured["axe"] == [], (what, measured["axe"])
    if most is not None:
        assert measured["screens"] <= most, (what, measured["screens"])
    return measured
