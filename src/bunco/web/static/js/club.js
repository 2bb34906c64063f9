// A club's page: create a club, start its nights from the roster (substitutes swapped in),
// record dues, hosts and seasons, and follow the season standings and the ledger.
// The club's token lives in localStorage under "bunco:club:<id>".

import { api, rememberNight, saveToken, store, recall, takeUrlToken } from "./api.js";
import { $, fill, h, toast } from "./ui.js";

const parts = location.pathname.split("/").filter(Boolean);
const clubId = parts[0] === "c" ? decodeURIComponent(parts[1] || "") : "";
let token = null;
let club = null;

const lines = (text) => text.split("\n").map((x) => x.replace(/\s+/g, " ").trim()).filter(Boolean);
const base = () => `/api/clubs/${encodeURIComponent(clubId)}`;

function payoutsOf(text) {
  return lines(text).map((line) => {
    const [prize, value = ""] = line.split("=").map((x) => x.trim());
    return value.endsWith("%") ? { prize, share: value } : { prize, amount: value };
  });
}

async function createClub(ev) {
  ev.preventDefault();
  const body = {
    name: $("club-name").value.trim(), dues: $("club-dues").value.trim() || "0",
    currency: $("club-currency").value.trim() || "$", rules: $("club-rules").value,
    regulars: lines($("club-regulars").value), substitutes: lines($("club-subs").value),
    payouts: payoutsOf($("club-payouts").value),
  };
  const season = $("club-season").value.trim();
  if (season) body.season = season;
  try {
    const made = await api("/api/clubs", { method: "POST", body });
    store(`club:${made.club}`, made.token);
    location.assign(`/c/${encodeURIComponent(made.club)}`);
  } catch (err) {
    toast(err.text || err.message, "error", 8000);
  }
}

async function call(path, body) {
  try {
    return await api(`${base()}${path}`, { method: "POST", token, body });
  } catch (err) {
    toast(err.text || err.message, "error", 8000);
    return null;
  }
}

function table(id, heads, rows) {
  return h("table", { class: "grid", id },
    h("thead", {}, h("tr", {}, heads.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, rows.map((r) => h("tr", { dataset: { player: r[0] } }, r.map((c) => h("td", {}, String(c)))))));
}

async function refresh() {
  club = await api(base(), { token });
  const c = club.setup.currency;
  document.title = `${club.name} — club`;
  $("club-title").textContent = club.name;
  $("club-sub").textContent = `${club.season} · ${club.setup.rules} · dues ${c}${club.setup.dues} a night · in the pot ${c}${club.pot}`;
  const members = [...club.regulars, ...club.substitutes];
  $("members").textContent = `Regulars: ${club.regulars.join(", ") || "none"}. Substitutes: ${club.substitutes.join(", ") || "none"}.`;
  fill("swaps", club.regulars.map((p) => h("div", { class: "row" },
    h("label", { for: `swap-${p}` }, p),
    h("select", { id: `swap-${p}`, dataset: { regular: p } },
      h("option", { value: "" }, "plays"),
      club.substitutes.map((s) => h("option", { value: s }, `replaced by ${s}`))))));
  fill("nights", club.nights.map((n) => {
    const created = recall(`${n.night}:created`);
    const href = created ? `/n/${encodeURIComponent(n.night)}/host` : `/n/${encodeURIComponent(n.night)}/end`;
    return h("li", { dataset: { night: n.night } }, h("a", { href }, n.name || n.date || n.night),
      ` (${n.season}, ${n.phase === "over" ? "played" : "under way"})`);
  }));
  for (const id of ["pay-player", "host-name"]) {
    const current = $(id).value;
    fill(id, members.map((m) => h("option", { value: m, selected: m === current }, m)));
  }
  fill("hosts", club.hosts.map((x) => h("li", {}, `${x.month}: ${x.host}`)));
  const standings = await api(`${base()}/standings`, { token });
  fill("standings", table("season-standings", ["Player", "#", "Nights", "W", "L", "Buncos", "Minis", "Points", "Prizes", "Won"],
    standings.standings.map((r) => [r.player, r.rank, r.nights, r.wins, r.losses, r.buncos, r.mini_buncos, r.points, r.prizes, `${c}${r.won}`])));
  const ledger = await api(`${base()}/ledger`, { token });
  fill("ledger", table("dues-ledger", ["Member", "Nights", "Owed", "Paid", "Balance", "Won"],
    ledger.members.map((m) => [m.player, m.nights, `${c}${m.owed}`, `${c}${m.paid}`, `${c}${m.balance}`, `${c}${m.won}`])));
  const t = ledger.totals;
  $("ledger-totals").textContent = `Owed ${c}${t.dues_owed} · paid ${c}${t.dues_paid} · outstanding ${c}${t.outstanding} · paid out ${c}${t.paid_out} · in the pot ${c}${t.pot}`;
  const q = `?token=${encodeURIComponent(token)}`;
  fill("downloads", [["standings.csv", "Season standings (CSV)"], ["season.html", "Season report (web page)"], ["season.pdf", "Season report (PDF)"]]
    .map(([file, text]) => h("li", {}, h("a", { href: `${base()}/download/${file}${q}`, download: `${club.name}-${file}` }, text))));
  document.body.dataset.ready = "yes";
}

async function startNight(ev) {
  ev.preventDefault();
  const substitutes = {};
  for (const sel of document.querySelectorAll("#swaps select")) if (sel.value) substitutes[sel.dataset.regular] = sel.value;
  const body = { substitutes };
  if ($("night-date").value) body.date = $("night-date").value;
  const created = await call("/nights", body);
  if (!created) return;
  store(`${created.night}:created`, created);
  saveToken(created.night, "host", created.host_token);
  saveToken(created.night, "viewer", created.viewer_token);
  rememberNight(created.night, created.name, "host", `/n/${created.night}/host`);
  toast(`${created.name}: the night is set up.`);
  await refresh();
}

async function main() {
  if (!clubId) {
    $("create-card").hidden = false;
    $("create-form").addEventListener("submit", createClub);
    return;
  }
  const fromUrl = takeUrlToken();
  if (fromUrl) store(`club:${clubId}`, fromUrl);
  token = recall(`club:${clubId}`);
  if (!token) {
    $("fatal").textContent = "This browser does not hold the club's link: open the link with its token (?token=…).";
    $("fatal").hidden = false;
    return;
  }
  $("night-form").addEventListener("submit", startNight);
  $("pay-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (await call("/payments", { player: $("pay-player").value, amount: $("pay-amount").value.trim() })) {
      $("pay-amount").value = "";
      await refresh();
    }
  });
  $("member-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (await call("/members", { name: $("member-name").value.trim(), role: $("member-role").value })) {
      $("member-name").value = "";
      await refresh();
    }
  });
  $("host-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (await call("/hosts", { month: $("host-month").value, host: $("host-name").value })) await refresh();
  });
  $("season-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (await call("/seasons", { name: $("season-name").value.trim() })) await refresh();
  });
  try {
    await refresh();
  } catch (err) {
    $("fatal").textContent = err.text || err.message;
    $("fatal").hidden = false;
    return;
  }
  $("content").hidden = false;
}

main();
