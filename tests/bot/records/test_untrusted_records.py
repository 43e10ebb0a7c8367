"""A record is an untrusted file (#26): ``pyramid-bot verify`` and ``replay`` read it
within limits on size, nesting and number length, and refuse what is beyond them
with one sentence naming the problem and exit code 1 (``ExitCode.FAILED``), never a
traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.ops.exit_codes import ExitCode
from bot.records.limits import MAX_BYTES, MAX_DEPTH, MAX_NUMBER, nesting

HEAD = '{"format": "pyramid-bot/game-record", "version": 1, "game": "pyrinoes", "number": 1, '


def refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | bytes) -> str:
    """What verify and replay say of a record with ``text``, checked to be one sentence each."""
    path = tmp_path / "game.json"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    said = []
    for argv in (["verify", str(path)], ["replay", str(path), "--out", str(tmp_path / "out")]):
        assert main(argv) == ExitCode.FAILED
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err and out == ""
        assert err.count("\n") == 1 and err.strip().endswith("."), err
        said.append(err.strip())
    assert said[0] == said[1]
    return said[0]


def test_a_deeply_nested_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(tmp_path, capsys, HEAD + '"status": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert "nests 100001 levels deep" in said and str(MAX_DEPTH) in said


def test_a_number_of_five_thousand_digits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(tmp_path, capsys, HEAD + '"seed": ' + "7" * 5000 + "}")
    assert "5000 characters" in said and str(MAX_NUMBER) in said
    said = refused(tmp_path, capsys, HEAD + '"seed": 1.' + "5" * 5000 + "}")
    assert "5002 characters" in said


def test_a_huge_record_and_not_a_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(tmp_path, capsys, HEAD + '"salt": "' + "x" * MAX_BYTES + '"}')
    assert "bytes" in said and f"{MAX_BYTES:,}" in said
    assert "NaN" in refused(tmp_path, capsys, HEAD + '"seed": NaN}')


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert nesting(json.dumps({"a": ["[[[{{{", {"b": "\\\"]]]"}]})) == 3

