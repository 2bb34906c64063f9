"""The deployment of deploy/ on loopback: the committed Caddyfile and systemd unit, made
to run here (Caddy's own certificate authority instead of Let's Encrypt, free high ports,
Caddy's data in a temporary folder, no admin port), for the deployment test and the
server benchmark (``--proxy``).

- :func:`loopback_caddyfile`: deploy/Caddyfile with its name, ports and upstreams
  replaced and ``tls internal`` added; everything else (load balancing, retries, health
  checks) as committed.
- :func:`unit_command`: the ``ExecStart`` of deploy/bunco@.service for one port, with the
  environment file's variables given.
- :class:`CaddyProxy`: Caddy running that Caddyfile; :attr:`CaddyProxy.ssl` trusts its
  certificate authority.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import ssl
import subprocess
import time
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
SITE = "bunco.example.org"
UPSTREAMS = "127.0.0.1:8001 127.0.0.1:8002"
CADDY = shutil.which("caddy")
NO_CADDY = "Caddy is not installed (Debian package caddy; .ci/run installs it)"


def loopback_caddyfile(https_port: int, http_port: int, upstreams: list[int]) -> str:
    """deploy/Caddyfile served at ``https://127.0.0.1:https_port`` by Caddy's own
    certificate authority, in front of bunco on ``upstreams`` (ports on 127.0.0.1)."""
    committed = (DEPLOY / "Caddyfile").read_text()
    assert committed.count(f"{SITE} {{") == 1 and committed.count(UPSTREAMS) == 1
    body = committed.replace(
        f"{SITE} {{", f"https://127.0.0.1:{https_port} {{\n\ttls internal"
    ).replace(UPSTREAMS, " ".join(f"127.0.0.1:{p}" for p in upstreams))
    return (
        "{\n\tadmin off\n\tskip_install_trust\n"
        f"\thttp_port {http_port}\n\thttps_port {https_port}\n}}\n\n{body}"
    )


def unit_command(port: int, environment: dict[str, str]) -> list[str]:
    """The command deploy/bunco@.service runs for ``port`` (``%i``), with ``${VAR}``
    taken from ``environment``; the program as it is called here (``bunco`` on PATH
    of this Python, else ``python -m bunco``)."""
    from serve_process import bunco_command

    unit = (DEPLOY / "bunco@.service").read_text()
    line = next(x for x in unit.splitlines() if x.startswith("ExecStart="))
    line = re.sub(r"\$\{(\w+)\}", lambda m: shlex.quote(environment[m.group(1)]), line)
    words = shlex.split(line.removeprefix("ExecStart=").replace("%i", str(port)))
    assert words[0].endswith("/bunco"), words[0]
    return [*bunco_command(), *words[1:]]


def environment_file() -> dict[str, str]:
    """The variables deploy/bunco.env sets (their example values)."""
    found = {}
    for line in (DEPLOY / "bunco.env").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            found[name.strip()] = value.strip()
    return found


class CaddyProxy:
    """``caddy run`` with :func:`loopback_caddyfile`, its data and configuration in
    ``folder``; :meth:`start` waits until it serves https (its certificate made)."""

    def __init__(self, folder: Path, https_port: int, http_port: int, upstreams: list[int]):
        assert CADDY is not None, NO_CADDY
        self.folder = folder
        self.port = https_port
        self.base = f"https://127.0.0.1:{https_port}"
        self.config = folder / "Caddyfile"
        self.config.write_text(loopback_caddyfile(https_port, http_port, upstreams))
        self.log = folder / "caddy.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.ssl: ssl.SSLContext | None = None
        self.cafile = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        """Caddy's certificate authority (there once :meth:`start` returned)."""

    def start(self) -> None:
        env = {
            **os.environ,
            "HOME": str(self.folder),
            "XDG_DATA_HOME": str(self.folder / "data"),
            "XDG_CONFIG_HOME": str(self.folder / "config"),
        }
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [CADDY or "caddy", "run", "--config", str(self.config), "--adapter", "caddyfile"],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        root = self.cafile
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("caddy stopped:\n" + self.log.read_text()[-3000:])
            if root.exists() and self._answers(root):
                return
            time.sleep(0.1)
        self.stop()
        raise AssertionError("caddy did not serve https:\n" + self.log.read_text()[-3000:])

    def _answers(self, root: Path) -> bool:
        import httpx

        try:
            context = ssl.create_default_context(cafile=str(root))
            reply = httpx.get(self.base + "/api/health", verify=context, timeout=2)
        except (httpx.HTTPError, ssl.SSLError, OSError):
            return False
        if reply.status_code == 200:
            self.ssl = context
            return True
        return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
