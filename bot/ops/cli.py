"""The operator's commands: ``pyramid-bot backup``, ``restore``, ``health`` and ``migrate-db``.

They read the same settings as the bot (``PYRAMID_DATABASE``, ``PYRAMID_BACKUP_DIR``,
``PYRAMID_METRICS_PORT`` ...) but need no Discord token, answer in one sentence, and
exit 0 on success, 1 on failure (2 for a bad setting)."""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from bot.config.settings import OperatorSettings, SettingsError, load_operator_settings
from bot.ops import records as record_commands
from bot.ops.backup import BackupError, backup_name, take_backup
from bot.ops.exit_codes import ExitCode
from bot.ops.migrate_db import migrate_db_command
from bot.ops.restore import restore
from bot.ops.running import DatabaseBusy
from bot.store import utc_now

COMMANDS = ("backup", "restore", "health", "migrate-db", "rebuild-ratings")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="pyramid-bot",
        description="Without a command: run the bot. Settings come from the environment and .env (see the README).",
    )
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    backup = commands.add_parser(
        "backup", help="take a consistent backup now (safe while the bot runs)",
        description="Copy the database with SQLite's online backup API; safe while the bot is running.",
    )
    backup.add_argument("path", nargs="?", type=Path,
                        help="a file, or a folder for a dated file (default: PYRAMID_BACKUP_DIR)")
    restore_cmd = commands.add_parser(
        "restore", help="replace the database by a backup (the bot must be stopped)",
        description="Check a backup, then put it in place of PYRAMID_DATABASE; the replaced file is kept aside.",
    )
    restore_cmd.add_argument("backup", type=Path, help="the backup file to restore")
    commands.add_parser("health", help="ask the running bot's /healthz (exit 0 when healthy)",
                        description="GET /healthz on PYRAMID_METRICS_HOST:PYRAMID_METRICS_PORT; for HEALTHCHECKs.")
    migrate = commands.add_parser(
        "migrate-db", help="copy the SQLite database into PostgreSQL (the bot must be stopped)",
        description="Copy every table of the SQLite file into a PostgreSQL database, verify counts and checksums, "
                    "and commit only if both sides match. Safe to re-run: it adds only what is missing.",
    )
    migrate.add_argument("--to", dest="target", required=True, metavar="URL",
                         help="postgresql://user:password@host/database (or leave the password out and set PGPASSWORD)")
    migrate.add_argument("--from", dest="source", type=Path, metavar="PATH",
                         help="the SQLite file (default: PYRAMID_DATABASE)")
    commands.add_parser("rebuild-ratings", help="recompute every rating and record from the move logs",
                        description="Replay every finished game from its move log and replace the ratings and "
                                    "completion records with what they give, in one transaction (safe while the "
                                    "bot runs).")
    record_commands.add_parsers(commands)
    commands.add_parser("demo", help="try the bot in your browser, without Discord or a token: a local playground "
                                     "(see `pyramid-bot demo --help`)")
    commands.add_parser("play", help="play a game in the terminal (see `pyramid-bot play --help`)")
    return top


def main(argv: Sequence[str]) -> int:
    """Run one operator command (``bot.__main__`` handles ``play``, ``demo`` and the bot itself)."""
    top = parser()
    args = top.parse_args(list(argv))
    if args.command in record_commands.COMMANDS:  # they read a record's file: no settings needed
        return record_commands.run(args)
    if args.command not in COMMANDS:
        top.print_help(sys.stderr)
        return ExitCode.SETTINGS
    try:
        settings = load_operator_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return ExitCode.SETTINGS
    try:
        if args.command == "backup":
            return backup(settings, args.path)
        if args.command == "restore":
            return restore_backup(settings, args.backup)
        if args.command == "migrate-db":
            return migrate_db_command(settings, args.target, args.source)
        if args.command == "rebuild-ratings":
            from bot.ops.rebuild_ratings import rebuild_ratings_command  # the engines: only when asked for

            return rebuild_ratings_command(settings)
        return health(settings)
    except (BackupError, DatabaseBusy) as exc:
        print(exc, file=sys.stderr)
    except OSError as exc:
        print(f"{args.command} failed: {exc}", file=sys.stderr)
    return ExitCode.FAILED


def backup(settings: OperatorSettings, path: Path | None) -> int:
    database = settings.database_path
    name = backup_name(database, utc_now())
    if path is None:
        target = settings.backup_folder / name
    elif path.is_dir() or str(path).endswith(("/", "\\")):
        target = path / name
    else:
        target = path
    if target.exists():
        raise BackupError(f"{target} already exists; name another file (a backup never overwrites one).")
    taken = take_backup(database, target)
    print(f"Backed up {database} to {taken.path} ({taken.games} games, schema version {taken.schema_version}, "
          f"{taken.size_bytes:,} bytes).")
    return ExitCode.OK


def restore_backup(settings: OperatorSettings, backup_file: Path) -> int:
    report = restore(backup_file, settings.database_path, utc_now())
    kept = ", ".join(str(path) for path in report.kept_aside) or "nothing (there was no database)"
    print(f"Restored {report.database} from {backup_file} ({report.restored.games} games, schema version "
          f"{report.restored.schema_version}). Kept aside: {kept}. Start the bot again.")
    return ExitCode.OK


def health(settings: OperatorSettings) -> int:
    if settings.metrics_port is None:
        print("PYRAMID_METRICS_PORT is not set, so the bot serves no /healthz.", file=sys.stderr)
        return ExitCode.FAILED
    host = "127.0.0.1" if settings.metrics_host in ("0.0.0.0", "", "::") else settings.metrics_host
    if ":" in host:
        host = f"[{host}]"
    url = f"http://{host}:{settings.metrics_port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            body = response.read().decode()
    except urllib.error.HTTPError as exc:  # 503: answered, unhealthy
        print(exc.read().decode() or f"{url}: {exc.code}", file=sys.stderr)
        return ExitCode.FAILED
    except (urllib.error.URLError, TimeoutError) as exc:
        print(f"No answer from {url} ({getattr(exc, 'reason', exc)}): is the bot running?", file=sys.stderr)
        return ExitCode.FAILED
    print(json.dumps(json.loads(body)))
    return ExitCode.OK
