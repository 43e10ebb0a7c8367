"""Posting a move's board and the mover's hand through the interaction that made it.

Discord counts every request a bot makes against one global limit (50 a second per
bot token, shared by all its processes), except the interaction endpoints: the
callback and the interaction's webhook (follow-ups). A click or command that made a
move can therefore carry its own announcements: the new board as a public follow-up
in the channel it was clicked in (the game's channel), and the mover's hand as a
private follow-up (ephemeral in the channel; a message in their DM when they moved
from there). Only the next player's hand DM is then a rate-limited request.

The mover's hand goes first of all into the click's own private answer (the chooser's
"⏳ Playing…", or the loading message of a deferred click): one edit of the original
response, with the line saying the move was played, where a private follow-up would be
two requests and the "✅ You played" edit a third (:class:`Original`).

A follow-up has no nonce, so only a fresh delivery, made while the click is being
answered, goes this way; a retry, and anything Discord refuses here, is posted the
ordinary way (with its nonce).

A card cannot upload its pictures in a follow-up: Discord's Execute Webhook, which a
follow-up "functions the same as", refuses ``files[n]`` on a message flagged
IS_COMPONENTS_V2. Editing a webhook message takes files, so :func:`send_card` posts the
card without its pictures (its words, mentions and buttons: the ping goes out with it)
and edits them in at once; both requests are the interaction's, outside the global limit.
Should the bot die, or the connection drop, between the two, the board's retry finds the
card by its header and edits the picture in before its row is done
(``Announcer._picture_in``): a card without its picture is never taken for the board.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.cards.cards import Card, uploads

log = logging.getLogger(__name__)


#: Edits the click's original response into a card with these files; returns the message it now is.
Complete = Callable[[discord.ui.LayoutView, list[discord.File]], Awaitable[discord.Message]]


@dataclass
class Original:
    """The private answer to the click that made the move, waiting for the move's outcome."""

    complete: Complete
    #: What the mover is told first (the move was played), in their language.
    done: str
    #: It shows the mover's hand now (or an attempt is under way): nothing else may edit it.
    used: bool = False

    async def show(self, view: discord.ui.LayoutView, files: Sequence[discord.File]) -> discord.Message | None:
        """The answer becomes ``view`` with ``files``, once; None when it was used already or Discord
        refused (the hand then goes the ordinary way, and the clicker is told the move was played)."""
        if self.used:
            return None
        self.used = True
        try:
            return await self.complete(view, [copy(f) for f in files])
        except discord.HTTPException as exc:
            log.info("the click's answer could not show the hand (%s); it goes the ordinary way", exc)
            self.used = False
            return None


@dataclass(frozen=True)
class Reply:
    """The interaction of the move being announced."""

    webhook: discord.Webhook
    #: Where it was clicked or typed (None: unknown).
    channel_id: int | None
    user_id: int
    #: The game's version after the move: only that move's rows go this way.
    version: int
    #: It happened in the DM with the bot (a hand DM's chooser), which is private already, so its follow-ups
    #: stay for good; not in a group DM, where the mover's hand must be an ephemeral follow-up
    #: (``bot.interactions.surfaces.in_bot_dm``).
    in_dm: bool
    #: The click's own private answer, which the mover's hand may complete (None: a follow-up it is).
    original: Original | None = None

    def carries_board(self, version: int, channel_id: int) -> bool:
        return version == self.version and channel_id == self.channel_id and not self.in_dm

    def carries_hand(self, version: int, user_id: int) -> bool:
        return version == self.version and user_id == self.user_id

    async def post(self, content: str | None, *, private: bool, **kwargs: Any) -> discord.Message | None:
        """A follow-up (``private``: seen by the mover only); None when Discord refused it,
        so the caller posts it the ordinary way. ``content`` None: a card (Components V2),
        which carries no content."""
        if content is not None:
            kwargs["content"] = content
        if "file" in kwargs:  # sending closes a file: the ordinary post, if it comes to that, needs its own
            kwargs["file"] = copy(kwargs["file"])
        if "files" in kwargs:
            kwargs["files"] = [copy(f) for f in kwargs["files"]]
        try:
            message: discord.Message = await send_card(self.webhook, ephemeral=private and not self.in_dm, **kwargs)
        except discord.HTTPException as exc:
            log.info("a follow-up was refused (%s); posting it the ordinary way", exc)
            return None
        return message


async def send_card(webhook: discord.Webhook, **kwargs: Any) -> discord.WebhookMessage:
    """A follow-up (``webhook.send``, waited for). A card with files to upload is posted
    without its pictures, then edited to show them (see the module's docstring); if the
    edit is refused the bare card is deleted and the refusal raised, so nothing half-made
    stays. Anything else goes as it is."""
    view = kwargs.get("view")
    files = list(kwargs.pop("files", None) or [])
    if kwargs.get("file") is not None:
        files.append(kwargs.pop("file"))
    kwargs.pop("file", None)
    if not isinstance(view, Card) or not files:
        if files:
            kwargs["files"] = files
        return await webhook.send(wait=True, **kwargs)
    kwargs["view"] = view.without_pictures()
    message = await webhook.send(wait=True, **kwargs)
    try:
        edit: dict[str, Any] = {"view": view, "attachments": uploads(files)}
        if kwargs.get("allowed_mentions") is not None:
            edit["allowed_mentions"] = kwargs["allowed_mentions"]
        return await message.edit(**edit)
    except discord.HTTPException:
        try:
            await message.delete()
        except discord.HTTPException:
            log.warning("a card whose pictures were refused could not be deleted (message %s)", message.id)
        raise


def copy(file: discord.File) -> discord.File:
    """A second file of the same bytes (``file`` is left where it was)."""
    start = file.fp.tell()
    data = file.fp.read()
    file.fp.seek(start)
    return discord.File(io.BytesIO(data), filename=file.filename, description=file.description,
                        spoiler=file.spoiler)


__all__ = ["Complete", "Original", "Reply", "copy", "send_card"]
