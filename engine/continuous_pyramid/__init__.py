"""Continuous Pyramid (game id ``continuous-pyramid``): a one-player MahJongg
solitaire building a 144-cell pyramid from a 9-tile reserve. Rules: CP-1..CP-7."""

from engine.continuous_pyramid.game import ContinuousPyramid
from engine.continuous_pyramid.hint import hint
from engine.continuous_pyramid.solver import Budget, SolveResult, Verdict, solve

GAME = ContinuousPyramid()

__all__ = ["GAME", "Budget", "ContinuousPyramid", "SolveResult", "Verdict", "hint", "solve"]
