// What a share link shows (/c/<club>/shared?token=…): one night's results, or a season's
// standings (under the club's rules) and every night with its results. Read-only: the
// link's token opens nothing else.

import { api, takeUrlToken } from "./api.js";
import { $, fill, h } from "./ui.js";

const parts = location.pathname.split("/").filter(Boolean);
const clubId = decodeURIComponent(parts[1] || "");
const base = `/api/clubs/${encodeURIComponent(clubId)}`;

function table(id, heads, rows) {
  return h("table", { class: "grid", id },
    h("thead", {}, h("tr", {}, heads.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, rows.map((r) => h("tr", { dataset: { player: r[1] } }, r.map((c) => h("td", {}, String(c)))))));
}

function nightSection(n, c) {
  const paid = n.payouts.map((p) => `${p.player} ${c}${p.amount} (${p.prize})`).join("; ");
  return h("section", { class: "night", dataset: { night: n.night } },
    h("h3", {}, `${n.label}${n.name ? " · " + n.name : ""}`),
    table(`night-${n.night}`, ["Place", "Player", "W", "L", "Buncos", "Minis", "Points", "Won"],
      n.results.map((r) => [r.place, r.player, r.wins, r.losses, r.buncos, r.mini_buncos, r.points, `${c}${r.won}`])),
    paid ? h("p", { class: "small" }, `Paid: ${paid}`) : null);
}

async function main() {
  const token = takeUrlToken() || sessionStorage.getItem(`bunco:share:${clubId}`);
  if (!token) {
    $("fatal").textContent = "Open the share link you were given.";
    $("fatal").hidden = false;
    return;
  }
  sessionStorage.setItem(`bunco:share:${clubId}`, token);
  let seen;
  try {
    seen = await api(`${base}/shared`, { token });
  } catch (err) {
    $("fatal").textContent = err.text || err.message;
    $("fatal").hidden = false;
    return;
  }
  const c = seen.currency;
  if (seen.shared === "season") {
    document.title = `${seen.club}: ${seen.season}`;
    $("shared-title").textContent = `${seen.club}: ${seen.season}`;
    $("shared-sub").textContent = `${seen.nights.length} nights played`;
    $("standings-card").hidden = false;
    $("rule").textContent = `Ranked by ${seen.rule}.`;
    fill("standings", table("shared-standings", ["#", "Player", "Nights", "Score", "W", "L", "Buncos", "Points", "Won"],
      seen.standings.map((r) => [r.rank ?? "–", r.player, r.nights, r.score, r.wins, r.losses, r.buncos, r.points, `${c}${r.won}`])));
    const q = `?token=${encodeURIComponent(token)}`;
    $("report").href = `${base}/download/season.html${q}`;
    $("report-pdf").href = `${base}/download/season.pdf${q}`;
    fill("archive", seen.nights.map((n) => nightSection(n, c)));
  } else {
    const n = seen.night;
    $("shared-title").textContent = `${seen.club}: ${n ? n.label : "a night"}`;
    document.title = $("shared-title").textContent;
    fill("archive", n ? nightSection(n, c) : h("p", {}, "This night's results are not kept on this server."));
  }
  $("content").hidden = false;
  document.body.dataset.ready = "yes";
}

main();
