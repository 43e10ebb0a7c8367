"""Running tournaments between clicks: the start, each round's pairing and games, results
as games end, the round deadline, the standings card and the final card.

Everything is driven from the database, so a restart (or another process) picks up
where it stood: :meth:`Tournaments.advance` looks at one tournament and does the next
thing that is due, and every step is safe to run twice:

- the start and the end move the tournament's status once (``TournamentStore.move_on``);
- a round is paired once (its primary key, see :mod:`bot.tournaments.store`);
- a round's games are written as lobbies with every seat, and started (thread, first
  board) by whoever finds them still lobbies: a process killed between the two leaves
  lobbies that the next pass starts (``SessionService.start`` refuses a second start);
- a game's places are recorded once (``places IS NULL``).

It runs on every game's end (a ``GameEnd`` of the announcer) and on a sweep (the start
time, round deadlines, anything a dead process left). At a round's deadline a game
still running is decided by the clock's own forfeit: the seat to act times out and
forfeits (``Resignations.resign``, "timed out and forfeits"), as the sweep does to an
empty bank, until the game is over.
"""

from __future__ import annotations

import asyncio
import logging
import math
from datetime import timedelta
from typing import Any

import discord

from bot.cards.cards import NEUTRAL, Item, card, timestamp
from bot.cards.components import button
from bot.cards.custom_ids import CustomId
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.core.session import Session
from bot.core.tasks import sweep_forever
from bot.interactions.host import Host
from bot.ratings import count_game
from bot.ratings.store import RatingStore
from bot.seeks.starting import start_unattended
from bot.store.departures import departures_of
from bot.tournaments import pairing
from bot.tournaments.standings import Bye, Finished, Line, standings
from bot.tournaments.store import Entrant, RoundGame, Table, Tournament, TournamentStore
from i18n import N_, Lang

log = logging.getLogger(__name__)
FORMAT_NAMES = {"swiss": N_("Swiss"), "round-robin": N_("Round robin"), "tables": N_("Multi-player rounds")}
MEDALS = ("🥇", "🥈", "🥉")
#: Points of a Swiss bye (a win), and of a round-robin sit-out (everyone has one with an odd number).
SWISS_BYE = 1.0
ROUND_ROBIN_BYE = 0.0
#: The largest table of multi-player rounds.
LARGEST_TABLE = 6
#: The most entrants a tournament takes. Each round opens a thread per game (128 for 256 two-player
#: entrants), and Discord keeps at most 1,000 active threads in a server, its other games' included.
MOST_ENTRANTS = 256


def default_rounds(format: str, count: int) -> int:
    """Rounds when the admin named none: Swiss ⌈log2 n⌉ (enough to single out a winner), a round
    robin all of its rounds, multi-player rounds 3."""
    if format == "round-robin":
        return len(pairing.round_robin(list(range(count))))
    if format == "swiss":
        return max(1, math.ceil(math.log2(max(count, 2))))
    return 3


def table_range(low: int, high: int) -> tuple[int, int]:
    """Table sizes of multi-player rounds for a game of ``low``–``high`` players: 3 to 6 within them."""
    return max(3, low), min(LARGEST_TABLE, high)


def fewest_entrants(t: Tournament, low: int) -> int:
    return table_range(low, LARGEST_TABLE)[0] if t.format == "tables" else 2


class Tournaments:
    """The tournaments of one client (see the module docstring)."""

    def __init__(self, services: Services, host: Host, client: discord.Client) -> None:
        self.services = services
        self.host = host
        self.client = client
        self.store = TournamentStore(services.db)
        #: The most entrants a tournament takes (``bot.tournaments.signup``'s rule).
        self.most_entrants = MOST_ENTRANTS
        self._locks: dict[int, asyncio.Lock] = {}
        #: Tournaments to look at once more when the running look ends (see :meth:`advance`).
        self._again: set[int] = set()

    # --- driving ----------------------------------------------------------------
    async def run(self) -> None:
        await sweep_forever(lambda: self.services.sweep_seconds, self.sweep, "tournament sweep")

    async def sweep(self) -> list[str]:
        """One pass over the tournaments not over yet; what it did (for logs and tests)."""
        done: list[str] = []
        for t in await self.store.open_ones():
            try:
                done.extend(await self.advance(t.id))
            except Exception:  # this tournament only; the others go on
                log.exception("tournament %s could not advance", t.id)
        return done

    async def game_finished(self, session: Session) -> None:
        """A ``GameEnd``: a tournament game's places, the card, and the next round if this closed one."""
        tournament_id = await self.store.tournament_of(session.record.id)
        if tournament_id is None:
            return
        places = await self.places(session, tournament_id)
        if places is not None and await self.store.record_places(session.record.id, places):
            log.info("tournament %s: game %s ended %s", tournament_id, session.record.id, places)
        await self.advance(tournament_id)

    async def advance(self, tournament_id: int) -> list[str]:
        """Do what is due for one tournament. A call while this process is at it already (a game
        that its own deadline forfeit ended, say) asks the running call to look once more, and
        returns at once: waiting for it would wait for itself."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        if lock.locked():
            self._again.add(tournament_id)
            return []
        done: list[str] = []
        async with lock:
            while True:
                self._again.discard(tournament_id)
                done.extend(await self._advance(tournament_id))
                if tournament_id not in self._again:
                    break
        if done:
            await self.show_card(tournament_id)
        return done

    async def _advance(self, tournament_id: int) -> list[str]:
        t = await self.store.get(tournament_id)
        if t is None:
            return []
        now = self.services.clock()
        done: list[str] = []
        if t.status == "signup":
            if now < t.starts_at:
                return []
            started = await self.begin(t)
            if started is None:
                return [f"cancelled:{t.id}"]
            t = started
            done.append(f"started:{t.id}")
        if t.status != "running":
            return done
        done.extend(await self.start_games(t))
        rounds = await self.store.rounds(t.id)
        games = await self.store.games(t.id)
        if rounds:
            current = rounds[-1]
            still = [g for g in games if g.round == current.round and g.places is None]
            still = await self.catch_up(t, still)
            if still:
                if now >= current.deadline:
                    done.extend(await self.decide_by_clock(t, still))
                return done
            if t.rounds is not None and current.round >= t.rounds:
                return done + await self.finish(t)
        number = rounds[-1].round + 1 if rounds else 1
        paired = await self.pair(t, number, games)
        if paired is None:
            return done + await self.finish(t)
        if paired:
            done.append(f"paired:{t.id}:{number}")
        done.extend(await self.start_games(t))
        return done

    # --- the start and the end -------------------------------------------------
    async def begin(self, t: Tournament) -> Tournament | None:
        """Sign-up closes: the ratings are read, the rounds fixed; too few entrants cancel it (None)."""
        entrants = [e for e in await self.store.entrants(t.id) if e.active]
        low, _ = self.services.catalogue.presenter(t.kind).game.player_range(self.options(t))
        if len(entrants) < fewest_entrants(t, low):
            if await self.store.move_on(t.id, "signup", "cancelled"):
                await self.show_card(t.id)
            return None
        board = RatingStore(self.services.db)
        ratings: dict[int, float] = {}
        for e in entrants:
            found = [s for s in await board.standings_of(e.user_id, [t.guild_id]) if s.kind == t.kind]
            ratings[e.entrant] = round(found[0].mu - 3 * found[0].sigma, 2) if found else 0.0
        await self.store.set_ratings(t.id, ratings)
        rounds = t.rounds if t.rounds is not None else default_rounds(t.format, len(entrants))
        if t.format == "round-robin":
            rounds = min(rounds, len(pairing.round_robin([e.entrant for e in entrants])))
        await self.store.move_on(t.id, "signup", "running", rounds=rounds)
        return await self.store.get(t.id)

    async def finish(self, t: Tournament) -> list[str]:
        if not await self.store.move_on(t.id, "running", "finished"):
            return []
        lines, entrants = await self.table_of(t)
        words = await self.services.languages.for_guild(t.guild_id)
        podium = [f"{MEDALS[i]} **{entrants[line.player].name}** · "
                  + words.tr("{points} points", points=_num(line.points))
                  for i, line in enumerate(lines[:3])]
        text = [words.tr("🏁 **{name}** is over.", name=t.name), "\n".join(podium) or words.tr("Nobody played.")]
        await self._send(t, card(text, accent=0xF0C808))
        return [f"finished:{t.id}"]

    # --- pairing ----------------------------------------------------------------
    def options(self, t: Tournament) -> Any:
        return self.services.catalogue.presenter(t.kind).game.parse_options({})

    async def pair(self, t: Tournament, number: int, games: list[RoundGame]) -> bool | None:
        """Pair round ``number``: True when this call wrote it, False when it existed already,
        None when no round can be paired (the tournament is over)."""
        entrants = await self.store.entrants(t.id)
        by_number = {e.entrant: e for e in entrants}
        active = [e.entrant for e in entrants if e.active]
        ratings = {e.entrant: e.rating for e in entrants}
        byes = await self.store.byes(t.id)
        finished = [Finished(g.places) for g in games if g.places]
        lines = standings(ratings, finished, [Bye(entrant, points) for _, entrant, points in byes])
        tables: list[tuple[int, ...]] = []
        given: list[tuple[int, float]] = []
        if t.format == "swiss":
            if len(active) < 2:
                return None
            met = {frozenset(g.places) for g in games if g.places}  # every earlier game has ended
            order = pairing.swiss_order(active, {line.player: line.points for line in lines}, ratings)
            try:
                drawn = pairing.swiss_round(order, met, {entrant for _, entrant, _ in byes})
            except pairing.NoBye:
                return None
            tables = list(drawn.pairs)
            if drawn.bye is not None:
                given.append((drawn.bye, SWISS_BYE))
        elif t.format == "round-robin":
            schedule = pairing.round_robin([e.entrant for e in entrants if e.withdrawn_round != 0])
            if number > len(schedule) or len(active) < 2:
                return None
            for a, b in schedule[number - 1]:
                if b is None:
                    given.append((a, ROUND_ROBIN_BYE))
                elif by_number[a].active and by_number[b].active:
                    tables.append((a, b))
                elif by_number[a].active or by_number[b].active:  # the withdrawn one's game is a forfeit
                    given.append((a if by_number[a].active else b, SWISS_BYE))
        else:
            low, high = self.services.catalogue.presenter(t.kind).game.player_range(self.options(t))
            smallest, largest = table_range(low, t.table_size or high)
            if len(active) < smallest:
                return None
            order = [line.player for line in lines if line.player in set(active)]
            sat: dict[int, int] = {}
            for _, entrant, _ in byes:
                sat[entrant] = sat.get(entrant, 0) + 1
            drawn_tables = pairing.tables_round(order, smallest, largest, sat)
            tables = list(drawn_tables.tables)
            middle = (min(len(table) for table in tables) - 1) / 2 if tables else 0.0
            given.extend((entrant, middle) for entrant in drawn_tables.sitting_out)
        deadline = self.services.clock() + timedelta(hours=t.round_hours)
        rows = [Table(tuple((by_number[e].user_id, by_number[e].name, e) for e in table), self.services.new_seed())
                for table in tables]
        return await self.store.write_round(t, number, deadline, rows, given, self.options(t).model_dump(mode="json"))

    # --- games --------------------------------------------------------------------
    async def start_games(self, t: Tournament) -> list[str]:
        """Start every game of the tournament still a lobby: a round just paired, or one a
        process died before starting. Each gets a thread named for the tournament and round."""
        done: list[str] = []
        words: Lang | None = None
        for g in await self.store.games(t.id):
            record = await self.services.store.game_record(g.game_id)
            if record is None or record.status != "lobby":
                continue
            words = words or await self.services.languages.for_guild(t.guild_id)
            title = words.gettext(self.services.catalogue.presenter(t.kind).title)
            name = words.tr("{tournament} · Round {round} · {game} #{id}", tournament=t.name, round=g.round,
                            game=title, id=g.game_id)
            if not await start_unattended(self.services, self.host, self.client, g.game_id, name):
                continue
            done.append(f"game:{t.id}:{g.round}:{g.game_id}")
        return done

    async def places(self, session: Session, tournament_id: int) -> dict[int, int] | None:
        """Each entrant's finishing place, as ratings count the game (a leaver last)."""
        record = session.record
        moves = await self.services.store.moves(record.id)
        outcome = count_game(session.game, session.state, record, session.seats, moves,
                             departures=await departures_of(self.services.db, record.id))
        entrant_of = {e.user_id: e.entrant for e in await self.store.entrants(tournament_id)}
        if outcome is None:  # ended without a result the log explains: a draw, so the round can close
            log.warning("tournament %s: game %s ended without a result; counted as a draw", tournament_id, record.id)
            return {entrant_of[s.user_id]: 1 for s in session.seats if s.user_id in entrant_of}
        ranks = {entrant_of[s.user_id]: s.rank for s in outcome.seats if s.user_id in entrant_of}
        # Places among the entrants alone: the AIs that took over leavers' seats rank too, but play no tournament.
        return {entrant: 1 + sum(other < rank for other in ranks.values()) for entrant, rank in ranks.items()}

    async def catch_up(self, t: Tournament, still: list[RoundGame]) -> list[RoundGame]:
        """The games still open, after recording any that ended without their end being followed
        here (a process killed first) or were cancelled (a draw)."""
        left: list[RoundGame] = []
        for g in still:
            record = await self.services.store.game_record(g.game_id)
            if record is None or record.status in ("lobby", "active"):
                left.append(g)
                continue
            places: dict[int, int] | None = None
            if record.status == "finished":
                places = await self.places(await self.services.sessions.load(g.game_id), t.id)
            if places is None:
                entrant_of = {e.user_id: e.entrant for e in await self.store.entrants(t.id)}
                places = {entrant_of[s.user_id]: 1 for s in await self.services.store.seats(g.game_id)
                          if s.user_id in entrant_of}
            await self.store.record_places(g.game_id, places)
        return left

    async def decide_by_clock(self, t: Tournament, still: list[RoundGame]) -> list[str]:
        """The round's deadline passed: in each game still running, the seat to act times out and
        forfeits, as an empty bank does, until the game is over."""
        done: list[str] = []
        for g in still:
            for _ in range(LARGEST_TABLE):
                try:
                    session = await self.services.sessions.load(g.game_id)
                except PlayError:
                    break
                seat = session.seat(session.to_act) if session.to_act is not None else None
                if session.record.status != "active" or seat is None or seat.user_id is None:
                    break
                try:
                    await self.host.resignations.resign(g.game_id, seat.user_id, reason="timed out and forfeits")
                except PlayError:
                    break
                done.append(f"deadline:{t.id}:{g.game_id}")
        return done

    async def withdraw_games(self, t: Tournament, user_id: int) -> None:
        """A withdrawn entrant's running games are forfeits (the games they finished stand)."""
        for g in await self.store.games(t.id):
            if g.places is not None:
                continue
            record = await self.services.store.game_record(g.game_id)
            if record is None or record.status != "active":
                continue
            try:
                await self.host.resignations.resign(g.game_id, user_id, reason="resigned")
            except PlayError:
                continue

    # --- cards ----------------------------------------------------------------------
    async def table_of(self, t: Tournament) -> tuple[list[Line], dict[int, Entrant]]:
        entrants = {e.entrant: e for e in await self.store.entrants(t.id)}
        games = await self.store.games(t.id)
        byes = await self.store.byes(t.id)
        lines = standings({n: e.rating for n, e in entrants.items()}, [Finished(g.places) for g in games if g.places],
                          [Bye(entrant, points) for _, entrant, points in byes])
        return lines, entrants

    async def card_text(self, t: Tournament, lang: Lang) -> list[str]:
        """The standings card's texts, in ``lang``."""
        presenter = self.services.catalogue.presenter(t.kind)
        head = (f"🏆 **{t.name}** · {presenter.emoji} {lang.gettext(presenter.title)} · "
                f"{lang.gettext(FORMAT_NAMES[t.format])}")
        lines, entrants = await self.table_of(t)
        texts = [head]
        if t.status == "signup":
            texts.append(lang.tr("Sign-up is open until {when}: click **Join** below, or `/pyramid tournament join`.",
                                 when=timestamp(t.starts_at, "f")))
            names = ", ".join(e.name for e in entrants.values() if e.active)
            texts.append(lang.tr("Entrants ({count}): {names}", count=sum(e.active for e in entrants.values()),
                                 names=names or "–"))
            return texts
        if t.status == "cancelled":
            texts.append(lang.tr("Cancelled: too few entrants signed up."))
            return texts
        rounds = await self.store.rounds(t.id)
        if t.status == "finished":
            texts.append(lang.tr("Final standings after {rounds} rounds.", rounds=len(rounds)))
        elif rounds:
            texts.append(lang.tr("Round {round} of {rounds} · ends {when}", round=rounds[-1].round,
                                 rounds=t.rounds or "?", when=timestamp(rounds[-1].deadline)))
        rows = []
        for place, line in enumerate(lines, start=1):
            e = entrants[line.player]
            gone = " " + lang.tr("(withdrew)") if not e.active else ""
            rows.append(lang.tr("{place}. **{name}**{gone} · {points} pts · Buchholz {buchholz} · SB {sb}",
                                place=place, name=e.name, gone=gone, points=_num(line.points),
                                buchholz=_num(line.buchholz), sb=_num(line.sonneborn_berger)))
        texts.append("\n".join(rows))
        if rounds and t.status == "running":
            texts.append(await self.round_text(t, rounds[-1].round, entrants, lang))
        return texts

    async def round_text(self, t: Tournament, number: int, entrants: dict[int, Entrant], lang: Lang) -> str:
        rows = [lang.tr("**Round {round}**", round=number)]
        for g in await self.store.games(t.id):
            if g.round != number:
                continue
            record = await self.services.store.game_record(g.game_id)
            seats = await self.services.store.seats(g.game_id)
            names = " – ".join(s.name or "?" for s in seats)
            where = f" <#{record.thread_id}>" if record is not None and record.thread_id else ""
            state = "✅" if g.places is not None else "⏳"
            rows.append(f"{state} {names}{where}")
        for round_no, entrant, points in await self.store.byes(t.id):
            if round_no == number:
                rows.append(lang.tr("Bye: {name} ({points} pts)", name=entrants[entrant].name, points=_num(points)))
        return "\n".join(rows)

    async def show_card(self, tournament_id: int) -> None:
        """Post the standings card, or edit it in place."""
        t = await self.store.get(tournament_id)
        if t is None:
            return
        words = await self.services.languages.for_guild(t.guild_id)
        view = card(await self.card_text(t, words), accent=NEUTRAL, controls=sign_up_buttons(t, words))
        channel = self.client.get_partial_messageable(t.channel_id)
        try:
            if t.card_message_id is not None:
                await channel.get_partial_message(t.card_message_id).edit(view=view)
                return
            sent = await channel.send(view=view)
        except discord.HTTPException as exc:
            log.warning("tournament %s: the standings card could not be shown (%s)", t.id, exc)
            return
        await self.store.set_card(t.id, sent.id)

    async def _send(self, t: Tournament, view: discord.ui.LayoutView) -> None:
        try:
            await self.client.get_partial_messageable(t.channel_id).send(view=view)
        except discord.HTTPException as exc:
            log.warning("tournament %s: a card could not be posted (%s)", t.id, exc)


def sign_up_buttons(t: Tournament, lang: Lang) -> list[Item]:
    """The card's Join and Leave while the sign-up is open (``bot.tournaments.item``); none after it."""
    if t.status != "signup":
        return []
    return [button(CustomId("tjoin", t.id, 0), lang.tr("Join"), discord.ButtonStyle.success),
            button(CustomId("tleave", t.id, 0), lang.tr("Leave"))]


def _num(value: float) -> str:
    return f"{value:g}"
