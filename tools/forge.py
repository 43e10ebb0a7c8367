"""Forged interactions for the fuzzer (``tools.fuzz``): application commands made from
the command tree the bot registered, and component clicks with every argument out of
range. Each forgery is something Discord's own client would never send, but a stale
client, a modified one or a buggy integration can; the bot must answer every one
kindly (#26).

Commands: for a random leaf of the registered tree (``/pyramid play``,
``/pyramid-admin settings``…), options with valid values, then one mutation from
:data:`COMMAND_KINDS`. Components: a custom id of a random action with one argument
out of range, or a click whose data does not fit the component (:data:`COMPONENT_KINDS`).
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from emulator.model import Channel, Command, User
from emulator.server import Emulator

JSON = dict[str, Any]
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
#: What a forged command can be, each a label in the fuzzer's figures.
COMMAND_KINDS = (
    "wrong-type",  # a value of another type under the option's type, or another type code
    "not-a-choice",  # a value outside the option's choices
    "out-of-bounds",  # below min_value or above max_value
    "huge-integer",  # beyond Discord's integers: 2**53+1, 2**63, -2**63, 10**30
    "oversized-string",  # longer than max_length, up to 20,000 characters
    "missing-required",  # a required option left out
    "unknown-option",  # an option the command does not have
    "duplicate-option",  # one option twice
    "malformed-option",  # no value, a null value, a list, a non-object
    "unresolved-user",  # a user id Discord did not resolve, or no id at all
    "foreign-channel",  # a channel of another server (resolved by the forger) or of no server
    "unknown-subcommand",  # a subcommand the tree does not have, or none
    "bad-autocomplete",  # an autocomplete focused on nothing, twice, or on an option without it
)
#: What a forged click can be.
COMPONENT_KINDS = (
    "page-out-of-range", "version-out-of-range", "game-out-of-range", "select-values", "component-type",
    "path-too-long", "empty-argument", "unknown-level", "replay-beyond",
)
ACTIONS = ("join", "leave", "addai", "start", "cancel", "turn", "pick", "page", "move", "hand", "board", "sel",
           "chal", "replay", "pvok", "pvbk", "tjoin", "tleave")


def garbage(rng: random.Random, size: int) -> str:
    alphabet = string.ascii_letters + string.digits + " :,|-_#@<>`*~\n\t💥ÄÖ"
    return "".join(rng.choice(alphabet) for _ in range(size))


@dataclass
class Leaf:
    """A command as Discord would run it: the top command, the subcommand path, its options."""

    command: Command
    path: list[str]
    options: list[JSON]

    def data(self, options: list[Any], resolved: JSON | None = None) -> JSON:
        leaf: list[Any] = options
        for sub in reversed(self.path):
            leaf = [{"name": sub, "type": 1, "options": leaf}]
        data: JSON = {"id": str(self.command.id), "name": self.command.name, "type": 1, "options": leaf}
        if resolved:
            data["resolved"] = resolved
        return data


def leaves(commands: list[Command]) -> list[Leaf]:
    """Every runnable command of the registered tree."""
    found: list[Leaf] = []

    def walk(command: Command, path: list[str], options: list[JSON]) -> None:
        subs = [o for o in options if o.get("type") in (1, 2)]
        if not subs:
            found.append(Leaf(command, path, options))
            return
        for sub in subs:
            walk(command, [*path, str(sub["name"])], list(sub.get("options") or []))

    for command in commands:
        if command.type == 1:
            walk(command, [], list(command.raw.get("options") or []))
    return found


def fits(kind: str, leaf: Leaf) -> bool:
    """Whether a command has what a kind of forgery changes (an option of its type, say)."""
    specs = leaf.options
    types = {s.get("type") for s in specs}
    needs = {
        "unresolved-user": USER in types or MENTIONABLE in types,
        "foreign-channel": CHANNEL in types,
        "not-a-choice": any(s.get("choices") for s in specs),
        "out-of-bounds": any(s.get("min_value") is not None or s.get("max_value") is not None for s in specs),
        "huge-integer": INTEGER in types or NUMBER in types,
        "oversized-string": STRING in types,
        "missing-required": any(s.get("required") for s in specs),
        "duplicate-option": bool(specs),
        "bad-autocomplete": any(s.get("autocomplete") for s in specs),
    }
    return needs.get(kind, True)


class Forger:
    """Forged payloads over one emulated world: ``users`` to name, ``home`` channels per
    server, and the game ids that exist."""

    def __init__(self, emu: Emulator, rng: random.Random, users: list[User], game_ids: Callable[[], list[int]]) -> None:
        self.emu, self.rng, self.users, self.game_ids = emu, rng, users, game_ids

    # --- commands -------------------------------------------------------------------------------------------------
    def command(self, channel: Channel) -> tuple[str, int, JSON]:
        """(kind, interaction type, data) of one forged command used in ``channel``."""
        rng = self.rng
        kind = rng.choice(COMMAND_KINDS)
        every = leaves([c for c in self.emu.world.commands.values() if c.guild_id in (None, channel.guild_id)])
        leaf = rng.choice([leaf for leaf in every if fits(kind, leaf)] or every)
        resolved: JSON = {}
        options = [self.valid(spec, channel, resolved) for spec in leaf.options
                   if spec.get("required") or rng.random() < 0.4]
        for _ in range(4):  # a kind that does not apply to this command: another one
            forged = self.mutate(kind, leaf, options, resolved, channel)
            if forged is not None:
                return forged
            kind = rng.choice(COMMAND_KINDS)
        extra = {"name": "no_such_option_" + garbage(rng, 3).lower(), "type": STRING, "value": "x"}
        return "unknown-option", 2, leaf.data([*options, extra], resolved)

    def valid(self, spec: JSON, channel: Channel, resolved: JSON) -> JSON:
        """The option with a value Discord's client could send."""
        rng, kind = self.rng, spec.get("type")
        option: JSON = {"name": spec["name"], "type": kind}
        choices = spec.get("choices") or []
        if choices:
            option["value"] = rng.choice(choices)["value"]
        elif kind == STRING:
            low, high = spec.get("min_length", 0), min(spec.get("max_length", 30), 30)
            option["value"] = garbage(rng, rng.randint(max(low, 1), max(high, 1)))
        elif kind == INTEGER:
            if spec["name"] == "game":
                option["value"] = rng.choice(self.game_ids())
            else:
                option["value"] = rng.randint(int(spec.get("min_value", 0)), int(spec.get("max_value", 1000)))
        elif kind == NUMBER:
            option["value"] = rng.uniform(float(spec.get("min_value", 0.0)), float(spec.get("max_value", 100.0)))
        elif kind == BOOLEAN:
            option["value"] = rng.random() < 0.5
        elif kind in (USER, MENTIONABLE):
            user = rng.choice(self.users)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            option["value"] = str(user.id)
        elif kind == CHANNEL:
            option["value"] = str(channel.id)
            resolved.setdefault("channels", {})[str(channel.id)] = self.emu.world.channel_payload(channel)
        else:
            option["value"] = "0"
        return option

    def mutate(self, kind: str, leaf: Leaf, options: list[JSON], resolved: JSON,
               channel: Channel) -> tuple[str, int, JSON] | None:
        """The forgery of ``kind``, or None when it does not apply to this command."""
        rng = self.rng
        value: Any
        specs = leaf.options
        by_name = {str(s["name"]): s for s in specs}

        def with_option(option: Any, *, drop: str | None = None) -> list[Any]:
            name = option.get("name") if isinstance(option, dict) else None
            kept = [o for o in options if o["name"] not in (name, drop)]
            return [*kept, option]

        def pick(*types: int, have: str | None = None) -> JSON | None:
            fitting = [s for s in specs if s.get("type") in types and (have is None or s.get(have) is not None)]
            return rng.choice(fitting) if fitting else None

        if kind == "wrong-type":
            spec = pick(STRING, INTEGER, NUMBER, BOOLEAN, USER, CHANNEL)
            if spec is None:
                return None
            others: dict[int, list[Any]] = {STRING: [5, True, None, ["x"]], INTEGER: ["5", 5.5, True, None, {"v": 1}],
                      NUMBER: ["NaN", "1e400", True, None, "inf"], BOOLEAN: ["yes", 1, 0, "true"],
                      USER: [True, 1.5, "@everyone", ""], CHANNEL: [True, 2.5, "#general", ""]}
            if rng.random() < 0.5:
                option = {"name": spec["name"], "type": spec["type"], "value": rng.choice(others[spec["type"]])}
            else:
                code = rng.choice([t for t in (STRING, INTEGER, BOOLEAN, NUMBER, ROLE, ATTACHMENT)
                                   if t != spec["type"]])
                option = {"name": spec["name"], "type": code, "value": rng.choice(["5", 5, True, 2.5])}
            return kind, 2, leaf.data(with_option(option), resolved)
        if kind == "not-a-choice":
            spec = pick(STRING, INTEGER, NUMBER, have="choices")
            if spec is None:
                return None
            value = {STRING: rng.choice(["chess", "", "xx", garbage(rng, 12), "EXPLODE"]),
                          INTEGER: rng.choice([-1, 3, 99, 6]), NUMBER: rng.choice([-1.5, 99.25])}[spec["type"]]
            if value in [c["value"] for c in spec["choices"]]:
                return None
            return kind, 2, leaf.data(with_option({"name": spec["name"], "type": spec["type"], "value": value}),
                                      resolved)
        if kind == "out-of-bounds":
            spec = pick(INTEGER, NUMBER, have=rng.choice(["min_value", "max_value"]))
            if spec is None:
                return None
            low, high = spec.get("min_value"), spec.get("max_value")
            step = 1 if spec["type"] == INTEGER else 0.5
            value = rng.choice([v for v in ((low - step) if low is not None else None,
                                            (high + step) if high is not None else None,
                                            (high * 1000) if high is not None else None) if v is not None])
            return kind, 2, leaf.data(with_option({"name": spec["name"], "type": spec["type"], "value": value}),
                                      resolved)
        if kind == "huge-integer":
            spec = pick(INTEGER, NUMBER)
            if spec is None:
                return None
            value = rng.choice([2**53 + 1, 2**63, 2**63 - 1, -(2**63), 10**30, -(10**30), int("9" * 400)])
            if spec["type"] == NUMBER:
                value = rng.choice([1e308, -1e308, float(2**63)])
            return kind, 2, leaf.data(with_option({"name": spec["name"], "type": spec["type"], "value": value}),
                                      resolved)
        if kind == "oversized-string":
            spec = pick(STRING)
            if spec is None:
                return None
            size = rng.choice([int(spec.get("max_length", 100)) + 1, 6000, 6001, 20_000])
            return kind, 2, leaf.data(with_option({"name": spec["name"], "type": STRING, "value": "9" * size}),
                                      resolved)
        if kind == "missing-required":
            required = [s for s in specs if s.get("required")]
            if not required:
                return None
            gone = rng.choice(required)["name"]
            return kind, 2, leaf.data([o for o in options if o["name"] != gone], resolved)
        if kind == "unknown-option":
            name = rng.choice(["colour", "no_such_option", "Game", "gäme", garbage(rng, 8), ""])
            option = {"name": name, "type": rng.choice([STRING, INTEGER, BOOLEAN]), "value": rng.choice(["x", 1])}
            return kind, 2, leaf.data([*options, option], resolved)
        if kind == "duplicate-option":
            if not options:
                return None
            twice = rng.choice(options)
            return kind, 2, leaf.data([*options, dict(twice)], resolved)
        if kind == "malformed-option":
            spec = rng.choice(specs) if specs else None
            name = spec["name"] if spec else "game"
            bad: Any = rng.choice([{"name": name, "type": spec["type"] if spec else STRING},
                                   {"name": name, "type": spec["type"] if spec else STRING, "value": None},
                                   {"name": name, "type": 1, "options": []}, ["x"], "x", None, {"type": 3}])
            return kind, 2, leaf.data([o for o in options if o["name"] != name] + [bad], resolved)
        if kind == "unresolved-user":
            spec = pick(USER, MENTIONABLE)
            if spec is None:
                return None
            value = rng.choice(["424242424242424242", "0", "-5", "x" * 30, "9" * 25, ""])
            option = {"name": spec["name"], "type": spec["type"], "value": value}
            bare = {k: v for k, v in resolved.items() if k not in ("users", "members")}
            return kind, 2, leaf.data(with_option(option), bare)
        if kind == "foreign-channel":
            spec = pick(CHANNEL)
            if spec is None:
                return None
            elsewhere = [c for c in self.emu.world.channels.values() if c.guild_id not in (None, channel.guild_id)]
            forged_resolved = dict(resolved)
            if elsewhere and rng.random() < 0.7:
                other = rng.choice(elsewhere)
                value = str(other.id)
                forged_resolved["channels"] = {value: self.emu.world.channel_payload(other)}
            else:
                value = rng.choice(["1", "999999999999999999", str(channel.id) + "0"])
                forged_resolved.pop("channels", None)
            return kind, 2, leaf.data(with_option({"name": spec["name"], "type": CHANNEL, "value": value}),
                                      forged_resolved)
        if kind == "unknown-subcommand":
            data = leaf.data(options, resolved)
            if rng.random() < 0.5 or not leaf.path:
                data["options"] = [{"name": rng.choice(["nope", "chess", "Play", garbage(rng, 5)]), "type": 1,
                                    "options": []}]
            else:
                data["options"] = options  # a group's options without its subcommand
            return kind, 2, data
        if kind == "bad-autocomplete":
            shown = [dict(o) for o in options]
            completing = [s for s in specs if s.get("autocomplete")]
            if shown and rng.random() < 0.5:  # focused on an option without autocomplete, or on two
                for option in rng.sample(shown, k=min(len(shown), rng.choice([1, 2]))):
                    option["focused"] = True
            elif completing:  # the right option, with a value of another type
                spec = rng.choice(completing)
                shown = [o for o in shown if o["name"] != spec["name"]]
                shown.append({"name": spec["name"], "type": INTEGER, "value": rng.choice([5, 2**63]),
                              "focused": True})
            focused = [o for o in shown if o.get("focused")]
            if len(focused) == 1 and by_name.get(focused[0]["name"], {}).get("autocomplete") and \
                    focused[0]["type"] == by_name[focused[0]["name"]]["type"]:
                return None  # a fair autocomplete after all
            return kind, 4, leaf.data(shown, resolved)
        return None

    # --- components -----------------------------------------------------------------------------------------------
    def component(self, version: int) -> tuple[str, str, JSON]:
        """(kind, custom id, click data) of one forged click on a game's component."""
        rng = self.rng
        kind = rng.choice(COMPONENT_KINDS)
        gid = rng.choice(self.game_ids())
        action = rng.choice(ACTIONS)
        arg = ""
        button: JSON = {"component_type": 2}
        if kind == "page-out-of-range":
            action = "page"
            page = rng.choice(["-1", "100", "999", "9" * 40, "", "x", "1.5", "²"])
            arg = f"{page}|{rng.choice(['', 'build', 'place'])}"
        elif kind == "version-out-of-range":
            version = rng.choice([version + 1, version + 1000, 999_999_999, 0])
        elif kind == "game-out-of-range":
            gid = rng.choice([0, 10**18 - 1, max(self.game_ids()) + 1, 999_999])
        elif kind == "select-values":
            action = rng.choice(["sel", "addai"])
            values = rng.choice([[], ["x" * 5000], [1], [None], ["a", "b"], [""], [{"v": 1}]])
            button = {"component_type": 3, "values": values}
        elif kind == "component-type":
            if action in ("sel", "addai"):
                button = {"component_type": 2}
            else:
                button = {"component_type": rng.choice([3, 5, 7, 8]), "values": ["1"]}
        elif kind == "path-too-long":
            action = rng.choice(["pick", "sel"])
            arg = " ".join(garbage(rng, 2).strip() or "x" for _ in range(rng.randint(13, 30)))
        elif kind == "empty-argument":
            action = rng.choice(["move", "pvok", "pvbk", "page"])
        elif kind == "unknown-level":
            action = "addai"
            button = {"component_type": 3, "values": [rng.choice(["godlike", "", "x" * 100, "Normal"])]}
        elif kind == "replay-beyond":
            action = "replay"
            version = rng.choice([version + 1, 100_001, 999_999_999])
        custom_id = f"pb:{action}:{gid}:{version}" + (f":{arg}" if arg else "")
        return kind, custom_id[:100], {"custom_id": custom_id[:100], **button}
