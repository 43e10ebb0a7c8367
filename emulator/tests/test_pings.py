"""Whom a message notifies, as Discord decides from its mentions, allowed_mentions and
flags (tests read ``Message.pinged`` to check that quiet hours stay quiet)."""

from __future__ import annotations

from emulator.limits import SUPPRESS_NOTIFICATIONS
from emulator.messages import pinged_users
from emulator.model import EPHEMERAL


def test_mentions_ping_as_allowed_mentions_let_them() -> None:
    text = "<@1> and <@!2>, not 3"
    assert pinged_users(text, None, 0) == {1, 2}
    assert pinged_users(text, {"parse": ["users"]}, 0) == {1, 2}
    assert pinged_users(text, {"parse": [], "users": ["2", "9"]}, 0) == {2}
    assert pinged_users(text, {"parse": []}, 0) == frozenset()


def test_silent_and_ephemeral_messages_ping_nobody() -> None:
    assert pinged_users("<@1>", None, SUPPRESS_NOTIFICATIONS) == frozenset()
    assert pinged_users("<@1>", {"parse": ["users"]}, EPHEMERAL) == frozenset()
