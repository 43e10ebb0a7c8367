"""Everything the bot depends on, built once and passed in.

Tests build the same object with a temporary database, a fake clock, the emulator's
URL and, when they need one, a catalogue with a game of their own, so a whole bot
runs in a test exactly as in production.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta

from bot.config.settings import Settings
from bot.core.command_links import CommandLinks
from bot.core.languages import Languages
from bot.core.session_service import SessionService
from bot.games.catalogue import Catalogue
from bot.gateway.policy import LoginPolicy
from bot.ops.metrics import Metrics
from bot.ops.schedule import BackupSchedule
from bot.store import Clock, Database, GameStore
from bot.store.leases import LeaseStore
from bot.store.outbox import OutboxStore
from bot.store.players import PlayerStore
from bot.workers.cpu import CpuPool
from bot.workers.rendering import Renderer
from i18n import Texts, shared_texts


@dataclass
class Services:
    settings: Settings
    db: Database
    store: GameStore
    sessions: SessionService
    clock: Clock
    renderer: Renderer
    cpu: CpuPool
    #: Players' preferences (language, previews); who reads which language.
    players: PlayerStore
    languages: Languages
    #: The bot's texts in every language it speaks.
    texts: Texts
    #: The slash commands' ids, learnt at the command sync: the commands readers' texts name become
    #: mentions (``languages`` finishes every text with it).
    command_links: CommandLinks
    #: What must still be announced for each move (written with the move by the store's ``append_move``).
    outbox: OutboxStore
    #: Who does which background work when several processes share the database (one owner per process).
    leases: LeaseStore
    #: The games this bot offers; every game, picture and presenter is found here.
    catalogue: Catalogue = field(default_factory=Catalogue.default)
    #: Where new games get their seeds; tests pass a deterministic one. A seed is as
    #: secret as the hidden order it shuffles (CP-3): 63 random bits (SQLite's signed
    #: INTEGER) put rebuilding it from the tiles a game shows out of anyone's reach.
    new_seed: Callable[[], int] = field(default=lambda: secrets.randbits(63))
    #: Seconds between reminder sweeps (PYRAMID_SWEEP_SECONDS); tests trigger sweeps directly.
    sweep_seconds: float = 60.0
    #: This bot's Prometheus metrics (its own registry: no process-wide state).
    metrics: Metrics = field(default_factory=Metrics)
    #: Automatic backups (None when PYRAMID_BACKUP_HOURS is 0); ``bot.app`` runs them.
    backups: BackupSchedule | None = None
    #: How the gateway logins are paced (``bot.gateway``): Discord's; tests that restart bots often pass a quicker one.
    login_policy: LoginPolicy = field(default_factory=LoginPolicy)

    @classmethod
    async def open(cls, settings: Settings, clock: Clock, *, catalogue: Catalogue | None = None,
                   renderer: Renderer | None = None, cpu: CpuPool | None = None, **extra: object) -> Services:
        catalogue = catalogue if catalogue is not None else Catalogue.default()
        db = await settings.database.open(clock, sqlite_max_bytes=settings.sqlite_max_bytes)
        store = GameStore(db)
        leases = LeaseStore(db)
        outbox = OutboxStore(db, worker=leases.owner)
        if renderer is None:
            renderer = (Renderer.with_processes(settings.render_workers, [p.art for p in catalogue])
                        if settings.render_workers else Renderer.with_threads())
        if cpu is None:
            cpu = CpuPool.with_processes() if settings.render_workers else CpuPool.with_threads()
        backups = BackupSchedule(
            settings.database_path, settings.backup_folder, every=timedelta(hours=settings.backup_hours),
            keep=settings.backup_keep, clock=clock,
        ) if settings.backup_hours > 0 and settings.database.path is not None else None
        metrics = Metrics(games=catalogue.kinds)
        metrics.watch(render_queue=renderer.queue_depth, ai_queue=cpu.queue_depth,
                      outbox_backlog=outbox_backlog(outbox), pictures=renderer.pictures,
                      last_backup=lambda: backups.last_success.timestamp() if backups and backups.last_success else 0.0)
        sessions = SessionService(store, catalogue, cpu, on_move=metrics.move_made)
        extra.setdefault("sweep_seconds", settings.sweep_seconds)
        texts = shared_texts()
        players = PlayerStore(db)
        links = CommandLinks()
        return cls(settings=settings, db=db, store=store, sessions=sessions, clock=clock, renderer=renderer, cpu=cpu,
                   players=players, languages=Languages(store, players, texts.finishing(links.link)), texts=texts,
                   command_links=links, outbox=outbox, leases=leases,
                   catalogue=catalogue, metrics=metrics, backups=backups, **extra)  # type: ignore[arg-type]

    async def close(self) -> None:
        self.renderer.close()
        self.cpu.close()
        await self.db.close()


def outbox_backlog(outbox: OutboxStore) -> Callable[[], Awaitable[int]]:
    """The count of announcements not yet posted, for /metrics."""

    async def pending() -> int:
        return (await outbox.backlog()).pending

    return pending
