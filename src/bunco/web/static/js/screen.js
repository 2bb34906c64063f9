// The big screen (a TV at the party): every table's score live, the bell, a Bunco feed,
// the traveler's holder, the leaderboard, the moves after each round and, at the end,
// the prize winners.

import { adoptToken, pathParts, publicOrigin, recall } from "./api.js";
import { Live } from "./live.js";
import { breakAndDrawing, handedList, prizesWaiting } from "./money.js";
import {
  bellNews, endingOf, endingText, leaderboard, movesList, prizeList, rolloffPanel, rollText,
  startBellRang, tableCard,
} from "./parts.js";
import { $, fill, h, keepAwake, ringBell, roundLabel, topbar, unlockSound } from "./ui.js";

const { night } = pathParts();
let live = null;
const feed = [];

function addFeed(text, seq) {
  if (feed.some((f) => f.seq === seq)) return;
  feed.unshift({ text, seq });
  feed.splice(12);
  drawFeed();
}

function drawFeed(view = null) {
  if (feed.length) {
    fill("feed", feed.map((f) => h("li", { dataset: { seq: f.seq } }, f.text)));
    return;
  }
  const so = view ? Object.entries(view.players).filter(([, c]) => c.buncos > 0) : [];
  fill("feed", so.length ? so.sort((a, b) => b[1].buncos - a[1].buncos)
    .map(([p, c]) => h("li", {}, h("span", {}, p), h("span", {}, `${c.buncos} Bunco${c.buncos === 1 ? "" : "s"}`)))
    : h("li", { class: "muted" }, "No Buncos yet tonight."));
}

function onMessage(message) {
  // every entry's message says what it scored, also the Bunco that ended the round
  const last = message.type === "event" ? message.entry : null;
  if (!last) return;
  if (["bunco", "mini_bunco", "low_bunco", "high_bunco", "wipeout"].includes(last.kind) && last.phase !== "first_roll") {
    addFeed(rollText(last, live && live.state ? live.state.view.words : null), message.seq);
  }
}

let overlayTimer = null;

function bellOverlay(view) {
  const overlay = $("bell-overlay");
  const ending = endingOf(view);
  $("bell-sub").textContent = ending ? endingText(ending, view.words) : "The round is ending";
  overlay.hidden = false;
  overlay.classList.add("ringing");
  clearTimeout(overlayTimer);
  overlayTimer = setTimeout(() => { overlay.hidden = true; overlay.classList.remove("ringing"); }, 4000);
}

function render(state, previous) {
  const view = state.view;
  $("night-name").textContent = state.name;
  document.title = `${state.name} — big screen`;
  $("bar-title").textContent = state.name;
  const over = view.phase === "over";
  $("round-line").replaceChildren(over ? "The night is over"
    : view.phase === "rolloff" ? "Roll-off"
      : h("span", {}, `${roundLabel(view)} · roll for `, h("span", { class: "target-no" }, view.round), "s"));
  Object.assign(document.body.dataset, { phase: view.phase, round: String(view.round), bell: String(view.bell) });
  const ending = endingOf(view);
  $("bell-state").hidden = !ending;
  $("bell-line").hidden = !ending;
  $("bell-line").textContent = ending ? endingText(ending, view.words) : "";
  document.body.dataset.ending = ending ? `${ending.roll.set}.${ending.roll.round}` : "";
  if (!ending) $("bell-overlay").hidden = true;
  if (bellNews(view, previous)) {
    ringBell();
    bellOverlay(view);
  }
  if (startBellRang(view, previous)) ringBell();
  let status = "";
  if (view.phase === "playing" && view.started && view.tables.every((t) => t.rolls === 0)) {
    status = `The bell has rung: round ${view.round} — go!`;
  } else if (view.on_break) status = "Break time!";
  else if (view.phase === "playing" && !view.started && view.last_round) status = `Round ${view.last_round.round} is over — everyone moves`;
  $("status-line").textContent = status;
  drawBreak(view);
  fill("tables", view.tables.map((t) => tableCard(t, { tv: true })));
  const moves = view.last_round && !view.started && view.phase === "playing" ? movesList(view) : null;
  const movesBox = $("moves-box");
  movesBox.hidden = !moves;
  if (moves) fill(movesBox, h("h2", {}, `Round ${view.last_round.round}: winners and moves`), moves);
  const prizes = over || (view.set_winners || []).length
    ? handedList(view) || prizesWaiting(view) || prizeList(view) : null;
  $("prizes-box").hidden = !prizes;
  if (prizes) fill("prizes", prizes);
  const ro = rolloffPanel(view, { tv: true });
  $("rolloff-box").hidden = !ro;
  fill("rolloff-box", ro);
  // the traveler may pass with any roll: each message's status says who holds it now
  const holder = state.status && "traveler" in state.status ? state.status.traveler : view.traveler;
  const trav = $("traveler-box");
  trav.hidden = !holder;
  $("traveler").textContent = holder ? `${holder} holds it` : "";
  // every player: the board scrolls through a big night by itself (see pageBoard)
  fill("board", leaderboard(view, { mini: view.words.mini }));
  drawFeed(view);
  keepAwake(!over);
}

/** Page through a leaderboard taller than its box: a screenful every 8 s, then back to
 * the top (a TV has nobody to scroll it). */
function pageBoard() {
  const box = $("board");
  if (box.scrollHeight <= box.clientHeight + 4) return;
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  box.scrollTo({ top: atEnd ? 0 : box.scrollTop + box.clientHeight - 40, behavior: "smooth" });
}
// the break's countdown and the latest drawing (money.js); the countdown ticks every second
function drawBreak(view) {
  const parts = breakAndDrawing(view);
  $("break-box").hidden = !parts;
  fill("break-box", parts);
}
setInterval(() => { if (live && live.state && live.state.view.break) drawBreak(live.state.view); }, 1000);

async function main() {
  topbar("Big screen");
  $("sound").addEventListener("click", () => {
    const ok = unlockSound();
    $("sound").textContent = ok ? "Sound on" : "No sound here";
    $("sound").disabled = true;
  });
  let held = null;
  try {
    held = await adoptToken(night, ["viewer", "host", "player"]);
  } catch (err) {
    $("fatal").textContent = err.text || String(err);
  }
  if (!held) {
    $("fatal").textContent = $("fatal").textContent || "Open the big screen from the host's page (its link carries the night's viewer token).";
    $("fatal").hidden = false;
    return;
  }
  const created = recall(`${night}:created`);
  const viewer = held.role === "viewer" ? held.token : created && created.viewer_token;
  if (viewer) {
    const link = `${await publicOrigin()}/n/${encodeURIComponent(night)}/player?token=${encodeURIComponent(viewer)}`;
    $("player-qr").src = `/api/qr.svg?text=${encodeURIComponent(link)}`;
    $("qr-box").hidden = false;
  }
  // Each roll's message carries all that changes on this screen with it (the table, the
  // bell, the traveler, the feed's entry); the cards and standings change only when a
  // round ends, and that reloads the night. So no reload while rolls come in: a 200-player
  // night's rolls cost their messages only, not a 111 KB view every few seconds.
  live = new Live({
    night, token: held.token, onState: render, onMessage,
    onFatal: (err) => { $("fatal").textContent = err.text || "This link no longer works."; $("fatal").hidden = false; },
  });
  try {
    await live.refresh();
    render(live.state, null);
  } catch (err) {
    $("fatal").textContent = err.text || String(err);
    $("fatal").hidden = false;
    return;
  }
  $("content").hidden = false;
  live.connect();
  setInterval(pageBoard, 8000);
  document.body.dataset.ready = "yes";
}

main();
