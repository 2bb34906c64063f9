// The table page: the scorekeeper's phone. Whose turn it is, the Us/Them tally, big tap
// targets for physical dice (quick tallies) or "Roll for me" (the server's dice), undo,
// "who rolled it?" for entries that go on a score card, the bell and the finishing turn,
// tie-breaks, and the moves after each round.
//
// Every entry goes through the outbox (outbox.js): kept on the phone before it is sent,
// until the server answers. The page shows the table with the entries not sent yet
// already counted (marked "not sent yet"), how many wait and for how long, and asks the
// scorekeeper about every entry the server refused (send it to the host, or discard it).
// It counts them by what the server says each entry does in the round (the table page's
// ``projection``: the engine's own scoring), never by rules of its own.

import {
  adoptToken, Commands, firstPending, pathParts, recall, rememberNight, store,
} from "./api.js";
import { drawHighTotals } from "./high_totals.js";
import { Live, movesOf, moveText } from "./live.js";
import { Outbox } from "./outbox.js";
import { forgetFirstAsk, keepFirstAsk, offlineMode, registerOffline } from "./pwa.js";
import { Room } from "./room.js";
import { RoundClock } from "./round_clock.js";
import { seatList } from "./seat_list.js";
import {
  bellNews, diceRows, drawBellBanner, endingOf, resultBadge, rollText, startBellButton,
  startBellRang,
} from "./parts.js";
import {
  $, afterPaint, buzz, chime, fill, h, keepAwake, kindLabel, names, ringBell, roundLabel, showDice,
  toast, topbar, tumble,
} from "./ui.js";
import { api } from "./api.js";

const { night, arg } = pathParts();
const tableNo = Number.parseInt(arg, 10);
const base = `/api/nights/${encodeURIComponent(night)}`;

let live = null;
let commands = null;
let outbox = null;
let roundClock = null;  // timed rounds: the round's clock (round_clock.js)
let startRung = -1;  // the seq of the last start bell this page heard (a start_round event)
let loaded = false;  // the first state is drawn once the page is set up
let state = null;
let feed = [];
let feedRound = "";
let diceShown = null;  // seq of the roll whose dice are on screen
let picked = [null, null, null];
let animating = false;  // "Roll for me" dice are tumbling
let built = "";  // the outcomes of the tally buttons drawn now
let lastShown = null;  // the table last drawn while the page knew it (drawn on while checking)
let asking = false;  // asking the server for the table's state (a reply was lost)
let askedFor = "";  // what the page last asked the server about (it asks once per change)

// The page follows its table's page (GET /api/nights/<id>/tables/<n>, then what the
// socket pushes): ``view.table`` is this table now (null when it is not in play).
// The tally buttons, their words and which of them ask "who rolled it?" come from the
// server's table view (``taps``), and what each entry not sent yet scores, whether it
// passes the dice and whether the page can tell what follows from the page's
// ``projection`` (the engine's scoring of every tally and set of dice in the round): the
// page holds no game rules.
const myTable = (view) => (view && view.table) || null;
/** Whether the round has not begun at this table yet: its players are moving to their new
 * seats (it begins with "Everyone is seated" here, or the head table's bell). */
const waitsHere = (view) => Boolean(view) && view.phase === "playing"
  && (view.seating_waits || []).includes(tableNo);
/** Whether this phone keeps "Everyone is seated" for the round ``view`` waits in, and
 * cannot send it now (no connection): the page plays the round meanwhile (docs/outbox.md).
 * Online, the page waits the moment it takes the server to record it. */
const seatedKept = (view) => {
  const kept = outbox && outbox.seating;
  return Boolean(kept && view && kept.tapped && kept.tapped.set === view.set && kept.tapped.round === view.round
    && (!navigator.onLine || outbox.failing));
};
/** Whether the page shows the table waiting for its new seating: the server says so, and
 * this phone keeps no confirmation of it. */
const waitsOnPage = (view) => waitsHere(view) && !seatedKept(view);
const tapsOf = (view) => {
  const t = myTable(view);
  return (t && t.taps) || [];
};
const expectedSeq = () => live.versions.expected(tableNo);  // kept by live.js

// -- entering rolls ----------------------------------------------------------------------------
const LAST = () => `${night}:table:${tableNo}:last`;  // the last page seen (a reload offline)

/** What an entry does in the round of ``view``, by the server's ``projection`` (the
 * engine's own scoring of every tally and every set of three dice in the round):
 * ``[points, passes, unknown]``, or null when the page cannot tell (no projection of this
 * round, "Roll for me", a total for high). The server's score is the one that counts:
 * this only shows an entry before the server has it. */
function effectOf(body, view) {
  const p = view.projection;
  if (!p || p.round !== view.round) return null;
  if (body.outcome) return p.taps[body.outcome] || null;
  if (!body.dice) return null;
  return p.dice[[...body.dice].map(Number).sort((a, b) => a - b).join("-")] || null;
}

/** The table as the page shows it: the server's, with the entries not sent yet counted
 * (and those recorded that the page's state does not have yet: outbox.recordedAfter).
 * ``unknown``: an entry whose effect the server's projection does not give (a roll for
 * high, a tie-break, "Roll for me"), or whose effect goes beyond its points (a Wipeout, a
 * Bunco that ends the round: its points counted), came first: what follows it shows once
 * the server has it.
 *
 * The first entry waiting is placed on the version of this table it was sent with (its
 * ``based_on``, or the entry it follows): when the page knows a later version, that entry
 * is in the page's state already (the socket's message of an entry can come before the
 * server's reply to it) or will be refused as stale (another phone's entry came first).
 * Either way it is not counted on top of the state, nor what follows it: unknown. */
function shown(view) {
  const t = myTable(view);
  const waiting = outbox ? outbox.waiting : [];
  const base = waiting.length ? outbox.expectedFor(waiting[0]) : null;
  const moved = typeof base === "number" && base !== expectedSeq();
  const recorded = outbox && state ? outbox.recordedAfter(state.seq) : [];
  // the page heard of a later version of its table than its state has (a round's end,
  // its page on the way), or its first entry waits on another version than the state's
  // (recorded or refused, the reply not here yet), or it asks the server after a lost
  // reply: it cannot tell whose turn it is, and says so (docs/outbox.md)
  const known = Math.max(state ? state.seq : 0, ...(outbox ? outbox.recent.map((r) => r.seq) : []));
  const checking = Boolean(t) && (moved || expectedSeq() > known || asking);
  if (checking) {
    const last = lastShown && lastShown.round === view.round && lastShown.set === view.set
      ? lastShown.t : t;
    return { t: { ...last, roller: null, rolling_side: null }, unknown: true, checking: true,
      pending: waiting.length };
  }
  const entries = [...recorded, ...waiting];
  if (!t || !entries.length) return { t, unknown: false, pending: waiting.length };
  const p = { ...t, points: [...t.points], team_scores: t.team_scores ? [...t.team_scores] : t.team_scores };
  let unknown = false;
  let turns = 0;
  const pass = () => {
    turns += 1;
    const r = t.rotation || [];
    p.roller = r.length ? r[turns % r.length] : null;
    p.rotation = r.length ? [...r.slice(turns % r.length), ...r.slice(0, turns % r.length)] : [];
  };
  for (const e of entries) {
    const effect = effectOf(e.body, view);
    if (!["playing", "finishing"].includes(p.status) || !effect || !p.roller
      || (e.tapped && e.tapped.round !== view.round)) { unknown = true; break; }
    // a credited entry: the turns it passes are misses, then its player's entry
    if (e.body.passed && p.status !== "playing") { unknown = true; break; }
    for (let i = 0; i < (e.body.passed || 0); i += 1) pass();
    const [points, passes, cannotTell] = effect;
    if (p.team) p.team_scores[p.teams[0].includes(p.roller) ? 0 : 1] += points;
    else if (p.players.indexOf(p.roller) >= 0) p.points[p.players.indexOf(p.roller)] += points;
    // a Wipeout, a Bunco that ends the round: what follows shows once the server has it
    if (cannotTell) { unknown = true; break; }
    if (passes) {
      if (p.status === "finishing") {
        p.status = "done";
        p.roller = null;
      } else {
        pass();
      }
    }
  }
  if (p.roller) p.rolling_side = p.team ? (p.teams[0].includes(p.roller) ? 0 : 1) : p.players.indexOf(p.roller);
  else p.rolling_side = null;
  return { t: p, unknown, pending: waiting.length };
}

/** The table to tap on: as shown, once the page knows it (after asking the server for
 * the table's state if a reply was lost or the page's state is behind). If it still
 * cannot tell (no answer yet), the entry is tapped for no roller: the server places it
 * at the turn it follows. Never a turn the page has not been told. */
async function tableToTap() {
  let s = shown(state.view);
  if (s.checking) {
    await askServer();
    s = shown(state.view);
  }
  return s;
}

/** Ask the server for the table's state (a lost reply, a state behind): the turn line
 * says "Checking with the server…" meanwhile and nothing can be tapped. */
async function askServer() {
  if (asking) return;
  asking = true;
  drawShown();
  try {
    await live.refresh();
  } catch { /* no connection: the outbox keeps the entries */ }
  asking = false;
  drawShown();
}

/** Where an entry is tapped now: what the page shows (docs/outbox.md). */
function tappedNow(view) {
  const { t, unknown } = shown(view);
  const where = { set: view.set, round: view.round, table: tableNo, based_on: expectedSeq(),
    at: new Date().toISOString() };
  if (!unknown && t) {
    if (t.roller) where.roller = t.roller;
    if (["first_roll", "playing", "finishing", "tie_break"].includes(t.status)) where.stage = t.status;
  }
  return where;
}

/** Keep an entry in the outbox and send it; the page shows it at once. Returns the
 * promise of its outcome ({ack} or {refused}). */
function enter(body, label) {
  const { done } = outbox.add(rollPath(), body, { label, tapped: tappedNow(state.view) });
  drawShown();
  return done;
}

/** The server recorded an entry of the outbox. */
async function recorded(ack) {
  live.versions.noteMessage(ack);
  addFeed(ack.seq, ack.event, ack.entry);
  if (!animating) {
    if (ack.event.type === "roll") showDice($("dice"), ack.event.dice, state ? state.view.round : null);
    else fill("dice");
    diceShown = ack.seq;
    showResult(ack.event.type === "undo" ? null : ack.entry);
  }
  await live.acknowledge(ack);
  drawShown();
}

function labelOf(body, who) {
  const name = who || "";
  if (body.roll_for_me) return `${name}: Roll for me`.slice(0, 60);
  if (body.dice) return `${name}: ${body.dice.join(" ")}`.slice(0, 60);
  if (body.total) return `${name}: ${body.total} for high`.slice(0, 60);
  const tap = tapsOf(state.view).find((x) => x.outcome === body.outcome);
  return `${name}: ${tap ? tap.label : body.outcome}`.slice(0, 60);
}

function rollPath() { return `${base}/tables/${tableNo}/rolls`; }

async function tally(outcome) {
  const s = await tableToTap();
  const t = s && s.t;
  if (!t || (!t.roller && !s.checking)) return;
  const tap = (t.taps || []).find((x) => x.outcome === outcome);
  if (!tap || !tap.asks_who) {
    enter({ outcome }, labelOf({ outcome }, t.roller));
    return;
  }
  await enterFor(t, { outcome }, tap.label);
}

/** An entry that goes on a score card (a Bunco, three of a kind): ask who rolled it; for
 * a player whose turn comes after others', the turns that ended without a tap pass as
 * misses: one command (``passed``), which the server applies whole or not at all. */
async function enterFor(t, body, label) {
  const who = await askWho(t, label);
  if (!who) return false;
  if (who === t.roller || !t.roller) {  // no roller known: the server checks the turn
    enter({ ...body, player: who }, labelOf(body, who));
    return true;
  }
  // the server's rotation: who rolls, turn after turn, from the roller now
  const skip = (t.rotation || []).indexOf(who);
  if (skip <= 0) {
    enter({ ...body, player: who }, labelOf(body, who));  // the engine says whose turn it is
    return true;
  }
  const passed = t.rotation.slice(0, skip);
  const ok = await confirmSkip(passed, who, label);
  if (!ok) return false;
  const credited = { ...body, player: who, passed: skip };
  enter(credited, `${skip} miss${skip === 1 ? "" : "es"}, then ${labelOf(body, who)}`.slice(0, 60));
  return true;
}

async function rollForMe() {
  if (outbox.waiting.length || !navigator.onLine) {
    // the server draws these dice: with entries still waiting (or no connection) they
    // would be drawn for a turn the page cannot show yet
    toast("Roll for me needs the connection, and every entry sent first: enter the dice you rolled instead.", "error", 6000);
    return;
  }
  const box = $("dice");
  const round = state.view.round;
  const s = await tableToTap();
  if (!s.t || !s.t.roller) {
    toast("Roll for me needs to know whose turn it is: the page is checking with the server. Enter the dice you rolled instead.", "error", 6000);
    return;
  }
  animating = true;
  $("result").textContent = "";
  const waiting = tumble(box, 650);
  const outcome = await enter({ roll_for_me: true }, labelOf({ roll_for_me: true }, s.t.roller));
  await waiting;
  animating = false;
  const ack = outcome.ack;
  if (ack) {
    await showDice(box, ack.event.dice, round);
    diceShown = ack.seq;
    showResult(ack.entry);
  } else {
    fill(box);
  }
}

async function enterFaces() {
  if (picked.includes(null)) return;
  const dice = [...picked];
  const { t } = await tableToTap();
  // a three of a kind that goes on the roller's card (the server's ``asks_who`` faces)
  // asks who rolled it, exactly as the tally buttons do
  const trips = dice[0] === dice[1] && dice[1] === dice[2] && t && t.roller
    && (t.asks_who || []).includes(dice[0]);
  let entered = true;
  if (trips) entered = await enterFor(t, { dice }, `Three ${dice[0]}s`);
  else enter({ dice }, labelOf({ dice }, t && t.roller));
  if (entered) {
    picked = [null, null, null];
    drawPicker();
  }
}

async function undo() {
  const taken = outbox.takeBack();  // an entry not sent yet: it never reached the server
  if (taken) {
    toast(`Taken back (it was not sent yet): ${taken.label}`);
    drawShown();
    return;
  }
  if (outbox.waiting.length) {  // the last entry is on its way: undo it once it has arrived
    toast("The last entry is being sent right now: undo it once it shows as recorded.", "error", 6000);
    return;
  }
  let seen;
  try {
    seen = await api(`${base}/tables/${tableNo}/undo`, { token: commands.token });
  } catch (err) {
    toast(err.text || String(err), "error", 6000);
    return;
  }
  if (!seen.allowed) {
    await hostOnly(seen);
    return;
  }
  let ack = null;
  try {
    ack = await commands.send(`${base}/tables/${tableNo}/undo`, { expected_seq: seen.expected_seq });
    await recorded(ack);
  } catch (err) {
    toast(err.code === "stale"
      ? `Nothing was undone: ${UNDO_WHY[`${err.body.cause}:${err.body.by}`] || UNDO_WHY[err.body.cause] || "this table changed meanwhile"}. Check the tally, then undo again if it is still wrong.`
      : err.text || String(err), "error", 6000);
    live.refresh().catch(() => {});
  }
  if (ack) {
    toast(`Undone: ${seen.what}`);
    fill("dice");
    diceShown = null;
  }
}

/** Why an undo found the table changed (the server's ``cause`` and ``by``), in words. */
const UNDO_WHY = {
  "undone:host": "the host undid an entry here meanwhile",
  undone: "an entry here was undone on another phone meanwhile",
  other_phone: "another phone entered something here first",
  host_entered: "the host entered something here first",
  reseated: "the host reseated the room",
};

/** An undo that reaches beyond this table's round in play: the host's, so say so. */
function hostOnly(seen) {
  const dialog = $("who");
  $("who-title").textContent = "Only the host can undo this";
  $("who-text").textContent = `${seen.question} Ask the host: the host page can undo it.`;
  fill("who-choices");
  return new Promise((resolve) => {
    const done = () => { dialog.close(); resolve(); };
    $("who-cancel").onclick = done;
    $("who-cancel").textContent = "OK";
    dialog.oncancel = () => resolve();
    dialog.showModal();
  }).finally(() => { $("who-cancel").textContent = "Cancel"; });
}

// -- dialogs --------------------------------------------------------------------------------------
function askWho(t, label) {
  const dialog = $("who");
  $("who-title").textContent = `${label}: who rolled it?`;
  $("who-text").textContent = t.roller
    ? `It goes on that player's score card. By the tally it is ${t.roller}'s turn.`
    : "It goes on that player's score card. The page has not been told whose turn it is yet: the server checks it.";
  const rollers = t.roller ? [t.roller, ...t.players.filter((p) => p && p !== t.roller)]
    : t.players.filter(Boolean);
  return new Promise((resolve) => {
    const done = (value) => { dialog.close(); resolve(value); };
    fill("who-choices", rollers.map((name) => h("button", {
      type: "button", class: name === t.roller ? "btn expected" : "btn secondary",
      dataset: { player: name }, onclick: () => done(name),
    }, name === t.roller ? `${name} (their turn)` : name)));
    $("who-cancel").onclick = () => done(null);
    dialog.oncancel = () => resolve(null);
    dialog.showModal();
  });
}

function confirmSkip(passed, who, label) {
  const dialog = $("who");
  $("who-title").textContent = `${who} rolled the ${label}?`;
  $("who-text").textContent = `Then ${names(passed)} finished without scoring more: `
    + `a miss for ${passed.length === 1 ? "that turn" : "each of those turns"} and ${who}'s ${label} go in as one entry.`;
  return new Promise((resolve) => {
    const done = (value) => { dialog.close(); resolve(value); };
    fill("who-choices",
      h("button", { type: "button", class: "btn", onclick: () => done(true) },
        `Yes: ${passed.length} miss${passed.length === 1 ? "" : "es"}, then ${who}`),
    );
    $("who-cancel").onclick = () => done(false);
    dialog.oncancel = () => resolve(false);
    dialog.showModal();
  });
}

// -- drawing ----------------------------------------------------------------------------------------
const TAP_STYLE = { miss: "miss", "+1": "plus", "+2": "plus", mini: "trips", low: "trips",
  high: "trips", wipeout: "miss span6" };

/** The tally buttons the view names (built again only if they change). */
function buildTaps(view) {
  const taps = tapsOf(view);
  const key = taps.map((x) => x.outcome).join(" ");
  if (key === built && $("roll-for-me")) return;
  built = key;
  const sameTrips = taps.some((x) => x.outcome === "mini");
  const rollButton = h("button", { type: "button", class: "tap roll", id: "roll-for-me", onclick: rollForMe },
    h("span", { class: "label" }, "Roll for me"), " ", h("small", {}, "the phone rolls the dice"));
  fill("taps", rollButton, taps.map(({ outcome, label }) => h("button", {
    type: "button",
    class: `tap ${outcome === "bunco" ? (sameTrips ? "bunco span4" : "bunco") : TAP_STYLE[outcome]}`,
    dataset: { outcome }, onclick: () => tally(outcome),
  }, h("span", { class: "label" }, label), " ", h("small", { class: "hint" }))));
}

function drawTaps(view, t) {
  buildTaps(view);
  // while the page checks with the server it shows no roller; once it has asked (no
  // answer: no connection), entries are tapped for no roller and placed by the server
  const checking = document.body.dataset.checking === "yes";
  const waits = waitsOnPage(view);
  const canRoll = Boolean(t && (t.roller || checking) && view.phase === "playing" && !asking && !waits);
  $("entry").classList.toggle("waiting-seats", waits);  // no roll offered before the seating is confirmed
  document.body.dataset.seating = waits ? "waiting" : "";  // nor the new round's 0–0 tally
  const taps = new Map(((t && t.taps) || tapsOf(view)).map((x) => [x.outcome, x]));
  for (const button of document.querySelectorAll("#taps [data-outcome]")) {
    const tap = taps.get(button.dataset.outcome);
    if (!tap) continue;
    button.querySelector(".label").textContent = tap.label;
    button.querySelector(".hint").textContent = tap.hint;
    button.disabled = !(canRoll && tap.possible);  // the server says which are possible
    button.setAttribute("aria-label", `${tap.label}: ${tap.hint}${t && t.roller ? `, for ${t.roller}` : ""}`);
  }
  $("roll-for-me").disabled = !canRoll;
  $("taps").classList.toggle("first-roll", Boolean(t && t.rolling_for_high));
  // the roll for high in one tap per player: the phone rolls it (typing the dice stays below)
  $("roll-for-me").querySelector(".label").textContent = t && t.rolling_for_high && t.roller
    ? `Roll for high for ${t.roller}` : "Roll for me";
  // real dice at the tables (the party default): typing and taps first, "Roll for me" small
  const real = (state && state.dice) !== "phones";
  $("taps").classList.toggle("real", real);
  $("roll-for-me").querySelector("small").textContent = real ? "" : "the phone rolls the dice";
  // real dice: the total each player's dice show, one tap (the phone's dice stay below)
  drawHighTotals($("high-totals"), t, { real, ready: canRoll && !outbox.waiting.length,
    onPick: (total) => enter({ total }, labelOf({ total }, t.roller)) });
  $("taps").classList.toggle("high-typed", real && !$("high-totals").hidden);
  $("faces-enter").disabled = !canRoll || picked.includes(null);
  const undoable = t && (t.rolls > 0 || (view.last_round && !view.started));
  $("undo").disabled = !undoable || view.phase === "over";
}

/** "Everyone is seated — start": the table confirms its new seating and the round begins
 * here (the server refuses entries before it: docs/pages.md). The confirmation is kept in
 * the outbox like an entry: without a connection the round begins on this page, and the
 * entries tapped after it are sent behind it once the connection is back. */
function confirmSeated() {
  if (!outbox || outbox.seating || !state) return;
  outbox.add(`${base}/tables/${tableNo}/seated`, {},
    { label: "Everyone is seated", tapped: tappedNow(state.view), kind: "seated" });
  if (!navigator.onLine) toast(`Everyone is seated: round ${state.view.round} begins here. Roll! This phone tells the server once the connection is back.`);
  drawShown();
  drawMoves(state.view, myTable(state.view));
}

/** The server recorded the table's "Everyone is seated" (from the outbox). */
async function seatedRecorded(ack) {
  live.versions.noteMessage(ack);
  if (!ack.duplicate) toast(`Everyone is seated: round ${ack.status ? ack.status.round : state.view.round} begins here. Roll!`);
  await live.acknowledge(ack);
  begunHere();
  if (waitsHere(state.view)) await live.refresh().catch(() => {});  // the page with it, now
  drawShown();
}

/** The server stored this table's "Everyone is seated": the round has begun here.
 * The page's view says so at once (a reply or the event carries this table's view, not the
 * room's list of tables still waiting), until the room's next state comes; a later change
 * (the host reseating the room) comes after it and says otherwise. */
function begunHere() {
  const view = state && state.view;
  if (!view || !waitsHere(view)) return;
  view.seating_waits = view.seating_waits.filter((n) => n !== tableNo);
  view.seating_confirmed = [...(view.seating_confirmed || []), tableNo];
  drawShown();
}

function drawTurn(view, t, checking = false) {
  let text;  // every branch below says it
  let sub;
  let box = null;
  const r = view.round;
  if (checking) {
    text = "Checking with the server…";
    sub = navigator.onLine
      ? "Whose turn it is shows once the server has answered (a moment)."
      : "No connection: whose turn it is shows once the server answers. Every entry stays on this phone.";
  } else if (view.phase === "over") {
    text = "The night is over";
    sub = "Thank you for keeping score!";
    box = ["done", h("a", { href: `/n/${encodeURIComponent(night)}/end` }, "See the prizes and score cards →")];
  } else if (view.phase === "rolloff") {
    const ro = view.rolloff;
    text = "Roll-off";
    sub = ro ? `for ${ro.purpose}: ${ro.roller || ""} rolls at the host's phone` : "";
    box = ["info", h("a", { href: `/n/${encodeURIComponent(night)}/end` }, "Follow the roll-off →")];
  } else if (!t) {
    text = `No table ${tableNo} this round`;
    sub = "The seating changed: this table is not in play.";
  } else if (waitsOnPage(view)) {
    text = "Everyone to their new seat";
    sub = `Round ${r} begins here once everyone sits where the list below says.`;
    box = ["seating", h("p", {}, "Nothing can be entered for this round until everyone is seated."),
      h("button", { type: "button", class: "btn wide big", id: "seated-ok", onclick: confirmSeated },
        "Everyone is seated — start")];
  } else if (t.status === "first_roll") {
    text = `${t.roller} rolls for high`;
    sub = (state && state.dice) !== "phones"
      ? "Each player rolls once; highest total starts. Tap the total the three dice show."
      : "Each player rolls once; highest total starts. Enter the three dice or Roll for me.";
    box = ["info", "Rolling for who starts: quick tallies are off until then."];
  } else if (t.status === "finishing") {
    text = `${t.roller} finishes the turn`;
    sub = `Keep rolling for ${r}s until a roll scores nothing: then the round ends here.`;
    box = null;  // the bell banner above says it: "The bell! … Finish your turn!"
  } else if (t.status === "tie_break") {
    text = `Tie! ${t.roller} rolls${t.rolling_for_high ? " for high" : ""}`;
    // what the rules do next, in the server's words (a 0–0 tie too), then the session's rule
    const tb = t.tie_break;
    sub = !tb ? "" : tb.session > 1 || !tb.why ? tb.text : tb.why;
    box = ["tie", h("strong", {}, "Tie-break"), " ", tieText(t)];
  } else if (t.status === "done") {
    text = "Round over at this table";
    const waits = ((state && state.status && state.status.waiting_for) || []).filter((w) => w.table !== tableNo);
    sub = waits.length ? `The room waits for ${waits.map((w) => `table ${w.table}'s phone`).join(" and ")} before it moves on.`
      : view.bell ? "Waiting for the other tables…" : "Waiting for the other tables to finish.";
    box = ["done", h("strong", {}, t.result)];  // how it was won, in the server's words
  } else {
    text = `${t.roller} rolls`;
    sub = `Roll for ${r}s${t.in_turn ? " · still rolling: the last roll scored" : ""}`;
  }
  $("turn-text").textContent = text;
  $("turn-sub").textContent = sub;
  const status = $("status-box");
  if (box) {
    status.className = `status-box ${box[0]}`;
    fill(status, box.slice(1));
    status.hidden = false;
  } else {
    status.hidden = true;
    fill(status);  // nothing of it stays in the page (the seating's button, once seated)
  }
}

function tieText(t) {
  const tb = t.tie_break;
  if (!tb) return "";
  const label = (side) => (t.team ? (side === 0 ? "Us" : "Them") : t.players[side] || `seat ${side + 1}`);
  return ` ${tb.sides.map((s) => `${label(s)} ${tb.points[s]}`).join(" · ")}`;
}

function sideBox(cls, label, score, players, target, rolling, won, tieExtra) {
  const pct = Math.min(100, Math.round((100 * score) / target));
  const bar = h("span", {});
  bar.style.width = `${pct}%`;
  return h("div", { class: `side ${cls}${rolling ? " rolling" : ""}${won ? " won" : ""}`,
    "aria-label": `${label}: ${score} of ${target}${won ? ", won" : ""}` },
  h("div", { class: "label" }, label),
  h("div", { class: "score", dataset: { side: cls } }, score),
  h("div", { class: "names" }, names(players)),
  h("div", { class: "of" }, `of ${target}${tieExtra}`),
  h("div", { class: "progress", "aria-hidden": "true" }, bar));
}

function drawTally(t, pending = 0) {
  if (!t) return fill("tally");
  $("tally").dataset.unsent = String(pending);
  const rollerSide = t.rolling_side ?? -1;  // the server's: which side the roller is on
  const winners = new Set(t.winners);
  const tb = t.tie_break;
  const extra = (side) => (tb && tb.sides.includes(side) ? ` · tie-break ${tb.points[side]}` : "");
  if (t.team) {
    const [us, them] = t.teams;
    return fill("tally", h("div", { class: "tally" },
      sideBox("us", "Us", t.team_scores[0], us, t.target, rollerSide === 0, us.some((p) => winners.has(p)), extra(0)),
      sideBox("them", "Them", t.team_scores[1], them, t.target, rollerSide === 1, them.some((p) => winners.has(p)), extra(1))),
    unsentNote(pending));
  }
  return fill("tally", h("div", { class: "indiv" }, t.players.map((p, i) => sideBox(
    "solo", p || `Ghost ${i + 1}`, t.points[i], [], t.target, rollerSide === i,
    winners.has(p), extra(i)))), unsentNote(pending));
}

function unsentNote(pending) {
  if (!pending) return null;
  return h("p", { class: "unsent-note", id: "unsent-note" },
    `Not sent yet: these scores count ${pending} entr${pending === 1 ? "y" : "ies"} this phone still holds.`);
}

function entryText(last) {
  if (last.phase === "first_roll") {
    return `${last.player}: ${last.dice.reduce((a, b) => a + b, 0)} for high`;
  }
  return `${last.player}: ${kindLabel(last.kind, last.points, state && state.view.words)}`;
}

function showResult(last) {
  $("result").textContent = last ? entryText(last) : "";
}

/** Between rounds: the roll that ended the last round, its dice and what it scored (so the
 * phone that entered a round-ending Bunco shows it, also after a reload). */
function showEnding(view) {
  const ending = endingOf(view);
  if (!ending || !ending.over) {
    $("result").textContent = "";
    if (String(diceShown).startsWith("end:")) {
      fill("dice");
      diceShown = null;
    }
    return;
  }
  const key = `end:${ending.roll.set}.${ending.roll.round}`;
  if (diceShown === key) return;
  diceShown = key;
  showDice($("dice"), ending.roll.dice, ending.roll.round);
  $("result").textContent = rollText(ending.roll, view.words);
}

function addFeed(seq, event, entry) {
  if (!event || feed.some((f) => f.seq === seq)) return;
  let text;
  if (event.type === "undo") text = "Undo: the last entry was removed";
  else if (entry) {
    const dice = event.type === "roll" ? ` (${event.dice.join(" ")})` : "";
    text = `${entryText(entry)}${dice}`;
  } else return;
  feed.unshift({ seq, text });
  feed = feed.slice(0, 12);
  drawFeed();
}

function drawFeed() {
  const t = state ? myTable(state.view) : null;
  const earlier = t && t.rolls ? `${t.rolls} entr${t.rolls === 1 ? "y" : "ies"} so far this round.` : "No entries yet.";
  const unsent = (outbox ? outbox.waiting : []).slice().reverse().map((e) => h("li", {
    class: "unsent", dataset: { id: e.id } }, h("strong", {}, "Not sent yet · "), h("span", {}, e.label)));
  fill("feed", unsent, feed.length ? feed.map((f) => h("li", {}, h("span", {}, f.text)))
    : unsent.length ? null : h("li", { class: "muted" }, earlier));
}

// -- the outbox on screen --------------------------------------------------------------------
function ago(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** "3 entries not sent yet · the oldest tapped 2 min 5 s ago · …": what the outbox holds. */
function drawOutbox() {
  if (!outbox) return;
  const waiting = outbox.waiting;
  const line = $("pending");
  document.body.dataset.unsent = String(waiting.length);
  document.body.dataset.refused = String(outbox.refused.length);
  const seating = outbox.seating;
  if (!waiting.length && !seating) {
    line.textContent = outbox.persisted ? "" : "This browser keeps no storage (private mode?): entries last only while this page is open.";
    line.classList.remove("unsent");
    return;
  }
  const n = waiting.length;
  const entries = n ? `${n} entr${n === 1 ? "y" : "ies"}` : "";
  const what = seating ? `\u201cEveryone is seated\u201d${n ? ` and ${entries}` : ""} not sent yet` : `${entries} not sent yet`;
  const since = `the oldest tapped ${ago(Date.now() - (seating || waiting[0]).at)} ago`;
  const how = outbox.stopped ? "this phone's link no longer works: they are kept"
    : !navigator.onLine ? "kept on this phone, sent as soon as the connection is back"
      : outbox.doubt ? "checking with the server whether the first one arrived…"
        : outbox.failing ? "the server did not answer yet: trying again (they stay on this phone)"
          : "sending…";
  line.textContent = `${what} · ${since} · ${how}`;
  line.classList.add("unsent");
}

const ROUND = (where) => (where ? `round ${where.round}${where.set > 1 ? ` of set ${where.set}` : ""}` : "an earlier round");

/** The question about refused entries, one per reason: "3 entries from round 1 arrived
 * after the host undid an entry at this table: send them to the host / discard them". The
 * reason is the server's (its ``cause``, and ``by`` whom): what really happened. */
function heldGroups() {
  const groups = new Map();
  for (const e of outbox.refused) {
    const code = e.refusal.code === "follows_refused" ? "stale" : e.refusal.code;
    const cause = e.refusal.cause || code;
    const key = `${code}:${cause}:${e.refusal.by || ""}:${e.tapped ? `${e.tapped.set}.${e.tapped.round}` : ""}`;
    if (!groups.has(key)) groups.set(key, { code, cause, by: e.refusal.by, entries: [] });
    groups.get(key).entries.push(e);
  }
  return [...groups.values()];
}

const WHY = {
  moved_on: () => "arrived after the round closed: the room has moved on",
  table_done: () => "arrived after this table's result was final",
  after_bell: () => "arrived after this table had played on after the bell",
  by_hand: () => "arrived after the host entered this table's result by hand",
  paper: () => "arrived after the host entered this table's score from the paper",
  stage: () => "were tapped during play, and this table had gone on to its tie-break",
  undone: (g) => (g.by === "host" ? "arrived after the host undid an entry at this table"
    : "arrived after an entry at this table was undone on another phone"),
  reseated: () => "arrived after the host reseated the room",
  other_phone: () => "arrived after another phone entered first at this table",
  host_entered: () => "arrived after the host entered an entry at this table first",
  changed: () => "arrived after this table changed",
};

function heldText(g) {
  const { code, cause, entries } = g;
  const n = entries.length;
  const many = n === 1 ? "entry" : "entries";
  const where = ROUND(entries[0].tapped);
  if (code === "roller_changed") {
    return `${n} ${many} tapped for ${entries[0].tapped.roller} arrived when it was no longer their turn`;
  }
  const why = WHY[cause];
  if (why) return `${n} ${many} from ${where} ${why(g, where)}`;
  return `${n} ${many} could not be recorded: ${entries[0].refusal.message}`;
}

/** "The entry before them (Eve: +1) was recorded.": what of the same chain went in. */
function recordedBefore(entries) {
  const before = entries[0].follows;
  if (!before || !(before in outbox.data.acked)) return "";
  const kept = outbox.recent.find((r) => r.entry.id === before);
  return kept ? ` The entry tapped just before them (${kept.entry.label}) was recorded.`
    : " The entry tapped just before them was recorded.";
}

function drawHeld() {
  let box = $("held-box");
  if (!box) {
    box = h("section", { class: "card held", id: "held-box", role: "alert", "aria-live": "assertive" });
    $("status-box").after(box);
  }
  const groups = outbox ? heldGroups() : [];
  const early = outbox ? outbox.early : [];
  box.hidden = !groups.length && !early.length;
  fill(box, early.length ? earlyGroup(early) : null, groups.map((g) => h("div", { class: "held-group", dataset: { code: g.code } },
    h("h2", {}, `${heldText(g)}:`),
    h("ul", {}, g.entries.map((e) => h("li", {}, e.label))),
    h("p", { class: "small muted" }, `Nothing was recorded for ${g.entries.length === 1 ? "it" : "them"}.${recordedBefore(g.entries)} The host can enter them by hand if they count.`),
    h("div", { class: "row" },
      h("button", { type: "button", class: "btn", dataset: { act: "host" }, onclick: () => toHost(g.entries) },
        "Send them to the host"),
      h("button", { type: "button", class: "btn secondary", dataset: { act: "discard" }, onclick: () => discard(g.entries) },
        "Discard them")))));
}

/** The entries tapped before the round began here, held on this phone in plain words:
 * they are sent once everyone is seated (never recorded in another round). */
function earlyGroup(entries) {
  const n = entries.length;
  const where = ROUND(entries[0].tapped);
  return h("div", { class: "held-group", id: "early-held", dataset: { code: "not_seated" } },
    h("h2", {}, `${n} ${n === 1 ? "entry" : "entries"} tapped before everyone was seated, held on this phone:`),
    h("ul", {}, entries.map((e) => h("li", {}, e.label))),
    h("p", {}, (entries[0].refusal && entries[0].refusal.message) || "This table's new seating is not confirmed yet."),
    h("p", { class: "small muted" }, `Nothing was recorded yet. ${n === 1 ? "It is" : "They are"} recorded in ${where} `
      + "once \u201cEveryone is seated\u201d is tapped here (or the head table rings the bell), if it is still that turn."),
    h("div", { class: "row" },
      h("button", { type: "button", class: "btn secondary", dataset: { act: "discard" }, onclick: () => discard(entries) },
        "Discard them")));
}

async function toHost(entries) {
  try {
    await api(`${base}/tables/${tableNo}/set-aside`, { method: "POST", token: commands.token, body: {
      command_id: `set-aside-${entries[0].id}`,
      entries: entries.map((e) => ({ id: e.id, label: e.label, code: e.refusal.code.slice(0, 60),
        message: e.refusal.message.slice(0, 300), tapped: e.tapped })) } });
  } catch (err) {
    toast(`Not sent to the host: ${err.text || err}. They stay here; try again.`, "error", 6000);
    return;
  }
  outbox.forget(entries.map((e) => e.id));
  toast(`Sent to the host: ${entries.length} entr${entries.length === 1 ? "y" : "ies"}.`);
  reportSoon();
}

function discard(entries) {
  outbox.forget(entries.map((e) => e.id));
  toast(`Discarded: ${entries.length} entr${entries.length === 1 ? "y" : "ies"}.`);
  reportSoon();
}

let reportTimer = null;
let reported = "";
/** Tell the host page what the outbox holds (soon, once for a burst of changes; only when
 * it changed, or with ``always``: the 15 s heartbeat). */
function reportSoon(always = false) {
  if (reportTimer || !outbox || outbox.stopped) return;
  const waiting = outbox.waiting;
  const key = `${waiting.length}:${waiting.length ? waiting[0].id : ""}:${outbox.refused.length}`;
  if (key === reported && !always) return;
  reported = key;
  reportTimer = setTimeout(() => {
    reportTimer = null;
    api(`${base}/tables/${tableNo}/outbox`, { method: "POST", token: commands.token,
      body: outbox.report(offlineMode()) }).catch(() => {});
  }, 300);
}

/** Draw what depends on the entries not sent yet (the tally, whose turn, the taps, the feed). */
function drawShown() {
  if (!state) return;
  const view = state.view;
  const { t, pending, checking } = shown(view);
  if (!checking) lastShown = { t, set: view.set, round: view.round };
  document.body.dataset.roller = (t && t.roller) || "";
  document.body.dataset.checking = checking ? "yes" : "no";
  const about = `${expectedSeq()}:${state.seq}:${outbox && outbox.waiting.length ? outbox.waiting[0].id : ""}`;
  if (checking && !asking && navigator.onLine && about !== askedFor) {
    askedFor = about;
    setTimeout(() => askServer(), 0);
  }
  drawTurn(view, t, checking);
  if (pending && t && !checking && $("turn-sub").textContent.indexOf("not sent yet") < 0) {
    $("turn-sub").textContent = `${$("turn-sub").textContent} · with ${pending} entr${pending === 1 ? "y" : "ies"} not sent yet`.replace(/^ · /, "");
  }
  drawTally(t, pending);
  drawTaps(view, t);
  drawFeed();
  drawOutbox();
  drawHeld();
  reportSoon();
}

function drawMoves(view, t) {
  const box = $("moves-box");
  const begun = view.started || seatedKept(view);  // here, on this phone, if not on the server yet
  const fresh = view.last_round && (!begun || waitsOnPage(view)) && view.phase !== "over";
  if (!view.last_round) {
    box.hidden = true;
    return;
  }
  const moves = movesOf(view);
  const lastHere = view.last_round.tables.find((x) => x.table === tableNo);
  const leaving = moves.filter((m) => m.from && m.from.table === tableNo);
  const coming = moves.filter((m) => m.to && m.to.table === tableNo)
    .sort((a, b) => a.to.seat - b.to.seat);
  const title = `Round ${view.last_round.round} results`;
  const result = lastHere ? h("p", { id: "result-here" }, h("strong", {}, lastHere.words)) : null;  // how it was won
  const list = (id, items, fn) => h("ul", { class: "moves", id }, items.map((m) => h("li", { dataset: { player: m.player } },
    resultBadge(m), h("span", { class: "who" }, m.player), fn(m))));
  const body = [
    result,
    h("h3", {}, "Where they go now"),
    list("leaving", leaving, (m) => h("span", {}, moveText(m))),
    t ? [h("h3", {}, `At this table now${begun && !waitsOnPage(view) ? "" : " (next round)"}`),
      list("coming", coming, (m) => h("span", {}, `seat ${m.to.seat}${!m.from ? " · new tonight" : m.from.table === tableNo ? "" : ` · from table ${m.from.table}`}`))] : null,
  ];
  if (fresh) {
    fill(box, h("h2", {}, title), body);
  } else {
    fill(box, h("details", {}, h("summary", {}, title), body));
  }
  box.hidden = false;
  box.dataset.fresh = String(Boolean(fresh));
  // at a finished round the results and where everyone goes come right after the entry
  // controls (the next round's first roll stays above the fold), else at the foot
  const anchor = fresh ? $("entry") : $("feed-card");
  if (fresh ? box.previousElementSibling !== anchor : box.nextElementSibling !== anchor) {
    anchor.parentNode.insertBefore(box, fresh ? anchor.nextSibling : anchor);
  }
}

/** Open or close the die faces; they are built the first time they open (eighteen
 * buttons of pips the page need not draw before it is ready). */
function showFaces(open) {
  $("faces").hidden = !open;
  if (open && !$("dicepick").firstChild) drawPicker();
}

function drawPicker() {
  // built once and marked in place: the face just pressed keeps the keyboard's focus
  diceRows($("dicepick"), picked, (d, f) => {
    picked[d] = f;
    drawPicker();
    if (state) drawTaps(state.view, myTable(state.view));
  });
}

/** Take ``next`` as the state drawn: its versions noted, kept for a reload. */
function keep(next) {
  state = next;
  live.versions.notePage(next);  // a page kept from before a reload offline, too
  store(LAST(), { ...next, versions: live.versions.asMap(), at: Date.now() });  // a reload offline starts from it
}

// what the socket's messages copy from their status into the view (live.js: setView),
// null there when a GET's view leaves them out; the page reads them as true or false
const FROM_STATUS = ["bell", "started", "bell_roll", "traveler", "last_bunco"];

/** What of a state the page draws, as text: all of it but the versions commands are
 * based on and when it was kept, each object's members in the order of their names (the
 * state a GET gives and the same state from the socket's hello list them in other
 * orders). Two states of the same text draw the same page. */
function drawnText(s) {
  const view = { ...s.view };
  for (const key of FROM_STATUS) if (view[key] === null) delete view[key];
  return JSON.stringify({ ...s, view, versions: undefined, at: undefined }, byName);
}
const byName = (_, value) => (value && typeof value === "object" && !Array.isArray(value)
  ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, value[key]])) : value);
const roundKeyOf = (view) => `${view.set}.${view.round}.${view.phase}`;  // the feed's round

function render(next, previous) {
  keep(next);
  const view = next.view;
  const t = myTable(view);
  const seats = seatList(t);
  $("seats-box").hidden = !seats;
  if (seats) fill("seats-box", seats);
  const roundKey = roundKeyOf(view);
  if (feedRound && feedRound !== roundKey) {
    feed = [];
    drawFeed();
    if (diceShown !== null && !String(diceShown).startsWith("end:")) {
      fill("dice");
      $("result").textContent = "";
      diceShown = null;
    }
    chime();
    buzz([120, 80, 120]);
  }
  feedRound = roundKey;
  document.title = `Table ${tableNo} · ${roundLabel(view)} — ${next.name}`;
  if (roundClock) roundClock.follow(view, $("turn"));  // timed rounds
  $("bar-title").textContent = `Table ${tableNo} · ${roundLabel(view)}`;  // the turn line says what to roll
  Object.assign(document.body.dataset, {
    phase: view.phase, round: String(view.round), set: String(view.set),
    status: t ? t.status : "none", bell: String(view.bell), roller: (t && t.roller) || "",
  });
  const bell = $("bell");
  drawBellBanner(view, t && t.status === "finishing" && view.bell ? "Finish your turn!" : "");
  if (bellNews(view, previous)) {
    ringBell();
    buzz([300, 120, 300]);
    bell.classList.add("ringing");
    setTimeout(() => bell.classList.remove("ringing"), 3000);
  }
  if (startBellRang(view, previous)) {
    // say only what happened: the head table's bell, or a round begun by a first roll
    if (startRung > (previous ? previous.seq : -1)) {
      ringBell();
      buzz([200, 80, 200]);
      if (tableNo !== 1) toast(`The head table rang the bell: round ${view.round} starts. Roll!`);
    } else if (tableNo !== 1 && !waitsHere(view)) {
      toast(`Round ${view.round} has started at another table. Roll!`);
    }
  }
  const start = tableNo === 1 ? startBellButton(view, { commands, live, base, then: " Roll!" }) : null;
  $("start-box").hidden = !start;
  fill("start-box", start, start ? h("p", { class: "small muted" },
    "The bell starts the round at every table; \u201cEveryone is seated\u201d starts it at this table only.") : null);
  if (outbox && !waitsHere(view) && outbox.early.length) outbox.release(expectedSeq());  // the round began here
  drawShown();
  drawMoves(view, t);
  if (t && t.last_roll && diceShown === null && !animating) showResult(t.last_roll);
  if (t && !t.last_roll && !animating) showEnding(view);
  keepAwake(view.phase !== "over");
  // the faces open by themselves for a roll for high, unless its totals are asked (real dice)
  const forHigh = t && t.rolling_for_high && $("high-totals").hidden;
  showFaces(forHigh || $("faces-toggle").getAttribute("aria-expanded") === "true");
}

let room = null;  // the host's announcement and this table's call (room.js)

function onMessage(message) {
  if (room) room.onMessage(message);
  if (message.type === "event") {
    if (message.table === tableNo) {
      // one of this phone's entries, stored (its reply may be lost or still on the way)
      const mine = message.command_id && outbox ? outbox.seen(message.command_id, message.seq) : null;
      if (mine && mine.kind === "seated") begunHere();  // before its reply, maybe
      addFeed(message.seq, message.event, message.entry);
      if (diceShown !== message.seq && (message.entry || message.event.type === "undo") && !animating) {
        if (message.event.type === "roll") showDice($("dice"), message.event.dice, state ? state.view.round : null);
        else fill("dice");
        diceShown = message.seq;
        showResult(message.event.type === "undo" ? null : message.entry);
      }
    }
    if (message.event.type === "start_round") startRung = Math.max(startRung, message.seq);
  } else if (message.type === "hello") {
    outbox.wake();  // connected again: send what waits now
  }
}

/** The words of a refused credential: revoked by the host (close code 4401), or refused. */
function revokedText(err) {
  const kept = outbox && (outbox.waiting.length || outbox.refused.length)
    ? ` This phone still holds ${outbox.waiting.length + outbox.refused.length} entries: join the table again to send them.` : "";
  if (err && (err.status === 401 || err.code === "unauthorized")) {
    return `The host signed this phone out (its link no longer works), so it no longer follows the night.${kept}`;
  }
  return `${(err && err.text) || "This phone's link no longer works."}${kept}`;
}

function needToken(message) {
  forgetFirstAsk();  // the worker no longer asks for this table with a token that fails
  $("play").hidden = true;
  $("need-token").hidden = false;
  if (message) {
    $("fatal").textContent = message;
    $("fatal").hidden = false;
  }
  $("code-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const code = $("code").value.replace(/[\s-]/g, "");
    // with the night: the code is checked against this night's tables only
    if (code) location.assign(`/join/${encodeURIComponent(code)}?night=${encodeURIComponent(night)}`);
  });
}

/** Draw the state this phone kept from its last visit, before the server's arrives.
 * Returns its text (drawnText): a server's state of the same text is drawn already. */
function drawKept(kept) {
  buildTaps(kept.view);
  $("play").hidden = false;
  render(kept, null);
  feedRound = "";  // the server's state starts the feed (no chime for the round kept)
  document.body.dataset.drawn = "kept";
  return drawnText(kept);
}

/** The server's first state: drawn, unless it is the very state drawn from what this
 * phone kept (``keptText``): then the page on screen is the server's already, and only
 * the state behind it changes (a second drawing would cost a slow phone as much as the
 * first, for nothing). Any difference at all, a later seq included, draws it again. */
function drawFirst(first, keptText) {
  if (keptText !== null && drawnText(first) === keptText) {
    keep(first);
    feedRound = roundKeyOf(first.view);
    return;
  }
  buildTaps(first.view);
  $("play").hidden = false;
  render(first, null);
}

async function main() {
  topbar(`Table ${tableNo}`);
  if (!Number.isInteger(tableNo) || tableNo < 1) {
    $("fatal").textContent = "This address names no table: open the link from the table's QR code.";
    $("fatal").hidden = false;
    return;
  }
  let held;
  try {
    held = await adoptToken(night, [`table:${tableNo}`, "host"]);
  } catch (err) {
    return needToken(err.text || String(err));
  }
  if (!held) return needToken("");
  commands = new Commands(held.token, {
    // the start bell is of the whole night: it changes no table's version (versions.js)
    onAck: (ack) => live.versions.noteMessage(ack),
  });
  outbox = new Outbox({
    night, table: tableNo, token: held.token,
    onChange: () => drawShown(),
    onAck: (ack, entry) => (entry.kind === "seated" ? seatedRecorded(ack) : recorded(ack)).catch(() => {}),
    onRefused: (entry) => {
      buzz([80, 60, 80]);
      if (entry.kind === "seated") live.refresh().catch(() => {});  // begun already, or reseated: draw it
    },
    onFatal: (err) => needToken(revokedText(err)),
    onLost: () => { askServer(); },  // a lost reply: ask for the table's state first
  });
  setInterval(() => { drawOutbox(); }, 1000);
  setInterval(() => { if (navigator.onLine) reportSoon(true); }, 15_000);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") outbox.wake();
  });
  $("undo").addEventListener("click", undo);
  $("faces-toggle").addEventListener("click", () => {
    const open = $("faces-toggle").getAttribute("aria-expanded") !== "true";
    $("faces-toggle").setAttribute("aria-expanded", String(open));
    showFaces(open);
  });
  $("faces-enter").addEventListener("click", enterFaces);
  live = new Live({
    night, token: held.token, table: tableNo,
    onState: (s, prev) => {
      if (!loaded) return;
      // a message that changes nothing drawn (the hello of each connection): no drawing
      if (state && drawnText(s) === drawnText(state)) keep(s);
      else render(s, prev);
    },
    onMessage,
    onFatal: (err) => { if (outbox) outbox.stopped = true; needToken(revokedText(err)); },
  });
  // reopened: the table as this phone last saw it, drawn at once (an entry tapped on it
  // says where it was tapped, docs/outbox.md), then the server's state drawn over it;
  // not when the server's state is already here (one drawing, not two)
  const kept = recall(LAST());
  const keptText = kept && kept.view && kept.name && firstPending() ? drawKept(kept) : null;
  try {
    await live.refresh();  // the view has all the page draws: no other request to wait for
    loaded = true;
    document.body.dataset.drawn = "fresh";
  } catch (err) {
    if (!$("need-token").hidden) return;
    // no connection: start from the page this phone saw last (the outbox keeps the entries)
    const last = recall(LAST());
    if (err.status === 0 && last) {
      live.state = last;
      live.seq = Math.max(live.seq, last.seq);
      loaded = true;
      live.setState("offline");
    } else {
      $("play").hidden = true;
      $("fatal").textContent = `Cannot open the table: ${err.text || err}`;
      $("fatal").hidden = false;
      return;
    }
  }
  drawFirst(live.state, keptText);
  live.drawn = live.state;
  document.body.dataset.ready = "yes";  // the server's state is drawn: the controls work
  // what the first drawing does without comes in a task of its own after it, so that a
  // tap waits for none of it: the live messages (the socket), what an earlier page of
  // this table left in the outbox (a reload, a closed tab), the host's announcement and
  // this table's call (the socket's hello reads them), a timed round's clock (asked of
  // the server), and the worker that keeps the pages for offline; after the frame that
  // paints the first drawing, so that frame waits for none of it either
  afterPaint(() => {
    live.connect();
    outbox.kick();
    room = new Room({ night, token: held.token, table: tableNo, callBox: $("call-box") });
    roundClock = new RoundClock({ night, token: held.token });
    roundClock.follow(state.view, $("turn"));
    rememberNight(night, `${state.name} · table ${tableNo}`, `table:${tableNo}`, `/n/${night}/table/${tableNo}`);
    registerOffline();
    keepFirstAsk(live.stateUrl(), held.token);  // asked for by the worker as the page reopens
  });
}

main();
