// The end of the night: prizes (with ties shared or rolled off), the roll-offs themselves,
// every player's score card, and downloads (party log, standings, full report).

import { adoptToken, api, Commands, pathParts, rulesOf } from "./api.js";
import { authFile } from "./files.js";
import { Live } from "./live.js";
import { drawAudit, isUndo, provisionalWords } from "./host_corrections.js";
import { handedList, payoutSheet, prizesWaiting } from "./money.js";
import { prizeList, rolloffPanel, standingsOf } from "./parts.js";
import { $, fill, h, roundLabel, toast, topbar } from "./ui.js";

const { night } = pathParts();
const base = `/api/nights/${encodeURIComponent(night)}`;
let held = null;
let live = null;
let commands = null;
let rules = null;
let me = null;

async function roll(player, dice = null) {
  try {
    const body = dice ? { dice } : { roll_for_me: true };
    if (held.role === "host") body.player = player;
    const ack = await commands.send(`${base}/rolloff`, body);
    toast(`${player} rolled ${ack.event.dice.join(" ")}`);
    await live.acknowledge(ack);
  } catch (err) {
    toast(err.text || String(err), "error");
  }
}

/** Every player's score card, best first, fitted to a phone: the name with each round's
 * W or L under it (a set a line), then the figures. */
function cardsTable(view) {
  const sets = view.sets;
  const rows = standingsOf(view);
  const mini = view.words.mini;
  const head = [sets > 1 ? "Player · rounds (a set a line)" : "Player · rounds", "W", "L", "Buncos", mini, "Points"]
    .map((x, i) => h("th", { scope: "col", class: i === 0 ? "name" : null }, x));
  return h("table", { class: "grid cards-grid", id: "cards-table", "aria-label": "Every player's score card" },
    h("thead", {}, h("tr", {}, head)),
    h("tbody", {}, rows.map((row) => {
      const marks = {};
      for (const m of row.rounds) marks[`${m.set}.${m.round}`] = m;
      const lines = [];
      for (let s = 1; s <= sets; s += 1) {
        const set = [];
        for (let r = 1; r <= 6; r += 1) {
          const m = marks[`${s}.${r}`];
          set.push(m ? h("span", { class: `wl ${m.result}`, title: `round ${r}, table ${m.table}`, dataset: { round: r, set: s } }, m.result)
            : h("span", { class: "wl none", "aria-label": `round ${r} not played` }, "·"));
        }
        lines.push(h("span", { class: "set-marks" }, set));
      }
      return h("tr", { dataset: { player: row.player } },
        h("th", { scope: "row", class: "name" }, h("span", { class: "who" }, row.player), h("span", { class: "marks" }, lines)),
        h("td", { dataset: { col: "wins" } }, row.wins), h("td", { dataset: { col: "losses" } }, row.losses),
        h("td", { dataset: { col: "buncos" } }, row.buncos),
        h("td", {}, row.mini_buncos), h("td", {}, row.points));
    })));
}

/** Show only the rows of the players whose name holds what is typed in "Find a player". */
function narrowCards() {
  const typed = $("cards-find").value.trim().toLowerCase();
  for (const row of document.querySelectorAll("#cards-table tbody tr")) {
    row.hidden = Boolean(typed) && !row.dataset.player.toLowerCase().includes(typed);
  }
  if (typed) $("cards-fold").open = true;
}

function downloads() {
  const q = "";  // the token goes in the Authorization header (files.js), never in a link
  const items = [
    [`${base}/download/payouts.pdf${q}`, `bunco-${night}-payouts.pdf`, "Prize and payout sheet, with lines to sign (PDF, to print)"],
    [`${base}/download/report.pdf${q}`, `bunco-${night}-report.pdf`, "Night report with charts (PDF, to print)"],
    [`${base}/download/report.html${q}`, `bunco-${night}-report.html`, "Night report with charts (web page)"],
    [`${base}/download/sheets.pdf${q}`, `bunco-${night}-sheets.pdf`, "Filled score cards, table tallies and master sheet (PDF, to print)"],
    [`${base}/download/standings.csv${q}`, `bunco-${night}-results.csv`, "Results with prizes won (spreadsheet)"],
    [`${base}/export/standings.csv${q}`, `bunco-${night}-standings.csv`, "Standings (spreadsheet)"],
    [`${base}/download/payouts.csv${q}`, `bunco-${night}-payouts.csv`, "Payouts: who is paid how much for what (spreadsheet)"],
    [`${base}/export/log.jsonl${q}`, `bunco-${night}.jsonl`, "The night's record, to replay it or keep it (for the bunco program)"],
    [`${base}/report${q}`, `bunco-${night}-report.json`, "Everything in one file, for other programs"],
  ];
  fill("downloads", items.map(([href, file, text]) => h("li", {},
    h("a", { ...authFile(href, held.token, file), dataset: { download: file, authFile: file } }, text))));
}

let lastAudit = "";
let closedAt = null;  // when the host closed the night, in words (from the audit list)
/** From how many players the score cards start folded, with "Find a player". */
const FIND_FROM = 20;

function render(state) {
  const view = state.view;
  $("title").textContent = `${state.name}: results`;
  document.title = `Results — ${state.name}`;
  $("bar-title").textContent = state.name;
  document.body.dataset.phase = view.phase;
  $("status").textContent = view.phase === "over" ? "The night is over. Congratulations to the winners!"
    : view.phase === "rolloff" ? "A roll-off decides a tie: the tied players each roll in turn, below."
      : `The night is still on (${roundLabel(view)}): these are the cards so far.`;
  $("provisional").textContent = provisionalWords(view, closedAt);
  const auditKey = JSON.stringify([view.corrections, view.closed, view.phase, view.set, view.round]);
  if (auditKey !== lastAudit) {  // the audit list again when a correction (or the round) changed
    lastAudit = auditKey;
    drawAudit($("audit"), base, held.token).then((doc) => {
      const at = doc && doc.closed_at ? new Date(doc.closed_at) : null;
      const said = at ? `${at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })} on ${at.toLocaleDateString([], { day: "numeric", month: "short", year: "numeric" })}` : null;
      if (said !== closedAt) {
        closedAt = said;
        render(live.state);
      }
    });
  }
  const early = view.ended_early;
  $("ended-early").hidden = !early;
  $("ended-early").textContent = early ? `The host ended the night after round ${early.round} of set ${early.set}.` : "";
  const verifying = Boolean(rules && rules.verify_for_prizes);
  $("verify-note").hidden = !verifying;
  if (verifying) {
    const check = view.verification || { cards: {}, unverified: [] };
    const players = Object.keys(view.players);
    const done = players.filter((p) => check.cards[p] && check.cards[p].current);
    const who = done.map((p) => {
      const c = check.cards[p];
      return `${p}${c.checker ? ` by ${c.checker}` : ""}${c.after ? ` after round ${c.after.round}` : ""}`;
    });
    const stale = players.filter((p) => check.cards[p] && !check.cards[p].current);
    $("verify-note").textContent = "Prizes count verified cards only, and wait until every card present is verified as it stands "
      + `(${done.length} of ${players.length}).`
      + (who.length ? ` Verified: ${who.join("; ")}.` : "")
      + (stale.length ? ` Changed since verified: ${stale.join(", ")}.` : "")
      + (check.closed_unverified ? ` The host closed the cards with these not verified: ${check.closed_unverified.join(", ") || "none"}.` : "");
  }
  const canRoll = (who) => held.role === "host" || (held.role === "player" && who === me);
  const panel = rolloffPanel(view, { canRoll, onRoll: roll, real: state.dice !== "phones" });
  $("rolloff-box").hidden = !panel;
  fill("rolloff-box", panel);
  const prizes = handedList(view) || prizesWaiting(view) || prizeList(view);
  if (prizes) fill("prizes", prizes);
  const extras = [];
  if (view.traveler) extras.push(`The traveler ends the night with ${view.traveler}.`);
  if (view.last_bunco) extras.push(`Last Bunco of the night: ${view.last_bunco}.`);
  $("extras").textContent = extras.join(" ");
  fill("cards", cardsTable(view));
  const count = Object.keys(view.players).length;
  $("cards-summary").textContent = `Every player's score card (${count})`;
  $("cards-find-form").hidden = count < FIND_FROM;
  if (!$("cards-fold").dataset.sized) {  // open by itself on a small night
    $("cards-fold").open = count < FIND_FROM;
    $("cards-fold").dataset.sized = "yes";
  }
  narrowCards();
  const payouts = payoutSheet(view, closedAt);  // null for a night without money
  $("payouts-box").hidden = !payouts;
  fill("payouts", payouts);
}

async function main() {
  topbar("Results");
  try {
    held = await adoptToken(night, ["host", "player", "viewer", "table:*"]);
  } catch (err) {
    $("fatal").textContent = err.text || String(err);
  }
  if (!held) {
    $("fatal").textContent = $("fatal").textContent || "Open the results from a page of this night.";
    $("fatal").hidden = false;
    return;
  }
  if (held.role === "player") {
    try { me = (await api("/api/me", { token: held.token })).player; } catch { me = null; }
  }
  commands = new Commands(held.token);
  live = new Live({
    night, token: held.token, onState: (s) => { if (rules) render(s); },
    onMessage: (m) => { if (isUndo(m)) drawAudit($("audit"), base, held.token); },  // not in the view's count
    onFatal: (err) => { $("fatal").textContent = err.text || "This link no longer works."; $("fatal").hidden = false; },
  });
  try {
    await live.refresh();
    rules = await rulesOf(live.state.setup);
  } catch (err) {
    $("fatal").textContent = err.text || String(err);
    $("fatal").hidden = false;
    return;
  }
  downloads();
  $("cards-find").addEventListener("input", narrowCards);
  $("cards-find-form").addEventListener("submit", (ev) => ev.preventDefault());
  $("content").hidden = false;
  render(live.state);
  live.connect();
  document.body.dataset.ready = "yes";
}

main();
