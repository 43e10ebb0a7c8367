"""What a board message says and which buttons it carries.

Only public information goes here: the board message is seen by the whole channel.
Private choices (which tile to play) happen in an ephemeral picker or a DM.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.custom_ids import CustomId
from bot.games import Presenter, presenter
from bot.picker import back_path, node_at
from bot.sessions import Session
from engine.core import Event
from render.labels import spot_labels

MAX_CONTENT = 2000


def names(session: Session) -> list[str]:
    return [s.display for s in session.seats]


def plain_names(session: Session) -> list[str]:
    return [s.plain_name for s in session.seats]


def narrate(events: Sequence[Event], session: Session, *, viewer: int | None = None) -> list[str]:
    who = names(session)
    return [e.narrate(who) for e in events if e.visible(viewer)]


def status_line(session: Session) -> str:
    result = session.result
    who = names(session)
    if result is not None and session.over:
        summary = result.summary.format(*who) if result.summary else ""
        winners = ", ".join(who[w] for w in result.winners if w < len(who))
        if winners:
            return f"🏆 **Game over.** {summary or f'{winners} won!'}"
        return f"🏁 **Game over.** {summary or 'Nobody won this time.'}"
    if session.record.status == "finished":
        extra = (session.record.result or {}).get("summary", "")
        return f"🏁 **Game over.** {extra}".strip()
    seat = session.to_act
    if seat is None:
        return ""
    pending = session.game.pending(session.state) or {}
    name = who[seat] if seat < len(who) else f"Player {seat + 1}"
    if result is not None:  # a provisional result: the player may still take it back
        return f"😬 {name}, you are stuck: undo a play, or give up to finish ({result.summary.format(*who)})."
    if "decision" in pending:
        return f"⏳ {name}, your decision: **{pending['decision']}**."
    if pending.get("kind") == "placing":
        return f"🎯 {name}, keep placing stones, or end your turn."
    return f"🎯 {name}, it's your turn."


def trim(lines: Sequence[str], limit: int = MAX_CONTENT) -> str:
    text = "\n".join(line for line in lines if line)
    if len(text) <= limit:
        return text
    return text[: limit - 2] + " …"


def board_content(session: Session, events: Sequence[Event]) -> str:
    p = presenter(session.record.kind)
    header = f"{p.emoji} **{p.title}** · game #{session.record.id} · move {session.version}"
    story = narrate(events, session)
    extra: list[str] = []
    if p.board_lines is not None:  # from the public view only: the whole channel reads this
        names = [discord.utils.escape_markdown(n) for n in plain_names(session)]
        extra = p.board_lines(dict(session.game.view(session.state, None)), names)
    return trim([header, *story[-12:], *extra, status_line(session)])


def board_labels(session: Session, view: Mapping[str, Any]) -> dict[str, str]:
    """The letters drawn on the public board (and matched by the picker's buttons).

    A game whose presenter names ``public_spots`` gets them from ``view``, the public
    view, so the letters can only depend on what everyone may see; others letter the
    cells of the legal moves."""
    if session.over:
        return {}
    p = presenter(session.record.kind)
    if p.public_spots is not None:
        return spot_labels(p.public_spots(dict(view)))
    return p.labels(session.game.legal_moves(session.state))


def mention_allowed(session: Session) -> discord.AllowedMentions:
    """Ping only the person who must act next, never everyone named in the story."""
    seat = session.to_act
    record = session.seat(seat) if seat is not None else None
    users = [discord.Object(record.user_id)] if record and record.user_id and not record.is_ai else []
    return discord.AllowedMentions(users=users, roles=False, everyone=False, replied_user=False)


def button(cid: CustomId, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           row: int | None = None, disabled: bool = False) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label[:80], custom_id=cid.encode(), style=style, row=row, disabled=disabled)


def board_view(session: Session) -> discord.ui.View:
    """The board's buttons; empty once the game is over."""
    view = discord.ui.View(timeout=None)
    if session.over or session.record.status != "active":
        return view
    p = presenter(session.record.kind)
    gid, ver = session.record.id, session.version
    moves = session.game.legal_moves(session.state)
    public = [m for m in moves if m.split()[0] in p.public_verbs]
    seat = session.to_act
    acting = session.seat(seat) if seat is not None else None
    if acting is not None and not acting.is_ai:
        if public and len(public) == len(moves) and len(public) <= 5:
            labels = p.labels(moves)
            for move in public:
                label = " ".join(p.token_label(t, labels) for t in p.steps(move)[1:]) or move
                view.add_item(button(CustomId("move", gid, ver, move), label, discord.ButtonStyle.primary))
        else:
            view.add_item(button(CustomId("turn", gid, ver), "▶ Your move", discord.ButtonStyle.primary))
    if p.has_hand:
        view.add_item(button(CustomId("hand", gid, ver), "🂠 My hand"))
    view.add_item(button(CustomId("board", gid, 0), "🔄 Latest board"))
    return view


@dataclass(frozen=True)
class Picker:
    content: str
    view: discord.ui.View


PAGE = 20


def picker(session: Session, path: Sequence[str], page: int = 0) -> Picker:
    """The private chooser for the seat to act, at ``path``."""
    p: Presenter = presenter(session.record.kind)
    gid, ver = session.record.id, session.version
    moves = session.game.legal_moves(session.state)
    labels = p.labels(moves)
    node = node_at(moves, list(path), p.steps)
    view = discord.ui.View(timeout=None)
    chosen = " › ".join(p.token_label(t, labels) for t in node.path)
    lines = [f"**{p.title}** · move {ver + 1}"]
    if chosen:
        lines.append(f"So far: {chosen}")
    lines.append(p.prompt(node.path) + ":")
    if labels:
        lines.append("Spots are lettered as on the board picture.")
    choices = list(node.choices)
    if len(choices) <= PAGE:
        for token in choices:
            full = (*node.path, token)
            view.add_item(button(CustomId("pick", gid, ver, " ".join(full)), p.token_label(token, labels),
                                 discord.ButtonStyle.primary))
    else:
        start = page * 25
        options = [
            discord.SelectOption(label=p.token_label(t, labels)[:100], value=t) for t in choices[start : start + 25]
        ]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=CustomId("sel", gid, ver, " ".join(node.path)).encode(), options=options,
            placeholder=f"{p.prompt(node.path)} ({start + 1}–{start + len(options)} of {len(choices)})", row=0,
        )
        view.add_item(select)
        if start + 25 < len(choices):
            view.add_item(button(CustomId("page", gid, ver, f"{page + 1}|{' '.join(node.path)}"), "More ▶", row=1))
        if page > 0:
            view.add_item(button(CustomId("page", gid, ver, f"{page - 1}|{' '.join(node.path)}"), "◀ Back", row=1))
    row = 4
    if node.complete is not None and choices:
        view.add_item(button(CustomId("move", gid, ver, node.complete), "✅ Done here", discord.ButtonStyle.success,
                             row=row))
    back = back_path(moves, node, p.steps)
    if back is not None:
        view.add_item(button(CustomId("pick", gid, ver, " ".join(back)), "⬅ Back", row=row))
    return Picker("\n".join(lines), view)
