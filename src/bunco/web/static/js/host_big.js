// The host's page on a big night (more than 12 tables), at phone size: links to jump to
// each card, and the lists that grow with the room (every table's card, the moves, the
// seat cards with their QR codes, the table phones, the bots) folded under a line that
// says how long they are. A 200-player night's page is then a few screens, not 60,000 px,
// and the correction console is one tap away. An undo names its table in a short form.
// The folded lists open by themselves for printing.

import { $, h } from "./ui.js";

/** From how many tables the long lists start folded. */
export const BIG_NIGHT_TABLES = 13;

const JUMPS = [
  ["status-card", "Tables"],
  ["room-card", "Room"],
  ["fix-card", "Corrections"],
  ["seating-card", "Seating"],
  ["people-card", "Players"],
  ["cohost-card", "Co-hosts"],
];

let folded = null;  // id of a folded list → its <details>

/** Jump links to the page's cards (those shown), under the page's nav. */
function drawJumps() {
  const links = JUMPS.filter(([id]) => document.getElementById(id))
    .map(([id, text]) => h("a", { href: `#${id}`, class: "btn secondary small", dataset: { jump: id } }, text));
  $("nav").after(h("nav", { class: "row small no-print", id: "jumps", "aria-label": "Jump to" }, links));
}

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

/** Set the page up for a night of ``tables`` tables and ``players`` players: jump links,
 * and on a big night the long lists folded and the undo by table number. ``undo(table)``
 * asks and undoes; ``redraw()`` draws the page again (a folded list opened). */
export function initBigNight({ tables, players, undo, redraw }) {
  drawJumps();
  folded = new Map();
  if (tables < BIG_NIGHT_TABLES) return false;
  fold("overview", `Every table's card, with its undo (${tables})`, redraw);
  fold("moves", "No moves yet", redraw);
  fold("sheet", `Every table's seat card, QR code and join code (${tables})`, redraw);
  const phones = document.getElementById("phones-rows");
  fold(phones && phones.closest("table"), `Every table's phone (${tables})`);
  fold("bots", `Bots: a switch per player (${players})`, redraw);
  const pick = h("select", { id: "undo-table" },
    Array.from({ length: tables }, (_, i) => h("option", { value: i + 1 }, `Table ${i + 1}`)));
  $("status-line").before(h("form", { class: "row", id: "undo-form", onsubmit: (ev) => {
    ev.preventDefault();
    undo(Number(pick.value));
  } }, h("label", { for: "undo-table", class: "grow" }, "Undo the last entry at"), pick,
  h("button", { type: "submit", class: "btn secondary", id: "undo-send" }, "Undo…")));
  window.addEventListener("beforeprint", () => {
    for (const details of new Set(folded.values())) details.open = true;
  });
  redraw();  // the folded lists' lines say what they hold now
  return true;
}
