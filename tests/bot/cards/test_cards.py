"""The card builders: words within Discord's 4,000 characters with the first ones kept
whole, buttons in rows of five with a select alone, and the payload the emulator's
components-v2 checks accept."""

from __future__ import annotations

import io
from typing import Any

import discord
from hypothesis import given
from hypothesis import strategies as st

from bot.cards.cards import MAX_TEXT, NEUTRAL, SEAT_COLOURS, Picture, card, fit, note, rows, seat_colour, uploads
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


def test_the_hand_and_the_board_are_stacked_each_full_width() -> None:
    """A hand DM carries the hand and the outlined board: Discord lays the items of one
    gallery side by side (about 150 px each on a phone), so each picture is a gallery of
    its own, one under the other, in the order given, each with its alt text."""
    hand = discord.File(io.BytesIO(b"png"), filename="hand.png", description="your hand")
    board = discord.File(io.BytesIO(b"png"), filename="board.png", description="the board")
    payload = {"flags": 1 << 15, "components": card(["Your turn"], files=[hand, board]).to_components()}  # type: ignore[no-untyped-call]
    assert check_message(payload, n_files=2, attachment_names=["hand.png", "board.png"]) == []
    galleries = [c for c in payload["components"][0]["components"] if c["type"] == 12]
    assert [[(i["media"]["url"], i["description"]) for i in g["items"]] for g in galleries] == [
        [("attachment://hand.png", "your hand")], [("attachment://board.png", "the board")]]


def test_a_button_that_asks_for_another_row_starts_one() -> None:
    """The chooser's legacy view puts ✅ Done here and ⬅ Back on a row of their own (``row=4``)."""
    choices: list[discord.ui.Item[Any]] = [discord.ui.Button(label=str(i), custom_id=f"c{i}") for i in range(3)]
    done: discord.ui.Button[Any] = discord.ui.Button(label="done", custom_id="d", row=4)
    back: discord.ui.Button[Any] = discord.ui.Button(label="back", custom_id="k", row=4)
    assert [[b.custom_id for b in r.children] for r in rows([*choices, done, back])] == [  # type: ignore[attr-defined]
        ["c0", "c1", "c2"], ["d", "k"]]


def components_of(layout: discord.ui.LayoutView) -> list[dict[str, Any]]:
    return layout.to_components()  # type: ignore[no-untyped-call,no-any-return]


def kinds(components: list[dict[str, Any]]) -> list[int]:
    return [c["type"] for c in components[0]["components"]]


def test_without_pictures_keeps_the_words_and_buttons_and_uploads_nothing() -> None:
    """What a follow-up card is posted as before its pictures are edited in (Discord refuses files on a V2
    follow-up): the same words, mentions and buttons, and nothing that names an attachment."""
    picture = discord.File(io.BytesIO(b"png"), filename="hand.png", description="a hand")
    full = card(["<@1> to play"], files=[picture], after=["story"],
                controls=[discord.ui.Button(label="go", custom_id="g")])
    bare = full.without_pictures()
    assert kinds(components_of(full)) == [10, 12, 10, 1]
    assert kinds(components_of(bare)) == [10, 10, 1]
    payload = {"flags": 1 << 15, "components": components_of(bare)}
    assert check_message(payload, attachment_names=[]) == []


def test_a_file_that_is_no_picture_is_offered_as_a_file_and_kept_pictures_upload_nothing() -> None:
    record = discord.File(io.BytesIO(b"{}"), filename="game-1.json")
    kept = Picture("hand.png", "a hand")
    layout = card(["the move log"], files=[kept, record])
    (container,) = components_of(layout)
    assert kinds([container]) == [10, 12, 13]
    assert container["components"][1]["items"][0]["media"]["url"] == "attachment://hand.png"
    assert container["components"][2]["file"]["url"] == "attachment://game-1.json"
    assert uploads([kept, record]) == [record]


def test_a_note_is_one_text_display_and_a_card_never_an_empty_container() -> None:
    assert kinds(components_of(note("hello"))) == [10]
    payload = {"flags": 1 << 15, "components": components_of(card([""]))}
    assert check_message(payload) == []
