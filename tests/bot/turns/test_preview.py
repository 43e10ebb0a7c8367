"""See before you commit: a preview shows only what its player could work out.

A preview is made from re-deals of everything hidden from the player's seat, never
from the real position, so it must be a function of that seat's view and the move:
re-dealing the hidden things (as ``tests/test_hidden_information.py`` does for the
channel) gives the same text, the same picture and the same alt text, byte for byte,
for every kind of game, over positions and moves from random play. And what it shows
is the truth where the rules make it certain: in Flaming Pyramids a move that
collapses tiles shows the collapse, and the board it draws is the board that follows.
"""

from __future__ import annotations

from typing import Any

import pytest

import render
from bot.cards.preview import Preview, preview_description, preview_move, preview_text
from bot.core.session import Session
from bot.games.catalogue import Catalogue
from bot.store import GameRecord, SeatRecord
from bot.turns.previews import BACK, CONFIRM, arg_move, move_arg
from engine.core import Game, MoveRejected, Rng, get_game
from i18n import Lang, shared_texts
from tests.test_hidden_information import TABLES
from tools.playout import steps

CATALOGUE = Catalogue.default()


def session_of(kind: str, state: Any, options: dict[str, Any], version: int = 4) -> Session:
    game = get_game(kind)
    record = GameRecord(id=7, kind=kind, guild_id=1, channel_id=2, thread_id=3, options=options, status="active",
                        seed=11, created_by=100, challenge_id=None, result=None, created_at="", updated_at="")
    seats = [SeatRecord(game_id=7, seat=s, user_id=100 + s, ai_level=None, name=f"P{s}", joined_at="")
             for s in range(game.players_in(state))]
    return Session(record, seats, CATALOGUE.presenter(kind), state, version)


def positions(game: Game[Any], players: int, options: dict[str, Any], seed: int) -> list[Any]:
    """Positions along one game of random legal moves, opening to late, each with a seat to act."""
    state = game.setup(players, options, seed)
    line = steps(game, state, Rng(seed * 31 + 7), 80)
    found = [state, *(step.state for n, step in enumerate(line, start=1) if n % 9 == 0)]
    return [s for s in found if game.waiting_for(s) is not None]


def shown(preview: Preview, session: Session, lang: Lang) -> tuple[str, bytes | None, str]:
    """Everything the player is shown: the message, the picture and its alt text."""
    art = session.presenter.art
    picture = None
    if preview.view is not None:
        picture = render.render_board(preview.view, labels={}, events=list(preview.events), art=art)
    return preview_text(preview, session, lang), picture, preview_description(preview, lang, art)


@pytest.mark.parametrize(("kind", "players", "options"), TABLES, ids=lambda v: str(v))
def test_a_preview_is_a_function_of_the_seats_view(kind: str, players: int, options: dict[str, Any]) -> None:
    game = get_game(kind)
    texts = shared_texts()
    checked = certain = 0
    for seed in (21, 22):
        lang = texts.lang("de" if seed % 2 else "en")
        for state in positions(game, players, options, seed):
            seat = game.waiting_for(state)
            assert seat is not None
            moves = game.legal_moves(state)
            picked = list(moves)
            Rng(seed).shuffle(picked)
            for move in picked[:3]:
                session = session_of(kind, state, options)
                preview = preview_move(session, seat, move, lang)
                before = shown(preview, session, lang)
                for k in range(2):
                    twin = game.determinize(state, seat, Rng(seed * 1000 + k))
                    if game.to_position(twin) == game.to_position(state):
                        continue  # nothing hidden from this seat here
                    other = session_of(kind, twin, options)
                    assert shown(preview_move(other, seat, move, lang), other, lang) == before, (
                        f"{kind}: the preview of {move!r} depends on hidden pieces")
                    checked += 1
                certain += preview.certain
    assert checked > 0, "no position had anything hidden to re-deal"
    if kind == "flaming-pyramids":
        assert certain, "Flaming Pyramids' outcomes are public: its previews have pictures"


def test_a_collapse_is_shown_as_it_will_happen() -> None:
    """Find moves that collapse tiles in random Flaming Pyramids play: each preview
    tells the collapse in its story, rings it on the picture, and draws exactly the
    public board the move then gives."""
    game = get_game("flaming-pyramids")
    lang = shared_texts().lang("en")
    found = 0
    for seed in range(40):
        state = game.setup(3, {}, seed)
        for step in steps(game, state, Rng(seed), 60):
            seat = game.waiting_for(state)
            if seat is not None:
                for move in game.legal_moves(state):
                    after, events = game.play(state, seat, move)
                    if not any(e.kind == "collapse" for e in events):
                        continue
                    session = session_of("flaming-pyramids", state, {})
                    preview = preview_move(session, seat, move, lang)
                    assert preview.certain and preview.view is not None
                    collapse = next(e for e in events if e.kind == "collapse")
                    assert collapse in preview.events
                    assert collapse.narrate(["<@100>", "<@101>", "<@102>"]) in preview.story
                    assert "collapse" in preview_text(preview, session, lang)
                    real = {**game.view(after, None), "names": ["P0", "P1", "P2"], "game_number": 7, "lang": "en"}
                    assert preview.view == real
                    assert preview.view["falling"] is not None, "the played tile falls: the next decision"
                    found += 1
                    break
            if found >= 3:
                return
            state = step.state
    raise AssertionError(f"only {found} collapsing moves found")


def test_what_depends_on_hidden_tiles_is_left_out_and_said() -> None:
    """Continuous Pyramid turns a stock tile up after each play: the placement is
    certain, the tile is not, so there is no picture, and the preview says why."""
    game = get_game("continuous-pyramid")
    state = game.setup(1, {}, 5)
    move = game.legal_moves(state)[0]
    for code in ("en", "de"):
        lang = shared_texts().lang(code)
        session = session_of("continuous-pyramid", state, {})
        preview = preview_move(session, 0, move, lang)
        assert not preview.certain and preview.view is None
        text = preview_text(preview, session, lang)
        assert preview.story and preview.story[0] in text  # the placement itself is certain
        assert preview.status == "" or preview.status in text
        assert ("can't see" in text) if code == "en" else ("nicht sehen" in text)


def test_an_illegal_move_is_refused_with_the_engines_reason() -> None:
    game = get_game("flaming-pyramids")
    state = game.setup(2, {}, 3)
    seat = game.waiting_for(state)
    assert seat is not None
    with pytest.raises(MoveRejected):
        preview_move(session_of("flaming-pyramids", state, {}), seat, "play Z99 0,0", shared_texts().lang("en"))
    with pytest.raises(MoveRejected):  # the other seat may not move
        preview_move(session_of("flaming-pyramids", state, {}), 1 - seat, game.legal_moves(state)[0],
                     shared_texts().lang("en"))


def test_the_buttons_carry_the_move_or_its_index() -> None:
    """Real moves fit in a custom id even at the longest game number and version; a
    move that does not is carried as its index in the legal moves of that version."""
    game = get_game("pyrinoes")
    state = game.setup(2, {}, 3)
    session = session_of("pyrinoes", state, {}, version=10**9 - 1)
    session.record = session.record.model_copy(update={"id": 10**18 - 1})
    moves = game.legal_moves(state)
    for move in moves:
        assert move_arg(session, move) == move and arg_move(session, move) == move
    assert move_arg(session, "x" * 70) is None  # too long and not a legal move: nothing to point at
    assert len(CONFIRM) == len(BACK)


def test_the_index_form_names_the_same_legal_move() -> None:
    game = get_game("pyrinoes")
    state = game.setup(2, {}, 3)
    session = session_of("pyrinoes", state, {})
    moves = game.legal_moves(state)
    for i, move in enumerate(moves):
        assert arg_move(session, f"#{i}") == move
    assert arg_move(session, f"#{len(moves)}") is None
    assert arg_move(session, "#x") is None
