"""Attachment descriptions (alt text): kept per attachment, shown in the message payload, held to Discord's 1024
characters on every route, and every file ever attached remembered (``World.uploads``), so a test can check the
alt text of a picture an edit has since replaced."""

from __future__ import annotations

from emulator import Emulator

from .raw import RawAPI

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
GIF = b"GIF89a" + b"\x00" * 32


async def test_a_description_is_kept_and_shown(emulator: Emulator, api: RawAPI) -> None:
    url = f"/channels/{emulator.general.id}/messages"
    status, msg = await api.request(
        "POST",
        url,
        {"content": "board", "attachments": [{"id": 0, "description": "Row 0: 0,0 R40"}]},
        files=[("board.png", PNG)],
    )
    assert status == 200, msg
    assert msg["attachments"][0]["description"] == "Row 0: 0,0 R40"
    stored = emulator.world.messages[int(msg["id"])].attachments[0]
    assert stored.description == "Row 0: 0,0 R40" and stored.is_image and stored.is_png
    status, fetched = await api.request("GET", f"{url}/{msg['id']}")
    assert fetched["attachments"][0]["description"] == "Row 0: 0,0 R40"


async def test_every_upload_is_remembered_even_once_replaced(emulator: Emulator, api: RawAPI) -> None:
    url = f"/channels/{emulator.general.id}/messages"
    _, msg = await api.request(
        "POST", url, {"content": "a", "attachments": [{"id": 0, "description": "first"}]}, files=[("a.png", PNG)]
    )
    status, edited = await api.request(
        "PATCH",
        f"{url}/{msg['id']}",
        {"attachments": [{"id": 0, "description": "second"}]},
        files=[("b.gif", GIF)],
    )
    assert status == 200, edited
    assert [a["filename"] for a in edited["attachments"]] == ["b.gif"]
    uploads = [(m.id, a.filename, a.description, a.is_image) for m, a in emulator.world.uploads]
    assert uploads == [(int(msg["id"]), "a.png", "first", True), (int(msg["id"]), "b.gif", "second", True)]


async def test_a_description_over_1024_characters_is_refused_on_an_edit_too(emulator: Emulator, api: RawAPI) -> None:
    url = f"/channels/{emulator.general.id}/messages"
    _, msg = await api.request("POST", url, {"content": "a"})
    with emulator.expect_violation("attachment-description"):
        status, err = await api.request(
            "PATCH",
            f"{url}/{msg['id']}",
            {"attachments": [{"id": 0, "description": "d" * 1025}]},
            files=[("a.png", PNG)],
        )
    assert (status, err["code"]) == (400, 50035)
    assert emulator.world.uploads == []
    status, ok = await api.request(
        "PATCH", f"{url}/{msg['id']}", {"attachments": [{"id": 0, "description": "d" * 1024}]}, files=[("a.png", PNG)]
    )
    assert status == 200 and ok["attachments"][0]["description"] == "d" * 1024
