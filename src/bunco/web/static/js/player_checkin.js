// "I'm here" on the player's own phone (docs/room.md): before round 1, a player who scanned
// the night's player QR and picked their name checks themselves in at the door with one
// tap; the host's door list follows. Their door card's QR code is here too ("show this at
// the door"): the host's phone scans it and checks them in (door.js). The card goes once
// round 1's first roll is in.

import { api, commandId } from "./api.js";
import { fill, h, toast } from "./ui.js";

const time = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/** The card in ``box``. Returns ``{ onMessage }``. */
export function initPlayerCheckin({ box, base, token, me }) {
  let busy = false;
  const draw = (mine) => {
    box.hidden = !(mine && mine.open && mine.seated);
    if (box.hidden) return;
    fill(box, mine.here
      ? [h("h2", {}, "Checked in ✓"),
        h("p", { id: "checkin-state" }, `The host knows you are here (since ${time(mine.at)}).`)]
      : [h("h2", {}, "At the door?"),
        h("p", { class: "muted" }, "Tap when you arrive: the host sees you are here before round 1."),
        h("button", { type: "button", class: "btn wide", id: "im-here", onclick: mark }, `I'm here: ${me}`),
        mine.door_url ? h("figure", { class: "door-qr", id: "door-qr" },
          h("img", { class: "qr", src: `/api/qr.svg?text=${encodeURIComponent(mine.door_url)}`,
            alt: `QR code: ${me}'s door card`, width: "220", height: "220" }),
          h("figcaption", {}, "Or show this at the door: the host scans it.")) : ""]);
  };
  async function refresh() {
    try {
      draw(await api(`${base}/checkin/me`, { token }));
    } catch { /* offline: the next message tries again */ }
  }
  async function mark() {
    if (busy) return;
    busy = true;
    try {
      await api(`${base}/checkin`, { method: "POST", token, body: { command_id: commandId(), player: me } });
      toast("You are checked in.");
    } catch (err) {
      toast(err.text || String(err), "error", 6000);
    }
    busy = false;
    refresh();
  }
  refresh();
  return {
    // round 1 began (an entry at my table, or the status pushed from another's first
    // roll), or a mark changed at the door: read it again
    onMessage: (m) => {
      if (!box.hidden && ["event", "status", "checkin"].includes(m.type)) refresh();
    },
  };
}
