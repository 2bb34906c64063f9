"""One script per page: a page's JavaScript modules joined into one script at start-up.

A page's modules (``table.js`` imports ``api.js``, ``live.js``, ``outbox.js``, … seven files)
each cost the phone a request; a browser opens six connections to a server, so the seventh
waits for one of the first six, a round trip more on a slow Wi-Fi. :func:`bundle` joins the
module graph of an entry into one script, each file in a function of its own (its names
stay its own), in the order the browser would run them (each import before the module
that imports it), every ``import { a, b as c } from "./x.js"`` turned into a read of that
file's exports. No tool is needed: the pages' modules keep to a plain form (named
imports, ``export function|class|const``, no cycle), and a file outside that form makes
:func:`bundle` return None: the page then loads its modules one by one as before.

Why not a bundler such as esbuild: it would join the same modules (and could minify
them), but it is a native program from npm, and ``make run`` must work on a machine with
nothing but Python; running it only where it happens to be installed would serve other
scripts on other machines, and checking its output into the repository would keep two
copies of every page's code. The pages' modules are few and plain, so the joiner keeps to
what a browser itself does with them: the same evaluation order (each import first, as a
browser runs an acyclic graph), each module's names in its own scope, strict mode (the
joined file starts with ``"use strict"``). What it cannot hold it refuses rather than guesses (a
default, star or list export, ``export let``, a namespace or dynamic import,
``import.meta``, a cycle). A top-level ``await`` is the one form it cannot see by pattern:
the tests parse every page's joined script as a module (``node``), which fails on it. Not
done, and what a bundler would add: minifying (the table page's script would be about a
quarter smaller in Brotli without its comments).

The joined file is valid both as a module and as a classic script (no import or export
is left, and the strict mode a module has is asked for), and the pages load it as a
classic script at the end of their body (:mod:`bunco.web.pages.assets`): measured on the
emulated slow phone (``benchmarks/pages.py``), a reopened table page was ready in
0.38-0.39 s that way against 0.58-0.59 s as a module, in one run, side by side.

>>> files = {"js/a.js": 'import { b as c } from "./b.js";\\nexport const a = c + 1;\\n',
...          "js/b.js": "export const b = 1;\\n"}
>>> print(bundle("js/a.js", files))
"use strict";
// js/b.js
const module_js_b = (() => {
const b = 1;
return { b };
})();
// js/a.js
(() => {
const { b: c } = module_js_b;
const a = c + 1;
})();
<BLANKLINE>
>>> bundle("js/a.js", {**files, "js/b.js": "export default 1;\\n"}) is None
True
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

# `import { a, b as c } from "./x.js";` (over several lines too) and `import "./x.js";`
NAMED_IMPORT = re.compile(
    r"""^import\s*\{([^}]*)\}\s*from\s*["'](\.{1,2}/[^"']+\.js)["'];?[ \t]*$""", re.M
)
BARE_IMPORT = re.compile(r"""^import\s*["'](\.{1,2}/[^"']+\.js)["'];?[ \t]*$""", re.M)
EXPORT = re.compile(r"^export\s+((?:async\s+)?function\*?|class|const)\s+([A-Za-z_$][\w$]*)", re.M)
# what the joined form cannot keep: default, star or list exports, `export let` (a live
# binding), namespace and dynamic imports, import.meta, and any other import statement
UNSUPPORTED = re.compile(
    r"^export\s+(?!(?:async\s+)?function|class|const)|^import\b|\bimport\s*\(|\bimport\.meta\b",
    re.M,
)


def bundle(entry: str, texts: dict[str, str]) -> str | None:
    """The module graph of ``entry`` (a path among ``texts``, the folder's scripts by path)
    as one script's text, or None when a file of it is not of the plain form (see above)
    or the graph has a cycle."""
    order: list[str] = []
    if not _visit(entry, texts, order, []):
        return None
    names = {path: "module_" + re.sub(r"\W", "_", path.removesuffix(".js")) for path in order}
    out: list[str] = ['"use strict";']
    for path in order:
        body = _rewrite(path, texts[path], names)
        if body is None:
            return None
        code, exported = body
        head = "(() => {" if path == entry else f"const {names[path]} = (() => {{"
        tail = "})();" if path == entry else f"return {{ {', '.join(exported)} }};\n}})();"
        out.append(f"// {path}\n{head}\n{code.strip()}\n{tail}")
    return "\n".join(out) + "\n"


def _visit(path: str, texts: dict[str, str], order: list[str], stack: list[str]) -> bool:
    """Add ``path``'s imports, then ``path``, to ``order`` (a module's imports run before
    it, in the order it names them). False on a cycle or a missing file."""
    if path in order:
        return True
    if path in stack or path not in texts:
        return False
    stack.append(path)
    for target in _targets(texts[path]):
        if not _visit(join(path, target), texts, order, stack):
            return False
    stack.pop()
    order.append(path)
    return True


def _targets(text: str) -> list[str]:
    """The files ``text`` imports, in the order it imports them."""
    found = [(m.start(), m.group(2)) for m in NAMED_IMPORT.finditer(text)]
    found += [(m.start(), m.group(1)) for m in BARE_IMPORT.finditer(text)]
    return [target for _, target in sorted(found)]


def _rewrite(path: str, text: str, names: dict[str, str]) -> tuple[str, list[str]] | None:
    """``text`` with its imports read from the other files' functions and ``export`` taken
    off, and the names it exports; None when it is not of the plain form."""

    def named(match: re.Match[str]) -> str:
        parts = []
        for item in match.group(1).split(","):
            words = item.split()
            if not words:
                continue
            if len(words) == 1:
                parts.append(words[0])
            elif len(words) == 3 and words[1] == "as":
                parts.append(f"{words[0]}: {words[2]}")
            else:
                raise ValueError(item)
        return f"const {{ {', '.join(parts)} }} = {names[join(path, match.group(2))]};"

    try:
        code = NAMED_IMPORT.sub(named, text)
    except ValueError:
        return None
    code = BARE_IMPORT.sub("", code)
    exported = [m.group(2) for m in EXPORT.finditer(code)]
    code = EXPORT.sub(lambda m: f"{m.group(1)} {m.group(2)}", code)
    if UNSUPPORTED.search(code):
        return None
    return code, exported


def join(importer: str, target: str) -> str:
    """The path of ``target`` (``./ui.js``) imported by ``importer`` (``js/table.js``).

    >>> join("js/lib/a.js", "../b.js")
    'js/b.js'
    """
    parts: list[str] = list(PurePosixPath(importer).parent.parts)
    for part in PurePosixPath(target).parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)
