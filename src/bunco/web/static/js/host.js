// The host's page, a console organised by the moment of the night (host_console.js): what
// to do now first, then five tabs — the tables live with the bell, the moves and undo; the
// players (find one, the door, late arrivals, departures, substitutes, seats by hand,
// bots); the seating cards with every table's QR code and join code (printable); breaks,
// drawings, judged prizes and verifying cards; and the rest (corrections, dice, the host
// link on another phone, co-hosts, ending the night early). Roll-offs show under the top
// card when one is due.

import {
  adoptToken, api, Commands, early, keyLink, pathParts, publicOrigin, recall, rememberNight, rulesOf, store,
} from "./api.js";
import { authFile } from "./files.js";
import { Live } from "./live.js";
import { drawVerify, initVerify } from "./host_verify.js";
import { initPhones, outOfTouchNow } from "./phones.js";
import { initDashboard } from "./host_dashboard.js";
import { initCheckin } from "./host_checkin.js";
import { initViewerLinks } from "./host_viewer_links.js";
import { registerOffline } from "./pwa.js";
import { RoundClock } from "./round_clock.js";
import { initHostMoney, updateHostMoney } from "./money.js";
import { initSeatByHand, updateSeatByHand } from "./host_seating.js";
import {
  closeNight, initCorrections, isUndo, refreshAudit, update as updateCorrections,
} from "./host_corrections.js";
import { BIG_NIGHT_TABLES, foldLine, initBigNight, showing } from "./host_big.js";
import {
  currentTab, followMoment, initFindPlayer, initFindTable, initTabs, momentOf, nowWords, showTab,
} from "./host_console.js";
// "Delete this night", once it is over: its own block in host.html
import "./host_delete.js";
import {
  bellNews, drawBellBanner, movesList, rolloffPanel, startBellButton, startBellRang, tableCard,
} from "./parts.js";
import {
  $, buzz, copyText, fill, h, keepAwake, names, ordinalTable, ringBell, roundLabel, toast, topbar,
} from "./ui.js";

const { night } = pathParts();
const base = `/api/nights/${encodeURIComponent(night)}`;
let token = null;
let roundClock = null;  // timed rounds (round_clock.js)
let live = null;
let commands = null;
let created = null;     // the creation reply (join codes, viewer token), if this phone made the night
let seatingKey = "";
let rules = null;       // every rule value of a night in groups (prize_groups)
let botsKey = "";
let peopleKey = null;   // who plays, as the Players tab's lists last drew them
let botsBusy = 0;       // bot changes not yet saved: the switches show the host's choice meanwhile
let botsChain = Promise.resolve();
let origin = location.origin;  // the address phones use (publicOrigin), set in main
let seatShown = 1;      // the table whose seating card the Seating tab shows
let printing = false;   // every seating card drawn, for the printer
let redrawFound = () => {};  // "find a table" and "find a player" follow the night
const byName = (a, b) => a.localeCompare(b);

const pageLink = (page, withToken = true) => {
  const viewer = created && created.viewer_token;
  const query = withToken && viewer ? `?token=${encodeURIComponent(viewer)}` : "";
  return `${origin}/n/${encodeURIComponent(night)}/${page}${query}`;
};
const qr = (text, alt) => h("img", { class: "qr", src: `/api/qr.svg?text=${encodeURIComponent(text)}`,
  alt, width: 176, height: 176 });

function credsFor(table) {
  return created && created.tables ? created.tables.find((c) => c.table === table) : null;
}

function joinLink(c) {
  return `${origin}/join?token=${encodeURIComponent(c.token)}`;
}

async function newCode(table) {
  const old = credsFor(table);  // asks first: the printed card's code and QR stop working
  const card = old ? `with the code ${old.code} (and its QR code)` : "(its join code and QR code)";
  if (!(await ask(`New join code for table ${table}?`, `Table ${table}'s printed card ${card} stops `
    + "working at once: show or print the new one. Phones that already joined keep scoring.",
  "Make a new code"))) return;
  try {
    const c = await api(`${base}/tables/${table}/credentials`, { method: "POST", token });
    created = created || { night, tables: [] };
    created.tables = [...(created.tables || []).filter((x) => x.table !== table), c];
    store(`${night}:created`, created);
    seatingKey = "";
    drawSeating(live.state.view);
    toast(`Table ${table} has a new join code; the old one no longer works.`);
  } catch (err) {
    toast(err.text || String(err), "error");
  }
}

/** The tables' current join codes as the server keeps them for every host of the night
 * (a co-host's phone prints the same cards; a code made again on another phone shows here):
 * ``asked``, the reply already on its way (boot.js asks it as the page is read). */
async function loadJoinCodes(asked = null) {
  try {
    const kept = await (asked || api(`${base}/join-codes`, { token }));
    if (!kept) throw new Error("no codes");
    const fresh = new Map(kept.tables.map((c) => [c.table, c]));
    const local = ((created && created.tables) || []).filter((c) => !fresh.has(c.table));
    created = { night, ...(created || {}), tables: [...local, ...fresh.values()] };
    store(`${night}:created`, created);
  } catch { /* offline: the codes this phone holds */ }
}

function seatList(players, team) {
  return h("ol", {}, players.map((p, i) => h("li", {},
    p || "(ghost)", i === 0 ? h("span", { class: "muted small" }, " — scorekeeper") : null,
    team && i < 2 ? h("span", { class: "muted small" }, ` · partner ${players[i + 2] || "ghost"}`) : null)));
}

const seatingOf = (view) => (view.tables.length ? view.tables.map((t) => t.players)
  : (view.next ? view.next.tables : []));

/** The Seating tab's choice of table: a button per table on a small night, a list on a big one. */
function drawSeatPick(count) {
  seatShown = Math.min(Math.max(1, seatShown), Math.max(1, count));
  if (count < BIG_NIGHT_TABLES) {
    fill("seat-pick", Array.from({ length: count }, (_, i) => h("button", {
      type: "button", class: "btn secondary seat-no-btn", "aria-pressed": String(i + 1 === seatShown),
      "aria-label": `Table ${i + 1}`, dataset: { seat: i + 1 }, onclick: () => showSeatCard(i + 1),
    }, String(i + 1))));
    return;
  }
  const pick = h("select", { id: "seat-table", onchange: (ev) => showSeatCard(Number(ev.target.value)) },
    Array.from({ length: count }, (_, i) => h("option", { value: i + 1, selected: i + 1 === seatShown }, `Table ${i + 1}`)));
  fill("seat-pick", h("label", { for: "seat-table" }, "The card of"), pick);
}

/** Show table ``n``'s seating card in the Seating tab. */
function showSeatCard(n) {
  seatShown = n;
  seatingKey = "";
  drawSeating(live.state.view);
  if (currentTab() !== "seating") showTab("seating");
}

function drawSeating(view) {
  const seating = seatingOf(view);
  const all = printing || seating.length < BIG_NIGHT_TABLES;  // a big night draws one card at a time
  const key = JSON.stringify([seating, created && created.tables, view.round, view.set, seatShown, all]);
  if (key === seatingKey) return;
  seatingKey = key;
  drawSeatPick(seating.length);
  $("print-title").textContent = `${live.state.name} — ${roundLabel(view)} seating`;
  const cards = seating.map((players, i) => {
    const n = i + 1;
    if (!all && n !== seatShown) return null;
    const t = view.tables[i];
    const team = t ? t.team : Boolean(view.next && view.next.teams[i]); // the server's word
    const c = credsFor(n);
    return h("article", { class: `seat-card${n === seatShown ? " shown" : ""}`, dataset: { table: n } },
      h("h3", {}, ordinalTable(n, seating.length)),
      team ? h("p", { class: "small" }, `${names([players[0], players[2]])} vs ${names([players[1], players[3]])}`)
        : h("p", { class: "small" }, "Individuals: each player for themselves"),
      seatList(players, team),
      c ? [qr(joinLink(c), `QR code: join table ${n} as its scorekeeper`),
        // a div: a large code in a <p> reads to screen readers as a heading made by hand
        h("div", { class: "code", dataset: { code: c.code }, "aria-label": `Join code ${c.code.split("").join(" ")}` }, c.code),
        h("p", { class: "link-text" }, `${origin.replace(/^https?:\/\//, "")}/join — code ${c.code}`),
        h("a", { class: "join-link no-print btn secondary", href: joinLink(c), dataset: { table: n } }, `Keep score for table ${n} on this phone`)]
        : h("p", { class: "no-print" }, h("button", { type: "button", class: "btn secondary",
          onclick: () => newCode(n) }, "Make a join code")),
      c ? h("p", { class: "no-print" }, h("button", { type: "button", class: "btn secondary small",
        onclick: () => newCode(n), "aria-label": `New code for table ${n}` }, "New code")) : null);
  });
  const extra = created && created.viewer_token ? h("article", { class: "seat-card shown", id: "player-card" },
    h("h3", {}, "Players: follow your card"),
    h("p", { class: "small" }, "Scan, pick your name: your seat, partner, score card and moves, live."),
    qr(pageLink("player"), "QR code: the player page"),
    h("a", { class: "no-print btn secondary", id: "player-link", href: pageLink("player") }, "Open the players' page")) : null;
  fill("sheet", extra, cards);
}

/** "Print every card": a big night draws them all first, and prints once their QR codes
 * have loaded. */
async function printSeating() {
  printing = true;
  seatingKey = "";
  drawSeating(live.state.view);
  await Promise.all([...document.querySelectorAll("#sheet img")].map((img) => (img.complete ? null
    : new Promise((done) => { img.onload = done; img.onerror = done; }))));
  window.print();
  printing = false;
  seatingKey = "";
  drawSeating(live.state.view);
}

function drawNav() {
  const viewer = Boolean(created && created.viewer_token);
  fill("nav", h("a", { class: "btn secondary", id: "screen-link", href: pageLink("screen", viewer), target: "_blank",
    rel: "noopener" }, "Big screen (for a TV)"),
  h("a", { class: "btn secondary", href: results() }, "Results"));
  $("end-link").href = results();
  // a card per table for this round, its QR code the players' page (with this viewer token)
  const guide = $("guide-link");
  guide.hidden = !(created && created.viewer_token);
  if (!guide.hidden) {
    const file = authFile(`${base}/download/guide.pdf?viewer=${encodeURIComponent(created.viewer_token)}`,
      token, `bunco-${night}-guide-cards.pdf`);  // no host token in the link (files.js)
    Object.assign(guide, { href: file.href, download: file.download, onclick: file.onclick });
  }
}

async function rolloffRoll(player, dice = null) {
  try {
    const ack = await commands.send(`${base}/rolloff`, dice ? { dice, player } : { roll_for_me: true, player });
    toast(`${player} rolled ${ack.event.dice.join(" ")}`);
    await live.acknowledge(ack);
  } catch (err) {
    toast(err.text || String(err), "error");
  }
}

const results = () => `/n/${encodeURIComponent(night)}/end`;
const tableCount = (view) => view.tables.length || (view.next ? view.next.tables.length : 0);

/** The top card: the moment's words and the one next thing to do. */
function drawNow(state, previous) {
  const view = state.view;
  const moment = momentOf(view);
  const over = view.closed ? "The results are final: you closed the night."
    : "The prizes are decided. The results stay provisional (you can still correct them) until you close the night.";
  const ended = view.ended_early ? `You ended the night after ${roundWords(view.ended_early, view.sets)}. ` : "";
  const [title, text] = nowWords(view, { tables: tableCount(view), over, ended,
    checkin: moment === "before" ? ($("checkin-count") && !$("checkin-card").hidden ? `${$("checkin-count").textContent}.` : "") : "" });
  $("now-title").textContent = title;
  $("now-text").textContent = text;
  const line = [];
  if (moment === "end") {
    line.push(h("a", { class: "btn wide", href: results(), id: "results-link" }, "See the prizes"));
    if (!view.closed) line.push(h("button", { type: "button", class: "btn secondary wide", id: "now-close", onclick: closeNight }, "Close the night: results final"));
  }
  if (moment === "break" && view.break) {
    line.push(h("button", { type: "button", class: "btn secondary wide", id: "now-break-end",
      onclick: () => sendNow("breaks/end", "The break is over.") }, "End the break"));
  }
  fill("status-line", startBellButton(view, { commands: settling, live, base }), line);
  if (startBellRang(view, previous)) ringBell();
  const more = [];
  if (moment === "before") more.push(h("button", { type: "button", class: "btn secondary", onclick: () => showTab("seating") }, "Seating cards and codes"));
  if (moment === "between" && tableCount(view) >= BIG_NIGHT_TABLES) more.push(h("button", { type: "button", class: "btn secondary", onclick: () => { showTab("players"); $("find-player").focus(); } }, "Find a player's seat"));
  fill("now-more", more);
}

/** Mark ``player`` gone home, or back (``here``). */
async function sendPresence(player, here) {
  try {
    const ack = await commands.send(`${base}/presence`, { player, present: here });
    toast(here ? `${player} is back.` : `${player} has gone home.`);
    await live.acknowledge(ack);
  } catch (err) {
    toast(err.text || String(err), "error", 6000);
  }
}

async function sendNow(path, done) {
  try {
    const ack = await commands.send(`${base}/${path}`, {});
    toast(done);
    await live.acknowledge(ack);
  } catch (err) {
    toast(err.text || String(err), "error", 6000);
  }
}

function render(state, previous) {
  const view = state.view;
  $("night-name").textContent = state.name;
  $("bar-title").textContent = `Host · ${state.name}`;
  document.title = `Host — ${state.name}`;
  const count = view.seated.length;
  const phase = view.phase === "over" ? "The night is over"
    : view.phase === "rolloff" ? "Roll-off" : `${roundLabel(view)} of ${view.sets * 6}`;
  const where = view.phase === "over" ? `${count} players` : `${count} players at ${tableCount(view)} tables`;
  $("night-sub").textContent = `${view.words.rules || state.setup.rules} · ${where} · ${phase}`;
  followMoment(view);
  Object.assign(document.body.dataset, { phase: view.phase, round: String(view.round), bell: String(view.bell) });
  drawBellBanner(view, view.bell ? view.words.bell : "");  // the rules' words (party/words.py)
  if (!roundClock) roundClock = new RoundClock({ night, token });
  roundClock.follow(view, $("night-sub"));
  if (bellNews(view, previous)) {
    ringBell();
    buzz();
  }
  drawSeating(view);
  const reopen = view.phase !== "playing" || (view.last_round && !view.started);
  if (showing("overview")) fill("overview", view.tables.map((t) => {
    const card = tableCard(t, { view });
    if (t.rolls > 0 || reopen) {  // on the line of who rolls, to keep the card short
      card.querySelector(".tv-roller").append(h("button", { type: "button", class: "btn secondary small undo", dataset: { undo: t.table },
        "aria-label": `Undo last entry at table ${t.table}…`, onclick: () => hostUndo(t.table) },
      h("span", { "aria-hidden": "true" }, "↶ "), "Undo last entry…"));
    }
    return card;
  }));
  drawNow(state, previous);
  // once the night is over nobody moves on: no "sitting out next round" for everyone
  const moving = view.last_round && (view.next || view.tables.length);
  const moves = moving && showing("moves") ? movesList(view) : null;
  if (showing("moves")) fill("moves", moves ? [h("h3", {}, `Moves after round ${view.last_round.round}`), moves] : null);
  foldLine("moves", moving ? `Moves after round ${view.last_round.round} (${view.seated.length} players)` : "No moves yet");
  const ro = $("rolloff-box");
  const panel = rolloffPanel(view, { canRoll: () => true, onRoll: rolloffRoll, real: state.dice !== "phones" });
  ro.hidden = !panel;
  fill(ro, panel);
  const between = view.phase === "playing" && !view.started;
  for (const el of document.querySelectorAll("#people-card button, #people-card input, #people-card select")) {
    el.disabled = !between;
  }
  $("people-note").textContent = between ? "" : "Wait for the end of the round to change who plays.";
  const seatedKey = view.seated.join("\n");
  if (seatedKey !== peopleKey) {  // the lists again only when who plays changed
    peopleKey = seatedKey;
    for (const id of ["leaving", "sub-out"]) {
      const current = $(id).value;
      fill(id, view.seated.slice().sort().map((p) => h("option", { value: p, selected: p === current }, p)));
    }
  }
  if (document.activeElement !== $("dice-mode")) $("dice-mode").value = state.dice || "real";
  drawBots(state);
  drawVerify(state);
  drawEnd(view);
  updateHostMoney(state);  // breaks, drawings, presence, judged prizes (money.js)
  updateSeatByHand(state);  // swapping seats between rounds (host_seating.js)
  updateCorrections(state);  // the correction console and the audit list (host_corrections.js)
  redrawFound();
  keepAwake(view.phase !== "over");
}

/** Say how the phones' screens stay on (the Wake Lock API needs https or localhost). */
function drawAwake(mode) {
  const words = {
    "wake-lock": "The phones' screens stay on while the night runs.",
    video: "The phones' screens stay on while the night runs (each page keeps its phone awake).",
    no: "This phone may let its screen go dark: set its screen timeout longer in the phone's settings.",
    off: "",
  };
  $("awake-note").textContent = words[mode] || "";
  $("awake-note").dataset.mode = mode;
}

// -- host hand-off: this link on another phone, co-hosts ---------------------------------------------
function drawHandOff() {
  const link = `${origin}/night/${encodeURIComponent(night)}?key=${encodeURIComponent(token)}`;
  $("handoff-qr").src = `/api/qr.svg?text=${encodeURIComponent(link)}`;
  $("handoff-link").textContent = link;
  $("handoff-copy").onclick = () => copyText(link, $("handoff-note"));
}

async function loadCohosts() {
  try {
    const { cohosts } = await api(`${base}/cohosts`, { token });
    const live = cohosts.filter((c) => !c.revoked);
    fill("cohosts", live.length ? live.map((c) => h("li", { dataset: { cohost: c.id } },
      h("span", { class: "grow" }, c.label),
      h("button", { type: "button", class: "btn danger small", dataset: { revoke: c.id },
        "aria-label": `Revoke ${c.label}`, onclick: () => revokeCohost(c) }, "Revoke")))
      : h("li", { class: "muted" }, "No co-hosts yet."));
  } catch (err) {
    $("cohost-note").textContent = err.text || String(err);
  }
}

async function addCohost(ev) {
  ev.preventDefault();
  const name = $("cohost-name").value.replace(/\s+/g, " ").trim();
  try {
    const made = await api(`${base}/cohosts`, { method: "POST", token, body: name ? { name } : {} });
    $("cohost-name").value = "";
    $("cohost-new").hidden = false;
    const link = keyLink(made.link);
    $("cohost-qr").src = `/api/qr.svg?text=${encodeURIComponent(link)}`;
    $("cohost-link").textContent = link;
    $("cohost-copy").onclick = () => copyText(link, $("cohost-note"));
    $("cohost-note").textContent = `${made.label}: scan this on their phone now (it is shown only now).`;
    await loadCohosts();
  } catch (err) {
    toast(err.text || String(err), "error", 6000);
  }
}

async function revokeCohost(c) {
  const ok = await ask("Revoke?", `Revoke ${c.label}? Their phone stops working as a host at once.`, "Revoke");
  if (!ok) return;
  try {
    await api(`${base}/cohosts/${c.id}`, { method: "DELETE", token });
    toast(`${c.label} is revoked.`);
    $("cohost-new").hidden = true;
    await loadCohosts();
  } catch (err) {
    toast(err.text || String(err), "error", 6000);
  }
}

// -- undo: the host's, after a question naming what it undoes and what it reopens ---------------
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

async function hostUndo(table) {
  let seen;
  try {
    seen = await api(`${base}/tables/${table}/undo`, { token });
  } catch (err) {
    toast(err.text || String(err), "error", 6000);
    return;
  }
  const late = await outOfTouchNow();
  const ok = await ask("Undo?", seen.reopens && late ? `${seen.question} Still on the tables' phones: ${late}` : seen.question, "Undo it");
  if (!ok) return;
  try {
    const ack = await commands.send(`${base}/tables/${table}/undo`, { expected_seq: seen.expected_seq });
    toast(`Undone: ${seen.what}`);
    await live.acknowledge(ack);
  } catch (err) {
    toast(err.code === "stale" ? "Table changed meanwhile: nothing was undone — look again and retry."
      : err.text || String(err), "error", 6000);
    live.refresh().catch(() => {});
  }
}

const roundWords = (at, sets) => `round ${at.round}${sets > 1 ? ` of set ${at.set}` : ""}`;

// -- bots: the server rolls for the players switched on ------------------------------------------
function drawBots(state) {
  const view = state.view;
  const bots = new Set(state.bots || []);
  const people = [...new Set([...view.seated, ...bots])].filter((p) => p in view.players).sort(byName);
  const key = JSON.stringify(people);
  // a switch per player, drawn once the fold is opened (200 of them cost a slow phone)
  if (key !== botsKey && $("bots-fold").open) {
    botsKey = key;
    // while a change is being saved the switches show the host's choice, not the old state
    const shown = new Map([...document.querySelectorAll("#bots [data-bot]")].map((i) => [i.dataset.bot, i.checked]));
    fill("bots", people.map((p) => h("label", { class: "switch" },
      h("input", { type: "checkbox", role: "switch", dataset: { bot: p }, onchange: changeBots,
        checked: botsBusy && shown.has(p) ? shown.get(p) : bots.has(p) }),
      h("span", {}, p, view.seated.includes(p) ? null : h("span", { class: "muted small" }, " (not seated)")))));
  }
  if (botsBusy) return;
  for (const input of document.querySelectorAll("#bots [data-bot]")) input.checked = bots.has(input.dataset.bot);
  $("bots-card").dataset.bots = String(bots.size);
  $("bots-note").textContent = bots.size
    ? `The server rolls for ${bots.size === people.length ? "everyone" : names([...bots].sort(byName))}.`
    : "No bots: people roll for everyone.";
}

/** Save the switches as they are now (the whole set of bots), one change after the other. */
async function saveBots() {
  const shown = [...document.querySelectorAll("#bots [data-bot]")];
  const listed = new Set(shown.map((i) => i.dataset.bot));
  const players = [...(live.state.bots || []).filter((p) => !listed.has(p)),
    ...shown.filter((i) => i.checked).map((i) => i.dataset.bot)];
  try {
    await api(`${base}/bots`, { method: "PUT", token, body: { players } });
  } catch (err) {
    toast(err.text || String(err), "error", 6000);
  }
}

function changeBots() {
  botsBusy += 1;
  $("bots-note").textContent = "Saving…";
  botsChain = botsChain.then(saveBots).then(async () => {
    botsBusy -= 1;
    if (!botsBusy) await live.refresh().catch(() => {});
  });
}

// -- ending the night early ---------------------------------------------------------------------------
function drawEnd(view) {
  $("end-card").hidden = view.phase !== "playing" || Boolean(view.ended_early);
  let note;
  if (view.started) note = "A round is under way: the night can end once it is over, before the next round's first roll.";
  else if (!view.last_round) note = "No round has been played yet.";
  else note = `Ending now makes ${roundWords(view.last_round, view.sets)} the last round.`;
  $("end-note").textContent = note;
}

/** "Sync before you move": before a command that closes a round or moves the room on, the
 * tables whose phones still hold entries, and the host's choice (true: go on). */
async function inTouch(what) {
  const late = await outOfTouchNow();
  if (!late) return true;
  const no = $("confirm-no").textContent;
  $("confirm-no").textContent = "Wait";
  try {
    return await ask("Entries still on the tables' phones",
      `${late} ${what} now leaves them behind: once the round is closed they are refused and come back to their table as a question. Wait for them, or go on?`, "Go on");
  } finally {
    $("confirm-no").textContent = no;
  }
}

/** ``commands`` for the start bell: asks first when tables still hold entries. */
const settling = {
  send: async (path, body) => {
    if (!(await inTouch("Starting the round"))) throw Object.assign(new Error("Waiting for the tables' entries."), { text: "Waiting for the tables' entries: nothing was sent." });
    return commands.send(path, body);
  },
};

async function endNight() {
  if (!(await inTouch("Ending the night"))) return;
  const ok = window.confirm("End the night now? The rounds already finished are the night, "
    + "the prizes are decided, and no more rounds are played. This cannot be undone.");
  if (!ok) return;
  const button = $("end-night");
  button.disabled = true;
  try {
    const ack = await commands.send(`${base}/end`, {});
    await live.acknowledge(ack);
    toast("The night is over: the results page has the prizes.");
    $("status-line").scrollIntoView({ block: "center" });
  } catch (err) {
    toast(err.text || String(err), "error", 6000);
  } finally {
    button.disabled = false;
  }
}

async function people(ev, path, body, done) {
  ev.preventDefault();
  if (!(await inTouch("Changing the seating"))) return;
  try {
    const ack = await commands.send(`${base}/${path}`, body);
    await live.acknowledge(ack);
    seatingKey = "";
    drawSeating(live.state.view);
    done();
  } catch (err) {
    toast(err.text || String(err), "error", 6000);
  }
}

async function main() {
  topbar("Host");
  let held;
  try {
    held = await adoptToken(night, ["host"]);
  } catch (err) {
    held = null;
    $("fatal").textContent = err.text || String(err);
  }
  if (!held || held.role !== "host") {
    $("fatal").textContent = $("fatal").textContent || "This phone does not hold the host's link of this night. Open the host link you got when the night was created.";
    $("fatal").hidden = false;
    return;
  }
  token = held.token;
  created = recall(`${night}:created`);
  // the address phones use, the join codes and (a phone that made no night here, a
  // co-host's) a viewer link for the TV and the player QR: all asked at once, most of
  // them already by the page's inline start (boot.js)
  const found = publicOrigin();
  const codes = loadJoinCodes(early("buncoCodes", token));
  const viewerAsk = !created || !created.viewer_token
    ? (early("buncoViewer", token) || api(`${base}/viewer-links`, { method: "POST", token })) : null;
  const viewer = viewerAsk ? await viewerAsk.catch(() => null) : null;
  if (viewer && viewer.token) {
    created = { night, tables: [], ...(created || {}), viewer_token: viewer.token };
    store(`${night}:created`, created);
  }  // else the big screen link asks for a key; everything else works
  await codes;
  commands = new Commands(token);
  origin = await found;
  if (["localhost", "127.0.0.1", "[::1]"].includes(new URL(origin).hostname)) {
    $("lan-warning").textContent = "Other phones cannot reach this night yet: the computer running it lets in only itself. "
      + "Start it again with “bunco serve --host 0.0.0.0” (or “make run”): the QR codes here then work.";
    $("lan-warning").hidden = false;
  }
  document.addEventListener("bunco:awake", (ev) => drawAwake(ev.detail));
  drawHandOff();
  $("dice-mode").addEventListener("change", async (ev) => {
    try {
      await api(`${base}/dice`, { method: "PUT", token, body: { dice: ev.target.value } });
      toast(ev.target.value === "real" ? "Real dice at the tables." : "Phones roll the dice.");
      await live.refresh();
    } catch (err) {
      toast(err.text || String(err), "error", 6000);
    }
  });
  $("cohost-form").addEventListener("submit", addCohost);
  loadCohosts();
  // the screen and player links hosts' phones made: their own block (host_viewer_links.js)
  initViewerLinks({ card: $("cohost-card"), cohosts: $("cohosts"), base, token });
  $("print").addEventListener("click", printSeating);
  $("arrival-form").addEventListener("submit", (ev) => {
    const name = $("arrival").value.trim();
    if (!name) { ev.preventDefault(); return; }
    people(ev, "arrivals", { player: name }, () => { $("arrival").value = ""; toast(`${name} joins the next round.`); });
  });
  $("leave-form").addEventListener("submit", (ev) => {
    const name = $("leaving").value;
    people(ev, "departures", { player: name }, () => toast(`${name} leaves; the seating is redone.`));
  });
  $("sub-form").addEventListener("submit", (ev) => {
    const out = $("sub-out").value;
    const name = $("sub-in").value.replace(/\s+/g, " ").trim();
    if (!out || !name) {
      ev.preventDefault();
      $("sub-in").focus();
      return;
    }
    people(ev, "substitutes", { out, in: name }, () => {
      $("sub-in").value = "";
      toast(`${name} takes ${out}'s seat.`);
    });
  });
  $("end-night").addEventListener("click", endNight);
  $("bots-fold").addEventListener("toggle", () => { if (live && live.state) drawBots(live.state); });
  initTabs(() => { seatingKey = ""; if (live && live.state) render(live.state, live.state); });
  let dashboard = null;  // the room at a glance (host_dashboard.js)
  let checkin = null;  // the door check-in before round 1 (host_checkin.js)
  live = new Live({
    night, token, onState: render,
    onMessage: (m) => {
      if (dashboard && (m.type === "room" || (m.type === "event" && m.event.type === "undo"))) dashboard.onRoom();
      if (isUndo(m)) refreshAudit();
      if (checkin) checkin.onMessage(m);
    },
    onFatal: (err) => {
      $("fatal").textContent = err.status === 401
        ? "The host revoked this link: this page no longer follows the night (ask the host for a new link)."
        : err.text || "This link no longer works.";
      $("fatal").hidden = false;
      document.body.dataset.revoked = String(err.status === 401);
    },
  });
  try {
    await live.refresh();
  } catch (err) {
    $("fatal").textContent = err.text || String(err);
    $("fatal").hidden = false;
    return;
  }
  // the rule values are asked for only on a night in groups (whether its prizes go by
  // group, as the server decides: groups and prize_groups); the verification card follows
  // the view (verification.required): a night without groups is ready without that trip
  const groups = live.state.setup.groups;
  try {
    rules = groups && Object.keys(groups).length ? await rulesOf(live.state.setup) : null;
  } catch {
    rules = null;  // prizes are not split by group on this page; everything else works
  }
  initVerify({ live, commands, base, night });  // the verify card (host_verify.js)
  initHostMoney({ box: $("money-card"), commands, live, base, grouped: Boolean(rules && rules.prize_groups) });
  updateHostMoney(live.state);
  initSeatByHand({ box: $("seat-hand-card"), commands, live, base, before: () => inTouch("Changing the seating") });
  updateSeatByHand(live.state);
  initCorrections({ box: $("fix-card"), commands, live, base, token });
  updateCorrections(live.state);
  rememberNight(night, live.state.name, "host", `/n/${night}/host`);
  drawNav();
  registerOffline();
  initPhones({ anchor: $("phones-anchor"), base, token, origin });
  dashboard = initDashboard({ anchor: $("room-anchor"), base, token });
  checkin = initCheckin({ anchor: $("checkin-anchor"), base, token, onChange: () => drawNow(live.state, live.state) });
  const view = live.state.view;  // a big night: the long lists folded (host_big.js)
  initBigNight({ tables: tableCount(view), redraw: () => render(live.state, live.state) });
  const findTable = initFindTable({ view: () => live.state.view, undo: hostUndo, card: showSeatCard,
    code: (n) => { const c = credsFor(n); return c ? c.code : null; } });
  const findPlayer = initFindPlayer({ view: () => live.state.view, presence: (player, here) => sendPresence(player, here) });
  redrawFound = () => { findTable(); findPlayer(); };
  $("content").hidden = false;
  // a link to a part of the page (the door card's "Back to the door list") opens its tab
  const linked = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  const panel = linked && linked.closest("[role=tabpanel]");
  if (panel) showTab(panel.dataset.panel);
  live.connect();
  document.body.dataset.ready = "yes";
}

main();
