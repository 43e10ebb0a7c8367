"""Each server setting's bounds are declared once (``bot.store.records``): the stored model's check,
``/pyramid-admin settings``' registered min/max and descriptions, the form's hints and the refusals
all read them. Proven by changing the declared bounds (in a fresh interpreter, the declaration's
line rewritten) and finding every place changed with them."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.paths import REPO

#: The declared bounds, rewritten: every one of them moves.
CHANGED = {"REMINDER_HOURS": (2.0, 500.0), "TIMEOUT_HOURS": (3.0, 999.0), "INCREMENT_HOURS": (0.5, 400.0),
           "MAX_OPEN_GAMES": (2, 20), "AWAY_DAYS": (1, 50), "AWAY_WINDOW_DAYS": (8, 300)}
OPTIONS = {"reminder_hours": "REMINDER_HOURS", "timeout_hours": "TIMEOUT_HOURS", "increment_hours": "INCREMENT_HOURS",
           "max_open_games": "MAX_OPEN_GAMES", "away_days": "AWAY_DAYS", "away_window_days": "AWAY_WINDOW_DAYS"}

_PROBE = r"""
import asyncio, importlib.util, json, re, sys, tempfile
from pathlib import Path

changed = json.loads(sys.argv[1])
source = Path("bot/store/records.py").read_text()
if changed:
    for name, (low, high) in changed.items():
        source, found = re.subn(rf"^{name} = \(.*\)$", f"{name} = ({low!r}, {high!r})", source, flags=re.M)
        assert found == 1, name
spec = importlib.util.spec_from_loader("bot.store.records", loader=None, origin="bot/store/records.py")
records = importlib.util.module_from_spec(spec)
records.__file__ = "bot/store/records.py"
sys.modules["bot.store.records"] = records
exec(compile(source, "bot/store/records.py", "exec"), records.__dict__)

from bot.admin.command import AdminCommands
from bot.admin.form import ServerSettingsForm
from bot.admin.server_settings import SettingsRefused, change_settings
from bot.config.settings import load_settings
from bot.core.services import Services
from bot.interactions.translator import CatalogueTranslator
from bot.store import GuildSettings
from discord.app_commands import TranslationContextLocation
from i18n import shared_texts
from tests.bot.clock import FakeClock

options = {"reminder_hours": "REMINDER_HOURS", "timeout_hours": "TIMEOUT_HOURS",
           "increment_hours": "INCREMENT_HOURS", "max_open_games": "MAX_OPEN_GAMES", "away_days": "AWAY_DAYS",
           "away_window_days": "AWAY_WINDOW_DAYS"}
command = AdminCommands.settings
translator = CatalogueTranslator(shared_texts())
found = {}
for option, name in options.items():
    parameter = command._params[option]
    german = translator.localize(parameter.description, "de", TranslationContextLocation.parameter_description)
    field = GuildSettings.model_fields[option]
    limits = {type(m).__name__: getattr(m, "ge", getattr(m, "le", None)) for m in field.metadata}
    refused = []
    for value in (getattr(records, name)[0] - 0.5, getattr(records, name)[1] + 0.5):
        try:
            change_settings(GuildSettings(guild_id=1), {option: value}, load_settings(discord_token="x"))
        except SettingsRefused as exc:
            refused.append(str(exc))
    found[option] = {"bound": list(getattr(records, name)),
                     "registered": [parameter.min_value, parameter.max_value],
                     "model": [limits.get("Ge"), limits.get("Le")],
                     "description": str(parameter.description), "german": german, "refused": refused}


async def form_hints():
    folder = tempfile.mkdtemp()
    settings = load_settings(discord_token="x", database=f"{folder}/bot.db", render_workers=0, backup_hours=0)
    services = await Services.open(settings, FakeClock())
    try:
        result = {}
        for code in ("en", "de"):
            form = ServerSettingsForm(services, GuildSettings(guild_id=1), services.texts.lang(code))
            result[code] = {child.component.custom_id: child.description for child in form.children
                            if getattr(child, "description", None)}
        return result
    finally:
        await services.close()

print(json.dumps({"options": found, "form": asyncio.run(form_hints())}))
"""


def probe(changed: dict[str, tuple[float, float]]) -> dict:
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(changed)], cwd=REPO, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def spelt(value: float) -> str:
    return f"{value:g}"


def test_every_place_reads_the_declared_bounds() -> None:
    for declared in ({}, CHANGED):
        seen = probe(declared)
        for option, name in OPTIONS.items():
            place = seen["options"][option]
            low, high = place["bound"]
            if declared:
                assert (low, high) == CHANGED[name]
            assert place["registered"] == [low, high]
            assert place["model"] == [low, high]
            assert f"{spelt(low)}-{spelt(high)}" in place["description"]
            assert place["german"] is not None and f"{spelt(low)}-{spelt(high)}" in place["german"]
            assert len(place["refused"]) == 2
            assert all(spelt(low) in reason and spelt(high) in reason for reason in place["refused"])
        for option in ("reminder_hours", "timeout_hours"):
            low, high = seen["options"][option]["bound"]
            assert seen["form"]["en"][option] == f"{spelt(low)} to {spelt(high)}; empty for the bot's default"
            assert seen["form"]["de"][option] == f"{spelt(low)} bis {spelt(high)}; leer für die Vorgabe des Bots"
