"""The store fixtures (a real database per test) for the store queries this feature holds."""

from tests.bot.store.conftest import clock, store

__all__ = ["clock", "store"]
