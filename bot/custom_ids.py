"""Custom ids for every component the bot sends.

They carry everything a click needs (action, game, board version, argument), so a
button keeps working after a restart: discord.py's dynamic items parse them, with no
view kept in memory. Anything that does not parse is answered with a friendly error
instead of the silent "interaction failed".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "pb"
MAX_LENGTH = 100
ACTIONS = frozenset(
    {
        "join", "leave", "addai", "start", "cancel",  # lobby
        "turn",  # open the move picker for the player to act
        "pick",  # descend the move picker
        "page",  # page through a long list of choices
        "move",  # make a public move directly (e.g. a fall)
        "hand",  # show my hand
        "board",  # show the current board
        "sel",  # a select menu: the chosen value carries the path
        "chal",  # play a Continuous Pyramid challenge deal (the id is the challenge's)
    }
)
_PATTERN = re.compile(r"^pb:(?P<action>[a-z]+):(?P<game>\d{1,18}):(?P<version>\d{1,9})(?::(?P<arg>.*))?$", re.S)


class BadCustomId(Exception):
    """The component is not one of ours, or is damaged."""


@dataclass(frozen=True)
class CustomId:
    action: str
    game_id: int
    version: int
    arg: str = ""

    def encode(self) -> str:
        text = f"{PREFIX}:{self.action}:{self.game_id}:{self.version}"
        if self.arg:
            text += f":{self.arg}"
        if len(text) > MAX_LENGTH:
            raise ValueError(f"custom_id too long ({len(text)} > {MAX_LENGTH}): {text!r}")
        return text

    @classmethod
    def parse(cls, raw: str) -> CustomId:
        match = _PATTERN.match(raw)
        if match is None or match.group("action") not in ACTIONS:
            raise BadCustomId("That button is not one I recognise; it may be from an old version of the bot.")
        return cls(match.group("action"), int(match.group("game")), int(match.group("version")),
                   match.group("arg") or "")
