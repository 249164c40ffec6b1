"""Which web pages and host names may reach a network server: Origin and Host allow-lists.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: a request's ``Host`` and ``Origin`` headers; the allowed hosts and origins.
Outputs: ``Access``, whose ``refusal`` says why a request is refused (None: allowed).
Guarantees: by default only loopback is allowed (``localhost``, ``*.localhost``, any
127.0.0.0/8 or ``::1`` address, with any port): a web page elsewhere cannot drive a stub
in a browser on this machine (its ``Origin`` is not loopback), nor can a rebound DNS name
(its ``Host`` is not).  A request without ``Origin`` (any client that is not a browser)
is judged by ``Host`` alone.  ``*`` in a list allows anything.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit


def is_loopback(host: str) -> bool:
    """Whether a host name or address (IPv6 without brackets) is this machine's own."""
    host = host.lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Access:
    """The hosts (``Host`` header, without its port) and origins (``scheme://host[:port]``
    of the ``Origin`` header) a server answers, besides loopback ones."""

    hosts: tuple[str, ...] = ()
    origins: tuple[str, ...] = ()

    def refusal(self, host: str | None, origin: str | None) -> str | None:
        """Why a request with these headers is refused; None when it is allowed."""
        if "*" not in self.hosts:
            name = _host_name(host or "")
            if name is None or not (is_loopback(name) or name in self.hosts):
                return f"host {host!r} is not allowed (--allow-host)"
        if origin is not None and "*" not in self.origins:
            if origin.rstrip("/") in self.origins:
                return None
            parts = urlsplit(origin)
            try:
                name = parts.hostname
            except ValueError:
                name = None
            if (
                parts.scheme not in ("http", "https")
                or not name
                or not is_loopback(name)
            ):
                return f"origin {origin!r} is not allowed (--allow-origin)"
        return None


def _host_name(header: str) -> str | None:
    """The host name of a ``Host`` header (``[::1]:80`` → ``::1``); None if malformed."""
    try:
        name = urlsplit(f"//{header}").hostname
    except ValueError:
        return None
    return name or None
