"""Custom ids for every component the bot sends: the one place they are built and read.

They carry everything a click needs (action, game, board version, argument), so a
button keeps working after a restart: discord.py's dynamic items parse them, with no
view kept in memory. Each kind of component matches its own actions
(:meth:`CustomId.template`); anything else is answered with a friendly error
instead of the silent "interaction failed". Ids on boards already posted keep
parsing: the format ``pb:<action>:<game>:<version>[:<arg>]`` never changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from i18n import N_

PREFIX = "pb"
MAX_LENGTH = 100
ACTIONS = frozenset(
    {
        "join", "leave", "addai", "start", "cancel",  # lobby
        "lopts",  # a lobby's options as a form (its opener's)
        "setform",  # the server settings as a form (/pyramid-admin settings; no game: 0)
        "turn",  # open the move picker for the player to act
        "pick",  # descend the move picker
        "page",  # page through a long list of choices
        "move",  # make a public move directly (e.g. a fall)
        "hand",  # show my hand
        "board",  # show the current board
        "sel",  # a select menu: the chosen value carries the path
        "chal",  # play a Continuous Pyramid challenge deal (the id is the challenge's)
        "replay",  # step through a finished game's replay (the version is the move to show)
        "pvok", "pvbk",  # confirm / go back from a move preview (the arg carries the move)
        "fair",  # 🔐 Fair deal: the deal's seal (and, once over, its seed and salt), privately
        "again",  # 🔁 Rematch: a new lobby of a finished game's kind and options, its players invited
        "undo",  # ↩ Take back: the mover's own last move (the version is that move's), on their hand card
        "fcast",  # 🔮 Forecast: the clicker's own forecast lines as a form, on their hand card while they wait
        "hush",  # 🔕 No more pings this turn (a repeated reminder's; the version is the turn's)
        "nform",  # 🔔 Notifications in a form (/pyramid settings; the clicker's own, no game: 0)
        "tjoin", "tleave",  # a tournament's sign-up card: Join, Leave (the id is the tournament's; version 0)
    }
)
_FORMAT = r"pb:(?P<action>{actions}):(?P<game>\d{{1,18}}):(?P<version>\d{{1,9}})(?::(?P<arg>.*))?"
#: The same, without group names, to be combined into one pattern.
_BARE_FORMAT = r"pb:(?:{actions}):\d{{1,18}}:\d{{1,9}}(?::.*)?"
_PATTERN = re.compile(_FORMAT.format(actions="[a-z]+"), re.S)
#: What a click on a component the bot no longer knows is told.
UNRECOGNISED = N_("That button is not one I recognise; it may be from an old version of the bot.")


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
        match = _PATTERN.fullmatch(raw)
        if match is None or match.group("action") not in ACTIONS:
            raise BadCustomId(UNRECOGNISED)
        return cls.from_match(match)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> CustomId:
        """The id a :meth:`template` (or the general format) matched."""
        return cls(match.group("action"), int(match.group("game")), int(match.group("version")),
                   match.group("arg") or "")

    @staticmethod
    def template(*actions: str) -> re.Pattern[str]:
        """The ids of these actions, for one kind of component (a dynamic item's template)."""
        return re.compile(_FORMAT.format(actions=_alternatives(actions)), re.S)


def none_of(actions: Iterable[str]) -> re.Pattern[str]:
    """Every id that is not one of ``actions`` (well formed): the catch-all's template.
    discord.py runs every dynamic item whose template matches a click, so the
    catch-all must leave alone what another kind answers."""
    known = _BARE_FORMAT.format(actions=_alternatives(actions))
    return re.compile(rf"(?!{known}\Z).*", re.S)


def _alternatives(actions: Iterable[str]) -> str:
    wanted = sorted(set(actions))
    unknown = set(wanted) - ACTIONS
    if unknown or not wanted:
        raise ValueError(f"Not custom id actions: {sorted(unknown) or 'none given'}.")
    return "|".join(wanted)
