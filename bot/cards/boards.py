"""What a board message says and which buttons it carries, and the views of a game
its pictures are drawn from.

Only public information goes here: the board message is seen by the whole channel.
Private choices (which tile to play) happen in an ephemeral picker or a DM
(:mod:`bot.cards.chooser`).

Everything here says its words in the ``lang`` it is handed (the channel's for the
board, the player's for their hand): the callers resolve the language, these pure
helpers never do. Without one they speak English, as they always did.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.cards.cards import Picture, card, seat_colour
from bot.cards.components import button
from bot.cards.custom_ids import CustomId
from bot.cards.fair_deals import has_fair_deal
from bot.core.session import Session
from bot.games.presenter import ENGLISH
from bot.ratings.texts import unrated_note
from engine.core import BadPosition, Event, Result
from engine.core.events import player_name
from i18n import Lang

MAX_CONTENT = 2000


def names(session: Session) -> list[str]:
    return [s.display for s in session.seats]


def plain_names(session: Session) -> list[str]:
    return [s.plain_name for s in session.seats]


def public_view(session: Session, lang: Lang | None = None) -> dict[str, object]:
    """What everyone may see, with the names and number the picture shows, and the
    language of its words (``view["lang"]``, when ``lang`` is given)."""
    return player_view(session, None, lang)


def player_view(session: Session, seat: int | None, lang: Lang | None = None) -> dict[str, object]:
    """What ``seat`` may see (its hand; None: everyone), for a picture, with its words in ``lang``."""
    view = dict(session.game.view(session.state, seat))
    view["names"] = plain_names(session)
    view["game_number"] = session.record.id
    if lang is not None:
        view["lang"] = lang.code
    return view


def ended_view(session: Session, lang: Lang | None = None) -> dict[str, object]:
    """The public view of a game that ended outside a move (a resignation, a timeout's forfeit), as its final
    card draws it: with the stored result, so the picture's header says how it ended, not whose turn it was.
    (Only for the game as it stands now: a session of an earlier move carries the same finished record.)"""
    view = public_view(session, lang)
    if not session.over and session.record.status == "finished" and session.record.result:
        view["result"] = dict(session.record.result)
    return view


def narrate(events: Sequence[Event], session: Session, lang: Lang | None = None, *,
            viewer: int | None = None) -> list[str]:
    """The story lines of ``events`` that ``viewer`` may see, in ``lang``."""
    who = names(session)
    gettext = lang.gettext if lang is not None else None
    return [e.narrate(who, gettext) for e in events if e.visible(viewer)]


def status_line(session: Session, lang: Lang | None = None) -> str:
    """Whose turn it is, the decision awaited, or the result, in ``lang``."""
    lang = lang or ENGLISH
    result = session.result
    who = names(session)
    if result is not None and session.over:
        summary = result.narrate(who, lang.gettext) if result.summary else ""
        winners = ", ".join(who[w] for w in result.winners if w < len(who))
        unrated = unrated_note(session.presenter.rating, session.record.options, lang)
        if winners:
            line = lang.tr("🏆 **Game over.** {summary}", summary=summary or lang.tr("{winners} won!", winners=winners))
        else:
            line = lang.tr("🏁 **Game over.** {summary}", summary=summary or lang.gettext("Nobody won this time."))
        return f"{line} _{unrated}_" if unrated else line
    if session.record.status == "finished":
        return lang.tr("🏁 **Game over.** {summary}", summary=stored_summary(session, lang)).strip()
    seat = session.to_act
    if seat is None:
        return ""
    name = who[seat] if seat < len(who) else player_name(seat, lang.gettext)
    pending = session.game.pending(session.state)
    if pending is not None:
        summary = result.narrate(who, lang.gettext) if result is not None else ""
        return session.presenter.decision(pending.kind, lang).format(name=name, kind=pending.kind, summary=summary)
    acting = session.seat(seat)
    if acting is not None and acting.is_ai:  # an AI's card (the first, when it opens): nobody to tell "your turn"
        return (lang.tr("⏳ {name} moves first.", name=name) if session.version == 0
                else lang.tr("⏳ {name} moves next.", name=name))
    return lang.tr("🎯 {name}, it's your turn.", name=name)


def stored_summary(session: Session, lang: Lang) -> str:
    """The summary of a game that ended outside a move (a resignation, a timeout),
    as stored with its result: in English, translated when it was stored with its
    template (:attr:`engine.core.Result.summary_text`)."""
    stored = session.record.result or {}
    try:
        return Result.from_json(stored).narrate(names(session), lang.gettext)
    except (BadPosition, KeyError, TypeError, ValueError):
        return str(stored.get("summary", ""))


def board_header(session: Session, lang: Lang | None = None) -> str:
    """The card's first line: the game and the move. It names one board, so a retried post
    finds by it whether the board went out already."""
    p = session.presenter
    header = (lang or ENGLISH).tr("{emoji} **{title}** · game #{number} · move {move}", emoji=p.emoji,
                                  title=p.title, number=session.record.id, move=session.version)
    return header + (f" · ↩{session.record.undos}" if session.record.undos else "")  # a move shown again


def board_texts(session: Session, events: Sequence[Event], lang: Lang | None = None,
                clock: str | None = None) -> tuple[list[str], list[str]]:
    """The game card's words, in ``lang`` (the channel's): above the picture, the game and
    move, whose turn it is and how long they have (``clock``: the line of the seat to
    act's time bank, ``bot.clock.clocks.Clocks.line``, with its ``<t:…:R>``); below it,
    the story of the moves since the last board and the game's own lines. The deal's seal is
    behind the card's 🔐 Fair deal button (:mod:`bot.cards.fair_deals`), not in its words."""
    lang = lang or ENGLISH
    p = session.presenter
    above = [board_header(session, lang), status_line(session, lang), score_line(session, lang), clock or ""]
    extra: list[str] = []
    if p.board_lines is not None:  # from the public view only: the whole channel reads this
        shown = [discord.utils.escape_markdown(n) for n in plain_names(session)]
        extra = p.board_lines(dict(session.game.view(session.state, None)), shown, lang)
    story = [*narrate(events, session, lang)[-12:], *extra]
    return ["\n".join(line for line in above if line)], ["\n".join(line for line in story if line)]


def score_line(session: Session, lang: Lang | None = None) -> str:
    """The scores of a game that ended outside a move (a resignation, a timeout): its stored result's
    summary names who left and who won, and this line what stood when it ended. A game ended by a move
    says its score in its own summary; a running game has none."""
    if session.over or session.record.status != "finished":
        return ""
    try:
        result = Result.from_json(session.record.result or {})
    except (BadPosition, KeyError, TypeError, ValueError):
        return ""
    who = names(session)
    if not result.scores or len(result.scores) != len(who):
        return ""
    shown = " · ".join(f"{name} {score:g}" for name, score in zip(who, result.scores, strict=True))
    return (lang or ENGLISH).tr("Score: {scores}", scores=shown)


def board_card(session: Session, events: Sequence[Event], lang: Lang | None, file: discord.File | Picture,
               clock: str | None = None) -> discord.ui.LayoutView:
    """The game card (Components V2): one container in the colour of the player to act,
    with whose turn it is and until when, the board picture with its alt text, the
    story, and the board's buttons."""
    above, below = board_texts(session, events, lang, clock)
    acting = None if session.over or session.record.status != "active" else session.to_act
    return card(above, accent=seat_colour(acting), files=[file], after=below,
                controls=board_view(session, lang).children)


def board_labels(session: Session, view: Mapping[str, Any]) -> dict[str, str]:
    """The letters drawn on the public board (and matched by the picker's buttons).

    A game whose pictures name their public spots gets them from ``view``, the
    public view, so the letters can only depend on what everyone may see; others
    letter the cells of the legal moves."""
    if session.over:
        return {}
    return session.presenter.public_labels(view, session.game.legal_moves(session.state))


def mention_allowed(session: Session) -> discord.AllowedMentions:
    """Ping only the person who must act next, never everyone named in the story."""
    seat = session.to_act
    record = session.seat(seat) if seat is not None else None
    users = [discord.Object(record.user_id)] if record and record.user_id and not record.is_ai else []
    return discord.AllowedMentions(users=users, roles=False, everyone=False, replied_user=False)


def board_view(session: Session, lang: Lang | None = None) -> discord.ui.View:
    """The board's buttons, labelled in ``lang`` (the channel's). A running game's: the moves, the hand,
    the latest board, 🏳️ Give up where the player to act is stuck (:func:`give_up_move`) and 🔐 Fair deal on
    the first card; a finished game's final card: 🔁 Rematch and 🔐 Fair deal (:func:`final_buttons`)."""
    lang = lang or ENGLISH
    view = discord.ui.View(timeout=None)
    if session.over or session.record.status != "active":
        for item in final_buttons(session, lang):
            view.add_item(item)
        return view
    p = session.presenter
    gid, ver = session.record.id, session.version
    moves = session.game.legal_moves(session.state)
    public = [m for m in moves if m.split()[0] in p.public_verbs]
    seat = session.to_act
    acting = session.seat(seat) if seat is not None else None
    if acting is not None and not acting.is_ai:
        if public and len(public) == len(moves) and len(public) <= 5:
            labels = p.labels(moves)
            for move in public:
                label = p.move_words(move, labels, lang, button=True)[:80]
                view.add_item(button(CustomId("move", gid, ver, move), label, discord.ButtonStyle.primary))
        else:
            view.add_item(button(CustomId("turn", gid, ver), lang.gettext("▶ Your move"), discord.ButtonStyle.primary))
        give_up = give_up_move(session)
        if give_up is not None:
            view.add_item(button(CustomId("move", gid, ver, give_up), lang.gettext("🏳️ Give up"),
                                 discord.ButtonStyle.danger))
    if p.has_hand:
        view.add_item(button(CustomId("hand", gid, ver), lang.gettext("🂠 My hand")))
    view.add_item(button(CustomId("board", gid, 0), lang.gettext("🔄 Latest board")))
    if has_fair_deal(session):
        view.add_item(button(CustomId("fair", gid, 0), lang.gettext("🔐 Fair deal")))
    return view


def give_up_move(session: Session) -> str | None:
    """The move that gives the game up when the player to act is stuck (Continuous Pyramid's ``resign``
    while its pending decision is ``stuck``), or None. The button plays it as the chooser's "Give up"
    does (through ``Turns.move``: the one move path, with its preview and ✅ Confirm for a player who
    asked for previews)."""
    pending = session.game.pending(session.state)
    if pending is None or pending.kind != "stuck":
        return None
    moves = session.game.legal_moves(session.state)
    return next((m for m in moves if m.split()[0] == "resign"), None)


def final_buttons(session: Session, lang: Lang | None = None) -> list[discord.ui.Button[Any]]:
    """What a finished game's card offers: 🔁 Rematch (a new lobby of the same game and options with its
    players invited; not for a shared deal's game, whose deal is the challenge's or the day's) and
    🔐 Fair deal. Every ending's last card carries them (a final move's board, the card a resignation or a
    timeout leaves: :mod:`bot.endings.final_cards`)."""
    lang = lang or ENGLISH
    gid = session.record.id
    out: list[discord.ui.Button[Any]] = []
    if session.record.challenge_id is None:
        out.append(button(CustomId("again", gid, 0), lang.gettext("🔁 Rematch"), discord.ButtonStyle.success))
    if has_fair_deal(session):
        out.append(button(CustomId("fair", gid, 0), lang.gettext("🔐 Fair deal")))
    return out
