// The versions a page sends back as ``expected_seq`` / ``based_on`` (docs/server.md): the
// night's (``round_version``: the seq of the last change of round or seating) and each
// table's (the seq of its last event), kept at the highest seen in any page, message or
// reply. One bookkeeping, owned by the page's Live (live.js); a table's page reads it.

export class Versions {
  constructor() {
    this.night = 0;
    this.tables = new Map();  // table number → the seq of its last event seen
  }

  /** A page's ``versions`` ({night, "1": seq, ...}) and ``status``, as a GET or hello has them. */
  notePage(page) {
    if (!page) return;
    const map = page.versions || {};
    for (const [key, seq] of Object.entries(map)) {
      if (typeof seq !== "number") continue;
      if (key === "night") this.night = Math.max(this.night, seq);
      else this.noteTable(Number(key), seq);
    }
    this.noteStatus(page.status);
  }

  /** A message or a reply: an event's seq at its table, and the night's round version. */
  noteMessage(message) {
    if (!message) return;
    if (message.versions) this.notePage({ versions: message.versions });
    if (message.type === "event" || message.type === undefined) {
      if (typeof message.table === "number" && typeof message.seq === "number") {
        this.noteTable(message.table, message.seq);
      }
    }
    this.noteStatus(message.status);
  }

  noteStatus(status) {
    if (status && typeof status.round_version === "number") {
      this.night = Math.max(this.night, status.round_version);
    }
  }

  noteTable(table, seq) {
    if (!Number.isInteger(table)) return;
    this.tables.set(table, Math.max(this.tables.get(table) || 0, seq));
  }

  /** What a command at ``table`` is based on: the later of the night's and the table's. */
  expected(table) {
    return Math.max(this.night, this.tables.get(table) || 0);
  }

  /** As a page's ``versions`` member (kept with the page for a reload offline). */
  asMap() {
    const map = { night: this.night };
    for (const [table, seq] of this.tables) map[String(table)] = seq;
    return map;
  }
}
