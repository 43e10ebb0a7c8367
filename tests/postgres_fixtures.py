"""Pytest fixtures for a real PostgreSQL server: one per session, a fresh database per test.

A conftest wires them with ``from tests.postgres_fixtures import postgres_server, postgres_url``.
The server starts only when a test first asks for it. Without PostgreSQL installed the
tests fail, saying how to install it, rather than skip: the CI must run them.
Tests that use them carry ``@pytest.mark.postgres``, so ``-m postgres`` selects exactly them.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import pytest

from tools.postgres_server import PostgresServer


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    with PostgresServer() as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: PostgresServer, request: pytest.FixtureRequest) -> Iterator[str]:
    """The URL of a database of its own for this test, dropped afterwards with whoever is still connected."""
    if request.node.get_closest_marker("postgres") is None:
        pytest.fail(f"{request.node.nodeid} uses PostgreSQL: mark it with @pytest.mark.postgres")
    name = database_name(request.node.name)
    url = postgres_server.create_database(name)
    yield url
    postgres_server.drop_database(name)


def database_name(test_name: str) -> str:
    """Unique, and readable in ``pg_stat_activity`` while a test hangs."""
    readable = re.sub(r"[^a-z0-9]+", "_", test_name.lower()).strip("_")[:40]
    return f"t_{readable}_{uuid.uuid4().hex[:12]}"
