// The host's view of the tables' phones (docs/outbox.md): per table, the time since its
// phone was last heard, the entries waiting on it (not sent yet) and since when, and the
// entries the server refused that wait for a person at the table; the entries tables sent
// to the host, each marked handled once dealt with; and which offline mode the phones have
// (a service worker on a secure origin, or the outbox alone over plain http). Before a
// command that closes a round or moves the room on, ``outOfTouch`` says which tables still
// hold entries, so the host can wait or go on ("sync before you move").

import { api } from "./api.js";
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

/** The tables that still hold entries (waiting or refused), in words; null if none. */
export function outOfTouch() {
  if (!latest) return null;
  const lines = latest.tables.filter((t) => t.waiting || t.refused.length).map((t) => {
    const parts = [];
    if (t.waiting) parts.push(`${plural(t.waiting, "entry", "entries")} not sent yet`);
    if (t.refused.length) parts.push(`${plural(t.refused.length, "refused entry", "refused entries")} waiting for the table's decision`);
    return `Table ${t.table}: ${parts.join(", ")} (${ago(t.heard_ago)}).`;
  });
  return lines.length ? lines.join(" ") : null;
}

/** Which offline mode the phones are in: the pages are served over https (a service
 * worker keeps them), or over plain http (each table's outbox alone survives). */
function modeText(origin) {
  const secure = origin.startsWith("https:");
  return secure
    ? "If the Wi-Fi drops, each table's phone keeps its page and every score tapped, and sends the scores as soon as it is back."
    : "If the Wi-Fi drops, each table's phone keeps every score tapped and sends it as soon as it is back; a page closed meanwhile opens again once the Wi-Fi is back.";
}

function tableRow(t) {
  const late = t.heard_ago === null || t.heard_ago > LATE;
  const oldest = t.oldest_age ? `, the oldest tapped ${Math.round(t.oldest_age)} s ago` : "";
  return h("tr", { dataset: { table: t.table, waiting: t.waiting, refused: t.refused.length } },
    h("th", { scope: "row" }, `Table ${t.table}`),
    h("td", { class: late ? "late" : "" }, ago(t.heard_ago)),
    h("td", { class: t.waiting ? "waiting" : "" }, t.waiting ? `${plural(t.waiting, "entry", "entries")} not sent yet${oldest}` : "none waiting"),
    h("td", { class: t.refused.length ? "waiting" : "" }, t.refused.length
      ? `${plural(t.refused.length, "refused entry", "refused entries")} for the table to decide: ${t.refused.map((r) => r.label).join("; ")}`
      : ""));
}

/** The card (built once, after ``anchor``), then polled every ``every`` ms. */
export function initPhones({ anchor, base, token, origin, every = 5000 }) {
  const card = h("section", { class: "card no-print", id: "phones-card", "aria-labelledby": "phones-title" },
    h("h2", { id: "phones-title" }, "Tables' phones"),
    h("p", { class: "small muted", id: "phones-mode" }, modeText(origin)),
    h("table", { class: "phones" }, h("tbody", { id: "phones-rows" })),
    h("div", { id: "phones-set-aside" }));
  anchor.after(card);
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
    const held = data.set_aside || [];
    fill("phones-set-aside", held.length ? [
      h("h3", {}, `Sent to you by the tables (${held.length})`),
      h("p", { class: "small muted" }, "Entries the server refused and a scorekeeper sent you. Nothing was recorded for them: enter the ones that count by hand, then mark each handled."),
      h("ul", { id: "set-aside-list" }, held.map((e) => h("li", { dataset: { id: e.id, table: e.table } },
        `Table ${e.table} · ${e.label} · tapped in round ${e.tapped ? e.tapped.round : "?"} · ${e.message} `,
        h("button", { type: "button", class: "btn secondary small", onclick: () => handled(e) }, "Handled")))),
    ] : null);
    document.body.dataset.outOfTouch = String(data.tables.filter((t) => t.waiting || t.refused.length).length);
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
