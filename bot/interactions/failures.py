"""What a request that failed tells the player, and what it logs: the one place the
command tree and every component decide between a player's mistake, a storage
fault and a real bug.

- A player's mistake (:class:`~bot.core.errors.PlayError`, a request that does not
  fit its command, a conversion discord.py could not make): the sentence that says
  what, logged at INFO. Anyone can send these, so they must never look like a bug.
- A storage fault (:mod:`bot.store.faults`): what happened, that nothing was changed
  and when to try again. A held lock is logged as a WARNING; a full, read-only or
  unreachable database as an ERROR without a traceback (the operator must act).
- An interaction that expired before the bot could answer it (a stalled process):
  nobody to tell, a WARNING.
- Anything else is a bug: "something went wrong", the traceback at ERROR (which
  ``pyramid_errors_total`` counts).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.core.errors import PlayError
from bot.interactions.command_input import MALFORMED, BadInput
from bot.interactions.replies import explain, tell
from bot.store import faults
from bot.store.faults import Fault, fault_of
from i18n import N_, Lang

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]

#: Each fault: what happened, that nothing was changed, when to try again.
FAULT_TEXTS = {
    Fault.BUSY: N_("⏳ The bot's database is busy with another change right now, so nothing was changed. "
                   "Please try again in a minute."),
    Fault.FULL: N_("❌ The bot's storage is full, so nothing was changed. Please try again later: the bot's "
                   "operator has to free some space first."),
    Fault.READ_ONLY: N_("❌ The bot's database is read-only right now, so nothing was changed. Please try again "
                        "later, once the bot's operator has made it writable."),
    Fault.UNAVAILABLE: N_("❌ The bot can't reach its database right now, so nothing was changed. Please try "
                          "again in a few minutes."),
}
#: discord.py's errors for a request it could not fit to the command: the player's mistake.
INPUT_ERRORS: tuple[type[Exception], ...] = (
    app_commands.TransformerError, app_commands.CommandSignatureMismatch, app_commands.CommandNotFound,
)
NOTHING_CHANGED = N_("Nothing was changed.")
#: Discord's error code for an interaction it no longer knows (answered too late).
UNKNOWN_INTERACTION = 10062


def is_players_mistake(error: BaseException) -> bool:
    return isinstance(error, (PlayError, *INPUT_ERRORS))


def mistake_text(error: BaseException, lang: Lang) -> str:
    """The sentence for a player's mistake (a request discord.py could not convert is
    told as one that does not fit its command)."""
    if isinstance(error, BadInput):
        return f"❌ {explain(error, lang)} {lang.gettext(NOTHING_CHANGED)}"
    if isinstance(error, PlayError):
        return f"❌ {explain(error, lang)}"
    return f"❌ {lang.gettext(MALFORMED)} {lang.gettext(NOTHING_CHANGED)}"


def log_fault(fault: Fault, what: str, error: BaseException) -> None:
    faults.log_fault(log, fault, what, error)


def expired(error: BaseException) -> bool:
    """Discord no longer knows the interaction (10062): it was not answered in time (a
    stalled or overloaded process). Nobody can be told any more; it is no bug."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


async def tell_if_possible(interaction: Interaction, text: str) -> None:
    """``tell``, unless the interaction has expired meanwhile (then a WARNING)."""
    try:
        await tell(interaction, text)
    except discord.NotFound as exc:
        if not expired(exc):
            raise
        log.warning("interaction %s expired before it was answered", interaction.id)


async def suggest_nothing(interaction: Interaction) -> None:
    """The answer to an autocomplete that can't be completed: no suggestions."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.autocomplete([])
    except discord.NotFound as exc:
        if not expired(exc):
            raise
        log.warning("autocomplete %s expired before it was answered", interaction.id)


async def answer_failure(interaction: Interaction, error: BaseException, lang: Lang, *, what: str,
                         internal: str) -> None:
    """Tell the player about ``error`` and log it at its level; ``internal`` is the
    sentence for a real bug (its wording depends on whether a move may have counted)."""
    if expired(error):
        log.warning("%s: the interaction expired before it was answered", what)
        return
    if is_players_mistake(error):
        log.info("%s refused: %s", what, error)
        await tell_if_possible(interaction, mistake_text(error, lang))
        return
    fault = fault_of(error)
    if fault is not None:
        log_fault(fault, what, error)
        await tell_if_possible(interaction, lang.gettext(FAULT_TEXTS[fault]))
        return
    log.error("%s failed", what, exc_info=error)
    await tell_if_possible(interaction, "❌ " + lang.gettext(internal))
