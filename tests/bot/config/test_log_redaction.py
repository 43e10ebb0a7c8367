"""The log filter that keeps secrets out of every log line, at every level."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from bot.config.log_redaction import REDACTED, SecretRedactor, install_redaction

TOKEN = "MTA5OTk4ODc3NjY1NTQ0MzMyMQ.GhJkLm.abcdefghijklmnopqrstuvwxyz0123456789AB"
ITOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5:Zm9vYmFyYmF6cXV4cXV1eA-_xyz"


@pytest.fixture
def captured() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger whose records reach a handler the way the root's would."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger = logging.getLogger("tests.redaction")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    install_redaction(TOKEN, logger=logger)
    try:
        yield logger, stream
    finally:
        logger.removeHandler(handler)


@pytest.mark.parametrize("level", [logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.CRITICAL])
def test_urls_headers_payloads_and_the_token_are_redacted_at_every_level(
    captured: tuple[logging.Logger, io.StringIO], level: int
) -> None:
    logger, stream = captured
    logger.log(level, "%s %s with %s has returned %s", "POST",
               f"https://discord.com/api/v10/interactions/123456789/{ITOKEN}/callback", {"type": 5}, 204)
    logger.log(level, "Webhook ID %s with %s %s", 42, "PATCH",
               f"https://discord.com/api/v10/webhooks/42/{ITOKEN}/messages/@original?wait=true")
    logger.log(level, "headers %r", {"Authorization": f"Bot {TOKEN}", "User-Agent": "x"})
    logger.log(level, "raw header Authorization: Bot %s.", TOKEN)
    logger.log(level, "For Shard ID %s: WebSocket Event: %s", None,
               {"t": "INTERACTION_CREATE", "d": {"id": "1", "token": ITOKEN, "type": 3}})
    logger.log(level, '{"op": 2, "d": {"token": "%s", "intents": 1}}', TOKEN)
    logger.log(level, "the token itself: " + TOKEN)
    text = stream.getvalue()
    assert TOKEN not in text and ITOKEN not in text and ITOKEN.split(":")[1] not in text
    assert text.count(REDACTED) >= 7
    assert "/interactions/123456789/" + REDACTED + "/callback" in text
    assert "/webhooks/42/" + REDACTED + "/messages/@original" in text
    assert "Bot " + REDACTED in text
    assert "{'type': 5}" in text and "User-Agent" in text  # the rest of the line stays readable


def test_exceptions_and_stacks_are_redacted(captured: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = captured
    try:
        raise RuntimeError(f"POST /webhooks/7/{ITOKEN} failed for Bot {TOKEN}")
    except RuntimeError:
        logger.exception("request failed")
    logger.warning("where %s", f"/interactions/1/{ITOKEN}/callback", stack_info=True)
    text = stream.getvalue()
    assert "RuntimeError" in text and "Traceback" in text
    assert ITOKEN not in text and TOKEN not in text


def test_a_message_that_cannot_be_formatted_is_still_logged_and_redacted(
    captured: tuple[logging.Logger, io.StringIO]
) -> None:
    logger, stream = captured
    logger.info("one %s two %s " + TOKEN, "only-one")
    text = stream.getvalue()
    assert TOKEN not in text and "only-one" in text


def test_installing_twice_adds_one_filter_and_learns_the_new_secret() -> None:
    logger = logging.getLogger("tests.redaction.twice")
    handler = logging.StreamHandler(io.StringIO())
    logger.addHandler(handler)
    try:
        first = install_redaction("first-secret-value", logger=logger)
        second = install_redaction("second-secret-value", logger=logger)
        assert first is second
        assert [f for f in handler.filters if isinstance(f, SecretRedactor)] == [first]
        assert first.redact("a first-secret-value b second-secret-value") == f"a {REDACTED} b {REDACTED}"
    finally:
        logger.removeHandler(handler)


def test_a_formatter_that_formats_the_exception_afresh_sees_no_secret() -> None:
    """discord.py's coloured formatter ignores the cached traceback and formats
    ``exc_info`` again; the redacted traceback must be all there is to format."""

    class Fresh(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            if record.exc_info:
                record.exc_text = "FRESH " + self.formatException(record.exc_info)
            return super().format(record)

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(Fresh("%(message)s"))
    logger = logging.getLogger("tests.redaction.fresh")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        install_redaction(TOKEN, logger=logger)
        try:
            raise ValueError(f"bad token {TOKEN}")
        except ValueError:
            logger.exception("failed at /interactions/5/%s/callback", ITOKEN)
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    assert "ValueError" in text and TOKEN not in text and ITOKEN not in text
