"""Provably fair deals in the thread: the seal at a game's start, the reveal at its end.

The first board (move 0) carries the seal, SHA-256 over the game's kind, seed and
salt (:mod:`bot.records.fairness`); the board of a game that is over carries the
seed and salt, so anyone can check them with ``pyramid-bot verify`` against the seal
the thread showed before the first move. Two exceptions, so that nothing posted is
false or gives a deal away:

* a challenge game's deal is never revealed: others may still be playing it (CP-3),
  and both its seal and its last board say so;
* a game created before deals were sealed has no salt: it shows no seal and no
  reveal.

A game that ends without a final board (someone resigned or timed out in a two-player
or solo game) gets the reveal from :class:`DealReveals`, which follows the game's end.

The lines are said in the channel's language; in English they are exactly
:mod:`bot.records.fairness`'s (``seal_line``, ``reveal_line``, ``CHALLENGE_SEALED``).
"""

from __future__ import annotations

import logging

import discord

from bot.games.presenter import ENGLISH
from bot.play.languages import Languages
from bot.play.posting.channels import Channels
from bot.play.posting.failures import Blocked
from bot.play.session import Session
from bot.play.views.cards import note
from bot.records import fairness
from i18n import N_, Lang

log = logging.getLogger(__name__)

#: :func:`bot.records.fairness.seal_line`, translatable.
SEALED = N_("🔒 Deal sealed: `{sealed}` (the seed and salt are revealed when the game ends; "
            "check them with `pyramid-bot verify`)")
SEALED_CHALLENGE = N_("🔒 Deal sealed: `{sealed}` (a challenge's deal: its seed and salt stay secret while others "
                      "may still play it)")
#: :func:`bot.records.fairness.reveal_line`, translatable.
REVEALED = N_("🔓 Deal revealed: seed `{seed}` · salt `{salt}` — `pyramid-bot verify` on the `/pyramid history` "
              "file checks them against the 🔒 seal posted at the start")
#: :data:`bot.records.fairness.CHALLENGE_SEALED`, translatable.
STAYS_SEALED = N_("🔒 This deal stays sealed: it is a challenge's, and others may still be playing it, "
                  "so its seed and salt are never shown (CP-3).")


def reveal_line(seed: int, salt: str, lang: Lang | None = None) -> str:
    return (lang or ENGLISH).tr(REVEALED, seed=seed, salt=salt)


def fair_deal_line(session: Session, lang: Lang | None = None) -> str | None:
    """The board's line about the deal's seal in ``lang``, or None (see the module's docstring)."""
    lang = lang or ENGLISH
    record = session.record
    if record.salt is None:
        return None
    if session.over:
        if record.challenge_id is not None:
            return lang.gettext(STAYS_SEALED)
        return reveal_line(record.seed, record.salt, lang)
    if session.version == 0:
        sealed = fairness.commitment(record.kind, record.seed, record.salt)
        return lang.tr(SEALED_CHALLENGE if record.challenge_id is not None else SEALED, sealed=sealed)
    return None


def reveal_nonce(game_id: int) -> str:
    """The reveal's nonce, one per game: a retried ``finish`` row posts it once.
    (``pbd…`` is no prefix of ``bot.play.posting.announcements.nonce``, which never uses ``d``.)"""
    return f"pbdeal{game_id:x}"


class DealReveals:
    """Follows a game's end (:class:`bot.play.posting.announcer.GameEnd`): reveals the deal of a
    game that ended without a final board. A game that ended with a move needs
    nothing: its last board revealed it."""

    def __init__(self, client: discord.Client, channels: Channels, languages: Languages | None = None) -> None:
        self.client = client
        self.channels = channels
        #: Who reads which language (None: English).
        self.languages = languages

    async def game_finished(self, session: Session) -> None:
        record = session.record
        if session.over or record.salt is None or record.challenge_id is not None or record.status != "finished":
            return
        if record.in_place:  # no channel post there: the card's seal line and /pyramid history tell the seed
            return
        lang = await self.languages.for_game(record) if self.languages is not None else ENGLISH
        text = lang.tr("Game #{number} is over. {reveal}.", number=record.id,
                       reveal=reveal_line(record.seed, record.salt, lang))
        try:
            self.channels.check_postable(record.play_channel_id)
            await self.client.get_partial_messageable(record.play_channel_id).send(
                view=note(text), nonce=reveal_nonce(record.id), allowed_mentions=discord.AllowedMentions.none(),
                silent=True)
        except (discord.HTTPException, Blocked) as exc:  # the seed is in /pyramid history all the same
            log.warning("could not reveal the deal of game %s: %s", record.id, exc)
