"""What every component of the bot shares: reading its custom id, and answering a
failure with a sentence instead of Discord's silent "This interaction failed"."""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar

import discord

from bot.cards.custom_ids import BadCustomId, CustomId
from bot.core.languages import Languages
from bot.interactions.failures import answer_failure
from bot.interactions.items.arguments import Arguments, read_arguments
from bot.interactions.replies import explain, reader_or_english, tell
from bot.store import CorruptRecord
from i18n import N_, Lang

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
#: Matches nothing: the template of kinds that only exist to be subclassed.
NOTHING = re.compile(r"(?!)")
#: What a click that failed inside says (translated where it is shown).
INTERNAL = N_("Something went wrong on my side; nothing was changed. Please try again.")


class Component(discord.ui.DynamicItem[discord.ui.Item[Any]], template=NOTHING):
    """One kind of component. A subclass names its ``actions`` (its template follows
    from them) and implements :meth:`handle`; what it needs to do so is bound to it
    as class attributes when a client registers it (see ``binding``)."""

    #: The custom id actions this kind answers.
    actions: ClassVar[tuple[str, ...]] = ()
    #: Who reads which language (bound per client, like the handlers).
    languages: ClassVar[Languages | None] = None

    def __init_subclass__(cls, *, actions: tuple[str, ...] = (), template: re.Pattern[str] | None = None) -> None:
        if actions:
            cls.actions = actions
        if template is None:
            template = CustomId.template(*actions) if actions else cls.__discord_ui_compiled_template__
        super().__init_subclass__(template=template)

    def __init__(self, item: discord.ui.Item[Any], match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match
        self.args = Arguments(CustomId("", 0, 0))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Component:
        return cls(item, match)

    @property
    def cid(self) -> CustomId:
        return CustomId.from_match(self.match)

    async def callback(self, interaction: Interaction) -> None:
        raw = self.match.string
        lang: Lang | None = None
        try:
            if self.actions:  # the catch-all has no arguments to read
                self.args = read_arguments(self.cid, interaction)
            await self.handle(interaction)
        except BadCustomId as exc:
            await tell(interaction, f"❌ {explain(exc, await self.lang(interaction))}")
        except CorruptRecord as exc:
            log.error("corrupt record behind %s: %s", raw, exc)
            lang = await self.lang(interaction)
            await tell(interaction, f"❌ {explain(exc, lang)} " + lang.tr("An admin can look at the bot's logs."))
        except Exception as exc:  # noqa: BLE001 - every failure is answered, and logged by its kind
            lang = lang or await self.lang(interaction)
            try:
                await answer_failure(interaction, exc, lang, what=f"click {raw[:100]!r}", internal=INTERNAL)
            except discord.HTTPException:  # the interaction can no longer be answered (expired, or Discord down)
                log.warning("could not answer click %r after a failure", raw[:100])

    async def lang(self, interaction: Interaction) -> Lang:
        """The clicker's language; English when it can't be told (a failure is answered all the same)."""
        return await reader_or_english(interaction, self.languages)

    async def handle(self, interaction: Interaction) -> None:
        raise NotImplementedError


def chosen_values(interaction: Interaction) -> list[str]:
    """What a select menu's clicker chose."""
    data: dict[str, Any] = dict(interaction.data or {})
    return [str(v) for v in data.get("values", []) or []]
