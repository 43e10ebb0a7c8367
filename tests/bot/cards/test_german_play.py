"""The games in play speak the reader's language: with a German ``Lang`` the board
message, the status lines, the chooser, the reminder and every game's rules blurb and
button words come out German, and without one (or with English) they are exactly the
English they always were."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
import pytest

from bot.cards.boards import board_texts, board_view, narrate, player_view, public_view, status_line
from bot.cards.chooser import chooser
from bot.cards.fair_deals import fair_deal_text
from bot.clock.clock import ClockRules, Span, TurnClock
from bot.clock.clock_text import clock_line, duration
from bot.core.errors import RESIGNED, PlayError, StaleBoard
from bot.core.session import Session
from bot.daily.deals import score_text, until_next
from bot.daily.store import DailyResult
from bot.games.catalogue import Catalogue
from bot.games.presenter import Presenter
from bot.posting.permissions import refusal, report
from bot.records import fairness
from bot.reminders.reminders import hours, reminder_text
from bot.resignations.resignations import leaving
from bot.store import GameRecord, SeatRecord
from bot.workers.rendering import Renderer
from engine.core import Game, Result
from engine.core.text import Phrase
from i18n import Lang, shared_texts

CATALOGUE = Catalogue.default()
DE = shared_texts().lang("de")
EN = shared_texts().lang("en")
SALT = "0123456789abcdef" * 2
#: English words that must not reach a German reader of these texts.
ENGLISH_WORDS = ("your turn", "Game over", "game #", "move ", "Choose", "Stones in hand", "Deal sealed", "Your move",
                 "My hand", "Latest board")


def board_content(session: Any, events: list[Any], lang: Any = None) -> str:
    """The game card's words (its text displays), joined as the channel reads them."""
    above, below = board_texts(session, events, lang)
    return "\n".join([*above, *below])


def session_of(kind: str, players: int, options: dict[str, Any], *, moves: int = 0, seed: int = 7,
               result: dict[str, Any] | None = None, status: str = "active") -> Session:
    """A game of ``kind`` after its first ``moves`` legal moves (always the first one)."""
    presenter = CATALOGUE.presenter(kind)
    game: Game[Any] = presenter.game
    state = game.setup(players, options, seed)
    for _ in range(moves):
        seat = game.waiting_for(state)
        assert seat is not None
        state, _events = game.play(state, seat, game.legal_moves(state)[0])
    record = GameRecord(id=5, kind=kind, guild_id=1, channel_id=2, thread_id=3, options=options, status=status,
                        seed=seed, created_by=100, challenge_id=None, result=result, created_at="", updated_at="",
                        salt=SALT)
    seats = [SeatRecord(game_id=5, seat=s, user_id=100 + s, ai_level=None, name=name, joined_at="")
             for s, name in enumerate(("Ana", "Ben")[:players])]
    return Session(record, seats, presenter, state, moves)


def pyramido() -> Session:
    return session_of("pyramido", 2, {"mode": "coop", "size": 4})


def labels(view: discord.ui.View) -> list[str]:
    """The words on a view's buttons and select options, in order."""
    found: list[str] = []
    for item in view.children:
        if isinstance(item, discord.ui.Select):
            found += [option.label for option in item.options]
        else:
            found.append(str(getattr(item, "label", "")))
    return found


def test_the_board_message_is_german_and_english_is_unchanged() -> None:
    session = pyramido()
    german = board_content(session, [], DE)
    assert german.startswith("🟥 **Pyramido** · Spiel #5 · Zug 0")
    assert "🂠 Steine auf der Hand: Ana:" in german and "Ben:" in german
    assert "🎯 <@100>, du bist am Zug." in german
    sealed = fair_deal_text(session, DE)
    assert sealed is not None and "🔒 Verteilung versiegelt: `" in sealed and "pyramid-bot verify" in sealed
    assert not [w for w in ENGLISH_WORDS if w in german], german
    # English: the words as before, whether asked for or by default.
    english = board_content(session, [])
    assert english == board_content(session, [], EN)
    assert english.startswith("🟥 **Pyramido** · game #5 · move 0") and "🎯 <@100>, it's your turn." in english
    assert fairness.seal_line(fairness.commitment("pyramido", 7, SALT)) in (fair_deal_text(session) or "")


def test_story_lines_and_the_decision_awaited_are_german() -> None:
    presenter = CATALOGUE.presenter("pyramido")
    game = presenter.game
    state = game.setup(2, {"mode": "coop", "size": 4}, 7)
    move = next(m for m in game.legal_moves(state) if m.startswith("place"))
    state, events = game.play(state, 0, move)
    base = session_of("pyramido", 2, {"mode": "coop", "size": 4})
    session = dataclasses.replace(base, state=state, version=1)
    story = narrate(events, session, DE)
    assert story and story[0].startswith("<@100> verbaute ") and " auf 1:" in story[0], story
    assert narrate(events, session) == narrate(events, session, EN) == [e.narrate(["<@100>", "<@101>"])
                                                                          for e in events]
    # Placing stones: the status line asks for more or the end of the turn.
    assert status_line(session, DE) == "🎯 <@100>, verbaue weitere Steine oder beende deinen Zug."
    assert status_line(session) == "🎯 <@100>, keep placing stones, or end your turn."


def test_status_lines_at_the_end_are_german() -> None:
    over = session_of("flaming-pyramids", 2, {"turn_limit": 3}, moves=0)
    game, state = over.game, over.state
    while game.waiting_for(state) is not None:
        state, _ = game.play(state, game.waiting_for(state), game.legal_moves(state)[0])  # type: ignore[arg-type]
    over = dataclasses.replace(over, state=state, version=9)
    line = status_line(over, DE)
    assert line.startswith(("🏆 **Spielende.** ", "🏁 **Spielende.** ")), line
    assert "Game over" not in line and "turn limit" not in line
    assert status_line(over).startswith(("🏆 **Game over.** ", "🏁 **Game over.** "))
    # The last board reveals the deal, in German.
    reveal = fair_deal_text(over, DE)
    assert reveal is not None and "\n🔓 Verteilung enthüllt: Seed `7` · Salt `" in reveal
    assert fairness.reveal_line(7, SALT) in (fair_deal_text(over) or "")


def test_a_resignation_stored_in_english_is_read_in_german() -> None:
    words = leaving("resigned")
    said = Phrase(words.summary_won, {"name": "Ana", "winner": "<@101>"})
    result = Result(winners=(1,), summary=said.fill(()), summary_text=said, resigned=(0,)).to_json(text=True)
    assert result["summary"] == "Ana resigned. <@101> wins."  # stored English, as the records keep it
    session = session_of("pyrinoes", 2, {}, result=result, status="finished")
    assert status_line(session, DE) == "🏁 **Spielende.** Ana hat aufgegeben. <@101> gewinnt."
    assert status_line(session) == "🏁 **Game over.** Ana resigned. <@101> wins."


def test_the_board_buttons_are_german() -> None:
    german = labels(board_view(pyramido(), DE))
    # move 0: the first card offers the deal's seal
    assert german == ["▶ Dein Zug", "🂠 Meine Hand", "🔄 Aktuelles Brett", "🔐 Faire Verteilung"]
    assert labels(board_view(pyramido())) == ["▶ Your move", "🂠 My hand", "🔄 Latest board", "🔐 Fair deal"]


def test_the_chooser_is_german() -> None:
    session = pyramido()
    first = chooser(session, (), lang=DE)
    assert first.content.splitlines()[0] == "**Pyramido** · Zug 0"  # the number its board shows
    assert "Wähle einen Zug:" in first.content
    assert "Stein verbauen" in labels(first.view)
    place = next(m for m in session.game.legal_moves(session.state) if m.startswith("place")).split()
    spots = chooser(session, place[:2], lang=DE)  # the line stands where spots are offered (#43)
    assert "Die Plätze tragen dieselben Buchstaben wie auf dem Bild des Bretts." in spots.content
    placing = chooser(session, ("place",), lang=DE)
    assert "Bisher: Stein verbauen" in placing.content and "Wähle einen Stein:" in placing.content
    assert "⬅ Zurück" in labels(placing.view)
    english = chooser(session, ("place",))
    assert "So far: Place a stone" in english.content and "Choose a stone:" in english.content
    assert "⬅ Back" in labels(english.view)


def test_pyrinoes_spot_counts_are_labelled_in_german() -> None:
    session = session_of("pyrinoes", 2, {})
    shown = chooser(session, ("build",), lang=DE)
    spots = [label for label in labels(shown.view) if label.endswith(" Augen")]
    assert spots and all("–" in label for label in spots), labels(shown.view)
    # grouped by the higher end first: a few buttons, no paged menu (#43)
    assert not any(isinstance(item, discord.ui.Select) for item in shown.view.children), labels(shown.view)
    english = [label for label in labels(chooser(session, ("build",)).view) if label.endswith(" spots")]
    assert [s.replace(" Augen", " spots") for s in spots] == english


def test_the_reminder_and_the_clock_are_german() -> None:
    now = datetime(2026, 11, 22, 12, tzinfo=UTC)
    rules = ClockRules(bank=timedelta(hours=72), increment=timedelta(hours=24), reminder=timedelta(hours=24),
                       pause_cap=timedelta(days=14))
    clock = TurnClock(started=now - timedelta(hours=25), bank=timedelta(hours=72), pauses=(), rules=rules)
    runs_out = f"<t:{int((now + timedelta(hours=47)).timestamp())}:R>"
    assert reminder_text("Ana", 5, clock, now, DE) == (
        f"⏰ Ana, du bist in Spiel #5 am Zug. ⏱ noch 1 T. 23 Std. · läuft ab {runs_out}")
    assert reminder_text("Ana", 5, clock, now, EN) == (
        f"⏰ Ana, it's your turn in game #5. ⏱ 1 d 23 h left · runs out {runs_out}")
    assert duration(timedelta(hours=5, minutes=30), DE) == "5 Std. 30 Min."
    assert duration(timedelta(days=2), EN) == "2 d"
    away = TurnClock(started=now - timedelta(hours=1), bank=timedelta(hours=72),
                     pauses=(Span(now - timedelta(minutes=30), now + timedelta(days=1)),), rules=rules)
    assert clock_line(away, now, DE).startswith("⏸ Abwesend: die Uhr steht bei noch 2 T. 23 Std.")
    assert hours(timedelta(minutes=40), DE) == "40 Minuten" and hours(timedelta(minutes=40)) == "40 minutes"


@pytest.mark.parametrize("kind", CATALOGUE.kinds)
def test_every_game_has_german_rules_verbs_prompts_and_decisions(kind: str) -> None:
    presenter: Presenter = CATALOGUE.presenter(kind)
    german = presenter.rules_text(DE)
    assert german != presenter.rules and presenter.rules_text() == presenter.rules and len(german) > 200
    for token in presenter.verbs:
        assert presenter.token_label(token, {}, DE) != presenter.token_label(token, {}), token
    for depth in range(len(presenter.prompts)):
        path = ("x",) * depth
        assert presenter.prompt(path, DE) != presenter.prompt(path), (kind, depth)
    for decision in (*presenter.decisions, "unnamed"):
        assert presenter.decision(decision, DE) != presenter.decision(decision)


def test_the_rules_blurbs_use_each_games_german_words() -> None:
    words = {"pyramido": ("Steinbruch", "Beutel", "Ebene", "Minuspunkte"),
             "flaming-pyramids": ("Plättchen", "Lötlampen"), "pyrinoes": ("Dominostein", "Talon", "Augen"),
             "continuous-pyramid": ("Reserve", "Herausforderung")}
    for kind, wanted in words.items():
        text = CATALOGUE.presenter(kind).rules_text(DE)
        assert all(w in text for w in wanted), (kind, text)


def test_refusals_explain_themselves_in_german() -> None:
    resigned = PlayError(RESIGNED).explain(DE.gettext)
    assert resigned == "Du hast dieses Spiel verlassen; jetzt spielt eine KI deinen Platz."
    assert str(PlayError(RESIGNED)) == RESIGNED
    stale = StaleBoard(4)
    assert stale.explain(DE.gettext).startswith("Dieses Brett ist veraltet") and str(stale).startswith("This board")
    odd = PlayError("A {name} with braces")  # a sentence, not a template
    assert str(odd) == odd.explain(DE.gettext) == "A {name} with braces"


def test_daily_scores_and_permission_reports_are_german() -> None:
    result = DailyResult(day="2026-11-22", user_id=1, game_id=1, guild_id=1, channel_id=None, name="Ana", tiles=97,
                         won=False, undos=1, timed_out=True, started_at="", finished_at="")
    assert score_text(result, DE) == "97/144 ⌛ Zeit abgelaufen · 1 Rücknahme"
    assert score_text(result) == "97/144 ⌛ timed out · 1 undo"
    assert until_next(datetime(2026, 11, 22, 18, 48, tzinfo=UTC), DE) == "5 Std. 12 Min."
    assert until_next(datetime(2026, 11, 22, 18, 48, tzinfo=UTC)) == "5 h 12 min"
    none = discord.Permissions.none()
    refused = refusal(none, "#general", "threads", DE) or ""
    assert refused.startswith("❌ Ich kann in #general kein Spiel veranstalten")
    checked = report(none, "#general", "threads", DE)
    assert "**Dateien anhängen**" in checked and "(empfohlen)" in checked and "Attach Files" not in checked
    assert "**Attach Files**" in report(none, "#general", "threads")


def test_views_name_their_language_and_the_hand_cache_keeps_languages_apart() -> None:
    session = session_of("flaming-pyramids", 2, {})
    assert "lang" not in public_view(session) and public_view(session, DE)["lang"] == "de"
    assert player_view(session, 0, EN)["lang"] == "en"

    async def draw() -> tuple[bytes, bytes, bytes, dict[tuple[str, str], int]]:
        renderer = Renderer.with_threads(1)
        try:
            art = session.presenter.art
            german = await renderer.hand_png(player_view(session, 0, DE), art=art)
            english = await renderer.hand_png(player_view(session, 0, EN), art=art)
            again = await renderer.hand_png(player_view(session, 0, EN), art=art)
            return german, english, again, renderer.pictures()
        finally:
            renderer.close()

    german, english, again, counts = asyncio.run(draw())
    assert german != english and again == english
    assert counts["hand", "drawn"] == 2 and counts["hand", "reused"] == 1


def test_lang_defaults_to_english() -> None:
    assert isinstance(DE, Lang) and DE.code == "de" and EN.code == "en"
