// Pieces drawn by several pages (host, big screen, player, end): a table's live card, the
// moves after a round, the roll-off, the prizes, the leaderboard and score cards.

import { movesOf, moveText } from "./live.js";
import { die, fill, h, kindLabel, names, ordinalTable, toast } from "./ui.js";

export const STATUS_WORDS = {
  first_roll: "rolling for high", playing: "playing", finishing: "finishing the turn",
  tie_break: "tie-break", done: "done",
};

function bar(score, target) {
  const fillEl = h("span", {});
  fillEl.style.width = `${Math.min(100, Math.round((100 * score) / Math.max(1, target)))}%`;
  return h("div", { class: "progress", "aria-hidden": "true" }, fillEl);
}

/** One table now: its sides and scores, who rolls, its state. ``tv`` for the big screen;
 * ``level``, its heading's element where the page's outline needs another one; ``view``,
 * the night's (then the card says whether the table's new seating is confirmed). */
export function tableCard(t, { tv = false, level = null, view = null } = {}) {
  const winners = new Set(t.winners);
  const sides = t.team
    ? [["us", t.teams[0], t.team_scores[0]], ["them", t.teams[1], t.team_scores[1]]]
    : t.players.map((p, i) => [i % 2 ? "them" : "us", [p], t.points[i]]);
  const head = t.table === 1;
  const badge = h("span", { class: `badge ${t.status}`, dataset: { status: t.status } },
    STATUS_WORDS[t.status] || t.status);
  const rows = sides.map(([cls, players, score]) => {
    const won = players.some((p) => winners.has(p));
    // a ghost's seat is labelled: its partner rolls for it, its points are nobody's
    const ghost = players.some((p) => !p) ? h("span", { class: "ghost" }, players.length > 1 ? " + ghost" : "ghost") : null;
    const who = names(players);
    return h("div", { class: `tv-side ${cls}${won ? " won" : ""}`,
      "aria-label": `${who || "ghost"}${ghost && who ? " and a ghost" : ""}: ${score}${won ? ", won" : ""}` },
    h("span", { class: "names" }, who, ghost), h("span", { class: "score" }, score),
    bar(score, t.target));
  });
  // between rounds the line of who rolls says whether the table's players have sat down
  const moving = view && view.phase === "playing" && (view.seating_waits || []).includes(t.table);
  const confirmed = view && !moving && t.rolls === 0 && (view.seating_confirmed || []).includes(t.table);
  const roller = moving
    ? h("p", { class: "tv-roller", dataset: { seating: "moving" } }, "Players moving to their new seats")
    : t.roller
      ? h("p", { class: "tv-roller", dataset: confirmed ? { seating: "confirmed" } : {} },
        `${confirmed ? "Seated · " : ""}${t.roller} rolls${t.in_turn ? " (on a roll)" : ""}`)
      : h("p", { class: "tv-roller" }, t.winners.length ? `${names(t.winners)} win` : "");
  let tie = null;
  if (t.tie_break) {
    const label = (s) => (t.team ? names(t.teams[s]) : t.players[s]);
    const scores = t.team ? t.team_scores : t.points;
    const level = scores[t.tie_break.sides[0]];
    // the tie in one plain sentence, the rule's own (0–0 too: nobody scored before the bell)
    tie = [h("p", { class: "tv-roller tie-why" }, t.tie_break.why || `A tie at ${level}–${level}. ${t.tie_break.text}`),
      h("p", { class: "tv-roller" }, `Tie-break: ${t.tie_break.sides.map((s) => `${label(s)} ${t.tie_break.points[s]}`).join(" · ")}`)];
  }
  const heading = level || (tv ? "h2" : "h3");
  return h("article", {
    class: `${tv ? "tv-table" : "mini-table"}${head ? " head" : ""}`, dataset: { table: t.table, status: t.status },
    "aria-label": `${ordinalTable(t.table)}, ${STATUS_WORDS[t.status] || t.status}`,
  }, h(heading, {}, h("span", {}, ordinalTable(t.table)), badge), rows, roller, tie);
}

/** The moves after the last round: W/L, name, "Move to table 2, seat 3". */
export function movesList(view, { only = null } = {}) {
  const moves = movesOf(view).filter((m) => !only || only(m));
  if (!moves.length) return null;
  return h("ul", { class: "moves", "aria-label": `Moves after round ${view.last_round.round}` },
    moves.map((m) => h("li", { dataset: { player: m.player } },
      resultBadge(m),
      h("span", { class: "who" }, m.player),
      h("span", { class: "where" }, moveText(m)))));
}

/** A move's W/L of the round before, or "+" for a player new tonight (late or a substitute). */
export function resultBadge(move) {
  return move.result
    ? h("span", { class: `wl ${move.result}`, "aria-label": move.result === "W" ? "won" : "lost" }, move.result)
    : h("span", { class: "wl new", "aria-label": "new tonight" }, "+");
}

/** Dice tapped so far, by picker key: a page that redraws (a live update) keeps them. */
const picks = new Map();

/** The three dice to type real dice in, side by side: for each, its six faces drawn with
 * pips (48 px and up), each a toggle button named "Die 1 shows 3". Built once in ``box``;
 * drawing it again only marks the faces in ``picked`` (``[face or null] × 3``), so the
 * button just pressed keeps the keyboard's focus. ``onPick(die, face)`` after each tap. */
export function diceRows(box, picked, onPick) {
  if (!box.querySelector("button[data-face]")) {
    fill(box, [0, 1, 2].map((d) => h("div", { class: "one-die", role: "group", "aria-labelledby": `${box.id || "pick"}-die-${d + 1}` },
      h("span", { class: "die-name", id: `${box.id || "pick"}-die-${d + 1}` }, `Die ${d + 1}`),
      h("div", { class: "faces" }, [1, 2, 3, 4, 5, 6].map((f) => h("button", {
        type: "button", class: "face", "aria-pressed": "false", "aria-label": `Die ${d + 1} shows ${f}`,
        dataset: { die: d, face: f }, onclick: () => onPick(d, f),
      }, die(f, false, { decorative: true })))))));
  }
  for (const button of box.querySelectorAll("button[data-face]")) {
    button.setAttribute("aria-pressed", String(picked[Number(button.dataset.die)] === Number(button.dataset.face)));
  }
}

let pickers = 0;

/** Three dice to tap (real dice typed in), then ``label``: ``onEnter([a, b, c])``. With a
 * ``key``, the dice tapped so far survive the page being drawn again for the same key. */
export function dicePicker({ label, onEnter, id = "", key = "" }) {
  const picked = (key && picks.get(key)) || [null, null, null];
  if (key) { picks.clear(); picks.set(key, picked); }  // only the picker on screen remembers
  pickers += 1;
  const box = h("div", { class: "dicepick", id: `picker-${pickers}` });
  const enter = h("button", { type: "button", class: "btn wide", disabled: true, id: id || null,
    onclick: () => {
      if (picked.includes(null)) return;
      if (key) picks.delete(key);
      onEnter([...picked]);
    } }, label);
  const draw = () => {
    diceRows(box, picked, (d, f) => { picked[d] = f; draw(); });
    enter.disabled = picked.includes(null);
  };
  draw();
  return h("div", { class: "rolloff-dice" }, box, enter);
}

/** A roll-off between players at no table (a set's winner, a tied prize). ``onRoll(who,
 * dice)`` sends the real dice typed in, or ``null`` for the server's ("roll for me"); with
 * ``real`` (real dice at the tables) typing comes first. */
export function rolloffPanel(view, { canRoll = () => false, onRoll = null, tv = false, real = true } = {}) {
  const ro = view.rolloff;
  if (!ro) return null;
  const points = ro.rolling_for_order
    ? h("p", {}, `Each rolls three dice once: the highest total goes first (${names(ro.players)}).`)
    : h("div", { class: "rolloff-points" }, ro.order.map((p) => h("span", {
      class: p === ro.roller ? "now" : "" }, `${p}: ${ro.points[p] ?? 0}`)));
  const who = ro.roller;
  const mayRoll = onRoll && who && canRoll(who);
  const server = mayRoll
    ? h("button", { type: "button", class: real ? "btn secondary wide" : "btn wide", id: "rolloff-roll",
      dataset: { player: who }, "aria-label": `Roll for ${who} in the roll-off (the server's dice)`,
      onclick: () => onRoll(who, null) }, `Roll for ${who}`)
    : null;
  const typed = mayRoll ? [h("p", { class: "small muted" }, `Rolled real dice? Tap ${who}'s three dice:`),
    dicePicker({ label: `Enter ${who}'s dice`, id: "rolloff-enter", onEnter: (dice) => onRoll(who, dice),
      key: `${ro.purpose}|${who}|${JSON.stringify(ro.points)}` })] : null;
  const button = mayRoll ? (real ? [typed, server] : [server, typed]) : null;
  return [
    h(tv ? "h2" : "h2", {}, `Roll-off: ${ro.purpose}`),
    h("p", { class: "rolloff-why" }, ro.rolling_for_order
      ? "A tie is settled by a roll-off: first, each tied player rolls once to see who goes first."
      : `A tie is settled by a roll-off: each tied player rolls in turn, aiming for ${ro.round}s; the first to ${ro.goal} points wins.`),
    points,
    who ? h("h3", { class: "turn" }, `${who} rolls`) : null,
    button,
  ];
}

/** The winner of each set (or its roll-off due), as prize-list items. */
export function setWinnerItems(view) {
  const sets = (view.set_winners || []).filter((s) => s.winner || s.settled_by === "pending_roll_off");
  return sets.map((s) => h("article", { class: "prize", dataset: { prize: `set-${s.set}` } },
    h("h3", {}, `Winner of set ${s.set}`),
    h("div", { class: "winners" }, s.winner || "roll-off due"),
    h("p", { class: "small" }, settled(s.settled_by))));
}

/** The prizes: label, winners (or who rolls off), the figure. */
export function prizeList(view) {
  const prizes = view.prizes || [];
  const sets = setWinnerItems(view);
  if (!prizes.length && !sets.length) return null;
  const items = [
    ...sets,
    ...prizes.map((p) => {
      const label = p.group ? `${p.label} (${p.group})` : p.label;
      let who;
      if (p.winners.length) who = names(p.winners);
      else if (p.settled_by === "pending_roll_off") who = `${names(p.candidates)}: roll-off`;
      else who = "nobody";
      return h("article", { class: "prize", dataset: { prize: p.category, settled: p.settled_by } },
        h("h3", {}, label), h("div", { class: "winners" }, who),
        h("p", { class: "small" }, [p.value !== null && p.value !== undefined ? `${p.value} · ` : "", settled(p.settled_by)]));
    }),
  ];
  return h("div", { class: "prize-list" }, items);
}

function settled(by) {
  return {
    outright: "won outright", shared: "tie: shared", roll_off: "tie: won the roll-off",
    pending_roll_off: "tie: a roll-off decides", nobody: "nobody qualified", wins: "most W's",
    buncos: "tie on W's: most Buncos", settled: "",
  }[by] || by;
}

/** Players best first, each with their card: the server's one ranking (view.standings,
 * as GET /standings ranks them: sets won, W's, Buncos, points; the level share a rank). */
export function standingsOf(view) {
  return view.standings.map((s) => ({ ...view.players[s.player], ...s }));
}

export function leaderboard(view, { limit = Infinity, mini = "Minis" } = {}) {
  const rows = standingsOf(view).slice(0, limit);
  return h("table", { class: "grid", "aria-label": "Leaderboard" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col", class: "name" }, "Player"),
      h("th", { scope: "col" }, "W"), h("th", { scope: "col" }, "L"), h("th", { scope: "col" }, "Buncos"),
      h("th", { scope: "col" }, mini), h("th", { scope: "col" }, "Points"))),
    h("tbody", {}, rows.map((r) => h("tr", { dataset: { player: r.player } },
      h("td", {}, r.rank), h("td", { class: "name" }, r.player), h("td", {}, r.wins), h("td", {}, r.losses),
      h("td", {}, r.buncos), h("td", {}, r.mini_buncos), h("td", {}, r.points)))));
}

/** One player's score card: W/L in each round's column (per set), then the totals. */
export function scoreCard(name, card, sets = 1) {
  const marks = {};
  for (const r of card.rounds) marks[`${r.set}.${r.round}`] = r;
  const rounds = [1, 2, 3, 4, 5, 6];
  const rowsOf = [];
  for (let s = 1; s <= sets; s += 1) {
    rowsOf.push(h("tr", {}, h("th", { scope: "row", class: "name" }, sets > 1 ? `Set ${s}` : "W/L"),
      rounds.map((r) => {
        const m = marks[`${s}.${r}`];
        return h("td", { dataset: { round: r, set: s } },
          m ? h("span", { class: `wl ${m.result}`, title: `table ${m.table}` }, m.result) : "");
      })));
  }
  return h("table", { class: "grid card-grid", "aria-label": `Score card of ${name}`, dataset: { player: name } },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "name" },
      h("span", { class: "sr-only" }, sets > 1 ? "Set" : "Result")),
      rounds.map((r) => h("th", { scope: "col" }, `R${r}`)))),
    h("tbody", {}, rowsOf));
}

/** True when the head table has just rung the bell to start the round (no roll yet). A
 * table's page (``view.table``) knows its own table only. */
export function startBellRang(view, previous) {
  const tables = view.tables || [view.table];
  return Boolean(previous) && view.phase === "playing" && view.started && !previous.view.started
    && view.round === previous.view.round && tables.every((t) => !t || t.rolls === 0);
}

/** The head table's "start the round" button, between rounds; null otherwise. A tap sends
 * the bell with ``commands`` and reloads ``live``; ``then`` ends the toast that says so. */
export function startBellButton(view, { commands, live, base, then = "" }) {
  if (view.phase !== "playing" || view.started) return null;
  const ring = async () => {
    try {
      const ack = await commands.send(`${base}/start`, {});
      toast(`The bell has rung: round ${view.round} starts.${then}`);
      await live.acknowledge(ack);
    } catch (err) {
      toast(err.text || String(err), "error", 6000);
    }
  };
  return h("button", { type: "button", class: "btn wide", id: "start-round", onclick: ring },
    h("span", { class: "bell-icon", "aria-hidden": "true" }), ` Ring the bell: start round ${view.round}`);
}

// -- the bell and the roll that ended the round ---------------------------------------------------

/** "Ann: BUNCO! +21 (1 1 1) at table 2" for a roll the server described (entry or ending). */
export function rollText(roll, words) {
  const dice = roll.dice ? ` (${roll.dice.join(" ")})` : "";
  return `${roll.player}: ${kindLabel(roll.kind, roll.points, words)}${dice} at table ${roll.table}`;
}

/** The round's ending now on show: the bell's roll while the bell rings, else (between
 * rounds) the roll that ended the last round. ``{ended, over, roll}`` or null. */
export function endingOf(view) {
  if (view.phase === "playing" && view.bell && view.bell_roll) {
    return { over: false, roll: view.bell_roll };
  }
  const last = view.last_round;
  if (last && last.ended_by && !view.started) return { over: true, roll: last.ended_by };
  return null;
}

const WHY = {
  target: "rang the bell", bunco: "ended the round at every table", last_table: "ended the round",
};

/** The bell banner's words for ``ending`` (see endingOf), with the night's ``words``. */
export function endingText(ending, words) {
  const r = ending.roll;
  if (r.why === "time") {  // timed rounds: the round's clock rang the bell at zero
    return ending.over ? `Round ${r.round} is over — time ran out.` : "Time! The round's clock rang the bell.";
  }
  const what = `${rollText(r, words)} ${WHY[r.why] || "ended the round"}`;
  return ending.over ? `Round ${r.round} is over — ${what}.` : `The bell! ${what}.`;
}

/** A key that changes whenever a new bell or round ending appears. */
export const endingKey = (view) => {
  const e = endingOf(view);
  return e ? `${e.roll.set}.${e.roll.round}` : "";
};

/** True when this state brings a bell the page has not rung yet (not on first load). */
export function bellNews(view, previous) {
  if (!previous) return false;
  const key = endingKey(view);
  return Boolean(key) && key !== endingKey(previous.view);
}

/** Fill the page's bell banner (#bell, kept in view under the top bar) for ``view``;
 * ``extra`` is added to the words (e.g. "Finish your turn"). Returns whether it shows. */
export function drawBellBanner(view, extra = "") {
  const banner = document.getElementById("bell");
  if (!banner) return false;
  const top = document.querySelector(".sticky-top");
  if (top && banner.parentElement !== top) top.append(banner);
  const ending = endingOf(view);
  const text = document.getElementById("bell-text");
  banner.hidden = !ending;
  banner.dataset.over = String(Boolean(ending && ending.over));
  if (ending) {
    text.textContent = `${endingText(ending, view.words)}${extra ? ` ${extra}` : ""}`;
    banner.dataset.round = String(ending.roll.round);
    banner.dataset.table = String(ending.roll.table);
  }
  document.body.dataset.ending = endingKey(view);
  return Boolean(ending);
}
