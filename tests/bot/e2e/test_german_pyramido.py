"""Issue #19's done-when: a whole Pyramido co-op game played in German.

Two players whose Discord clients speak German, on a server whose language is
Deutsch, play a co-op game from ``/pyramide neu`` to its result through the emulator,
with the commands called by their German names: every message the bot posts in the
channel, its thread and the players' DMs, and every reply, is German (known German
phrases are there, the English ones are not), and the pictures speak German too (the
first board posted is exactly a local drawing of its view in German, which differs
from the English one)."""

from __future__ import annotations

from typing import Any

from bot.cards.boards import board_labels, player_view, public_view
from emulator.harness import Harness, InteractionResult
from emulator.model import Channel, Message, User
from i18n import shared_texts
from render import render_board, render_hand
from tests.bot.e2e.driver import bot_of, latest_game_id, session_of

DE = shared_texts().lang("de")
EN = shared_texts().lang("en")
#: Moves preferred by the autocomplete player, by verb: build, then draw, then end.
PREFER = ("place", "discard", "end")
#: What German readers must meet somewhere in the game's messages and replies.
GERMAN = (
    "Spiel #", "· Zug 0", "du bist am Zug", "🂠 Steine auf der Hand:", "🔐 Faire Verteilung", "▶ Dein Zug",
    "🂠 Meine Hand", "🔄 Aktuelles Brett", "deine Hand nach Zug", "Du bist am Zug: Wähle unten", "Wähle einen Zug:",
    "Stein verbauen", "✅ Du hast ", "**Spielende.**", "🔁 Revanche", "Zug für Zug", "Beitreten",
    "Starten",
)
#: English a German reader must never meet (compared case-insensitively).
ENGLISH = (
    "your turn", "game over", "game #", "stones in hand", "deal sealed", "deal revealed", "your move", "my hand",
    "latest board", "choose a", "you played", "move by move", "your hand after", "place a stone", "end turn",
    "waiting for", "nobody won", "won!", "spots are lettered", "so far:", "done here",
)


def words_of(components: list[dict[str, Any]]) -> list[str]:
    """The words of components, however nested: a card's text displays and its pictures' alt text, labels,
    placeholders and options."""
    found: list[str] = []
    for item in components:
        found += [str(item.get("label") or ""), str(item.get("placeholder") or ""), str(item.get("content") or "")]
        found += [str(media.get("description") or "") for media in item.get("items") or []]
        found += [str(option.get("label") or "") for option in item.get("options") or []]
        found += words_of(list(item.get("components") or []))
    return found


def texts_of(message: Message) -> list[str]:
    """Everything a reader sees of a message: its text (content and embeds), its
    buttons and menus and its pictures' alt text, and those of its earlier versions."""
    found = [message.text, *words_of(message.components)]
    for old in message.history:
        found += [str(old.get("content") or ""), *words_of(list(old.get("components") or []))]
        for embed in old.get("embeds") or []:
            found += [str(embed.get("title") or ""), str(embed.get("description") or "")]
            found += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields") or []]
    found += [a.description or "" for a in message.attachments]
    return [t for t in found if t]


class Reader:
    """Collects what the bot said: the replies to each interaction as they come, and
    at the end every message posted where the players read."""

    def __init__(self) -> None:
        self.replies: list[InteractionResult] = []

    def keep(self, result: InteractionResult) -> InteractionResult:
        self.replies.append(result)
        return result

    def everything(self, harness: Harness, channels: list[Channel], users: list[User]) -> list[str]:
        messages = [m for c in channels for m in harness.messages(c)]
        messages += [m for u in users for m in harness.dm(u)]
        messages += [m for r in self.replies for m in r.messages]
        return [t for m in messages for t in texts_of(m)]


async def play_by_buttons(harness: Harness, reader: Reader, user: User, message: Message, label: str) -> None:
    """Open the chooser with ``label`` on ``message`` and click its first choice until a move is made."""
    shown = reader.keep(await harness.click(user, message, label=label))
    for _ in range(6):
        assert "Wähle" in shown.text, shown.text
        chooser = shown.last
        choice = next(b for b in chooser.button_labels if b not in ("⬅ Zurück", "Mehr ▶", "◀ Zurück"))
        shown = reader.keep(await harness.click(user, chooser, label=choice))
        if "✅ Du hast" in shown.text:
            return
    raise AssertionError(f"the chooser made no move: {shown.text}")


async def test_a_whole_pyramido_coop_game_in_german(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana", locale="de")
    ben = await harness.add_user("ben", locale="de")
    await harness.start_bot()
    reader = Reader()
    general = emulator.general
    told = reader.keep(await harness.slash(ana, general, "pyramide-admin einstellungen", sprache="de"))
    assert "**Deutsch**" in told.text, told.text
    lobby = reader.keep(await harness.slash(ana, general, "pyramide neu", spiel="pyramido", modus="coop", größe=4))
    assert lobby.message is not None
    reader.keep(await harness.click(ben, lobby.message, label="Beitreten"))
    reader.keep(await harness.click(ana, lobby.message, label="Starten"))
    game_id = await latest_game_id(harness)
    thread = harness.threads(general)[0]
    players = {0: ana, 1: ben}

    # The first board and hand: their pictures are the German drawings of their views.
    first = await bot_of(harness).services.sessions.load_at(game_id, 0)
    board = next(m for m in harness.messages(thread) if m.png_attachments())
    posted = board.attachment("board.png").data
    view = public_view(first, DE)
    german = render_board(view, labels=board_labels(first, view), events=[], art=first.presenter.art)
    english_view = public_view(first, EN)
    english = render_board(english_view, labels=board_labels(first, english_view), events=[],
                           art=first.presenter.art)
    assert posted == german and german != english
    seat = first.to_act
    hand = next(m for m in harness.dm(players[seat]) if m.attachments)
    assert hand.attachment("hand.png").data == render_hand(player_view(first, seat, DE), art=first.presenter.art)
    assert hand.attachment("hand.png").data != render_hand(player_view(first, seat, EN), art=first.presenter.art)

    # A move through the board's button and the chooser, one through the hand DM's chooser, a look at the hand and
    # the board, and the rest typed with /pyramide ziehen, as people do.
    await play_by_buttons(harness, reader, players[seat], board, "▶ Dein Zug")
    session = await session_of(harness, game_id)
    reader.keep(await harness.click(players[session.to_act], harness.messages(thread)[-1], label="🂠 Meine Hand"))
    reader.keep(await harness.click(ana, harness.messages(thread)[-1], label="🔄 Aktuelles Brett"))
    # The hand with its chooser: a DM, or, after their own move, the private answer to it (the newest of them).
    mover = players[session.to_act]
    hands = [m for m in harness.dm(mover) + harness.visible_messages(mover, thread)
             if (m.ephemeral or m.channel_id != thread.id) and m.attachments]
    dm = max(hands, key=lambda m: m.id)
    if dm.button_labels:
        await play_by_buttons(harness, reader, mover, dm, "Stein verbauen")
    for _ in range(400):
        session = await session_of(harness, game_id)
        if session.over or session.record.status != "active":
            break
        user = players[session.to_act]
        choices = await harness.autocomplete(user, thread, "pyramide ziehen", "zug", "", spiel=game_id)
        values = sorted((c["value"] for c in choices), key=lambda v: PREFER.index(v.split()[0])
                        if v.split()[0] in PREFER else len(PREFER))
        played = reader.keep(await harness.slash(user, thread, "pyramide ziehen", zug=values[0], spiel=game_id))
        assert "✅ Du hast" in played.text, played.text
    await harness.settle()
    session = await session_of(harness, game_id)
    assert session.result is not None and session.record.status == "finished"

    seen = reader.everything(harness, [general, thread], [ana, ben])
    everything = "\n".join(seen)
    missing = [phrase for phrase in GERMAN if phrase not in everything]
    assert not missing, missing
    lowered = [t.lower() for t in seen]
    leaked = {word: next(t for t in seen if word in t.lower()) for word in ENGLISH if any(word in t for t in lowered)}
    assert not leaked, leaked
    last = [m for m in harness.messages(thread) if m.png_attachments() and "Spiel #" in m.text][-1]
    assert "Spielende" in last.text and "Zug" in last.text
    replay = next(m for m in harness.messages(thread) if any(a.filename.endswith(".gif") for a in m.attachments))
    assert "Zug für Zug" in replay.text and "</pyramid replay:" in replay.text and "`spiel:" in replay.text
    harness.assert_no_bot_errors()
