"""The catalogue: the games a bot offers, found by kind; and a game that exists only
in a catalogue (no engine registry, no render registry entry) still works in the
worker pools, which are handed its rule book and pictures rather than its name."""

from __future__ import annotations

import pytest

from bot.games.catalogue import Catalogue
from bot.games.picker import node_at
from bot.workers.cpu import CpuPool
from bot.workers.rendering import Renderer
from engine.core import UnknownGame, game_ids
from tests.fifth_game.presenter import PRESENTER

PNG = b"\x89PNG\r\n\x1a\n"


def test_the_default_catalogue_holds_the_four_games_in_order() -> None:
    catalogue = Catalogue.default()
    assert catalogue.kinds == ("flaming-pyramids", "continuous-pyramid", "pyrinoes", "pyramido")
    for presenter in catalogue:
        assert presenter.game.id == presenter.art.game == presenter.kind
        assert catalogue.presenter(presenter.kind) is presenter
        assert catalogue.game(presenter.kind) is presenter.game and catalogue.art(presenter.kind) is presenter.art
    with pytest.raises(UnknownGame, match=r"no game called 'chess'.*pyramido"):
        catalogue.presenter("chess")


def test_a_game_is_added_to_a_new_catalogue_once() -> None:
    default = Catalogue.default()
    more = default.with_games(PRESENTER)
    assert more.kinds == (*default.kinds, PRESENTER.kind) and PRESENTER.kind in more
    assert PRESENTER.kind not in default, "the catalogue it was made from is unchanged"
    assert PRESENTER.kind not in game_ids(), "the game is known to the catalogue only"
    with pytest.raises(ValueError, match="given twice: pebble-pyramid"):
        more.with_games(PRESENTER)


@pytest.mark.parametrize("pools", ["threads", "processes"])
async def test_the_worker_pools_play_and_draw_a_game_known_only_to_the_catalogue(pools: str) -> None:
    cpu = CpuPool.with_processes() if pools == "processes" else CpuPool.with_threads()
    renderer = Renderer.with_processes(1, [PRESENTER.art]) if pools == "processes" else Renderer.with_threads()
    game = PRESENTER.game
    try:
        position = await cpu.setup(game, 2, {"tokens_per_colour": 3}, 7)
        state = game.from_position(position)
        seat = game.waiting_for(state)
        assert seat is not None
        move = await cpu.ai_move(game, position, seat, "normal", 1)
        assert move in game.legal_moves(state)
        after = await cpu.replay(game, 2, {"tokens_per_colour": 3}, 7, [(seat, move)])
        assert after == game.to_position(game.play(state, seat, move)[0])
        assert await cpu.replay_events(game, 2, {"tokens_per_colour": 3}, 7, [(seat, move)], 0)
        view = dict(game.view(state, None))
        labels = PRESENTER.public_labels(view, game.legal_moves(state))
        board = await renderer.board(view, art=PRESENTER.art, labels=labels)
        hand = await renderer.hand(dict(game.view(state, seat)), art=PRESENTER.art)
        assert board.fp.read(8) == PNG and hand.fp.read(8) == PNG
        assert node_at(game.legal_moves(state), [], PRESENTER.steps).choices
    finally:
        cpu.close()
        renderer.close()



def test_every_games_icon_is_an_emoji_phones_draw() -> None:
    """Issue #43: Pyrinoes' icon was a domino tile (U+1F063), which Unicode does not make an emoji: Discord's
    and phones' emoji fonts draw a missing-glyph box. In the tile and card blocks (U+1F000–U+1F0FF) only the
    mahjong red dragon and the joker are emoji."""
    for presenter in Catalogue.default():
        for char in presenter.emoji:
            code = ord(char)
            assert not (0x1F000 <= code <= 0x1F0FF) or code in (0x1F004, 0x1F0CF), (presenter.game.id, hex(code))
