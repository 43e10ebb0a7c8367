"""``pyramid-bot demo`` listens on this machine only, whatever the environment says: the emulator, the page and the
bot's /healthz and /metrics endpoint, even when the environment and a ``.env`` where it is started ask the bot for
``0.0.0.0``. Every listening TCP socket of the playground's processes (this one and the bot's whole tree) is read
from ``/proc`` and must be a loopback address. And since any web page can reach a loopback port (a WebSocket
knows no same-origin rule), the emulator's well-known token opens neither its gateway nor its API."""

from __future__ import annotations

import asyncio
import ipaddress
import os
import socket
from pathlib import Path

import aiohttp
import pytest

from emulator.server import DEFAULT_TOKEN
from tests.paths import REPO
from tools.demo import Playground

LISTEN = "0A"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _address(hex_address: str) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]:
    """``/proc/net/tcp``'s ``0100007F:1F90``: the address in the kernel's byte order (32-bit words), the port."""
    host, port = hex_address.split(":")
    raw = bytes.fromhex(host)
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    return ipaddress.ip_address(words), int(port, 16)


def listening(pids: list[int]) -> list[tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int, int]]:
    """(address, port, pid) of every TCP socket in LISTEN state that one of ``pids`` holds open."""
    owner: dict[str, int] = {}
    for pid in pids:
        try:
            fds = list(Path(f"/proc/{pid}/fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                owner[target[8:-1]] = pid
    found = []
    for table in ("tcp", "tcp6"):
        lines = Path(f"/proc/self/net/{table}").read_text().splitlines()[1:]
        for line in lines:
            fields = line.split()
            if fields[3] == LISTEN and fields[9] in owner:
                address, port = _address(fields[1])
                found.append((address, port, owner[fields[9]]))
    return found


def test_the_address_reader_reads_the_kernels_byte_order() -> None:
    assert _address("0100007F:1F90") == (ipaddress.ip_address("127.0.0.1"), 8080)
    assert _address("00000000:0050") == (ipaddress.ip_address("0.0.0.0"), 80)
    assert _address("00000000000000000000000001000000:0016") == (ipaddress.ip_address("::1"), 22)


async def test_every_port_of_the_playground_is_loopback_whatever_the_environment_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    metrics = free_port()
    started_in = tmp_path / "where-it-is-started"
    started_in.mkdir()
    (started_in / ".env").write_text(f"PYRAMID_METRICS_HOST=0.0.0.0\nPYRAMID_METRICS_PORT={metrics}\n")
    monkeypatch.chdir(started_in)  # the bot reads the .env of the folder it is started in
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    monkeypatch.setenv("PYRAMID_METRICS_HOST", "0.0.0.0")
    async with Playground(tmp_path / "demo", ai_delay_seconds=0) as running:
        assert running.emulator is not None and running.web is not None and running.bot is not None
        pids = [os.getpid(), *running.bot.pids()]
        loop = asyncio.get_running_loop()
        limit = loop.time() + 60
        while metrics not in {port for _, port, _ in listening(pids)}:  # the bot serves it once it has started
            assert loop.time() < limit, f"the bot never served its metrics on port {metrics}: {listening(pids)}"
            await asyncio.sleep(0.1)
        sockets = listening([os.getpid(), *running.bot.pids()])
        ports = {port for _, port, _ in sockets}
        assert {running.emulator.port, running.web.port, metrics} <= ports, sockets
        assert [s for s in sockets if not s[0].is_loopback] == [], "a playground port is open beyond this machine"

        # Any web page may open a WebSocket to a loopback port: the emulator's well-known token opens nothing.
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(running.emulator.gateway_url) as ws:
                assert (await ws.receive_json())["op"] == 10  # HELLO
                await ws.send_json({"op": 2, "d": {"token": DEFAULT_TOKEN, "intents": 0, "properties": {}}})
                closing = await ws.receive()
                assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4004, closing
            async with http.get(f"{running.emulator.api_url}/users/@me",
                                headers={"Authorization": f"Bot {DEFAULT_TOKEN}"}) as resp:
                assert resp.status == 401
