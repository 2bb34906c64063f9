// The host's view of the tables' phones (docs/outbox.md): per table, the time since its
// phone was last heard, the entries waiting on it (not sent yet) and since when, and the
// entries the server refused that wait for a person at the table; the entries tables sent
// to the host, each marked handled once dealt with; and which offline mode the phones have
// (a service worker on a secure origin, or the outbox alone over plain http). Before a
// command that closes a round or moves the room on, ``outOfTouch`` says which tables still
// hold entries, or whose phone fell silent, so the host can wait or go on ("sync before
// you move"). When the round would end while a phone holds entries of it, the room waits
// for that table: the box "Waiting for table 7's phone" (under the moment's card, at the
// top of the page, whichever tab shows) offers the host's decision: enter the table's score from its paper
// tally (each player's points, Buncos and Mini Buncos, as the preset names them; who
// won the tie-break only when the points tie), or go on without the phone
// (POST .../tables/<n>/go-on). A table not finished since the bell with nothing entered
// this round (or its phone silent: ``unsettled``) is in the box too, with the paper form
// alone. The box is drawn again at each poll; each table's form is
// kept (what the host typed stays) while the room waits for the same players there.

import { api, commandId } from "./api.js";
import { fill, h, toast } from "./ui.js";

const LATE = 30;  // seconds without news from a table's phone that make it "out of touch"
let latest = null;
let pollNow = null;  // initPhones's poll: read the phones now

function ago(seconds) {
  if (seconds === null || seconds === undefined) return "not heard since the server started";
  const s = Math.round(seconds);
  if (s < 60) return `heard ${s} s ago`;
  const m = Math.floor(s / 60);
  return m < 60 ? `heard ${m} min ${s % 60} s ago` : `heard ${Math.floor(m / 60)} h ${m % 60} min ago`;
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** The tables that still hold entries (waiting or refused), or whose phone fell silent
 * this round, in words, as the last poll said; null if none. */
function outOfTouch() {
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

const ASK_WAIT = 3000;  // ms the host's question waits for the server's word, then the last poll's

/** The same, asked of the server first (a table's last entry may have come since the
 * last poll): what a question before undoing or moving the room on names. A slow
 * connection holds the question up to ASK_WAIT, then the last poll's word stands. */
export async function outOfTouchNow() {
  if (pollNow) await Promise.race([pollNow(), new Promise((done) => setTimeout(done, ASK_WAIT))]);
  return outOfTouch();
}

/** What the host is told of one table the room waits for (or that has not finished since
 * the bell with nothing entered, or its phone silent), below the box's title. */
function waitingDetail(t) {
  if (t.unsettled) {
    const why = t.silent ? `Its phone went silent (${ago(t.heard_ago)}).` : "Nothing was entered there this round: its phone was not used, or not heard.";
    return `The bell has rung and table ${t.table} has not finished. ${why} Enter the table's score from its paper tally:`;
  }
  const held = t.awaiting ? `Its phone holds ${plural(t.awaiting, "entry", "entries")} of this round not sent yet.`
    : `Its phone went silent (${ago(t.heard_ago)}) and may hold entries of this round.`;
  const tie = t.status === "tie_break" ? " The table stands in a tie-break the bell put it in." : "";
  return `${held}${tie} They count when they arrive. Or enter the table's score from its paper tally:`;
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

const WHOLE = /^[0-9]{1,5}$/;

/** A three of a kind's column heading: "Mini Bunco" → "Minis", "Baby Bunco" → "Babies". */
function shortPlural(label) {
  const short = (label || "Mini Bunco").replace(/ Bunco$/, "");
  return short.endsWith("y") ? `${short.slice(0, -1)}ies` : `${short}s`;
}

/** A number field of the paper form: whole numbers, the phone's number pad. */
function numberField(id, label, name, kind) {
  return h("label", { class: "paper-field", for: id }, label,
    h("input", { id, type: "text", inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off",
      dataset: { player: name, kind }, "aria-label": `${name}: ${label}` }));
}

/** The form "Enter table 7's score from the paper": a line per player (points, Buncos,
 * Mini Buncos as the preset names them), the sides' totals as the host types, and who won
 * the tie-break only once the points tie. ``send(body, done, problem)`` posts it. */
function paperForm(t, minis, send) {
  const key = `paper-${t.table}`;
  const sides = (t.sides || []).filter((side) => side.length);
  const totals = h("p", { class: "paper-totals", "aria-live": "polite" });
  const tieBox = h("fieldset", { class: "paper-tie", hidden: true },
    h("legend", {}, "The points tie. Who won the tie-break?"),
    sides.map((side, i) => h("label", { class: "paper-choice" },
      h("input", { type: "radio", name: `${key}-winner`, value: side[0], dataset: { side: i } }),
      ` ${side.join(" & ")}`)));
  const problem = h("p", { class: "paper-problem", role: "alert" });
  const value = (name, kind) => form.querySelector(`input[data-player="${CSS.escape(name)}"][data-kind="${kind}"]`).value.trim();
  const sums = () => sides.map((side) => side.reduce((n, p) => n + (WHOLE.test(value(p, "points")) ? Number(value(p, "points")) : 0), 0));
  const update = () => {
    const all = t.players.every((p) => WHOLE.test(value(p, "points")));
    const got = sums();
    totals.textContent = all ? sides.map((side, i) => `${side.join(" & ")}: ${got[i]}`).join(" · ") : "";
    const best = Math.max(...got);
    tieBox.hidden = !(all && sides.length > 1 && got.filter((n) => n === best).length > 1);
  };
  const form = h("form", { class: "paper-form", dataset: { table: t.table }, "aria-labelledby": `${key}-title`,
    novalidate: true, oninput: update, onsubmit: (ev) => {
      ev.preventDefault();
      problem.textContent = "";
      const body = { points: {}, buncos: {}, minis: {} };
      for (const name of t.players) {
        const points = value(name, "points");
        if (!WHOLE.test(points)) {
          problem.textContent = points === "" ? `Enter ${name}'s points (0 if none).`
            : `${name}'s points: a whole number, like 12.`;
          return;
        }
        body.points[name] = Number(points);
        for (const [kind, label] of [["buncos", "Buncos"], ["minis", minis]]) {
          const count = value(name, kind);
          if (count === "") continue;
          if (!WHOLE.test(count)) {
            problem.textContent = `${name}'s ${label}: a whole number, like 1.`;
            return;
          }
          if (Number(count)) body[kind][name] = Number(count);
        }
      }
      for (const kind of ["buncos", "minis"]) if (!Object.keys(body[kind]).length) delete body[kind];
      if (!tieBox.hidden) {
        const picked = tieBox.querySelector("input:checked");
        if (!picked) {
          problem.textContent = "The points tie: choose who won the tie-break.";
          return;
        }
        body.winner = picked.value;
      }
      send(body, `Table ${t.table}'s score from the paper is in.`, problem);
    } },
    h("h4", { id: `${key}-title` }, `Enter table ${t.table}'s score from the paper`),
    h("p", { class: "small muted" }, `Each player's points this round, as the table's paper tally has them. Buncos and ${shortPlural(minis)}: leave empty for none.`),
    t.players.map((name) => h("div", { class: "paper-line", dataset: { player: name } },
      h("span", { class: "paper-name" }, name),
      numberField(`${key}-${name}-points`, "Points", name, "points"),
      numberField(`${key}-${name}-buncos`, "Buncos", name, "buncos"),
      numberField(`${key}-${name}-minis`, shortPlural(minis), name, "minis"))),
    totals, tieBox, problem,
    h("button", { type: "submit", class: "btn wide", dataset: { act: "paper" } }, `Save table ${t.table}'s score`));
  return form;
}

/** The host's decision about a table the room waits for: its score from the paper, or go
 * on without its phone. Kept by ``kept`` (table → its item) while the same players sit
 * there, so a poll does not wipe what the host typed. */
function decision(t, minis, decide, kept) {
  const id = `${t.table}:${(t.players || []).join("|")}:${minis || ""}:${t.awaited ? "awaited" : "unsettled"}`;
  let item = kept.get(t.table);
  if (!item || item.dataset.key !== id) {
    const form = (t.players || []).length ? paperForm(t, minis, (body, done, problem) => decide(t.table, body, done, problem)) : null;
    item = t.awaited
      ? h("li", { dataset: { table: t.table, key: id } },
        h("h3", {}, `Table ${t.table}`),
        h("p", { class: "waiting-detail" }),
        form,
        h("div", { class: "row paper-or" },
          h("button", { type: "button", class: "btn secondary", dataset: { act: "without" },
            onclick: () => decide(t.table, {}, `Going on without table ${t.table}'s phone.`) },
          "Go on without its entries")))
      // a table the room does not wait for goes on by its own entries, or the paper: one
      // line each, its form unfolded by a tap (many tables may not have finished just yet)
      : h("li", { dataset: { table: t.table, key: id } },
        h("details", { class: "unsettled" },
          h("summary", { class: "btn secondary wide" }, `Table ${t.table}: enter its score from the paper`),
          h("p", { class: "waiting-detail" }),
          form));
    kept.set(t.table, item);
  }
  item.querySelector(".waiting-detail").textContent = waitingDetail(t);
  return item;
}

/** The box's title: the phones the room waits for, then the tables not finished since the bell. */
function boxTitle(waited, unsettled) {
  if (!unsettled.length) {
    return waited.length === 1 ? `Waiting for table ${waited[0].table}'s phone` : `Waiting for ${waited.length} tables' phones`;
  }
  if (!waited.length) {
    if (unsettled.length === 1) return `Table ${unsettled[0].table} has not finished since the bell`;
    return unsettled.length <= 6 ? `Tables ${unsettled.map((t) => t.table).join(", ")} have not finished since the bell`
      : `${unsettled.length} tables have not finished since the bell`;
  }
  return `Waiting for ${plural(waited.length + unsettled.length, "table", "tables")}`;
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
  // the next thing to do: at the top, under the moment's card, whichever tab shows
  const top = document.getElementById("now-card");
  if (top) top.after(waitingBox);
  else anchor.before(waitingBox);
  const kept = new Map();  // table → its item in the box, with the paper form as typed
  const decide = async (table, body, done, problem = null) => {
    try {
      await api(`${base}/tables/${table}/go-on`, { method: "POST", token,
        body: { command_id: commandId(), ...body } });
      toast(done);
      kept.delete(table);
      poll();
    } catch (err) {
      if (problem) problem.textContent = err.message || String(err);
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
    const unsettled = data.tables.filter((t) => t.unsettled && !t.awaited);
    const listed = [...waited, ...unsettled];
    waitingBox.hidden = !listed.length;
    fill(waitingBox, listed.length ? [
      h("h2", { id: "waiting-title" }, boxTitle(waited, unsettled)),
      h("p", {}, "The round ends once every table's entries are in, so the room moves with the tables' real results."),
      h("ul", { class: "waiting-phones", id: "waiting-list" },
        listed.map((t) => decision(t, data.paper_minis, decide, kept))),
    ] : null);
    for (const table of [...kept.keys()]) if (!listed.some((t) => t.table === table)) kept.delete(table);
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
    } catch { /* the next poll */ }
  };
  pollNow = poll;
  poll();
  setInterval(poll, every);
  // the round, the bell or the phase changed on the page: ask at once (the box follows)
  let moment = "";
  new MutationObserver(() => {
    const now = ["phase", "round", "bell"].map((k) => document.body.dataset[k] || "").join(":");
    if (now !== moment) {
      moment = now;
      poll();
    }
  }).observe(document.body, { attributes: true, attributeFilter: ["data-phase", "data-round", "data-bell"] });
  return { poll };
}
