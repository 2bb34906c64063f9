// Small helpers every page shares: building DOM safely, toasts, the top bar, large text,
// keeping the screen awake, the bell (Web Audio, no sound files), vibration and dice.

/** An element: h("p", {class: "x", onclick: f}, "text", child, ...). Text is never HTML. */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith("svg:");
  const el = svg
    ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace the children of ``el`` (or of the element with that id). */
export function fill(el, ...children) {
  const node = typeof el === "string" ? document.getElementById(el) : el;
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c)))));
  return node;
}

export const $ = (id) => document.getElementById(id);

/** Run ``fn`` once, in a task after the next frame is painted: what a page's first
 * drawing does without then keeps that frame waiting for nothing. A tab that paints no
 * frame (hidden) runs it at once, and any tab within a second. */
export function afterPaint(fn) {
  let done = false;
  const run = () => { if (!done) { done = true; fn(); } };
  if (document.visibilityState === "hidden") {
    setTimeout(run, 0);
    return;
  }
  requestAnimationFrame(() => setTimeout(run, 0));
  setTimeout(run, 1000);
}

/** A short message at the bottom of the screen, read out by screen readers. */
export function toast(message, kind = "info", ms = 3500) {
  let box = $("toasts");
  if (!box) {
    box = h("div", { id: "toasts", "aria-live": "polite", role: "status" });
    document.body.append(box);
  }
  const item = h("div", { class: `toast ${kind}` }, message);
  box.append(item);
  setTimeout(() => item.remove(), ms);
}

// -- large text ---------------------------------------------------------------------------------
const LARGE = "bunco:large-text";

export function applyLargeText() {
  let on = false;
  try { on = localStorage.getItem(LARGE) === "1"; } catch { /* ignore */ }
  document.documentElement.classList.toggle("large-text", on);
  return on;
}

function toggleLargeText(button) {
  const on = !document.documentElement.classList.contains("large-text");
  document.documentElement.classList.toggle("large-text", on);
  try { localStorage.setItem(LARGE, on ? "1" : "0"); } catch { /* ignore */ }
  button.setAttribute("aria-pressed", String(on));
}

/**
 * The top bar: a title, the connection state, the large-text switch. Returns its parts.
 * Also puts the offline banner under it.
 */
export function topbar(title, { links = [] } = {}) {
  const large = applyLargeText();
  const conn = h("span", { class: "conn", id: "conn", "data-state": "connecting", role: "status" },
    "connecting");
  // named by what it shows ("A+"), then what it does, so speech input finds it by its face
  const textButton = h("button", {
    type: "button", id: "large-text", "aria-pressed": String(large), title: "Large text",
  }, "A+", h("span", { class: "sr-only" }, " large text"));
  textButton.addEventListener("click", () => toggleLargeText(textButton));
  const titleEl = h("span", { class: "title", id: "bar-title" }, title);
  const bar = h("header", { class: "topbar" }, titleEl, ...links, conn, textButton);
  const offline = h("p", { class: "banner offline", id: "offline", role: "alert", hidden: true },
    "Offline — reconnecting… Entries wait and are sent when the connection is back.");
  document.body.prepend(h("div", { class: "sticky-top" }, bar, offline));
  return { bar, conn, titleEl, offline };
}

/** Show the connection state in the top bar and the offline banner. */
export function showConnection(state) {
  const conn = $("conn");
  const banner = $("offline");
  const text = { online: "live", offline: "offline", connecting: "connecting" }[state] || state;
  if (conn) {
    conn.dataset.state = state;
    conn.textContent = text;
  }
  if (banner) banner.hidden = state !== "offline";
  document.body.dataset.connection = state;
}

// -- keep the screen awake -------------------------------------------------------------------
// The Wake Lock API needs a secure context (https or localhost); phones reach a laptop at
// a party over plain http://192.168.…, where it is missing. There the page plays a muted,
// invisible video drawn from a canvas (captureStream: no media file, nothing fetched):
// phones keep the screen on while a video plays. ``awakeMode()`` says which is in effect.
let wakeLock = null;
let wantAwake = false;
let fallback = null;

async function requestWake() {
  if (!wantAwake || document.visibilityState !== "visible") return;
  if ("wakeLock" in navigator && window.isSecureContext) {
    if (wakeLock && !wakeLock.released) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      setAwake("wake-lock");
      wakeLock.addEventListener("release", () => { if (!fallback) setAwake("no"); });
      return;
    } catch { /* refused (battery saver…): try the video */ }
  }
  startVideo();
}

function setAwake(mode) {
  document.body.dataset.awake = mode === "no" ? "no" : "yes";
  document.body.dataset.awakeMode = mode;
  document.dispatchEvent(new CustomEvent("bunco:awake", { detail: mode }));
}

/** The muted looping video that keeps a phone's screen on without Wake Lock. */
function startVideo() {
  if (fallback && !fallback.paused) return;
  if (fallback) {
    fallback.play().then(() => setAwake("video")).catch(() => {});
    return;
  }
  const canvas = document.createElement("canvas");
  canvas.width = 2;
  canvas.height = 2;
  if (typeof canvas.captureStream !== "function") {
    setAwake("no");
    return;
  }
  const paint = canvas.getContext("2d");
  let shade = 0;
  const tick = () => {  // a new frame now and then keeps the stream (and the video) alive
    shade = (shade + 1) % 2;
    paint.fillStyle = shade ? "#010101" : "#000000";
    paint.fillRect(0, 0, 2, 2);
  };
  tick();
  setInterval(tick, 5000);
  const video = document.createElement("video");
  video.muted = true;
  video.playsInline = true;
  video.loop = true;
  video.setAttribute("aria-hidden", "true");
  video.className = "keep-awake";
  video.srcObject = canvas.captureStream(1);
  document.body.append(video);
  fallback = video;
  video.play().then(() => setAwake("video")).catch(() => setAwake("no"));
}

/** How the screen is kept on now: "wake-lock", "video" (plain http), "no" or "off". */
export function awakeMode() {
  return document.body.dataset.awakeMode || "off";
}

/** Keep the screen on while ``on`` (Wake Lock API, or a muted video over plain http). */
export function keepAwake(on = true) {
  wantAwake = on;
  if (on) {
    requestWake();
  } else {
    if (wakeLock) {
      wakeLock.release().catch(() => {});
      wakeLock = null;
    }
    if (fallback) fallback.pause();
    setAwake("off");
  }
}
document.addEventListener("visibilitychange", () => { if (wantAwake) requestWake(); });
// a video may only start after a tap on some phones: try again at the first one
document.addEventListener("pointerdown", () => { if (wantAwake && awakeMode() !== "wake-lock") requestWake(); },
  { capture: true });

// -- sound and vibration -------------------------------------------------------------------------
let audio = null;

function audioContext() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** Browsers start sound only after a tap: call this from the first tap on the page. */
export function unlockSound() {
  const ctx = audioContext();
  return Boolean(ctx && ctx.state !== "closed");
}
document.addEventListener("pointerdown", () => unlockSound(), { once: true, capture: true });

function strike(ctx, at, base, length, volume) {
  // a bell: a few inharmonic partials, each decaying on its own
  const partials = [[1, 1], [2.0, 0.6], [2.76, 0.45], [5.4, 0.25], [8.93, 0.12]];
  const out = ctx.createGain();
  out.gain.value = volume;
  out.connect(ctx.destination);
  for (const [ratio, level] of partials) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = base * ratio;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(level, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length / Math.sqrt(ratio));
    osc.connect(gain).connect(out);
    osc.start(at);
    osc.stop(at + length);
  }
}

/** The bell: three strikes. Returns whether sound could play. */
export function ringBell() {
  const ctx = audioContext();
  document.body.dataset.rang = String(Number(document.body.dataset.rang || 0) + 1);
  if (!ctx || ctx.state !== "running") return false;
  const now = ctx.currentTime + 0.02;
  for (let i = 0; i < 3; i += 1) strike(ctx, now + i * 0.45, 880, 1.6, 0.35);
  return true;
}

/** A short two-note chime (your turn, your move). */
export function chime() {
  const ctx = audioContext();
  if (!ctx || ctx.state !== "running") return false;
  const now = ctx.currentTime + 0.02;
  strike(ctx, now, 660, 0.7, 0.25);
  strike(ctx, now + 0.18, 990, 0.9, 0.25);
  return true;
}

/** Vibrate where the phone allows it. */
export function buzz(pattern = [200, 100, 200]) {
  if (typeof navigator.vibrate === "function") {
    try { navigator.vibrate(pattern); } catch { /* not allowed */ }
  }
}

// -- dice ------------------------------------------------------------------------------------------
const PIPS = {
  1: [[50, 50]], 2: [[27, 27], [73, 73]], 3: [[27, 27], [50, 50], [73, 73]],
  4: [[27, 27], [73, 27], [27, 73], [73, 73]],
  5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[27, 25], [73, 25], [27, 50], [73, 50], [27, 75], [73, 75]],
};

/** One die as SVG; ``hit`` marks a die that shows the round's number. A ``decorative``
 * die (the face on a button named in words) is hidden from screen readers. */
export function die(face, hit = false, { decorative = false } = {}) {
  const svg = h("svg:svg", { viewBox: "0 0 100 100", class: hit ? "die hit" : "die",
    ...(decorative ? { "aria-hidden": "true", focusable: "false" }
      : { role: "img", "aria-label": `die showing ${face}` }) });
  svg.append(h("svg:rect", { x: 4, y: 4, width: 92, height: 92, rx: 18 }));
  for (const [cx, cy] of PIPS[face] || []) svg.append(h("svg:circle", { cx, cy, r: 9 }));
  return svg;
}

/** Show three dice in ``box``; with ``animate`` they tumble first (about 0.7 s). */
export async function showDice(box, dice, target = null, animate = false) {
  if (animate && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
    box.classList.add("rolling");
    box.setAttribute("aria-busy", "true");
    for (let i = 0; i < 6; i += 1) {
      fill(box, [1, 2, 3].map(() => die(1 + Math.floor(Math.random() * 6))));
      await new Promise((r) => setTimeout(r, 110));
    }
    box.classList.remove("rolling");
    box.removeAttribute("aria-busy");
  }
  fill(box, dice.map((f) => die(f, target !== null && f === target)));
  // a box of dice is a group, named by the faces (a div without a role may carry no name)
  if (!box.getAttribute("role")) box.setAttribute("role", "group");
  box.setAttribute("aria-label", `dice: ${dice.join(", ")}`);
}

// -- words ---------------------------------------------------------------------------------------
/** What a roll scored, in the server's words for the night (``view.words``): "BUNCO! +21",
 * "Baby Bunco +5", "Miss", "+2". */
export function kindLabel(kind, points, words) {
  if (kind === "points") return `+${points}`;
  const word = (words && words.kinds && words.kinds[kind]) || kind;
  return kind === "miss" || kind === "wipeout" ? word : `${word} +${points}`;
}

export function names(list) {
  const real = list.filter(Boolean);
  if (real.length <= 1) return real.join("");
  return `${real.slice(0, -1).join(", ")} & ${real[real.length - 1]}`;
}

/** "Table 1 (head)" when several tables play, else "Table n". */
export function ordinalTable(n, tables = 2) { return n === 1 && tables > 1 ? "Table 1 (head)" : `Table ${n}`; }

/** "Set 2 · Round 3" (the set only when the night has more than one). */
export function roundLabel(view) {
  const set = view.sets > 1 ? `Set ${view.set} · ` : "";
  return `${set}Round ${view.round}`;
}

/** Dice tumbling in ``box`` for about ``ms`` (while the server draws the real ones). */
export async function tumble(box, ms = 700) {
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  box.classList.add("rolling");
  box.setAttribute("aria-busy", "true");
  const end = Date.now() + ms;
  while (Date.now() < end) {
    fill(box, [1, 2, 3].map(() => die(1 + Math.floor(Math.random() * 6))));
    await new Promise((r) => setTimeout(r, 90));
  }
  box.classList.remove("rolling");
  box.removeAttribute("aria-busy");
}

/** Copy ``text`` to the clipboard (or select it where the page may not), saying so in ``note``. */
export async function copyText(text, note = null) {
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      ok = true;
    }
  } catch { ok = false; }
  if (!ok) {  // plain http on the Wi-Fi: the old way, through a selected text field
    const area = h("textarea", { "aria-hidden": "true" });
    area.value = text;
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    area.remove();
  }
  const said = ok ? "Copied." : "Copy did not work here: press on the link to select it.";
  if (note) note.textContent = said;
  else toast(said);
  return ok;
}
