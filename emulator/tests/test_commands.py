"""Application command definitions (bulk overwrite, create, edit) against Discord's documented rules, and who gets
to see a command (``default_member_permissions``, ``contexts``)."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import Emulator, Harness
from emulator import limits as L
from emulator.interactions import CommandUnavailable

from .raw import RawAPI

JSON = dict[str, Any]


def cmd(**kw: Any) -> JSON:
    return {"name": "game", "description": "Play", "type": 1, **kw}


def opt(name: str = "o", type: int = 3, **kw: Any) -> JSON:
    return {"name": name, "description": "d", "type": type, **kw}


def sub(name: str = "s", *options: JSON, type: int = 1) -> JSON:
    return {"name": name, "description": "d", "type": type, "options": list(options)}


def choices(n: int, value: Any = None) -> list[JSON]:
    return [{"name": f"c{i}", "value": f"v{i}" if value is None else value} for i in range(n)]


BIG = [
    opt(
        f"o{i}",
        description="d" * 100,
        choices=[{"name": "n" * 100, "value": f"{j}" + "v" * 90} for j in range(25)],
    )
    for i in range(2)
]

CASES: list[tuple[str, JSON, tuple[str, ...]]] = [
    ("command-name", cmd(name="Game"), ("0", "name")),
    ("command-name", cmd(name="two words"), ("0", "name")),
    ("command-name", cmd(name="x" * 33), ("0", "name")),
    ("command-name", cmd(name_localizations={"fr": "Jeu"}), ("0", "name_localizations", "fr")),
    ("command-name", cmd(name_localizations={"xx-XX": "jeu"}), ("0", "name_localizations", "xx-XX")),
    ("command-description", cmd(description=""), ("0", "description")),
    ("command-description", cmd(description="d" * 101), ("0", "description")),
    ("command-description", {"name": "Show Board", "type": 3, "description": "no"}, ("0", "description")),
    ("command-options", cmd(options=[opt(f"o{i}") for i in range(26)]), ("0", "options")),
    ("command-options", cmd(options=[opt("a"), opt("a")]), ("0", "options", "1", "name")),
    ("command-options", cmd(options=[opt("a"), opt("b", required=True)]), ("0", "options", "1", "required")),
    ("command-options", cmd(options=[opt(min_value=1)]), ("0", "options", "0", "min_value")),
    ("command-options", cmd(options=[opt(type=4, min_value=5, max_value=1)]), ("0", "options", "0", "max_value")),
    ("command-options", cmd(options=[opt(type=4, min_value=1.5)]), ("0", "options", "0", "min_value")),
    ("command-options", cmd(options=[opt(min_length=6001)]), ("0", "options", "0", "min_length")),
    ("command-options", cmd(options=[opt(max_length=0)]), ("0", "options", "0", "max_length")),
    ("command-options", cmd(options=[opt(type=5, autocomplete=True)]), ("0", "options", "0", "autocomplete")),
    (
        "command-options",
        cmd(options=[opt(autocomplete=True, choices=choices(2))]),
        ("0", "options", "0", "autocomplete"),
    ),
    ("command-options", cmd(options=[opt(type=6, choices=choices(2))]), ("0", "options", "0", "choices")),
    ("command-options", {"name": "Show", "type": 2, "description": "", "options": [opt()]}, ("0", "options")),
    ("command-nesting", cmd(options=[sub("a"), opt("b")]), ("0", "options")),
    ("command-nesting", cmd(options=[sub("g", opt("x"), type=2)]), ("0", "options", "0", "type")),
    (
        "command-nesting",
        cmd(options=[sub("g", sub("h", sub("s"), type=2), type=2)]),
        ("0", "options", "0", "options", "0", "type"),
    ),
    ("command-nesting", cmd(options=[sub("s", sub("t"))]), ("0", "options", "0", "type")),
    ("command-nesting", cmd(options=[sub("g", type=2)]), ("0", "options", "0", "options")),
    ("command-choices", cmd(options=[opt(choices=choices(26))]), ("0", "options", "0", "choices")),
    ("command-choices", cmd(options=[opt(type=4, choices=choices(1))]), ("0", "options", "0", "choices", "0", "value")),
    (
        "command-choices",
        cmd(options=[opt(type=10, choices=choices(1, value=True))]),
        ("0", "options", "0", "choices", "0", "value"),
    ),
    (
        "command-choices",
        cmd(options=[opt(choices=choices(1, value=1))]),
        ("0", "options", "0", "choices", "0", "value"),
    ),
    (
        "command-choices",
        cmd(options=[opt(choices=choices(1, value="v" * 101))]),
        ("0", "options", "0", "choices", "0", "value"),
    ),
    (
        "command-choices",
        cmd(options=[opt(choices=[{"name": "", "value": "v"}])]),
        ("0", "options", "0", "choices", "0", "name"),
    ),
    (
        "command-size",
        cmd(
            description="d" * 100,
            options=BIG * 1 + [opt(f"p{i}", description="d" * 100, choices=BIG[0]["choices"]) for i in range(20)],
        ),
        ("0",),
    ),
    ("command-permissions", cmd(default_member_permissions="manage_guild"), ("0", "default_member_permissions")),
    ("command-permissions", cmd(default_member_permissions=-8), ("0", "default_member_permissions")),
    ("command-contexts", cmd(contexts=[0, 3]), ("0", "contexts", "1")),
    ("command-contexts", cmd(integration_types=[2]), ("0", "integration_types", "0")),
    ("command-definition", cmd(type=9), ("0", "type")),
]


@pytest.mark.parametrize(("rule", "body", "path"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
async def test_bulk_overwrite_rules(
    emulator: Emulator, api: RawAPI, rule: str, body: JSON, path: tuple[str, ...]
) -> None:
    url = f"/applications/{emulator.world.application_id}/commands"
    with emulator.expect_violation(rule):
        status, err = await api.request("PUT", url, [body])
    assert (status, err["code"], err["message"]) == (400, 50035, "Invalid Form Body"), err
    node = err["errors"]
    for key in path:
        node = node[key]
    assert node["_errors"][0]["code"], node
    assert emulator.world.commands == {}


def test_the_size_limit_counts_the_longest_localization() -> None:
    def with_choices(name: str, n: int, **kw: Any) -> JSON:
        return opt(
            name, description="d", choices=[{"name": "n" * 100, "value": f"{i:02}" + "v" * 98} for i in range(n)], **kw
        )

    # 4 + 100, then 2 + 1 + 25 * 200, then 2 + 1 + 12 * 200: 7510 characters
    base = cmd(description="d" * 100, options=[with_choices("o0", 25), with_choices("o1", 12)])
    assert L.check_command(base) == []
    # five 100-character localizations of o1's description: only the longest counts (+99, not +500)
    localized = {loc: loc[0] * 100 for loc in ("fr", "de", "it", "ja", "ko")}
    five = cmd(
        description="d" * 100,
        options=[with_choices("o0", 25), with_choices("o1", 12, description_localizations=localized)],
    )
    assert L.check_command(five) == []
    over = cmd(
        description="d" * 100,
        options=[with_choices("o0", 25), with_choices("o1", 15, description_localizations=localized)],
    )
    assert [p.code for p in L.check_command(over)] == ["APPLICATION_COMMAND_TOO_LARGE"]


async def test_valid_definitions_pass_with_integer_permissions(emulator: Emulator, api: RawAPI) -> None:
    url = f"/applications/{emulator.world.application_id}/commands"
    good = [
        cmd(
            default_member_permissions=32,  # discord.py sends an integer; Discord takes it as the bitfield
            contexts=[0],
            integration_types=[0],
            options=[
                sub("new", opt("kind", choices=choices(25), required=True), opt("n", type=4, min_value=1, max_value=9)),
                sub("g", sub("x", opt("q", min_length=0, max_length=6000, autocomplete=True)), type=2),
            ],
        ),
        {"name": "Show Board", "type": 3, "description": ""},
        cmd(name="jeu-ü_'", default_member_permissions="0", name_localizations={"fr": "partie"}),
    ]
    status, created = await api.request("PUT", url, good)
    assert status == 200, created
    assert {c["name"] for c in created} == {"game", "Show Board", "jeu-ü_'"}
    assert emulator.violations == []


async def test_command_counts(emulator: Emulator, api: RawAPI) -> None:
    url = f"/applications/{emulator.world.application_id}/commands"
    many = [cmd(name=f"c{i}") for i in range(101)]
    with emulator.expect_violation("command-count"):
        status, err = await api.request("PUT", url, many)
    assert status == 400 and err["errors"]["_errors"][0]["code"] == "APPLICATION_COMMANDS_TOO_MANY"
    assert (await api.request("PUT", url, many[:100]))[0] == 200
    with emulator.expect_violation("command-count"):
        status, _ = await api.request("POST", url, cmd(name="c100"))
    assert status == 400
    assert (await api.request("POST", url, cmd(name="c5", description="updated")))[0] == 200  # an upsert is fine
    with emulator.expect_violation("command-count"):
        status, err = await api.request("PUT", url, [cmd(), cmd()])
    assert err["errors"]["1"]["name"]["_errors"][0]["code"] == "APPLICATION_COMMANDS_DUPLICATE_NAME"


async def test_single_create_and_edit_are_validated(emulator: Emulator, api: RawAPI) -> None:
    url = f"/applications/{emulator.world.application_id}/guilds/{emulator.guild.id}/commands"
    with emulator.expect_violation("command-description"):
        status, err = await api.request("POST", url, cmd(description=""))
    assert status == 400 and "description" in err["errors"]
    status, created = await api.request("POST", url, cmd())
    assert status == 201
    with emulator.expect_violation("command-options"):
        status, err = await api.request("PATCH", f"{url}/{created['id']}", {"options": [opt("a"), opt("a")]})
    assert status == 400 and "options" in err["errors"]
    with emulator.expect_violation("command-definition"):  # no PRIMARY_ENTRY_POINT guild commands
        status, _ = await api.request("POST", url, cmd(name="launch", type=4))
    assert status == 400


# --- who sees a command --------------------------------------------------------------------------------------------


async def test_default_member_permissions_hide_a_command(emulator: Emulator, harness: Harness) -> None:
    admin = await harness.add_user("admin")
    member = await harness.add_user("member", permissions=0)  # @everyone's permissions only
    await harness.start_bot()
    toy = next(c for c in emulator.world.commands.values() if c.name == "toy")
    toy.raw["default_member_permissions"] = str(1 << 5)  # MANAGE_GUILD
    with pytest.raises(CommandUnavailable, match="MANAGE_GUILD"):
        await harness.slash(member, emulator.general, "toy echo", text="hi")
    res = await harness.slash(admin, emulator.general, "toy echo", text="hi")
    assert res.content == "hi"
    toy.raw["default_member_permissions"] = "0"  # admins only
    with pytest.raises(CommandUnavailable):
        await harness.slash(admin, emulator.general, "toy echo", text="hi")
    boss = await harness.add_role("boss", ["administrator"], members=[admin])
    assert boss.permissions == 1 << 3
    assert (await harness.slash(admin, emulator.general, "toy echo", text="boss")).content == "boss"
    # DMs: default_member_permissions do not apply there, contexts do
    assert (await harness.slash(member, harness.dm_channel(member), "toy echo", text="dm")).content == "dm"
    toy.raw["contexts"] = [0]
    with pytest.raises(CommandUnavailable, match="context"):
        await harness.slash(member, harness.dm_channel(member), "toy echo", text="dm")


async def test_use_application_commands_is_needed(emulator: Emulator, harness: Harness) -> None:
    muted = await harness.add_user("muted")
    await harness.start_bot()
    await harness.set_overwrite(emulator.general, muted, deny=["use_application_commands"])
    with pytest.raises(CommandUnavailable, match="USE_APPLICATION_COMMANDS"):
        await harness.slash(muted, emulator.general, "toy echo", text="x")
