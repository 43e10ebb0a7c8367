"""The seal over a deal: SHA-256 of the exact bytes docs/game-record.md documents."""

from __future__ import annotations

import hashlib

from bot.records import fairness


def test_the_commitment_is_sha256_of_the_documented_lines() -> None:
    salt = "86465eb27dd34d6da1090f93aad5cd32"
    # as the docs' printf example writes it: four lines, no newline at the end
    documented = b"pyramid-bot deal v1\nflaming-pyramids\n42\n" + salt.encode()
    assert fairness.sealed_bytes("flaming-pyramids", 42, salt) == documented
    expected = "sha256:" + hashlib.sha256(documented).hexdigest()
    assert fairness.commitment("flaming-pyramids", 42, salt) == expected
    assert expected == "sha256:1a880e2263a84e405cdac416044c18fd2f49ef2a5c0193b5ec6afccf3cd6e5b4"  # the docs' example


def test_the_commitment_binds_the_kind_the_seed_and_the_salt() -> None:
    sealed = fairness.commitment("pyrinoes", 2**62 + 7, "00" * 16)
    assert fairness.matches(sealed, "pyrinoes", 2**62 + 7, "00" * 16)
    assert fairness.matches(sealed.upper().replace("SHA256:", "sha256:"), "pyrinoes", 2**62 + 7, "00" * 16)
    assert not fairness.matches(sealed, "pyramido", 2**62 + 7, "00" * 16)
    assert not fairness.matches(sealed, "pyrinoes", 2**62 + 8, "00" * 16)
    assert not fairness.matches(sealed, "pyrinoes", 2**62 + 7, "00" * 15 + "01")
    assert not fairness.matches("sha256:" + "0" * 64, "pyrinoes", 2**62 + 7, "00" * 16)


def test_the_lines_the_thread_shows_fit_a_board_message() -> None:
    sealed = fairness.commitment("continuous-pyramid", 2**63 - 1, "f" * 32)
    seal, reveal = fairness.seal_line(sealed), fairness.reveal_line(2**63 - 1, "f" * 32)
    assert sealed in seal and "pyramid-bot verify" in seal
    assert str(2**63 - 1) in reveal and "f" * 32 in reveal and "pyramid-bot verify" in reveal
    assert max(len(seal), len(reveal), len(fairness.CHALLENGE_SEALED)) < 300
