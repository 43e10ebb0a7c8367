"""The page server's one rule of who may talk to it (``emulator/web/guard.py``), by property: a request is
answered only when its ``Host`` is the server's own address and port, its ``Origin`` (if any) the server's own
``http://`` origin, and, when it acts, its body JSON. Every route goes through it (``test_web_origin.py``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from emulator.web.guard import JSON, OwnOrigin

OWN = OwnOrigin("127.0.0.1", 8123)
HOSTS = ("127.0.0.1:8123", "localhost:8123", "LOCALHOST:8123")

#: Hosts and origins near the real ones (other ports, suffixes, schemes) as well as any text.
near_hosts = st.sampled_from(("127.0.0.1", "localhost", "127.0.0.2", "[::1]", "evil.example", "127.0.0.1.evil.example",
                              "0.0.0.0", "127.1")).flatmap(
    lambda name: st.sampled_from(("", ":8123", ":8124", ":80", ":8123.evil", ":08123")).map(lambda port: name + port))
hosts = st.one_of(near_hosts, st.text(max_size=30), st.none())
origins = st.one_of(st.none(), st.text(max_size=30),
                    st.tuples(st.sampled_from(("http://", "https://", "file://", "", "HTTP://")), near_hosts)
                    .map("".join))
methods = st.sampled_from(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "get", "post"))
types = st.sampled_from((JSON, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                         "application/json-patch+json", "", "APPLICATION/JSON", "text/json"))


@given(methods, hosts, origins, types)
def test_a_request_is_answered_only_from_its_own_origin_and_acts_only_in_json(
    method: str, host: str | None, origin: str | None, content_type: str
) -> None:
    refused = OWN.refusal(method, host, origin, content_type)
    own_host = (host or "").lower() in {h.lower() for h in HOSTS}
    own_origin = origin is None or origin.lower() in {"http://" + h.lower() for h in HOSTS}
    acts_in_json = method.upper() in ("GET", "HEAD") or content_type.lower() == JSON
    assert (refused is None) == (own_host and own_origin and acts_in_json), (method, host, origin, content_type)
    if refused is not None:
        assert refused.status == (415 if own_host and own_origin else 403)
        assert refused.message


def test_the_default_port_may_be_left_out_as_browsers_do() -> None:
    own = OwnOrigin("127.0.0.1", 80)
    assert own.refusal("GET", "127.0.0.1", "http://127.0.0.1", "") is None
    assert own.refusal("GET", "127.0.0.1:80", None, "") is None
    assert own.refusal("GET", "evil.example", None, "") is not None
    assert OwnOrigin("::1", 9).refusal("GET", "[::1]:9", "http://[::1]:9", "") is None
