// Timed rounds (house rule round_minutes): the round's clock on every page of the night.
//
// The count comes from the server, never from this device's own clock: the page asks
// GET /api/nights/<id>/clock when a round's clock appears in its state, and counts down
// the milliseconds the server said were left from the moment the reply came (a phone
// whose clock is wrong, or that opened the page late, shows the room's time). It asks
// again every half minute, and at zero: if the server's own timer has not rung the bell
// yet, that request rings it. The bell itself reaches the page like any bell (the live
// stream's time_up: the page's bell banner and sound); the clock then reads "Time!".

import { api } from "./api.js";
import { h } from "./ui.js";

const RESYNC_MS = 30_000;

/** "4:05": minutes and seconds left, rounded up (a countdown never shows 0:00 early). */
export function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

export class RoundClock {
  /**
   * @param {object} o
   * @param {string} o.night  the night id
   * @param {string} o.token  any token of the night
   * @param {string} [o.size]  "tv" for the big screen's large figures
   */
  constructor({ night, token, size = "" }) {
    Object.assign(this, { night, token });
    this.box = h("p", { id: "round-clock", class: `round-clock${size ? ` ${size}` : ""}`, role: "timer", hidden: "" },
      h("span", { class: "round-clock-label" }, "Round clock"), " ",
      h("strong", { class: "round-clock-time" }, ""));
    this.key = "";       // the clock on show: set.round.start, and whether it has rung
    this.reply = null;   // the server's last answer, and when it came (performance.now())
    this.at = 0;
    this.asked = null;   // the request under way
    this.zeroAsked = ""; // the clock whose zero this page has reported
    this.timer = setInterval(() => this.tick(), 250);
  }

  /** Show the clock of ``view`` (a night's or a table's page state) after ``anchor``. */
  follow(view, anchor) {
    if (anchor && this.box.parentElement !== anchor.parentElement) anchor.after(this.box);
    const clock = view && view.phase === "playing" ? view.clock : null;
    const key = clock ? `${clock.set}.${clock.round}.${clock.started_at}.${clock.rung}` : "";
    if (key === this.key) return;
    this.key = key;
    if (!clock) {
      this.reply = null;
      this.draw();
      return;
    }
    this.sync();
  }

  /** Ask the server for the clock now (one request at a time). */
  async sync() {
    if (this.asked) return this.asked;
    const url = `/api/nights/${encodeURIComponent(this.night)}/clock`;
    this.asked = (async () => {
      try {
        const reply = await api(url, { token: this.token });
        this.reply = reply;
        this.at = performance.now();
      } catch {
        // offline: keep counting from the last answer; the next tick asks again
      } finally {
        this.asked = null;
      }
      this.draw();
    })();
    return this.asked;
  }

  /** Milliseconds left now, from the server's last answer. */
  left() {
    if (!this.reply || !this.reply.clock) return 0;
    return this.reply.remaining_ms - (performance.now() - this.at);
  }

  tick() {
    if (!this.key || !this.reply) return;
    const clock = this.reply.clock;
    if (clock && !clock.rung && this.left() <= 0 && this.zeroAsked !== this.key) {
      this.zeroAsked = this.key;  // at zero: ask once (rings the bell if nothing has)
      this.sync();
    } else if (performance.now() - this.at > RESYNC_MS) {
      this.sync();
    }
    this.draw();
  }

  draw() {
    const clock = this.key && this.reply ? this.reply.clock : null;
    this.box.hidden = !clock;
    document.body.dataset.clock = clock ? (clock.rung ? "rung" : "running") : "";
    if (!clock) return;
    const time = this.box.querySelector(".round-clock-time");
    const left = this.left();
    const text = clock.rung || this.key.endsWith(".true") ? "Time! The bell has rung" : clockText(left);
    if (time.textContent !== text) time.textContent = text;
    this.box.dataset.left = String(Math.max(0, Math.ceil(left / 1000)));
    this.box.classList.toggle("ending", !clock.rung && left < 60_000);
    this.box.setAttribute("aria-label", clock.rung ? `Round ${clock.round}: time is up`
      : `Round ${clock.round} clock: ${clockText(left)} left`);
  }
}
