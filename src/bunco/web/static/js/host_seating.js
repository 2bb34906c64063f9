// The host's seating by hand (host page): between rounds, swap two players' seats in the
// seating of the round to come. Where the rules say partners may not play together two
// rounds in a row (scil, tournament) and the swap would keep a pair together, the server
// refuses it naming the rule; the page shows that refusal and offers to seat them so
// anyway, which sends the same seating saying it overrides the rule (the cards, the replay
// and the sheets then mark the round). Nothing about the rule is decided here.

import { $, fill, h, toast } from "./ui.js";

const RULE = "no_repeat_partners";
let ctx = null;
let refused = null; // the seating the server refused for the partner rule, until resolved
let key = "";

/** The seating of the round to come, or null when a round is under way or none comes. */
function upcoming(view) {
  if (view.phase !== "playing" || view.started || !view.next) return null;
  return view.next.tables;
}

/** ``tables`` with ``a`` and ``b`` in each other's seat. */
export function swapped(tables, a, b) {
  return tables.map((t) => t.map((p) => (p === a ? b : p === b ? a : p)));
}

async function seat(tables, overrides) {
  const { commands, live, base, before } = ctx;
  if (before && !(await before())) return;
  const body = overrides ? { tables, overrides } : { tables };
  try {
    const ack = await commands.send(`${base}/seating`, body);
    refused = null;
    await live.acknowledge(ack);
    toast(overrides ? "Seated as you chose: the cards mark the rule overridden." : "The seats are swapped.");
  } catch (err) {
    // the rule in words (not the JSON the API would take to override it: the button does that)
    if (!overrides && err.code === "partner_rule") refused = { tables, text: err.message || String(err) };
    else toast(err.text || String(err), "error", 6000);
  }
  key = "";
  updateSeatByHand(live.state);
}

/** Build the host's seating-by-hand card (once). */
export function initSeatByHand({ box, commands, live, base, before }) {
  ctx = { box, commands, live, base, before };
  fill(box,
    h("h2", { id: "seat-hand-title" }, "Seat by hand"),
    h("p", { class: "small muted" }, "Between rounds you may swap two players' seats for the round to come."),
    h("div", { id: "seat-hand-tables" }),
    h("form", { id: "swap-form" },
      h("label", { for: "swap-a" }, "Swap the seat of"),
      h("select", { id: "swap-a" }),
      h("label", { for: "swap-b" }, "with the seat of"),
      h("select", { id: "swap-b" }),
      h("p", {}, h("button", { type: "submit", class: "btn secondary", id: "swap-seats" }, "Swap their seats"))),
    h("div", { id: "seat-refused", class: "notice", role: "alert", hidden: true },
      h("p", { id: "seat-refused-text" }),
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn danger", id: "seat-anyway" }, "Seat anyway (override the rule)"),
        h("button", { type: "button", class: "btn secondary", id: "seat-keep" }, "Keep the seating"))));
  $("swap-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const tables = upcoming(live.state.view);
    const a = $("swap-a").value;
    const b = $("swap-b").value;
    if (!tables || !a || !b || a === b) return toast("Pick two different players to swap.", "error");
    seat(swapped(tables, a, b), null);
  });
  $("seat-anyway").addEventListener("click", () => refused && seat(refused.tables, [RULE]));
  $("seat-keep").addEventListener("click", () => {
    refused = null;
    key = "";
    updateSeatByHand(live.state);
  });
}

/** Bring the card up to date: shown between rounds only, with the seating to come. */
export function updateSeatByHand(state) {
  if (!ctx) return;
  const tables = upcoming(state.view);
  ctx.box.hidden = !tables;
  if (!tables) refused = null;
  const now = JSON.stringify([tables, refused]);
  if (now === key) return;
  key = now;
  $("seat-refused").hidden = !refused;
  $("seat-refused-text").textContent = refused
    ? `The seating was refused: ${refused.text.replace(/[.\s]+$/, "")}. Seat them so anyway? The score cards will say the host overrode the rule.` : "";
  if (!tables) return;
  fill("seat-hand-tables", h("ol", { class: "small", id: "seat-hand-list" }, tables.map((t, i) =>
    h("li", { dataset: { table: String(i + 1) } }, `Table ${i + 1}: ${t.map((p) => p || "ghost").join(", ")}`))));
  const names = tables.flat().filter(Boolean).sort();
  for (const id of ["swap-a", "swap-b"]) {
    const current = $(id).value;
    fill(id, names.map((p) => h("option", { value: p, selected: p === current }, p)));
  }
}
