// The public HTTP API of `bunco serve`, as the pages use it: tokens, requests, commands.
//
// Tokens live in this browser's localStorage under "bunco:<night>:<role>" (role is host,
// viewer, player, table:<n>, or "created" for the creation reply with the join codes).
// A token that arrives in a link (?token=) is saved and removed from the address bar.

const PREFIX = "bunco:";

export function store(key, value) {
  try {
    if (value === undefined || value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch { /* private mode: tokens last for this page only */ }
}

export function recall(key) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

export function saveToken(night, role, token) { store(`${night}:${role}`, token); }
export function loadToken(night, role) { return recall(`${night}:${role}`); }

/** The ?token= (or ?key=, as the links shown to people say it) of the address, removed
 * from the address bar (it stays in localStorage). */
export function takeUrlToken() {
  const url = new URL(location.href);
  const token = url.searchParams.get("token") || url.searchParams.get("key");
  if (token) {
    url.searchParams.delete("token");
    url.searchParams.delete("key");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
  return token;
}

/** A night's link as a person reads it, saves and scans it: ``?key=`` where the server
 * wrote ``?token=`` (the page takes either). */
export function keyLink(link) {
  return link.replace(/([?&])token=/, "$1key=");
}

/** The night id and the part after it, for paths like /n/<id>/table/2. */
export function pathParts() {
  const parts = location.pathname.split("/").filter(Boolean);
  return { night: decodeURIComponent(parts[1] || ""), page: parts[2] || "", arg: parts[3] || "" };
}

/** A client command id: 128 random bits in hex (works on plain http too). */
export function commandId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class ApiError extends Error {
  constructor(status, body) {
    const message = (body && body.message) || `request failed (${status})`;
    super(message);
    this.status = status;
    this.body = body || {};
    this.code = this.body.error || (status === 0 ? "offline" : "error");
  }

  /** The server's message with what it expected, for a person to read. */
  get text() {
    const expected = this.body.expected ? ` — expected ${this.body.expected}` : "";
    return `${this.message}${expected}`;
  }
}

/** One request to the API: JSON in and out; throws ApiError (status 0 when offline).
 * ``key``: the write's Idempotency-Key (the same write sent again is applied once). */
export async function api(path, { method = "GET", token = null, body = undefined, key = null } = {}) {
  const headers = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (key) headers["idempotency-key"] = key;
  if (body !== undefined) headers["content-type"] = "application/json";
  let reply;
  try {
    reply = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, { error: "offline", message: "no connection to the server" });
  }
  return read(reply);
}

/** A reply's JSON; throws ApiError when it is not a success. */
async function read(reply) {
  return parsed({ ok: reply.ok, status: reply.status, text: await reply.text() });
}

/** A write's key: a UUID where the browser makes one (https), else 128 random bits. */
export function writeKey() {
  return typeof crypto.randomUUID === "function" ? crypto.randomUUID() : commandId();
}

const RESEND_AFTER = [500, 1500, 3000];
const unanswered = new Map();

/**
 * A person's action written to a club (POST): sent with an Idempotency-Key made for the
 * action, and sent again with that key when the connection drops before its reply comes
 * (RESEND_AFTER: after half a second, then 1.5 and 3 seconds), so the server applies it
 * once even when it had stored it and only its reply was lost. Still without a reply,
 * it throws (ApiError, status 0) and keeps its key: the same action tapped again (the
 * same request: method, path and body) is sent with the same key, not applied twice. A
 * reply, whatever it says, settles the action: the next tap is a new one. Keys live as
 * long as the page (a page opened again makes new ones).
 */
export async function write(path, { method = "POST", token = null, body = undefined } = {}) {
  const action = `${method} ${path} ${JSON.stringify(body ?? null)}`;
  const key = unanswered.get(action) || writeKey();
  unanswered.set(action, key);
  for (let tries = 0; ; tries += 1) {
    try {
      const reply = await api(path, { method, token, body, key });
      unanswered.delete(action);
      return reply;
    } catch (err) {
      if (err.status !== 0) unanswered.delete(action);
      if (err.status !== 0 || tries >= RESEND_AFTER.length) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, RESEND_AFTER[tries]));
  }
}

/** The JSON of a reply read whole (``{ok, status, text}``), or its ApiError. */
function parsed({ ok, status, text }) {
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { message: text.slice(0, 200) }; }
  }
  if (!ok) throw new ApiError(status, data);
  return data;
}

/**
 * The page's first state, asked for by the page's inline start (boot.js) while its script
 * loaded: a promise of its JSON (as api() gives it) if that request was for ``path`` with
 * ``token``, else null (the page asks itself). Given once. The inline start reads the
 * reply whole before it counts as arrived: a page whose state is here when its script
 * runs draws it in the same task, with no layout of the empty page between. A reopened
 * table's page may have it in its HTML already, written in by the service worker
 * (sw.js): taken when it was asked for the same address with the same token.
 */
export function firstReply(path, token) {
  const first = window.buncoFirst;
  if (!first || first.path !== path || first.token !== token) return null;
  window.buncoFirst = null;
  // read once, and out of the page with the token it names (taken or not: another one's)
  const here = document.getElementById("bunco-first");
  if (here) here.remove();
  if (writtenFor(here, path, token)) {
    return Promise.resolve({ ok: true, status: 200, text: here.textContent }).then(parsed);
  }
  const reply = first.reply || fromWorker(path, token);
  return reply.then((got) => (got ? parsed(got) : api(path, { token })));
}

/** A reply the page's inline start asked for early (boot.js: ``window[name]``, as
 * ``{token, reply}``), once, when it was asked with ``token``; else null. */
export function early(name, token) {
  const asked = window[name];
  window[name] = null;
  return asked && asked.token === token ? asked.reply : null;
}

/** A table's first state from the service worker, which asked for it as it handed out the
 * page (sw.js: /__first/<the state's address>, with this page's token), read whole as
 * boot.js reads its reply; null when there is no connection. */
function fromWorker(path, token) {
  const headers = { accept: "application/json", authorization: `Bearer ${token}` };
  const ask = (address, more = {}) => fetch(address, { headers: { ...headers, ...more }, cache: "no-store" });
  return ask(`/__first${path}`, { "x-bunco-page": location.pathname })
    // a worker of an earlier version does not know /__first/: the server's 404, asked again
    .then((reply) => (reply.status === 404 && reply.url && new URL(reply.url).pathname.startsWith("/__first/")
      ? ask(path) : reply))
    .then(async (reply) => ({ ok: reply.ok, status: reply.status, text: await reply.text() }))
    .catch(() => null);
}

/** Whether ``found`` (the element the service worker wrote the state in, or null) holds
 * the state of ``path`` asked for with ``token``. */
function writtenFor(found, path, token) {
  return Boolean(found) && found.dataset.path === path && found.dataset.token === token;
}

/** True while the page's first state is on its way: asked for by its inline start and
 * not read yet, or (a table's page under the service worker) not written into the page. */
export function firstPending() {
  const first = window.buncoFirst;
  return Boolean(first && !first.arrived
    && !writtenFor(document.getElementById("bunco-first"), first.path, first.token));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Commands of play, one at a time and in order. Each carries a command id made once, so
 * a retry after a dropped connection is applied once by the server. ``onPending(n)``
 * is told how many commands wait to be sent.
 */
export class Commands {
  constructor(token, { onPending = () => {}, onAck = () => {} } = {}) {
    this.token = token;
    this.onPending = onPending;
    this.onAck = onAck;  // told of each reply before the next command is built
    this.chain = Promise.resolve();
    this.waiting = 0;
  }

  /** Send ``body`` (an object, or a function making it when its turn to go comes). */
  send(path, body) {
    const id = commandId();
    this.waiting += 1;
    this.onPending(this.waiting);
    const run = async () => {
      try {
        const fields = typeof body === "function" ? body() : body;
        const reply = await this._deliver(path, { command_id: id, ...fields });
        this.onAck(reply);
        return reply;
      } finally {
        this.waiting -= 1;
        this.onPending(this.waiting);
      }
    };
    const result = this.chain.then(run, run);
    this.chain = result.catch(() => {});
    return result;
  }

  async _deliver(path, command) {
    let delay = 400;
    const deadline = Date.now() + 120_000;
    for (;;) {
      try {
        return await api(path, { method: "POST", token: this.token, body: command });
      } catch (err) {
        const retry = err.status === 0 || err.status >= 500 || err.status === 429;
        if (!retry || Date.now() > deadline) throw err;
        await sleep(delay);
        delay = Math.min(delay * 2, 8000);
      }
    }
  }
}

/** The role's token for a page: from the link first, else this browser's memory. */
export function pageToken(night, roles) {
  const fromUrl = takeUrlToken();
  if (fromUrl) return { token: fromUrl, role: null, fresh: true };
  for (const role of roles) {
    if (role === "table:*") {
      const found = tableTokens(night)[0];
      if (found) return { ...found, fresh: false };
      continue;
    }
    const token = loadToken(night, role);
    if (token) return { token, role, fresh: false };
  }
  return { token: null, role: null, fresh: false };
}

/** The table tokens this browser holds for a night: [{token, role: "table:<n>"}]. */
export function tableTokens(night) {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      const prefix = `${PREFIX}${night}:table:`;
      if (key && key.startsWith(prefix)) {
        out.push({ token: JSON.parse(localStorage.getItem(key)), role: key.slice(PREFIX.length + night.length + 1) });
      }
    }
  } catch { /* no storage */ }
  return out;
}

/** Remember a night this browser took part in (for the home page's list). */
export function rememberNight(night, name, role, href) {
  const list = (recall("nights") || []).filter((n) => !(n.night === night && n.role === role));
  list.unshift({ night, name, role, href, at: new Date().toISOString() });
  store("nights", list.slice(0, 20));
}

/**
 * The token this page acts with: a link's ?token= (its role asked of the server and
 * saved) or the first of ``roles`` this browser holds for the night. Returns
 * ``{token, role}`` or null; throws ApiError when a link's token is refused.
 */
export async function adoptToken(night, roles) {
  const { token, role, fresh } = pageToken(night, roles);
  if (!token) return null;
  if (!fresh) return { token, role };
  const me = await api("/api/me", { token });
  if (me.night !== night) {
    throw new ApiError(403, { error: "forbidden", message: "this link belongs to another night",
      expected: "the link of this night" });
  }
  const key = me.role === "table" ? `table:${me.table}` : me.role;
  saveToken(night, key, token);
  return { token, role: key, me };
}

/** Every rule value of a night (its preset, house rules and prize choices), from its setup. */
export async function rulesOf(setup) {
  const house = { ...(setup.house_rules || {}) };
  if (setup.prizes) house.prizes = setup.prizes;
  if (setup.prize_ties) house.prize_ties = setup.prize_ties;
  const query = new URLSearchParams({ preset: setup.rules, house: JSON.stringify(house) });
  return (await api(`/pages/rules.json?${query}`)).rules;
}

let origin = null;

/** The address phones use to reach this server (``bunco serve`` works it out): the base of
 * every QR code and link a page hands out, even when the page itself is open at localhost. */
export async function publicOrigin() {
  if (origin === null) {
    try {
      const early = window.buncoAddress && await window.buncoAddress;  // asked by boot.js
      const found = early || await api("/pages/address.json");
      origin = found.base || location.origin;
    } catch {
      origin = location.origin;
    }
  }
  return origin;
}
