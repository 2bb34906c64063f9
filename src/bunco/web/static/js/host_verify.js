// The host page's "Verify cards" card (rules with verify_for_prizes, seeds/004): every
// player's card with its Buncos, Minis and Wins, grouped by team (each team has its own
// staff checker, whose name goes with every card of the team), a filter to show one team,
// and a Verify button per card, per team and for all. A card is done when it was verified
// at this break (after the round played last, or at the end) as it stands; at every break
// and at the end each card can be verified again, changed or not, as the seed has it.
// The checkers' names are kept in this browser (localStorage) for the night.

import { recall, store } from "./api.js";
import { $, fill, h, toast } from "./ui.js";

let ctx = null;  // { live, commands, base, night }
let key = "";
let busy = false;

const figuresOf = (c) => ({ buncos: c.buncos, mini_buncos: c.mini_buncos, wins: c.wins });
const sameFigures = (a, b) => Boolean(a && b) && a.buncos === b.buncos
  && a.mini_buncos === b.mini_buncos && a.wins === b.wins;
const samePoint = (a, b) => (a === null && b === null)
  || Boolean(a && b && a.set === b.set && a.round === b.round);

function groupsOf(state) {
  const groups = state.setup.groups || {};
  const of = {};
  for (const [g, members] of Object.entries(groups)) for (const m of members) of[m] = g;
  return { names: Object.keys(groups), of };
}

function checkerOf(group) {
  const box = document.querySelector(`input.checker[data-group="${CSS.escape(group || "")}"]`);
  const typed = box ? box.value.replace(/\s+/g, " ").trim() : "";
  return typed || null;
}

/** Every card: its figures now, as last verified, when, and whether it is done. */
export function verifyRows(state) {
  const verified = state.verified || {};
  const cards = (state.view.verification || {}).cards || {};
  const now = state.view.last_round ? { set: state.view.last_round.set, round: state.view.last_round.round } : null;
  const { of } = groupsOf(state);
  return Object.keys(state.view.players).sort((a, b) => a.localeCompare(b)).map((name) => {
    const card = figuresOf(state.view.players[name]);
    const checked = verified[name] || null;
    const seen = cards[name] || null;
    const current = sameFigures(card, checked);
    const done = current && Boolean(seen) && samePoint(seen.after, now);
    return { name, group: of[name] || "", card, checked, seen, current, done };
  });
}

function when(seen, state) {
  if (!seen) return "";
  const by = seen.checker ? ` by ${seen.checker}` : "";
  if (!seen.after) return `before round 1${by}`;
  const over = ["over", "rolloff"].includes(state.view.phase) && state.view.last_round
    && samePoint(seen.after, { set: state.view.last_round.set, round: state.view.last_round.round })
    && state.view.phase !== "playing";
  const round = state.view.sets > 1 ? `set ${seen.after.set} round ${seen.after.round}` : `round ${seen.after.round}`;
  return over ? `at the end${by}` : `after ${round}${by}`;
}

function row(r, state, mini) {
  const label = r.done ? "✓ Verified" : r.checked ? "Verify again" : "Verify";
  return h("tr", { dataset: { player: r.name, group: r.group, verified: r.done ? "yes" : r.current ? "earlier" : r.checked ? "changed" : "no" } },
    h("th", { scope: "row", class: "name" }, r.name),
    h("td", { dataset: { col: "buncos" } }, r.card.buncos),
    h("td", { dataset: { col: "mini_buncos" } }, r.card.mini_buncos),
    h("td", { dataset: { col: "wins" } }, r.card.wins),
    h("td", { class: r.done ? "check verified" : r.checked ? "check stale" : "check" },
      r.checked ? h("span", { class: "figures", dataset: { col: "verified" },
        title: `verified: ${r.checked.buncos} Buncos, ${r.checked.mini_buncos} ${mini}, ${r.checked.wins} Wins` },
      `${r.checked.buncos} · ${r.checked.mini_buncos} · ${r.checked.wins}`) : null,
      r.seen ? h("span", { class: "small when" }, when(r.seen, state)) : null,
      r.checked && !r.current ? h("span", { class: "small" }, "card changed since") : null,
      h("button", {
        type: "button", class: "btn secondary", dataset: { verify: r.name }, disabled: r.done || busy,
        "aria-label": `${label}: ${r.name}'s card`, onclick: () => verifyPlayers([r.name]),
      }, label)));
}

/** Draw the card from the night's state (nothing when the rules verify no cards). */
export function drawVerify(state) {
  if (!ctx) return;  // drawn once initVerify has the night
  const on = Boolean(state.view.verification && state.view.verification.required);
  $("verify-card").hidden = !on;
  if (!on) return;
  const rows = verifyRows(state);
  const { names } = groupsOf(state);
  const next = JSON.stringify([rows, busy, names, state.view.phase]);
  if (next === key) return;
  key = next;
  const shown = $("verify-team").value;
  fill("verify-team", h("option", { value: "" }, "every team"),
    names.map((g) => h("option", { value: g, selected: g === shown }, g)));
  $("verify-filter").hidden = names.length < 2;
  $("verify-single").hidden = names.length > 0;
  const mini = state.view.words.minis;
  const col = (text) => h("th", { scope: "col" }, text);
  const teams = names.length ? [...names, ...(rows.some((r) => !r.group) ? [""] : [])] : [""];
  const bodies = teams.map((g) => {
    const mine = rows.filter((r) => r.group === g || !names.length);
    const left = mine.filter((r) => !r.done).length;
    const head = names.length ? h("tr", { class: "group-row", dataset: { group: g } },
      h("th", { scope: "rowgroup", colspan: "5" },
        h("div", { class: "row" },
          h("strong", {}, g || "No team"),
          h("label", { class: "sr-only", for: `checker-${teams.indexOf(g) + 1}` }, `${g || "No team"}'s checker`),
          h("input", { type: "text", class: "checker grow", id: `checker-${teams.indexOf(g) + 1}`, maxlength: "60",
            placeholder: `${g || "No team"}'s checker`, autocomplete: "off", dataset: { group: g },
            value: recall(`${ctx.night}:checker:${g}`) || "",
            onchange: (ev) => store(`${ctx.night}:checker:${g}`, ev.target.value) }),
          h("button", { type: "button", class: "btn secondary verify-team", dataset: { group: g }, disabled: busy || !left,
            onclick: () => verifyPlayers(mine.filter((r) => !r.done).map((r) => r.name)) }, `Verify ${g || "them"}`)))) : null;
    return h("tbody", { dataset: { group: g }, hidden: Boolean(shown && g && g !== shown) }, head, mine.map((r) => row(r, state, mini)));
  });
  fill("verify-table", h("table", { class: "grid verify-grid", id: "verify-grid", "aria-label": "Cards to verify" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "name" }, "Player"), col("Buncos"), col(mini),
      col("Wins"), col("Verified"))), bodies));
  const left = rows.filter((r) => !r.done).length;
  $("verify-all").disabled = busy || left === 0;
  $("verify-card").dataset.left = String(left);
  const over = state.view.phase !== "playing";
  $("verify-note").textContent = busy ? "Verifying…"
    : left ? `${rows.length - left} of ${rows.length} cards verified ${over ? "at the end" : "at this break"}.`
      : `All ${rows.length} cards are verified ${over ? "at the end" : "at this break"}.`;
}

/** Verify the cards of ``list``, each with its team's checker (or the one checker). */
export async function verifyPlayers(list) {
  if (!list.length) {
    toast("Every card is verified at this break.");
    return;
  }
  const { live, commands, base } = ctx;
  const { of } = groupsOf(live.state);
  const single = $("checker").value.replace(/\s+/g, " ").trim();
  busy = true;
  drawVerify(live.state);
  let done = 0;
  try {
    for (const player of list) {
      const checker = Object.keys(of).length ? checkerOf(of[player] || "") : single || null;
      const body = checker ? { player, checker } : { player };
      const ack = await commands.send(`${base}/verifications`, body);
      live.acknowledge(ack).catch(() => {});
      done += 1;
    }
  } catch (err) {
    toast(err.text || String(err), "error", 6000);
  } finally {
    busy = false;
    await live.refresh().catch(() => {});
    drawVerify(live.state);
  }
  if (done) toast(done === 1 ? `${list[0]}'s card is verified.` : `${done} cards verified.`);
}

/** Wire the card's buttons (once the page has its night). */
export function initVerify({ live, commands, base, night }) {
  ctx = { live, commands, base, night };
  $("verify-all").addEventListener("click", () => {
    verifyPlayers(verifyRows(live.state).filter((r) => !r.done).map((r) => r.name));
  });
  $("verify-team").addEventListener("change", () => { key = ""; drawVerify(live.state); });
  drawVerify(live.state);
}
