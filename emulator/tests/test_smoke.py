from __future__ import annotations

from emulator import Emulator, Harness, User


async def test_echo(emulator: Emulator, alice: User, bot: Harness) -> None:
    res = await bot.slash(alice, emulator.general, "toy echo", text="hi", times=2)
    assert res.content == "hi hi"
    assert bot.messages(emulator.general)[-1].content == "hi hi"
