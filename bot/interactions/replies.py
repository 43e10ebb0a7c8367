"""Answering an interaction the right way whatever state it is in.

discord.py raises if you respond twice; these helpers pick ``response``,
``edit_original_response`` or ``followup`` so handlers can just say what they mean.
Whatever they say goes out as a card (Components V2, :mod:`bot.cards.cards`): a sentence
is a card with one text display, so every answer has the boards' look.

A deferred "thinking" response (``defer_private``, or ``defer(thinking=True)``) is
completed by editing it: Discord's old behaviour of letting the first follow-up
replace the loading message is deprecated. Its visibility was fixed when it was
deferred, so a private defer gives a private answer whatever ``ephemeral`` says."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.cards.cards import Card, Picture, card, note, uploads
from bot.core.languages import Languages
from bot.posting.interaction_posts import send_card
from bot.store.faults import fault_of
from engine.core import EngineError
from engine.core.text import Phrase
from i18n import Lang

log = logging.getLogger(__name__)

#: ``interaction.extras`` keys: the deferred response has been completed / was deferred ephemeral
_COMPLETED = "pyramid.replies.completed"
_PRIVATE = "pyramid.replies.private"
#: ... the clicker's language, once it has been looked up
_LANG = "pyramid.replies.lang"


def _thinking(interaction: discord.Interaction[Any]) -> bool:
    """Deferred with a loading message that nothing has replaced yet."""
    deferred = interaction.response.type == discord.InteractionResponseType.deferred_channel_message
    return deferred and not interaction.extras.get(_COMPLETED)


def _files(kwargs: dict[str, Any]) -> list[discord.File]:
    """``file=``/``files=`` of a call, taken out of ``kwargs``."""
    files = list(kwargs.pop("files", None) or [])
    if kwargs.get("file") is not None:
        files.append(kwargs.pop("file"))
    kwargs.pop("file", None)
    return files


def as_card(text: str, kwargs: dict[str, Any]) -> tuple[Card, list[discord.File]]:
    """``text`` (with the ``file``/``files`` and the buttons of a ``view`` in ``kwargs``, taken out of them) as a
    card: its words, its pictures with their alt text, its buttons."""
    files = _files(kwargs)
    view = kwargs.pop("view", None)
    if isinstance(view, discord.ui.LayoutView):  # its words would be lost: a card goes through show_card
        raise TypeError("tell() takes words and a legacy view's buttons; send a card with show_card()")
    controls = list(view.children) if isinstance(view, discord.ui.View) else []
    return card([text], files=files, controls=controls), files


async def _complete(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """Replace the loading message of a deferred response (``PATCH .../messages/@original``) with a card."""
    kwargs.pop("ephemeral", None)  # decided when deferring
    shown, files = as_card(text, kwargs)
    await interaction.edit_original_response(content=None, view=shown, attachments=files, **kwargs)
    interaction.extras[_COMPLETED] = True


def completed(interaction: discord.Interaction[Any]) -> bool:
    """Whether a deferred response was completed with its card (a follow-up then is a message of its own)."""
    return bool(interaction.extras.get(_COMPLETED))


async def tell(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """An ephemeral card to the clicker saying ``text`` (with a ``file`` or ``view``'s
    buttons if given): the first response, the completion of a deferred one, or a follow-up."""
    shown, files = as_card(text, kwargs)
    await show_card(interaction, shown, files=files, **kwargs)


async def show_card(interaction: discord.Interaction[Any], card: discord.ui.LayoutView, *,
                    files: Sequence[discord.File | Picture] | None = None, ephemeral: bool = True,
                    **kwargs: Any) -> None:
    """A card (:mod:`bot.cards.cards`), for the clicker alone unless ``ephemeral`` is False:
    the first response, the completion of a deferred one (its "thinking" message becomes
    the card, its visibility as deferred), or a follow-up (posted bare, its pictures edited
    in: :func:`bot.posting.interaction_posts.send_card`). A card has no content; its pictures
    are uploaded with it, or kept (:class:`bot.cards.cards.Picture`) by an edit."""
    files = uploads(list(files or []))
    if not interaction.response.is_done():
        await interaction.response.send_message(view=card, files=files, ephemeral=ephemeral, **kwargs)
    elif _thinking(interaction):
        await interaction.edit_original_response(content=None, view=card, attachments=files, **kwargs)
        interaction.extras[_COMPLETED] = True
    else:
        await send_card(interaction.followup, view=card, files=files, ephemeral=ephemeral, **kwargs)


async def edit_card(interaction: discord.Interaction[Any], card: discord.ui.LayoutView, *,
                    files: Sequence[discord.File | Picture] | None = None, **kwargs: Any) -> None:
    """The clicked message becomes ``card`` (a component's UPDATE_MESSAGE response), or, once
    the click was answered, the original response does. ``files`` None keeps the message's
    attachments (a kept :class:`~bot.cards.cards.Picture` is shown by its name); a list
    replaces them. Content is cleared, and a plain message's own files dropped: Discord
    turns a plain message into a card only so (Edit Message, footnote *)."""
    message = interaction.message
    if files is None and message is not None and not message.flags.components_v2 and message.attachments:
        files = []  # a plain message (from before the cards) keeps no file of its own when it becomes one
    if files is not None:
        kwargs["attachments"] = uploads(files)
    if not interaction.response.is_done():
        await interaction.response.edit_message(content=None, embeds=[], view=card, **kwargs)
    else:
        await interaction.edit_original_response(content=None, embeds=[], view=card, **kwargs)


async def complete_original(interaction: discord.Interaction[Any], view: discord.ui.LayoutView,
                            files: list[discord.File]) -> discord.Message:
    """The click's original response (the message it updated, or its loading message) becomes
    ``view``, its files replaced by ``files``; what is said next is a follow-up."""
    message = await interaction.edit_original_response(content=None, embeds=[], view=view, attachments=files)
    interaction.extras[_COMPLETED] = True
    return message


async def say_public(interaction: discord.Interaction[Any], text: str, *, private_note: str = "") -> None:
    """A card everyone in the channel sees. After a private defer the loading
    message is completed with ``private_note`` (or ``text``) for the clicker, and
    ``text`` goes out as a public follow-up."""
    if not interaction.response.is_done():
        await interaction.response.send_message(view=note(text))
        return
    if _thinking(interaction):
        if not interaction.extras.get(_PRIVATE):
            await _complete(interaction, text)
            return
        await _complete(interaction, private_note or text)
    await interaction.followup.send(view=note(text), ephemeral=False)


async def defer_private(interaction: discord.Interaction[Any]) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
        interaction.extras[_PRIVATE] = True


async def reader(interaction: discord.Interaction[Any], languages: Languages) -> Lang:
    """The language of whoever made ``interaction`` (``Languages.for_interaction``),
    looked up once per interaction: the handlers it passes through share it."""
    found = interaction.extras.get(_LANG)
    if isinstance(found, Lang):
        return found
    lang = await languages.for_interaction(interaction)
    interaction.extras[_LANG] = lang
    return lang


async def reader_or_english(interaction: discord.Interaction[Any], languages: Languages | None) -> Lang:
    """The player's language, or English when it can't be told: what answers a failure,
    which must be told all the same."""
    if languages is None:
        return Lang("en")
    try:
        return await reader(interaction, languages)
    except Exception as exc:
        fault = fault_of(exc)
        if fault is None:
            log.exception("could not tell the language of %s", interaction.user.id)
        else:  # the failure being answered is told as what it is
            log.warning("could not tell the language of %s: storage %s", interaction.user.id, fault.value)
        return Lang("en")


def explain(error: BaseException, lang: Lang) -> str:
    """An error's message in the reader's language. An engine error carries its
    template (also when it is the cause of a bot error that repeats it); an error may
    carry a :class:`~engine.core.text.Phrase` as ``text``; any other message is looked
    up as it is (constant messages are marked with ``N_`` where they are written;
    one already in the reader's language is found as itself)."""
    cause = error.__cause__
    if not isinstance(error, EngineError) and isinstance(cause, EngineError) and str(cause) == str(error):
        error = cause
    if isinstance(error, EngineError):
        return error.explain(lang.gettext)
    text = getattr(error, "text", None)
    if isinstance(text, Phrase):
        return text.fill((), lang.gettext)
    return lang.gettext(str(error))
