"""Minimal raw HTTP/websocket clients, to poke the emulator without discord.py in between."""

from __future__ import annotations

import asyncio
import json
import zlib
from types import TracebackType
from typing import Any

import aiohttp

from emulator import Emulator

JSON = dict[str, Any]


class RawAPI:
    def __init__(self, emu: Emulator, *, token: str | None = None) -> None:
        self.emu = emu
        self.token = emu.token if token is None else token
        self.session = aiohttp.ClientSession()

    async def __aenter__(self) -> RawAPI:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.session.close()

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        files: list[tuple[str, bytes]] | None = None,
        auth: bool = True,
        params: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        headers = {"Authorization": f"Bot {self.token}"} if auth else {}
        data: Any = None
        if files is not None:
            form = aiohttp.FormData(quote_fields=False)
            form.add_field("payload_json", json.dumps(body or {}))
            for i, (name, content) in enumerate(files):
                form.add_field(f"files[{i}]", content, filename=name, content_type="application/octet-stream")
            data = form
        elif body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body)
        async with self.session.request(
            method, self.emu.api_url + path, data=data, headers=headers, params=params
        ) as r:
            text = await r.text()
            return r.status, (json.loads(text) if text else None)


class RawGateway:
    """Identifies like a bot would, and collects dispatches."""

    def __init__(self, emu: Emulator, *, compress: bool = False, token: str | None = None, intents: int = 513) -> None:
        self.emu = emu
        self.compress = compress
        self.token = emu.token if token is None else token
        self.intents = intents
        self.events: list[JSON] = []
        self._session = aiohttp.ClientSession()
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._inflate = zlib.decompressobj()
        self._buffer = bytearray()
        self.binary_frames = 0

    async def __aenter__(self) -> RawGateway:
        url = self.emu.gateway_url + "?v=10&encoding=json" + ("&compress=zlib-stream" if self.compress else "")
        self.ws = await self._session.ws_connect(url)
        return self

    async def __aexit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self._session.close()

    async def recv(self, timeout: float = 2.0) -> JSON | None:
        assert self.ws is not None
        while True:
            msg = await self.ws.receive(timeout=timeout)
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.binary_frames += 1
                self._buffer.extend(msg.data)
                if bytes(self._buffer[-4:]) != b"\x00\x00\xff\xff":
                    continue
                text = self._inflate.decompress(bytes(self._buffer)).decode()
                self._buffer.clear()
            elif msg.type == aiohttp.WSMsgType.TEXT:
                text = msg.data
            else:
                return None
            payload: JSON = json.loads(text)
            if payload.get("op") == 0:
                self.events.append(payload)
            return payload

    async def send(self, op: int, d: Any) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps({"op": op, "d": d}))

    async def identify(self, **fields: Any) -> JSON:
        """HELLO, IDENTIFY (plus ``fields``, e.g. ``shard=[1, 2]``), READY."""
        hello = await self.recv()
        assert hello is not None and hello["op"] == 10
        await self.send(2, {"token": self.token, "intents": self.intents, "properties": {}, **fields})
        ready = await self.recv()
        assert ready is not None and ready["t"] == "READY", ready
        return ready

    async def wait_event(self, name: str, timeout: float = 2.0) -> JSON:
        for e in self.events:
            if e["t"] == name:
                self.events.remove(e)
                return e
        async with asyncio.timeout(timeout):
            while True:
                p = await self.recv(timeout)
                if p is None:
                    raise AssertionError(f"connection closed while waiting for {name}")
                if p.get("t") == name:
                    self.events.remove(p)
                    return p

    async def close_code_after_identify(self, **fields: Any) -> int | None:
        """Send IDENTIFY (plus ``fields``) and read until the server closes; the close code it sent."""
        hello = await self.recv()
        assert hello is not None and hello["op"] == 10
        await self.send(2, {"token": self.token, "intents": self.intents, "properties": {}, **fields})
        while await self.recv() is not None:
            pass
        assert self.ws is not None
        return self.ws.close_code
