"""One dynamic item for every button and select the bot sends.

Its template matches *any* custom id, so a click on a component that no longer
parses (an older bot version, a damaged id) still gets a friendly answer instead of
Discord's silent "This interaction failed".
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot import lobby, turns
from bot.custom_ids import BadCustomId, CustomId
from bot.replies import tell
from bot.store import CorruptRecord

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]


class Control(discord.ui.DynamicItem[discord.ui.Item[Any]], template=re.compile(r"(?s).*")):
    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Control:
        return cls(item)

    async def callback(self, interaction: Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        raw = str(data.get("custom_id", ""))
        values = [str(v) for v in data.get("values", []) or []]
        try:
            cid = CustomId.parse(raw)
            await route(interaction, cid, values)
        except BadCustomId as exc:
            await tell(interaction, f"❌ {exc}")
        except CorruptRecord as exc:
            log.error("corrupt record behind %s: %s", raw, exc)
            await tell(interaction, f"❌ {exc} An admin can look at the bot's logs.")
        except discord.HTTPException:
            raise
        except Exception:
            log.exception("click %s failed", raw)
            await tell(interaction, "❌ Something went wrong on my side; nothing was changed. Please try again.")


async def route(interaction: Interaction, cid: CustomId, values: list[str]) -> None:
    action = cid.action
    if action in ("join", "leave", "addai", "start", "cancel"):
        await lobby.on_lobby(interaction, cid, values)
    elif action == "turn":
        await turns.on_turn(interaction, cid)
    elif action == "pick":
        await turns.on_pick(interaction, cid, cid.arg.split())
    elif action == "sel":
        await turns.on_pick(interaction, cid, [*cid.arg.split(), *values[:1]])
    elif action == "page":
        page, _, path = cid.arg.partition("|")
        await turns.on_pick(interaction, cid, path.split(), int(page) if page.isdigit() else 0)
    elif action == "move":
        await turns.on_move(interaction, cid)
    elif action == "hand":
        await turns.on_hand(interaction, cid)
    elif action == "board":
        await turns.on_board(interaction, cid)
    elif action == "chal":
        from bot.challenges import on_play_challenge

        await on_play_challenge(interaction, cid)
    else:  # pragma: no cover - ACTIONS and this table are kept in step by tests
        raise BadCustomId("That button is not one I recognise.")
