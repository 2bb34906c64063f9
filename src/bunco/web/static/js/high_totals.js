// The roll for high with real dice, one tap per player (docs/pages.md): while a table rolls
// for high (scil every round; a tie-break's roll for who starts), the player named rolls
// the three dice at the table and the scorekeeper taps the total they show, 3 to 18. Only
// the total decides who starts; the server's rules re-roll a tie among those tied and
// name each roller in turn.

import { fill, h } from "./ui.js";

const TOTALS = Array.from({ length: 16 }, (_, k) => k + 3);

/**
 * Draw the totals in ``box`` for the table ``t`` (the table's view as shown): visible while
 * it rolls for high with ``real`` dice. ``ready``: the page may enter now (an entry still
 * waiting for the server leaves the next roller to the server, so the totals wait too).
 * ``onPick(total)`` enters one.
 */
export function drawHighTotals(box, t, { real, ready, onPick }) {
  const who = t && t.rolling_for_high && t.roller;
  box.hidden = !(real && who);
  if (box.hidden) return;
  if (box.dataset.roller !== who) {
    box.dataset.roller = who;
    fill(box,
      h("h2", { class: "high-title", id: "high-title" }, `${who} rolled a total of`),
      h("div", { class: "high-row", role: "group", "aria-labelledby": "high-title" },
        TOTALS.map((n) => h("button", {
          type: "button", class: "tap high", dataset: { total: String(n) },
          "aria-label": `${n}: ${who}'s roll for high`, onclick: () => onPick(n),
        }, String(n)))),
      h("p", { class: "small muted" }, "Add up the three dice: the highest total starts, a tie rolls again."));
  }
  for (const button of box.querySelectorAll("button")) button.disabled = !ready;
}
