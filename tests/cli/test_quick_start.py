"""Every line of the README's Quick start, in order, in an empty folder: each exits 0.

The lines run as a new user types them, with the installed ``bunco`` (the one beside
this Python) first on ``PATH`` and a fresh data folder (``XDG_DATA_HOME``, ``HOME``),
at a terminal width of 80 columns; at 120 columns again those laid out for the terminal
(not the ones whose output is JSON or files: the width changes nothing there). Three lines need a person or keep running,
and are driven as a person would in a pseudo-terminal:

- ``. .venv/bin/activate`` is not run: putting the installed ``bunco`` first on ``PATH``
  is what it does;
- ``bunco play`` and ``bunco play --physical`` ask who plays (and whether there are prizes
  and money): the test takes the offered defaults (Enter), gives its name where asked, and
  quits at the first roll (``q``);
  the night is saved in the data folder, not the current one;
- ``bunco serve --host 0.0.0.0`` runs until stopped: the test adds ``--port N`` with a free
  port (8000 may be taken on a shared machine), waits for the address it prints, and
  stops it with Ctrl-C.
"""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from terminal_child import as_in_a_shell, interrupt

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def quick_start_lines() -> list[str]:
    """The commands of the README's Quick start block, comments dropped."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    lines = []
    for raw in block.splitlines():
        command = re.split(r"\s{2,}#", raw)[0].strip()  # a comment follows two spaces
        if command:
            shlex.split(command)  # a whole shell line: quotes closed
            lines.append(command)
    return lines


def lays_out_for_a_terminal(line: str) -> bool:
    """Whether a Quick start line's output is drawn for the terminal (so its width
    matters): not a line whose output is JSON (``--json``) or files (``--out``)."""
    return re.search(r"\s--(json|out)\b", line) is None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _spawn(line: str, folder: Path, env: dict[str, str], columns: int) -> object:
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(
        "/bin/sh",
        ["-c", f"exec {line}"],
        cwd=str(folder),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(24, columns),
        preexec_fn=as_in_a_shell,
    )


def _play(line: str, folder: Path, env: dict[str, str], columns: int) -> int:
    child = _spawn(line, folder, env, columns)
    child.expect("Preset")  # type: ignore[attr-defined]
    child.sendline("")  # type: ignore[attr-defined]
    child.expect("Players")  # type: ignore[attr-defined]
    child.sendline("")  # type: ignore[attr-defined]
    if "--physical" not in line:
        child.expect("Your name")  # type: ignore[attr-defined]
        child.sendline("Zed")  # type: ignore[attr-defined]
    child.expect("Sets of six rounds")  # type: ignore[attr-defined]
    child.sendline("")  # type: ignore[attr-defined]
    child.expect(r"Prizes and money.*y/n \(n\): ")  # type: ignore[attr-defined]
    child.sendline("")  # type: ignore[attr-defined]  # Enter: no prizes or money
    child.expect("Saving the night in")  # type: ignore[attr-defined]
    child.expect(r"(your roll|dice or tally|the three faces)")  # type: ignore[attr-defined]
    child.sendline("q")  # type: ignore[attr-defined]
    child.expect("Saved. Continue with")  # type: ignore[attr-defined]
    child.expect(pytest.importorskip("pexpect").EOF)  # type: ignore[attr-defined]
    child.close()  # type: ignore[attr-defined]
    return int(child.exitstatus)  # type: ignore[attr-defined]


def _serve(line: str, folder: Path, env: dict[str, str], columns: int) -> int:
    port = _free_port()
    child = _spawn(f"{line} --port {port}", folder, env, columns)
    child.expect(rf"listening on http://\S+:{port}")  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    while True:  # the address is printed before the server has started: wait for it
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as reply:
                assert reply.status == 200
                break
        except OSError:
            assert time.monotonic() < deadline, "bunco serve did not answer"
            time.sleep(0.2)
    interrupt(child)
    child.close()  # type: ignore[attr-defined]
    return int(child.exitstatus)  # type: ignore[attr-defined]


def test_the_block_is_read() -> None:
    lines = quick_start_lines()
    assert lines[0] == ". .venv/bin/activate"
    assert lines[1] == "bunco demo"  # the sample night comes before anything reads it
    assert "bunco replay night.jsonl" in lines and "bunco --version; bunco play --help" in lines
    drawn = [line for line in lines if lays_out_for_a_terminal(line)]
    assert "bunco rules wm" in drawn and "bunco play --physical" in drawn
    assert "bunco replay night.jsonl --json" not in drawn
    assert not any(line.startswith(("bunco sheets", "bunco report")) for line in drawn)


@pytest.mark.parametrize("columns", [80, 120])
def test_every_quick_start_line_exits_0_in_order(tmp_path: Path, columns: int) -> None:
    folder = tmp_path / "fresh"
    folder.mkdir()
    env = {
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(tmp_path / "home"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "COLUMNS": str(columns),
        "LINES": "24",
        "TERM": "dumb",
        "PYTHONUNBUFFERED": "1",
    }
    wide = columns != 80  # the second width: the lines laid out for the terminal only
    ran = []
    for line in quick_start_lines():
        if line == ". .venv/bin/activate" or (wide and not lays_out_for_a_terminal(line)):
            continue
        if re.fullmatch(r"bunco play( --physical)?", line):
            code = _play(line, folder, env, columns)
        elif line.startswith("bunco serve"):
            code = _serve(line, folder, env, columns)
        else:
            done = subprocess.run(
                ["/bin/sh", "-ec", line],
                cwd=folder,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
                stdin=subprocess.DEVNULL,
            )
            code = done.returncode
            assert code == 0, (line, done.stdout[-2000:], done.stderr[-2000:])
        assert code == 0, line
        ran.append(line)
    made = sorted(p.name for p in folder.iterdir())
    nights = list((tmp_path / "data" / "bunco" / "nights").glob("bunco-night-*.jsonl"))
    if wide:
        assert len(ran) >= 12
        assert made == ["night.jsonl"]
        assert len(nights) == 2  # bunco play and --physical: none in the current folder
        return
    assert len(ran) >= 20
    assert made == ["filled.pdf", "night.jsonl", "report.html", "report.pdf", "sheets.pdf"]
    assert len(nights) == 3  # bunco play, --physical and --auto: none in the current folder
