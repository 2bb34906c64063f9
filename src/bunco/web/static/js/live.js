// Following a night live: the state from GET /api/nights/<id>, then the WebSocket.
//
// The socket tells us what happened (events with the table after them and the night's
// status, status and table messages). A page following the whole night reloads the
// night's state after each burst of messages, so it always draws the engine's own view.
// A table's phone (``patch``) instead puts each message's table view and status into the
// state it holds, and reloads only when the round, set or phase changes, the seating
// changes between rounds, or it reconnects after missing messages: at most one GET of
// the night per round. When the connection drops, the page says so and reconnects by
// itself with growing pauses, asking for everything after the last seq it saw (?since=).

import { api } from "./api.js";
import { showConnection } from "./ui.js";

export class Live {
  /**
   * @param {object} o
   * @param {string} o.night  the night id
   * @param {string} o.token  a token of the night (any role that may read)
   * @param {number|null} o.table  follow one table (its events and the night's), or all
   * @param {(state: object, previous: object|null) => void} o.onState  a new state
   * @param {(message: object) => void} o.onMessage  every socket message
   * @param {(error: object) => void} o.onFatal  the token was refused: stop
   * @param {boolean} o.patch  (with ``table``) apply messages to the state, reload per round
   */
  constructor({ night, token, table = null, onState = () => {}, onMessage = () => {},
    onFatal = () => {}, patch = false }) {
    Object.assign(this, { night, token, table, onState, onMessage, onFatal });
    this.patch = patch && table !== null;
    this.stale = false;  // a message could not be applied: reload at the next caught_up
    this.gets = 0;       // full reloads of the night so far (tests count them)
    this.state = null;
    this.seq = -1;
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
    this.refreshing = null;
    this.again = false;
    this.timer = null;
    this.lastHeard = Date.now();
    this.offlineTimer = null;
    window.addEventListener("online", () => { this.drop(); this.reconnectNow(); });
    window.addEventListener("offline", () => { this.drop(); this.setState("offline"); });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
    setInterval(() => this.heartbeat(), 10_000);
  }

  async start() {
    await this.refresh();
    this.connect();
  }

  /** Load the night's state now (calls onState); several calls at once make one request. */
  async refresh() {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        try {
          this.gets += 1;
          document.body.dataset.gets = String(this.gets);
          const state = await api(`/api/nights/${encodeURIComponent(this.night)}`, {
            token: this.token });
          const previous = this.state;
          this.state = state;
          this.seq = Math.max(this.seq, state.seq);
          document.body.dataset.seq = String(state.seq);
          this.onState(state, previous);
        } catch (err) {
          if (err.status === 401 || err.status === 403 || err.status === 404) {
            this.stop();
            this.onFatal(err);
            throw err;
          }
          if (!this.state) throw err;
          this.setState("offline");
        }
      } while (this.again);
    })();
    try {
      await this.refreshing;
    } finally {
      this.refreshing = null;
    }
  }

  /** Note an acknowledged command's seq and reload the state (a table's phone applies the
   * reply's table view and status instead, when the round goes on). */
  acknowledge(ack) {
    if (ack && typeof ack.seq === "number") this.seq = Math.max(this.seq, ack.seq);
    if (this.patch && ack && this.apply({ type: "event", ...ack })) return Promise.resolve();
    return this.refresh();
  }

  /**
   * Put one message into the state without asking the server; false when it cannot be
   * (the round, set or phase changed, or an event of the whole night changed the seating).
   */
  apply(message) {
    const state = this.state;
    if (!state || typeof message.seq !== "number" || message.seq < state.seq) return Boolean(state);
    const view = state.view;
    const status = message.status;
    const sameRound = (s) => s && s.phase === view.phase && s.set === view.set && s.round === view.round;
    let table = null;
    let key = null;
    if (message.type === "event" || message.type === "table") {
      if (message.table === null) {
        // an event of the whole night: the starting bell only changes ``started`` (its
        // status message follows); anything else (seating, roll-offs) needs the whole night
        if (!message.event || message.event.type !== "start_round") return false;
        key = "night";
      } else if (message.table === this.table && message.table_view) {
        table = message.table_view;
        key = String(this.table);
      } else {
        return false;
      }
      if (status && !sameRound(status)) return false;
      if (!status && message.type === "event") return false;  // a backlog event: reload
    } else if (message.type === "status") {
      if (!sameRound(status)) return false;
    } else {
      return true;  // hello, caught_up, pong: nothing of the state
    }
    const tables = view.tables.slice();
    if (table) {
      if (!tables[this.table - 1]) return false;
      tables[this.table - 1] = table;
    }
    const nextView = { ...view, tables };
    if (status) {
      for (const k of ["bell", "started", "bell_roll"]) if (k in status) nextView[k] = status[k];
    }
    const versions = { ...(state.versions || {}) };
    if (key && message.type === "event") versions[key] = message.seq;
    const next = { ...state, seq: Math.max(state.seq, message.seq), view: nextView, versions,
      status: { ...(state.status || {}), ...(status || {}) } };
    if (status && status.dice) next.dice = status.dice;  // the host changed the dice mode
    const previous = this.state;
    this.state = next;
    document.body.dataset.seq = String(next.seq);
    this.onState(next, previous);
    return true;
  }

  soon() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh().catch(() => {}), 60);
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const params = new URLSearchParams({ token: this.token, since: String(this.seq) });
    if (this.table !== null) params.set("table", String(this.table));
    return `${proto}//${location.host}/api/nights/${encodeURIComponent(this.night)}/ws?${params}`;
  }

  connect() {
    if (this.stopped) return;
    if (this.socket && this.socket.readyState <= 1) return;
    if (!this.state) this.setState("connecting");
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch (_) {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("message", (ev) => this.receive(socket, ev));
    socket.addEventListener("close", (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (ev.code === 4401 || ev.code === 4403 || ev.code === 4404) {
        this.stop();
        this.onFatal({ status: ev.code - 4000, text: ev.reason || "this link no longer works" });
        return;
      }
      if (ev.code === 4422) this.seq = -1;  // the server does not know our seq: start over
      this.retry();
    });
  }

  receive(socket, ev) {
    if (this.socket !== socket) return;
    let message;
    try { message = JSON.parse(ev.data); } catch (_) { return; }
    this.lastHeard = Date.now();
    if (message.type === "error") return;  // the close code that follows says what to do
    if (message.type === "hello") {
      this.attempt = 0;
      this.setState("online");
    }
    if (typeof message.seq === "number" && message.type !== "pong") {
      this.seq = Math.max(this.seq, message.seq);
    }
    this.onMessage(message);
    if (this.patch) {
      if (message.type === "hello") this.stale = message.seq > (this.state ? this.state.seq : -1);
      if (message.type === "caught_up") {
        if (this.stale) this.soon();
        this.stale = false;
        return;
      }
      if (this.stale) return;  // the backlog of a reconnect: one reload at caught_up
      if (!this.apply(message)) this.soon();
      return;
    }
    if (["event", "status", "table", "caught_up"].includes(message.type)) this.soon();
  }

  /** Forget the current socket (a dead connection) and close it; the caller reconnects. */
  drop() {
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      try { socket.close(); } catch (_) { /* already closed */ }
    }
    if (!this.stopped) this.retry();
  }

  retry() {
    if (this.stopped) return;
    this.setStateLater("offline");
    const delay = Math.min(500 * 2 ** this.attempt, 10_000) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.stopped) return;
    if (this.socket && this.socket.readyState <= 1) return;
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.connect();
  }

  heartbeat() {
    const socket = this.socket;
    if (!socket || socket.readyState !== 1) return;
    if (Date.now() - this.lastHeard > 25_000) {
      this.drop();  // silent for too long (pings go unanswered): a dead connection
      return;
    }
    try { socket.send(JSON.stringify({ type: "ping" })); } catch (_) { /* closing */ }
  }

  /** Say "offline" only if the connection does not come back within a moment. */
  setStateLater(state) {
    clearTimeout(this.offlineTimer);
    this.offlineTimer = setTimeout(() => {
      if (!this.socket || this.socket.readyState !== 1) this.setState(state);
    }, 1200);
  }

  setState(state) {
    if (state === "online") clearTimeout(this.offlineTimer);
    if (state === "offline" && this.socket && this.socket.readyState === 1 && navigator.onLine) return;
    showConnection(state);
  }

  stop() {
    this.stopped = true;
    if (this.socket) this.socket.close();
  }
}

// -- reading the view ------------------------------------------------------------------------

/** Where everyone sits now: name → {table, seat (1-based), partner, team, players}; the
 * partners are the server's (each table view's ``partners``). */
export function seatsOf(view) {
  const out = {};
  const tables = view.tables && view.tables.length ? view.tables
    : (view.next ? view.next.tables.map((players, i) => ({ players, partners: (view.next.partners || [])[i] }))
      : []);
  tables.forEach((t, i) => {
    const partners = t.partners || [];
    t.players.forEach((name, s) => {
      if (!name) return;
      out[name] = { table: i + 1, seat: s + 1, partner: partners[s] || null,
        team: partners.some(Boolean), players: t.players };
    });
  });
  return out;
}

/**
 * Who moved where after the last round: [{player, result, from: {table, seat},
 * to: {table, seat} | null}], in the order of the last round's tables (the server's list).
 */
export function movesOf(view) {
  return view.moves || [];
}

/** "Move to table 2, seat 3", "Stay at table 1, seat 2", "Join at …" or "Sitting out". */
export function moveText(move) {
  if (!move.to) return "Sitting out next round";
  if (!move.from) return `Join at table ${move.to.table}, seat ${move.to.seat}`;
  if (move.to.table === move.from.table) return `Stay at table ${move.to.table}, seat ${move.to.seat}`;
  return `Move to table ${move.to.table}, seat ${move.to.seat}`;
}

/** The round's target number (the face that scores). */
export const targetOf = (view) => view.round;
