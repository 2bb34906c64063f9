// The door check-in on the host's page (docs/room.md), before round 1: a tap on a name
// marks the player here (a second tap takes it back); a find box for a big night; and for
// each player not here yet, their seat can go to a substitute, or they come off the
// seating ("Not coming": a ghost's seat or a smaller table, as the rules say), while
// nothing is scored. The card goes once round 1's first roll is in.
// Scanning: each player's badge (the "Door badges" PDF) and their own page carry their
// door card's QR code; the host's phone camera app opens it (door.js checks them in). Where
// the browser reads QR codes itself (BarcodeDetector: Chrome on Android), "Scan" opens the
// camera here and checks each card in without leaving the list.

import { api, commandId } from "./api.js";
import { authFile } from "./files.js";
import { fill, h, toast } from "./ui.js";

const CAN_SCAN = typeof window.BarcodeDetector === "function";

/** How many names the list shows before "Show all" (about one phone screen). */
export const CHECKIN_SHOWN = 8;

/** The card, after ``anchor``; ``onChange()`` after each new count. Returns ``{ refresh,
 * onMessage }``. */
export function initCheckin({ anchor, base, token, onChange = () => {} }) {
  const card = h("section", { class: "card no-print", id: "checkin-card", "aria-labelledby": "checkin-title", hidden: true },
    h("h2", { id: "checkin-title" }, "Door check-in"),
    h("p", { class: "small muted" }, "Tap each name as the player arrives. For someone who does not come, tap “No-show…”: a substitute takes their seat, or the rules seat the room without them."),
    h("p", { id: "checkin-count", role: "status" }),
    h("div", { class: "row" },
      h("a", { class: "btn secondary small", id: "checkin-badges",
        ...authFile(`${base}/download/badges.pdf`, token, "door-badges.pdf") }, "Door badges (PDF)"),
      CAN_SCAN ? h("button", { type: "button", class: "btn small", id: "checkin-scan", onclick: () => scanner.toggle() }, "Scan") : ""),
    h("p", { class: "small muted", id: "checkin-scan-help" }, CAN_SCAN
      ? "Or scan a door badge's QR code (or the one on a player's phone) with Scan or the camera."
      : "Or point this phone's camera at a door badge's QR code (or the one on a player's phone) and open the link."),
    h("div", { class: "door-scan", id: "checkin-scanner", hidden: true }),
    h("div", { class: "row" },
      h("label", { for: "checkin-find", class: "grow" }, "Find a name",
        h("input", { type: "search", id: "checkin-find", autocomplete: "off" })),
      h("label", { class: "switch" }, h("input", { type: "checkbox", role: "switch", id: "checkin-missing" }), h("span", {}, "Only those not here yet"))),
    h("ul", { class: "checkin-list", id: "checkin-list" }),
    h("button", { type: "button", class: "btn secondary", id: "checkin-all", hidden: true,
      onclick: () => { showAll = !showAll; draw(latest); } }));
  anchor.after(card);
  const scanner = cardScanner({ box: card.querySelector("#checkin-scanner"), base, token, onDone: () => refresh() });
  let latest = null;
  let armed = null;  // the player whose "Not coming" was tapped once
  let subbing = null;  // the player whose substitute is being typed
  let showAll = false;  // "Show all N" tapped
  let opened = null;  // the player whose no-show choices are open

  const send = async (path, body, done) => {
    try {
      const reply = await api(`${base}${path}`, { method: "POST", token, body: { command_id: commandId(), ...body } });
      if (done) toast(done);
      return reply;
    } catch (err) {
      toast(err.text || String(err), "error", 6000);
      return null;
    }
  };
  const mark = async (p) => {
    const reply = await send("/checkin", { player: p.player, here: !p.here });
    if (reply) draw(reply);
  };
  const ghost = async (p) => {
    if (armed !== p.player) {
      armed = p.player;
      draw(latest);
      return;
    }
    armed = null;
    if (await send("/departures", { player: p.player },
      `${p.player} is off the seating: a ghost's seat or a smaller table, as the rules say.`)) refresh();
  };
  const substitute = async (p, name) => {
    if (!name.trim()) {
      toast("Type the substitute's name.", "error");
      return;
    }
    subbing = null;
    if (await send("/substitutes", { out: p.player, in: name.trim() }, `${name.trim()} takes ${p.player}'s seat.`)) refresh();
  };
  const row = (p) => {
    const where = p.table ? `table ${p.table}, seat ${p.seat}` : "";
    const actions = p.here ? [] : opened !== p.player ? [h("button", { type: "button", class: "btn secondary small",
      dataset: { noshow: p.player }, "aria-label": `No-show… ${p.player}`,
      onclick: () => { opened = p.player; draw(latest); } }, "No-show…")] : [
      h("button", { type: "button", class: "btn secondary small", dataset: { ghost: p.player }, onclick: () => ghost(p) },
        armed === p.player ? `Sure? ${p.player} is not coming` : "Not coming"),
      subbing === p.player
        ? h("form", { class: "row", onsubmit: (ev) => { ev.preventDefault(); substitute(p, ev.target.elements.sub.value); } },
          h("label", { class: "sr-only", for: `sub-${p.table}-${p.seat}` }, `Substitute for ${p.player}`),
          h("input", { type: "text", name: "sub", id: `sub-${p.table}-${p.seat}`, placeholder: "Substitute's name", maxlength: "60" }),
          h("button", { type: "submit", class: "btn small" }, "Seat"))
        : h("button", { type: "button", class: "btn secondary small", dataset: { substitute: p.player },
          onclick: () => { subbing = p.player; draw(latest); } }, "Substitute"),
    ];
    return h("li", { dataset: { player: p.player, here: String(p.here) } },
      h("button", { type: "button", class: "btn here-toggle", "aria-pressed": String(p.here), onclick: () => mark(p) },
        p.here ? "✓ " : "", p.player),
      h("span", { class: "small" }, ` ${where}${p.here ? " · here" : ""}`), actions);
  };
  function draw(data) {
    latest = data;
    card.hidden = !data.open;
    if (!data.open) {
      scanner.stop();
      return;
    }
    fill("checkin-count", `${data.here} of ${data.players.length} checked in`);
    const find = document.getElementById("checkin-find").value.trim().toLowerCase();
    const onlyMissing = document.getElementById("checkin-missing").checked;
    const listed = data.players.filter((p) => (!find || p.player.toLowerCase().includes(find)) && (!onlyMissing || !p.here));
    // a big room's list is a few names at a time: find a name, or "Show all"
    const cut = !showAll && listed.length > CHECKIN_SHOWN;
    fill("checkin-list", (cut ? listed.slice(0, CHECKIN_SHOWN) : listed).map(row));
    const more = document.getElementById("checkin-all");
    more.hidden = listed.length <= CHECKIN_SHOWN;
    more.textContent = cut ? `Show all ${listed.length}` : "Show fewer";
    onChange();
  }
  async function refresh() {
    try {
      draw(await api(`${base}/checkin`, { token }));
    } catch { /* offline: the next change tries again */ }
  }
  document.getElementById("checkin-find").addEventListener("input", () => latest && draw(latest));
  document.getElementById("checkin-missing").addEventListener("change", () => latest && draw(latest));
  refresh();
  let soon = null;
  return {
    refresh,
    // the seating changed (a departure, a substitute), round 1 began, or a player checked
    // in from their own phone: read the list again
    onMessage: (m) => {
      if (latest && latest.open && (m.type === "event" || m.type === "checkin")) {
        clearTimeout(soon);
        soon = setTimeout(refresh, 300);
      }
    },
  };
}

/** The in-page scanner (BarcodeDetector only): the camera in ``box`` reads QR codes; a
 * door card of this night is checked in (POST .../door/<card>), anything else is said so. */
function cardScanner({ box, base, token, onDone }) {
  let on = false;
  let stream = null;
  let timer = null;
  let busy = false;
  const seen = new Map();  // a card read in the last seconds is not sent again
  const pattern = new RegExp(`/n/${base.split("/").pop()}/door/([a-z2-7]{16})$`);
  const say = (text, kind) => toast(text, kind, kind === "error" ? 6000 : 3500);
  async function found(text) {
    const match = pattern.exec(text);
    if (!match) {
      if (!seen.has(text)) say("That QR code is not a door card of this night.", "error");
      seen.set(text, Date.now());
      return;
    }
    const cardId = match[1];
    if (Date.now() - (seen.get(cardId) || 0) < 4000) return;
    seen.set(cardId, Date.now());
    try {
      const done = await api(`${base}/door/${cardId}`, { method: "POST", token, body: { command_id: commandId() } });
      const when = new Date(done.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      say(done.already ? `${done.player} was already checked in at ${when}.`
        : `${done.player} is checked in — ${done.here} of ${done.players} here.`);
      onDone();
    } catch (err) {
      say(err.text || String(err), "error");
    }
  }
  async function start() {
    on = true;
    const video = h("video", { playsinline: "", muted: "", "aria-label": "Camera: hold a badge's QR code in view" });
    video.muted = true;  // a muted video may play without a tap
    fill(box, video, h("button", { type: "button", class: "btn secondary small", onclick: stop }, "Stop scanning"));
    box.hidden = false;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
    } catch (err) {
      say(`The camera could not start (${err.name || err}): use the camera app instead.`, "error");
      stop();
      return;
    }
    if (!on) {  // stopped while the camera started
      stream.getTracks().forEach((t) => t.stop());
      stream = null;
      return;
    }
    video.srcObject = stream;
    await video.play().catch(() => {});
    const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
    timer = setInterval(async () => {
      if (busy || video.readyState < 2) return;
      busy = true;
      try {
        for (const code of await detector.detect(video)) await found(code.rawValue);
      } catch { /* a frame it could not read: the next one */ }
      busy = false;
    }, 300);
  }
  function stop() {
    on = false;
    clearInterval(timer);
    timer = null;
    if (stream) stream.getTracks().forEach((t) => t.stop());
    stream = null;
    box.hidden = true;
    fill(box);
  }
  return { toggle: () => (on ? stop() : start()), stop };
}
