"""Every legal move is reachable by clicks alone (issue #43): for random positions of every
game, the private chooser's clicks are walked exactly as the bot answers them, and the moves
they reach are exactly the legal moves, no fewer (Pyramido's only move "End turn" or "Pass"
once had no button) and no more.

The walk starts where a player starts (▶ Your move, 🂠 My hand and the turn DM all show
``chooser(session, ())``) and follows every component of every chooser it meets: buttons,
select menus option by option, and the pages of a long menu. Each click is read from its
custom id and data by the bot's own reader (:func:`bot.interactions.items.arguments.arguments_of`)
and answered by the bot's own step (:func:`bot.cards.chooser.step_to`, what
``Turns.choose`` shows or plays); a ``move`` button plays its move (``Turns.move``). Only
Discord is left out, which the end-to-end tests add (``tests/bot/e2e/test_only_move.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import discord
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.cards.chooser import Chooser, chooser, step_to
from bot.cards.custom_ids import CustomId
from bot.core.session import Session
from bot.games.catalogue import Catalogue
from bot.interactions.items.arguments import BUTTON, STRING_SELECT, Arguments, arguments_of
from bot.store import GameRecord, SeatRecord
from engine.core.registry import game_ids
from i18n import Lang, shared_texts

CATALOGUE = Catalogue.default()
LANGS = [shared_texts().lang("en"), shared_texts().lang("de")]
#: What each click answers (bot/turns/item.py): a step, a menu's choice, a page, a whole move.
STEPS = frozenset({"pick", "sel", "page"})
MOVE = "move"

#: Options a game can be opened with (every mode and edition; small targets and turn limits so a
#: random game reaches its late positions: the last stones, only Pass, a stuck solitaire).
OPTIONS: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "flaming-pyramids": st.fixed_dictionaries({"curse": st.booleans(),
                                               "turn_limit": st.none() | st.integers(1, 60)}),
    "continuous-pyramid": st.fixed_dictionaries({"undo": st.booleans(), "edition": st.sampled_from([1, 2])}),
    "pyrinoes": st.fixed_dictionaries({"target": st.integers(10, 60)}),
    "pyramido": st.one_of(
        st.fixed_dictionaries({"mode": st.sampled_from(["solo", "coop"]), "size": st.sampled_from([4, 5])}),
        st.fixed_dictionaries({"mode": st.just("competitive"), "rounds": st.integers(1, 3)}),
    ),
}


def test_every_game_has_options_here() -> None:
    """A new game is walked too: it needs its options in :data:`OPTIONS`."""
    assert set(OPTIONS) == set(game_ids())


@dataclass(frozen=True)
class Game:
    """One random game: its kind, seats, options and deal, how its moves are picked (a seed
    of :class:`random.Random`) and the language its chooser speaks. What hypothesis prints
    for a failing example is enough to play it again."""

    kind: str
    players: int
    options: dict[str, Any]
    seed: int
    picks: int
    lang: Lang

    def __repr__(self) -> str:
        return (f"Game({self.kind!r}, players={self.players}, options={self.options}, seed={self.seed}, "
                f"picks={self.picks}, lang={self.lang.code!r})")

    def positions(self, most: int) -> Iterator[Session]:
        """Its positions with a seat to act, from the set-up on, at most ``most`` random moves in."""
        presenter = CATALOGUE.presenter(self.kind)
        game = presenter.game
        rng = random.Random(self.picks)
        state = game.setup(self.players, self.options, self.seed)
        record = GameRecord(id=43, kind=self.kind, guild_id=1, channel_id=2, thread_id=3, options=self.options,
                            status="active", seed=self.seed, created_by=100, challenge_id=None, result=None,
                            created_at="", updated_at="", salt="0" * 32)
        seats = [SeatRecord(game_id=43, seat=s, user_id=100 + s, ai_level=None, name=f"P{s}", joined_at="")
                 for s in range(self.players)]
        version = 0
        while (seat := game.waiting_for(state)) is not None:
            yield Session(record, seats, presenter, state, version)
            if version >= most:
                return
            state, _ = game.play(state, seat, rng.choice(game.legal_moves(state)))
            version += 1

    def last_position(self, most: int) -> Session:
        """Its position ``most`` moves in, or its last with a seat to act if it ends sooner."""
        last = None
        for session in self.positions(most):
            last = session
        assert last is not None, "a game with nobody to act from its set-up on"
        return last


@st.composite
def games(draw: st.DrawFn) -> Game:
    kind = draw(st.sampled_from(game_ids()))
    game = CATALOGUE.presenter(kind).game
    options = draw(OPTIONS[kind])
    low, high = game.player_range(game.parse_options(options))
    return Game(kind, draw(st.integers(low, min(high, 4))), options, draw(st.integers(0, 2**40)),
                draw(st.integers(0, 2**32)), draw(st.sampled_from(LANGS)))


def clicks(shown: Chooser) -> Iterator[Arguments]:
    """Every click the chooser offers, read as the bot reads a click: each button, and each
    option of each select menu."""
    for item in shown.view.children:
        if isinstance(item, discord.ui.Select):
            assert item.options, "an empty select menu"
            for option in item.options:
                assert option.label.strip(), item.options
                yield arguments_of(CustomId.parse(item.custom_id), {"component_type": STRING_SELECT,
                                                                     "values": [option.value]})
        else:
            assert isinstance(item, discord.ui.Button) and item.custom_id is not None, item
            assert (item.label or "").strip(), "a button without words"
            yield arguments_of(CustomId.parse(item.custom_id), {"component_type": BUTTON})


def reachable(session: Session, lang: Lang) -> set[str]:
    """The moves the chooser's clicks reach from where a player opens it. Every click must
    lead somewhere: a button to a path no longer possible raises PathGone here."""
    reached: set[str] = set()
    seen: set[tuple[tuple[str, ...], int]] = {((), 0)}
    pending = [chooser(session, (), lang=lang)]
    while pending:
        shown = pending.pop()
        shown.card()  # laid out as it is sent (rows, a menu to a row)
        for args in clicks(shown):
            cid = args.cid
            assert (cid.game_id, cid.version) == (session.record.id, session.version), cid
            if cid.action == MOVE:
                reached.add(cid.arg)
                continue
            assert cid.action in STEPS, f"a chooser click this walk does not know: {cid}"
            path = (*args.path, args.value) if cid.action == "sel" and args.value else args.path
            if (path, args.page) in seen:
                continue
            seen.add((path, args.page))
            after = step_to(session, path, args.page, lang)
            if isinstance(after, str):
                reached.add(after)
            else:
                pending.append(after)
    return reached


def assert_every_move_reachable(session: Session, lang: Lang) -> None:
    legal = set(session.game.legal_moves(session.state))
    reached = reachable(session, lang)
    assert reached == legal, f"not reachable: {sorted(legal - reached)}; offered but illegal: {sorted(reached - legal)}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 150))
def test_every_legal_move_is_a_few_clicks_away(game: Game, moves: int) -> None:
    """A random position: up to 150 random moves into a random game."""
    assert_every_move_reachable(game.last_position(moves), game.lang)


#: Random games that pass through positions with a single legal move, always walked: Pyramido's
#: "end" after the last stone (moves 17, 28) and a competitive seat's "pass" (move 58), and
#: Pyrinoes' one possible play (move 32) and "draw" (move 37). Each once dead-ended the chooser.
ONLY_ONE_MOVE = [
    (Game("pyramido", 1, {"mode": "solo", "size": 4}, 0, 0, LANGS[0]), 30),
    (Game("pyramido", 2, {"mode": "competitive"}, 0, 1, LANGS[1]), 58),
    (Game("pyrinoes", 2, {"target": 10}, 0, 0, LANGS[0]), 37),
]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 40))
@example(*ONLY_ONE_MOVE[0])
@example(*ONLY_ONE_MOVE[1])
@example(*ONLY_ONE_MOVE[2])
def test_every_position_of_a_short_random_game(game: Game, moves: int) -> None:
    """Every position along one random game, so the rare ones in between are walked too (the
    turn a Pyramido player has placed their last stone, a competitive seat that can only pass)."""
    for session in game.positions(moves):
        assert_every_move_reachable(session, game.lang)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_every_position_of_whole_random_games(game: Game) -> None:
    """The larger sample (``-m slow``): every position of whole random games."""
    for session in game.positions(3000):
        assert_every_move_reachable(session, game.lang)
