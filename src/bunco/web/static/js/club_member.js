// A member's own page, opened from their personal link (/c/<club>/me?token=…): each night
// to come with when, where and who hosts, their answer (yes, no, maybe), where they stand
// (a seat, in line and at which number, offered one, or seats full), for the nights they
// host who is coming (and which sub takes whose seat), and the phone's notifications.
// The link's token lives in localStorage under "bunco:club:<id>:me"; the calendar links
// carry the member's calendar token (it reads the nights, nothing else). An answer carries
// an Idempotency-Key made for the tap (api.js write()): sent again, it is applied once.

import { api, recall, store, takeUrlToken, write } from "./api.js";
import { registerOffline } from "./pwa.js";
import { $, fill, h, toast } from "./ui.js";

const parts = location.pathname.split("/").filter(Boolean);
const clubId = decodeURIComponent(parts[1] || "");
const base = `/api/clubs/${encodeURIComponent(clubId)}`;
let token = null;

function seatWords(n) {
  if (n.seat === "seat") return "You have a seat.";
  if (n.seat === "waiting") return `Seats are full: you are number ${n.in_line} in line. The next seat that opens is offered in that order.`;
  if (n.seat === "offered") return "A seat is open: say yes to take it.";
  if (n.seat === "full") return `Seats are full right now. Say yes to wait in line: you would be number ${n.in_line}.`;
  return "";
}

function nightItem(n, files) {
  const when = `${n.date}${n.time ? " at " + n.time : ""}`;
  const buttons = ["yes", "no", "maybe"].map((answer) => h("button", {
    type: "button", class: `btn ${n.answer === answer ? "" : "secondary"}`, "aria-pressed": String(n.answer === answer),
    dataset: { answer }, onclick: () => answerFor(n.date, answer),
  }, answer === "yes" ? "Yes, I'm coming" : answer === "no" ? "No, I can't" : "Maybe"));
  const seat = seatWords(n);
  const a = n.attendance;
  const hosting = a ? h("div", { class: "hosting" },
    h("h3", {}, "You host this night: who is coming"),
    h("p", { class: "coming-count" }, `${a.coming.length} said yes · ${a.roster.length} holding seats of ${a.seats} · ${a.tables} tables`),
    h("p", { class: "small" }, `Coming: ${a.coming.join(", ") || "nobody yet"}. Not answered: ${a.not_answered.join(", ") || "nobody"}.`),
    a.subs_in.length ? h("p", { class: "small subs-in" }, `Subs: ${a.subs_in.map((s) => (s.for ? `${s.sub} in ${s.for}'s seat` : `${s.sub} in an extra seat`)).join(", ")}.`) : null,
    a.waiting.length ? h("p", { class: "small" }, `In line: ${a.waiting.map((w, i) => `${i + 1}. ${w}`).join(", ")}.`) : null) : null;
  return h("li", { class: "card", dataset: { date: n.date } },
    h("h3", {}, when),
    h("p", {}, `Host: ${n.host || "to be settled"}${n.address ? " · " + n.address : ""}`),
    h("p", { class: "small muted" }, `${n.coming} coming of ${n.seats} seats`
      + (n.deadline ? (n.deadline_passed ? " · answers closed: seats without a yes went to the subs" : ` · please answer by ${n.deadline.replace("T", " at ")}`) : "")),
    h("p", { class: "answer" }, n.answer ? `Your answer: ${n.answer}.` : "You have not answered yet."),
    seat ? h("p", { class: "seat" }, seat) : null,
    h("div", { class: "row" }, buttons),
    files[n.date] ? h("a", { class: "small calendar-file", href: files[n.date] }, "Calendar file for this night") : null,
    hosting);
}

async function answerFor(date, answer) {
  try {
    render(await write(`${base}/me/rsvp`, { token, body: { date, answer } }));
    toast(`Answer for ${date}: ${answer}.`);
  } catch (err) {
    toast(err.text || err.message, "error", 8000);
  }
}

let files = {};
function render(me) {
  if (me.calendar_files) files = me.calendar_files;
  document.title = `${me.club} — ${me.member}`;
  $("member-title").textContent = `${me.club}: ${me.member}`;
  $("member-sub").textContent = me.role === "substitute"
    ? `You are a substitute${me.sub_fee !== "0.00" ? ` (a seat costs ${me.currency}${me.sub_fee})` : ""}: when a seat opens you are offered it here; the first to say yes takes it.`
    : "Say for each night whether you are coming. If you can't, your seat goes to a substitute.";
  fill("my-nights", me.nights.length ? me.nights.map((n) => nightItem(n, files)) : h("li", {}, "No nights planned yet."));
  if (me.calendar) $("calendar").href = me.calendar;
  if (typeof me.phones === "number" && me.phones > 0 && !$("tell-note").textContent) $("tell-note").textContent = "Your phone is told.";
  document.body.dataset.ready = "yes";
}

const b64 = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4)), (c) => c.charCodeAt(0));

/** Ask the phone's permission, subscribe through the service worker, hand it over. */
async function tellMe() {
  const note = $("tell-note");
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.isSecureContext) {
    note.textContent = "This phone's browser cannot be told from this address (it needs the club's https address).";
    return;
  }
  if (await Notification.requestPermission() !== "granted") {
    note.textContent = "Not allowed: the phone's settings can allow it later.";
    return;
  }
  try {
    await registerOffline();
    const worker = await navigator.serviceWorker.ready;
    const { public_key: key } = await api(`${base}/me/push`, { token });
    const sub = await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64(key) });
    const json = sub.toJSON();
    await write(`${base}/me/push`, { token, body: { endpoint: json.endpoint, keys: json.keys } });
    note.textContent = "Done: this phone is told.";
  } catch (err) {
    note.textContent = `This phone could not be set up: ${err.text || err.message}`;
  }
}

async function main() {
  const fromUrl = takeUrlToken();
  if (fromUrl) store(`club:${clubId}:me`, fromUrl);
  token = recall(`club:${clubId}:me`);
  if (!token) {
    $("fatal").textContent = "Open your personal link (the one the organizer sent you) to answer.";
    $("fatal").hidden = false;
    return;
  }
  $("tell-me").addEventListener("click", tellMe);
  try {
    render(await api(`${base}/me`, { token }));
  } catch (err) {
    $("fatal").textContent = err.text || err.message;
    $("fatal").hidden = false;
    return;
  }
  $("content").hidden = false;
}

main();
