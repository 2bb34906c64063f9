// The links the server prints (/night/<id>?token=...): learn the token's role, keep the
// token on this phone and open the page for it. A viewer link opens the big screen
// (players follow their own card from the player page's QR code).

import { adoptToken, pathParts, rememberNight } from "./api.js";
import { $, applyLargeText } from "./ui.js";

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
    $("night-status").textContent = "This link is missing its key to the night: ask the host for the night's link again.";
    return;
  }
  const base = `/n/${encodeURIComponent(night)}`;
  const role = held.role;
  if (role === "host") return location.replace(`${base}/host`);
  if (role.startsWith("table:")) return location.replace(`${base}/table/${role.slice(6)}`);
  if (role === "player") return location.replace(`${base}/player`);
  rememberNight(night, "Big screen", "viewer", `/night/${night}`);
  location.replace(`${base}/screen`);  // the viewer link opens the big screen
}

main();
