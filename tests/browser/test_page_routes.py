"""The page routes and their JSON helpers, without a browser (these run everywhere)."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")
import brotli  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from bunco.web.app import create_app  # noqa: E402
from bunco.web.pages.assets import STATIC, Assets, without_comment_lines  # noqa: E402

PAGES = [
    "/",
    "/join",
    "/join/ABC234",
    "/night/x1",
    "/n/x1/host",
    "/n/x1/table/2",
    "/n/x1/player",
    "/n/x1/screen",
    "/n/x1/end",
    "/n/x1/door/abcdefghijklmnop",
]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app("sqlite://", bot_pace=0)) as c:
        yield c


@pytest.mark.parametrize("path", PAGES)
def test_each_page_is_html_with_safe_headers(client: TestClient, path: str) -> None:
    reply = client.get(path)
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/html")
    assert reply.headers["referrer-policy"] == "no-referrer"
    csp = reply.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'self'" in csp
    # every script and stylesheet is served by this server (no CDN), under the versioned
    # address of today's files; the one inline script (a night's page starting its first
    # request) runs only by its hash, named in the page's policy
    # the page's joined script, a classic one at the end of its body (bunco.web.pages.bundle)
    # (the table's marked: its render waits for it, see test_a_page_loads_its_modules_...)
    assert re.search(
        r'<script src="/static/v/[0-9a-f]{12}/bundle/js/\w+\.js"( id="bunco-script")?></script>'
        r"\n</body>",
        reply.text,
    )
    assert ('id="bunco-script"' in reply.text) == ("/table/" in path)
    assert 'type="module"' not in reply.text
    inline = re.findall(r"<script>(.*?)</script>", reply.text, re.S)
    booted = path.startswith("/n/") and "/door/" not in path  # the player's page too
    assert len(inline) == (1 if booted else 0)
    for script in inline:
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        assert f"script-src 'self' 'sha256-{digest}';" in csp
        assert script == without_comment_lines((STATIC / "boot.js").read_text())
    assert "http://" not in reply.text.replace("http://www.w3.org", "")
    assert "https://" not in reply.text


def test_static_files_of_every_page_exist(client: TestClient) -> None:
    for path in PAGES:
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', client.get(path).text):
            assert client.get(asset).status_code == 200, asset


def test_presets_document(client: TestClient) -> None:
    data = client.get("/pages/presets.json").json()
    names = [p["name"] for p in data["presets"]]
    assert names == ["winning-moves", "classic", "scil", "tournament"]
    classic = data["presets"][1]
    assert classic["summary"].startswith("the usual party")
    assert classic["rules"]["after_bell"] == "finish_turn"
    fields = {f["name"]: f for f in data["fields"]}
    assert fields["wipeout"]["kind"] == "bool"
    assert fields["tie_break"]["choices"] == ["sessions", "roll_off_to_five", "sudden_death"]
    assert fields["low_trips_kind"]["choices"] == ["mini_bunco", "low_bunco", "high_bunco"]
    assert {"name": "last_bunco", "label": "Last Bunco"} in data["prizes"]


def test_rules_resolve_preset_and_house_rules(client: TestClient) -> None:
    reply = client.get(
        "/pages/rules.json",
        params={"preset": "wm", "house": json.dumps({"wipeout": True, "prizes": ["most_buncos"]})},
    )
    rules = reply.json()["rules"]
    assert rules["name"] == "winning-moves" and rules["wipeout"] is True
    assert rules["low_trips_kind"] == "low_bunco" and rules["prizes"] == ["most_buncos"]


@pytest.mark.parametrize(
    ("params", "error"),
    [
        ({"preset": "nope"}, "unknown_preset"),
        ({"preset": "classic", "house": "{"}, "invalid_request"),
        ({"preset": "classic", "house": "[1]"}, "invalid_request"),
        ({"preset": "classic", "house": '{"colour": 1}'}, "unknown_rule"),
    ],
)
def test_rules_refuse_bad_input(client: TestClient, params: dict[str, str], error: str) -> None:
    reply = client.get("/pages/rules.json", params=params)
    assert reply.status_code == 422
    assert reply.json()["error"] == error
    assert reply.json()["expected"]


# -- compression and caching ------------------------------------------------------------------
def test_a_page_loads_its_modules_joined_in_one_script(client: TestClient) -> None:
    html = client.get("/n/x1/table/2").text
    version = Assets(STATIC).version
    entry = re.search(
        r'<script src="/static/v/(\w+)/bundle/js/table.js" id="bunco-script"></script>\n</body>',
        html,
    )
    assert entry and entry.group(1) == version
    assert html.count("<script") == 2  # the inline start (boot.js) and the joined script
    # asked for from the head, and no frame painted before it has run (a reopened table's
    # HTML may wait for its state: sw.js)
    head = html[: html.index("</head>")]
    assert f'<link rel="preload" href="/static/v/{version}/bundle/js/table.js" as="script">' in head
    assert '<link rel="expect" href="#bunco-script" blocking="render">' in head
    assert "modulepreload" not in html  # nothing left to preload: one script
    joined = client.get(f"/static/v/{version}/bundle/js/table.js").text
    assert joined.startswith('"use strict";\n')  # as a module is, though loaded as a script
    # table.js and every module it imports, each once, each imported one before its importer
    files = re.findall(r"^// (js/\w+\.js)$", joined, re.M)
    assert sorted(files) == [
        "js/api.js",
        "js/high_totals.js",
        "js/live.js",
        "js/outbox.js",
        "js/parts.js",
        "js/pwa.js",
        "js/room.js",
        "js/round_clock.js",
        "js/seat_list.js",
        "js/table.js",
        "js/ui.js",
        "js/versions.js",
    ]
    assert files.index("js/ui.js") < files.index("js/parts.js") < files.index("js/table.js")
    assert files.index("js/api.js") < files.index("js/live.js") < files.index("js/parts.js")
    assert not re.search(r"^\s*(import|export)\b", joined, re.M)
    screen = client.get(f"/static/v/{version}/bundle/js/screen.js").text
    assert "// js/money.js" in screen  # imported by screen.js


def test_a_page_whose_modules_cannot_be_joined_preloads_them(tmp_path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "main.js").write_text('import { a } from "./a.js";\nconsole.log(a);\n')
    (tmp_path / "js" / "a.js").write_text("export default 1;\n")  # not of the plain form
    (tmp_path / "page.html").write_text(
        '<meta charset="utf-8">\n<script type="module" src="/static/js/main.js"></script>\n'
    )
    files = Assets(tmp_path)
    html = files.page("page.html").asset.body.decode()
    assert f'<script type="module" src="/static/v/{files.version}/js/main.js">' in html
    assert f'<link rel="modulepreload" href="/static/v/{files.version}/js/a.js">' in html
    assert not any(name.startswith("bundle/") for name in files.files)


def test_the_joined_script_runs_as_its_modules_do(tmp_path) -> None:
    """Each file in its own scope (two files may use one name), imports renamed, run in
    the browser's order; checked by running the joined script in Node where it exists."""
    import shutil
    import subprocess

    from bunco.web.pages.bundle import bundle

    texts = {
        "js/main.js": 'import { twice, name as who } from "./lib/b.js";\nimport "./side.js";\n'
        "const name = 'main';\nconst strict = (function () { return this; })() === undefined;\n"
        "console.log(JSON.stringify([twice(21), who, name, globalThis.order, strict]));\n",
        "js/lib/b.js": 'import { base } from "../a.js";\nexport function twice(x) { return base * x; }\n'
        "export const name = 'b';\n(globalThis.order ||= []).push('b');\n",
        "js/a.js": "export const base = 2;\n(globalThis.order ||= []).push('a');\n",
        "js/side.js": "(globalThis.order ||= []).push('side');\n",
    }
    joined = bundle("js/main.js", texts)
    assert joined is not None
    assert (
        joined.index("// js/a.js") < joined.index("// js/lib/b.js") < joined.index("// js/side.js")
    )
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the joined text was checked, not run")
    # as a module and as the classic script the pages load it as, in strict mode both ways
    for name in ("joined.mjs", "joined.cjs"):
        script = tmp_path / name
        script.write_text(joined)
        run = subprocess.run([node, str(script)], capture_output=True, text=True, check=True)
        assert json.loads(run.stdout) == [42, "b", "main", ["a", "b", "side"], True], name


def test_versioned_files_are_cached_for_a_year_and_gzipped(client: TestClient) -> None:
    version = Assets(STATIC).version
    plain = (STATIC / "js" / "table.js").read_bytes()
    reply = client.get(
        f"/static/v/{version}/js/table.js", headers={"accept-encoding": "gzip, deflate"}
    )
    assert reply.status_code == 200
    assert reply.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert reply.headers["content-type"].startswith("text/javascript")
    assert reply.headers["content-encoding"] == "gzip"
    assert reply.content == plain  # the client unzipped it
    assert int(reply.headers["content-length"]) * 3 < len(plain)
    assert reply.headers["vary"] == "Accept-Encoding"
    identity = client.get(
        f"/static/v/{version}/js/table.js", headers={"accept-encoding": "identity"}
    )
    assert "content-encoding" not in identity.headers and identity.content == plain
    # each form has its own ETag, and any of them held by the phone is worth a 304
    tags = {reply.headers["etag"], identity.headers["etag"]}
    assert len(tags) == 2
    for tag in tags:
        again = client.get(
            f"/static/v/{version}/js/table.js",
            headers={"accept-encoding": "br, gzip", "if-none-match": tag},
        )
        assert again.status_code == 304 and again.content == b""


@pytest.mark.parametrize("path", ["/n/x1/table/2", "bundle", "/static/app.css"])
def test_brotli_for_the_phones_that_take_it(client: TestClient, path: str) -> None:
    files = Assets(STATIC)
    if path == "bundle":
        path = f"/static/v/{files.version}/bundle/js/table.js"
    # httpx would decode brotli itself: ask for the raw bytes
    with client.stream("GET", path, headers={"accept-encoding": "gzip, deflate, br"}) as reply:
        wire = b"".join(reply.iter_raw())
    assert reply.headers["content-encoding"] == "br"
    assert reply.headers["etag"].endswith('-br"') and reply.headers["vary"] == "Accept-Encoding"
    plain = client.get(path, headers={"accept-encoding": "identity"}).content
    assert brotli.decompress(wire) == plain
    with client.stream("GET", path, headers={"accept-encoding": "gzip"}) as zipped:
        gz = b"".join(zipped.iter_raw())
    assert zipped.headers["content-encoding"] == "gzip" and gzip.decompress(gz) == plain
    assert len(wire) < len(gz) < len(plain) / 2  # Brotli smaller still than gzip


def test_another_version_gets_todays_file_uncached_and_a_missing_one_a_404(
    client: TestClient,
) -> None:
    old = client.get("/static/v/000000000000/app.css")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"
    assert old.content == (STATIC / "app.css").read_bytes()
    for path in ("/static/v/000000000000/nope.js", "/static/nope.css"):
        missing = client.get(path)
        assert missing.status_code == 404
        assert missing.json()["error"] == "not_found" and missing.json()["expected"]


def test_an_unchanged_page_or_file_costs_a_304(client: TestClient) -> None:
    first = client.get("/n/x1/table/2")
    assert first.headers["cache-control"] == "no-cache" and first.headers["etag"]
    again = client.get("/n/x1/table/2", headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == first.headers["etag"]
    other = client.get("/n/x1/table/2", headers={"if-none-match": '"something-else"'})
    assert other.status_code == 200
    css = client.get("/static/app.css")
    assert css.headers["cache-control"] == "no-cache"
    assert (
        client.get(
            "/static/app.css", headers={"if-none-match": f"W/{css.headers['etag']}"}
        ).status_code
        == 304
    )


def test_json_replies_are_gzipped_when_worth_it(client: TestClient) -> None:
    made = client.post(
        "/api/nights", json={"name": "Zip", "players": [f"Player {i}" for i in range(40)]}
    ).json()
    auth = {"authorization": f"Bearer {made['host_token']}"}
    big = client.get(f"/api/nights/{made['night']}", headers={**auth, "accept-encoding": "gzip"})
    assert big.headers["content-encoding"] == "gzip"
    assert big.json()["night"] == made["night"]
    raw = client.get(
        f"/api/nights/{made['night']}", headers={**auth, "accept-encoding": "identity"}
    )
    assert "content-encoding" not in raw.headers
    assert int(big.headers["content-length"]) * 4 < len(raw.content)
    small = client.get("/api/health", headers={"accept-encoding": "gzip"})
    assert "content-encoding" not in small.headers  # under a kilobyte: sent as it is
    presets = client.get("/pages/presets.json", headers={"accept-encoding": "gzip"})
    assert presets.headers["content-encoding"] == "gzip"
    assert gzip.decompress(gzip.compress(presets.content)) == presets.content


def test_the_module_graph_and_versions_of_a_folder(tmp_path) -> None:
    (tmp_path / "js" / "lib").mkdir(parents=True)
    (tmp_path / "js" / "main.js").write_text(
        'import { a } from "./lib/a.js";\nimport "./side.js";\n'
        '// import { x } from "./commented.js" is not at the start of a line\n'
        "const s = 'import { y } from ./y.js';\n"
    )
    (tmp_path / "js" / "lib" / "a.js").write_text('export { b } from "../b.js";\n')
    (tmp_path / "js" / "b.js").write_text('import { a } from "./lib/a.js";\n')  # a cycle
    (tmp_path / "js" / "side.js").write_text("")
    (tmp_path / "page.html").write_text(
        '<link rel="stylesheet" href="/static/app.css">\n'
        '<script type="module" src="/static/js/main.js"></script>\n'
    )
    (tmp_path / "app.css").write_text("body { color: black; }\n")
    files = Assets(tmp_path)
    assert files.modules("js/main.js") == ["js/lib/a.js", "js/side.js", "js/b.js"]
    html = files.page("page.html").asset.body.decode()
    assert f'href="/static/v/{files.version}/app.css"' in html
    assert html.count('rel="modulepreload"') == 3  # a cycle: not joined, preloaded
    assert files.files["app.css"].coded == {}  # too small to gain from compression
    (tmp_path / "app.css").write_text("body { color: red; }\n")
    assert Assets(tmp_path).version != files.version  # any change, a new address


@pytest.mark.parametrize(
    ("header", "coding"),
    [
        ("gzip, deflate, br", "br"),
        ("br;q=1.0, gzip;q=0.8", "br"),
        ("br;q=0.5, gzip", "gzip"),
        ("*", "br"),
        ("gzip", "gzip"),
        ("identity", None),
        ("", None),
        ("gzip;q=0", None),
        ("br;q=0, gzip;q=0.1", "gzip"),
        ("deflate", None),
        ("BR", "br"),
        ("br;q=x", None),
    ],
)
def test_which_encoding_a_phone_gets(header: str, coding: str | None) -> None:
    from bunco.web.pages.assets import choose_coding

    assert choose_coding(header, ("br", "gzip")) == coding
