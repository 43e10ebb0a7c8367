"""Who may talk to the page's server: its own page, and programs on this machine; no other web page.

The server acts as whichever of the emulator's users a request names, so the one thing to keep out is another
web page the visitor has open. A browser lets any page send requests to 127.0.0.1, and three things would let it
through; each is refused here, for every route, before any handler runs (``WebClient``'s first middleware):

- **DNS rebinding.** A page on ``evil.example`` that rebinds its name to 127.0.0.1 is, to the browser, reading
  its own origin, so nothing stops it reading the answers; only the ``Host`` it sends (``evil.example:PORT``)
  tells. A request whose ``Host`` is not this server's own address and port (``127.0.0.1:PORT``, or
  ``localhost:PORT``) is refused, reads included.
- **A foreign ``Origin``.** A browser names the page that made a cross-site request (and every POST) in
  ``Origin``; when it is present and not this server's own ``http://`` origin, the request is refused.
- **A "simple" request.** A cross-site page may POST ``text/plain``, a form or ``multipart/form-data`` without
  asking the server first. Every state-changing request must be ``application/json``, which a browser sends
  cross-site only after a CORS preflight this server never approves (it sends no ``Access-Control-Allow-*``).

So a request that acts reached the server from the page's own origin or from a program outside any browser.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

JSON = "application/json"
#: Methods that change nothing; every other one must carry JSON.
READS = frozenset({"GET", "HEAD"})


@dataclass(frozen=True)
class Refusal:
    status: int
    message: str


@dataclass(frozen=True)
class OwnOrigin:
    """The server's own address and port: the only ``Host`` and ``Origin`` it answers."""

    host: str
    port: int

    @property
    def hosts(self) -> frozenset[str]:
        address = f"[{self.host}]" if ipaddress.ip_address(self.host).version == 6 else self.host
        names = {f"{address}:{self.port}", f"localhost:{self.port}"}
        if self.port == 80:  # a browser leaves the default port out
            names |= {address, "localhost"}
        return frozenset(names)

    @property
    def origins(self) -> frozenset[str]:
        return frozenset(f"http://{host}" for host in self.hosts)

    def refusal(self, method: str, host: str | None, origin: str | None, content_type: str) -> Refusal | None:
        """Why this request may not be answered, or None. ``origin`` is None when the request had none;
        ``content_type`` is the media type without parameters."""
        if (host or "").lower() not in self.hosts:
            return Refusal(403, "this page answers requests for its own address only "
                                f"(http://{min(self.hosts)}), not {host or 'none'}")
        if origin is not None and origin.lower() not in self.origins:
            return Refusal(403, f"requests from another web page ({origin or 'an empty Origin'}) are refused")
        if method.upper() not in READS and content_type.lower() != JSON:
            return Refusal(415, f"a request that acts must be {JSON}, not {content_type or 'without a type'}")
        return None
