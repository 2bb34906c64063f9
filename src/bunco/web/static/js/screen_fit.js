// The big screen's fit: every table in one grid that fills the space it has (10 to 250
// tables), and lists (the leaderboard, the moves) split into columns of the rows that fit,
// in pages only when even the columns cannot hold them all. Pure arithmetic first (tested
// through the page), then the drawing of the paged columns.

import { h } from "./ui.js";

/** What a table's tile shows, richest first, and the least room (px) it needs for that:
 * ``full`` names, scores, bars and who rolls; ``compact`` names and scores; ``tiny`` the
 * table's number and its two scores (its state as a colour, in words for screen readers).
 * Before a round a tile too small for names beside scores may show, instead, who sits
 * there, a name a line: ``seats``, measured for the night's names (:func:`seatsDensity`). */
export const DENSITIES = [
  { name: "full", width: 300, height: 165 },
  { name: "compact", width: 160, height: 94 },
  { name: "tiny", width: 62, height: 50 },
];

/** The grid for ``count`` tiles in a ``width`` × ``height`` box with ``gap`` px between
 * them: the richest of ``densities`` some number of columns fits, and the columns that
 * make its tiles largest. ``{ density, columns, rows, tileWidth, tileHeight, scale }``; when
 * not even the last density fits, its grid that comes nearest (``fits: false``). */
export function fitGrid(count, width, height, gap = 8, densities = DENSITIES) {
  const n = Math.max(1, count);
  let best = null;
  for (const density of densities) {
    for (let columns = 1; columns <= n; columns += 1) {
      const rows = Math.ceil(n / columns);
      const tileWidth = (width - gap * (columns - 1)) / columns;
      const tileHeight = (height - gap * (rows - 1)) / rows;
      const scale = Math.min(tileWidth / density.width, tileHeight / density.height);
      if (!best || (best.density === density.name && scale > best.scale)) {
        best = { density: density.name, columns, rows, tileWidth, tileHeight, scale, fits: scale >= 1 };
      }
    }
    if (best.fits) return best;
    best = density === densities[densities.length - 1] ? best : null;
  }
  return best;
}

let ruler = null;  // a canvas to measure names with, made once

/** The ``seats`` density for the tiles in ``box`` (each with its ``ol.seat-names``): the
 * room (px) a tile needs to show its longest name (every name measured in the names'
 * font) and as many lines as the fullest table has seats, drawn with the box's fonts at
 * ``--s: 1`` and measured. */
export function seatsDensity(box) {
  const tiles = [...box.children];
  const seats = (tile) => tile.querySelectorAll(".seat-names li").length;
  const fullest = tiles.reduce((a, b) => (seats(b) > seats(a) ? b : a), tiles[0]);
  const before = { density: box.dataset.density, s: box.style.getPropertyValue("--s") };
  box.dataset.density = "seats";
  box.style.setProperty("--s", "1");
  const probe = fullest.cloneNode(true);
  Object.assign(probe.style, { position: "absolute", visibility: "hidden", width: "max-content", height: "auto" });
  box.append(probe);
  const list = probe.querySelector(".seat-names");
  const first = list.querySelector("li");
  ruler = ruler || document.createElement("canvas").getContext("2d");
  if (first) {
    const font = getComputedStyle(first);
    ruler.font = `${font.fontStyle} ${font.fontWeight} ${font.fontSize} ${font.fontFamily}`;
  }
  const widest = Math.max(0, ...[...box.querySelectorAll(".seat-names li")].map((li) => ruler.measureText(li.textContent).width));
  list.style.minWidth = `${Math.ceil(widest) + 1}px`;
  const r = probe.getBoundingClientRect();
  probe.remove();
  box.dataset.density = before.density || "";
  box.style.setProperty("--s", before.s);
  return { name: "seats", width: Math.ceil(r.width), height: Math.ceil(r.height) };
}

/** ``items`` cut into pages of ``columns`` columns of ``perColumn`` rows:
 * ``[[column, …], …]`` (a page, its columns, their items). */
export function pagesOf(items, perColumn, columns) {
  const per = Math.max(1, perColumn);
  const cols = [];
  for (let i = 0; i < items.length; i += per) cols.push(items.slice(i, i + per));
  const pages = [];
  for (let i = 0; i < cols.length; i += Math.max(1, columns)) pages.push(cols.slice(i, i + columns));
  return pages.length ? pages : [[[]]];
}

/** A list drawn in columns that fill ``box`` and, when they cannot hold every item, in
 * named pages ("Leaderboard, page 2 of 3 (11–20)"), one shown at a time.
 *
 * ``head()`` builds one column's header row (each column repeats it, so the header never
 * scrolls away), ``row(item)`` one item's row; ``label`` names the list. The row height is
 * measured from a drawn row, and a column's width from the widest item (``widest``), so
 * the same code fits any font size. Returns the number of pages drawn; ``showPage(box, n)``
 * shows page ``n``. */
export function drawColumns(box, items, { head, row, label, widest = items[0], minRows = 4 }) {
  const width = box.clientWidth;
  const probe = columnTable([widest].filter(Boolean), head, row, label);
  probe.style.flex = "none";
  box.replaceChildren(probe);
  const columns = Math.max(1, Math.floor((width + GAP) / (probe.getBoundingClientRect().width + GAP)));
  const headHeight = probe.tHead.getBoundingClientRect().height;
  const firstRow = probe.tBodies[0].rows[0];
  const rowHeight = firstRow ? firstRow.getBoundingClientRect().height : headHeight;
  // the room left under the page line (drawn later, measured by the box's padding-top)
  const room = box.clientHeight - headHeight - 2;
  let perColumn = Math.max(minRows, Math.floor(room / Math.max(1, rowHeight)));
  if (items.length <= perColumn * columns) perColumn = Math.ceil(items.length / columns);
  const pages = pagesOf(items, perColumn, columns);
  const drawn = pages.map((page, p) => {
    const first = pages.slice(0, p).flat().reduce((sum, col) => sum + col.length, 0) + 1;
    const last = first + page.reduce((sum, col) => sum + col.length, 0) - 1;
    const name = pages.length > 1 ? `${label}, page ${p + 1} of ${pages.length} (${first}–${last})` : label;
    return h("div", {
      class: "fit-page", role: "group", "aria-label": name,
      dataset: { page: p + 1, first, last }, hidden: p > 0,
    }, page.map((col) => columnTable(col, head, row, label)));
  });
  box.replaceChildren(...drawn);
  box.dataset.pages = String(pages.length);
  box.dataset.page = "1";
  return pages.length;
}

/** The width (px) of one column holding ``item`` (the widest), drawn in ``box`` to measure
 * it with the box's fonts; the box is left empty. */
export function columnWidth(box, item, head, row) {
  const probe = columnTable([item].filter(Boolean), head, row, "");
  probe.style.flex = "none";
  box.replaceChildren(probe);
  const width = probe.getBoundingClientRect().width;
  box.replaceChildren();
  return width;
}

const GAP = 10;  // px between columns (.fit-page's gap)

function columnTable(items, head, row, label) {
  return h("table", { class: "grid fit-column", "aria-label": label },
    h("thead", {}, head()), h("tbody", {}, items.map(row)));
}

/** Show page ``n`` (1-based) of the paged columns in ``box``. */
export function showPage(box, n) {
  for (const page of box.querySelectorAll(":scope > .fit-page")) {
    page.hidden = Number(page.dataset.page) !== n;
  }
  box.dataset.page = String(n);
}
