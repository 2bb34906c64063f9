// A player's door card, opened from its QR code (/n/<night>/door/<card>, docs/room.md).
// On a phone that holds the night's host (or a co-host's) token it checks the player in
// at once, through the same mark as a tap on the name in the door list, and says so in big
// letters with how many are here, and the way back to the door list; a second scan says
// since when the player is here. On any other phone it checks in nobody: it says whose
// card it is, where that player sits, and opens the player's page where this phone has it.

import { api, commandId, loadToken, pathParts } from "./api.js";
import { $, applyLargeText, fill, h } from "./ui.js";

const time = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const { night, arg: card } = pathParts();
const base = `/api/nights/${encodeURIComponent(night)}`;
const pages = `/n/${encodeURIComponent(night)}`;
const where = (r) => (r.table ? `Table ${r.table}, seat ${r.seat}` : "");

function problem(err) {
  $("door-status").textContent = "";
  $("door-error").textContent = err.code === "too_late"
    ? "Round 1 is under way: the door list is closed. A late arrival joins between rounds from the host page."
    : err.code === "no_such_card"
      ? "This card names nobody seated tonight (a player who left the seating, or another night's card). Check the name in the door list."
      : err.text || String(err);
  $("door-error").hidden = false;
}

/** The scan on a host's phone: one command id, sent again while the connection fails. */
async function checkIn(token) {
  const body = { command_id: commandId() };
  for (let delay = 500; ; delay *= 2) {
    try {
      return await api(`${base}/door/${encodeURIComponent(card)}`, { method: "POST", token, body });
    } catch (err) {
      if (!(err.status === 0 || err.status >= 500) || delay > 8000) throw err;
      await sleep(delay);
    }
  }
}

function shownToHost(done) {
  document.title = `${done.player} — door check-in`;
  $("door-title").textContent = "Door check-in";
  $("door-status").textContent = "";
  fill("door-more",
    h("p", { class: done.already ? "bigmove already" : "bigmove", id: "door-done", role: "status" },
      done.already ? `${done.player} was already checked in at ${time(done.at)}` : `✓ ${done.player} is checked in`,
      h("span", { class: "sub" }, where(done) ? `${where(done)} in round 1` : "")),
    h("p", { id: "door-count", class: "big-count" }, `${done.here} of ${done.players} here`),
    h("p", { class: "muted" }, "Scan the next card with the camera app."),
    h("a", { class: "btn wide", id: "door-back", href: `${pages}/host#checkin-card` }, "Back to the door list"));
}

async function shownToOthers(note) {
  let mine;
  try {
    mine = await api(`${base}/door/${encodeURIComponent(card)}`);
  } catch (err) {
    problem(err);
    return;
  }
  document.title = `${mine.player}'s door card`;
  $("door-title").textContent = `${mine.player}'s door card`;
  $("door-status").textContent = mine.open
    ? "Show this card to the host at the door: the host's phone checks you in."
    : "Round 1 is under way: the door check-in is over.";
  const follows = loadToken(night, "player") || loadToken(night, "viewer");
  fill("door-more",
    note ? h("p", { class: "notice" }, note) : "",
    h("p", { class: "big-count", id: "door-where" },
      where(mine) ? `${mine.open ? "Round 1" : "This round"}: ${where(mine).toLowerCase()}` : ""),
    h("p", { class: "muted" }, mine.name),
    follows
      ? h("a", { class: "btn wide", href: `${pages}/player` }, "Open my page: seat, partner, score card")
      : h("p", { class: "small muted" }, "Your own page (seat, partner, score card) opens from the players' QR code on your table."),
    h("p", { class: "small muted", id: "door-host-hint" }, "Host or co-host? This browser does not hold your host link: open that link in this browser once (the camera app opens links here), then scan again."));
}

async function main() {
  applyLargeText();
  const token = loadToken(night, "host");
  if (!token) return shownToOthers("");
  try {
    shownToHost(await checkIn(token));
  } catch (err) {
    if (err.status === 401 || err.status === 403) {  // a host link taken back: a guest's view
      return shownToOthers("This phone no longer holds the host's link: it checks in nobody.");
    }
    problem(err);
    fill("door-more", h("a", { class: "btn wide secondary", href: `${pages}/host#checkin-card` }, "Back to the door list"));
  }
}

main();
