// The first request of a night's page, started while its script is still on the way.
//
// The server puts this script inside the page's HTML (bunco.web.pages.assets: it runs as the
// page's <head> is read, allowed by its hash in the page's Content-Security-Policy). It
// asks for the state the page draws first (a table's page, or the whole night) with the
// token this browser holds for the page, so that the reply comes back while the page's
// script and stylesheet load instead of after them; api.js's firstReply() hands it to
// the page. A page with a token in its address (?token=, asked of the server first), a
// page without a token here, or any other page asks nothing. The host page also asks for
// the address phones use (its QR codes carry it): api.js's publicOrigin() takes it, the
// tables' join codes and, on a phone that made none yet, a viewer link for the big screen
// (host.js takes them). A player's own page ("my card") asks who the player is, the table
// they sit at and that table's page, one after the other, all before its script runs
// (player.js takes them). A table's page under the service worker asks nothing here: the
// worker asked for that state as it handed out the page (sw.js).
(() => {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] !== "n" || parts.length < 3 || new URLSearchParams(location.search).has("token")) return;
  const night = decodeURIComponent(parts[1]);
  const base = `/api/nights/${encodeURIComponent(night)}`;
  const read = (reply) => reply.text().then((text) => ({ ok: reply.ok, status: reply.status, text }));
  if (parts[2] === "player") {
    let mine = null;
    try { mine = JSON.parse(localStorage.getItem(`bunco:${night}:player`) || "null"); } catch { return; }
    if (!mine) return;  // choosing a name: the page asks for the names itself
    const auth = { accept: "application/json", authorization: `Bearer ${mine}` };
    const json = (path) => fetch(path, { headers: auth, cache: "no-store" })
      .then((reply) => (reply.ok ? reply.json() : Promise.reject(reply.status)));
    window.buncoMine = json("/api/me").then(async (me) => {
      if (me.night !== night || !me.player) return null;
      const card = await json(`${base}/players/${encodeURIComponent(me.player)}/card`).catch(() => null);
      const table = card && card.table ? card.table : null;
      const path = table === null ? base : `${base}/tables/${table}`;
      const first = { path, token: mine, arrived: false, reply: null };
      first.reply = fetch(path, { headers: auth, cache: "no-store" }).then(read)
        .then((reply) => { first.arrived = true; return reply; }, () => null);
      window.buncoFirst = first;
      return { me, table };
    }).catch(() => null);
    return;
  }
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
  } catch { return; }
  if (!token) return;
  const path = parts[2] === "table" ? `${base}/tables/${table}` : base;
  const first = { path, token, arrived: false, reply: null };
  window.buncoFirst = first;
  // a table's page under the service worker asks nothing here: the worker has asked
  // already, and writes the state into the page when it comes in time (else the page
  // takes the worker's reply itself: api.js's firstReply)
  if (parts[2] === "table" && navigator.serviceWorker && navigator.serviceWorker.controller) return;
  const auth = { accept: "application/json", authorization: `Bearer ${token}` };
  first.reply = fetch(path, { headers: auth, cache: "no-store" }).then(read)
    // read whole before it counts as arrived (api.js's firstReply)
    .then((reply) => { first.arrived = true; return reply; },
      () => null);  // no connection: the page asks again and says so
  // the host page puts the address phones use in its QR codes: asked for at once too
  if (parts[2] === "host") {
    const json = (reply) => (reply.ok ? reply.json() : null);
    window.buncoAddress = fetch("/pages/address.json", { headers: { accept: "application/json" } })
      .then(json).catch(() => null);
    window.buncoCodes = { token, reply: fetch(`${base}/join-codes`, { headers: auth, cache: "no-store" })
      .then(json).catch(() => null) };
    let made;
    try { made = JSON.parse(localStorage.getItem(`bunco:${night}:created`) || "null"); } catch { made = null; }
    if (!made || !made.viewer_token) {  // a phone that made no night here: its own viewer link
      window.buncoViewer = { token, reply: fetch(`${base}/viewer-links`, { method: "POST", headers: auth })
        .then(json).catch(() => null) };
    }
  }
})();
