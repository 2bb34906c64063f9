// The player's page: my table, seat and partner, my score card filling in live, and a
// clear "Move to table 2, seat 3" after each round (with a chime and a buzz where the
// phone allows). Roll-offs (and online play, if switched on) roll from here.

import { adoptToken, api, Commands, pathParts, recall, rememberNight, saveToken, store } from "./api.js";
import { Live, movesOf, moveText, seatsOf } from "./live.js";
import { initPlayerCheckin } from "./player_checkin.js";
import { RoundClock } from "./round_clock.js";
import { bellNews, drawBellBanner, prizeList, rolloffPanel, scoreCard, tableCard } from "./parts.js";
import { $, buzz, chime, fill, h, keepAwake, names, ordinalTable, ringBell, roundLabel, toast, topbar } from "./ui.js";

const { night } = pathParts();
const base = `/api/nights/${encodeURIComponent(night)}`;
let live = null;
let me = null;
let token = null;
let roundClock = null;  // timed rounds (round_clock.js)
let commands = null;
let loaded = false;  // the first state is drawn once the page is set up

const online = () => Boolean(recall(`${night}:online`));
/** From how many players the name list comes with a box to find one's name. */
const FIND_FROM = 20;

async function claim(name, readToken) {
  $("claim-error").hidden = true;
  try {
    const reply = await api(`${base}/claim`, { method: "POST", token: readToken, body: { name } });
    saveToken(night, "player", reply.token);
    location.reload();
  } catch (err) {
    $("claim-error").textContent = err.code === "already_claimed"
      ? `${name} is already followed on another phone. Ask the host to release the name.`
      : err.text || String(err);
    $("claim-error").hidden = false;
  }
}

async function showClaim(readToken) {
  // the names only (a few hundred bytes), not the whole night
  const night = await api(`${base}/players`, { token: readToken });
  document.title = `${night.name} — who are you?`;
  $("bar-title").textContent = night.name;
  const roster = [...night.players].sort((a, b) => a.localeCompare(b));
  fill("names", roster.map((name) => h("button", { type: "button", class: "btn secondary",
    dataset: { player: name }, onclick: () => claim(name, readToken) }, name)));
  // a big night: a box to find one's name, first, rather than a long list to scroll
  if (roster.length >= FIND_FROM) {
    $("name-find-form").hidden = false;
    const narrow = () => {
      const typed = $("name-find").value.trim().toLowerCase();
      let shown = 0;
      for (const button of $("names").children) {
        const name = button.dataset.player.toLowerCase();
        // a name or any word of it starting with what is typed, else holding it
        button.hidden = Boolean(typed) && !name.split(/\s+/).some((w) => w.startsWith(typed)) && !name.includes(typed);
        shown += button.hidden ? 0 : 1;
      }
      $("names-none").hidden = shown > 0;
      $("names-none").textContent = shown ? "" : `No name holds “${$("name-find").value.trim()}”: check the spelling, or ask the host.`;
    };
    $("name-find").addEventListener("input", narrow);
    $("name-find-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const only = [...$("names").children].filter((b) => !b.hidden);
      if (only.length === 1) only[0].click();
    });
  }
  $("claim").hidden = false;
  document.body.dataset.ready = "claim";
}

async function roll(path, player, dice = null) {
  try {
    const ack = await commands.send(path, { ...(dice ? { dice } : { roll_for_me: true }), ...(player ? { player } : {}) });
    toast(`You rolled ${ack.event.dice.join(" ")}`);
    await live.acknowledge(ack);
  } catch (err) {
    toast(err.text || String(err), "error");
  }
}

/** "Everyone is seated — start": a player confirms the new seating of their table. */
async function seated(table) {
  try {
    const ack = await commands.send(`${base}/tables/${table}/seated`, {});
    toast(`Everyone is seated: round ${ack.status.round} begins at table ${table}.`);
    await live.acknowledge(ack);
  } catch (err) {
    toast(err.text || String(err), "error");
    await live.refresh().catch(() => {});
  }
}

function drawWhere(view) {
  const seat = seatsOf(view)[me];
  const box = $("where");
  if (view.phase === "over") {
    fill(box, h("p", { class: "where-big" }, "The night is over"),
      h("p", {}, h("a", { class: "btn", href: `/n/${encodeURIComponent(night)}/end` }, "Prizes and score cards")));
    return;
  }
  if (!seat) {
    fill(box, h("p", { class: "where-big" }, "Not seated this round"));
    return;
  }
  const others = seat.players.filter((p, i) => p && p !== me && p !== seat.partner && i >= 0);
  fill(box,
    h("p", { class: "where-big", id: "seat-line" }, `${ordinalTable(seat.table)} · seat ${seat.seat}`),
    seat.team ? h("p", { id: "partner-line" }, "Partner: ", h("strong", {}, seat.partner || "a ghost"), " (sitting opposite)") : h("p", {}, "You play for yourself at this table."),
    others.length ? h("p", { class: "muted" }, `${seat.team ? "Against" : "With"}: ${names(others)}`) : null,
    h("p", { class: "muted small" }, `${roundLabel(view)} · roll for ${view.round}s${seat.seat === 1 ? " · you keep score (seat 1)" : ""}`));
}

function drawMove(view, fresh) {
  const box = $("bigmove");
  const move = view.last_round && !view.started && view.phase === "playing"
    ? movesOf(view).find((m) => m.player === me) : null;
  box.hidden = !move;
  if (!move) return;
  fill(box, h("span", { id: "move-text" }, moveText(move)),
    h("span", { class: "sub" }, !move.from ? `Welcome! You play from round ${view.round}`
      : `${move.result === "W" ? "You won" : "You lost"} round ${view.last_round.round}`
      + (move.to && move.to.table !== move.from.table ? ` · you were at table ${move.from.table}` : "")));
  if (fresh) {
    chime();
    buzz([250, 120, 250, 120, 250]);
  }
}

function drawTurn(view) {
  const box = $("turn-box");
  const mine = (view.expects || []).find((e) => e.player === me);
  if (!mine) {
    box.hidden = true;
    return;
  }
  const atTable = mine.table !== null;
  if (atTable && online() && (view.seating_waits || []).includes(mine.table)) {
    // the players moved: the round begins at the table once everyone is seated there
    fill(box, "Everyone to their new seat",
      h("span", { class: "sub" }, `Round ${view.round} begins at table ${mine.table} once everyone sits down.`),
      h("button", { type: "button", class: "btn wide", id: "seated-ok", onclick: () => seated(mine.table) },
        "Everyone is seated — start"));
    box.hidden = false;
    return;
  }
  const canRoll = !atTable || online();
  const path = atTable ? `${base}/me/roll` : `${base}/rolloff`;
  fill(box, atTable ? "Your turn to roll!" : "Your roll in the roll-off!",
    h("span", { class: "sub" }, atTable ? (canRoll ? "Roll here, or let your scorekeeper enter the dice." : "Roll the dice: your scorekeeper enters them.") : ""),
    canRoll ? h("button", { type: "button", class: "btn wide", id: "my-roll",
      onclick: () => roll(path, atTable ? null : me) }, "Roll my dice") : null);
  box.hidden = false;
}

function render(state, previous) {
  const view = state.view;
  document.title = `${me} — ${state.name}`;
  $("bar-title").textContent = `${me} · ${state.name}`;
  if (!roundClock) roundClock = new RoundClock({ night, token });
  roundClock.follow(view, $("me"));
  Object.assign(document.body.dataset, { phase: view.phase, round: String(view.round), bell: String(view.bell) });
  drawBellBanner(view);
  if (bellNews(view, previous)) {
    ringBell();
    buzz([300, 120, 300]);
  }
  const roundChanged = previous && (previous.view.round !== view.round || previous.view.set !== view.set);
  drawWhere(view);
  drawMove(view, Boolean(roundChanged));
  drawTurn(view);
  const seat = seatsOf(view)[me];
  const t = seat ? view.table || view.tables[seat.table - 1] : null;
  fill("my-table", t ? tableCard(t, { level: "h2" }) : null);
  const ro = rolloffPanel(view, { canRoll: (who) => who === me, real: state.dice !== "phones",
    onRoll: (who, dice) => roll(`${base}/rolloff`, who, dice) });
  if (ro) $("my-table").append(h("section", { class: "card" }, ro));
  const card = (view.cards || view.players)[me];
  if (card) {
    const mini = view.words.mini;
    fill("stats", [["W", card.wins], ["L", card.losses], ["Buncos", card.buncos], [mini, card.mini_buncos]]
      .map(([k, v]) => h("div", { dataset: { stat: k } }, h("b", {}, v), k)));
    fill("card", scoreCard(me, card, view.sets), h("p", { class: "small muted" }, `${card.points} points so far`));
  }
  const prizes = view.phase === "over" ? prizeList(view) : null;
  $("prizes-box").hidden = !prizes;
  if (prizes) fill("prizes", prizes);
  keepAwake(view.phase !== "over");
}

async function main() {
  topbar("My card");
  let held = null;
  try {
    held = await adoptToken(night, ["player", "viewer", "host"]);
  } catch (err) {
    $("fatal").textContent = err.text || String(err);
  }
  if (!held) {
    $("fatal").textContent = $("fatal").textContent || "Open this page from the night's QR code or player link.";
    $("fatal").hidden = false;
    return;
  }
  if (held.role !== "player") {
    try {
      await showClaim(held.token);
    } catch (err) {
      $("fatal").textContent = err.text || String(err);
      $("fatal").hidden = false;
    }
    return;
  }
  token = held.token;
  // who I am and the table I sit at, asked by the page's inline start as it was read
  // (boot.js), with this token; else asked now
  const asked = window.buncoMine && !held.me ? await window.buncoMine : null;
  window.buncoMine = null;
  try {
    me = asked ? asked.me.player : (held.me || (await api("/api/me", { token }))).player;
  } catch (err) {
    saveToken(night, "player", null);
    $("fatal").textContent = `${err.text || err} — reload to pick your name again.`;
    $("fatal").hidden = false;
    return;
  }
  commands = new Commands(token);
  $("me").textContent = me;
  $("results-link").href = `/n/${encodeURIComponent(night)}/end`;
  $("online").checked = online();
  $("online").addEventListener("change", (ev) => {
    store(`${night}:online`, ev.target.checked || null);
    if (live && live.state) render(live.state, null);
  });
  let table = asked ? asked.table : null;
  if (!asked) {
    try {  // the table I sit at now: the page follows that table's page, a few kilobytes
      table = (await api(`${base}/players/${encodeURIComponent(me)}/card`, { token })).table;
    } catch {
      table = null;  // follow the whole night
    }
  }
  // one socket all night: the server follows me from table to table (?player=) and sends
  // each new table's page; the page never reconnects to move
  const checkin = initPlayerCheckin({ box: $("checkin-box"), base, token, me });  // "I'm here"
  live = new Live({
    night, token, table, player: me, onState: (s, prev) => { if (loaded) render(s, prev); },
    onMessage: (m) => checkin.onMessage(m),
    onFatal: (err) => {
      saveToken(night, "player", null);
      $("fatal").textContent = `${err.text || "This phone no longer follows a player"} — reload to pick your name again.`;
      $("fatal").hidden = false;
    },
  });
  try {
    await live.refresh();
    loaded = true;
  } catch (err) {
    $("fatal").textContent = err.text || String(err);
    $("fatal").hidden = false;
    return;
  }
  rememberNight(night, `${live.state.name} · ${me}`, "player", `/n/${night}/player`);
  $("mine").hidden = false;
  render(live.state, null);
  live.connect();
  document.body.dataset.ready = "yes";
}

main();
