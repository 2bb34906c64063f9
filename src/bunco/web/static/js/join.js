// Join a table as its scorekeeper: a typed code (/join or /join/<code>) or the QR link
// (/join?token=...). The join credential is exchanged for this phone's table token.
// A page of the night sends its phones here with ?night=<id>: the typed code is then
// checked against that night's tables only (and a wrong one counts for that night alone).

import { api, rememberNight, saveToken, takeUrlToken } from "./api.js";
import { $, applyLargeText } from "./ui.js";

async function exchange(body) {
  $("join-status").textContent = "Joining…";
  $("join-error").hidden = true;
  try {
    const reply = await api("/api/join", { method: "POST", body });
    saveToken(reply.night, `table:${reply.table}`, reply.token);
    const href = `/n/${encodeURIComponent(reply.night)}/table/${reply.table}`;
    rememberNight(reply.night, `Table ${reply.table}`, `table:${reply.table}`, href);
    $("join-status").textContent = `You keep score at table ${reply.table}. Opening it…`;
    location.replace(href);
  } catch (err) {
    $("join-status").textContent = "";
    $("join-error").textContent = err.text || String(err);
    $("join-error").hidden = false;
    $("join-form").hidden = false;
  }
}

function main() {
  applyLargeText();
  const night = new URLSearchParams(location.search).get("night") || "";
  const typed = (code) => (night ? { code, night } : { code });
  $("join-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const code = $("join-code").value.replace(/[\s-]/g, "");
    if (code) exchange(typed(code));
  });
  const token = takeUrlToken();
  const parts = location.pathname.split("/").filter(Boolean);
  const code = parts[1] ? decodeURIComponent(parts[1]) : "";
  if (token) exchange({ token });
  else if (code) exchange(typed(code));
  else {
    $("join-status").textContent = "";
    $("join-form").hidden = false;
    $("join-code").focus();
  }
}

main();
