// The screen and player links that hosts' phones made (a co-host's "Big screen" link and
// player QR carry one: GET/DELETE .../viewer-links), at the foot of the co-hosts card: who
// made each, and a button that stops one (a second tap confirms). Stopping a co-host stops
// the links their phone made, so the list is read again whenever the co-hosts list changes.

import { api } from "./api.js";
import { fill, h, toast } from "./ui.js";

/** Who made a link, in words: "a host's phone" or "Bea's phone (co-host 2)". */
function maker(madeBy) {
  const found = /^co-host (\d+)(?: · (.+))?$/.exec(madeBy);
  if (!found) return "a host's phone";
  return found[2] ? `${found[2]}'s phone (co-host ${found[1]})` : `co-host ${found[1]}'s phone`;
}

/** The block, at the end of ``card`` (the co-hosts card). Returns ``{ refresh }``. */
export function initViewerLinks({ card, cohosts, base, token }) {
  const list = h("ul", { class: "cohosts", id: "viewer-links" });
  const note = h("p", { class: "small muted", id: "viewer-links-note", role: "status" });
  const block = h("div", { id: "viewer-links-block", hidden: true },
    h("h3", { id: "viewer-links-title" }, "Screen and player links"),
    h("p", { class: "small muted" }, "Links that only show the night (a big screen, the players' page), made on hosts' phones. Stop one if it went to the wrong person; stopping a co-host stops theirs too."),
    list, note);
  card.append(block);

  async function stop(link, button) {
    if (button.dataset.sure !== "yes") {
      button.dataset.sure = "yes";
      button.textContent = `Tap again to stop link ${link.id}`;
      return;
    }
    try {
      await api(`${base}/viewer-links/${link.id}`, { method: "DELETE", token });
      toast(`Link ${link.id} is stopped: its screen goes blank.`);
      await refresh();
    } catch (err) {
      toast(err.text || String(err), "error", 6000);
    }
  }

  async function refresh() {
    try {
      const { links } = await api(`${base}/viewer-links`, { token });
      const live = links.filter((link) => !link.revoked);
      block.hidden = live.length === 0;
      fill(list, live.map((link) => h("li", { dataset: { viewerLink: link.id } },
        h("span", { class: "grow" }, `Link ${link.id}, made on ${maker(link.made_by)}`),
        h("button", { type: "button", class: "btn danger small",
          onclick: (ev) => stop(link, ev.currentTarget) }, `Stop link ${link.id}`))));
    } catch (err) {
      note.textContent = err.text || String(err);
    }
  }

  // the co-hosts list is drawn again after a co-host is added or stopped: read ours again
  new MutationObserver(() => refresh()).observe(cohosts, { childList: true });
  refresh();
  return { refresh };
}
