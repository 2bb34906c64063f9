"""The service worker as the server sends it: this version of the pages and every file a
night's page needs filled in (so a page reloaded without the connection finds its shell,
its stylesheet and its one script), each of them served."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")
from fastapi.testclient import TestClient  # noqa: E402

from bunco.web.app import create_app  # noqa: E402
from bunco.web.pages.assets import SHELLS, assets  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app("sqlite://", bot_pace=0)) as c:
        yield c


def filled(text: str) -> tuple[str, list[str]]:
    version = re.search(r'^const VERSION = "([0-9a-f]+)";$', text, re.M)
    files = re.search(r"^const FILES = (\[.*\]);$", text, re.M)
    assert version is not None and files is not None, "VERSION and FILES not filled in"
    return version.group(1), json.loads(files.group(1))


def test_the_worker_names_this_version_and_every_file_of_each_night_page(
    client: TestClient,
) -> None:
    reply = client.get("/sw.js")
    assert reply.status_code == 200
    assert reply.headers["service-worker-allowed"] == "/"
    assert reply.headers["cache-control"] == "no-cache"  # a new version is seen at once
    version, files = filled(reply.text)
    assert version == assets().version
    for page, shell in SHELLS.items():
        html = client.get(shell).text
        assert html == assets().page(page).asset.body.decode()
        named = re.findall(r'(?:href|src)="(/static/v/[^"]+)"', html)
        assert named and shell in files and set(named) <= set(files), page
    assert f"/static/v/{version}/bundle/js/table.js" in files
    assert f"/static/v/{version}/app.css" in files
    for address in files:  # the worker's install fails whole if one is missing
        got = client.get(address)
        assert got.status_code == 200, address
        assert got.headers["content-type"].startswith(("text/html", "text/css", "text/javascript"))
    # sent compressed, and as a 304 when unchanged
    assert reply.headers["content-encoding"] == "br"
    again = client.get("/sw.js", headers={"if-none-match": reply.headers["etag"]})
    assert again.status_code == 304


def test_every_night_page_is_one_joined_script() -> None:
    """The joiner takes every page's modules: none falls back to loading them one by one
    (which the worker would then not keep)."""
    files = assets()
    for page in SHELLS:
        body = files.page(page).asset.body.decode()
        assert "modulepreload" not in body, page
        entry = re.search(r'src="/static/v/\w+/bundle/(js/\w+\.js)"', body)
        assert entry is not None, page
        joined = files.files[f"bundle/{entry.group(1)}"].body.decode()
        for module in [entry.group(1), *files.modules(entry.group(1))]:
            assert f"// {module}\n" in joined, (page, module)


def test_every_joined_script_parses_as_a_module(tmp_path: Path) -> None:
    """Each page's joined script is valid JavaScript (a module that a browser accepts):
    the joiner's text forms (module functions, import reads) make no syntax error, and a
    module the joined form cannot hold (a top-level await) would show here."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (it comes with the browser tests' packages)")
    joined = {n: a for n, a in assets().files.items() if n.startswith("bundle/")}
    assert {f"bundle/js/{p}.js" for p in ("table", "host", "player", "screen", "end")} <= set(
        joined
    )
    # what the check catches: a module with a top-level await, joined into a function
    files = {"bad": "(() => {\nawait 1;\n})();\n"}
    files.update({name: asset.body.decode() for name, asset in joined.items()})
    (tmp_path / "files.json").write_text(json.dumps(files))
    checked = subprocess.run(
        [node, "--experimental-vm-modules", "--no-warnings", "-e", PARSE, tmp_path / "files.json"],
        capture_output=True,
        text=True,
        check=True,
    )
    failed = json.loads(checked.stdout)
    assert list(failed) == ["bad"], failed


# each file of a JSON object parsed as an ES module (one node for all): those that fail
PARSE = """
const vm = require("vm");
const files = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const failed = {};
for (const [name, text] of Object.entries(files)) {
  try { new vm.SourceTextModule(text, { identifier: name }); } catch (err) { failed[name] = String(err); }
}
console.log(JSON.stringify(failed));
"""
