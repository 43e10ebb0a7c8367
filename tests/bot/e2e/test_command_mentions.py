"""Commands named in the bot's texts are command mentions: a player reads the bot in the language they chose,
but their Discord client shows the commands under its own names, so a German reader with an English client
must not be told to type ``/pyramide neu``. The mention carries the id the command sync got back."""

from __future__ import annotations

import re
from typing import Any

from bot.core.command_links import CommandLinks
from bot.interactions.command_sync import registered
from emulator.harness import Harness
from i18n import LOCALE_DIR
from i18n.catalogue import read_catalogue

#: A command named in a code span (not "`/{command}`", a placeholder for what someone typed).
NAMED = re.compile(r"`/[a-z]")
COMMAND_MENTION = re.compile(r"</[a-z-]+(?: [a-z-]+){0,2}:\d+>")


def command_id(emulator: Any, name: str) -> int:
    return next(c.id for c in emulator.world.commands.values() if c.name == name and c.guild_id is None)


async def test_a_german_reader_with_an_english_client_gets_command_mentions(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana", locale="en-US")
    await harness.start_bot()
    pyramid = command_id(emulator, "pyramid")
    chosen = await harness.slash(ana, emulator.general, "pyramid settings", language="Deutsch")
    # German words; the commands as mentions (the client draws them in English), the option hints readable after
    assert chosen.text.endswith(f"Ändern kannst du sie mit </pyramid settings:{pyramid}> `vorschau:` und "
                                f"</pyramid settings:{pyramid}> `sprache:`.")
    assert "/pyramide" not in chosen.text
    nothing = await harness.slash(ana, emulator.general, "pyramid games")
    assert nothing.text == ("Du spielst hier in keinem laufenden Spiel mit. "
                            f"Starte eines mit </pyramid new:{pyramid}>.")
    not_away = await harness.slash(ana, emulator.general, "pyramid back")
    assert f"</pyramid away:{pyramid}> `tage:<n>`" in not_away.text


async def test_an_admin_command_is_named_by_its_own_id(emulator: Any, harness: Harness) -> None:
    admin = await harness.add_user("ada")
    ben = await harness.add_user("ben", locale="de")
    await harness.start_bot()
    await harness.slash(admin, emulator.general, "pyramid-admin settings", away_days=0)
    away = await harness.slash(ben, emulator.general, "pyramide abwesend", tage=3)
    admin_id = command_id(emulator, "pyramid-admin")
    assert f"</pyramid-admin settings:{admin_id}> `away_days`" in away.text, away.text


async def test_every_command_the_catalogues_name_becomes_a_mention(emulator: Any, harness: Harness) -> None:
    """Every text of every language that names a command in a code span names a real one: once synced, none is
    left as typed text (a renamed command or a slip in a translation fails here). Texts without their
    placeholders filled keep them, which the commands never contain."""
    await harness.start_bot()
    texts = harness.bot.services.languages.texts
    catalogue = read_catalogue(list((LOCALE_DIR / "de" / "LC_MESSAGES").glob("*.po")), "de")
    named = [m for m in catalogue if m.id and NAMED.search(m.id if isinstance(m.id, str) else m.id[0])]
    assert len(named) >= 17
    for message in named:
        for code in texts.codes:
            lang = texts.langs[code]
            said = lang.tr(message.id) if isinstance(message.id, str) else lang.trn(*message.id[:2], 1)
            assert not NAMED.search(said), (code, said)
            assert COMMAND_MENTION.search(said), (code, said)


async def test_the_ids_can_be_read_back_from_discord(emulator: Any, harness: Harness) -> None:
    """Where the sync was refused, the commands Discord still holds give the ids (``registered``)."""
    await harness.start_bot()
    links = CommandLinks()
    assert links.link("`/pyramide neu`") == "`/pyramide neu`"  # nothing known: as written
    links.learn(await registered(harness.bot.client, None))
    assert links.link("`/pyramide neu`") == f"</pyramid new:{command_id(emulator, 'pyramid')}>"
