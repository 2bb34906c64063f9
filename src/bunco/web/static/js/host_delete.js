// The host page's "Delete this night", once the night is over: asks first (what is lost,
// and the results to download before), then DELETE /api/nights/<id>; every link and QR
// code of the night stops working. Its own block in host.html (#delete-card); host.js only
// imports it: it reads the night's phase from the page (body[data-phase], set by host.js)
// and the host's token from this browser's storage, and touches nothing else of the page
// until the night is deleted.

import { api, loadToken, pathParts, store } from "./api.js";

const { night } = pathParts();
const base = `/api/nights/${encodeURIComponent(night)}`;
const $ = (id) => document.getElementById(id);

function token() {
  return loadToken(night, "host");
}

/** Show the card when the night is over (and only then). */
function follow() {
  const card = $("delete-card");
  if (!card) return;
  const show = () => { card.hidden = document.body.dataset.phase !== "over"; };
  show();
  new MutationObserver(show).observe(document.body, { attributes: true, attributeFilter: ["data-phase"] });
}

function ask() {
  const held = token();
  const q = held ? `?token=${encodeURIComponent(held)}` : "";
  $("delete-results").href = `${base}/download/standings.csv${q}`;
  $("delete-results").setAttribute("download", `bunco-${night}-results.csv`);
  $("delete-report").href = `${base}/download/report.pdf${q}`;
  $("delete-report").setAttribute("download", `bunco-${night}-report.pdf`);
  $("delete-note").textContent = "";
  $("delete-confirm").showModal();
  $("delete-no").focus();
}

/** This browser's saved links and codes of the night: of no use any more. */
function forgetHere() {
  try {
    const prefix = `bunco:${night}:`;
    Object.keys(localStorage).filter((k) => k.startsWith(prefix)).forEach((k) => localStorage.removeItem(k));
  } catch { /* private mode: nothing kept */ }
  store(`${night}:created`, null);
}

function deleted() {
  const done = document.createElement("section");
  done.className = "card";
  done.id = "deleted-card";
  done.innerHTML = '<h1 tabindex="-1">The night is deleted</h1>'
    + "<p>Everything about it is gone from the server. Its links, QR codes and join codes no longer work.</p>"
    + '<p><a class="btn" href="/">Back to the start page</a></p>';
  // the whole page goes: the night's live line (now cut for good) would say "reconnecting"
  const main = document.createElement("main");
  main.id = "main";
  main.append(done);
  document.body.replaceChildren(main);
  done.querySelector("h1").focus();
}

async function remove() {
  const button = $("delete-yes");
  button.disabled = true;
  try {
    await api(base, { method: "DELETE", token: token() });
    $("delete-confirm").close();
    forgetHere();
    deleted();
  } catch (err) {
    $("delete-confirm").close();
    $("delete-note").textContent = err.status === 0
      ? "No connection to the server: nothing was deleted. Try again when you are back online."
      : `Nothing was deleted: ${err.text || err}`;
  } finally {
    button.disabled = false;
  }
}

function init() {
  if (!$("delete-card")) return;
  $("delete-night").addEventListener("click", ask);
  $("delete-no").addEventListener("click", () => $("delete-confirm").close());
  $("delete-yes").addEventListener("click", remove);
  follow();
}

init();
