// The service worker of the Bunco pages (registered by pwa.js on a secure origin: https
// or this computer). It keeps the pages' own files (HTML shells, scripts, styles) so that
// a page opens again at once, and without the connection; it never keeps a reply of the
// API (the night's state, the rolls): those always come from the server (a table's first
// state too, which this worker may ask for early: below), and the table page keeps its
// entries in its own outbox until the server answers (outbox.js).
//
// The server fills in VERSION (the hash of all the pages' files) and FILES (each night
// page's shell and the versioned files it names) as it sends this script
// (bunco.web.pages.assets), so a server with other pages sends another worker: the browser,
// which checks this script at each visit, installs it, it keeps that version's files in
// a cache of its own, and the old cache goes when it takes over. Within one version the
// files never change, so:
// - a page of a night (/n/<id>/table/<n>, /n/<id>/host, …) comes from its shell kept
//   here, the same HTML for every night, with no request at all (the network when the
//   shell is not kept);
// - the files of this version (/static/v/<VERSION>/…) come from here, then the network;
// - any other file of the pages: the network first, the copy kept here when it fails.
//
// A table's page also leaves here, once it is ready, the address of its first state and
// the token it asks with (keepFirstAsk in pwa.js, in a cache of its own: the same
// browser's storage as the token's own copy in localStorage). When the page is opened
// again this worker asks for that state as it hands out the page's shell, before the
// page exists: the reply is on its way while the phone builds the page, not only once
// the page's first lines run. The shell goes out at once up to the page's script; the
// state, when it comes within WAIT ms, is written in before that script (with the
// address and token it was asked with), so the script draws it at once: one drawing,
// the server's. Else the rest of the shell follows as it is, the page draws what it
// kept, and takes the state through /__first/<the state's address> (api.js), with its
// own token: a reply asked with another token, or none, and it is asked for again here
// with the page's.

const VERSION = "";
const FILES = [];

const CACHE = `bunco-pages-${VERSION}`;
const PAGES = ["table", "host", "player", "screen", "end"];
const OWN = `/static/v/${VERSION}/`;
const FIRST_ASKS = "bunco-first-asks";  // page address -> {path, token} (pwa.js), kept across versions
const FIRST = "/__first";  // the page's way (api.js) to the state this worker asked for early
const asked = new Map();  // page address -> its early ask (askFirst)
const WAIT = 250;  // ms a reopened table's shell waits for that state before the script

/** The routes the browser takes without this worker (where it can: Chrome 123 and up):
 * the API, never woken for (a reopened page's first state does not wait for the worker
 * to start), and this version's files, straight from their cache (Chrome 125 and up: a
 * reopened page's stylesheet and script do not wait for this worker's turn either). A
 * browser that refuses a route: the worker does the same itself (the fetch handler). */
async function addRoutes(event) {
  const api = { condition: { urlPattern: "/api/*" }, source: "network" };
  const own = { condition: { urlPattern: `${OWN}*` }, source: { cacheName: CACHE } };
  try {
    await event.addRoutes([api, own]);
  } catch {
    try { await event.addRoutes(api); } catch { /* none: the worker routes all */ }
  }
}

self.addEventListener("install", (event) => {
  if (event.addRoutes) event.waitUntil(addRoutes(event));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key !== CACHE && key !== FIRST_ASKS) await caches.delete(key);
    }
    // pages come from the shells kept here: the browser need not ask for them too
    if (self.registration.navigationPreload) await self.registration.navigationPreload.disable();
    await self.clients.claim();
  })());
});

/** The key of a night page's shell (/n/-/table/1 for /n/<id>/table/<n>), or null. */
function shellOf(url) {
  const parts = url.pathname.split("/").filter(Boolean);
  if (parts[0] !== "n" || !PAGES.includes(parts[2])) return null;
  return parts[2] === "table" ? "/n/-/table/1" : `/n/-/${parts[2]}`;
}

/** The early ask of the page at ``page`` (an address): ``ask``, the {path, token} that
 * page left here (null when none); ``reply``, the server's answer read whole ({path,
 * token, ok, status, type, text}; null when nothing is kept or the network fails). */
function askFirst(page) {
  const ask = caches.open(FIRST_ASKS).then((cache) => cache.match(page))
    .then((kept) => (kept ? kept.json() : null)).catch(() => null);
  const reply = ask.then(async (kept) => {
    if (!kept) return null;
    const answer = await fetch(kept.path, {
      headers: { accept: "application/json", authorization: `Bearer ${kept.token}` }, cache: "no-store",
    });
    const type = answer.headers.get("content-type") || "application/json";
    return { ...kept, ok: answer.ok, status: answer.status, type, text: await answer.text() };
  }).catch(() => null);
  return { ask, reply };
}

/** A table page's ask for its first state (api.js): the reply asked for early when asked with
 * the same token, else the server's answer to the page's own ask. */
async function firstState(request, url) {
  const path = url.pathname.slice(FIRST.length) + url.search;
  const page = request.headers.get("x-bunco-page");
  const early = asked.get(page);
  asked.delete(page);
  const auth = request.headers.get("authorization");
  const kept = early ? await early.ask : null;
  const same = Boolean(kept && kept.path === path && `Bearer ${kept.token}` === auth);
  const got = same ? await early.reply : null;
  if (got) return new Response(got.text, { status: got.status, headers: { "content-type": got.type } });
  const headers = { accept: "application/json" };
  if (auth) headers.authorization = auth;
  return fetch(path, { headers, cache: "no-store" });
}

/** A reopened table's kept shell, with the state this worker asked for early written
 * into it before the page's script (<script type="application/json" id="bunco-first">,
 * with the address and token it was asked with): the script then draws the server's
 * state at once (api.js's firstReply, when the page's own address and token are those),
 * one drawing instead of the kept page and then the server's. Only a state that came
 * within WAIT ms; else the shell as kept, and the page draws what it kept, then takes
 * the state through /__first/ (firstState). */
async function shellWithState(found, early, page) {
  const html = await found.text();
  const at = html.lastIndexOf("<script src=");
  const headers = new Headers(found.headers);
  headers.delete("content-encoding");  // the text here is decoded already
  headers.delete("content-length");
  if (at < 0) return new Response(html, { status: found.status, headers });
  const encoder = new TextEncoder();
  const body = new ReadableStream({
    async start(controller) {
      controller.enqueue(encoder.encode(html.slice(0, at)));  // read while the state comes
      const state = await Promise.race([
        early.reply.then((got) => (got && got.ok ? got : null)),
        new Promise((resolve) => { setTimeout(() => resolve(null), WAIT); }),
      ]);
      if (state) {
        // written in: a page that does not take it (another token) asks the server itself
        if (asked.get(page) === early) asked.delete(page);
        // JSON has "<" only inside strings, where \u003c reads the same: no "</script>"
        const json = state.text.replace(/</g, "\\u003c");
        const attr = (text) => String(text).replace(/&/g, "&amp;").replace(/"/g, "&quot;");
        controller.enqueue(encoder.encode(`<script type="application/json" id="bunco-first" `
          + `data-path="${attr(state.path)}" data-token="${attr(state.token)}">${json}</script>\n`));
      }
      controller.enqueue(encoder.encode(html.slice(at)));
      controller.close();
    },
  });
  return new Response(body, { status: found.status, headers });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(`${FIRST}/`)) {
    event.respondWith(firstState(request, url));
    return;
  }
  const shell = request.mode === "navigate" ? shellOf(url) : null;
  const early = shell === "/n/-/table/1" ? askFirst(url.pathname) : null;
  if (early) {
    asked.set(url.pathname, early);
    // a page that never asks (closed at once) leaves nothing behind
    setTimeout(() => { if (asked.get(url.pathname) === early) asked.delete(url.pathname); }, 30_000);
    event.waitUntil(early.reply);
  }
  if (!shell && !url.pathname.startsWith("/static/")) return;  // the API: always the server
  const key = shell || request;
  const kept = shell || url.pathname.startsWith(OWN);
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    if (kept) {
      const found = await cache.match(key);
      if (found && early) {
        return shellWithState(found, early, url.pathname).catch(() => cache.match(key));
      }
      if (found) return found;
    }
    try {
      const response = await fetch(request);
      if (response.ok) event.waitUntil(cache.put(key, response.clone()));
      return response;
    } catch (err) {
      const found = await cache.match(key, { ignoreSearch: true });
      if (found) return found;
      throw err;
    }
  })());
});

// -- a club member's notifications (club_member.js asks for them; bunco.web.club.push) --
// The server's notice arrives encrypted for this phone; it is shown, and a tap opens the
// member's page (its link's token is kept by that page).
self.addEventListener("push", (event) => {
  let notice;
  try { notice = event.data ? event.data.json() : {}; } catch { notice = { body: event.data.text() }; }
  event.waitUntil(self.registration.showNotification(notice.title || "Bunco club", {
    body: notice.body || "", tag: notice.tag, icon: "/static/icon-192.png", data: { url: notice.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil(self.clients.openWindow(url.href));
});
// -- end of the club member's notifications --
