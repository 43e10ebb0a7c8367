"""The set-up files a newcomer copies (``.env.example``, the ``Dockerfile``,
``.dockerignore``), read the way Docker and the bot read them: no machine here runs
Docker, so these tests follow the rules Docker applies (``--env-file`` overrides the
image's ``ENV``; a relative path is relative to the last ``WORKDIR``)."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path, PurePosixPath

import pytest
import yaml

from bot.config.settings import ENV_NAMES, load_settings
from tests.paths import REPO

#: Variables ``.env.example`` may set that are not the bot's own: ``compose.yaml`` reads them.
COMPOSE_ONLY = {"POSTGRES_PASSWORD"}


def env_file(path: Path) -> dict[str, str]:
    """``KEY=value`` lines as ``docker run --env-file`` reads them (comments and blank lines skipped)."""
    values: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, _, value = line.partition("=")
        values[key.strip()] = value
    return values


def dockerfile() -> tuple[dict[str, str], PurePosixPath, list[str], list[str]]:
    """The image's ENV, its last WORKDIR, its VOLUMEs and what it COPYs."""
    text = (REPO / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    env: dict[str, str] = {}
    workdir = PurePosixPath("/")
    volumes: list[str] = []
    copied: list[str] = []
    for line in text.splitlines():
        word, _, rest = line.strip().partition(" ")
        if word == "ENV":
            env.update(dict(re.findall(r"(\w+)=(\S+)", rest)))
        elif word == "WORKDIR":
            workdir = workdir / rest.strip()
        elif word == "VOLUME":
            volumes += re.findall(r'"([^"]+)"', rest) or rest.split()
        elif word == "COPY":
            copied += rest.split()[:-1]
    return env, workdir, volumes, copied


def test_docker_run_with_the_example_env_file_keeps_the_database_on_the_volume() -> None:
    image_env, workdir, volumes, _ = dockerfile()
    given = env_file(REPO / ".env.example")
    # docker run --env-file .env: the file's values win over the image's ENV (empty ones too).
    database = given.get("PYRAMID_DATABASE") or image_env["PYRAMID_DATABASE"]
    where = workdir / database
    assert any(where.is_relative_to(v) for v in volumes), f"the database would be {where}, outside {volumes}"
    # An operator who writes a relative path (as for a local run) still lands on the volume.
    assert any((workdir / "pyramid-bot.db").is_relative_to(v) for v in volumes), (workdir, volumes)


def test_the_example_env_file_names_every_setting_it_sets_and_what_compose_needs() -> None:
    given = env_file(REPO / ".env.example")
    text = (REPO / ".env.example").read_text(encoding="utf-8")
    unknown = set(given) - set(ENV_NAMES.values()) - COMPOSE_ONLY
    assert not unknown, f".env.example sets what nothing reads: {unknown}"
    compose = (REPO / "compose.yaml").read_text(encoding="utf-8")
    required = set(re.findall(r"\$\{(\w+):\?", compose))
    assert required and required <= set(given), f"compose.yaml requires {required - set(given)}; .env.example lacks it"
    assert yaml.safe_load(compose)["services"]  # still a compose file
    # Server settings are changed with /pyramid-admin settings (/pyramid settings is a player's own).
    mentions = re.findall(r"/pyramid(?:-admin)? settings", text)
    assert mentions and set(mentions) == {"/pyramid-admin settings"}, mentions


def test_the_bot_reads_the_example_env_file_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Copied to .env with a token filled in, it starts the bot with the defaults (the
    compose-only password is ignored by the bot, not refused)."""
    for name in [*ENV_NAMES.values(), *COMPOSE_ONLY]:
        monkeypatch.delenv(name, raising=False)
    text = (REPO / ".env.example").read_text(encoding="utf-8").replace("DISCORD_TOKEN=\n", "DISCORD_TOKEN=t\n")
    (tmp_path / ".env").write_text(text.replace("POSTGRES_PASSWORD=\n", "POSTGRES_PASSWORD=secret\n"))
    monkeypatch.chdir(tmp_path)
    settings = load_settings()
    assert settings.discord_token.get_secret_value() == "t"
    assert settings.database.path == Path("pyramid-bot.db")  # the default, next to where the bot runs


def ignored(patterns: list[str], path: str) -> bool:
    """Docker's rule: the last pattern that matches decides (``!`` re-includes)."""
    verdict = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        pattern = pattern.lstrip("!").strip("/")
        stripped = pattern.removeprefix("**/")
        parts = PurePosixPath(path).parts
        hit = fnmatch.fnmatch(path, pattern) or any(
            fnmatch.fnmatch("/".join(parts[: i + 1]), pattern) for i in range(len(parts))
        ) or (pattern.startswith("**/") and any(fnmatch.fnmatch(p, stripped) for p in parts))
        if hit:
            verdict = not negate
    return verdict


def test_the_build_context_leaves_out_secrets_databases_and_caches_but_not_what_the_image_copies() -> None:
    lines = (REPO / ".dockerignore").read_text(encoding="utf-8").splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    for path in (".venv/bin/python", ".env", "pyramid-bot.db", "pyramid-bot.db-wal", "pyramid-bot.db.lock",
                 "backups/pyramid-bot-20261122T120000Z.db", ".git/HEAD", "bot/__pycache__/app.cpython-311.pyc",
                 ".pytest_cache/v", ".mypy_cache/3.11", ".ruff_cache/x", ".hypothesis/examples"):
        assert ignored(patterns, path), f"{path} would be sent to the Docker daemon"
    _, _, _, copied = dockerfile()
    for source in copied:
        assert not ignored(patterns, source), f"the Dockerfile copies {source}, which .dockerignore leaves out"
    assert not ignored(patterns, "bot/app.py") and not ignored(patterns, "migrations/0001_initial.sql")


def test_the_readme_runs_the_projects_modules_with_the_virtual_environments_python() -> None:
    """``python -m tools…`` with the system's Python fails (no pillow, no discord.py):
    every such command in the README names the venv's."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    bare = re.findall(r"(?<![\w/.])python3? -m (?:tools|engine|i18n)\S*", text)
    assert not bare, f"commands without .venv/bin/: {bare}"
    assert ".venv/bin/python -m tools." in text


def test_the_readme_teaches_the_terminal_game() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Playing in the terminal", 1)[1].split("\n## ", 1)[0]
    for word in ("pyramid-bot play", "--seats", "--option", "letters", "help", "view", "rules", "board.png",
                 "Ctrl-C", "arrow keys"):
        assert word in section, word
