// The first request of a night's page, started while its script is still on the way.
//
// The server puts this script inside the page's HTML (bunco.web.assets: it runs as the
// page's <head> is read, allowed by its hash in the page's Content-Security-Policy). It
// asks for the state the page draws first (a table's page, or the whole night) with the
// token this browser holds for the page, so that the reply comes back while the page's
// script and stylesheet load instead of after them; api.js's firstReply() hands it to
// the page. A page with a token in its address (?token=, asked of the server first), a
// page without a token here, or any other page asks nothing. The host page also asks for
// the address phones use (its QR codes carry it): api.js's publicOrigin() takes it.
// A table's page under the service worker asks nothing here: the worker asked for that
// state as it handed out the page (sw.js).
(() => {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] !== "n" || parts.length < 3 || new URLSearchParams(location.search).has("token")) return;
  const night = decodeURIComponent(parts[1]);
  const table = Number.parseInt(parts[3] || "", 10);
  // the roles each page acts as, in the order the page itself looks for them (adoptToken)
  const roles = {
    table: [`table:${table}`, "host"], host: ["host"], screen: ["viewer", "host", "player"],
    end: ["host", "player", "viewer"],
  }[parts[2]];
  if (!roles || (parts[2] === "table" && !(table >= 1))) return;
  let token = null;
  try {
    for (const role of roles) {
      const kept = localStorage.getItem(`bunco:${night}:${role}`);
      if (kept) { token = JSON.parse(kept); break; }
    }
  } catch (_) { return; }
  if (!token) return;
  const base = `/api/nights/${encodeURIComponent(night)}`;
  const path = parts[2] === "table" ? `${base}/tables/${table}` : base;
  const first = { path, token, arrived: false, reply: null };
  window.buncoFirst = first;
  // a table's page under the service worker asks nothing here: the worker has asked
  // already, and writes the state into the page when it comes in time (else the page
  // takes the worker's reply itself: api.js's firstReply)
  if (parts[2] === "table" && navigator.serviceWorker && navigator.serviceWorker.controller) return;
  first.reply = fetch(path, {
    headers: { accept: "application/json", authorization: `Bearer ${token}` }, cache: "no-store",
  }).then(async (reply) => ({ ok: reply.ok, status: reply.status, text: await reply.text() }))
    // read whole before it counts as arrived (api.js's firstReply)
    .then((reply) => { first.arrived = true; return reply; },
      () => null);  // no connection: the page asks again and says so
  // the host page puts the address phones use in its QR codes: asked for at once too
  if (parts[2] === "host") {
    window.buncoAddress = fetch("/pages/address.json", { headers: { accept: "application/json" } })
      .then((reply) => (reply.ok ? reply.json() : null)).catch(() => null);
  }
})();
