"""Installation and interaction contexts: guild and user installs, group DMs, guilds the app is not in, the
follow-up limit, the deprecated ``dm_permission`` and DMs to users the bot cannot reach."""

from __future__ import annotations

import pytest

from emulator import Emulator, Harness, User
from emulator.interactions import CommandUnavailable, dispatch_interaction

from .raw import RawAPI, RawGateway


def owners(result: object) -> dict[str, str]:
    return dict(result.interaction.payload["authorizing_integration_owners"])  # type: ignore[attr-defined]


async def test_a_user_install_plays_in_a_group_dm(bot: Harness, alice: User, bob: User) -> None:
    emulator = bot.emu
    gdm = bot.add_group_dm(alice, bob)
    with pytest.raises(CommandUnavailable):  # nobody installed the app: nothing to offer
        await bot.slash(alice, gdm, "where")
    bot.install_app(alice)
    res = await bot.slash(alice, gdm, "where")
    payload = res.interaction.payload
    assert payload["context"] == 2 and owners(res) == {"1": str(alice.id)}
    assert "guild_id" not in payload and payload["channel"]["type"] == 3
    assert res.message is not None and res.message.text == "guild=False user=True"
    assert res.message.channel_id == gdm.id and res.message.interaction_metadata is not None
    assert res.message.interaction_metadata["authorizing_integration_owners"] == {"1": str(alice.id)}
    with pytest.raises(CommandUnavailable):  # bob has not installed it
        await bot.slash(bob, gdm, "where")
    with pytest.raises(CommandUnavailable):  # /toy declares no integration_types: guild install only
        await bot.slash(alice, gdm, "toy echo", text="hi")
    # the bot user is not in the group DM: no channel routes
    async with RawAPI(emulator) as api:
        with emulator.expect_violation("missing-access"):
            status, err = await api.request("POST", f"/channels/{gdm.id}/messages", {"content": "psst"})
    assert (status, err["code"]) == (403, 50001)


async def test_owners_name_every_install_that_reaches(bot: Harness, alice: User) -> None:
    general, dm = bot.emu.general, bot.dm_channel(alice)
    assert owners(await bot.slash(alice, general, "where")) == {"0": str(bot.emu.guild.id)}
    assert (await bot.slash(alice, dm, "where")).interaction.payload["context"] == 1
    assert owners(await bot.slash(alice, dm, "where")) == {"0": "0"}
    bot.install_app(alice)
    both = await bot.slash(alice, general, "where")
    assert owners(both) == {"0": str(bot.emu.guild.id), "1": str(alice.id)}
    assert both.message is not None and both.message.text == "guild=True user=True"


async def test_a_guild_without_the_bot(bot: Harness, alice: User) -> None:
    emulator = bot.emu
    elsewhere = await bot.add_guild("elsewhere", members=[alice], bot=False)
    channel = bot.channel("general", guild=elsewhere)
    with pytest.raises(CommandUnavailable):
        await bot.slash(alice, channel, "where")
    bot.install_app(alice)
    res = await bot.slash(alice, channel, "where", followups=5)  # five follow-ups are allowed
    assert owners(res) == {"1": str(alice.id)} and res.interaction.payload["context"] == 0
    assert len(res.interaction.followup_ids) == 5
    with emulator.expect_violation("followup-limit"), bot.expect_bot_error():
        res = await bot.slash(alice, channel, "where", followups=6)
    assert len(res.interaction.followup_ids) == 5
    async with RawAPI(emulator) as api:
        with emulator.expect_violation("missing-access"):
            status, _ = await api.request("POST", f"/channels/{channel.id}/messages", {"content": "hi"})
    assert status == 403


async def test_without_use_external_apps_the_answer_is_private(bot: Harness) -> None:
    quiet = await bot.add_guild("quiet", bot=False)
    mallory = await bot.add_user("mallory", guild=quiet, permissions=(1 << 10) | (1 << 11) | (1 << 31))
    bot.install_app(mallory)
    await bot.set_role_permissions(quiet.everyone, quiet.everyone.permissions & ~(1 << 50), guild=quiet)
    res = await bot.slash(mallory, bot.channel("general", guild=quiet), "where")
    assert res.message is not None and res.message.ephemeral
    await bot.set_role_permissions(quiet.everyone, quiet.everyone.permissions | (1 << 50), guild=quiet)
    res = await bot.slash(mallory, bot.channel("general", guild=quiet), "where")
    assert res.message is not None and not res.message.ephemeral


async def test_components_keep_the_owners_of_the_message(
    emulator: Emulator, gw: RawGateway, alice: User, bob: User
) -> None:
    emulator.world.user_installs.add(alice.id)
    gdm = emulator.world.add_group_dm([alice, bob])
    path = f"/applications/{emulator.world.application_id}/commands"
    command = {"name": "anywhere", "description": "d", "integration_types": [0, 1], "contexts": [0, 1, 2]}
    async with RawAPI(emulator) as api:
        _, [synced] = await api.request("PUT", path, [command])
        inter = await dispatch_interaction(
            emulator, type=2, user=alice, channel=gdm, data={"id": synced["id"], "name": "anywhere", "type": 1}
        )
        button = {"type": 2, "style": 1, "label": "Go", "custom_id": "b"}
        body = {"type": 4, "data": {"content": "a game", "components": [{"type": 1, "components": [button]}]}}
        status, answer = await api.request(
            "POST", f"/interactions/{inter.id}/{inter.token}/callback?with_response=true", body
        )
        assert status == 200, answer
        message = emulator.world.messages[int(answer["resource"]["message"]["id"])]
        click = await dispatch_interaction(
            emulator, type=3, user=bob, channel=gdm, data={"custom_id": "b", "component_type": 2}, message=message
        )
        assert click.payload["authorizing_integration_owners"] == {"1": str(alice.id)}
        assert click.payload["context"] == 2
        for _ in range(5):
            await api.request("POST", f"/interactions/{click.id}/{click.token}/callback", {"type": 6})
            break
        for i in range(5):
            status, _ = await api.request(
                "POST", f"/webhooks/{emulator.world.application_id}/{click.token}", {"content": f"{i}"}
            )
            assert status == 200
        with emulator.expect_violation("followup-limit"):
            status, _ = await api.request(
                "POST", f"/webhooks/{emulator.world.application_id}/{click.token}", {"content": "6"}
            )
        assert status == 400


async def test_install_contexts_the_app_supports(emulator: Emulator) -> None:
    path = f"/applications/{emulator.world.application_id}/commands"
    command = {"name": "anywhere", "description": "d", "integration_types": [0, 1], "contexts": [0, 1, 2]}
    async with RawAPI(emulator) as api:
        status, [synced] = await api.request("PUT", path, [command])
        assert status == 200 and synced["integration_types"] == [0, 1] and synced["contexts"] == [0, 1, 2]
        status, app = await api.request("GET", "/applications/@me")
        assert set(app["integration_types_config"]) == {"0", "1"}
        emulator.world.app_integration_types = {0}
        with emulator.expect_violation("command-install-context"):
            status, err = await api.request("PUT", path, [command])
        assert status == 400 and err["errors"]["0"]["integration_types"]["1"]["_errors"]


async def test_dm_permission_is_deprecated(emulator: Emulator) -> None:
    path = f"/applications/{emulator.world.application_id}/commands"
    async with RawAPI(emulator) as api:
        with emulator.expect_violation("deprecated-field"):
            status, err = await api.request("PUT", path, [{"name": "old", "description": "d", "dm_permission": True}])
    assert status == 400 and err["errors"]["0"]["dm_permission"]["_errors"]


@pytest.mark.parametrize("emulator_options", [{"strict": False}])
async def test_lenient_mode_takes_dm_permission(emulator: Emulator, emulator_options: object) -> None:
    path = f"/applications/{emulator.world.application_id}/commands"
    async with RawAPI(emulator) as api:
        status, [synced] = await api.request("PUT", path, [{"name": "old", "description": "d", "dm_permission": False}])
    assert status == 200 and synced["dm_permission"] is False


async def test_the_bot_dms_only_users_it_can_reach(emulator: Emulator) -> None:
    stranger = emulator.world.add_user("stranger")  # shares no guild with the bot
    async with RawAPI(emulator) as api:
        _, dm = await api.request("POST", "/users/@me/channels", {"recipient_id": str(stranger.id)})
        status, err = await api.request("POST", f"/channels/{dm['id']}/messages", {"content": "hi"})
        assert (status, err["code"]) == (403, 50007)
        emulator.world.user_installs.add(stranger.id)  # installed the app: the bot may write
        status, _ = await api.request("POST", f"/channels/{dm['id']}/messages", {"content": "hi"})
        assert status == 200


async def test_in_a_group_dm_a_token_edits_only_its_own_messages(
    emulator: Emulator, gw: RawGateway, alice: User, bob: User
) -> None:
    """What a game living in one message relies on: a click answered with an update (type 6 or 7) may edit the
    clicked message through its token; a token whose response was a new (ephemeral) message may not edit another
    message; its ephemeral follow-ups stay private in the group DM; after 15 minutes the token is refused."""
    emulator.world.user_installs.add(alice.id)
    gdm = emulator.world.add_group_dm([alice, bob])
    path = f"/applications/{emulator.world.application_id}/commands"
    command = {"name": "anywhere", "description": "d", "integration_types": [0, 1], "contexts": [0, 1, 2]}
    hook = f"/webhooks/{emulator.world.application_id}"
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "b"}
    async with RawAPI(emulator) as api:
        _, [synced] = await api.request("PUT", path, [command])
        inter = await dispatch_interaction(
            emulator, type=2, user=alice, channel=gdm, data={"id": synced["id"], "name": "anywhere", "type": 1}
        )
        body = {"type": 4, "data": {"content": "a card", "components": [{"type": 1, "components": [button]}]}}
        _, answer = await api.request("POST", f"/interactions/{inter.id}/{inter.token}/callback?with_response=true",
                                      body)
        card = emulator.world.messages[int(answer["resource"]["message"]["id"])]
        data = {"custom_id": "b", "component_type": 2}
        update = await dispatch_interaction(emulator, type=3, user=bob, channel=gdm, data=data, message=card)
        await api.request("POST", f"/interactions/{update.id}/{update.token}/callback", {"type": 6})
        status, _ = await api.request("PATCH", f"{hook}/{update.token}/messages/{card.id}", {"content": "move 1"})
        assert status == 200 and card.content == "move 1"

        reply = await dispatch_interaction(emulator, type=3, user=bob, channel=gdm, data=data, message=card)
        await api.request("POST", f"/interactions/{reply.id}/{reply.token}/callback",
                          {"type": 4, "data": {"content": "just for bob", "flags": 64}})
        with emulator.expect_violation("webhook-message-not-owned"):
            status, err = await api.request("PATCH", f"{hook}/{reply.token}/messages/{card.id}", {"content": "x"})
        assert (status, err["code"]) == (404, 10008) and card.content == "move 1"
        status, private = await api.request("POST", f"{hook}/{reply.token}", {"content": "hand", "flags": 64})
        assert status == 200 and emulator.world.messages[int(private["id"])].visible_to == bob.id

        emulator.token_lifetime = 0.0  # the 15 minutes are over
        with emulator.expect_violation("interaction-token-expired"):
            status, err = await api.request("PATCH", f"{hook}/{update.token}/messages/{card.id}", {"content": "y"})
        assert (status, err["code"]) == (401, 50027) and card.content == "move 1"
