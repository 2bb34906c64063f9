// The host's page: the seating with every table's QR code and join code (printable), the
// tables live, the bell and the moves, late arrivals and departures, and roll-offs.

import { adoptToken, api, Commands, pathParts, recall, rememberNight, store } from "./api.js";
import { Live } from "./live.js";
import { movesList, rolloffPanel, tableCard } from "./parts.js";
import { $, buzz, fill, h, keepAwake, names, ordinalTable, ringBell, roundLabel, toast, topbar } from "./ui.js";

const { night } = pathParts();
const base = `/api/nights/${encodeURIComponent(night)}`;
let token = null;
let live = null;
let commands = null;
let created = null;     // the creation reply (join codes, viewer token), if this phone made the night
let seatingKey = "";

const pageLink = (page, withToken = true) => {
  const viewer = created && created.viewer_token;
  const query = withToken && viewer ? `?token=${encodeURIComponent(viewer)}` : "";
  return `${location.origin}/n/${encodeURIComponent(night)}/${page}${query}`;
};
const qr = (text, alt) => h("img", { class: "qr", src: `/api/qr.svg?text=${encodeURIComponent(text)}`,
  alt, width: 176, height: 176 });

function credsFor(table) {
  return created && created.tables ? created.tables.find((c) => c.table === table) : null;
}

function joinLink(c) {
  return `${location.origin}/join?token=${encodeURIComponent(c.token)}`;
}

async function newCode(table) {
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

function seatList(players, team) {
  return h("ol", {}, players.map((p, i) => h("li", {},
    p || "(ghost)", i === 0 ? h("span", { class: "muted small" }, " — scorekeeper") : null,
    team && i < 2 ? h("span", { class: "muted small" }, ` · partner ${players[i + 2] || "ghost"}`) : null)));
}

function drawSeating(view) {
  const seating = view.tables.length ? view.tables.map((t) => t.players)
    : (view.next ? view.next.tables : []);
  const key = JSON.stringify([seating, created && created.tables, view.round, view.set]);
  if (key === seatingKey) return;
  seatingKey = key;
  $("print-title").textContent = `${live.state.name} — ${roundLabel(view)} seating`;
  const cards = seating.map((players, i) => {
    const n = i + 1;
    const t = view.tables[i];
    const team = t ? t.team : players.length === 4;
    const c = credsFor(n);
    return h("article", { class: "seat-card", dataset: { table: n } },
      h("h3", {}, ordinalTable(n, seating.length)),
      team ? h("p", { class: "small" }, `${names([players[0], players[2]])} vs ${names([players[1], players[3]])}`)
        : h("p", { class: "small" }, "Individuals: each player for themselves"),
      seatList(players, team),
      c ? [qr(joinLink(c), `QR code: join table ${n} as its scorekeeper`),
        h("p", { class: "code", dataset: { code: c.code }, "aria-label": `Join code ${c.code.split("").join(" ")}` }, c.code),
        h("p", { class: "link-text" }, `${location.host}/join — code ${c.code}`),
        h("a", { class: "join-link no-print small", href: joinLink(c), dataset: { table: n } }, "join link")]
        : h("p", { class: "no-print" }, h("button", { type: "button", class: "btn secondary",
          onclick: () => newCode(n) }, "Make a join code")),
      c ? h("p", { class: "no-print" }, h("button", { type: "button", class: "btn secondary small",
        onclick: () => newCode(n), "aria-label": `New join code for table ${n}` }, "New code")) : null);
  });
  const extra = created && created.viewer_token ? h("article", { class: "seat-card", id: "player-card" },
    h("h3", {}, "Players: follow your card"),
    h("p", { class: "small" }, "Scan, pick your name: your seat, partner, score card and moves, live."),
    qr(pageLink("player"), "QR code: the player page"),
    h("a", { class: "no-print small", id: "player-link", href: pageLink("player") }, "player link")) : null;
  fill("sheet", cards, extra);
}

function drawNav() {
  const links = [];
  if (created && created.viewer_token) {
    links.push(h("a", { class: "btn secondary", id: "screen-link", href: pageLink("screen"), target: "_blank",
      rel: "noopener" }, "Big screen"));
  } else {
    links.push(h("a", { class: "btn secondary", id: "screen-link", href: pageLink("screen", false),
      target: "_blank", rel: "noopener" }, "Big screen"));
  }
  links.push(h("a", { class: "btn secondary", id: "end-link", href: `/n/${encodeURIComponent(night)}/end` },
    "Results"));
  fill("nav", links);
}

async function rolloffRoll(player) {
  try {
    const ack = await commands.send(`${base}/rolloff`, { roll_for_me: true, player });
    toast(`${player} rolled ${ack.event.dice.join(" ")}`);
    await live.acknowledge(ack);
  } catch (err) {
    toast(err.text || String(err), "error");
  }
}

function render(state, previous) {
  const view = state.view;
  $("night-name").textContent = state.name;
  $("bar-title").textContent = `Host · ${state.name}`;
  document.title = `Host — ${state.name}`;
  const count = view.seated.length;
  const phase = view.phase === "over" ? "The night is over"
    : view.phase === "rolloff" ? "Roll-off" : `${roundLabel(view)} of ${view.sets * 6} · roll for ${view.round}s`;
  $("night-sub").textContent = `${state.setup.rules} · ${count} players at ${view.tables.length || (view.next ? view.next.tables.length : 0)} tables · ${phase}`;
  Object.assign(document.body.dataset, { phase: view.phase, round: String(view.round), bell: String(view.bell) });
  $("bell").hidden = !view.bell || view.phase !== "playing";
  $("bell-text").textContent = "The bell has rung: the head table reached its target. Players finishing a turn roll on.";
  if (previous && view.bell && !previous.view.bell) {
    ringBell();
    buzz();
  }
  drawSeating(view);
  fill("overview", view.tables.map((t) => tableCard(t)));
  let line;
  if (view.phase === "over") line = h("p", {}, "Every round is played. ", h("a", { href: `/n/${encodeURIComponent(night)}/end` }, "See the prizes →"));
  else if (view.on_break) line = h("p", { class: "notice" }, "Break time! The next round starts with its first roll.");
  else if (!view.started && view.last_round) line = h("p", {}, `Round ${view.last_round.round} is over: everyone moves (below). The next round starts with its first roll.`);
  else line = null;
  fill("status-line", line);
  const moves = view.last_round ? movesList(view) : null;
  fill("moves", moves ? [h("h3", {}, `Moves after round ${view.last_round.round}`), moves] : null);
  const ro = $("rolloff-box");
  const panel = rolloffPanel(view, { canRoll: () => true, onRoll: rolloffRoll });
  ro.hidden = !panel;
  fill(ro, panel);
  const between = view.phase === "playing" && !view.started;
  for (const el of document.querySelectorAll("#people-card button, #people-card input, #people-card select")) {
    el.disabled = !between;
  }
  $("people-note").textContent = between ? "" : "Wait for the end of the round to change who plays.";
  const current = $("leaving").value;
  fill("leaving", view.seated.slice().sort().map((p) => h("option", { value: p, selected: p === current }, p)));
  keepAwake(view.phase !== "over");
}

async function people(ev, path, body, done) {
  ev.preventDefault();
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
  commands = new Commands(token);
  if (["localhost", "127.0.0.1", "[::1]"].includes(location.hostname)) {
    $("lan-warning").textContent = "Phones cannot reach “localhost”: run `bunco serve --host 0.0.0.0` and open this page at this computer's address on the Wi-Fi (e.g. http://192.168.1.20:8000) before printing the codes.";
    $("lan-warning").hidden = false;
  }
  $("print").addEventListener("click", () => window.print());
  $("arrival-form").addEventListener("submit", (ev) => {
    const name = $("arrival").value.trim();
    if (!name) { ev.preventDefault(); return; }
    people(ev, "arrivals", { player: name }, () => { $("arrival").value = ""; toast(`${name} joins the next round.`); });
  });
  $("leave-form").addEventListener("submit", (ev) => {
    const name = $("leaving").value;
    people(ev, "departures", { player: name }, () => toast(`${name} leaves; the seating is redone.`));
  });
  live = new Live({
    night, token, onState: render,
    onFatal: (err) => { $("fatal").textContent = err.text || "This link no longer works."; $("fatal").hidden = false; },
  });
  try {
    await live.refresh();
  } catch (err) {
    $("fatal").textContent = err.text || String(err);
    $("fatal").hidden = false;
    return;
  }
  rememberNight(night, live.state.name, "host", `/n/${night}/host`);
  drawNav();
  $("content").hidden = false;
  live.connect();
  document.body.dataset.ready = "yes";
}

main();
