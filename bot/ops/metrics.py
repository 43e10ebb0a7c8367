"""The bot's Prometheus metrics, in a registry of its own.

prometheus_client's default registry is a process-wide global; a bot instance here
owns a :class:`Metrics` (through its services) with its own ``CollectorRegistry``,
so two bots in one test process never count into each other.

What is counted, and where it comes from:

* moves: :meth:`Metrics.move_made`, which the session service every move goes through calls;
* interactions and their latency: :func:`instrument` hooks the client's
  ``on_interaction`` event (received) and its HTTP session (Discord accepted the
  first response), the span Discord's 3-second deadline is about;
* errors: :class:`ErrorCounter`, a logging handler counting ERROR (and CRITICAL) records;
* queue depths, the outbox backlog and the pictures drawn or reused: read when
  scraped, from functions passed in (:meth:`Metrics.watch`).
"""

from __future__ import annotations

import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from typing import Any

import aiohttp
import discord
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

#: Seconds; Discord fails an interaction not answered within 3.
LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
#: Interactions waiting for their first response that are remembered at most (older ones are dropped).
MAX_WAITING = 10_000

_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
_KINDS = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.component: "component",
    discord.InteractionType.autocomplete: "autocomplete",
    discord.InteractionType.modal_submit: "modal",
    discord.InteractionType.ping: "ping",
}


class Metrics:
    def __init__(self, timer: Callable[[], float] = time.perf_counter, *, games: Iterable[str] = ()) -> None:
        """``games``: the kinds whose move counters exist from the start."""
        self.registry = CollectorRegistry()
        self._timer = timer
        self._waiting: OrderedDict[int, tuple[str, float]] = OrderedDict()
        self._backlog_source: Callable[[], Awaitable[int]] | None = None
        self._backlog = 0.0
        self.moves = Counter("pyramid_moves", "Moves made, by players and AI seats.", ["game"],
                             registry=self.registry)
        self.interactions = Counter("pyramid_interactions", "Interactions received from Discord.", ["kind"],
                                    registry=self.registry)
        self.latency = Histogram(
            "pyramid_interaction_response_seconds",
            "From receiving an interaction to Discord accepting its first response (reply, deferral or modal).",
            ["kind"], buckets=LATENCY_BUCKETS, registry=self.registry,
        )
        self.errors = Counter("pyramid_errors", "Errors logged by the bot or discord.py (see its log for which).",
                              ["level"], registry=self.registry)
        self.render_queue = Gauge("pyramid_render_queue_depth", "Pictures asked for and not drawn yet.",
                                  registry=self.registry)
        self.ai_queue = Gauge("pyramid_ai_queue_depth", "AI moves and game set-ups waiting or running.",
                              registry=self.registry)
        self.outbox = Gauge("pyramid_outbox_backlog", "Announcements written but not yet posted to Discord.",
                            registry=self.registry)
        self.outbox.set_function(lambda: self._backlog)
        self.pictures = PictureCounts()
        self.registry.register(self.pictures)
        self.last_backup = Gauge("pyramid_backup_last_success_timestamp_seconds",
                                 "When the newest backup in PYRAMID_BACKUP_DIR was taken (Unix time; 0: none).",
                                 registry=self.registry)
        # Every series exists from the start, at 0, so rates and alerts work before the first event.
        for game in games:
            self.moves.labels(game)
        for kind in _KINDS.values():
            self.interactions.labels(kind)
            self.latency.labels(kind)
        for level in ("error", "critical"):
            self.errors.labels(level)

    # --- what is read when scraped ----------------------------------------------------
    def watch(self, *, render_queue: Callable[[], int], ai_queue: Callable[[], int],
              outbox_backlog: Callable[[], Awaitable[int]] | None,
              last_backup: Callable[[], float] | None = None,
              pictures: Callable[[], Mapping[tuple[str, str], int]] | None = None) -> None:
        """``pictures``: pictures asked for so far by (board or hand, drawn or
        reused), as ``Renderer.pictures`` counts them."""
        self.render_queue.set_function(render_queue)
        self.ai_queue.set_function(ai_queue)
        self._backlog_source = outbox_backlog
        if last_backup is not None:
            self.last_backup.set_function(last_backup)
        if pictures is not None:
            self.pictures.source = pictures

    async def refresh(self) -> None:
        """Read the values only a coroutine can (the store's): call before each scrape."""
        if self._backlog_source is not None:
            try:
                self._backlog = float(await self._backlog_source())
            except Exception:  # a scrape must not fail because one source did
                log.exception("could not read the outbox backlog")

    # --- moves --------------------------------------------------------------------------
    def move_made(self, kind: str) -> None:
        """A move of a game of ``kind`` was written (a player's, an AI's, a timeout's)."""
        self.moves.labels(kind).inc()

    # --- interactions ------------------------------------------------------------------
    def interaction_received(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction_started(interaction.id, _KINDS.get(interaction.type, "other"))

    def interaction_started(self, interaction_id: int, kind: str) -> None:
        self.interactions.labels(kind).inc()
        self._waiting[interaction_id] = (kind, self._timer())
        while len(self._waiting) > MAX_WAITING:  # never answered (or answered elsewhere)
            self._waiting.popitem(last=False)

    def interaction_answered(self, interaction_id: int) -> None:
        waiting = self._waiting.pop(interaction_id, None)
        if waiting is not None:
            kind, started = waiting
            self.latency.labels(kind).observe(max(0.0, self._timer() - started))

    def http_trace(self, trace: aiohttp.TraceConfig | None = None) -> aiohttp.TraceConfig:
        """Sees every request of the client's HTTP session (through ``trace``, or a new
        one); an accepted interaction callback is the interaction's first response."""
        trace = trace or aiohttp.TraceConfig()

        async def on_request_end(_session: aiohttp.ClientSession, _ctx: Any,
                                 params: aiohttp.TraceRequestEndParams) -> None:
            match = _CALLBACK.search(params.url.path)
            if match and params.method == "POST" and params.response.status < 400:
                self.interaction_answered(int(match.group(1)))

        trace.on_request_end.append(on_request_end)
        return trace


class PictureCounts(Collector):
    """``pyramid_pictures_total{picture, source}``: the pictures the bot was asked
    for, drawn in a render worker or reused (a hand picture already drawn for the
    very same view). Read from the renderer when scraped, so the renderer keeps its
    own plain counts and needs no metrics of its own."""

    def __init__(self) -> None:
        self.source: Callable[[], Mapping[tuple[str, str], int]] | None = None

    def describe(self) -> Iterator[CounterMetricFamily]:
        yield self._family()

    def collect(self) -> Iterator[CounterMetricFamily]:
        family = self._family()
        for (picture, source), count in sorted((self.source() if self.source is not None else {}).items()):
            family.add_metric([picture, source], count)
        yield family

    @staticmethod
    def _family() -> CounterMetricFamily:
        return CounterMetricFamily(
            "pyramid_pictures",
            "Pictures of games asked for: drawn in a render worker, or reused (the same hand view drawn before).",
            labels=["picture", "source"],
        )


def instrument(client: discord.Client, metrics: Metrics) -> None:
    """Count the client's interactions and time their first responses; call before ``start``.

    Uses discord.py's own hooks: ``Client.event`` for the ``on_interaction`` event (in
    front of the client's own handler, if it has one) and the HTTP client's
    ``http_trace`` (the ``http_trace=`` constructor option), which it reads when it
    opens its session at login."""
    own: Callable[[discord.Interaction[Any]], Awaitable[None]] | None = getattr(client, "on_interaction", None)

    async def on_interaction(interaction: discord.Interaction[Any]) -> None:
        metrics.interaction_received(interaction)
        if own is not None:
            await own(interaction)

    client.event(on_interaction)
    client.http.http_trace = metrics.http_trace(client.http.http_trace)  # the rate limit's hook stays


class ErrorCounter(logging.Handler):
    """Counts ERROR (and worse) log records into ``pyramid_errors_total``.

    Every failure the bot survives is logged at ERROR (a failed click, an AI turn, a
    backup), and so are discord.py's handler exceptions: counting records catches
    them all without touching the code that logs them."""

    def __init__(self, metrics: Metrics) -> None:
        super().__init__(level=logging.ERROR)
        self._metrics = metrics

    def emit(self, record: logging.LogRecord) -> None:
        self._metrics.errors.labels("critical" if record.levelno >= logging.CRITICAL else "error").inc()
