// A member's own page, opened from their personal link (/c/<club>/me?token=…): each night
// to come with when, where and who hosts, their answer (yes, no, maybe), whether they hold
// a seat, wait for one or are offered one (subs), and for the nights they host, who is
// coming. The link's token lives in localStorage under "bunco:club:<id>:me".

import { api, recall, store, takeUrlToken } from "./api.js";
import { $, fill, h, toast } from "./ui.js";

const parts = location.pathname.split("/").filter(Boolean);
const clubId = decodeURIComponent(parts[1] || "");
const base = `/api/clubs/${encodeURIComponent(clubId)}`;
let token = null;

const SEAT = {
  seat: "You have a seat.", waiting: "You are in line for a seat.", offered: "A seat is open: say yes to take it.",
};

function nightItem(n) {
  const when = `${n.date}${n.time ? " at " + n.time : ""}`;
  const buttons = ["yes", "no", "maybe"].map((answer) => h("button", {
    type: "button", class: `btn ${n.answer === answer ? "" : "secondary"}`, "aria-pressed": String(n.answer === answer),
    dataset: { answer }, onclick: () => answerFor(n.date, answer),
  }, answer === "yes" ? "Yes, I'm coming" : answer === "no" ? "No, I can't" : "Maybe"));
  const seat = n.seat ? SEAT[n.seat] + (n.seat === "waiting" ? ` (number ${n.in_line} in line)` : "") : "";
  const hosting = n.attendance ? h("div", { class: "hosting" },
    h("h3", {}, "You host this night: who is coming"),
    h("p", { class: "coming-count" }, `${n.attendance.coming.length} said yes · ${n.attendance.roster.length} holding seats of ${n.attendance.seats} · ${n.attendance.tables} tables`),
    h("p", { class: "small" }, `Coming: ${n.attendance.coming.join(", ") || "nobody yet"}. Not answered: ${n.attendance.not_answered.join(", ") || "nobody"}.`)) : null;
  return h("li", { class: "card", dataset: { date: n.date } },
    h("h3", {}, when),
    h("p", {}, `Host: ${n.host || "to be settled"}${n.address ? " · " + n.address : ""}`),
    h("p", { class: "small muted" }, `${n.coming} coming of ${n.seats} seats`),
    h("p", { class: "answer" }, n.answer ? `Your answer: ${n.answer}.` : "You have not answered yet."),
    seat ? h("p", { class: "seat" }, seat) : null,
    h("div", { class: "row" }, buttons),
    h("a", { class: "small", href: `${base}/calendar/${n.date}.ics?token=${encodeURIComponent(token)}` }, "Calendar file for this night"),
    hosting);
}

async function answerFor(date, answer) {
  try {
    render(await api(`${base}/me/rsvp`, { method: "POST", token, body: { date, answer } }));
    toast(`Answer for ${date}: ${answer}.`);
  } catch (err) {
    toast(err.text || err.message, "error", 8000);
  }
}

function render(me) {
  document.title = `${me.club} — ${me.member}`;
  $("member-title").textContent = `${me.club}: ${me.member}`;
  $("member-sub").textContent = me.role === "substitute"
    ? `You are a substitute${me.sub_fee !== "0.00" ? ` (a seat costs ${me.currency}${me.sub_fee})` : ""}: when a seat opens you are offered it here; the first to say yes takes it.`
    : "Say for each night whether you are coming. If you can't, your seat goes to a substitute.";
  fill("my-nights", me.nights.length ? me.nights.map(nightItem) : h("li", {}, "No nights planned yet."));
  $("calendar").href = `${me.calendar}?token=${encodeURIComponent(token)}`;
  document.body.dataset.ready = "yes";
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
