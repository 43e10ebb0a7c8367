"""AI players. An AI decides from what its seat may know: before looking at a state
it re-deals everything hidden from that seat (``Game.determinize``), so the true
hidden hands never influence its choice.

``choose_move(game, state, seat, level, seed, clock=None, *, budget_seconds=None,
iterations=None) -> str`` is the one entry point (the bot calls it from a worker
thread with ``time.perf_counter``). Levels:

``easy``
    A uniformly random legal move.
``normal``
    The game's one-move-ahead heuristic (its ``policy_module``, e.g.
    ``engine.flaming_pyramids.policy``; the generic policy plays the first legal move).
``hard``
    Information-set MCTS (:mod:`engine.ai.ismcts`): a fresh determinization per
    iteration, the heuristic's ranking as expansion order, cheap rollouts and an
    evaluation of unfinished positions. With a ``clock`` it thinks for
    ``budget_seconds`` (default :data:`engine.ai.choose.HARD_SECONDS`); without one it
    runs ``iterations`` (default :data:`engine.ai.choose.HARD_ITERATIONS`), so the
    same seed always gives the same move.

Continuous Pyramid's ``normal`` and ``hard`` both play the engine's own ``hint``.
Tools: :mod:`tools.arena` (``python -m tools.selfplay GAME --ai hard,normal``)
and :mod:`tools.bench.ai` (``python -m tools.bench.ai``).
"""

from engine.ai.choose import LEVELS, choose_move

__all__ = ["LEVELS", "choose_move"]
