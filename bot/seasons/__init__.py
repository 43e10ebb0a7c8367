"""Seasons (issue #40): a monthly leaderboard per server and game beside the all-time ratings."""
