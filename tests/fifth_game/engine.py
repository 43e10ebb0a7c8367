"""The Pebble Pyramid rule book: the core :class:`~engine.core.Game` contract, met by a
game that lives outside ``engine/`` (the first of the four places a game is registered).

Rules: two players; a pyramid of ten public coloured stones (R, G, B); a hidden deck
of colour tokens and a hidden hand of two each. On your turn spend a token on a free
stone (``take R 3,0``): it is yours if the colours match, lost if not; or discard a
token (``pass G``), or with an empty hand ``pass``; then draw if the deck has a
token. The game ends when the pyramid is empty, or when both players pass in a row
with the deck empty. Most stones won wins; a tie is shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.core import Event, Game, Json, Pending, Result, Rng
from engine.core.hidden import redeal
from tests.fifth_game import position, rules
from tests.fifth_game.state import CELLS, COLOURS, HAND_SIZE, PebbleOptions, PebbleState, with_seat

GAME_ID = "pebble-pyramid"


class PebblePyramid(Game[PebbleState]):
    id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = "Pebble Pyramid"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_model: ClassVar[type[BaseModel]] = PebbleOptions
    policy_module: ClassVar[str | None] = "tests.fifth_game.policy"

    def setup(self, players: int, options: Mapping[str, Any] | BaseModel | None, seed: int) -> PebbleState:
        parsed = self.parse_options(options)
        self.check_players(players, parsed)
        assert isinstance(parsed, PebbleOptions)
        rng = Rng(seed)
        stones = [COLOURS[i % len(COLOURS)] for i in range(len(CELLS))]
        rng.shuffle(stones)
        deck = [colour for colour in COLOURS for _ in range(parsed.tokens_per_colour)]
        rng.shuffle(deck)
        return PebbleState(
            tokens_per_colour=parsed.tokens_per_colour,
            stones=tuple(zip(CELLS, stones, strict=True)),
            taken=((), ()),
            lost=(),
            hands=(tuple(deck[:HAND_SIZE]), tuple(deck[HAND_SIZE : 2 * HAND_SIZE])),
            deck=tuple(deck[2 * HAND_SIZE :]),
            discards=(),
            turn=0,
            passes=0,
            moves=0,
        )

    def to_act(self, state: PebbleState) -> int | None:
        return None if state.over else state.turn

    def legal_moves(self, state: PebbleState) -> list[str]:
        return rules.legal_moves(state)

    def apply(self, state: PebbleState, player: int, move: str) -> tuple[PebbleState, list[Event]]:
        return rules.apply_move(state, player, move)

    def pending(self, state: PebbleState) -> Pending | None:
        return None

    def result(self, state: PebbleState) -> Result | None:
        if not state.over:
            return None
        scores = (len(state.taken[0]), len(state.taken[1]))
        best = max(scores)
        winners = tuple(seat for seat in (0, 1) if scores[seat] == best)
        if len(winners) == 1:
            w = winners[0]
            summary = f"{{{w}}} wins, taking {scores[w]} stones to {scores[1 - w]}."
        else:
            summary = f"{{0}} and {{1}} share the win with {best} stones each."
        return Result(winners=winners, scores=(float(scores[0]), float(scores[1])), summary=summary)

    def view(self, state: PebbleState, player: int | None) -> Json:
        """The position with the deck and the other hand as counts; the free cells
        spelled out so the picture needs no rules."""
        data = position.to_position(state)
        data["hands"] = [list(h) if seat == player else len(h) for seat, h in enumerate(state.hands)]
        data["deck"] = len(state.deck)
        data["hand_sizes"] = [len(h) for h in state.hands]
        data["free"] = state.free_cells()
        return {**data, **self.view_fields(state, player)}

    def turn_number(self, state: PebbleState) -> int:
        return state.moves

    def determinize(self, state: PebbleState, seat: int, rng: Rng) -> PebbleState:
        """Re-deal the other hand and the deck from their tokens, sorted first so the
        sample depends only on what ``seat`` sees and on ``rng``."""
        other = 1 - seat
        hand, deck = redeal([state.hands[other], state.deck], rng)
        return replace(state, hands=with_seat(state.hands, other, hand), deck=deck)

    def to_position(self, state: PebbleState) -> Json:
        return position.to_position(state)

    def from_position(self, position_json: Mapping[str, Any]) -> PebbleState:
        return position.from_position(position_json)

    def players_in(self, state: PebbleState) -> int:
        return 2


GAME = PebblePyramid()
