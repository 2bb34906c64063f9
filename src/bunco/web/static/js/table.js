// The table page: the scorekeeper's phone. Whose turn it is, the Us/Them tally, big tap
// targets for physical dice (quick tallies) or "Roll for me" (the server's dice), undo,
// "who rolled it?" for entries that go on a score card, the bell and the finishing turn,
// tie-breaks, and the moves after each round.

import { adoptToken, Commands, pathParts, rememberNight } from "./api.js";
import { Live, movesOf, moveText } from "./live.js";
import {
  bellNews, diceRows, drawBellBanner, endingOf, resultBadge, rollText, startBellButton,
  startBellRang,
} from "./parts.js";
import {
  $, buzz, chime, fill, h, keepAwake, kindLabel, names, ringBell, roundLabel, showDice,
  toast, topbar, tumble,
} from "./ui.js";
import { api } from "./api.js";

const { night, arg } = pathParts();
const tableNo = Number.parseInt(arg, 10);
const base = `/api/nights/${encodeURIComponent(night)}`;

let live = null;
let commands = null;
let loaded = false;  // the first state is drawn once the page is set up
let state = null;
let versions = { night: 0, table: 0 };
let feed = [];
let feedRound = "";
let diceShown = null;  // seq of the roll whose dice are on screen
let picked = [null, null, null];
let animating = false;  // "Roll for me" dice are tumbling
let built = "";  // the outcomes of the tally buttons drawn now

// The page follows its table's page (GET /api/nights/<id>/tables/<n>, then what the
// socket pushes): ``view.table`` is this table now (null when it is not in play).
// The tally buttons, their words and which of them ask "who rolled it?" come from the
// server's table view (``taps``): the page holds no game rules.
const myTable = (view) => (view && view.table) || null;
const tapsOf = (view) => {
  const t = myTable(view);
  return (t && t.taps) || [];
};
const expectedSeq = () => Math.max(versions.night, versions.table);

// -- entering rolls ----------------------------------------------------------------------------
async function submit(path, body) {
  try {
    const ack = await commands.send(path, () => ({ ...body, expected_seq: expectedSeq() }));
    versions.table = Math.max(versions.table, ack.seq);
    addFeed(ack.seq, ack.event, ack.entry);
    if (!animating) {
      if (ack.event.type === "roll") showDice($("dice"), ack.event.dice, state ? state.view.round : null);
      else fill("dice");
      diceShown = ack.seq;
      showResult(ack.event.type === "undo" ? null : ack.entry);
    }
    await live.acknowledge(ack);
    return ack;
  } catch (err) {
    if (err.code === "stale") {
      toast("This table changed on another phone: the tally is updated — check it and tap again.", "error", 6000);
      if (typeof err.body.current_seq === "number") versions.table = Math.max(versions.table, err.body.current_seq);
      live.refresh().catch(() => {});
    } else {
      toast(err.text || String(err), "error", 6000);
    }
    return null;
  }
}

function rollPath() { return `${base}/tables/${tableNo}/rolls`; }

async function tally(outcome) {
  const t = myTable(state.view);
  if (!t || !t.roller) return;
  const tap = (t.taps || []).find((x) => x.outcome === outcome);
  if (!tap || !tap.asks_who) {
    await submit(rollPath(), { outcome });
    return;
  }
  await enterFor(t, { outcome }, tap.label);
}

/** An entry that goes on a score card (a Bunco, three of a kind): ask who rolled it, catch
 * the tally up with a miss for each turn that ended without a tap, then send ``body``. */
async function enterFor(t, body, label) {
  const who = await askWho(t, label);
  if (!who) return null;
  if (who === t.roller) return submit(rollPath(), { ...body, player: who });
  // the server's rotation: who rolls, turn after turn, from the roller now
  const skip = (t.rotation || []).indexOf(who);
  if (skip <= 0) {
    return submit(rollPath(), { ...body, player: who });  // the engine says whose turn it is
  }
  const passed = t.rotation.slice(0, skip);
  const ok = await confirmSkip(passed, who, label);
  if (!ok) return null;
  for (let i = 0; i < skip; i += 1) {
    if (!(await submit(rollPath(), { outcome: "miss" }))) return null;
  }
  return submit(rollPath(), { ...body, player: who });
}

async function rollForMe() {
  const box = $("dice");
  const round = state.view.round;
  animating = true;
  $("result").textContent = "";
  const waiting = tumble(box, 650);
  const ack = await submit(rollPath(), { roll_for_me: true });
  await waiting;
  animating = false;
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
  const t = myTable(state.view);
  // a three of a kind that goes on the roller's card (the server's ``asks_who`` faces)
  // asks who rolled it, exactly as the tally buttons do
  const trips = dice[0] === dice[1] && dice[1] === dice[2] && t && t.roller
    && (t.asks_who || []).includes(dice[0]);
  const ack = trips ? await enterFor(t, { dice }, `Three ${dice[0]}s`)
    : await submit(rollPath(), { dice });
  if (ack) {
    picked = [null, null, null];
    drawPicker();
  }
}

async function undo() {
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
  const ack = await submit(`${base}/tables/${tableNo}/undo`, {});
  if (ack) {
    toast(`Undone: ${seen.what}`);
    fill("dice");
    diceShown = null;
  }
}

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
  $("who-text").textContent = `It goes on that player's score card. By the tally it is ${t.roller}'s turn.`;
  const rollers = [t.roller, ...t.players.filter((p) => p && p !== t.roller)];
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
    + `enter a miss for ${passed.length === 1 ? "that turn" : "each of those turns"}, then ${who}'s ${label}.`;
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
    "Roll for me", " ", h("small", {}, "the phone rolls the dice"));
  fill("taps", rollButton, taps.map(({ outcome, label }) => h("button", {
    type: "button",
    class: `tap ${outcome === "bunco" ? (sameTrips ? "bunco span4" : "bunco") : TAP_STYLE[outcome]}`,
    dataset: { outcome }, onclick: () => tally(outcome),
  }, h("span", { class: "label" }, label), " ", h("small", { class: "hint" }))));
}

function drawTaps(view, t) {
  buildTaps(view);
  const canRoll = Boolean(t && t.roller && view.phase === "playing");
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
  // real dice at the tables (the party default): typing and taps first, "Roll for me" small
  const real = (state && state.dice) !== "phones";
  $("taps").classList.toggle("real", real);
  $("roll-for-me").querySelector("small").textContent = real ? "" : "the phone rolls the dice";
  $("faces-enter").disabled = !canRoll || picked.includes(null);
  const undoable = t && (t.rolls > 0 || (view.last_round && !view.started));
  $("undo").disabled = !undoable || view.phase === "over";
}

function drawTurn(view, t) {
  let text = "";
  let sub = "";
  let box = null;
  const r = view.round;
  if (view.phase === "over") {
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
  } else if (t.status === "first_roll") {
    text = `${t.roller} rolls for high`;
    sub = "Each player rolls once; highest total starts. Enter the three dice or Roll for me.";
    box = ["info", "Rolling for who starts: quick tallies are off until then."];
  } else if (t.status === "finishing") {
    text = `${t.roller} finishes the turn`;
    sub = `Keep rolling for ${r}s until a roll scores nothing: then the round ends here.`;
    box = null;  // the bell banner above says it: "The bell! … Finish your turn!"
  } else if (t.status === "tie_break") {
    text = `Tie! ${t.roller} rolls${t.rolling_for_high ? " for high" : ""}`;
    sub = t.tie_break ? t.tie_break.text : "";  // the rule in the server's words
    box = ["tie", h("strong", {}, "Tie-break"), " ", tieText(t)];
  } else if (t.status === "done") {
    text = "Round over at this table";
    sub = view.bell ? "Waiting for the other tables…" : "Waiting for the other tables to finish.";
    box = ["done", h("strong", {}, `${names(t.winners)} win${t.winners.length === 1 ? "s" : ""}`), scoreLine(t)];
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
  }
}

function scoreLine(t) {
  if (t.team) return ` ${t.team_scores[0]}–${t.team_scores[1]}`;
  return ` ${Object.values(t.scores).join("–")}`;
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

function drawTally(t) {
  if (!t) return fill("tally");
  const rollerSide = t.rolling_side ?? -1;  // the server's: which side the roller is on
  const winners = new Set(t.winners);
  const tb = t.tie_break;
  const extra = (side) => (tb && tb.sides.includes(side) ? ` · tie-break ${tb.points[side]}` : "");
  if (t.team) {
    const [us, them] = t.teams;
    return fill("tally", h("div", { class: "tally" },
      sideBox("us", "Us", t.team_scores[0], us, t.target, rollerSide === 0, us.some((p) => winners.has(p)), extra(0)),
      sideBox("them", "Them", t.team_scores[1], them, t.target, rollerSide === 1, them.some((p) => winners.has(p)), extra(1))));
  }
  return fill("tally", h("div", { class: "indiv" }, t.players.map((p, i) => sideBox(
    "solo", p || `Ghost ${i + 1}`, t.points[i], [], t.target, rollerSide === i,
    winners.has(p), extra(i)))));
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
  fill("feed", feed.length ? feed.map((f) => h("li", {}, h("span", {}, f.text)))
    : h("li", { class: "muted" }, earlier));
}

function drawMoves(view, t) {
  const box = $("moves-box");
  const fresh = view.last_round && !view.started && view.phase !== "over";
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
  const result = lastHere ? h("p", {}, h("strong", {}, `${names(lastHere.winners)} won here`),
    lastHere.team ? ` ${lastHere.team_scores[0]}–${lastHere.team_scores[1]}` : "") : null;
  const list = (id, items, fn) => h("ul", { class: "moves", id }, items.map((m) => h("li", { dataset: { player: m.player } },
    resultBadge(m), h("span", { class: "who" }, m.player), fn(m))));
  const body = [
    result,
    h("h3", {}, "Where they go now"),
    list("leaving", leaving, (m) => h("span", {}, moveText(m))),
    t ? [h("h3", {}, `At this table now${view.started ? "" : " (next round)"}`),
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

function drawPicker() {
  // built once and marked in place: the face just pressed keeps the keyboard's focus
  diceRows($("dicepick"), picked, (d, f) => {
    picked[d] = f;
    drawPicker();
    if (state) drawTaps(state.view, myTable(state.view));
  });
}

function render(next, previous) {
  state = next;
  const view = next.view;
  const t = myTable(view);
  versions.night = Math.max(versions.night, (next.versions && next.versions.night) || 0);
  versions.table = Math.max(versions.table, (next.versions && next.versions[String(tableNo)]) || 0);
  const roundKey = `${view.set}.${view.round}.${view.phase}`;
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
    ringBell();
    buzz([200, 80, 200]);
    if (tableNo !== 1) toast(`The head table rang the bell: round ${view.round} starts. Roll!`);
  }
  const start = tableNo === 1 ? startBellButton(view, { commands, live, base, then: " Roll!" }) : null;
  $("start-box").hidden = !start;
  fill("start-box", start, start ? h("p", { class: "small muted" },
    "Optional: the round also starts with its first roll.") : null);
  drawTurn(view, t);
  drawTally(t);
  drawTaps(view, t);
  drawMoves(view, t);
  if (!feed.length) drawFeed();
  if (t && t.last_roll && diceShown === null && !animating) showResult(t.last_roll);
  if (t && !t.last_roll && !animating) showEnding(view);
  keepAwake(view.phase !== "over");
  $("faces").hidden = !(t && t.rolling_for_high) && $("faces-toggle").getAttribute("aria-expanded") !== "true";
}

function onMessage(message) {
  if (message.type === "event") {
    if (message.table === tableNo) {
      versions.table = Math.max(versions.table, message.seq);
      addFeed(message.seq, message.event, message.entry);
      if (diceShown !== message.seq && (message.entry || message.event.type === "undo") && !animating) {
        if (message.event.type === "roll") showDice($("dice"), message.event.dice, state ? state.view.round : null);
        else fill("dice");
        diceShown = message.seq;
        showResult(message.event.type === "undo" ? null : message.entry);
      }
    } else if (message.table === null && !["roll", "tally", "undo"].includes(message.event.type)) {
      versions.night = Math.max(versions.night, message.seq);
    }
  }
}

function needToken(message) {
  $("play").hidden = true;
  $("need-token").hidden = false;
  if (message) {
    $("fatal").textContent = message;
    $("fatal").hidden = false;
  }
  $("code-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const code = $("code").value.replace(/[\s-]/g, "");
    if (code) location.assign(`/join/${encodeURIComponent(code)}`);
  });
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
    onAck: (ack) => { versions.table = Math.max(versions.table, ack.seq); },
    onPending: (n) => { $("pending").textContent = n > 1 ? `Sending ${n} entries…` : n === 1 ? "Sending…" : ""; },
  });
  $("undo").addEventListener("click", undo);
  $("faces-toggle").addEventListener("click", () => {
    const open = $("faces-toggle").getAttribute("aria-expanded") !== "true";
    $("faces-toggle").setAttribute("aria-expanded", String(open));
    $("faces").hidden = !open;
  });
  $("faces-enter").addEventListener("click", enterFaces);
  drawPicker();
  live = new Live({
    night, token: held.token, table: tableNo,
    onState: (s, prev) => {
      if (loaded) render(s, prev);
    },
    onMessage,
    onFatal: (err) => needToken(err.text || "This phone's link no longer works."),
  });
  try {
    await live.refresh();  // the view has all the page draws: no other request to wait for
    loaded = true;
  } catch (err) {
    if (!$("need-token").hidden) return;
    $("fatal").textContent = `Cannot open the table: ${err.text || err}`;
    $("fatal").hidden = false;
    return;
  }
  rememberNight(night, `${live.state.name} · table ${tableNo}`, `table:${tableNo}`, `/n/${night}/table/${tableNo}`);
  buildTaps(live.state.view);
  $("play").hidden = false;
  render(live.state, null);
  live.connect();
  document.body.dataset.ready = "yes";
}

main();
