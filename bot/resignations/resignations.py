"""A player leaves a running game: by ``/pyramid resign``, or forfeiting on a timeout.

Two-player games go to the opponent and solo games end as lost, with the result the
game itself gives a seat that leaves (``Game.forfeit``); bigger games continue with
an easy AI in the seat.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass

import discord

from bot.cards.cards import note
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.games.presenter import ENGLISH
from bot.posting.channels import Channels
from bot.posting.delivery import Delivery
from bot.store.departures import How
from bot.store.leaving import leave_seat
from engine.core.text import Phrase, name_of
from i18n import N_, Lang

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Leaving:
    """The words of one way to leave a game (msgids): the result's summary alone and
    with the winner, and the channel's notice when an AI takes the seat."""

    summary: str
    summary_won: str
    replaced: str


#: The reasons the bot gives (``resign(reason=…)``), in words that translate.
LEAVINGS: dict[str, Leaving] = {
    "resigned": Leaving(
        N_("{name} resigned."), N_("{name} resigned. {winner} wins."),
        N_("🏳️ {name} resigned; an easy AI plays their tiles from now on (it can't win for them)."),
    ),
    "timed out and forfeits": Leaving(
        N_("{name} timed out and forfeits."), N_("{name} timed out and forfeits. {winner} wins."),
        N_("🏳️ {name} timed out and forfeits; an easy AI plays their tiles from now on (it can't win for them)."),
    ),
}


def leaving(reason: str) -> Leaving:
    """The words of ``reason``; one the bot does not know is said as it is (in English)."""
    known = LEAVINGS.get(reason)
    if known is not None:
        return known
    return Leaving(f"{{name}} {reason}.", f"{{name}} {reason}. {{winner}} wins.",
                   f"🏳️ {{name}} {reason}; an easy AI plays their tiles from now on (it can't win for them).")


#: How often a resignation reads the game again when another process changed it in between.
LEAVE_TRIES = 5

class Resignations:
    def __init__(self, services: Services, client: discord.Client, channels: Channels,
                 delivery: Delivery) -> None:
        self.services = services
        self.client = client
        self.channels = channels
        self.delivery = delivery

    async def resign(self, game_id: int, user_id: int, *, reason: str, lang: Lang | None = None) -> str:
        """``user_id`` leaves game ``game_id`` (``reason``: "resigned", "timed out and
        forfeits"); returns what the channel is told, in ``lang`` (the caller's; the
        channel hears it in the server's language). The result's summary is stored in
        English, with its template, so that a later reader gets it in theirs."""
        services = self.services
        words = leaving(reason)
        async with services.sessions.lock(game_id):
            # Another process may change the game between the read and the write (its lock is its own): the
            # write is taken only on the game as read (bot.store.leaving), else it is read again.
            for _attempt in range(LEAVE_TRIES):
                session = await services.sessions.load(game_id, fresh=True)
                if session.record.status != "active":
                    raise PlayError(N_("This game is not running."))
                seat = session.seat_of(user_id)
                if seat is None:
                    raise PlayError(N_("You are not playing in this game."))
                if seat.resigned:
                    raise PlayError(N_("You have already left this game."))
                humans = [s for s in session.seats if s.user_id is not None and not s.resigned]
                name = seat.display
                # The seats' mentions, for what the channel is told now; what is stored names seats ({0}), never people.
                mentions = [s.display for s in session.seats]
                how: How = "timed out" if reason == "timed out and forfeits" else "resigned"
                finished = len(session.seats) <= 2 or (len(humans) <= 1 and session.game.max_players == 1)
                if finished:
                    result = session.game.forfeit(session.state, seat.seat)
                    first = session.seat(result.winners[0]) if result.winners else None
                    if first and first.user_id:
                        said = Phrase(words.summary_won, {"name": name_of(seat.seat), "winner": name_of(first.seat)})
                    else:
                        said = Phrase(words.summary, {"name": name_of(seat.seat)})
                    if (result.details or result.scores) and result.summary_text is not None:
                        # the game scored the leaving (Continuous Pyramid's tiles placed): its own sentence says so
                        said = Phrase(N_("{left} {result}"), {"left": said, "result": result.summary_text})
                    # The English summary, and its template (``summary_text``) so that a reader of another language
                    # gets it in theirs: the game ended outside a move, so no replay of the log can tell it again.
                    stored = dataclasses.replace(result, summary=said.english(), summary_text=said)
                    # What follows a game's end (leaderboards, ratings, the replay) runs from the outbox, as after a
                    # final move: durably, and once (queued in the same transaction).
                    left = await leave_seat(services.store.db, game_id, seat.seat, revision=session.record.revision,
                                            how=how, after_move=session.version, ai_level=None, resigned=True,
                                            result=stored.to_json(text=True))
                    notice = Phrase(N_("🏳️ {summary}"), {"summary": said})
                else:
                    left = await leave_seat(services.store.db, game_id, seat.seat, revision=session.record.revision,
                                            how=how, after_move=session.version, ai_level="easy", resigned=True)
                    notice = Phrase(words.replaced, {"name": name})
                services.sessions.forget(game_id)
                if left:
                    break
            else:
                raise PlayError(N_("The game kept changing while you were leaving it; please try again."))
        text = notice.fill(mentions, (lang or ENGLISH).gettext)
        if finished:
            # The channel is told once, by the final card the game's end leaves (its last board, turned into
            # it: bot.endings.final_cards), with the result, the score, 🔁 Rematch and 🔐 Fair deal.
            await self.delivery.deliver_game(game_id)
            return text
        told = await services.languages.for_game(session.record)  # the channel's language
        places = [session.record.play_channel_id]
        if session.record.seat_dms:  # a game in its seats' DMs: told in each (bot.posting.seat_dms)
            places = [c for _u, c in await self.delivery.announcer.seat_dms.places(session.record, session.seats)]
        if not session.record.in_place:  # an in-place game's card shows it at the next click
            try:
                for place in places:
                    await self.client.get_partial_messageable(place).send(
                        view=note(notice.fill(mentions, told.gettext)),
                        allowed_mentions=discord.AllowedMentions.none(), silent=True)
            except discord.HTTPException as exc:
                log.warning("could not announce resignation in game %s: %s", game_id, exc)
        await self.delivery.schedule_ai(await services.sessions.load(game_id))
        return text
