// Who should sit where at a table this round, for the people at it to check: each seat's
// number and player (a ghost's seat named so), and at a team table who partners whom
// (partners sit across: seats 1 and 3, 2 and 4).

import { h, names } from "./ui.js";

/** The seats of table view ``t`` as a short list; null when there is no table. */
export function seatList(t) {
  if (!t || !t.players || !t.players.length) return null;
  const seats = t.players.map((p, i) => h("li", { dataset: { seat: i + 1, player: p || "" } },
    h("span", { class: "seat-no" }, `Seat ${i + 1}`), " ", p || h("em", {}, "ghost (partner rolls)")));
  const partners = t.team && t.teams
    ? h("p", { class: "small", id: "partners" }, "Partners: ",
      t.teams.map((team) => names(team.map((p) => p || "ghost"))).join(" · "))
    : null;
  return [h("h2", { id: "seats-title" }, "Who sits where this round"),
    h("ol", { class: "seat-list", "aria-labelledby": "seats-title" }, seats), partners];
}
