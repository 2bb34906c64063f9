"""A certificate of its own for ``bunco serve --https``, so phones get a secure page.

Browsers keep a phone's screen on (the Wake Lock API) and allow the clipboard only on a
secure page: ``https://`` or ``localhost``. A laptop at a party has no certificate a
phone trusts, so ``--https`` makes one for this computer (its network address, its name,
``localhost``), signed by itself and kept beside the database for the next start. Each
phone warns once ("not private"): the host page (``/https``) says what to tap.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> cert, key = self_signed(folder, ["10.0.0.5"])
>>> "10.0.0.5" in names_in(cert) and "localhost" in names_in(cert)
True
>>> self_signed(folder, ["10.0.0.5"]) == (cert, key)   # kept and reused
True
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
from pathlib import Path

CERT, KEY = "bunco-https-cert.pem", "bunco-https-key.pem"


def names_in(cert_path: Path) -> list[str]:
    """The host names and addresses a certificate is for."""
    from cryptography import x509

    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return [str(n) for n in alt.get_values_for_type(x509.DNSName)] + [
        str(n) for n in alt.get_values_for_type(x509.IPAddress)
    ]


def self_signed(folder: Path, addresses: list[str]) -> tuple[Path, Path]:
    """The certificate and key files in ``folder`` for ``addresses`` (and localhost),
    made once (valid for two years) and made again when an address is new."""
    cert_path, key_path = folder / CERT, folder / KEY
    wanted = {"localhost", "127.0.0.1", socket.gethostname(), *addresses}
    if cert_path.exists() and key_path.exists() and wanted <= set(names_in(cert_path)):
        return cert_path, key_path
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, "bunco serve"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "bunco, this computer"),
        ]
    )
    alt: list[x509.GeneralName] = []
    for entry in sorted(wanted):
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(entry)))
        except ValueError:
            alt.append(x509.DNSName(entry))
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=730))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    key_path.chmod(0o600)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path
