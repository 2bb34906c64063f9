// The host's correction console (host page) and the audit list (host and results pages).
//
// The host picks a round (a finished one, or the round in play once it has started) and
// a table, sees that round's result and every roll (numbered as a correction names them),
// chooses a change — who won, a roll that counts for another player, a roll that was
// never entered, a roll that never happened — gives a reason and confirms. The server
// folds the correction into the night (cards, set winners, prizes and money follow) and
// keeps it on the audit list with who, when and why. In the round in play the table's
// points follow at once, the turn stays with the dice and who won waits for the bell
// (docs/party-log.md); the roll list follows the table's live view. After a roll's
// correction that leaves a finished round's recorded winners behind on points, the
// console asks whether to set the leaders as the winners (the host decides). Results stay
// provisional until the host closes the night.

import { api } from "./api.js";
import { $, fill, h, toast } from "./ui.js";

let ctx = null;          // { box, commands, live, base, token }
let picked = null;       // { set, round, table }
let shown = null;        // the round's table as the server last sent it
let auditKey = "";
let auditAt = 0;
let liveKey = "";        // the picked running table's live view, as last loaded

const CHANGES = [
  ["winner", "Who won"],
  ["move", "A roll counts for another player"],
  ["add_roll", "Add a roll that was not entered"],
  ["remove_roll", "Remove a roll that never happened"],
];

/** The finished rounds of the night and the tables each was played at, from the cards. */
function finishedRounds(view) {
  const seen = new Map();
  for (const card of Object.values(view.players || {})) {
    for (const r of card.rounds || []) {
      const key = `${r.set}.${r.round}`;
      const tables = seen.get(key) || { set: r.set, round: r.round, tables: 0 };
      tables.tables = Math.max(tables.tables, r.table);
      seen.set(key, tables);
    }
  }
  return [...seen.values()].sort((a, b) => a.set - b.set || a.round - b.round);
}

/** The rounds the host may correct: the finished ones and, once it has started, the
 * round in play (``running``, at as many tables as the live view has). */
function correctableRounds(view) {
  const rounds = finishedRounds(view);
  const tables = (view.tables || []).length;
  if (view.phase === "playing" && view.started && tables
      && !rounds.some((r) => r.set === view.set && r.round === view.round)) {
    rounds.push({ set: view.set, round: view.round, tables, running: true });
  }
  return rounds;
}

const roundName = (r, sets) => `Round ${r.round}` + (sets > 1 ? ` of set ${r.set}` : "")
  + (r.running ? " (in play)" : "");

/** The audit list: every correction and undo, newest last (null when there are none). */
export function auditList(doc) {
  const entries = doc.entries || [];
  if (!entries.length) return h("p", { class: "small muted", id: "audit-empty" }, "No corrections or undos so far.");
  return h("ol", { class: "audit", id: "audit-list" }, entries.map((e) => h("li", {
    dataset: { kind: e.kind, change: e.change || "" } },
  h("strong", {}, e.kind === "undo" ? "Undo" : "Correction"), ": ", e.what,
  h("span", { class: "small muted" }, ` — ${e.who || "unknown sender"}`,
    e.at ? `, ${new Date(e.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}` : ""),
  e.why ? h("span", { class: "small" }, ` — why: ${e.why}`) : null)));
}

/** "Provisional" or "Final" in words, for the host and results pages; ``closedAt``, when
 * the host closed the night, in words. */
export function provisionalWords(view, closedAt = null) {
  if (view.closed) return `Final results: the host closed the night${closedAt ? ` at ${closedAt}` : ""}.`;
  if (view.phase === "over") return "Provisional results: the host may still correct them until closing the night.";
  return view.phase === "rolloff" ? "Provisional results: a roll-off is due."
    : "Provisional results: the night is still being played.";
}

/** True for a socket message that carries an undo: the audit list gains an entry the
 * view does not count (it counts corrections only), so the pages fetch the list again. */
export const isUndo = (message) => message.type === "event" && message.event && message.event.type === "undo";

/** The audit list again now (an undo at a table or on another host's phone). */
export function refreshAudit() {
  if (!ctx) return;
  auditAt = Date.now();
  drawAudit($("audit"), ctx.base, ctx.token);
}

/** Fetch the audit list into ``box`` (the results page calls this as the night changes). */
export async function drawAudit(box, base, token) {
  try {
    const doc = await api(`${base}/corrections`, { token });
    fill(box, auditList(doc));
    return doc;
  } catch (err) {
    fill(box, h("p", { class: "small muted" }, `The list of corrections could not be loaded: ${err.text || err}`));
    return null;
  }
}

function ask(title, text, yes) {
  const dialog = $("confirm");
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  return new Promise((resolve) => {
    const done = (value) => { dialog.close(); resolve(value); };
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
    dialog.oncancel = () => resolve(false);
    dialog.showModal();
  });
}

function options(select, items, value) {
  fill(select, items.map(([v, text]) => h("option", { value: v }, text)));
  if (value !== undefined && items.some(([v]) => String(v) === String(value))) select.value = String(value);
}

function rollText(r) {
  return `${r.number}. ${r.player || "ghost seat"}: ${r.words} (${r.dice.join(" ")})`;
}

function drawRound() {
  const t = shown;
  if (!t) { fill("fix-round", null); return; }
  const scores = t.team
    ? `${t.players[0]} & ${t.players[2]} ${t.scores[0]} – ${t.scores[1]} ${t.players[1]} & ${t.players[3]}`
    : t.players.map((p, i) => `${p || "ghost"} ${t.scores[i]}`).join(" · ");
  const head = t.running
    ? (t.winners.length ? `Settled: won by ${t.winners.join(" & ")}` : "In play")
    : `Won by ${t.winners.join(" & ") || "nobody"}`;
  fill("fix-round",
    t.running ? h("p", { class: "small", id: "fix-running" }, "This round is still being played: "
      + "a correction changes the table's points at once; whose turn it is stays with the dice. "
      + "Who won is decided when the round ends.") : null,
    h("p", { id: "fix-result" }, h("strong", {}, head), ` · ${scores}`,
      t.corrected ? h("span", { class: "small muted" }, ` · corrected ${t.corrected}×`) : null),
    h("ol", { class: "fix-rolls small", id: "fix-rolls", "aria-label": "The round's rolls" },
      t.rolls.map((r) => h("li", { dataset: { number: r.number, kind: r.kind } },
        `${r.player || "ghost seat"}: ${r.words} (${r.dice.join(" ")})`,
        r.phase === "first_roll" ? h("span", { class: "muted" }, " — roll for high to start") : null,
        r.phase === "tie_break" ? h("span", { class: "muted" }, " — tie-break") : null))));
  drawFields();
}

function drawFields() {
  const change = $("fix-change").value;
  const t = shown;
  const players = t ? t.players.filter(Boolean) : [];
  const rolls = t ? t.rolls.filter((r) => r.phase !== "first_roll") : [];
  $("fix-player-row").hidden = change === "remove_roll";
  $("fix-roll-row").hidden = !(change === "move" || change === "remove_roll");
  $("fix-dice-row").hidden = change !== "add_roll";
  $("fix-player-label").textContent = { winner: "Who won (partners win together)", move: "Counts for",
    add_roll: "Who rolled it" }[change] || "Player";
  options($("fix-player"), players.map((p) => [p, p]), $("fix-player").value);
  options($("fix-roll"), rolls.map((r) => [r.number, rollText(r)]), $("fix-roll").value);
  otherPlayer();
  const winner = $("fix-change").querySelector('option[value="winner"]');
  winner.disabled = Boolean(t && t.running);  // decided at the bell
  winner.textContent = t && t.running ? "Who won (after the round)" : "Who won";
  if (winner.disabled && change === "winner") { $("fix-change").value = "move"; drawFields(); return; }
  $("fix-send").disabled = !t || (change !== "add_roll" && change !== "winner" && !rolls.length);
}

/** A move: offer someone other than the player the picked roll counts for now. */
function otherPlayer() {
  if ($("fix-change").value !== "move" || !shown) return;
  const roll = shown.rolls.find((r) => r.number === Number($("fix-roll").value));
  const next = roll && shown.players.find((p) => p && p !== roll.player);
  if (next && $("fix-player").value === roll.player) $("fix-player").value = next;
}

/** The sides of a table's round: their players, score and whether they won. */
function sides(t) {
  const groups = t.team ? [[t.players[0], t.players[2]], [t.players[1], t.players[3]]]
    : t.players.map((p) => [p]);
  return groups.map((players, i) => ({ players: players.filter(Boolean), score: t.scores[i],
    won: players.some((p) => p && t.winners.includes(p)) }));
}

const named = (side) => side.players.join(" & ") || "the ghost seat";

/** After a roll's correction of a finished round: when one side now has the most points
 * but did not win, ask whether to set it as the winners (nothing happens by itself). */
function offerWinner() {
  const t = shown;
  const box = $("fix-prompt");
  const all = t && !t.running ? sides(t) : [];
  const best = Math.max(...all.map((x) => x.score));
  const leaders = all.filter((x) => x.score === best);
  const won = all.find((x) => x.won);
  if (leaders.length !== 1 || !won || leaders[0].won || !leaders[0].players.length) {
    box.hidden = true;
    return;
  }
  const lead = leaders[0];
  const plural = lead.players.length > 1;
  const question = `${named(lead)} now ${plural ? "have" : "has"} ${lead.score} to ${named(won)}'s `
    + `${won.score}: set ${named(lead)} as the ${plural ? "winners" : "winner"}?`;
  const where = { set: t.set, round: t.round, table: t.table };
  fill(box,
    h("p", { id: "fix-prompt-text" }, h("strong", {}, question)),
    h("label", { for: "fix-prompt-reason" }, "Why (shown on the audit list)"),
    h("input", { type: "text", id: "fix-prompt-reason", maxlength: 200, autocomplete: "off",
      value: `After the correction: ${named(lead)} ${lead.score}, ${named(won)} ${won.score}` }),
    h("div", { class: "row" },
      h("button", { type: "button", class: "btn", id: "fix-prompt-yes",
        onclick: () => setWinner(where, lead.players[0]) },
      `Set ${named(lead)} as the ${plural ? "winners" : "winner"}`),
      h("button", { type: "button", class: "btn secondary", id: "fix-prompt-no",
        onclick: () => { box.hidden = true; } }, "Keep the result")));
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

async function setWinner(where, player) {
  const reason = $("fix-prompt-reason").value.replace(/\s+/g, " ").trim();
  if (!reason) {
    $("fix-note").textContent = "Say why: the audit list shows the reason with the correction.";
    $("fix-prompt-reason").focus();
    return;
  }
  try {
    const ack = await ctx.commands.send(`${ctx.base}/corrections`,
      { ...where, change: "winner", player, reason });
    await ctx.live.acknowledge(ack);
    $("fix-prompt").hidden = true;
    $("fix-note").textContent = "The winners are set. The cards and prizes follow; it is on the audit list.";
    toast("Winners set.");
    await loadRound();
    auditKey = "";
    update(ctx.live.state);
  } catch (err) {
    $("fix-note").textContent = err.text || String(err);
    toast(err.text || String(err), "error", 6000);
  }
}

async function loadRound() {
  const [set, round] = $("fix-which").value.split(".").map(Number);
  const table = Number($("fix-table").value);
  picked = { set, round, table };
  $("fix-prompt").hidden = true;
  const now = ctx.live.state.view;
  liveKey = now.set === set && now.round === round ? JSON.stringify((now.tables || [])[table - 1]) : "";
  try {
    shown = await api(`${ctx.base}/rounds/${set}/${round}/tables/${table}`, { token: ctx.token });
  } catch (err) {
    shown = null;
    toast(err.text || String(err), "error", 6000);
  }
  drawRound();
}

function describe(body) {
  const where = `table ${body.table}, ${roundName({ ...body, running: shown.running }, ctx.live.state.view.sets).toLowerCase()}`;
  const roll = body.roll ? shown.rolls.find((r) => r.number === body.roll) : null;
  const text = {
    winner: () => `${body.player}'s side won at ${where}`,
    move: () => `roll ${rollText(roll)} counts for ${body.player} at ${where}`,
    add_roll: () => `${body.player} also rolled ${body.dice.join(" ")} at ${where}`,
    remove_roll: () => `roll ${rollText(roll)} at ${where} never happened`,
  }[body.change]();
  const follows = shown.running
    ? "The table's points follow at once; whose turn it is does not change"
    : "The cards, prizes and money follow";
  return `${text[0].toUpperCase()}${text.slice(1)}. Why: ${body.reason}. ${follows}; the audit list keeps it.`;
}

async function send(ev) {
  ev.preventDefault();
  if (!picked || !shown) return;
  const change = $("fix-change").value;
  const reason = $("fix-reason").value.replace(/\s+/g, " ").trim();
  if (!reason) {
    $("fix-note").textContent = "Say why: the audit list shows the reason with the correction.";
    $("fix-reason").focus();
    return;
  }
  const body = { ...picked, change, reason };
  if (change !== "remove_roll") body.player = $("fix-player").value;
  if (change === "move" || change === "remove_roll") body.roll = Number($("fix-roll").value);
  if (change === "add_roll") body.dice = ["fix-d1", "fix-d2", "fix-d3"].map((id) => Number($(id).value));
  if (!(await ask(shown.running ? "Correct this table's round in play?" : "Correct this result?",
    describe(body), "Correct it"))) return;
  try {
    const ack = await ctx.commands.send(`${ctx.base}/corrections`, body);
    await ctx.live.acknowledge(ack);
    $("fix-reason").value = "";
    $("fix-note").textContent = "Corrected. The cards and prizes follow; it is on the audit list.";
    toast("Corrected.");
    await loadRound();
    if (change !== "winner") offerWinner(); else $("fix-prompt").hidden = true;
    auditKey = "";
    update(ctx.live.state);
  } catch (err) {
    $("fix-note").textContent = err.text || String(err);
    toast(err.text || String(err), "error", 6000);
  }
}

/** Close the night (asked first): the results become final. */
export async function closeNight() {
  if (!(await ask("Close the night?", "The results become final: no more corrections after this.", "Close the night"))) return;
  try {
    const ack = await ctx.commands.send(`${ctx.base}/close`, {});
    await ctx.live.acknowledge(ack);
    toast("The night is closed: the results are final.");
  } catch (err) {
    toast(err.text || String(err), "error", 6000);
  }
}

const dieSelect = (id, n) => [h("label", { class: "sr-only", for: id }, `Die ${n}`),
  h("select", { id }, [1, 2, 3, 4, 5, 6].map((f) => h("option", { value: f }, String(f))))];

/** Build the console in ``box`` (a section of the host page). */
export function initCorrections({ box, commands, live, base, token }) {
  ctx = { box, commands, live, base, token };
  fill(box,
    h("h2", { id: "fix-title" }, "Correct a result"),
    h("p", { class: "small", id: "fix-provisional", role: "status" }),
    h("button", { type: "button", class: "btn secondary", id: "close-night", hidden: true, onclick: closeNight }, "Close the night: results final"),
    h("p", { class: "small muted", id: "fix-help" }, "Fix a round at any table, finished or in play: who won, a roll credited to the wrong player, a roll never entered or one that never happened. The seating played since stands."),
    h("div", { class: "row", id: "fix-pick" },
      h("label", { class: "sr-only", for: "fix-which" }, "Round"),
      h("select", { id: "fix-which", class: "grow", onchange: () => { drawTables(); loadRound(); } }),
      h("label", { class: "sr-only", for: "fix-table" }, "Table"),
      h("select", { id: "fix-table", onchange: loadRound })),
    h("div", { id: "fix-round", "aria-live": "polite" }),
    h("form", { id: "fix-form", onsubmit: send },
      h("label", { for: "fix-change" }, "Change"),
      h("select", { id: "fix-change", onchange: drawFields }, CHANGES.map(([v, t]) => h("option", { value: v }, t))),
      h("div", { id: "fix-player-row" }, h("label", { for: "fix-player", id: "fix-player-label" }, "Player"),
        h("select", { id: "fix-player" })),
      h("div", { id: "fix-roll-row", hidden: true }, h("label", { for: "fix-roll" }, "Which roll"),
        h("select", { id: "fix-roll", onchange: otherPlayer })),
      h("div", { id: "fix-dice-row", class: "row", hidden: true, role: "group", "aria-label": "The three dice" },
        ...dieSelect("fix-d1", 1), ...dieSelect("fix-d2", 2), ...dieSelect("fix-d3", 3)),
      h("label", { for: "fix-reason" }, "Why (shown on the audit list)"),
      h("input", { type: "text", id: "fix-reason", maxlength: 200, autocomplete: "off",
        placeholder: "e.g. the table agreed Bea rolled it" }),
      h("button", { type: "submit", class: "btn", id: "fix-send" }, "Correct…")),
    h("div", { id: "fix-prompt", class: "fix-prompt", hidden: true, role: "group", "aria-labelledby": "fix-prompt-text" }),
    h("p", { class: "small muted", id: "fix-note", role: "status" }),
    h("h3", { id: "audit-title" }, "Corrections and undos"),
    h("div", { id: "audit" }));
}

let roundsKey = "";

function drawTables() {
  const which = $("fix-which").value;
  const r = correctableRounds(ctx.live.state.view).find((x) => `${x.set}.${x.round}` === which);
  const count = r ? r.tables : 0;
  options($("fix-table"), Array.from({ length: count }, (_, i) => [i + 1, `Table ${i + 1}`]), $("fix-table").value);
}

/** Follow the night: the rounds to pick from, provisional or final, the audit list. */
export function update(state) {
  if (!ctx) return;
  const view = state.view;
  const rounds = correctableRounds(view);
  ctx.box.hidden = !rounds.length;
  $("fix-provisional").textContent = provisionalWords(view);
  $("close-night").hidden = view.closed || view.phase !== "over";
  $("fix-form").hidden = Boolean(view.closed);
  const key = JSON.stringify(rounds);
  if (key !== roundsKey) {
    roundsKey = key;
    const last = rounds.at(-1);
    options($("fix-which"), rounds.map((r) => [`${r.set}.${r.round}`, roundName(r, view.sets)]),
      $("fix-which").value || (last ? `${last.set}.${last.round}` : undefined));
    drawTables();
    if (rounds.length) loadRound();
  } else if (picked && shown && shown.running && view.set === picked.set && view.round === picked.round
    && JSON.stringify((view.tables || [])[picked.table - 1]) !== liveKey) {
    loadRound();  // the running table moved on (an entry, an undo): its rolls again
  }
  // the audit list: again when a correction, the phase or the round changed, else at most
  // every 15 s (an undo at a table's phone shows up then)
  const now = Date.now();
  const aKey = JSON.stringify([view.corrections, view.closed, view.phase, view.set, view.round]);
  if (aKey !== auditKey || now - auditAt > 15000) {
    auditKey = aKey;
    auditAt = now;
    drawAudit($("audit"), ctx.base, ctx.token);
  }
}
