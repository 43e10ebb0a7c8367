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
"""

from __future__ import annotations

import logging

import discord

from bot.play.channels import Channels
from bot.play.failures import Blocked
from bot.play.session import Session
from bot.records import fairness

log = logging.getLogger(__name__)


def fair_deal_line(session: Session) -> str | None:
    """The board's line about the deal's seal, or None (see the module's docstring)."""
    record = session.record
    if record.salt is None:
        return None
    if session.over:
        if record.challenge_id is not None:
            return fairness.CHALLENGE_SEALED
        return fairness.reveal_line(record.seed, record.salt)
    if session.version == 0:
        return fairness.seal_line(fairness.commitment(record.kind, record.seed, record.salt),
                                  challenge=record.challenge_id is not None)
    return None


def reveal_nonce(game_id: int) -> str:
    """The reveal's nonce, one per game: a retried ``finish`` row posts it once.
    (``pbd…`` is no prefix of ``bot.play.announcements.nonce``, which never uses ``d``.)"""
    return f"pbdeal{game_id:x}"


class DealReveals:
    """Follows a game's end (:class:`bot.play.announcer.GameEnd`): reveals the deal of a
    game that ended without a final board. A game that ended with a move needs
    nothing: its last board revealed it."""

    def __init__(self, client: discord.Client, channels: Channels) -> None:
        self.client = client
        self.channels = channels

    async def game_finished(self, session: Session) -> None:
        record = session.record
        if session.over or record.salt is None or record.challenge_id is not None or record.status != "finished":
            return
        text = f"Game #{record.id} is over. {fairness.reveal_line(record.seed, record.salt)}."
        try:
            self.channels.check_postable(record.play_channel_id)
            await self.client.get_partial_messageable(record.play_channel_id).send(
                text, nonce=reveal_nonce(record.id), allowed_mentions=discord.AllowedMentions.none())
        except (discord.HTTPException, Blocked) as exc:  # the seed is in /pyramid history all the same
            log.warning("could not reveal the deal of game %s: %s", record.id, exc)
