// The host's view of the tables' phones (docs/outbox.md): per table, the time since its
// phone was last heard, the entries waiting on it (not sent yet) and since when, and the
// entries the server refused that wait for a person at the table; the entries tables sent
// to the host, each marked handled once dealt with; and which offline mode the phones have
// (a service worker on a secure origin, or the outbox alone over plain http). Before a
// command that closes a round or moves the room on, ``outOfTouch`` says which tables still
// hold entries, or whose phone fell silent, so the host can wait or go on ("sync before
// you move"). When the round would end while a phone holds entries of it, the room waits
// for that table: the box "Waiting for table 7's phone" (before the status card, at the
// top of the page) offers the host's decision: who won there from its paper tally, or go
// on without the phone (POST .../tables/<n>/go-on).

import { api, commandId } from "./api.js";
import { fill, h, toast } from "./ui.js";

const LATE = 30;  // seconds without news from a table's phone that make it "out of touch"
let latest = null;

function ago(seconds) {
  if (seconds === null || seconds === undefined) return "not heard since the server started";
  const s = Math.round(seconds);
  if (s < 60) return `heard ${s} s ago`;
  const m = Math.floor(s / 60);
  return m < 60 ? `heard ${m} min ${s % 60} s ago` : `heard ${Math.floor(m / 60)} h ${m % 60} min ago`;
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** The tables that still hold entries (waiting or refused), or whose phone fell silent
 * this round, in words; null if none. */
export function outOfTouch() {
  if (!latest) return null;
  const lines = latest.tables.filter((t) => t.waiting || t.refused.length || t.silent).map((t) => {
    const parts = [];
    if (t.waiting) parts.push(`${plural(t.waiting, "entry", "entries")} not sent yet`);
    if (t.refused.length) parts.push(`${plural(t.refused.length, "refused entry", "refused entries")} waiting for the table's decision`);
    if (t.silent && !t.waiting) parts.push("its phone went silent and may hold entries");
    return `Table ${t.table}: ${parts.join(", ")} (${ago(t.heard_ago)}).`;
  });
  return lines.length ? lines.join(" ") : null;
}

/** What the host is told of one table the room waits for, below the box's title. */
function waitingDetail(t) {
  const held = t.awaiting ? `Its phone holds ${plural(t.awaiting, "entry", "entries")} of this round not sent yet.`
    : `Its phone went silent (${ago(t.heard_ago)}) and may hold entries of this round.`;
  const tie = t.status === "tie_break" ? " The table stands in a tie-break the bell put it in." : "";
  return `${held}${tie} They count when they arrive. Or, from the table's paper tally:`;
}

/** Which offline mode the phones are in: the pages are served over https (a service
 * worker keeps them), or over plain http (each table's outbox alone survives). */
function modeText(origin) {
  const secure = origin.startsWith("https:");
  return secure
    ? "If the Wi-Fi drops, each table's phone keeps its page and every score tapped, and sends the scores as soon as it is back."
    : "If the Wi-Fi drops, each table's phone keeps every score tapped and sends it as soon as it is back; a page closed meanwhile opens again once the Wi-Fi is back.";
}

function span(seconds) {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function tableRow(t) {
  const late = t.heard_ago === null || t.heard_ago > LATE;
  const oldest = t.oldest_age ? `, the oldest tapped ${span(t.oldest_age)} ago` : "";
  const heard = t.silent ? `${ago(t.heard_ago)} · silent: it may hold entries` : ago(t.heard_ago);
  return h("tr", { dataset: { table: t.table, waiting: t.waiting, refused: t.refused.length,
    silent: String(Boolean(t.silent)), awaited: String(Boolean(t.awaited)) } },
    h("th", { scope: "row" }, `Table ${t.table}`),
    h("td", { class: late || t.silent ? "late" : "" }, heard),
    h("td", { class: t.waiting ? "waiting" : "" }, t.waiting ? `${plural(t.waiting, "entry", "entries")} not sent yet${oldest}` : "none waiting"),
    h("td", { class: t.refused.length ? "waiting" : "" }, t.refused.length
      ? `${plural(t.refused.length, "refused entry", "refused entries")} for the table to decide: ${t.refused.map((r) => r.label).join("; ")}`
      : ""));
}

/** The host's decision about a table the room waits for: who won there (from its paper
 * tally), or go on without its phone. */
function decision(t, decide) {
  const sides = (t.sides || []).filter((side) => side.length);
  return h("li", { dataset: { table: t.table } },
    h("h3", {}, `Table ${t.table}`),
    h("p", {}, waitingDetail(t)),
    h("div", { class: "row" },
      sides.map((side) => h("button", { type: "button", class: "btn secondary", dataset: { winner: side[0] },
        onclick: () => decide(t.table, side[0], `${side.join(" & ")} won at table ${t.table}.`) },
      `${side.join(" & ")} won`)),
      h("button", { type: "button", class: "btn secondary", dataset: { act: "without" },
        onclick: () => decide(t.table, null, `Going on without table ${t.table}'s phone.`) },
      "Go on without its entries")));
}

/** The card (built once, after ``anchor``), then polled every ``every`` ms. */
export function initPhones({ anchor, base, token, origin, every = 5000 }) {
  const card = h("section", { class: "card no-print", id: "phones-card", "aria-labelledby": "phones-title" },
    h("h2", { id: "phones-title" }, "Tables' phones"),
    h("p", { class: "small muted", id: "phones-mode" }, modeText(origin)),
    h("table", { class: "phones" }, h("tbody", { id: "phones-rows" })),
    h("div", { id: "phones-set-aside" }));
  anchor.after(card);
  const waitingBox = h("section", { class: "card no-print", id: "waiting-phones", role: "alert",
    "aria-labelledby": "waiting-title", hidden: true });
  anchor.before(waitingBox);  // the next thing to do: at the top, before the round's status
  const decide = async (table, winner, done) => {
    try {
      await api(`${base}/tables/${table}/go-on`, { method: "POST", token,
        body: { command_id: commandId(), ...(winner ? { winner } : {}) } });
      toast(done);
      poll();
    } catch (err) {
      toast(err.text || String(err), "error", 6000);
    }
  };
  const handled = async (e) => {
    try {
      await api(`${base}/set-aside/${e.table}/${encodeURIComponent(e.id)}/handled`, { method: "POST", token });
      toast(`Handled: table ${e.table}, ${e.label}`);
      poll();
    } catch (err) {
      toast(err.text || String(err), "error", 6000);
    }
  };
  const draw = (data) => {
    fill("phones-rows", data.tables.map(tableRow));
    const waited = data.tables.filter((t) => t.awaited);
    waitingBox.hidden = !waited.length;
    fill(waitingBox, waited.length ? [
      h("h2", { id: "waiting-title" }, waited.length === 1 ? `Waiting for table ${waited[0].table}'s phone`
        : `Waiting for ${waited.length} tables' phones`),
      h("p", {}, "The round ends once every table's entries are in, so the room moves with the tables' real results."),
      h("ul", { class: "waiting-phones", id: "waiting-list" },
        waited.map((t) => decision(t, decide))),
    ] : null);
    const held = data.set_aside || [];
    fill("phones-set-aside", held.length ? [
      h("h3", {}, `Sent to you by the tables (${held.length})`),
      h("p", { class: "small muted" }, "Entries the server refused and a scorekeeper sent you. Nothing was recorded for them: enter the ones that count by hand, then mark each handled."),
      h("ul", { id: "set-aside-list" }, held.map((e) => h("li", { dataset: { id: e.id, table: e.table } },
        `Table ${e.table} · ${e.label} · tapped in round ${e.tapped ? e.tapped.round : "?"} · ${e.message} `,
        h("button", { type: "button", class: "btn secondary small", onclick: () => handled(e) }, "Handled")))),
    ] : null);
    document.body.dataset.outOfTouch = String(data.tables.filter((t) => t.waiting || t.refused.length || t.silent).length);
    document.body.dataset.waitingFor = waited.map((t) => t.table).join(" ");
  };
  const poll = async () => {
    try {
      latest = await api(`${base}/phones`, { token });
      draw(latest);
    } catch (_) { /* the next poll */ }
  };
  poll();
  setInterval(poll, every);
  return { poll };
}
