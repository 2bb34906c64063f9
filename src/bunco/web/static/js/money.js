// Prize money, judged prizes, presence, breaks and drawings on the pages: the payout sheet
// (results page), the break countdown and the latest drawing (big screen), and the host's
// controls for all of them (host page). The amounts come from the server as decimal
// strings and are shown as they are: no arithmetic on money happens here.

import { $, fill, h, names, toast } from "./ui.js";
import { setWinnerItems } from "./parts.js";

const prizeName = (p) => p.label + (p.group ? ` (${p.group})` : "");
/** A judged prize's key as the server makes it from its name ("Best Costume" → best_costume). */
const keyOf = (label) => label.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");

/** Who is handed each prize, where that differs from the cards or the host judged it
 * (null when nothing does): judged prizes, and prizes passed over absentees or winners. */
function awardLines(view) {
  const lines = (view.awards || []).filter((a) => a.passed_over.length || !a.by_cards)
    .map((a) => h("li", { dataset: { prize: a.prize } }, `${prizeName(a)}: `,
      h("strong", {}, a.winners.length ? a.winners.join(", ") : a.status === "pending" ? "to be named" : "nobody"),
      a.passed_over.length ? ` (passed over ${a.passed_over.map((x) => `${x.name}: ${x.reason}`).join("; ")})` : ""));
  return lines.length ? h("ul", { class: "small", id: "awards-list" }, lines) : null;
}

/** The payout sheet of a night with money, as a cashier reads it: final or provisional
 * (``closedAt``: when the host closed the night, in words), each person's total to hand
 * over, then who gets how much for what; without money, the judged and passed-over
 * prizes only (null when there are none). */
export function payoutSheet(view, closedAt = null) {
  const money = view.money;
  if (!money) return awardLines(view);
  const c = money.currency;
  const rows = (view.payouts || []).map((p) => h("tr", { dataset: { player: p.player, prize: p.prize } },
    h("td", {}, p.player), h("td", {}, prizeName(p)), h("td", { class: "num" }, `${c}${p.amount}`)));
  const totals = (view.payout_totals || []).map((t) => h("tr", { dataset: { player: t.player } },
    h("th", { scope: "row", class: "name" }, t.player), h("td", { class: "num" }, t.total)));
  // the payout sheet's own lines (the server's words): the pot, the top-up, every cent
  // that stays behind on a line of its own, the prizes nobody was handed, who was passed over
  const summary = view.payout_notes || [];
  const status = view.closed ? `Final: the host closed the night${closedAt ? ` at ${closedAt}` : ""}.`
    : view.payout_status;
  return [
    h("p", { class: view.closed ? "final-line" : "notice", id: "payout-status" }, status),
    totals.length ? [h("h3", {}, "To hand over: each person's total"),
      h("table", { class: "grid", id: "totals-table", "aria-label": "Each person's total to hand over" },
        h("thead", {}, h("tr", {}, ["Player", "Total"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", {}, totals))] : null,
    h("h3", {}, "Each prize paid"),
    rows.length ? h("table", { class: "grid", id: "payouts-table", "aria-label": "Payouts" },
      h("thead", {}, h("tr", {}, ["Player", "Prize", "Amount"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, rows)) : h("p", { class: "muted" }, "Nobody is paid yet."),
    h("ul", { class: "small", id: "money-summary" }, summary.map((s) => h("li", {}, s))),
  ];
}

/** "mm:ss" left of a break, or null when it has no length or started time. */
export function breakLeft(brk, now = Date.now()) {
  if (!brk || !brk.minutes || !brk.started_at) return null;
  const end = Date.parse(brk.started_at) + brk.minutes * 60000;
  if (Number.isNaN(end)) return null;
  const left = Math.max(0, Math.round((end - now) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** The big screen's break banner and latest drawing (null when neither applies). */
export function breakAndDrawing(view) {
  const parts = [];
  if (view.break) {
    const left = breakLeft(view.break);
    parts.push(h("p", { class: "break-line", id: "break-line" }, "Break time!",
      left ? h("span", { class: "countdown", id: "break-countdown" }, ` ${left}`) : null));
  }
  const last = (view.drawings || []).at(-1);
  if (last && !(view.phase === "playing" && view.started)) {  // until the next round starts
    parts.push(h("p", { class: "drawing-line", id: "drawing-line" },
      `${last.name}: `, h("strong", {}, last.winner),
      h("span", { class: "small muted" }, ` (drawn among ${last.candidates.length})`)));
  }
  return parts.length ? parts : null;
}

// -- the host's card --------------------------------------------------------------------------------

let hostCtx = null;
let presenceKey = null;

async function send(path, body, done) {
  const { commands, live, base } = hostCtx;
  try {
    const ack = await commands.send(`${base}/${path}`, body);
    await live.acknowledge(ack);
    if (done) done(ack);
  } catch (err) {
    toast(err.text || String(err), "error", 6000);
  }
}

function judgedScopes(setup, grouped) {
  const groups = grouped && setup.groups ? Object.keys(setup.groups) : [];
  const out = [];
  for (const label of setup.judged || []) {
    const key = keyOf(label);
    if (groups.length) {
      for (const g of groups) out.push({ key, label, group: g, choices: setup.groups[g] });
      out.push({ key: `group_${key}`, label: `Group with the ${label}`, group: null, choices: groups });
    } else out.push({ key, label, group: null, choices: setup.players });
  }
  return out;
}

/** Build the host's card of breaks, drawings, presence and judged prizes (once). */
export function initHostMoney({ box, commands, live, base, grouped }) {
  const setup = live.state.setup;
  hostCtx = { commands, live, base, scopes: judgedScopes(setup, grouped) };
  const judged = hostCtx.scopes.map((s, i) => h("form", { class: "row judge", dataset: { judge: s.key, group: s.group || "" } },
    h("label", { for: `judge-${i}` }, prizeName(s)),
    h("select", { id: `judge-${i}`, class: "grow judge-first", onchange: () => judgeNote(s, i) }, s.choices.map((c) => h("option", { value: c }, c))),
    h("label", { for: `judge-next-${i}` }, "then, if gone home"),
    h("select", { id: `judge-next-${i}`, class: "grow judge-next" }, h("option", { value: "" }, "nobody"), s.choices.map((c) => h("option", { value: c }, c))),
    h("button", { type: "submit", class: "btn secondary" }, "Name the winner"),
    h("p", { class: "small judge-note", id: `judge-note-${i}`, role: "status" })));
  fill(box,
    h("h2", { id: "money-title" }, "Breaks, drawings and prizes"),
    h("form", { class: "row", id: "break-form" },
      h("label", { for: "break-minutes" }, "A break of"),
      h("input", { type: "number", id: "break-minutes", class: "narrow", min: "1", max: "240", value: "10" }),
      h("span", {}, "minutes"),
      h("button", { type: "submit", class: "btn", id: "break-start" }, "Start the break"),
      h("button", { type: "button", class: "btn secondary", id: "break-end" }, "End the break")),
    h("h3", {}, "A drawing"),
    h("form", { id: "drawing-form" },
      h("label", { for: "drawing-name" }, "What is drawn ", h("span", { class: "muted small" }, "(optional)")),
      h("input", { type: "text", id: "drawing-name", placeholder: "e.g. Door prize", maxlength: "80" }),
      h("label", { class: "switch" }, h("input", { type: "checkbox", role: "switch", id: "drawing-exclude", checked: true }),
        h("span", {}, "Leave out earlier winners")),
      h("button", { type: "submit", class: "btn", id: "drawing-draw" }, "Draw a winner")),
    h("p", { id: "drawing-note", class: "small muted", role: "status" }),
    h("h3", {}, "Gone home"),
    h("form", { id: "presence-form" },
      h("label", { for: "presence-player" }, "Who"),
      h("select", { id: "presence-player" }),
      h("div", { class: "row" },
        h("button", { type: "submit", class: "btn secondary", id: "presence-gone" }, "Has gone home"),
        h("button", { type: "button", class: "btn secondary", id: "presence-back" }, "Is back"))),
    h("p", { id: "absent-note", class: "small muted", role: "status" }),
    h("div", { id: "close-box", hidden: true },
      h("p", { id: "close-note", class: "notice", role: "status" }),
      h("button", { type: "button", class: "btn secondary", id: "close-cards" }, "Close the cards and give the prizes")),
    judged.length ? h("h3", {}, "Judged prizes") : null,
    judged,
    h("p", { id: "judged-note", class: "small muted", role: "status" }));
  $("break-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const minutes = Number($("break-minutes").value);
    send("breaks", minutes ? { minutes } : {}, () => toast("The break begins."));
  });
  $("break-end").addEventListener("click", () => send("breaks/end", {}, () => toast("The break is over.")));
  $("drawing-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const body = { exclude_winners: $("drawing-exclude").checked };
    const name = $("drawing-name").value.replace(/\s+/g, " ").trim();
    if (name) body.name = name;
    send("drawings", body, (ack) => toast(`${ack.event.name || "The drawing"}: ${ack.event.winner}!`));
  });
  $("presence-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const player = $("presence-player").value;
    send("presence", { player, present: false }, () => toast(`${player} has gone home.`));
  });
  $("presence-back").addEventListener("click", () => {
    const player = $("presence-player").value;
    send("presence", { player, present: true }, () => toast(`${player} is back.`));
  });
  $("close-cards").addEventListener("click", () => {
    const names = ((hostCtx.live.state.view.verification || {}).awaiting) || [];
    const warning = `Not verified as they stand: ${names.join(", ")}. These cards will count only what was verified of them (nothing, if never). Give the prizes now?`;
    if (!window.confirm(warning)) return;
    send("cards/close", { unverified: names }, () => toast("The cards are closed: the prizes are decided."));
  });
  for (const form of box.querySelectorAll("form[data-judge]")) {
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const first = form.querySelector(".judge-first").value;
      const next = form.querySelector(".judge-next").value;
      const ranking = next && next !== first ? [first, next] : [first];
      const gone = goneHome(first, form.dataset.group === "" && form.dataset.judge.startsWith("group_"));
      if (gone && !window.confirm(ranking.length > 1
        ? `${first} has gone home: ${ranking[1]} will take the prize instead. Name ${first} first anyway?`
        : `${first} has gone home and must be present to win: with no next choice the prize goes to nobody. Name ${first} anyway?`)) return;
      const body = { prize: form.dataset.judge, ranking };
      if (form.dataset.group) body.group = form.dataset.group;
      send("judged", body, () => toast(gone && ranking.length > 1 ? `${ranking[1]} takes it (${first} has gone home).` : `${first} wins it.`));
    });
  }
}

/** Whether a judged prize's choice has gone home while the night says "be present to win"
 * (a group: every member gone). */
function goneHome(choice, isGroup) {
  const view = hostCtx.live.state.view;
  if (!view.must_be_present) return false;
  const gone = new Set(view.absent);
  if (isGroup) return ((hostCtx.live.state.setup.groups || {})[choice] || []).every((m) => gone.has(m));
  return gone.has(choice);
}

/** The warning under a judged prize when its choice has gone home, with the next offered. */
function judgeNote(scope, i) {
  const first = $(`judge-${i}`).value;
  const gone = goneHome(first, !scope.group && scope.key.startsWith("group_"));
  const note = $(`judge-note-${i}`);
  note.textContent = gone ? `${first} has gone home and must be present to win: choose who comes next.` : "";
  note.classList.toggle("warn", gone);
  if (gone && !$(`judge-next-${i}`).value) {
    const next = scope.choices.find((c) => c !== first && !goneHome(c, !scope.group && scope.key.startsWith("group_")));
    if (next) $(`judge-next-${i}`).value = next;
  }
}

/** Bring the host's card up to date with the night. */
export function updateHostMoney(state) {
  if (!hostCtx) return;
  const view = state.view;
  const playing = view.phase === "playing" && view.started;
  $("break-form").hidden = view.phase !== "playing";  // no break to take once the night is over
  $("break-start").disabled = playing || Boolean(view.break);
  $("break-start").hidden = Boolean(view.break);
  $("break-end").hidden = !view.break;
  const everyone = Object.keys(view.players).sort();
  if (everyone.join("\n") !== presenceKey) {  // the list again only when the players changed
    presenceKey = everyone.join("\n");
    const current = $("presence-player").value;
    fill("presence-player", everyone.map((p) => h("option", { value: p, selected: p === current }, p)));
  }
  $("absent-note").textContent = view.absent.length ? `Gone home: ${view.absent.join(", ")}.` : "Everyone is here.";
  hostCtx.scopes.forEach((scope, i) => judgeNote(scope, i));
  const check = view.verification || {};
  $("close-box").hidden = !check.waiting;
  $("close-note").textContent = check.waiting
    ? `The prizes wait for the staff to verify the cards of ${check.awaiting.join(", ")}.` : "";
  const last = view.drawings.at(-1);
  $("drawing-note").textContent = last ? `${last.name}: ${last.winner} (pick ${last.pick + 1} of ${last.candidates.length})` : "";
  $("judged-note").textContent = view.judged.map((j) => `${j.prize.replace(/_/g, " ")}${j.group ? ` (${j.group})` : ""}: ${j.ranking.join(", then ")}`).join(" · ");
}

// -- the set-up page: prize money, judged prizes, presence, one prize each, breaks ----------------

const PAY_KINDS = [["", "no money"], ["amount", "an amount"], ["share", "a share of the pot (%)"]];

/** The prizes a payout may name on the set-up page: the ticked prizes, the judged ones and,
 * with prize groups, the group prizes. [{key, label}] */
function payablePrizes(ticked, judged, grouped) {
  const out = ticked.map((p) => ({ key: p.name, label: p.label }));
  if (grouped) out.push({ key: "group_most_buncos", label: "Group with the most Buncos" });
  for (const label of judged) {
    const key = keyOf(label);
    out.push({ key, label });
    if (grouped) out.push({ key: `group_${key}`, label: `Group with the ${label}` });
  }
  return out;
}

/** The judged prizes typed on the set-up page ("Best Costume, Best Dressed"). */
export function judgedNames() {
  return ($("judged").value || "").split(/[,;\n]+/).map((s) => s.replace(/\s+/g, " ").trim()).filter(Boolean);
}

/** What a money table (presets.json's ``money``) pays, for the set-up page: each group's
 * prizes and the whole room's, with their amounts, the judged prizes it brings, and who
 * pays. ``labels``: prize category → its name under the rules chosen. */
export function moneyTablePreview(table, labels, currency) {
  const judged = new Map(table.judged.map((label) => [keyOf(label), label]));
  const name = (prize, label) => {
    const own = prize.replace(/^group_/, "");
    if (labels[prize] || label) return labels[prize] || label;
    if (judged.has(own)) return prize === own ? judged.get(own) : `Group with the ${judged.get(own)}`;
    return prize.replace(/_/g, " ");
  };
  const line = (p) => h("li", { dataset: { preview: p.prize } }, `${name(p.prize, p.label)}: `,
    h("strong", {}, `${currency}${p.amount}`),
    judged.has(p.prize.replace(/^group_/, "")) ? h("span", { class: "muted" }, " (judged: you name the winner)") : "");
  const each = table.payouts.filter((p) => !p.prize.startsWith("group_"));
  const room = table.payouts.filter((p) => p.prize.startsWith("group_"));
  return [
    h("p", { class: "small" }, h("strong", {}, "In each group"), " of players:"),
    h("ul", { class: "small money-preview" }, each.map(line)),
    room.length ? [h("p", { class: "small" }, h("strong", {}, "For the whole room:")),
      h("ul", { class: "small money-preview" }, room.map(line))] : null,
    h("p", { class: "small muted" }, table.buy_in ? `Buy-in ${currency}${table.buy_in} a player.`
      : `No buy-in: ${table.top_up ? "the host pays the prizes." : "the prizes come from the pot."}`),
  ];
}

/** Draw the payout rows again for the prizes now chosen (keeping what was typed); with a
 * money table chosen, what it pays (``tables``: presets.json's ``money``). */
export function renderPayouts(ticked, grouped, { tables = {}, labels = {} } = {}) {
  const mode = $("money-mode").value;
  $("money-fields").hidden = mode !== "pot";
  const table = tables[mode];
  $("money-tournament-note").hidden = !table;
  if (table) fill("money-tournament-note", moneyTablePreview(table, labels, $("currency").value.trim() || "$"));
  if (mode !== "pot") return;
  const kept = {};
  for (const row of document.querySelectorAll("[data-payout]")) {
    kept[row.dataset.payout] = [row.querySelector("select").value, row.querySelector("input").value];
  }
  fill("payout-rows", payablePrizes(ticked, judgedNames(), grouped).map((p, i) => {
    const [kind, value] = kept[p.key] || ["", ""];
    return h("div", { class: "row", dataset: { payout: p.key } },
      h("label", { for: `pay-${i}`, class: "grow" }, p.label),
      h("select", { id: `pay-kind-${i}`, "aria-label": `${p.label}: pays` },
        PAY_KINDS.map(([v, t]) => h("option", { value: v, selected: v === kind }, t))),
      h("input", { type: "text", id: `pay-${i}`, class: "narrow", inputmode: "decimal", value,
        placeholder: "25 or 50%", "aria-label": `${p.label}: amount or share` }));
  }));
}

const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

/** Add the money and prize options to the night's body; returns an error to show, or null. */
export function addMoney(body) {
  const judged = judgedNames();
  if (judged.length) body.judged = judged;
  const present = $("must-be-present");  // sent when it differs from the preset's (home.js)
  if (present.checked !== (present.dataset.preset === "true")) body.must_be_present = present.checked;
  if ($("one-prize").checked) body.one_prize_per_person = true;
  const breaks = $("breaks").value.replace(/\s+/g, "");
  if (breaks !== $("breaks").dataset.preset) {
    if (breaks && !/^[1-6](,[1-6])*$/.test(breaks)) return "Breaks after rounds: round numbers from 1 to 6, separated by commas (e.g. 2, 4, 6).";
    // round numbers, as the rules take them (JSON integers, not text)
    body.house_rules.breaks_after_rounds = breaks ? breaks.split(",").map(Number) : [];
  }
  const mode = $("money-mode").value;
  if (mode === "none") return null;
  const money = mode === "tournament" ? { preset: "tournament" } : { payouts: [] };
  const currency = $("currency").value.trim();
  if (currency) money.currency = currency;
  if (mode === "pot") {
    for (const [id, key, what] of [["buy-in", "buy_in", "The buy-in"], ["carried-over", "carried_over", "Carried over"]]) {
      const text = $(id).value.trim().replace(/^[^\d]+/, "");
      if (!text) continue;
      if (!AMOUNT.test(text)) return `${what}: ${$(id).value} is not an amount (e.g. 5 or 4.75).`;
      money[key] = text;
    }
    if ($("top-up").checked) money.top_up = true;
    for (const row of document.querySelectorAll("[data-payout]")) {
      const kind = row.querySelector("select").value;
      const raw = row.querySelector("input").value.trim();
      const label = row.querySelector("label").textContent;
      if (!kind) continue;
      if (kind === "share") {
        const pct = raw.replace(/%$/, "").trim();
        if (!/^\d{1,3}(\.\d+)?$/.test(pct) || Number(pct) <= 0 || Number(pct) > 100) return `${label}: a share is a percentage above 0 and at most 100 (e.g. 50%).`;
        money.payouts.push({ prize: row.dataset.payout, share: `${pct}%` });
      } else {
        const amount = raw.replace(/^[^\d]+/, "");
        if (!AMOUNT.test(amount)) return `${label}: ${raw || "nothing"} is not an amount (e.g. 25 or 12.50).`;
        money.payouts.push({ prize: row.dataset.payout, amount });
      }
    }
  }
  if ($("one-prize").checked && $("one-prize-order").value === "listed") money.one_prize_order = "listed";
  body.money = money;
  return null;
}

// -- the big screen and the end page: who is handed each prize ------------------------------------

/** The prizes as handed out (view.prize_winners, the server's one list): the person paid,
 * the amount, who came first on the cards when that is someone else, who was passed over
 * and why, judged prizes too. Null until the prizes are decided (then prizeList shows a
 * roll-off due, or prizesWaiting why nobody is named yet). */
export function handedList(view) {
  const rows = view.prize_winners || [];
  if (!rows.length) return null;
  return h("div", { class: "prize-list", id: "handed-list" }, [...setWinnerItems(view), ...rows.map((r) => {
    const moved = r.handed_to.length && r.on_cards.length && r.on_cards.join() !== r.handed_to.join();
    const tied = rollingOff(view, r);
    return h("article", { class: "prize", dataset: { prize: r.prize, group: r.group || "", status: r.status } },
      h("h3", {}, r.name),
      h("div", { class: "winners" }, tied.length ? `${names(tied)}: ${r.who}` : r.who),
      r.amount ? h("p", { class: "amount" }, r.amount) : null,
      r.paid_text ? h("p", { class: "small paid" }, `Paid: ${r.paid_text}`) : null,
      h("p", { class: "small" }, [r.figure ? `${r.figure} on the card` : "",
        moved ? `${r.figure ? " · " : ""}first on the cards: ${r.on_cards.join(", ")}` : ""]),
      r.passed_over.length ? h("p", { class: "small passed" },
        `Passed over: ${r.passed_over.map((x) => `${x.name} (${x.reason})`).join("; ")}`) : null);
  })]);
}

/** Who rolls off for a row's prize while its roll-off is due (the view's prizes name
 * them; the row says only "roll-off due"), else an empty list. */
function rollingOff(view, r) {
  if (r.status !== "pending") return [];
  const p = (view.prizes || []).find((x) => x.category === r.prize && (x.group || null) === (r.group || null));
  return p && p.settled_by === "pending_roll_off" ? p.candidates || [] : [];
}

/** Why the prizes are not named yet (cards still to verify), or null. */
export function prizesWaiting(view) {
  return view.prizes_status ? h("p", { class: "notice", id: "prizes-waiting" }, view.prizes_status) : null;
}
