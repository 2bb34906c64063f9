// The host's console, organised by the moment of the night (docs/pages.md): a card at the
// top says where the night is (before it starts, a round in play, between rounds, a break,
// a roll-off, the end) and offers the one next thing to do; everything else is one tap
// away under five tabs (Tables, Players, Seating, Prizes, More), each showing its panel
// only. The tab follows the moment (the tables while a round is played, the prizes at the
// end) unless the host has just picked one; "Find a table" and "Find a player" show one table or one
// person without scrolling through the room.

import { movesOf, moveText, seatsOf } from "./live.js";
import { breakLeft } from "./money.js";
import { tableCard } from "./parts.js";
import { $, fill, h, names, roundLabel } from "./ui.js";

/** The moment of the night ``view`` is in: before, play, between, break, rolloff, end. */
export function momentOf(view) {
  if (view.phase === "over") return "end";
  if (view.phase === "rolloff") return "rolloff";
  if (view.started) return "play";
  if (view.break || view.on_break) return "break";
  return view.last_round ? "between" : "before";
}

/** The tab each moment opens on. */
const HOME_TAB = {
  before: "seating", play: "tables", between: "tables", break: "prizes", rolloff: "prizes", end: "prizes",
};

let shownMoment = null;
let pickedAt = 0;       // when the host last tapped a tab (Date.now())
/** A tab the host tapped stays this long through a change of moment. */
const KEEP_PICK_MS = 120_000;
let onTab = () => {};

/** The tab on show now. */
export function currentTab() {
  const tab = document.querySelector('#tabs [aria-selected="true"]');
  return tab ? tab.dataset.tab : null;
}

/** Show the panel of ``name`` (a tab's data-tab), as if its tab were tapped; ``focus``
 * moves the keyboard's focus to the tab. */
export function showTab(name, { focus = false, chosen = true } = {}) {
  for (const tab of document.querySelectorAll("#tabs [role=tab]")) {
    const on = tab.dataset.tab === name;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    if (on && focus) tab.focus();
    $(tab.getAttribute("aria-controls")).hidden = !on;
  }
  document.body.dataset.tab = name;
  if (chosen) pickedAt = Date.now();
  onTab(name);
}

/** The tabs: a tap shows a panel; the arrow keys, Home and End move between the tabs (the
 * tab pattern of WAI-ARIA). ``changed(name)`` after each change. */
export function initTabs(changed) {
  onTab = changed || onTab;
  const tabs = [...document.querySelectorAll("#tabs [role=tab]")];
  for (const tab of tabs) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("tabs").addEventListener("keydown", (ev) => {
    const at = tabs.findIndex((t) => t.dataset.tab === currentTab());
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    showTab(tabs[(to + tabs.length) % tabs.length].dataset.tab, { focus: true });
  });
  // the tab bar stays in view under the top bar, so every tool is one tap away
  const top = document.querySelector(".sticky-top");
  if (top) top.append($("tabs"));
}

/** Follow the night's moment: a new moment opens its own tab, unless the host tapped a
 * tab in the last two minutes or is typing in the panel on show (the panel is never
 * taken from under a host at work; the top card says what to do next either way). */
export function followMoment(view) {
  const moment = momentOf(view);
  document.body.dataset.moment = moment;
  if (moment === shownMoment) return moment;
  shownMoment = moment;
  const typing = document.activeElement && document.activeElement.closest("[role=tabpanel]")
    && ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
  if (!typing && Date.now() - pickedAt > KEEP_PICK_MS) showTab(HOME_TAB[moment], { chosen: false });
  return moment;
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The now card's title and sentence for ``view`` (its buttons are the host page's). */
export function nowWords(view, { tables, checkin = null, over = "", ended = "" }) {
  const moment = momentOf(view);
  if (moment === "before") {
    return [`Before ${roundLabel(view).toLowerCase()}`,
      `Put each table's card on its table: its scorekeeper scans the QR code with their phone. When everyone is seated, ring the bell.${checkin ? ` ${checkin}` : ""}`];
  }
  if (moment === "play") {
    const done = view.tables.filter((t) => t.status === "done").length;
    const rung = view.bell ? "The bell has rung: the tables finish their turns. " : "";
    return [`${roundLabel(view)} in play`, `${rung}${done} of ${plural(tables, "table")} done.`];
  }
  if (moment === "between") {
    return [`Round ${view.last_round.round} is over`,
      "Everyone moves to their seat for the next round: each player's phone says where, and the moves are under Tables. When they are seated, ring the bell."];
  }
  if (moment === "break") {
    const left = breakLeft(view.break);
    return ["Break time", `${left ? `${left} left. ` : ""}The next round starts when you ring the bell.`];
  }
  if (moment === "rolloff") {
    const ro = view.rolloff;
    return [`Roll-off: ${ro.purpose}`, `${ended}A tie is decided by a roll-off between ${names(ro.players)}: enter each roll below.`];
  }
  return ["The night is over", `${ended}${over}`];
}

// -- find a table --------------------------------------------------------------------------------

/** "Find a table": the table whose number is typed, live, with its undo and its code.
 * ``view()`` is the night's view now; ``undo(n)`` asks and undoes; ``code(n)`` is the
 * table's join code or null; ``card(n)`` shows its seating card. Returns the redraw. */
export function initFindTable({ view, undo, code, card }) {
  const draw = () => drawFoundTable(view(), { undo, code, card });
  $("find-table-form").addEventListener("submit", (ev) => { ev.preventDefault(); draw(); });
  $("find-table").addEventListener("input", draw);
  return draw;
}

function drawFoundTable(view, { undo, code, card }) {
  const typed = $("find-table").value.replace(/\D/g, "");
  if (!view || !typed) return fill("found-table");
  const n = Number(typed);
  const count = view.tables.length || (view.next ? view.next.tables.length : 0);
  if (n < 1 || n > count) {
    return fill("found-table", h("p", { class: "small muted" }, `There is no table ${n}: the tables are 1 to ${count}.`));
  }
  const t = view.tables[n - 1];
  const seating = t ? t.players : view.next.tables[n - 1];
  const joined = code(n);
  return fill("found-table", h("div", { class: "card found", id: "found-table-card", dataset: { table: n } },
    t ? tableCard(t, { view }) : [h("h3", {}, `Table ${n}`), h("p", {}, names(seating.map((p) => p || "ghost")))],
    h("div", { class: "row" },
      t ? h("button", { type: "button", class: "btn secondary", dataset: { undoFound: n },
        "aria-label": `Undo last entry at table ${n}…`, onclick: () => undo(n) }, "↶ Undo last entry…") : null,
      h("button", { type: "button", class: "btn secondary", onclick: () => card(n) },
        joined ? `Seating card · code ${joined}` : "Seating card"))));
}

// -- find a player -------------------------------------------------------------------------------

/** "Find a player": the names that hold what is typed; one name found (or tapped) shows
 * where they sit, their move, their card and whether they went home. ``view()`` is the
 * night's view now; ``presence(name, here)`` marks them gone home or back. Returns the
 * redraw. */
export function initFindPlayer({ view: viewNow, presence }) {
  let chosen = null;
  const draw = () => {
    const view = viewNow();
    const typed = $("find-player").value.trim().toLowerCase();
    if (!view || !typed) {
      chosen = null;
      return fill("found-players");
    }
    const all = Object.keys(view.players).sort((a, b) => a.localeCompare(b));
    const hits = all.filter((p) => p.toLowerCase().includes(typed));
    if (chosen && !hits.includes(chosen)) chosen = null;
    const one = chosen || (hits.length === 1 ? hits[0] : all.find((p) => p.toLowerCase() === typed));
    if (one) return fill("found-players", playerCard(view, one, presence));
    return fill("found-players", hits.length
      ? h("ul", { class: "found-list", id: "found-player-list" }, hits.slice(0, 8).map((p) => h("li", {},
        h("button", { type: "button", class: "btn secondary", dataset: { player: p },
          onclick: () => { chosen = p; draw(); } }, p))),
      hits.length > 8 ? h("li", { class: "small muted" }, `and ${hits.length - 8} more: type more of the name`) : null)
      : h("p", { class: "small muted" }, `Nobody tonight is called “${$("find-player").value.trim()}”.`));
  };
  $("find-player-form").addEventListener("submit", (ev) => { ev.preventDefault(); draw(); });
  $("find-player").addEventListener("input", () => { chosen = null; draw(); });
  return draw;
}

function playerCard(view, name, presence) {
  const seat = seatsOf(view)[name];
  const card = view.players[name];
  const move = !view.started && view.last_round ? movesOf(view).find((m) => m.player === name) : null;
  const gone = (view.absent || []).includes(name);
  const where = seat ? `Table ${seat.table}, seat ${seat.seat}${seat.team ? ` · partner ${seat.partner || "a ghost"}` : ""}`
    : "Not seated this round";
  return h("div", { class: "card found", id: "found-player-card", dataset: { player: name } },
    h("h3", {}, name),
    h("p", { class: "where-line" }, view.started || !view.last_round ? where : `Next round: ${where}`),
    move ? h("p", {}, h("strong", {}, moveText(move)),
      move.result ? ` (${move.result === "W" ? "won" : "lost"} round ${view.last_round.round})` : "") : null,
    card ? h("p", { class: "small" }, `${plural(card.wins, "win")}, ${plural(card.losses, "loss", "losses")}, `
      + `${plural(card.buncos, "Bunco")}, ${card.points} points`) : null,
    h("p", { class: "small" }, gone ? "Has gone home." : "Here tonight."),
    h("button", { type: "button", class: "btn secondary", id: "found-presence",
      onclick: () => presence(name, gone) }, gone ? "Is back" : "Has gone home"));
}
