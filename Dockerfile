# Pyramid Bot: a slim image that runs as a non-root user with its database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYRAMID_DATABASE=/data/pyramid-bot.db \
    PYRAMID_METRICS_PORT=9464

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY migrations ./migrations
COPY i18n ./i18n
RUN pip install . \
    && useradd --create-home --uid 10001 pyramid \
    && mkdir -p /data && chown pyramid:pyramid /data

USER pyramid
VOLUME ["/data"]
# The bot runs in its data directory: a relative PYRAMID_DATABASE or PYRAMID_BACKUP_DIR
# (say, pyramid-bot.db in an env file written for a local run) lands on the volume too.
WORKDIR /data
# /healthz on 127.0.0.1:$PYRAMID_METRICS_PORT inside the container: 200 once connected to
# Discord with a database that answers. Set PYRAMID_METRICS_HOST=0.0.0.0 (and publish the
# port) to scrape /metrics from outside.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["pyramid-bot", "health"]
CMD ["pyramid-bot"]
