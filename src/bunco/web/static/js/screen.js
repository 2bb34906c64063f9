// The big screen (a TV at the party): every table's score live, the bell, a Bunco feed,
// the traveler's holder, the leaderboard, the moves after each round and, at the end,
// the prize winners. It fits one 1920×1080 screen without scrolling at 10 to 250 tables
// (screen_fit.js): the tables in a grid sized by their count, always all of them; the
// moves and the leaderboard in columns beside them, paged (with the page named) only when
// the columns cannot hold every player.

import { adoptToken, pathParts, publicOrigin, recall } from "./api.js";
import { Live } from "./live.js";
import { breakAndDrawing, handedList, prizesWaiting } from "./money.js";
import {
  bellNews, endingOf, endingText, prizeList, resultBadge, rolloffPanel, rollText, standingsOf,
  startBellRang, STATUS_WORDS, tableCard,
} from "./parts.js";
import { columnWidth, drawColumns, fitGrid, seatsDensity, showPage } from "./screen_fit.js";
import { $, fill, h, keepAwake, ringBell, roundLabel, topbar, unlockSound } from "./ui.js";
import { movesOf, moveText } from "./live.js";
import { Room } from "./room.js";
import { RoundClock } from "./round_clock.js";

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

let room = null;  // the host's announcement (room.js)
let roundClock = null;  // timed rounds: the round's clock (round_clock.js)

function onMessage(message) {
  if (room) room.onMessage(message);
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
  if (roundClock) roundClock.follow(view, $("round-line"));
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
  drawTables(view);
  const moves = view.last_round && !view.started && view.phase === "playing" ? movesOf(view) : [];
  $("moves-box").hidden = !moves.length;
  $("moves-title").textContent = moves.length ? `Round ${view.last_round.round}: winners and moves` : "Moves";
  lists.moves = moves;
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
  // a roll changes one table only: the lists are drawn again when the standings or the
  // moves change (a round's end reloads the night) or the moves come or go
  const same = lists.view && lists.view.standings === view.standings && lists.view.moves === view.moves
    && lists.shown === moves.length;
  lists.fresh = !previous || (previous.view.last_round || {}).round !== (view.last_round || {}).round
    || previous.view.started !== view.started;
  lists.view = view;
  lists.shown = moves.length;
  if (!same) drawLists();
  drawFeed(view);
  keepAwake(!over);
}

/** Before a round starts (between rounds, or before the first) the room reads where to go. */
const seating = (view) => view.phase === "playing" && !view.started;

/** A tile's "who sits here next round", a name a line in seat order (partners across, the
 * sides' colours alternate); shown where the tiles are too small for names beside scores
 * (the ``seats`` density, screen_fit.js). */
function seatNames(t) {
  return h("ol", { class: "seat-names", "aria-label": `Seated at table ${t.table}` },
    t.players.map((p, i) => h("li", { class: i % 2 ? "them" : "us", dataset: { seat: i + 1 } }, p || "ghost")));
}

/** Every table, all at once: the grid's columns and the tiles' density chosen for the
 * count and the room left under the header (screen_fit.js). */
function drawTables(view) {
  const box = $("tables");
  const seats = seating(view);
  box.dataset.seating = seats ? "yes" : "";
  fill(box, view.tables.map((t) => {
    const tile = tableCard(t, { tv: true, view });
    if (seats) tile.append(seatNames(t));
    const sides = [...tile.querySelectorAll(":scope > .tv-side")];
    if (sides.length) {
      const wrap = h("div", { class: "sides" });
      sides[0].before(wrap);
      wrap.append(...sides);
    }
    // "Table 12 (head)": the words hidden on a tiny tile, which shows the number only
    const head = t.table === 1 && view.tables.length > 1;
    tile.querySelector("h2 > span").replaceChildren(h("span", { class: "tword" }, "Table "), String(t.table),
      ...(head ? [h("span", { class: "tword" }, " (head)")] : []));
    const score = (t.team ? t.team_scores : t.points).join(" to ");
    tile.setAttribute("aria-label", `${tile.getAttribute("aria-label")}, ${score}`);
    return tile;
  }));
  fitTables();
}

function fitTables() {
  const box = $("tables");
  const key = $("tables-key");
  const measure = () => fitGrid(box.children.length, box.clientWidth,
    window.innerHeight - box.getBoundingClientRect().top - 8, 8);
  key.hidden = true;
  let grid = measure();
  if (grid.density !== "full") {  // the key to the tiles' colours, then the room under it
    if (!key.children.length) {
      fill(key, ["playing", "first_roll", "finishing", "tie_break", "done"].map(
        (s) => h("span", { dataset: { status: s } }, STATUS_WORDS[s])));
    }
    key.hidden = false;
    grid = measure();
  }
  // before a round, tiles too small for names show who sits there instead of their scores
  if (grid.density === "tiny" && box.dataset.seating === "yes" && box.children.length) {
    const names = fitGrid(box.children.length, box.clientWidth,
      window.innerHeight - box.getBoundingClientRect().top - 8, 8, [seatsDensity(box)]);
    if (names.fits) grid = names;
  }
  box.dataset.density = grid.density;
  box.dataset.columns = String(grid.columns);
  box.style.setProperty("--columns", grid.columns);
  box.style.setProperty("--tile-h", `${Math.floor(grid.tileHeight)}px`);
  box.style.setProperty("--s", Math.min(["full", "seats"].includes(grid.density) ? 1.5 : 1.25, Math.max(1, grid.scale)).toFixed(2));
  return grid;
}

// the lists beside the tables: the moves (between rounds) and the leaderboard
const lists = { view: null, moves: [], fresh: true, order: [], at: 0, shown: 0 };

/** A night of more than 48 players shows the board's short form (rank, name, W's, Buncos,
 * points): twice the players in the same room. */
const short = (view) => view.standings.length > 48;

function leaderRow(view) {
  const all = !short(view);
  return (r) => h("tr", { dataset: { player: r.player } },
    h("td", {}, r.rank), h("td", { class: "name" }, r.player), h("td", {}, r.wins),
    all ? h("td", {}, r.losses) : null, h("td", {}, r.buncos), all ? h("td", {}, r.mini_buncos) : null,
    h("td", {}, r.points));
}

function leaderHead(view) {
  const all = !short(view);
  return () => h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col", class: "name" }, "Player"),
    h("th", { scope: "col" }, "W"), all ? h("th", { scope: "col" }, "L") : null, h("th", { scope: "col" }, "Buncos"),
    all ? h("th", { scope: "col" }, view.words.mini) : null, h("th", { scope: "col" }, "Points"));
}

function moveRow(m) {
  const to = m.to ? `Table ${m.to.table} · seat ${m.to.seat}` : "sits out";
  return h("tr", { dataset: { player: m.player } }, h("td", {}, resultBadge(m)),
    h("td", { class: "name" }, m.player), h("td", { title: moveText(m) }, to));
}

/** The row a column must hold: each field of ``items`` at its longest (the longest name,
 * and a rank of 117 where the first rows say 1), so no later page is wider than measured. */
function widestOf(items) {
  if (!items.length) return null;
  const widest = {};
  const size = (v) => JSON.stringify(v ?? "").length;
  for (const item of items) {
    for (const [key, value] of Object.entries(item)) {
      if (!(key in widest) || size(value) > size(widest[key])) widest[key] = value;
    }
  }
  return widest;
}

/** The aside's width and its lists' font for the night's size: two columns of the board
 * when the tables still fit beside them, else one (the tables come first); a column as
 * wide as its longest name needs. */
function sizeAside(view, rows) {
  const players = rows.length;
  const layout = $("layout");
  layout.style.setProperty("--row-font", players > 120 ? "1rem" : players > 48 ? "1.15rem" : "1.3rem");
  const width = columnWidth($("board"), widestOf(rows), leaderHead(view), leaderRow(view));
  for (const columns of players > 24 ? [2, 1] : [1]) {
    layout.style.setProperty("--aside", `${Math.ceil(columns * width + (columns - 1) * 10 + 28)}px`);
    if (fitTables().fits) return;
  }
}

function drawLists() {
  const view = lists.view;
  if (!view || $("content").hidden) return;
  const rows = standingsOf(view);
  $("board-box").hidden = false;
  sizeAside(view, rows);
  const boardPages = drawColumns($("board"), rows, {
    head: leaderHead(view), row: leaderRow(view), label: "Leaderboard", widest: widestOf(rows),
  });
  let movePages = 0;
  if (lists.moves.length) {
    $("moves-box").hidden = false;
    movePages = drawColumns($("moves-cols"), lists.moves, {
      head: () => h("tr", {}, h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Won or lost")),
        h("th", { scope: "col", class: "name" }, "Player"), h("th", { scope: "col" }, "Goes to")),
      row: moveRow, label: "Moves", widest: widestOf(lists.moves),
    });
  }
  const order = [];
  for (let p = 1; p <= movePages; p += 1) order.push(["moves", p, movePages]);
  // between rounds on a big night the room reads where to go: the leaderboard's pages wait
  // for the round (else a guest could wait twice as long for their move)
  const boardToo = movePages <= 1 || boardPages <= 1;
  for (let p = 1; p <= (boardToo ? boardPages : 0); p += 1) order.push(["board", p, boardPages]);
  const same = lists.order.length === order.length && !lists.fresh;
  lists.order = order;
  if (!same) lists.at = 0;
  lists.at %= order.length;
  showList();
}

/** Show the list page at ``lists.at``: its card on top, its page named. */
function showList() {
  const [which, page, of] = lists.order[lists.at];
  const moves = which === "moves";
  $("moves-box").hidden = !moves;
  $("board-box").hidden = moves;
  showPage(moves ? $("moves-cols") : $("board"), page);
  $(moves ? "moves-page" : "board-page").textContent = of > 1 ? `Page ${page} of ${of}` : "";
  document.body.dataset.list = `${which}:${page}`;
}

/** The next page of the lists every 10 s, when there is more than one (a TV has nobody to
 * scroll it); each stays long enough to find a name. */
function nextList() {
  if (lists.order.length < 2) return;
  lists.at = (lists.at + 1) % lists.order.length;
  showList();
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
    $("fatal").textContent = $("fatal").textContent || "Open the big screen from the host's page: its “Big screen” button (under More) carries the key to this night.";
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
  room = new Room({ night, token: held.token, onChange: () => drawLists() });
  roundClock = new RoundClock({ night, token: held.token, size: "tv" });
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
  drawTables(live.state.view);
  drawLists();
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => { fitTables(); drawLists(); }, 150);
  });
  live.connect();
  setInterval(nextList, 10000);
  document.body.dataset.ready = "yes";
}

main();
