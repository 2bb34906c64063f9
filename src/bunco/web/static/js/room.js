// The room's news on every page of a night (docs/room.md): the host's announcement ("5
// minutes to the break"), shown at the top the moment it is made, and on a table's phone
// the "Call the host" button, which says when the host has been called until the host
// answers. The room comes with the page (GET .../room) and then on the live stream
// (``{"type": "room"}`` messages: the page's Live hands them to ``onMessage``).

import { api, commandId } from "./api.js";
import { buzz, chime, fill, h, toast } from "./ui.js";

export class Room {
  /**
   * @param {object} o
   * @param {string} o.night  the night's id
   * @param {string} o.token  the page's token
   * @param {number|null} o.table  a table's phone: its number (it gets the call button)
   * @param {Element} o.callBox  where the call button goes (a table's phone)
   * @param {(room: object) => void} o.onChange  after each change (the host's dashboard)
   */
  constructor({ night, token, table = null, callBox = null, onChange = () => {} }) {
    Object.assign(this, { night, token, table, callBox, onChange });
    this.base = `/api/nights/${encodeURIComponent(night)}`;
    this.room = null;
    this.changes = 0;  // how many rooms were set: a read answered after a newer one is let go
    this.banner = document.getElementById("announcement");
    if (!this.banner) {
      this.banner = h("p", { id: "announcement", class: "banner announce", role: "status", hidden: true });
      document.getElementById("main").prepend(this.banner);
    }
    if (callBox) this.drawCall();
  }

  /** Read the room now (a page just opened, or a connection came back). A room that
   * came meanwhile (the reply to this table's call, a ``room`` message) is newer than
   * what this read may have found: the read's reply is then let go. */
  async load() {
    const asked = this.changes;
    try {
      const room = await api(`${this.base}/room`, { token: this.token });
      if (this.changes === asked) this.set(room);
    } catch { /* offline: the stream brings it later */ }
  }

  /** A live-stream message: the room's news when it is a ``room`` message. */
  onMessage(message) {
    if (message.type === "room" && message.room) this.set(message.room);
    else if (message.type === "hello") this.load();
  }

  set(room) {
    this.changes += 1;
    const before = this.room && this.room.announcement;
    this.room = room;
    const said = room.announcement;
    this.banner.hidden = !said;
    fill(this.banner, said ? [h("span", { class: "announce-from" }, "From the host: "), said.text] : []);
    this.banner.dataset.id = said ? said.id : "";
    if (said && (!before || before.id !== said.id)) {
      chime();
      buzz([120, 80, 120]);
    }
    if (this.callBox) this.drawCall();
    this.onChange(room);
  }

  /** This table's call, or null. */
  myCall() {
    return this.room ? this.room.calls.find((c) => c.table === this.table) || null : null;
  }

  drawCall() {
    const call = this.myCall();
    const at = call ? new Date(call.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
    fill(this.callBox,
      h("button", {
        type: "button", class: "btn secondary", id: "call-host", "aria-pressed": String(Boolean(call)),
        disabled: Boolean(call), onclick: () => this.call(),
      }, call ? "Host called" : "Call the host"),
      h("span", { class: "small", id: "call-state", role: "status" },
        call ? ` The host has been called (${at}) and will come to this table.` : ""));
  }

  async call() {
    try {
      this.set(await api(`${this.base}/tables/${this.table}/call`, {
        method: "POST", token: this.token, body: { command_id: commandId() },
      }));
    } catch (err) {
      toast(`The host was not called: ${err.text || err}`, "error", 6000);
    }
  }
}
