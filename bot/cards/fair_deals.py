"""Provably fair deals, told privately: what the 🔐 Fair deal button answers.

The deal is sealed when the game is created: SHA-256 over its kind, seed and salt
(:mod:`bot.records.fairness`). The seal is in the game's record from the start
(``/pyramid history``), and the 🔐 Fair deal button on the first card and on the last
answers privately with it; once the game is over it adds the seed and salt and how to
check them (``pyramid-bot verify``). The card itself carries none of it: a 64-digit hash
and a salt took five or six lines of a phone's screen above the buttons. Two exceptions,
so that nothing said is false or gives a deal away:

* a shared deal's game (a challenge's, the daily deal's) never reveals its deal: others may
  still be playing it (CP-3), and its answer says so;
* a game created before deals were sealed has no salt: it has no button.

The words are the reader's language; in English the seal and reveal lines are exactly
:mod:`bot.records.fairness`'s (``seal_line``, ``reveal_line``, ``CHALLENGE_SEALED``).
"""

from __future__ import annotations

from bot.core.session import Session
from bot.games.presenter import ENGLISH
from bot.records import fairness
from i18n import N_, Lang

#: :func:`bot.records.fairness.seal_line`, translatable.
SEALED = N_("🔒 Deal sealed: `{sealed}` (the seed and salt are revealed when the game ends; "
            "check them with `pyramid-bot verify`)")
SEALED_CHALLENGE = N_("🔒 Deal sealed: `{sealed}` (a shared deal: others may still play it, so its seed and salt "
                      "stay secret)")
#: :func:`bot.records.fairness.reveal_line`, translatable.
REVEALED = N_("🔓 Deal revealed: seed `{seed}` · salt `{salt}` — `pyramid-bot verify` on the `/pyramid history` "
              "file checks them against the 🔒 seal fixed before the first move")
#: :data:`bot.records.fairness.CHALLENGE_SEALED`, translatable.
STAYS_SEALED = N_("🔒 This deal stays sealed: it is shared (a challenge's or the daily deal's), and others may "
                  "still be playing it, so its seed and salt are never shown (CP-3).")
#: The heading of the 🔐 Fair deal answer, and how to check a revealed deal by hand.
HEADING = N_("🔐 **Fair deal** · game #{number}")
BY_HAND = N_("By hand: `printf 'pyramid-bot deal v1\\n{kind}\\n{seed}\\n{salt}' | sha256sum` prints the seal's "
             "64 digits.")


def reveal_line(seed: int, salt: str, lang: Lang | None = None) -> str:
    return (lang or ENGLISH).tr(REVEALED, seed=seed, salt=salt)


def has_fair_deal(session: Session) -> bool:
    """Whether the game's card offers 🔐 Fair deal: a sealed deal, on the first card (the seal, before
    any move) and on the last (the reveal)."""
    record = session.record
    if record.salt is None:
        return False
    return session.version == 0 or session.over or record.status == "finished"


def fair_deal_text(session: Session, lang: Lang | None = None) -> str | None:
    """What 🔐 Fair deal tells its clicker, in ``lang``: the seal, and once the game is over
    its seed and salt and how to check them; None for a game without a seal."""
    lang = lang or ENGLISH
    record = session.record
    if record.salt is None:
        return None
    sealed = fairness.commitment(record.kind, record.seed, record.salt)
    shared = record.challenge_id is not None
    lines = [lang.tr(HEADING, number=record.id),
             lang.tr(SEALED_CHALLENGE if shared else SEALED, sealed=sealed)]
    if session.over or record.status == "finished":
        if shared:
            lines.append(lang.gettext(STAYS_SEALED))
        else:
            lines.append(reveal_line(record.seed, record.salt, lang))
            lines.append(lang.tr(BY_HAND, kind=record.kind, seed=record.seed, salt=record.salt))
    return "\n".join(lines)
