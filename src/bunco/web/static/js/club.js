// A club's page: create a club, plan its nights (host in turn, time, address), see who is
// coming, start its nights from the answers (or the roster with substitutes swapped in),
// record dues, hosts and seasons, send members their links, share the season, choose the
// standings rules, and follow the season standings and the ledger.
// The club's token lives in localStorage under "bunco:club:<id>".

import { api, rememberNight, saveToken, store, recall, takeUrlToken } from "./api.js";
import { $, fill, h, toast } from "./ui.js";

const parts = location.pathname.split("/").filter(Boolean);
const clubId = parts[0] === "c" ? decodeURIComponent(parts[1] || "") : "";
let token = null;
let club = null;
let shownPlan = null;

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
      ` (${n.season}, ${n.phase === "over" ? "played" : "under way"}) `,
      h("button", { type: "button", class: "link share-night", onclick: async () => {
        const made = await call("/shares", { night: n.night });
        if (made) fill("share-link", `Read-only link to ${n.date || n.night}: `, h("a", { href: made.url, class: "night-share" }, made.url));
      } }, "share"));
  }));
  for (const id of ["pay-player", "host-name"]) {
    const current = $(id).value;
    fill(id, members.map((m) => h("option", { value: m, selected: m === current }, m)));
  }
  fill("hosts", club.hosts.map((x) => h("li", {}, `${x.month}: ${x.host}`)));
  const hostNow = $("plan-host").value;
  fill("plan-host", h("option", { value: "" }, "host: whose turn it is"),
    members.map((m) => h("option", { value: m, selected: m === hostNow }, `host: ${m}`)));
  fill("rsvp-name", members.map((m) => h("option", { value: m }, m)));
  fill("plans", club.plans.map((p) => h("li", { dataset: { date: p.date } },
    h("button", { type: "button", class: "link", onclick: () => showComing(p.date) },
      `${p.date}${p.time ? " " + p.time : ""}`),
    ` · host ${p.host || "to be settled"}${p.address ? " · " + p.address : ""} · `,
    p.night ? "played" : `${p.coming} coming of ${p.seats} seats, ${p.not_answered} not answered${p.open_seats ? `, ${p.open_seats} open` : ""}`,
    " · ", h("a", { href: `${base()}/calendar/${p.date}.ics?token=${encodeURIComponent(token)}` }, "calendar file"))));
  if (shownPlan) await showComing(shownPlan);
  $("ladder-rule").textContent = `Ranked by ${club.ladder.text}.`;
  const links = await api(`${base()}/links`, { token });
  fill("links", links.members.map((m) => h("li", { dataset: { member: m.name } }, `${m.name} (${m.role}): `,
    m.url ? h("a", { href: m.url, class: "member-link" }, m.url) : "no link yet")));
  fill("calendar-link", links.calendar ? ["Calendar to subscribe to: ", h("a", { href: links.calendar, id: "calendar-feed" }, links.calendar)] : []);
  if (links.members.some((m) => !m.url) || !links.calendar) {
    await api(`${base()}/links`, { method: "POST", token });
    return refresh();
  }
  const standings = await api(`${base()}/standings`, { token });
  fill("standings", table("season-standings", ["Player", "#", "Nights", "Score", "W", "L", "Buncos", "Minis", "Points", "Prizes", "Won"],
    standings.standings.map((r) => [r.player, r.rank ?? "–", r.nights, r.score, r.wins, r.losses, r.buncos, r.mini_buncos, r.points, r.prizes, `${c}${r.won}`])));
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

async function showComing(date) {
  shownPlan = date;
  const v = await api(`${base()}/plans/${date}`, { token });
  $("coming").hidden = false;
  $("coming").dataset.date = date;
  $("coming-title").textContent = `Who is coming on ${date}`;
  $("coming-count").textContent = `${v.coming.length} said yes · ${v.roster.length} holding seats of ${v.seats} · ${v.tables} table${v.tables === 1 ? "" : "s"} needed${v.open_seats ? ` · ${v.open_seats} open seat${v.open_seats === 1 ? "" : "s"}` : ""}`;
  const line = (id, label, list) => h("li", { id }, `${label}: ${list.length ? list.join(", ") : "none"}`);
  fill("coming-lists",
    line("coming-yes", "Coming", v.coming), line("coming-maybe", "Maybe", v.maybe),
    line("coming-none", "Not answered", v.not_answered), line("coming-no", "Not coming", v.not_coming),
    line("coming-subs", "Subs in", v.subs_in.map((s) => s.for ? `${s.sub} (for ${s.for})` : s.sub)),
    line("coming-waiting", "Waiting for a seat", v.waiting), line("coming-offered", "Seat offered to", v.offered_to),
    line("coming-roster", "Roster", v.roster));
  $("night-date").value = date;
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
    const body = { name: $("member-name").value.trim(), role: $("member-role").value };
    if ($("member-email").value.trim()) body.email = $("member-email").value.trim();
    if ($("member-address").value.trim()) body.address = $("member-address").value.trim();
    if (await call("/members", body)) {
      for (const id of ["member-name", "member-email", "member-address"]) $(id).value = "";
      await refresh();
    }
  });
  $("host-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (await call("/hosts", { month: $("host-month").value, host: $("host-name").value })) await refresh();
  });
  $("plan-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { date: $("plan-date").value };
    if ($("plan-time").value) body.time = $("plan-time").value.slice(0, 5);
    if ($("plan-host").value) body.host = $("plan-host").value;
    if ($("plan-address").value.trim()) body.address = $("plan-address").value.trim();
    if (await call("/plans", body)) { $("plan-address").value = ""; await showComing(body.date); await refresh(); }
  });
  $("rsvp-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const date = $("coming").dataset.date;
    if (await call("/rsvps", { date, name: $("rsvp-name").value, answer: $("rsvp-answer").value })) await refresh();
  });
  $("remind").addEventListener("click", async () => {
    const sent = await call("/reminders", { date: $("coming").dataset.date });
    if (sent) toast(`Reminded: ${sent.sent.join(", ") || "nobody"}${sent.no_email.length ? ` · no email: ${sent.no_email.join(", ")}` : ""}`, "info", 8000);
  });
  $("mail-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (await call("/mail", { host: $("mail-host").value.trim(), port: Number($("mail-port").value), sender: $("mail-sender").value.trim() })) toast("Reminders go through that server.");
  });
  $("ladder-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { measure: $("ladder-measure").value, average: $("ladder-average").checked, min_nights: Number($("ladder-min").value || 0) };
    if (Number($("ladder-best").value) > 0) body.best = Number($("ladder-best").value);
    const places = $("ladder-places").value.split(",").map((x) => x.trim()).filter(Boolean);
    if (places.length) body.place_points = places.map(Number);
    if (await call("/ladder", body)) await refresh();
  });
  $("share-season").addEventListener("click", async () => {
    const made = await call("/shares", { season: club.season });
    if (made) fill("share-link", "Read-only link to the season: ", h("a", { href: made.url, id: "season-share" }, made.url));
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
