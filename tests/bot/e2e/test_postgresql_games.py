"""More of the SQLite suite's whole games, collected again on PostgreSQL (see
``test_postgresql.py``): every other kind to its end, a challenge's leaderboard, and
the daily deal on two servers. Slow (two minutes together), so they run with the slow
suite, in CI as everywhere."""

from __future__ import annotations

import pytest

from tests.bot.e2e.test_daily import (  # noqa: F401  (collected again, on PostgreSQL)
    test_daily_deal_two_players_two_servers_and_a_streak,
)
from tests.bot.e2e.test_games import (  # noqa: F401  (collected again, on PostgreSQL)
    test_continuous_pyramid_challenge_two_players_and_leaderboard,
    test_pyramido_competitive_against_an_ai,
    test_pyramido_coop_two_people_share_one_pyramid,
)
from tests.bot.e2e.test_postgresql import database, emulator_options  # noqa: F401  (its fixtures)

pytestmark = [pytest.mark.postgres, pytest.mark.slow]
