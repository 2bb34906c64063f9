// The room at a glance, on the host's page (docs/room.md): what needs a person first (the
// tables calling the host, silent tables, entries faster than dice, unlikely results) —
// a line counting each kind, then the most urgent few, "Show all N" for the rest — then
// every table as a small tile (its number, state, last entry, entries waiting on its
// phone), 250 of them still on a phone's screen; and the announcement box, whose line
// every phone and screen shows at once. A table whose phone holds entries of the round,
// or fell silent since it was heard this round, is flagged ("Phone": how many entries and
// the oldest one's age, from the phone's own reports) before the bell and before the move.

import { api, commandId } from "./api.js";
import { fill, h, toast } from "./ui.js";

const FLAG_WORDS = {
  call: "Calls you", silent: "Silent", too_fast: "Too fast", implausible: "Unlikely dice",
  refused: "Refused entries", phone: "Phone",
};
/** Each kind in the needs list's summary line ("12 silent, 3 called the host"), in its order. */
const SUMMARY_WORDS = [
  ["call", "called the host"], ["phone", "phones holding entries or silent"],
  ["refused", "refused entries"], ["implausible", "unlikely dice"],
  ["too_fast", "too fast"], ["silent", "silent"],
];
/** The needs list shows this many tables (about one phone screen) until "Show all N";
 * every table calling the host is shown however many there are. */
export const NEEDS_SHOWN = 8;
const STATE_WORDS = {
  first_roll: "rolling for high", playing: "playing", finishing: "finishing", tie_break: "tie-break", done: "done",
};

/** "12 silent, 3 called the host, 1 too fast": how many flagged tables of each kind. */
export function needsSummary(needs) {
  const parts = [];
  for (const [kind, words] of SUMMARY_WORDS) {
    const n = needs.filter((t) => t.flags.some((f) => f.kind === kind)).length;
    if (n) parts.push(`${n} ${words}`);
  }
  return parts.join(", ");
}

function ago(seconds) {
  if (seconds === null || seconds === undefined) return "no entry yet";
  const s = Math.round(seconds);
  return s < 60 ? `${s} s ago` : `${Math.floor(s / 60)} min ago`;
}

/** The dashboard's card, after ``anchor``: polls GET .../dashboard every ``every`` ms and
 * at once when the room changes. Returns ``{ poll, onRoom }``. */
export function initDashboard({ anchor, base, token, every = 10_000 }) {
  const silentId = "room-silent";
  const card = h("section", { class: "card no-print", id: "room-card", "aria-labelledby": "room-title" },
    h("h2", { id: "room-title" }, "The room at a glance"),
    h("form", { class: "row", id: "announce-form" },
      h("label", { for: "announce-text", class: "grow" }, "Announce to every phone and screen",
        h("input", { type: "text", id: "announce-text", maxlength: "140", placeholder: "5 minutes to the break", autocomplete: "off" })),
      h("button", { type: "submit", class: "btn" }, "Announce")),
    h("p", { id: "announce-now", class: "small", role: "status" }),
    h("div", { id: "room-needs", "aria-live": "polite" }),
    h("div", { class: "row small" },
      h("label", { for: silentId }, "Flag a table silent after "),
      h("select", { id: silentId }, [3, 5, 10, 15].map((m) => h("option", { value: m, selected: m === 5 }, `${m} min`)))),
    h("details", { id: "room-all" }, h("summary", { id: "room-all-title" }, "Every table"),
      h("ul", { class: "room-tiles", id: "room-tiles", "aria-label": "Every table" })));
  anchor.after(card);
  let timer = null;
  const post = async (path, body, done) => {
    try {
      const room = await api(`${base}${path}`, { method: "POST", token, body: { command_id: commandId(), ...body } });
      if (done) toast(done);
      drawAnnouncement(room);
      poll();
    } catch (err) {
      toast(err.text || String(err), "error", 6000);
    }
  };
  const drawAnnouncement = (room) => {
    const said = room.announcement;
    fill("announce-now", said ? [`Showing now: “${said.text}” `,
      h("button", { type: "button", class: "btn secondary small", id: "announce-clear",
        onclick: () => post("/announcements/clear", {}, "Announcement taken down.") }, "Take it down")]
      : "No announcement showing.");
  };
  let showAll = false;  // "Show all N" tapped: kept through every redraw until "Show fewer"
  const needItem = (t) => h("li", { dataset: { table: t.table, flags: t.flags.map((f) => f.kind).join(" ") } },
    h("strong", {}, `Table ${t.table}`), " ",
    t.flags.map((f) => h("span", { class: "flag-item" }, h("span", { class: `flag ${f.kind}` }, FLAG_WORDS[f.kind]),
      h("span", { class: "sr-only" }, ":"), " ", h("span", { class: "flag-why" }, f.text))),
    t.flags.some((f) => f.kind === "call")
      ? h("button", { type: "button", class: "btn secondary small", dataset: { answer: t.table },
        onclick: () => post(`/calls/${t.table}/clear`, {}, `Table ${t.table}: answered.`) }, `Answered table ${t.table}`)
      : null);
  const draw = (data) => {
    drawAnnouncement(data);
    const needs = data.tables.filter((t) => t.flags.length);
    needs.sort((a, b) => rank(a) - rank(b) || a.table - b.table);
    // the calls rank first, and all of them stay above the fold
    const calls = needs.filter((t) => rank(t) === 0).length;
    const cap = Math.max(NEEDS_SHOWN, calls);
    const folded = needs.length > cap && !showAll;
    const shown = folded ? needs.slice(0, cap) : needs;
    const toggle = needs.length > cap
      ? h("button", {
        type: "button", class: "btn secondary small", id: "needs-toggle", "aria-controls": "needs-list",
        "aria-expanded": String(!folded),
        onclick: () => {
          showAll = !showAll;
          draw(data);
          const again = document.getElementById("needs-toggle");
          again.focus();
          again.scrollIntoView({ block: "nearest" });
        },
      }, folded ? `Show all ${needs.length}` : "Show fewer")
      : null;
    const focused = document.activeElement && document.activeElement.id === "needs-toggle";
    fill("room-needs", needs.length
      ? [h("h3", {}, `Needs a person (${needs.length})`),
        h("p", { class: "small", id: "needs-summary" }, needsSummary(needs),
          folded ? ` · showing the first ${cap} of ${needs.length}` : ""),
        h("ul", { class: "room-needs", id: "needs-list" }, shown.map(needItem)),
        toggle]
      : h("p", { class: "small muted", id: "needs-list" }, "Nothing needs you: every table is entering."));
    if (focused && toggle) toggle.focus();  // a live redraw keeps the host's place
    document.getElementById("room-card").dataset.flagged = String(data.flagged);
    const all = document.getElementById("room-all");
    if (!all.dataset.sized) {  // open by itself on a small night; a big one's 250 tiles on a tap
      all.open = data.tables.length <= 30;
      all.dataset.sized = "yes";
    }
    fill("room-all-title", `Every table (${data.tables.length})`);
    fill("room-tiles", data.tables.map((t) => h("li", {
      class: `room-tile${t.flags.length ? " flagged" : ""}`, dataset: { table: t.table, status: t.status },
    }, h("strong", {}, t.table), h("span", { class: "sr-only" }, ": "),
    h("span", { class: "tile-state" }, STATE_WORDS[t.status] || t.status),
    h("span", { class: "tile-ago" }, ago(t.last_entry_ago)),
    t.waiting ? h("span", { class: "waiting" }, `${t.waiting} waiting`) : null)));
  };
  const rank = (t) => {
    if (t.flags.some((f) => f.kind === "call")) return 0;
    return t.flags.some((f) => f.kind === "phone") ? 1 : 2;
  };
  async function poll() {
    clearTimeout(timer);
    try {
      draw(await api(`${base}/dashboard?silent=${document.getElementById(silentId).value}`, { token }));
    } catch { /* offline: the next poll tries again */ }
    timer = setTimeout(poll, every);
  }
  document.getElementById("announce-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = document.getElementById("announce-text");
    const text = input.value.trim();
    if (!text) {
      toast("Type what every phone and screen should show.", "error");
      return;
    }
    post("/announcements", { text }, "Announced to every phone and screen.").then(() => { input.value = ""; });
  });
  document.getElementById(silentId).addEventListener("change", poll);
  poll();
  return { poll, onRoom: () => poll() };
}
