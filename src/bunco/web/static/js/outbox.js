// The table page's outbox: every entry is written to this phone's storage (localStorage)
// before it is sent, with its command id, and stays there until the server has answered
// it. A reload, a closed tab or a phone asleep for an hour loses nothing: the next page of
// the same table (in any tab) sends what is left, in order, retrying with no time limit.
//
// Each entry carries where it was tapped (``tapped``: set, round, table, the roller and the
// table's stage the page showed, the table version it was based on, the phone's time) and
// the server applies it only there, or refuses it (docs/outbox.md). The ``expected_seq`` it
// is sent with is the version it was based on, or, for an entry tapped while an earlier one
// still waited (``follows``), the seq the server gave that earlier entry: so a chain of
// entries tapped offline lands exactly in the order and at the turns it was tapped, or not
// at all. A refused entry is kept, marked refused, until a person at the table decides
// (send it to the host, or discard it); the entries that followed it are held with it.
//
// Each entry says how many entries of its round the phone still holds after it (``more``):
// the server does not end a round while a phone holds entries of it (docs/outbox.md). A
// request whose reply is lost (the connection dropped on the way back) may have been
// stored: the entry is "in doubt" until its retry is answered (``duplicate`` if it was),
// and the page asks the server for the table's state meanwhile (``onLost``). The outbox is
// the table's, not the token's: a phone that joins the table again (a new token from the
// QR link) sends on what it holds, and the server answers each command id once.
//
// Between rounds the table's "Everyone is seated — start" is kept the same way (an entry
// of ``kind`` "seated", sent with only its command id and version): a phone without a
// connection then begins its table's round on the page, the entries tapped after it wait
// behind it and go once it is recorded, in order. If the server refuses it (the head
// table's bell began the round meanwhile, or the host reseated the room), the entries
// behind it are held as tapped too early, and sent once the round has begun here.

import { api, commandId } from "./api.js";

const KEPT_ACKS = 200;  // the seqs of the last entries sent (for the entries that follow them)

/** The pause before retry number ``attempt`` (ms): half a second, doubling to 15 s, then
 * every 15 s for as long as it takes. A page may set ``window.buncoRetry`` (a function of
 * the attempt) to pace it otherwise. */
export function retryDelay(attempt) {
  if (typeof window.buncoRetry === "function") return window.buncoRetry(attempt);
  return Math.min(500 * 2 ** attempt, 15_000);
}

const retryable = (err) => err.status === 0 || err.status >= 500 || err.status === 429
  || err.status === 408;

export class Outbox {
  /**
   * @param {object} o
   * @param {string} o.night  the night id
   * @param {number} o.table  the table number
   * @param {string} o.token  the table's token
   * @param {() => void} o.onChange  the outbox changed (draw it)
   * @param {(ack: object, entry: object) => void} o.onAck  an entry was recorded
   * @param {(entry: object) => void} o.onRefused  an entry was refused (ask a person)
   * @param {(err: object) => void} o.onFatal  the token was refused: sending stops, entries stay
   * @param {(entry: object) => void} o.onLost  an entry's reply was lost: it is in doubt
   */
  constructor({ night, table, token, onChange = () => {}, onAck = () => {},
    onRefused = () => {}, onFatal = () => {}, onLost = () => {} }) {
    Object.assign(this, { night, table, token, onChange, onAck, onRefused, onFatal, onLost });
    this.key = `bunco:outbox:${night}:${table}`;
    this.data = this.load();
    this.busy = false;
    this.stopped = false;
    this.failing = false;    // the last attempt found no connection (or a busy server)
    this.inflight = null;    // the id of the entry on its way now
    this.doubt = null;       // the id of an entry whose reply was lost (maybe stored), until answered
    this.wakeUp = null;
    this.settled = new Map();  // id -> resolve, for a caller awaiting one entry
    this.recent = [];        // {entry, seq}: recorded by this page, maybe not in its state yet
    this.persisted = true;
    window.addEventListener("online", () => this.wake());
    window.addEventListener("storage", (ev) => {  // another tab of this table
      if (ev.key !== this.key) return;
      this.data = this.load();
      this.onChange();
      this.wake();
    });
  }

  load() {
    try {
      const raw = localStorage.getItem(this.key);
      const data = raw ? JSON.parse(raw) : null;
      return { entries: (data && data.entries) || [], acked: (data && data.acked) || {} };
    } catch {
      return { entries: this.data ? this.data.entries : [], acked: this.data ? this.data.acked : {} };
    }
  }

  save() {
    try {
      localStorage.setItem(this.key, JSON.stringify(this.data));
      this.persisted = true;
    } catch {
      this.persisted = false;  // private mode or full: kept in this page only (the page says so)
    }
  }

  /** The entries not sent yet, in the order they were tapped (not the seating's
   * confirmation: ``seating``). */
  get waiting() { return this.data.entries.filter((e) => e.state === "waiting" && e.kind !== "seated"); }

  /** What is sent next, in order: the entries and the seating's confirmation. */
  get queue() { return this.data.entries.filter((e) => e.state === "waiting"); }

  /** The table's "Everyone is seated" kept on this phone, not recorded yet, or null. */
  get seating() { return this.data.entries.find((e) => e.state === "waiting" && e.kind === "seated") || null; }

  /** The entries tapped before the round began at this table (its new seating not
   * confirmed yet): held, with the server's words, until it begins (``release``). */
  get early() { return this.data.entries.filter((e) => e.state === "early"); }

  /** The round began at this table: the entries held as tapped too early are sent now,
   * in order, the first based on ``version`` (the table as it is now: only the seating's
   * confirmation came since), the rest chained after it. The server still checks the
   * round and the roller each was tapped for: never recorded in another round. */
  release(version) {
    this.data = this.load();
    let first = true;
    for (const e of this.data.entries) {
      if (e.state !== "early") continue;
      e.state = "waiting";
      delete e.refusal;
      if (first) {
        e.follows = null;
        e.tapped = { ...e.tapped, based_on: version };
        first = false;
      }
    }
    this.save();
    this.onChange();
    this.kick();
  }

  /** The entries the server refused, waiting for a person's decision. */
  get refused() { return this.data.entries.filter((e) => e.state === "refused"); }

  /** The entries this page had recorded after ``seq`` (the seq of the state the page
   * shows), oldest first: between the server's reply and the state that has them (the
   * page's state may come later, after a reload under way), the page counts them before
   * the waiting ones, so it never shows, nor taps on, the table without them. */
  recordedAfter(seq) {
    this.recent = this.recent.filter((r) => r.seq > seq);
    return this.recent.map((r) => r.entry).filter((e) => e.kind !== "seated");
  }

  /** The server stored entry ``id`` as ``seq`` (the live stream's event carries its
   * command id): it is recorded, whether or not its reply comes (a lost reply, or the
   * event before the reply). Returns the entry, or null if this outbox does not hold it. */
  seen(id, seq) {
    this.data = this.load();
    const entry = this.data.entries.find((e) => e.id === id && e.state === "waiting");
    if (!entry) return null;
    this.data.entries = this.data.entries.filter((e) => e.id !== id);
    this.data.acked[id] = seq;
    this.save();
    if (this.doubt === id) this.doubt = null;
    this.recent.push({ entry, seq });
    if (this.recent.length > KEPT_ACKS) this.recent.shift();
    this.onChange();
    return entry;
  }

  /** Keep an entry (``body``: the request's fields; ``tapped``: where it was tapped;
   * ``label``: the entry in words; ``kind`` "seated": the seating's confirmation) and send
   * it. Returns the entry and a promise of its outcome (``{ack}`` or ``{refused}``). */
  add(path, body, { label, tapped, kind = "entry" }) {
    this.data = this.load();
    const last = this.queue.at(-1);
    const entry = { id: commandId(), path, body, label, tapped, at: Date.now(),
      follows: last ? last.id : null, state: "waiting", kind };
    this.data.entries.push(entry);
    this.save();
    const done = new Promise((resolve) => this.settled.set(entry.id, resolve));
    this.onChange();
    this.kick();
    return { entry, done };
  }

  /** Take back the last entry not sent yet (it never reached the server); null if there
   * is none, or it is on its way now. */
  takeBack() {
    this.data = this.load();
    const last = this.waiting.at(-1);
    if (!last || last.id === this.inflight) return null;
    this.data.entries = this.data.entries.filter((e) => e.id !== last.id);
    this.save();
    this.settle(last.id, { taken: true });
    this.onChange();
    return last;
  }

  /** A person decided about refused entries (sent to the host, or discarded): forget them. */
  forget(ids) {
    const gone = new Set(ids);
    this.data = this.load();
    this.data.entries = this.data.entries.filter((e) => !gone.has(e.id));
    this.save();
    this.onChange();
  }

  /** Try again now (the connection is back, the page is visible again). */
  wake() {
    if (this.wakeUp) this.wakeUp();
    else this.kick();
  }

  pause(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.wakeUp = null; resolve(); }, ms);
      this.wakeUp = () => { clearTimeout(timer); this.wakeUp = null; resolve(); };
    });
  }

  /** How many entries of ``entry``'s round wait after it on this phone. */
  moreAfter(entry) {
    const waiting = this.waiting;
    const at = waiting.findIndex((e) => e.id === entry.id);
    const same = (e) => e.tapped && entry.tapped && e.tapped.set === entry.tapped.set
      && e.tapped.round === entry.tapped.round;
    return waiting.slice(at + 1).filter(same).length;
  }

  /** The ``expected_seq`` to send ``entry`` with, or null when the entry it followed was
   * not recorded (refused or discarded): then it cannot be placed either. */
  expectedFor(entry) {
    if (!entry.follows) return entry.tapped.based_on;
    if (entry.follows in this.data.acked) return this.data.acked[entry.follows];
    return null;
  }

  settle(id, outcome) {
    const resolve = this.settled.get(id);
    if (resolve) {
      this.settled.delete(id);
      resolve(outcome);
    }
  }

  /** Send what waits, in order, until the outbox is empty (retrying without end). */
  async kick() {
    if (this.busy || this.stopped) return;
    this.busy = true;
    let attempt = 0;
    try {
      for (;;) {
        this.data = this.load();  // another tab may have sent or added entries
        const entry = this.queue[0];
        if (!entry || this.stopped) break;
        const expected = this.expectedFor(entry);
        if (expected === null) {
          const before = this.data.entries.find((e) => e.id === entry.follows);
          const why = before && before.refusal;
          this.refuse(entry, { error: (why && why.code) || "follows_refused",
            message: "an entry tapped before it was not recorded, so this one cannot be placed",
            now: why ? why.now : null, cause: why ? why.cause : null, by: why ? why.by : null,
            follows: true }, 409);
          continue;
        }
        this.inflight = entry.id;
        let ack;
        try {
          ack = await api(entry.path, { method: "POST", token: this.token, body: entry.kind === "seated"
            ? { command_id: entry.id, expected_seq: expected }
            : { ...entry.body, command_id: entry.id, expected_seq: expected, tapped: entry.tapped,
              more: this.moreAfter(entry) } });
        } catch (err) {
          this.inflight = null;
          if (retryable(err)) {
            this.failing = true;
            if (err.status === 0 && navigator.onLine && this.doubt !== entry.id) {
              // no reply, online: the request may have reached the server and been stored
              this.doubt = entry.id;
              this.onLost(entry);
            }
            this.onChange();
            // online, a lost reply is asked again at once (the server answers it once)
            await this.pause(err.status === 0 && navigator.onLine && attempt === 0
              ? 200 : retryDelay(attempt));
            attempt += 1;
            continue;
          }
          if (this.doubt === entry.id) this.doubt = null;
          if (err.status === 401) {  // the credential was revoked: keep everything
            this.stopped = true;
            this.onChange();
            this.onFatal(err);
            break;
          }
          this.refuse(entry, err.body, err.status);
          continue;
        }
        this.inflight = null;
        this.failing = false;
        if (this.doubt === entry.id) this.doubt = null;
        attempt = 0;
        this.data = this.load();
        this.data.entries = this.data.entries.filter((e) => e.id !== entry.id);
        this.data.acked[entry.id] = ack.seq;
        const ids = Object.keys(this.data.acked);
        for (const old of ids.slice(0, Math.max(0, ids.length - KEPT_ACKS))) delete this.data.acked[old];
        this.save();
        if (!this.recent.some((r) => r.entry.id === entry.id)) {  // not seen on the stream first
          this.recent.push({ entry, seq: ack.seq });
          if (this.recent.length > KEPT_ACKS) this.recent.shift();
        }
        this.onAck(ack, entry);
        this.settle(entry.id, { ack });
        this.onChange();
      }
    } finally {
      this.busy = false;
      this.inflight = null;
    }
  }

  refuse(entry, body, status) {
    this.data = this.load();
    const kept = this.data.entries.find((e) => e.id === entry.id);
    if (!kept) return;
    const code = body && body.error;
    if (kept.kind === "seated") {
      // the seating's confirmation was not recorded (the round began already, or the room
      // was reseated): it goes, and the entries behind it wait for the round to begin here
      const at = this.data.entries.indexOf(kept);
      for (const e of this.data.entries.slice(at + 1)) {
        if (e.state === "waiting") {
          e.state = "early";
          e.refusal = { status, code: "not_seated", message: (body && body.message) || "" };
        }
      }
      this.data.entries = this.data.entries.filter((e) => e.id !== kept.id);
      this.save();
      this.settle(kept.id, { refused: kept });
      this.onRefused(kept);
      this.onChange();
      return;
    }
    if (code === "not_seated" || code === "seating_changed") {
      // tapped before the round began here: held (with those after it) until it begins
      const at = this.data.entries.indexOf(kept);
      for (const e of this.data.entries.slice(at)) {
        if (e.state === "waiting") e.state = "early";
      }
      kept.refusal = { status, code, message: (body && body.message) || "" };
      this.save();
      this.onChange();
      return;  // settled when it is sent after the release
    }
    kept.state = "refused";
    kept.refusal = { status, code: (body && body.error) || "error",
      message: (body && body.message) || `refused (${status})`, now: (body && body.now) || null,
      cause: (body && body.cause) || null, by: (body && body.by) || null,
      follows: Boolean(body && body.follows) };
    this.save();
    this.settle(entry.id, { refused: kept });
    this.onRefused(kept);
    this.onChange();
  }

  /** What the host page shows of this outbox (POST .../tables/<n>/outbox). */
  report(mode) {
    const waiting = this.waiting;
    const oldest = waiting.length ? waiting[0].at : null;
    const rounds = new Map();  // the entries waiting per round they were tapped in
    for (const e of waiting) {
      if (!e.tapped) continue;
      const key = `${e.tapped.set}.${e.tapped.round}`;
      const item = rounds.get(key) || { set: e.tapped.set, round: e.tapped.round, waiting: 0 };
      item.waiting += 1;
      rounds.set(key, item);
    }
    return {
      waiting: waiting.length,
      first: waiting.length ? waiting[0].id : null,
      rounds: [...rounds.values()].slice(0, 50),
      oldest: oldest === null ? null : new Date(oldest).toISOString(),
      oldest_age: oldest === null ? null : Math.max(0, (Date.now() - oldest) / 1000),
      refused: this.refused.slice(0, 500).map((e) => ({
        id: e.id, label: e.label.slice(0, 60), code: e.refusal.code.slice(0, 60),
        message: e.refusal.message.slice(0, 300), tapped: e.tapped })),
      mode,
    };
  }
}
