"""Pebble Pyramid in Discord (the third place a game is registered): its rule book
and pictures, a rules blurb and the words on its buttons. A bot offers the game when
its catalogue holds this presenter: ``Catalogue.default().with_games(PRESENTER)``."""

from __future__ import annotations

from bot.games.presenter import Presenter
from tests.fifth_game.art import ART
from tests.fifth_game.engine import GAME

PRESENTER = Presenter(
    game=GAME,
    art=ART,
    emoji="🪨",
    rules=(
        "Two players dismantle a pyramid of ten red, green and blue stones. You hold two secret colour "
        "tokens. On your turn spend a token on a free stone (one with nothing resting on it): if the "
        "colours match the stone is yours, if not it is lost. Or pass, throwing a token away. Then draw "
        "from the deck. The game ends when the pyramid is empty, or when both players pass in a row with "
        "the deck empty; most stones wins."
    ),
    verbs={"take": "Spend a token", "pass": "Pass", "R": "🔴 Red", "G": "🟢 Green", "B": "🔵 Blue"},
    prompts=("Choose a move", "Choose a token", "Choose a stone"),
)
