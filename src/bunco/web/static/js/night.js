// The links the server prints (/night/<id>?token=...): learn the token's role, keep the
// token on this phone and open the page for it. A viewer link offers the player page
// (follow your own card) and the big screen.

import { adoptToken, api, pathParts, rememberNight } from "./api.js";
import { $, applyLargeText, fill, h } from "./ui.js";

async function main() {
  applyLargeText();
  const night = pathParts().night;
  let held;
  try {
    held = await adoptToken(night, ["host", "player", "viewer"]);
  } catch (err) {
    $("night-status").textContent = "";
    $("night-error").textContent = err.text || String(err);
    $("night-error").hidden = false;
    return;
  }
  if (!held) {
    $("night-status").textContent = "This link has no token: ask the host for the night's link.";
    return;
  }
  const base = `/n/${encodeURIComponent(night)}`;
  const role = held.role;
  if (role === "host") return location.replace(`${base}/host`);
  if (role.startsWith("table:")) return location.replace(`${base}/table/${role.slice(6)}`);
  if (role === "player") return location.replace(`${base}/player`);
  try {
    const state = await api(`/api/nights/${encodeURIComponent(night)}`, { token: held.token });
    $("title").textContent = state.name;
    rememberNight(night, state.name, "viewer", `/night/${night}`);
  } catch (_) { /* the choices still work */ }
  $("night-status").textContent = "What is this screen for?";
  const nav = fill("choices",
    h("p", {}, h("a", { class: "btn wide", href: `${base}/player` }, "I'm playing: follow my card")),
    h("p", {}, h("a", { class: "btn secondary wide", href: `${base}/screen` }, "Big screen (TV)")),
    h("p", {}, h("a", { class: "btn secondary wide", href: `${base}/end` }, "Results")));
  nav.hidden = false;
}

main();
