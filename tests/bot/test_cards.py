"""The card builders: words within Discord's 4,000 characters with the first ones kept
whole, buttons in rows of five with a select alone, and the payload the emulator's
components-v2 checks accept."""

from __future__ import annotations

import io
from typing import Any

import discord
from hypothesis import given
from hypothesis import strategies as st

from bot.play.cards import MAX_TEXT, NEUTRAL, SEAT_COLOURS, card, fit, rows, seat_colour
from emulator.limits import check_message


@given(st.lists(st.text(max_size=3000), max_size=6))
def test_fit_keeps_the_words_within_the_limit_and_the_first_ones_whole(texts: list[str]) -> None:
    fitted = fit(texts)
    assert len(fitted) == len(texts) and sum(map(len, fitted)) <= MAX_TEXT
    kept = 0
    for original, shown in zip(texts, fitted, strict=True):
        if kept + len(original) <= MAX_TEXT:
            assert shown == original  # what fits is never cut
        kept += len(shown)


def test_rows_of_five_and_a_select_alone() -> None:
    buttons: list[discord.ui.Item[Any]] = [discord.ui.Button(label=str(i), custom_id=f"b{i}") for i in range(7)]
    select: discord.ui.Select[Any] = discord.ui.Select(custom_id="s", options=[discord.SelectOption(label="a")])
    laid = rows([*buttons[:3], select, *buttons[3:]])
    assert [len(r.children) for r in laid] == [3, 1, 4]


def test_a_card_passes_the_components_v2_checks() -> None:
    picture = discord.File(io.BytesIO(b"png"), filename="board.png", description="the board in words")
    layout = card(["x" * 3000, ""], accent=seat_colour(1), files=[picture], after=["y" * 3000],
                  controls=[discord.ui.Button(label=str(i), custom_id=f"b{i}") for i in range(7)])
    payload = {"flags": 1 << 15, "components": layout.to_components()}  # type: ignore[no-untyped-call]
    assert check_message(payload, n_files=1, attachment_names=["board.png"]) == []
    (container,) = payload["components"]
    assert container["accent_color"] == SEAT_COLOURS[1]
    gallery = next(c for c in container["components"] if c["type"] == 12)
    assert gallery["items"][0]["description"] == "the board in words"
    assert seat_colour(None) == NEUTRAL
