// The host's page on a big night (13 tables or more), at phone size: the lists that grow
// with the room (every table's card, the moves, the table phones, the seating by hand)
// folded under a line that says how long they are, so each tab of the console
// stays a few screens. One table is found by its number ("Find a table", with its undo),
// one player by name, one seating card at a time in the Seating tab (host_console.js).

import { h } from "./ui.js";

/** From how many tables the long lists start folded. */
export const BIG_NIGHT_TABLES = 13;

let folded = null;  // id of a folded list → its <details>

/** Move ``part`` (an element or its id) into a closed <details> whose line says
 * ``summary``; ``onOpen()`` when it is opened. */
function fold(part, summary, onOpen) {
  const el = typeof part === "string" ? document.getElementById(part) : part;
  if (!el) return;
  const details = h("details", { class: "fold", id: `${el.id || "list"}-fold` }, h("summary", {}, summary));
  el.before(details);
  details.append(el);
  details.addEventListener("toggle", () => { if (details.open && onOpen) onOpen(); });
  if (el.id) folded.set(el.id, details);
}

/** True when the list ``id`` is on the page to be seen (not folded away): the host page
 * draws a folded list only once it is opened. */
export function showing(id) {
  const details = folded && folded.get(id);
  return !details || details.open;
}

/** Name a folded list's line again (its count changed). */
export function foldLine(id, text) {
  const details = folded && folded.get(id);
  if (details) details.querySelector("summary").textContent = text;
}

/** Set the page up for a night of ``tables`` tables: each table's phone folded, and on a
 * big night the other long lists. ``redraw()`` draws the page again (a folded list opened). */
export function initBigNight({ tables, redraw }) {
  folded = new Map();
  // each table's phone, one line each, on a tap at any size (the needs list above says
  // which tables need the host)
  const phones = document.getElementById("phones-rows");
  fold(phones && phones.closest("table"), `Each table's phone (${tables})`);
  fold("seat-hand-tables", `The next round's seating, table by table (${tables})`, redraw);
  if (tables < BIG_NIGHT_TABLES) return false;
  fold("overview", `Every table's card, with its undo (${tables})`, redraw);
  fold("moves", "No moves yet", redraw);
  redraw();  // the folded lists' lines say what they hold now
  return true;
}
