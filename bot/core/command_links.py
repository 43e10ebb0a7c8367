"""Commands named in the bot's texts become command mentions, in the reader's client language.

A player reads the bot's words in the language they chose (``/pyramid settings language:``), but Discord
shows command names in their client's language: a German text telling an English client to type
``/pyramide einstellungen`` names a command that does not exist for them. Discord's answer is the command
mention ``</pyramid settings:ID>``, which every client draws clickable, under its own names.

The texts keep naming commands as code spans (``\\`/pyramid settings preview:\\```, in any language the
commands are named in); :meth:`CommandLinks.link` turns each span naming a known command into its mention,
with what follows the command (option hints) kept readable as a code span after it. It is the one place:
every reader's :class:`i18n.Lang` handed out by :class:`bot.core.languages.Languages` finishes its texts
with it. The ids come from the command sync (:meth:`learn`, with the commands Discord answered); until then,
and wherever nothing was synced (the terminal, tests without a bot), the texts stay as they are written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: Every code span, paired from the left as Markdown pairs backticks (a span never starts at a closing one).
_SPAN = re.compile(r"`([^`]*)`")
#: What a span naming a command holds: "/name…", then an option hint after a space.
_COMMAND = re.compile(r"/([^\s`]+)((?: .*)?)", re.S)
#: Option types that are a subcommand (1) or a group of them (2).
_SUBCOMMAND, _GROUP = 1, 2
#: A slash command (application command type 1).
_CHAT_INPUT = 1


@dataclass(frozen=True)
class _Node:
    """A command, group or subcommand: its name as Discord knows it, and its children by every name."""

    name: str
    invocable: bool
    children: Mapping[str, _Node] = field(default_factory=dict)


def _names(payload: Mapping[str, Any]) -> set[str]:
    """Every name of ``payload``: its own and its localizations."""
    return {str(payload["name"]), *(str(n) for n in (payload.get("name_localizations") or {}).values())}


def _node(payload: Mapping[str, Any]) -> _Node:
    children: dict[str, _Node] = {}
    for option in payload.get("options") or ():
        if option.get("type") in (_SUBCOMMAND, _GROUP):
            child = _node(option)
            for name in _names(option):
                children[name] = child
    return _Node(str(payload["name"]), invocable=not children, children=children)


@dataclass
class CommandLinks:
    """The bot's slash commands by every name they have, with the ids Discord gave them."""

    _roots: dict[str, tuple[int, _Node]] = field(default_factory=dict)

    def learn(self, commands: Iterable[Mapping[str, Any]]) -> None:
        """Remember ``commands`` as Discord answered a sync or a listing (each with its ``id``)."""
        for command in commands:
            if int(command.get("type", _CHAT_INPUT)) != _CHAT_INPUT or "id" not in command:
                continue
            root = (int(command["id"]), _node(command))
            for name in _names(command):
                self._roots[name] = root

    def mention(self, path: str) -> str | None:
        """``path`` ("pyramid settings", in any language the commands are named in) as a command mention,
        with any words after the command kept as a code span; None when it names no known command."""
        words = path.split(" ")
        found = self._roots.get(words[0])
        if found is None:
            return None
        command_id, node = found
        names = [node.name]
        rest = words[1:]
        while rest and rest[0] in node.children:
            node = node.children[rest.pop(0)]
            names.append(node.name)
        if not node.invocable:
            return None
        hint = " ".join(rest).strip()
        shown = f"</{' '.join(names)}:{command_id}>"
        return f"{shown} `{hint}`" if hint else shown

    def link(self, text: str) -> str:
        """``text`` with every code span naming a known command as its mention."""
        if not self._roots or "`/" not in text:
            return text

        def replace(match: re.Match[str]) -> str:
            command = _COMMAND.fullmatch(match.group(1))
            if command is None:
                return match.group(0)
            return self.mention(command.group(1) + command.group(2)) or match.group(0)

        return _SPAN.sub(replace, text)
