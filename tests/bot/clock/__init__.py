"""The bot's clock in tests: it stands still until the test moves it, so hours of
reminders, retries and backups pass in an instant."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

#: Where a test's clock starts unless it says otherwise.
START = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)
