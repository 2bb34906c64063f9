// Home: start a night (the host's set-up), join a table by code, this phone's nights.

import { api, commandId, keyLink, recall, rememberNight, saveToken, store } from "./api.js";
import { $, copyText, fill, h, topbar } from "./ui.js";
import { addMoney, renderPayouts } from "./money.js";

// Rules shown as switches up front; the others go under "More rules".
const SWITCHES = ["wipeout", "quick_game", "bunco_ends_round", "bunco_continues",
  "low_trips_continues", "high_trips_continues", "single_table_teams", "no_repeat_partners",
  "verify_for_prizes", "prize_groups"];
const HIDDEN = new Set(["prizes", "prize_ties", "traveling", "breaks_after_rounds", "mini_label",
  "must_be_present"]);  // the money's "must be present" switch, set to the preset's
const CHOICE_WORDS = {
  finish_turn: "finish the turn", stop: "stop at once", left: "left (clockwise)",
  right: "right", scorekeeper: "the scorekeeper", roll_for_high: "roll for high",
  left_of_last_winner: "left of the last winner", head_table: "the head table ends it",
  every_table: "every table plays to its target", sessions: "roll-off sessions",
  roll_off_to_five: "roll-off to 5", sudden_death: "sudden death", most_wins: "most W's",
  none: "no single winner", up_down: "winners up, losers down",
  head_losers_to_last: "head losers to the last table", losers_rotate: "losers move on",
  individuals: "tables of individuals", ghosts: "ghosts", mini_bunco: "Mini Bunco",
  low_bunco: "Low Bunco", high_bunco: "High Bunco", roll_off: "roll-off", shared: "shared",
  off: "off", bunco: "any Bunco", any_trips: "any three of a kind",
};
const word = (v) => CHOICE_WORDS[v] || v;

let data = null;

function preset() {
  const checked = document.querySelector('input[name="preset"]:checked');
  return data.presets.find((p) => p.name === (checked ? checked.value : "classic"));
}

/** Parse a pasted list: lines or commas; returns [names, error]. */
export function parsePlayers(text) {
  const names = text.split(/[\n,;]+/).map((s) => s.replace(/\s+/g, " ").trim()).filter(Boolean);
  const seen = new Set();
  for (const n of names) {
    const key = n.toLocaleLowerCase();
    if (seen.has(key)) return [names, `${n} is listed twice — every name once, please`];
    if (n.length > 60) return [names, `"${n.slice(0, 20)}…" is longer than 60 characters`];
    seen.add(key);
  }
  return [names, null];
}

/** Parse the prize groups ("Red: Ann, Bea" a line) against the players: [groups, error]. */
export function parseGroups(text, players) {
  const known = new Map(players.map((p) => [p.toLocaleLowerCase(), p]));
  const groups = {};
  const placed = new Map();
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon).replace(/\s+/g, " ").trim() : "";
    if (!name) return [null, `Prize groups: “${line}” needs a group name and a colon first, e.g. Red: Ann, Bea`];
    if (name in groups) return [null, `Prize groups: the group ${name} is listed twice`];
    const members = [];
    for (const part of line.slice(colon + 1).split(/[,;]+/)) {
      const typed = part.replace(/\s+/g, " ").trim();
      if (!typed) continue;
      const player = known.get(typed.toLocaleLowerCase());
      if (!player) return [null, `Prize groups: ${typed} (group ${name}) is not one of the players`];
      if (placed.has(player)) return [null, `Prize groups: ${player} is in ${placed.get(player)} and ${name}; each player in one group`];
      placed.set(player, name);
      members.push(player);
    }
    if (!members.length) return [null, `Prize groups: the group ${name} has no players`];
    groups[name] = members;
  }
  return [groups, null];
}

/** Prize groups are asked for when the prize_groups rule is on. */
function showGroups() {
  const rule = document.querySelector('[data-rule="prize_groups"]');
  $("groups-box").hidden = !(rule && rule.checked);
}

/** How many bots the host asked for: [count, error]. */
function botCount() {
  const raw = $("bot-count").value.trim();
  if (!raw) return [0, null];
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 100) return [0, "Bots to fill seats: a whole number from 0 to 100"];
  return [n, null];
}

/** ``count`` bot names ("Bot 1", "Bot 2"…) that no player already has. */
export function botNames(players, count) {
  const taken = new Set(players.map((p) => p.toLocaleLowerCase()));
  const out = [];
  for (let i = 1; out.length < count; i += 1) {
    const name = `Bot ${i}`;
    if (!taken.has(name.toLocaleLowerCase())) out.push(name);
  }
  return out;
}

/** The presets by their names for people ("Classic party"), each with how it plays;
 * the ids ("classic") are what the night is made with. */
function renderPresets() {
  fill("presets", data.presets.map((p) => h("label", { class: "preset", dataset: { preset: p.name } },
    h("input", { type: "radio", name: "preset", value: p.name, checked: p.name === "classic",
      "aria-describedby": `sum-${p.name}` }),
    h("strong", {}, p.title),
    h("span", { class: "summary", id: `sum-${p.name}` }, p.plays))));
  for (const input of document.querySelectorAll('input[name="preset"]')) {
    input.addEventListener("change", () => {
      renderRules();
      // a night of prize groups is set up in step 3: open it
      if (preset().rules.prize_groups) $("step-prizes").open = true;
    });
  }
}

function renderRules() {
  const rules = preset().rules;
  const fields = data.fields;
  fill("switches", SWITCHES.map((name) => {
    const f = fields.find((x) => x.name === name);
    return h("label", { class: "switch" },
      h("input", { type: "checkbox", role: "switch", dataset: { rule: name, kind: "bool" },
        checked: Boolean(rules[name]), "aria-label": f.doc }),
      h("span", {}, f.doc));
  }));
  const more = fields.filter((f) => !SWITCHES.includes(f.name) && !HIDDEN.has(f.name));
  fill("more", more.map((f) => {
    const id = `rule-${f.name}`;
    let control;
    if (f.kind === "choice") {
      control = h("select", { id, dataset: { rule: f.name, kind: "choice" } },
        f.choices.map((c) => h("option", { value: c, selected: rules[f.name] === c }, word(c))));
    } else if (f.kind === "int") {
      control = h("input", { id, type: "number", min: 0, max: 999, value: rules[f.name],
        inputmode: "numeric", dataset: { rule: f.name, kind: "int" } });
    } else if (f.kind === "bool") {
      return h("label", { class: "switch" }, h("input", { type: "checkbox", role: "switch",
        dataset: { rule: f.name, kind: "bool" }, checked: Boolean(rules[f.name]) }), h("span", {}, f.doc));
    } else {
      return null;
    }
    return h("div", {}, h("label", { for: id }, f.doc), control);
  }));
  const trav = $("traveling");
  const choices = [...data.traveling, "123"];
  fill(trav, choices.map((c) => h("option", { value: c, selected: rules.traveling === c },
    c === "123" ? "a roll of 1-2-3" : word(c))));
  fill("prizes", data.prizes.map((p) => h("label", {},
    h("input", { type: "checkbox", value: p.name, dataset: { prize: p.name },
      checked: rules.prizes.includes(p.name) }), (preset().prize_labels || {})[p.name] || p.label)));
  $("prize-ties").value = rules.prize_ties;
  const breaks = (rules.breaks_after_rounds || []).join(",");
  $("breaks").value = breaks.replace(/,/g, ", ");
  $("breaks").dataset.preset = breaks;
  $("must-be-present").checked = Boolean(rules.must_be_present);
  $("must-be-present").dataset.preset = String(Boolean(rules.must_be_present));
  showGroups();
  refreshPayouts();
}

/** The payout rows follow the prizes ticked, the judged prizes and the prize groups. */
function refreshPayouts() {
  if (!data) return;
  const ticked = data.prizes.filter((p) => {
    const box = document.querySelector(`[data-prize="${p.name}"]`);
    return box && box.checked;
  }).map((p) => ({ ...p, label: (preset().prize_labels || {})[p.name] || p.label }));  // the preset's names
  const grouped = !$("groups-box").hidden && $("groups").value.trim() !== "";
  renderPayouts(ticked, grouped, { tables: data.money || {}, labels: prizeLabels() });
}

/** Each prize category's name under the chosen rules ("Most Baby Buncos"). */
function prizeLabels() {
  const own = preset().prize_labels || {};
  return Object.fromEntries(data.prizes.map((p) => [p.name, own[p.name] || p.label]));
}

/** The house rules: every control whose value differs from the preset's. */
function houseRules() {
  const rules = preset().rules;
  const out = {};
  for (const el of document.querySelectorAll("[data-rule]")) {
    const name = el.dataset.rule;
    let value;
    if (el.dataset.kind === "bool") value = el.checked;
    else if (el.dataset.kind === "int") value = Number.parseInt(el.value, 10);
    else value = el.value;
    if (Number.isNaN(value)) continue;
    if (value !== rules[name]) out[name] = value;
  }
  const trav = $("traveling").value;
  if (trav !== rules.traveling) out.traveling = trav;
  return out;
}

/** Say what is wrong under the form; ``step`` (an id), the step to open where it is. */
function showError(message, step = null) {
  const box = $("setup-error");
  box.textContent = message;
  box.hidden = !message;
  if (step && $(step).tagName === "DETAILS") $(step).open = true;
  if (message) box.scrollIntoView({ block: "center" });
}

async function start(ev) {
  ev.preventDefault();
  showError("");
  const [people, problem] = parsePlayers($("players").value);
  if (problem) return showError(problem);
  const [count, badCount] = botCount();
  if (badCount) return showError(badCount, "bots-more");
  const bots = botNames(people, count);
  const players = [...people, ...bots];
  if (players.length < 2) return showError("A night needs at least two players: paste their names, one per line.");
  const prizes = [...document.querySelectorAll("[data-prize]")].filter((c) => c.checked).map((c) => c.value);
  const body = {
    name: $("night-name").value.trim() || "Bunco night",
    rules: preset().name,
    players,
    sets: Number($("sets").value),
    house_rules: houseRules(),
    prizes,
    prize_ties: $("prize-ties").value,
    dice: $("dice-mode").value,
  };
  if (prizes.includes("traveling") && (body.house_rules.traveling || preset().rules.traveling) === "off") {
    $("more-rules").open = true;
    return showError("The Traveling prize needs a trigger: choose one under “Traveling prize trigger” (step 2, “Change a rule”).");
  }
  if (bots.length) body.bots = bots;
  if (!$("groups-box").hidden) {
    const [groups, badGroups] = parseGroups($("groups").value, players);
    if (badGroups) return showError(badGroups, "step-prizes");
    if (Object.keys(groups).length) body.groups = groups;
  }
  const badMoney = addMoney(body);
  if (badMoney) return showError(badMoney, "step-prizes");
  if ($("shuffle").checked) body.seed = Math.floor(Math.random() * 2 ** 31);
  // the same id and body again get the same night and tokens if a reply was lost
  body.command_id = commandId();
  const button = $("start");
  button.disabled = true;
  button.textContent = "Starting…";
  try {
    const created = await createOnce(body);
    store(`${created.night}:created`, created);
    saveToken(created.night, "host", created.host_token);
    saveToken(created.night, "viewer", created.viewer_token);
    rememberNight(created.night, created.name, "host", `/n/${created.night}/host`);
    showSaveStep(created);
  } catch (err) {
    showError(err.text || String(err));
    button.disabled = false;
    button.textContent = "Start the night";
  }
}

/** POST the night; when the connection or the server fails, the same request again. */
async function createOnce(body) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      // another device than the server's computer: the secret of the link bunco serve printed
      const token = new URLSearchParams(location.search).get("secret");
      return await api("/api/nights", { method: "POST", body, token });
    } catch (err) {
      const retry = err.status === 0 || err.status >= 500;
      if (!retry || attempt >= 4) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
    }
  }
}

/** After creation: the host link, to save before anything else (it is shown only now). */
function showSaveStep(created) {
  const link = keyLink(created.links.host);
  $("setup").hidden = true;
  for (const id of ["start-title", "intro", "join-card", "mine-box"]) if ($(id)) $(id).hidden = true;
  $("saved-link").textContent = link;
  $("saved-qr").src = `/api/qr.svg?text=${encodeURIComponent(link)}`;
  $("saved").hidden = false;
  $("saved").scrollIntoView({ block: "start" });
  $("copy-host").onclick = () => copyText(link, $("copy-note"));
  $("open-host").onclick = () => location.assign(`/n/${encodeURIComponent(created.night)}/host`);
  document.body.dataset.ready = "saved";
}

function countPlayers() {
  const [players, problem] = parsePlayers($("players").value);
  const [bots] = botCount();
  const n = players.length + bots;
  const tables = Math.ceil(n / 4);
  $("player-count").textContent = problem ? `— ${problem}`
    : n ? `— ${n} player${n === 1 ? "" : "s"}${bots ? ` (${bots} bot${bots === 1 ? "" : "s"})` : ""}, about ${tables} table${tables === 1 ? "" : "s"}` : "";
}

function renderMine() {
  const list = recall("nights") || [];
  $("mine-box").hidden = list.length === 0;
  const words = { host: "host", viewer: "viewer", player: "player" };
  fill("mine", list.map((n) => h("li", {}, h("a", { href: n.href }, n.name || n.night),
    " ", h("span", { class: "muted small" }, `(${words[n.role] || n.role.replace(":", " ")})`))));
}

async function main() {
  topbar("bunco");
  $("conn").hidden = true;
  renderMine();
  $("players").addEventListener("input", countPlayers);
  $("bot-count").addEventListener("input", countPlayers);
  $("join-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const code = $("join-code").value.replace(/[\s-]/g, "");
    if (code) location.assign(`/join/${encodeURIComponent(code)}`);
  });
  $("setup").addEventListener("submit", start);
  $("switches").addEventListener("change", () => { showGroups(); refreshPayouts(); });
  for (const id of ["prizes", "money-mode"]) $(id).addEventListener("change", refreshPayouts);
  for (const id of ["judged", "groups", "currency"]) $(id).addEventListener("input", refreshPayouts);
  try {
    data = await api("/pages/presets.json");
  } catch (err) {
    showError(`Cannot load the presets: ${err.text || err}`);
    return;
  }
  renderPresets();
  renderRules();
  document.body.dataset.ready = "yes";
}

main();
