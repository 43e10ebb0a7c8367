"""Everything the bot depends on, built once and passed in.

Tests build the same object with a temporary database, a fake clock and the
emulator's URL, so a whole bot runs in a test exactly as in production.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.cpu import CpuPool
from bot.rendering import Renderer
from bot.sessions import SessionService
from bot.settings import Settings
from bot.store import Clock, Database, GameStore


@dataclass
class Services:
    settings: Settings
    db: Database
    store: GameStore
    sessions: SessionService
    clock: Clock
    renderer: Renderer
    cpu: CpuPool
    #: Where new games get their seeds; tests pass a deterministic one. A seed is as
    #: secret as the hidden order it shuffles (CP-3): 63 random bits (SQLite's signed
    #: INTEGER) put rebuilding it from the tiles a game shows out of anyone's reach.
    new_seed: Callable[[], int] = field(default=lambda: secrets.randbits(63))
    #: Seconds between reminder sweeps; tests trigger sweeps directly.
    sweep_seconds: float = 60.0

    @classmethod
    async def open(cls, settings: Settings, clock: Clock, *, renderer: Renderer | None = None,
                   cpu: CpuPool | None = None, **extra: object) -> Services:
        db = await Database.open(settings.database_path, clock=clock)
        store = GameStore(db)
        if renderer is None:
            renderer = (Renderer.with_processes(settings.render_workers) if settings.render_workers
                        else Renderer.with_threads())
        if cpu is None:
            cpu = CpuPool.with_processes() if settings.render_workers else CpuPool.with_threads()
        return cls(settings=settings, db=db, store=store, sessions=SessionService(store, cpu), clock=clock,
                   renderer=renderer, cpu=cpu, **extra)  # type: ignore[arg-type]

    async def close(self) -> None:
        self.renderer.close()
        self.cpu.close()
        await self.db.close()
