// The pages offline: where the browser allows it (a secure origin: https, or this
// computer), a service worker (/sw.js) keeps the pages' files, so a table's page loads
// again without the connection, and the web app manifest (/manifest.webmanifest) makes the
// pages installable. Over plain http on the party's Wi-Fi, browsers refuse service
// workers: each table's outbox (outbox.js) still keeps every entry in the phone's storage
// and sends it as soon as the page loads again.

/** "offline-ready" (a service worker can keep the pages) or "outbox-only" (plain http). */
export function offlineMode() {
  return window.isSecureContext && "serviceWorker" in navigator ? "offline-ready" : "outbox-only";
}

/** Link the manifest and register the service worker (on a secure origin). */
export function registerOffline() {
  if (!document.querySelector("link[rel=manifest]")) {
    const link = document.createElement("link");
    link.rel = "manifest";
    link.href = "/manifest.webmanifest";
    document.head.append(link);
  }
  if (offlineMode() !== "offline-ready") return Promise.resolve(null);
  return navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
}

const FIRST_ASKS = "bunco-first-asks";  // the cache sw.js reads them from

/** Leave the service worker the address of this page's first state and the token it is
 * asked with, so that the worker asks for it as it opens this page next time (sw.js).
 * Nothing where there is no worker (plain http); a failure only costs that head start. */
export function keepFirstAsk(path, token) {
  if (offlineMode() !== "offline-ready" || !window.caches) return Promise.resolve();
  const kept = new Response(JSON.stringify({ path, token }), {
    headers: { "content-type": "application/json" },
  });
  return caches.open(FIRST_ASKS).then((cache) => cache.put(location.pathname, kept)).catch(() => {});
}

/** Take back what keepFirstAsk left for this page (its token no longer works). */
export function forgetFirstAsk() {
  if (!window.caches) return Promise.resolve();
  return caches.open(FIRST_ASKS).then((cache) => cache.delete(location.pathname)).catch(() => {});
}
