"""``enforce_nonce`` on message create, as Discord documents it ("Create Message"): a
nonce the same author used in the past few minutes returns that message instead of
creating a second one. Bots rely on it to retry a post whose answer they never got."""

from __future__ import annotations

from emulator import Emulator

from .raw import RawAPI


def posted(emulator: Emulator, channel_id: int) -> list[int]:
    return [m.id for m in emulator.world.channel_messages(channel_id)]


async def test_a_repeated_nonce_returns_the_first_message(emulator: Emulator, api: RawAPI) -> None:
    path = f"/channels/{emulator.general.id}/messages"
    status, first = await api.request("POST", path, {"content": "board 1", "nonce": "pbb1.1", "enforce_nonce": True})
    assert status == 200
    status, again = await api.request(
        "POST", path, {"content": "board 1 (retry)", "nonce": "pbb1.1", "enforce_nonce": True}
    )
    assert status == 200 and again["id"] == first["id"] and again["content"] == "board 1"
    assert posted(emulator, emulator.general.id) == [int(first["id"])]
    # Another nonce is another message; so is the same nonce without enforce_nonce (plain nonces are not checked).
    _, other = await api.request("POST", path, {"content": "board 2", "nonce": "pbb1.2", "enforce_nonce": True})
    _, loose = await api.request("POST", path, {"content": "loose", "nonce": "pbb1.2"})
    assert len({first["id"], other["id"], loose["id"]}) == 3


async def test_the_nonce_is_the_authors_in_any_channel_and_only_for_a_few_minutes(
    emulator: Emulator, api: RawAPI
) -> None:
    general = f"/channels/{emulator.general.id}/messages"
    _, first = await api.request("POST", general, {"content": "x", "nonce": 77, "enforce_nonce": True})
    _, elsewhere = await api.request(
        "POST",
        f"/channels/{emulator.world.add_channel(emulator.guild, 'other').id}/messages",
        {"content": "y", "nonce": "77", "enforce_nonce": True},
    )
    assert elsewhere["id"] == first["id"], "the same author reused the nonce: Discord returns the first message"
    await emulator.advance(minutes=10)  # more than "a few minutes"
    _, later = await api.request("POST", general, {"content": "z", "nonce": 77, "enforce_nonce": True})
    assert later["id"] != first["id"]


async def test_the_nonce_of_a_deleted_message_is_refused(emulator: Emulator, api: RawAPI) -> None:
    path = f"/channels/{emulator.general.id}/messages"
    _, first = await api.request("POST", path, {"content": "x", "nonce": "gone", "enforce_nonce": True})
    status, _ = await api.request("DELETE", f"{path}/{first['id']}")
    assert status == 204
    status, err = await api.request("POST", path, {"content": "x", "nonce": "gone", "enforce_nonce": True})
    assert status == 404 and err["code"] == 10008
    assert posted(emulator, emulator.general.id) == []
