"""``pyramid-bot replay RECORD --out DIR`` and ``pyramid-bot verify RECORD`` as
commands: one valid PNG per position, exit codes, one sentence on a problem."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from PIL import Image

from bot.records.pictures import draw
from bot.records.verify import check
from tests.bot.records.helpers import as_json, pure_record
from tests.paths import REPO

PNG = b"\x89PNG\r\n\x1a\n"


def pyramid_bot(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *map(str, args)], cwd=REPO, capture_output=True, text=True,
                          timeout=300, check=False)


def write(tmp_path: Path, data: dict[str, Any], name: str = "game-9.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=1))
    return path


def assert_pngs(paths: list[Path]) -> None:
    for path in paths:
        data = path.read_bytes()
        assert data.startswith(PNG), path
        with Image.open(io.BytesIO(data)) as picture:
            picture.verify()


def test_replay_writes_one_picture_per_position(tmp_path: Path) -> None:
    record = pure_record("pyrinoes", 2, {}, moves=14, status="active")
    data = as_json(record)
    data.update(seed=42, salt="ab" * 16)  # a record whose seed is known (as once the game is over)
    path = write(tmp_path, data)
    done = pyramid_bot("replay", path, "--out", tmp_path / "pictures")
    assert done.returncode == 0, done.stderr
    pictures = sorted((tmp_path / "pictures").iterdir())
    assert [p.name for p in pictures] == [f"move-{n:03d}.png" for n in range(15)]  # moves + 1
    assert_pngs(pictures)
    assert "Drew game #9: 15 pictures (move-000.png … move-014.png)" in done.stdout
    # the pictures change as the game goes on, and the first is the deal
    assert pictures[0].read_bytes() != pictures[-1].read_bytes()


def test_pictures_of_every_kind(tmp_path: Path) -> None:
    tables: list[tuple[str, int, dict[str, Any]]] = [
        ("continuous-pyramid", 1, {}), ("flaming-pyramids", 2, {"turn_limit": 2}),
        ("pyramido", 2, {"mode": "competitive"})]
    for kind, players, options in tables:
        record = pure_record(kind, players, options, moves=4)
        record = record.model_copy(update={"seed": 42, "salt": "ab" * 16})
        written = draw(record, tmp_path / kind)
        assert len(written) == len(record.moves) + 1
        assert_pngs(written)


def test_verify_as_a_command(tmp_path: Path) -> None:
    data = as_json(pure_record("flaming-pyramids", 2, {"turn_limit": 4}))
    good = pyramid_bot("verify", write(tmp_path, data))
    assert good.returncode == 0, good.stderr
    assert good.stdout.strip() == check(pure_record("flaming-pyramids", 2, {"turn_limit": 4})).summary
    data["salt"] = "cd" * 16
    bad = pyramid_bot("verify", write(tmp_path, data, "edited.json"))
    assert bad.returncode == 1 and not bad.stdout
    assert bad.stderr.startswith("The commitment does not match the seed and salt")
    assert bad.stderr.count("\n") == 1  # one sentence


def test_replay_draws_nothing_for_a_record_that_does_not_check_out(tmp_path: Path) -> None:
    data = as_json(pure_record("flaming-pyramids", 2, {"turn_limit": 4}))
    data["moves"][1]["move"] = "play Z99 7,7"
    done = pyramid_bot("replay", write(tmp_path, data), "--out", tmp_path / "pictures")
    assert done.returncode == 1 and done.stderr.startswith("Move 2 (seat ")
    assert not (tmp_path / "pictures").exists()
    missing = pyramid_bot("verify", tmp_path / "nowhere.json")
    assert missing.returncode == 1 and "cannot be read" in missing.stderr
