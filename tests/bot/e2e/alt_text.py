"""Alt text on every picture the bot posts: the check every e2e test runs at its end
(the ``emulator`` fixture of this directory's conftest)."""

from __future__ import annotations

from emulator.server import Emulator


def pictures_without_alt_text(emulator: Emulator) -> list[str]:
    """Every picture the bot attached during the test (an edit's replaced ones too)
    whose description is missing or blank, and every media gallery item or thumbnail
    of the bot's messages without alt text, named for the failure message."""
    missing = []
    for message, attachment in emulator.world.uploads:
        if message.author.id != emulator.bot.id or not attachment.is_image:
            continue
        if not (attachment.description or "").strip():
            missing.append(f"{attachment.filename} in message {message.id} ({message.text[:60]!r})")
    # a card shows its pictures in media galleries (and thumbnails): each item carries its own alt text
    for message in emulator.world.messages.values():
        if message.author.id != emulator.bot.id:
            continue
        for shown, description in message.media():
            if not (description or "").strip():
                name = shown.filename if shown is not None else "a picture"
                missing.append(f"{name} in the gallery of message {message.id} ({message.text[:60]!r})")
    return missing
