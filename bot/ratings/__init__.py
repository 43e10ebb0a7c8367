"""Skill ratings and completion records: which games count and how (``rules``), a
finished game as they see it (``outcome``), the rating model with its fixed AI ratings
(``model``), and the standings games add up to (``ledger``). Pure: no Discord, no
database; ``bot.ratings.store`` keeps the numbers and ``bot.stats.ratings`` applies
each game as it ends."""

from bot.ratings.ledger import EVERYWHERE, Ledger, Record, Standing, order_key, scopes_of
from bot.ratings.model import AI_RATINGS, START_MU, START_SIGMA, Skill, ai_skill, rate
from bot.ratings.outcome import GameOutcome, SeatOutcome, count_game, final_result, finish_time, outcome_of
from bot.ratings.rules import Counting, counting

__all__ = [
    "AI_RATINGS",
    "EVERYWHERE",
    "START_MU",
    "START_SIGMA",
    "Counting",
    "GameOutcome",
    "Ledger",
    "Record",
    "SeatOutcome",
    "Skill",
    "Standing",
    "ai_skill",
    "count_game",
    "counting",
    "final_result",
    "finish_time",
    "order_key",
    "outcome_of",
    "rate",
    "scopes_of",
]
