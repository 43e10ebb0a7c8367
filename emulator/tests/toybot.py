"""A small discord.py bot that exercises what the emulator must support (and a few things it must refuse)."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, Literal

import discord
from discord import app_commands
from PIL import Image

FRUITS = [
    "apple",
    "apricot",
    "banana",
    "blueberry",
    "cherry",
    "grape",
    "lemon",
    "lime",
    "mango",
    "melon",
    "peach",
    "pear",
    "plum",
]


def png_bytes(width: int = 8, height: int = 4, color: tuple[int, int, int] = (200, 40, 40)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buf, format="PNG")
    return buf.getvalue()


class Counter(discord.ui.View):
    """Persistent view: fixed custom_ids, no timeout; the count lives in the message itself."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(discord.ui.Button(label="Docs", style=discord.ButtonStyle.link, url="https://example.com/docs"))

    @staticmethod
    def count(message: discord.Message | None) -> int:
        match = re.search(r"count: (-?\d+)", message.content if message else "")
        return int(match.group(1)) if match else 0

    @discord.ui.button(label="+1", style=discord.ButtonStyle.primary, custom_id="toy:inc")
    async def inc(self, interaction: discord.Interaction, button: discord.ui.Button[Counter]) -> None:
        await interaction.response.edit_message(content=f"count: {self.count(interaction.message) + 1}")

    @discord.ui.button(label="-1", style=discord.ButtonStyle.secondary, custom_id="toy:dec")
    async def dec(self, interaction: discord.Interaction, button: discord.ui.Button[Counter]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"count: {self.count(interaction.message) - 1}")

    @discord.ui.select(
        custom_id="toy:fruit",
        placeholder="Pick a fruit",
        options=[discord.SelectOption(label=f.title(), value=f) for f in FRUITS[:5]],
    )
    async def fruit(self, interaction: discord.Interaction, select: discord.ui.Select[Counter]) -> None:
        await interaction.response.send_message(f"you chose {select.values[0]}", ephemeral=True)


class Stepper(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"toy:step:(?P<n>\d+)"):
    """A DynamicItem: state in the custom_id, so any message's button works after a restart."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"step {n}", custom_id=f"toy:step:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Stepper:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Stepper(self.n + 1))
        await interaction.response.edit_message(content=f"at step {self.n + 1}", view=view)


class Secret(discord.ui.View):
    @discord.ui.button(label="Reveal", custom_id="toy:reveal")
    async def reveal(self, interaction: discord.Interaction, button: discord.ui.Button[Secret]) -> None:
        await interaction.response.edit_message(content=f"revealed to {interaction.user.name}", view=None)


class Feedback(discord.ui.Modal, title="Feedback"):
    comment: discord.ui.TextInput[Feedback] = discord.ui.TextInput(label="Comment", custom_id="comment", max_length=200)
    mood: discord.ui.TextInput[Feedback] = discord.ui.TextInput(label="Mood", custom_id="mood", required=False)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks: {self.comment.value} ({self.mood.value or 'no mood'})")


class Options(discord.ui.Modal, title="Options"):
    """Every kind of input a modal holds now, each in a Label (as the bot's lobby Options form is built)."""

    def __init__(self) -> None:
        super().__init__()
        self.add_item(discord.ui.TextDisplay("Pick what the game plays with."))
        self.curse = discord.ui.Checkbox(custom_id="curse", default=False)
        self.add_item(discord.ui.Label(text="Curse", description="play with the curse", component=self.curse))
        self.size = discord.ui.RadioGroup(custom_id="size", options=[
            discord.RadioGroupOption(label="Small", value="small", default=True),
            discord.RadioGroupOption(label="Large", value="large", description="a longer game")])
        self.add_item(discord.ui.Label(text="Size", component=self.size))
        self.extras = discord.ui.CheckboxGroup(custom_id="extras", required=False, min_values=0, max_values=2, options=[
            discord.CheckboxGroupOption(label="Jokers", value="jokers"),
            discord.CheckboxGroupOption(label="Timer", value="timer"),
            discord.CheckboxGroupOption(label="Hints", value="hints")])
        self.add_item(discord.ui.Label(text="Extras", component=self.extras))
        self.colour: discord.ui.Select[Options] = discord.ui.Select(custom_id="colour", options=[
            discord.SelectOption(label="Red", value="red"), discord.SelectOption(label="Blue", value="blue")])
        self.add_item(discord.ui.Label(text="Colour", component=self.colour))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"options: curse={self.curse.value} size={self.size.value} extras={','.join(self.extras.values)} "
            f"colour={','.join(self.colour.values)}")


class Upload(discord.ui.Modal, title="Upload"):
    """A file upload (in a Label, as Discord requires): the bot reads each file back from its URL."""

    def __init__(self) -> None:
        super().__init__()
        self.shot = discord.ui.FileUpload(custom_id="shot", min_values=1, max_values=2)
        self.add_item(discord.ui.Label(text="Screenshot", component=self.shot))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        read = [f"{a.filename} ({a.content_type}, {a.size} bytes, read {len(await a.read())})"
                for a in self.shot.values]
        await interaction.response.send_message("uploaded: " + "; ".join(read))


toy = app_commands.Group(name="toy", description="Toy commands")
game = app_commands.Group(name="game", description="Toy games", parent=toy)


@game.command(name="new", description="Start a game")
@app_commands.describe(kind="Which game", curse="Play with the curse")
async def game_new(
    interaction: discord.Interaction, kind: Literal["flaming-pyramids", "sand-towers"], curse: bool = False
) -> None:
    await interaction.response.send_message(f"new {kind} curse={curse}")


@toy.command(description="Echo text back")
async def echo(interaction: discord.Interaction, text: str, ephemeral: bool = False, times: int = 1) -> None:
    await interaction.response.send_message(" ".join([text] * times), ephemeral=ephemeral)


@toy.command(description="Pick a fruit")
async def pick(interaction: discord.Interaction, fruit: str) -> None:
    await interaction.response.send_message(f"picked {fruit}")


@pick.autocomplete("fruit")
async def pick_complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    if current == "overflow":  # breaks the 25-choices rule on purpose
        return [app_commands.Choice(name=f"f{i}", value=f"f{i}") for i in range(30)]
    return [app_commands.Choice(name=f.title(), value=f) for f in FRUITS if f.startswith(current)]


@toy.command(description="Defer, complete the deferred response, then follow up")
async def slow(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await asyncio.sleep(0.05)
    await interaction.edit_original_response(content="done thinking")
    await interaction.followup.send("and one more", ephemeral=True)


@toy.command(description="Defer, then complete it with a follow-up (deprecated)")
async def legacy(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True, ephemeral=True)
    try:
        await interaction.followup.send("filled by a follow-up", ephemeral=False)
    except discord.HTTPException as exc:
        await interaction.edit_original_response(content=f"follow-up refused {exc.status}")


@toy.command(description="A board with buttons and a select")
async def board(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("count: 0", view=Counter())


@toy.command(description="A dynamic button")
async def stepper(interaction: discord.Interaction) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(Stepper(0))
    await interaction.response.send_message("at step 0", view=view)


@toy.command(description="DM me a picture")
async def dm(interaction: discord.Interaction) -> None:
    try:
        await interaction.user.send("here is your picture", file=discord.File(io.BytesIO(png_bytes()), "board.png"))
    except discord.Forbidden as exc:
        await interaction.response.send_message(f"cannot DM you ({exc.code})", ephemeral=True)
        return
    await interaction.response.send_message("check your DMs", ephemeral=True)


@toy.command(description="DM me a counter")
async def dmboard(interaction: discord.Interaction) -> None:
    await interaction.user.send("count: 0", view=Counter())
    await interaction.response.send_message("sent", ephemeral=True)


@toy.command(description="An embed with an attached image")
async def picture(interaction: discord.Interaction) -> None:
    embed = discord.Embed(title="Board", description="the current board")
    embed.set_image(url="attachment://board.png")
    file = discord.File(io.BytesIO(png_bytes(16, 9)), "board.png")
    await interaction.response.send_message(embed=embed, file=file)


@toy.command(description="An ephemeral secret")
async def secret(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("a secret", view=Secret(), ephemeral=True)


@toy.command(description="Open a modal of every input kind")
async def options(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(Options())


@toy.command(description="Open a modal with a file upload")
async def upload(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(Upload())


@toy.command(description="Open a modal")
async def feedback(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(Feedback())


@toy.command(description="Open a thread")
async def thread(interaction: discord.Interaction, name: str, from_message: bool = False) -> None:
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    if from_message:
        await interaction.response.send_message(f"thread {name} below")
        starter = await interaction.original_response()
        t = await starter.create_thread(name=name)
    else:
        await interaction.response.defer(thinking=True)
        t = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
        await interaction.edit_original_response(content=f"opened {t.mention}")
    await t.send("welcome to the thread", view=Counter())


@toy.command(description="Post in another channel or thread")
async def relay(
    interaction: discord.Interaction,
    where: app_commands.AppCommandChannel | app_commands.AppCommandThread,
    text: str,
) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    target = interaction.client.get_partial_messageable(where.id)  # archived threads are not in the cache
    try:
        await target.send(text)
    except discord.HTTPException as exc:
        await interaction.edit_original_response(content=f"relay refused {exc.status} {exc.code}")
        return
    await interaction.edit_original_response(content="relayed")


@toy.command(description="Reply with an over-long message (and recover)")
async def long(interaction: discord.Interaction) -> None:
    try:
        await interaction.response.send_message("x" * 2001)
    except discord.HTTPException as exc:
        await interaction.response.send_message(f"refused {exc.code}")


@toy.command(description="Send an over-long channel message")
async def shout(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("shouting")
    assert isinstance(interaction.channel, discord.abc.Messageable)
    try:
        await interaction.channel.send("A" * 2500)
    except discord.HTTPException as exc:
        await interaction.followup.send(f"refused {exc.status} {exc.code}")


@toy.command(description="Answer too late")
async def late(interaction: discord.Interaction, delay: float) -> None:
    await asyncio.sleep(delay)
    try:
        await interaction.response.send_message("finally")
    except discord.NotFound as exc:
        interaction.client.late_errors.append(exc.code)  # type: ignore[attr-defined]


@toy.command(description="Answer twice")
async def twice(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("one")
    interaction.response._response_type = None  # bypass discord.py's own guard to reach the server
    try:
        await interaction.response.send_message("two")
    except discord.HTTPException as exc:
        await interaction.followup.send(f"second refused {exc.code}")


@toy.command(description="Follow up before answering")
async def early(interaction: discord.Interaction) -> None:
    try:
        await interaction.followup.send("too early")
    except discord.HTTPException as exc:
        await interaction.response.send_message(f"early refused {exc.status} {exc.code}")


@toy.command(description="Post in the channel (used with rate limits)")
async def post(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    assert isinstance(interaction.channel, discord.abc.Messageable)
    await interaction.channel.send(text)
    await interaction.edit_original_response(content="posted")


@toy.command(description="Answer now, post later from an untracked background task")
async def later(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message("will do", ephemeral=True)
    channel = interaction.channel
    assert isinstance(channel, discord.abc.Messageable)

    async def post() -> None:
        await asyncio.sleep(0.2)
        await channel.send(text)

    client: ToyBot = interaction.client  # type: ignore[assignment]
    task = asyncio.create_task(post())
    client.background.add(task)
    task.add_done_callback(client.background.discard)


@app_commands.command(description="Guild-only ping")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(f"pong from {interaction.client.starts}")  # type: ignore[attr-defined]


@app_commands.command(description="Where am I? (installs to guilds and users, works everywhere)")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def where(interaction: discord.Interaction, followups: int = 0) -> None:
    await interaction.response.send_message(
        f"guild={interaction.is_guild_integration()} user={interaction.is_user_integration()}"
    )
    for i in range(followups):
        await interaction.followup.send(f"follow-up {i + 1}")


class ToyBot(discord.Client):
    def __init__(self, *, guild_id: int, starts: int = 1, **options: Any) -> None:
        options.setdefault("intents", discord.Intents.default())
        super().__init__(**options)
        self.guild_id = guild_id
        self.starts = starts
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(toy)
        self.tree.add_command(ping, guild=discord.Object(guild_id))
        self.tree.add_command(where)
        self.late_errors: list[int] = []
        self.background: set[asyncio.Task[None]] = set()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return  # discord.py waits 5 s before re-IDENTIFYing (Discord's identify rate limit); no need locally

    async def setup_hook(self) -> None:
        self.add_view(Counter())
        self.add_dynamic_items(Stepper)
        await self.sync_commands()
        await self.sync_commands(guild=discord.Object(self.guild_id))

    async def sync_commands(self, *, guild: discord.Object | None = None) -> None:
        """``tree.sync`` without the deprecated ``dm_permission`` discord.py adds to every command."""
        assert self.application_id is not None
        payload = [
            {k: v for k, v in command.to_dict(self.tree).items() if k != "dm_permission"}
            for command in self.tree.get_commands(guild=guild)
        ]
        if guild is None:
            await self.http.bulk_upsert_global_commands(self.application_id, payload=payload)
        else:
            await self.http.bulk_upsert_guild_commands(self.application_id, guild.id, payload=payload)


class ShardedToyBot(ToyBot, discord.AutoShardedClient):
    """The toy bot as one process of a sharded bot (``shard_ids`` of ``shard_count``); it records the messages and
    interactions that reached it, so tests can tell which shard received what."""

    def __init__(self, *, guild_id: int, starts: int = 1, **options: Any) -> None:
        super().__init__(guild_id=guild_id, starts=starts, **options)
        self.seen_messages: list[discord.Message] = []
        self.seen_interactions: list[int] = []

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append(message)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.seen_interactions.append(interaction.id)
