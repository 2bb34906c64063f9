// Files a page offers to save, fetched with the page's token in the Authorization header,
// so that no link the page shows carries a token that can do more than read (a host's or
// a club organizer's): the link's address has no token; a click fetches the file and
// saves it under its name (or opens it, for a page to read).

/** The attributes of a link to ``url`` saved as ``name``, fetched with ``token``. */
export function authFile(url, token, name, { open = false } = {}) {
  return {
    href: url,
    download: open ? undefined : name,
    dataset: { authFile: name },
    onclick: (ev) => {
      ev.preventDefault();
      saveFile(url, token, name, open);
    },
  };
}

/** Fetch ``url`` with ``token`` and save it (or open it in a new tab, ``open``). */
export async function saveFile(url, token, name, open = false) {
  const reply = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  if (!reply.ok) throw new Error(`the file could not be made (${reply.status})`);
  const blob = URL.createObjectURL(await reply.blob());
  const a = document.createElement("a");
  a.href = blob;
  if (open) a.target = "_blank";
  else a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(blob), 60000);
}
