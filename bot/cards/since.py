"""What changed since a player's last move, told when it is their turn again.

The hand DM that asks a player to move carries, once others have moved since that
player's own last move, the board with the places those moves changed outlined
(``view["outline"]``, drawn by ``render.outline``) and one line naming each mover
and the most important thing their move did::

    3 moves since your turn: Ben's R40 collapsed 2 tiles; Cy played Y10 to 0,1; …

Only what everyone saw counts: the events are the public ones (``Event.visible(None)``),
so a private draw is neither outlined nor told, and two deals that differ only in
hidden things give the same outline and the same line.

The moves come from the move log and their events from the board rows stored with
each move (one read each); only when those rows are gone, or were stored without the
words their sentences need, are the events rebuilt from the log in the CPU pool.
Nothing is drawn here: :func:`since_your_turn_dm` has the outlined board drawn in the
render worker (it cannot be the channel's board: that one has no outline).
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.cards.boards import board_labels, public_view
from bot.core.announcements import events_from_json
from bot.core.services import Services
from bot.core.session import Session
from bot.core.session_service import SessionService
from bot.store import GameStore
from bot.store.outbox import OutboxStore
from engine.core import Event
from engine.core.events import player_name
from i18n import Lang
from render import Art
from render.describe import MAX_DESCRIPTION, describe_board

#: The summary line's length, at most (Discord shows it on one or two lines).
SUMMARY_LIMIT = 200
#: Kinds of event whose cells point at places without changing them (where a tile
#: may fall, what a play opened up): not outlined.
POINTING = frozenset({"fall_choice", "free_air", "open"})
#: Kinds of event that start a new round on a cleared table: what came before them
#: is no longer on the board.
RESETS = frozenset({"round-start", "round"})
#: What a move does itself (as opposed to what follows from it), most telling first.
ACTIONS = ("play", "place", "take", "build", "fall", "reserve", "discard", "undo", "draw", "pass", "end",
           "resign")
_FORMATTER = string.Formatter()
#: The line that says "Ana played R40 to 0,0" is in the first clause; the rest
#: (the open ends now, the bag left) is for the board.
CLAUSE = "; "


@dataclass(frozen=True)
class Moved:
    """One move made since: by whom, and its public events."""

    seat: int
    events: tuple[Event, ...]


@dataclass(frozen=True)
class SinceYourTurn:
    """The moves others made after ``seat``'s last move (move ``since``) up to move
    ``until``, and the places they changed, as ``view["outline"]`` names them."""

    seat: int
    since: int
    until: int
    moves: tuple[Moved, ...]
    cells: tuple[str, ...]

    def summary(self, names: Sequence[str], lang: Lang, limit: int = SUMMARY_LIMIT) -> str:
        return summary_line(self.moves, names, lang, limit)

    def view(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """``view`` (a public view) with the changed places to outline."""
        return outlined(view, self.cells)

    def places(self) -> list[str]:
        """The changed places without the seat whose board they are on (for words)."""
        return list(dict.fromkeys(cell.rpartition("@")[0] or cell for cell in self.cells))


# --- pure: the cells and the words -------------------------------------------------
def outlined(view: Mapping[str, Any], cells: Sequence[str]) -> dict[str, Any]:
    return {**view, "outline": list(cells)}


def changed_cells(moves: Sequence[Moved]) -> list[str]:
    """The places the moves' public events put, took or moved something on, in the
    order first touched, each as ``"<cell>@<seat>"`` when the event names who did it
    (the seat whose own board it is, for games that draw one per seat).

    A new round clears what came before. A piece played to the left end of a line
    (Pyrinoes' ``line:<n>``) moves the line's earlier places one along, so the cells
    name where those pieces lie now."""
    found: dict[str, None] = {}
    for moved in moves:
        for event in moved.events:
            if not event.visible(None):
                continue
            if event.kind in RESETS:
                found.clear()
                continue
            if event.kind in POINTING:
                continue
            if _to_the_left(event):
                found = {_shifted(cell): None for cell in found}
            owner = event.players[0] if event.players else None
            for cell in event.cells:
                found[cell if owner is None else f"{cell}@{owner}"] = None
    return list(found)


def _to_the_left(event: Event) -> bool:
    data = event.data if isinstance(event.data, dict) else {}
    return event.kind == "play" and data.get("side") == "left" and any(c.startswith("line:") for c in event.cells)


def _shifted(entry: str) -> str:
    cell, at, owner = entry.partition("@")
    if cell.startswith("line:") and cell[5:].isdigit():
        cell = f"line:{int(cell[5:]) + 1}"
    return cell + at + owner


#: Events that take pieces off the board.
MAYHEM = frozenset({"collapse", "fire", "explosion", "curse"})


def mayhem_phrase(kinds: set[str], lang: Lang, name: str, piece: str, n: int) -> str:
    """What a move's piece set off (``kinds`` of mayhem) and how many pieces went."""
    kind = next(iter(kinds)) if len(kinds) == 1 else ""
    if kind == "collapse":
        return lang.trn("{name}'s {piece} collapsed {n} tile", "{name}'s {piece} collapsed {n} tiles", n,
                        name=name, piece=piece, n=n)
    if kind == "fire":
        return lang.trn("{name}'s {piece} started a fire: {n} tile burnt",
                        "{name}'s {piece} started a fire: {n} tiles burnt", n, name=name, piece=piece, n=n)
    if kind == "explosion":
        return lang.trn("{name}'s {piece} set off an explosion: {n} tile gone",
                        "{name}'s {piece} set off an explosion: {n} tiles gone", n, name=name, piece=piece, n=n)
    if kind == "curse":
        return lang.trn("{name}'s {piece} brought a curse: {n} tile gone",
                        "{name}'s {piece} brought a curse: {n} tiles gone", n, name=name, piece=piece, n=n)
    return lang.trn("{name}'s {piece} set off a chain of mayhem: {n} tile gone",
                    "{name}'s {piece} set off a chain of mayhem: {n} tiles gone", n, name=name, piece=piece, n=n)


def _removed(event: Event) -> int:
    """Pieces an event took off the board: a collapse names the heavy tile first,
    which stays; the other kinds name only what went."""
    return max(0, len(event.cells) - (1 if event.kind == "collapse" else 0))


def _action(moved: Moved) -> Event | None:
    """What the mover did: their most telling action, else any event naming them first."""
    mine = [e for e in moved.events if e.visible(None) and e.players[:1] == (moved.seat,)]
    for kind in ACTIONS:
        for event in mine:
            if event.kind == kind:
                return event
    return next((e for e in mine if e.kind not in POINTING), None)


def move_phrase(moved: Moved, names: Sequence[str], lang: Lang) -> str:
    """The most important thing one move did, in a few words, naming its mover."""
    name = names[moved.seat] if 0 <= moved.seat < len(names) else player_name(moved.seat, lang.gettext)
    action = _action(moved)
    mayhem = [e for e in moved.events if e.visible(None) and e.kind in MAYHEM]
    if mayhem:
        piece = action.items[0] if action is not None and action.items else None
        gone = sum(_removed(e) for e in mayhem)
        if piece is not None and gone > 0:
            return mayhem_phrase({e.kind for e in mayhem}, lang, name, piece, gone)
    if action is None:
        return lang.tr("{name} moved", name=name)
    try:
        text = action.narrate(names, lang.gettext)
    except (IndexError, KeyError, ValueError, AttributeError):  # a story stored without its words
        return lang.tr("{name} moved", name=name)
    text = text.split(CLAUSE, 1)[0].strip().rstrip(".")
    if "{0}" not in action.text:  # the sentence does not name the mover
        return lang.tr("{name}: {what}", name=name, what=text)
    return text


def summary_line(moves: Sequence[Moved], names: Sequence[str], lang: Lang, limit: int = SUMMARY_LIMIT) -> str:
    """``"3 moves since your turn: A; B; C."``, at most ``limit`` characters: the
    moves that do not fit are left to the picture, marked by an ellipsis."""
    head = lang.trn("{n} move since your turn", "{n} moves since your turn", len(moves), n=len(moves))
    parts = [move_phrase(m, names, lang) for m in moves]
    text = f"{head}: " + CLAUSE.join(parts) + "."
    if len(text) <= limit:
        return text
    kept = f"{head}:"
    for part in parts:
        longer = (kept + " " if kept.endswith(":") else kept + CLAUSE) + part
        if len(longer) + 1 > limit:
            break
        kept = longer
    if kept.endswith(":"):  # not even the first move fits whole
        kept = (kept + " " + parts[0])[: limit - 1].rstrip()
    return kept + "…"


def outline_words(since: SinceYourTurn, lang: Lang) -> str:
    """The outline in words, for the outlined board's alt text."""
    places = since.places()
    shown = ", ".join(places[:24]) + (", …" if len(places) > 24 else "")
    return lang.trn("Outlined: the place changed since your turn ({places}).",
                    "Outlined: the {n} places changed since your turn ({places}).",
                    len(places), n=len(places), places=shown)


def board_description(view: Mapping[str, Any], since: SinceYourTurn, lang: Lang, *, art: Art,
                      labels: Mapping[str, str]) -> str:
    """The outlined board's alt text: the board in words (``render.describe``, from the
    public view), with what is outlined after its first line."""
    lead = outline_words(since, lang)[: MAX_DESCRIPTION // 2]
    words = describe_board(view, art=art, lang=lang, labels=labels, limit=MAX_DESCRIPTION - len(lead) - 1)
    first, _, rest = words.partition("\n")
    return "\n".join(part for part in (first, lead, rest) if part)


def display_names(session: Session) -> list[str]:
    """The seats' names as a DM's text shows them (plain, not mentions: a mention of
    someone the reader shares no server with shows as an unknown user)."""
    return [discord.utils.escape_markdown(s.plain_name) for s in session.seats]


# --- from the store ------------------------------------------------------------------
async def since_your_turn(store: GameStore, sessions: SessionService, session: Session,
                          seat: int) -> SinceYourTurn | None:
    """What others did between ``seat``'s last move and ``session``'s version; None
    when nobody else has moved since (or ``seat`` has not moved yet: there is no
    "since your turn" before a first turn)."""
    if len(session.seats) < 2 or session.version < 2:
        return None
    game_id, until = session.record.id, session.version
    log = (await store.moves(game_id))[:until]
    last = next((m.seq for m in reversed(log) if m.seat == seat), None)
    if last is None or last >= until:
        return None
    after = [m for m in log if m.seq > last]
    raw = await OutboxStore(store.db).board_events(game_id, last, until)
    stored = {seq: events_from_json(items) for seq, items in raw.items()} if raw is not None else None
    if stored is not None and not all(_tellable(e) for events in stored.values() for e in events):
        stored = None  # a story stored without the words its sentences need: rebuild it
    moves: list[Moved] = []
    for record in after:
        if stored is not None:
            events = stored.get(record.seq, [])
        else:
            events = await sessions.replay_events(game_id, record.seq - 1, record.seq)
        moves.append(Moved(record.seat, tuple(e for e in events if e.visible(None))))
    return SinceYourTurn(seat, last, until, tuple(moves), tuple(changed_cells(moves)))


def _tellable(event: Event) -> bool:
    """Whether the event carries every named word its sentence needs (a story stored
    before events kept their arguments has only the template)."""
    try:
        fields = [name for _, name, _, _ in _FORMATTER.parse(event.text) if name]
    except ValueError:
        return False
    named = {name.split(".", 1)[0].split("[", 1)[0] for name in fields}
    return all(name.isdigit() or name in event.args for name in named)


async def since_your_turn_dm(services: Services, session: Session, seat: int,
                             user_id: int) -> tuple[str, discord.File] | None:
    """For the hand DM of ``seat`` (played by ``user_id``) when it is their turn:
    the summary line and the outlined board (drawn in the render worker, with the
    channel board's letters), or None when nobody else moved since their last move."""
    since = await since_your_turn(services.store, services.sessions, session, seat)
    if since is None or not since.moves:
        return None
    lang = await services.languages.for_user(user_id, session.record.guild_id)
    view, art = public_view(session, lang), session.presenter.art  # the board's words in the reader's language
    labels = board_labels(session, view)
    file = await services.renderer.board(since.view(view), art=art, labels=labels,
                                         description=board_description(view, since, lang, art=art, labels=labels))
    return "🔁 " + since.summary(display_names(session), lang), file


__all__ = [
    "SUMMARY_LIMIT",
    "Moved",
    "SinceYourTurn",
    "board_description",
    "changed_cells",
    "display_names",
    "mayhem_phrase",
    "move_phrase",
    "outline_words",
    "outlined",
    "since_your_turn",
    "since_your_turn_dm",
    "summary_line",
]
