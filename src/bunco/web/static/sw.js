// The service worker of the Bunco pages (registered by pwa.js on a secure origin: https
// or this computer). It keeps the pages' own files (HTML shells, scripts, styles) so that
// a table's page loads again without the connection; it never keeps or answers the API
// (the night's state, the rolls): those always go to the server, and the table page keeps
// its entries in its own outbox until the server answers (outbox.js).
//
// Files: the network first (a page always gets the newest while online), the copy kept
// here when the network fails. A page of a night (/n/<id>/table/<n>, /n/<id>/host, …) falls
// back to its shell, the same HTML for every night.

const CACHE = "bunco-pages-1";
const PAGES = ["table", "host", "player", "screen", "end"];
const SHELL = [
  "/static/app.css",
  ...PAGES.map((p) => `/static/${p}.html`),
  "/static/screen.css",
  ...["api", "live", "outbox", "parts", "phones", "pwa", "table", "ui", "versions", "room", "seat_list",
    "host", "host_checkin", "host_corrections", "host_dashboard", "host_seating", "money", "player",
    "screen", "screen_fit", "end", "high_totals", "player_checkin"].map((m) => `/static/js/${m}.js`),
];

self.addEventListener("install", (event) => {
  // the API never wakes this worker (where the browser can route it: Chrome 123 and up):
  // a reopened page's first state does not wait for the worker to start
  try {
    if (event.addRoutes) {
      event.waitUntil(event.addRoutes({ condition: { urlPattern: "/api/*" }, source: "network" })
        .catch(() => {}));
    }
  } catch (_) { /* a browser that refuses the route: the worker lets the API pass itself */ }
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    // a page's address is asked of the network while this worker starts, not after
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

/** The shell of a night's page (/n/<id>/<page>/...), or null. */
function shellOf(url) {
  const parts = url.pathname.split("/").filter(Boolean);
  if (parts[0] === "n" && PAGES.includes(parts[2])) return `/static/${parts[2]}.html`;
  return null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const shell = request.mode === "navigate" ? shellOf(url) : null;
  if (!shell && !url.pathname.startsWith("/static/")) return;  // the API: always the server
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = (shell && await event.preloadResponse) || await fetch(request);
      if (response.ok) await cache.put(shell || request, response.clone());
      return response;
    } catch (err) {
      const kept = await cache.match(shell || request, { ignoreSearch: true });
      if (kept) return kept;
      throw err;
    }
  })());
});
