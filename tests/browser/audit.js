// WCAG checks run in the page: controls without an accessible name, text below AA contrast.
// Used by conftest.audit(); returns a list of problems (empty when all is well).
(() => {
  const problems = [];
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none"
      && !el.closest("[hidden], dialog:not([open])");
  };
  const label = (el) => (el.getAttribute("aria-label") || el.getAttribute("alt") || el.getAttribute("title")
    || (el.labels && [...el.labels].map((l) => l.textContent).join(" ")) || el.textContent || "").trim();
  for (const el of document.querySelectorAll("button, a[href], input, select, textarea, img, [role=img]")) {
    if (!visible(el) || el.type === "hidden") continue;
    if (!label(el)) problems.push(`no accessible name: ${el.outerHTML.slice(0, 80)}`);
  }
  const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const c = rgb(getComputedStyle(node).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!el || seen.has(el) || !walker.currentNode.textContent.trim()) continue;
    seen.add(el);
    if (!visible(el) || el.closest("button:disabled, [aria-hidden=true], .toast")) continue;
    const s = getComputedStyle(el);
    if (Number(s.opacity) < 1) continue;
    const fg = rgb(s.color).slice(0, 3);
    const bg = background(el);
    const [a, b] = [lum(fg) + 0.05, lum(bg) + 0.05];
    const ratio = Math.max(a, b) / Math.min(a, b);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) {
      problems.push(`contrast ${ratio.toFixed(2)} for "${el.textContent.trim().slice(0, 30)}" (${el.tagName}.${el.className})`);
    }
  }
  return problems;
})
