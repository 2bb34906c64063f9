// A club's page: create a club (then save its link and recovery code), plan its nights
// (host in turn, time, address, an "answer by" time), see who is coming, move or cancel a
// night, start a night from the answers (then save its host link), take back a night
// never played, record dues (the pot collected and owed apart), follow the standings (the
// nights each score counted and left out), send members their links (one sheet, one
// message), share the season, and open the club on another phone.
// The club's token lives in localStorage under "bunco:club:<id>"; no link this page shows
// carries it (files are fetched with it and saved; calendar links carry the calendar's).
// Every write carries an Idempotency-Key made for the tap (api.js write()): sent again after
// a dropped connection, or tapped again, it is applied once.

import { api, rememberNight, saveToken, store, recall, takeUrlToken, write } from "./api.js";
import { saveFile } from "./files.js";
import { $, copyText, fill, h, toast } from "./ui.js";

const parts = location.pathname.split("/").filter(Boolean);
const clubId = parts[0] === "c" ? decodeURIComponent(parts[1] || "") : "";
let token = null;
let club = null;
let shownPlan = null;
let calendarFiles = {};

const lines = (text) => text.split("\n").map((x) => x.replace(/\s+/g, " ").trim()).filter(Boolean);
const base = () => `/api/clubs/${encodeURIComponent(clubId)}`;
const qrOf = (text) => `/api/qr.svg?text=${encodeURIComponent(text)}`;
const clubLink = () => `${location.origin}/c/${encodeURIComponent(clubId)}?token=${encodeURIComponent(token)}`;

function payoutsOf(text) {
  return lines(text).map((line) => {
    const [prize, value = ""] = line.split("=").map((x) => x.trim());
    return value.endsWith("%") ? { prize, share: value } : { prize, amount: value };
  });
}

function zone() {
  try { return Intl.DateTimeFormat().resolvedOptions().timeZone || null; } catch { return null; }
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
  if (zone()) body.timezone = zone();
  try {
    const made = await write("/api/clubs", { body });
    store(`club:${made.club}`, made.token);
    showSaved(made);
  } catch (err) {
    toast(err.text || err.message, "error", 8000);
  }
}

/** After creation: the club's link and recovery code, to save before anything else. */
function showSaved(made) {
  $("create-card").hidden = true;
  const link = `${location.origin}/c/${encodeURIComponent(made.club)}?token=${encodeURIComponent(made.token)}`;
  $("saved-link").textContent = link;
  $("saved-code").textContent = made.recovery_code;
  $("saved-qr").src = qrOf(link);
  $("saved").hidden = false;
  $("copy-club").onclick = () => copyText(`${made.name}\nClub link: ${link}\nRecovery code: ${made.recovery_code}`, $("copy-note"));
  $("open-club").onclick = () => location.assign(`/c/${encodeURIComponent(made.club)}`);
  document.body.dataset.ready = "saved";
}

/** After a night is started from the club: its host link, to save (as any night's). */
function showHostLink(created) {
  const link = created.links.host;
  $("content").hidden = true;
  $("night-saved-link").textContent = link;
  $("night-saved-qr").src = qrOf(link);
  $("night-saved").hidden = false;
  window.scrollTo(0, 0);
  $("copy-host").onclick = () => copyText(link, $("host-copy-note"));
  $("open-host").onclick = () => location.assign(`/n/${encodeURIComponent(created.night)}/host`);
  $("back-to-club").onclick = () => { $("night-saved").hidden = true; $("content").hidden = false; };
  document.body.dataset.ready = "night-saved";
}

async function call(path, body) {
  try {
    return await write(`${base()}${path}`, { token, body });
  } catch (err) {
    toast(err.text || err.message, "error", 8000);
    return null;
  }
}

/** A file of the club fetched with the club's token and saved (no token in any link). */
async function download(path, name, open = false) {
  try {
    await saveFile(`${base()}${path}`, token, name, open);
  } catch (err) {
    toast(err.message, "error", 6000);
  }
}

function table(id, heads, rows, key = 0) {
  return h("table", { class: "grid", id },
    h("thead", {}, h("tr", {}, heads.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, rows.map((r) => h("tr", { dataset: { player: r[key] } }, r.map((c) => h("td", {}, String(c)))))));
}

const money = (c, amount) => (String(amount).startsWith("-") ? `-${c}${String(amount).slice(1)}` : `${c}${amount}`);

function potWords(t, c) {
  if (Number(t.pot_collected) < 0) {
    return `In the pot ${c}${t.pot}: ${c}${t.pot_owed} of it is dues not yet collected, ${c}${String(t.pot_collected).slice(1)} of which already paid out.`;
  }
  if (Number(t.pot_owed) === 0) return `In the pot ${c}${t.pot}, all of it collected.`;
  return `In the pot ${c}${t.pot}: ${c}${t.pot_collected} collected, ${c}${t.pot_owed} of dues not yet collected.`;
}

function planItem(p) {
  const when = `${p.date}${p.time ? " at " + p.time : ""}`;
  const night = p.night && club.nights.find((n) => n.night === p.night);
  const state = p.cancelled ? "cancelled"
    : night ? (night.played ? "played" : "started, not played yet")
      : `${p.coming} coming of ${p.seats} seats, ${p.not_answered} not answered${p.open_seats ? `, ${p.open_seats} open` : ""}`
        + (p.deadline ? (p.deadline_passed ? " · answers closed" : ` · answer by ${p.deadline.replace("T", " ")}`) : "");
  return h("li", { dataset: { date: p.date, cancelled: String(Boolean(p.cancelled)) } },
    h("button", { type: "button", class: "btn secondary plan-open", onclick: () => showComing(p.date) }, when),
    ` · host ${p.host || "to be settled"}${p.address ? " · " + p.address : ""} · ${state}`,
    calendarFiles[p.date] ? [" · ", h("a", { href: calendarFiles[p.date], class: "calendar-file" }, "calendar file")] : null);
}

function nightItem(n) {
  const created = recall(`${n.night}:created`);
  const href = created ? `/n/${encodeURIComponent(n.night)}/host` : `/n/${encodeURIComponent(n.night)}/end`;
  const label = n.name || n.date || n.night;
  if (!n.played) {
    return h("li", { dataset: { night: n.night, played: "no" } },
      h("a", { href }, label), " · not played yet: no dues, no pot ",
      h("button", { type: "button", class: "btn danger take-back", onclick: async () => {
        if (!confirm(`Take back ${label}? It has no roll: it leaves the club (no dues, no pot), and its date is a night to come again.`)) return;
        if (await call(`/nights/${encodeURIComponent(n.night)}/cancel`)) { toast(`${label} is taken back.`); await refresh(); }
      } }, "Take back this night"));
  }
  return h("li", { dataset: { night: n.night, played: "yes" } }, h("a", { href }, label),
    ` (${n.season}, ${n.phase === "over" ? "played" : "under way"}) `,
    h("button", { type: "button", class: "btn secondary payout-sheet", onclick: () => download(`/download/payouts/${encodeURIComponent(n.night)}.pdf`, `${label} payouts.pdf`) }, "payout sheet"),
    " · ",
    h("button", { type: "button", class: "btn secondary share-night", onclick: async () => {
      const made = await call("/shares", { night: n.night });
      if (made) fill("share-link", `Read-only link to ${n.date || n.night}: `, h("a", { href: made.url, class: "night-share" }, made.url));
    } }, "share"));
}

/** The start form's selects: for a planned date, the seats its answers gave. */
async function drawSwaps() {
  const date = $("night-date").value;
  let instead = {};
  if (date && club.upcoming.includes(date)) {
    const v = await api(`${base()}/plans/${date}`, { token });
    instead = Object.fromEntries(v.subs_in.filter((s) => s.for).map((s) => [s.for, s.sub]));
    const out = club.regulars.filter((r) => !v.roster.includes(r) && !instead[r]);
    for (const r of out) instead[r] = "";
    $("swaps").dataset.from = "answers";
  } else {
    $("swaps").dataset.from = "roster";
  }
  fill("swaps", club.regulars.map((p) => h("div", { class: "row" },
    h("label", { for: `swap-${p}` }, p),
    h("select", { id: `swap-${p}`, dataset: { regular: p } },
      h("option", { value: "", selected: !instead[p] }, p in instead && !instead[p] ? "not coming" : "plays"),
      club.substitutes.map((s) => h("option", { value: s, selected: instead[p] === s }, `replaced by ${s}`))))));
}

async function refresh() {
  club = await api(base(), { token });
  const c = club.setup.currency;
  document.title = `${club.name} — club`;
  $("club-title").textContent = club.name;
  $("club-sub").textContent = `${club.season} · dues ${c}${club.setup.dues} a night · in the pot ${c}${club.pot}${club.timezone ? ` · times in ${club.timezone}` : ""}`;
  const members = [...club.regulars, ...club.substitutes];
  $("members").textContent = `Regulars: ${club.regulars.join(", ") || "none"}. Substitutes: ${club.substitutes.join(", ") || "none"}.`;
  const links = await api(`${base()}/links`, { token });
  if (links.members.some((m) => !m.url) || !links.calendar) {
    await write(`${base()}/links`, { token });
    return refresh();
  }
  calendarFiles = links.calendar_files || {};
  fill("nights", club.nights.map(nightItem));
  for (const id of ["pay-player", "host-name"]) {
    const current = $(id).value;
    fill(id, members.map((m) => h("option", { value: m, selected: m === current }, m)));
  }
  fill("hosts", club.hosts.map((x) => h("li", {}, `${x.month}: ${x.host}`)));
  const hostNow = $("plan-host").value;
  fill("plan-host", h("option", { value: "" }, "host: whose turn it is"),
    members.map((m) => h("option", { value: m, selected: m === hostNow }, `host: ${m}`)));
  fill("rsvp-name", members.map((m) => h("option", { value: m }, m)));
  fill("plans", club.plans.length ? club.plans.map(planItem) : h("li", {}, "No night planned yet: plan one below."));
  if (!club.plans.length) $("plan-form").closest("details").open = true;
  const told = club.notices.slice(-3).reverse().map((n) => `${n.names.join(", ")}: ${{ seat_open: "a seat is open", seat_yours: "you have a seat", answer_by: "answer by the deadline", cancelled: "the night is cancelled", moved: "the night moved" }[n.kind]}${n.date ? ` (${n.date})` : ""}`);
  $("notices").textContent = told.length ? `Told lately: ${told.join(" · ")}.` : "";
  if (shownPlan) await showComing(shownPlan);
  await drawSwaps();
  $("ladder-rule").textContent = `Ranked by ${club.ladder.text}.`;
  fill("links", links.members.map((m) => h("li", { dataset: { member: m.name } }, `${m.name} (${m.role}): `,
    h("a", { href: m.url, class: "member-link" }, m.url))));
  fill("calendar-link", ["Calendar to subscribe to (it only reads the nights): ", h("a", { href: links.calendar, id: "calendar-feed" }, links.calendar)]);
  const standings = await api(`${base()}/standings`, { token });
  fill("standings", table("season-standings", ["Player", "#", "Nights", "Score", "W", "L", "Buncos", "Minis", "Points", "Prizes", "Won"],
    standings.standings.map((r) => [r.player, r.rank ?? "–", r.counted === r.nights ? r.nights : `${r.counted} of ${r.nights}`,
      r.score, r.wins, r.losses, r.buncos, r.mini_buncos, r.points, r.prizes, `${c}${r.won}`])));
  const dropped = standings.standings.filter((r) => r.dropped.length);
  $("dropped").textContent = dropped.length
    ? `Nights left out of each score: ${dropped.map((r) => `${r.player} ${r.dropped.join(", ")}`).join("; ")}.` : "";
  const ledger = await api(`${base()}/ledger`, { token });
  fill("ledger", table("dues-ledger", ["Member", "Nights", "Owed", "Paid", "Balance", "Won"],
    ledger.members.map((m) => [m.player, m.nights, money(c, m.owed), money(c, m.paid), money(c, m.balance), money(c, m.won)])));
  fill("pots", ledger.nights.length ? table("night-pots", ["Night", "Pot", "Collected", "Not yet collected", "Paid out", "Left"],
    ledger.nights.map((n) => (n.played
      ? [n.date || n.night, money(c, n.pot ?? n.dues), money(c, n.pot_collected), money(c, n.pot_owed),
        `${money(c, n.paid_out ?? "0.00")}${Number(n.paid_from_owed) ? ` (${money(c, n.paid_from_owed)} of it from dues not yet collected)` : ""}`, money(c, n.left_in_pot ?? "0.00")]
      : [n.date || n.night, "not played: no dues, no pot", "", "", "", ""]))) : h("p", { class: "small muted" }, "No night played yet."));
  const t = ledger.totals;
  $("ledger-totals").textContent = `${potWords(t, c)} Dues owed ${c}${t.dues_owed}, paid ${c}${t.dues_paid}, outstanding ${money(c, t.outstanding)}; paid out ${c}${t.paid_out}.`;
  fill("downloads", [["standings.csv", "Season standings (CSV)", false], ["season.html", "Season report (web page)", true], ["season.pdf", "Season report (PDF)", false]]
    .map(([file, text, open]) => h("li", {}, h("button", { type: "button", class: "btn secondary download", dataset: { file },
      onclick: () => download(`/download/${file}`, `${club.name}-${file}`, open) }, text))));
  $("organizer-link").textContent = clubLink();
  $("organizer-qr").src = qrOf(clubLink());
  document.body.dataset.ready = "yes";
}

async function showComing(date) {
  shownPlan = date;
  const v = await api(`${base()}/plans/${date}`, { token });
  $("coming").hidden = false;
  $("coming").dataset.date = date;
  $("coming-title").textContent = `${v.cancelled ? "Cancelled: " : "Who is coming on "}${date}`;
  $("coming-count").textContent = `${v.coming.length} said yes · ${v.roster.length} holding seats of ${v.seats} · ${v.tables} table${v.tables === 1 ? "" : "s"} needed${v.open_seats ? ` · ${v.open_seats} open seat${v.open_seats === 1 ? "" : "s"}` : ""}`
    + (v.deadline ? (v.deadline_passed ? " · the answers' deadline has passed" : ` · answer by ${v.deadline.replace("T", " ")}`) : "");
  const line = (id, label, list) => h("li", { id }, `${label}: ${list.length ? list.join(", ") : "none"}`);
  fill("coming-lists",
    line("coming-yes", "Coming", v.coming), line("coming-maybe", "Maybe", v.maybe),
    line("coming-none", "Not answered", v.not_answered), line("coming-no", "Not coming", v.not_coming),
    line("coming-subs", "Subs in", v.subs_in.map((s) => s.for ? `${s.sub} (for ${s.for})` : s.sub)),
    line("coming-waiting", "Waiting for a seat", v.waiting.map((w, i) => `${w} (${i + 1})`)), line("coming-offered", "Seat offered to", v.offered_to),
    line("coming-roster", "Roster", v.roster));
  for (const id of ["rsvp-form", "move-form"]) $(id).hidden = Boolean(v.cancelled || v.night);
  if (!v.cancelled && !v.night && $("night-date").value !== date) {
    $("night-date").value = date;
    await drawSwaps();
  }
}

async function startNight(ev) {
  ev.preventDefault();
  const substitutes = {};
  const fromAnswers = $("swaps").dataset.from === "answers";
  for (const sel of document.querySelectorAll("#swaps select")) if (sel.value) substitutes[sel.dataset.regular] = sel.value;
  // from a planned date's answers the server seats who the answers gave; a change by hand wins
  const v = fromAnswers ? await api(`${base()}/plans/${$("night-date").value}`, { token }) : null;
  const same = v && Object.entries(substitutes).every(([r, s]) => v.subs_in.some((x) => x.for === r && x.sub === s))
    && v.subs_in.filter((x) => x.for).length === Object.keys(substitutes).length;
  const body = { substitutes: same ? {} : substitutes };
  if ($("night-date").value) body.date = $("night-date").value;
  const created = await call("/nights", body);
  if (!created) return;
  store(`${created.night}:created`, created);
  saveToken(created.night, "host", created.host_token);
  saveToken(created.night, "viewer", created.viewer_token);
  rememberNight(created.night, created.name, "host", `/n/${created.night}/host`);
  await refresh();
  showHostLink(created);
}

async function recover(ev) {
  ev.preventDefault();
  try {
    const got = await write(`${base()}/recover`, { body: { code: $("recover-code").value.trim() } });
    store(`club:${clubId}`, got.token);
    location.reload();
  } catch (err) {
    toast(err.text || err.message, "error", 8000);
  }
}

function wire() {
  $("night-form").addEventListener("submit", startNight);
  $("night-date").addEventListener("change", () => drawSwaps().catch(() => {}));
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
    if ($("plan-deadline").value) body.deadline = $("plan-deadline").value.slice(0, 16);
    if (await call("/plans", body)) { $("plan-address").value = ""; await showComing(body.date); await refresh(); }
  });
  $("rsvp-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const date = $("coming").dataset.date;
    if (await call("/rsvps", { date, name: $("rsvp-name").value, answer: $("rsvp-answer").value })) await refresh();
  });
  $("move-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const date = $("coming").dataset.date;
    const body = { to: $("move-to").value };
    if ($("move-time").value) body.time = $("move-time").value.slice(0, 5);
    if (await call(`/plans/${date}/move`, body)) { toast(`The night of ${date} moves to ${body.to}; members are told.`); shownPlan = body.to; await refresh(); }
  });
  $("cancel-plan").addEventListener("click", async () => {
    const date = $("coming").dataset.date;
    if (!confirm(`Cancel the night of ${date}? Members are told, and their calendars show it cancelled.`)) return;
    if (await call(`/plans/${date}/cancel`)) { toast(`The night of ${date} is cancelled; members are told.`); await refresh(); }
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
  $("links-sheet").addEventListener("click", () => download("/download/links.pdf", `${club.name} links.pdf`));
  $("links-copy").addEventListener("click", async () => {
    const got = await api(`${base()}/links/message`, { token });
    await copyText(got.text, $("links-note"));
  });
  $("organizer-copy").addEventListener("click", () => copyText(clubLink(), $("new-code-note")));
  $("new-code").addEventListener("click", async () => {
    if (!confirm("Make a new recovery code? The old one stops working.")) return;
    const made = await call("/recovery");
    if (made) $("new-code-note").textContent = `Your new recovery code (shown only now): ${made.code}`;
  });
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
    $("recover-card").hidden = false;
    $("recover-form").addEventListener("submit", recover);
    document.body.dataset.ready = "recover";
    return;
  }
  wire();
  try {
    await refresh();
  } catch (err) {
    $("fatal").textContent = err.status === 401
      ? "This browser's club link no longer works. Type the club's recovery code below, or open the club's link again."
      : err.text || err.message;
    $("fatal").hidden = false;
    if (err.status === 401) {
      store(`club:${clubId}`, null);
      $("recover-card").hidden = false;
      $("recover-form").addEventListener("submit", recover);
    }
    return;
  }
  $("content").hidden = false;
}

main();
