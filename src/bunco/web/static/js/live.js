// Following a night live: the state from a GET, then the WebSocket.
//
// A page that follows one table (a table's phone, a player's phone: ``table``) loads that
// table's page (GET /api/nights/<id>/tables/<n>: the table, the night's round and bell,
// the last round's result there, where its players go, their cards) and then only applies
// what the socket pushes: each event's table view and status, and at a new round, bell or
// seating the ``table`` message with the table's whole page. It asks the server again
// only when a message shows another round and no page of it follows (the table is not in
// play), and a reconnect needs no GET: the hello carries the table's page.
//
// A player's phone (``player``) follows the table its player sits at on one socket all
// night (?player=NAME): when the player moves, the server sends the new table's page in a
// ``table`` message naming the new table (or ``"table": null`` when the player sits at no
// table; the page then loads the whole night), and the page follows it there without a
// new connection. The hello says where the player sits now.
//
// A page that follows the whole night (host, big screen, results: ``table`` null) loads
// the night's view (GET /api/nights/<id>) and patches each event's table view and status
// (the bell, the traveler's holder, the last Bunco, who may roll) into it at once: that is
// all a roll changes, as the cards and standings change when a round ends. It reloads the
// whole view only when a message says the change is bigger: soon after a new round, set
// or phase or an event of the whole night (the results, moves, cards and standings that
// come with them), after a backlog, or for a table it does not know. Until that reload
// lands it patches nothing more into the old view, so the page never shows a later seq
// without the change (a roll-off roll's status drawn on the roll-off before it).
//
// When the connection drops, the page says so and reconnects by itself with growing
// pauses, asking for everything after the last seq it saw (?since=).

import { api, firstReply } from "./api.js";
import { showConnection } from "./ui.js";
import { Versions } from "./versions.js";

const SAME_ROUND = (s, view) => Boolean(s) && s.phase === view.phase && s.set === view.set
  && s.round === view.round;

export class Live {
  /**
   * @param {object} o
   * @param {string} o.night  the night id
   * @param {string} o.token  a token of the night (any role that may read)
   * @param {number|null} o.table  follow one table's page, or (null) the whole night
   * @param {string|null} o.player  follow this player's table (the server says which)
   * @param {(state: object, previous: object|null) => void} o.onState  a new state
   * @param {(message: object) => void} o.onMessage  every socket message
   * @param {(error: object) => void} o.onFatal  the token was refused: stop
   */
  constructor({ night, token, table = null, player = null, onState = () => {},
    onMessage = () => {}, onFatal = () => {} }) {
    Object.assign(this, { night, token, table, player, onState, onMessage, onFatal });
    this.gets = 0;       // GETs of the state so far (tests count them)
    this.state = null;
    this.versions = new Versions();  // what commands are based on (versions.js)
    this.drawn = null;   // the state the page last drew (onState)
    this.drawTimer = null;
    this.seq = -1;
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
    this.refreshing = null;
    this.again = false;
    this.timer = null;   // a reload soon (a new round)
    this.due = 0;        // when that reload runs (ms since the epoch)
    this.caught = [];    // messages that came while a GET was under way (applied after it)
    this.waiting = null; // the seq of a message that shows a new round, until its page comes
    this.behind = null;  // a whole night: the last seq of a change the view lacks, until reloaded
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

  /** The address of the state: one table's page, or the whole night. */
  stateUrl() {
    const base = `/api/nights/${encodeURIComponent(this.night)}`;
    return this.table === null ? base : `${base}/tables/${this.table}`;
  }

  /** Load the state now (calls onState); several calls at once make one request. */
  async refresh() {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    clearTimeout(this.timer);
    this.timer = null;
    this.refreshing = (async () => {
      do {
        this.again = false;
        this.caught = [];
        try {
          this.gets += 1;
          document.body.dataset.gets = String(this.gets);
          const url = this.stateUrl();
          const state = await (firstReply(url, this.token) || api(url, { token: this.token }));
          this.state = state;
          this.versions.notePage(state);
          this.seq = Math.max(this.seq, state.seq);
          this.waiting = null;
          if (this.behind !== null && state.seq >= this.behind) this.behind = null;
          document.body.dataset.seq = String(state.seq);
          // what came meanwhile and is newer than the state: apply it on top
          const later = this.caught.filter((m) => m.seq > state.seq);
          this.caught = [];
          for (const message of later) this.take(message, false);
          this.draw();
          // a server process that has not caught up yet (several processes): ask again
          if (this.behind !== null && !this.timer) this.reloadSoon(600);
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

  /** A player's phone: the server moved the socket to the table ``message`` names
   * (a hello or table message), or to none (null): show that table's page, or load the
   * whole night. */
  moveTo(message) {
    this.table = message.table;
    this.waiting = null;
    clearTimeout(this.timer);
    this.timer = null;
    if (message.table === null || !message.view) {
      this.refresh().catch(() => {});  // the whole night (or the table's page) by GET
      return;
    }
    this.setPage(message, message.status || null);
  }

  /** Note an acknowledged command's reply. A table's page applies its table view and
   * status (as an event's); a whole-night page (the host's own command) reloads now. */
  acknowledge(ack) {
    this.versions.noteMessage(ack);
    if (ack && typeof ack.seq === "number") this.seq = Math.max(this.seq, ack.seq);
    if (this.table === null || !ack) return this.refresh();
    this.receiveOne({ type: "event", ...ack });
    return Promise.resolve();
  }

  /** One message for the state (also the reply to this page's own command). */
  receiveOne(message) {
    if (this.player !== null && (message.type === "hello" || message.type === "table")
      && "table" in message && message.table !== this.table) {
      if (this.refreshing) {  // load the new table's page (or the night) instead
        this.table = message.table;
        this.again = true;
        return;
      }
      const state = this.state;
      if (!state) return;
      this.moveTo(message);
      if (this.state !== state) this.draw();
      return;
    }
    if (this.refreshing) {
      this.caught.push(message);
      return;
    }
    this.take(message, true);
  }

  /** Apply one message to the state; with ``draw``, tell the page. */
  take(message, draw) {
    const state = this.state;
    if (!state || typeof message.seq !== "number") return;
    const outcome = this.table === null ? this.patchNight(message) : this.patchTable(message);
    if (outcome === "reload") {
      this.behind = Math.max(this.behind ?? -1, message.seq);
      this.reloadSoon();
    }
    if (outcome === "wait") {
      // a new round: the table's page follows in the same burst (if the table is in play)
      if (this.waiting === null) this.waiting = message.seq;
      this.reloadSoon(600);
    }
    if (this.state === state || !draw) return;
    if (this.table !== null) {
      this.draw();
    } else if (!this.drawTimer) {
      // a whole night's messages come by the hundred: draw at most ten times a second
      this.drawTimer = setTimeout(() => { this.drawTimer = null; this.draw(); }, 100);
    }
  }

  /** Tell the page the state changed since it last drew (onState). */
  draw() {
    if (!this.state || this.state === this.drawn) return;
    const previous = this.drawn;
    this.drawn = this.state;
    document.body.dataset.seq = String(this.state.seq);
    this.onState(this.state, previous);
  }

  /** A table's page: returns "", "wait" (a new round, its page not here yet). */
  patchTable(message) {
    const state = this.state;
    const view = state.view;
    if (message.type === "hello" && message.view) {
      if (message.seq < state.seq) return "";
      this.setPage(message, message.status);
      return "";
    }
    if (message.seq < state.seq) return "";
    if (message.type === "table") {
      if (message.table !== this.table || !message.view) return "";
      this.setPage(message, null);
      return "";
    }
    const status = message.status;
    if (message.type === "event") {
      if (!status) return "";  // a backlog event: the hello's page already has it
      if (!SAME_ROUND(status, view)) return "wait";
      const patch = message.table === this.table && message.table_view
        ? { table: message.table_view } : {};
      this.setView({ ...view, ...patch }, message, status);
      return "";
    }
    if (message.type === "status") {
      if (!SAME_ROUND(status, view)) return "wait";
      this.setView(view, message, status);
    }
    return "";
  }

  /** The whole night: returns "" or "reload" (soon: the message does not carry it all). */
  patchNight(message) {
    const state = this.state;
    const view = state.view;
    if (message.seq < state.seq || message.type === "hello") return "";
    // a change the view lacks is on its way (the reload): nothing goes on top of the old
    // view meanwhile, or the page would show a later seq without it (a roll-off's status)
    if (this.behind !== null) return "reload";
    const status = message.status;
    if (message.type === "event") {
      if (!status) return "reload";  // a backlog after a reconnect
      if (!SAME_ROUND(status, view) || message.table === null) {
        return "reload";  // results, moves, seating, roll-offs: the whole view
      }
    } else if (message.type === "status") {
      if (!SAME_ROUND(status, view)) return "reload";
    } else if (message.type !== "table") {
      return "";
    }
    const tables = view.tables.slice();
    if (message.table_view && message.table !== null) {
      if (!tables[message.table - 1]) return "reload";
      tables[message.table - 1] = message.table_view;
    }
    this.setView({ ...view, tables }, message, status);
    if (status && status.expects) this.state.view.expects = status.expects;
    return "";
  }

  /** A table's whole page from a hello or table message. */
  setPage(message, status) {
    const view = { ...message.view, table: message.table_view || null };
    this.setView(view, message, status);
  }

  setView(view, message, status) {
    const state = this.state;
    const next = { ...state, seq: Math.max(state.seq, message.seq), view: { ...view } };
    if (status) {
      for (const k of ["bell", "started", "bell_roll", "clock", "traveler", "last_bunco"]) {
        if (k in status) next.view[k] = status[k];
      }
      next.status = { ...(state.status || {}), ...status };
      if (status.dice) next.dice = status.dice;  // the host changed the dice mode
    }
    if (this.waiting !== null && message.type !== "event" && message.type !== "status"
      && next.seq >= this.waiting) {
      this.waiting = null;  // the page of the new round came
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.state = next;
  }

  /** Reload within ``delay`` ms (sooner if already due sooner). */
  reloadSoon(delay = 60) {
    const due = Date.now() + delay;
    if (this.timer && this.due <= due) return;
    clearTimeout(this.timer);
    this.due = due;
    this.timer = setTimeout(() => { this.timer = null; this.refresh().catch(() => {}); }, delay);
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const params = new URLSearchParams({ token: this.token, since: String(this.seq) });
    if (this.player !== null) params.set("player", this.player);
    else if (this.table !== null) params.set("table", String(this.table));
    return `${proto}//${location.host}/api/nights/${encodeURIComponent(this.night)}/ws?${params}`;
  }

  connect() {
    if (this.stopped) return;
    if (this.socket && this.socket.readyState <= 1) return;
    if (!this.state) this.setState("connecting");
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("message", (ev) => this.receive(socket, ev));
    socket.addEventListener("close", (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (ev.code === 4401 || ev.code === 4403 || ev.code === 4404) {
        // 4401: the credential was revoked (the server closes its sockets at once)
        this.stop();
        this.setState("offline");
        const text = ev.code === 4401
          ? "The host revoked this link: this page no longer follows the night."
          : ev.reason || "this link no longer works";
        this.onFatal({ status: ev.code - 4000, code: ev.code === 4401 ? "unauthorized" : "forbidden", text });
        return;
      }
      if (ev.code === 4422) this.seq = -1;  // the server does not know our seq: start over
      this.retry();
    });
  }

  receive(socket, ev) {
    if (this.socket !== socket) return;
    let message;
    try { message = JSON.parse(ev.data); } catch { return; }
    this.lastHeard = Date.now();
    if (message.type === "error") return;  // the close code that follows says what to do
    if (message.type === "hello") {
      this.attempt = 0;
      this.setState("online");
    }
    if (typeof message.seq === "number" && message.type !== "pong") {
      this.seq = Math.max(this.seq, message.seq);
    }
    this.versions.noteMessage(message);
    this.onMessage(message);
    if (message.type === "caught_up" || message.type === "pong") return;
    this.receiveOne(message);
  }

  /** Forget the current socket (a dead connection) and close it; the caller reconnects. */
  drop() {
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      try { socket.close(); } catch { /* already closed */ }
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
    try { socket.send(JSON.stringify({ type: "ping" })); } catch { /* closing */ }
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
 * partners are the server's (each table view's ``partners``). A table's page (``table``
 * in the view) knows who sits at that table only. */
export function seatsOf(view) {
  const out = {};
  let tables;
  if ("table" in view) tables = view.table ? [view.table] : [];
  else if (view.tables && view.tables.length) tables = view.tables;
  else if (view.next) tables = view.next.tables.map((players, i) => ({ players, partners: (view.next.partners || [])[i] }));
  else tables = [];
  tables.forEach((t, i) => {
    const partners = t.partners || [];
    t.players.forEach((name, s) => {
      if (!name) return;
      out[name] = { table: t.table || i + 1, seat: s + 1, partner: partners[s] || null,
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
