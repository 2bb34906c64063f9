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
