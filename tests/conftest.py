"""Fixtures every test folder may use: a throwaway PostgreSQL server and a fresh database on it."""

from tests.postgres_fixtures import postgres_server, postgres_url  # noqa: F401  (re-exported fixtures)
