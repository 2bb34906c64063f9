"""The service worker keeps every script a night's page imports, so a page reloaded
without the connection finds all its modules (sw.js ``SHELL``)."""

from __future__ import annotations

import re

from bunco.web.assets import STATIC, Assets


def shell_modules() -> tuple[list[str], set[str]]:
    text = (STATIC / "sw.js").read_text(encoding="utf-8")
    pages = re.findall(r'"(\w+)"', re.search(r"const PAGES = \[([^\]]*)\]", text).group(1))
    listed = re.search(r"\.\.\.\[([^\]]*)\]\.map\(\(m\) => `/static/js/\$\{m\}\.js`\)", text)
    assert listed is not None
    return pages, {f"js/{m}.js" for m in re.findall(r'"(\w+)"', listed.group(1))}


def test_every_module_of_every_offline_page_is_kept() -> None:
    pages, kept = shell_modules()
    files = Assets(STATIC)
    assert {"table", "host", "player"} <= set(pages)
    for page in pages:
        needed = {f"js/{page}.js", *files.modules(f"js/{page}.js")}
        assert needed <= kept, (page, sorted(needed - kept))
    assert "js/versions.js" in files.modules("js/table.js")
