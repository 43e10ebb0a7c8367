"""CommandLinks: a code span naming a known command becomes its mention (under the name Discord knows it by,
whatever language the span names it in); everything else, and every text before the ids are known, stays
exactly as written."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from bot.core.command_links import CommandLinks

PYRAMID = {
    "id": "11", "type": 1, "name": "pyramid", "name_localizations": {"de": "pyramide"},
    "options": [
        {"type": 1, "name": "settings", "name_localizations": {"de": "einstellungen"},
         "options": [{"type": 5, "name": "preview", "name_localizations": {"de": "vorschau"}}]},
        {"type": 1, "name": "new", "name_localizations": {"de": "neu"}},
        {"type": 2, "name": "club", "options": [{"type": 1, "name": "join"}]},
    ],
}
ADMIN = {"id": "22", "type": 1, "name": "pyramid-admin", "options": [{"type": 1, "name": "settings"}]}
ALONE = {"id": "33", "type": 1, "name": "ping"}
MENU = {"id": "44", "type": 3, "name": "Show game"}


def links() -> CommandLinks:
    known = CommandLinks()
    known.learn([PYRAMID, ADMIN, ALONE, MENU])
    return known


def test_a_span_naming_a_command_in_any_language_becomes_its_mention() -> None:
    known = links()
    assert known.link("Start one with `/pyramid new`.") == "Start one with </pyramid new:11>."
    assert known.link("Starte eines mit `/pyramide neu`.") == "Starte eines mit </pyramid new:11>."
    assert known.link("mit `/pyramide einstellungen vorschau:`") == "mit </pyramid settings:11> `vorschau:`"
    assert known.link("`/pyramid settings preview:False`") == "</pyramid settings:11> `preview:False`"
    assert known.link("`/pyramid-admin settings away_days`") == "</pyramid-admin settings:22> `away_days`"
    assert known.link("`/pyramid club join` or `/ping`") == "</pyramid club join:11> or </ping:33>"


def test_what_names_no_invocable_command_stays_as_written() -> None:
    known = links()
    for text in ("`/pyramid`", "`/pyramid club`", "`/pyramid nothing`", "`/Show game`", "`/{command}`",
                 "`pyramid-bot verify`", "/pyramid new without a span"):
        assert known.link(text) == text


@given(st.text())
def test_before_the_sync_every_text_is_unchanged(text: str) -> None:
    assert CommandLinks().link(text) == text


@given(st.text(alphabet=st.characters(blacklist_characters="`")))
def test_a_text_without_code_spans_is_unchanged(text: str) -> None:
    assert links().link(text) == text


@given(st.lists(st.sampled_from(["new", "neu", "settings", "einstellungen"]), min_size=1, max_size=5),
       st.text(alphabet=st.characters(blacklist_characters="`\n"), max_size=20))
def test_each_span_becomes_one_mention_and_its_hint(subcommands: list[str], hint: str) -> None:
    spans = [f"`/pyramide {sub} {hint}`" if hint.strip() else f"`/pyramid {sub}`" for sub in subcommands]
    said = links().link(" und ".join(spans))
    assert said.count("</pyramid ") == len(subcommands)
    assert "/pyramide" not in said.replace(hint, "")
    if hint.strip():
        assert said.count(f"`{hint.strip()}`") == len(subcommands)


@given(st.lists(st.sampled_from(["`/pyramid new`", "`/pyramide einstellungen vorschau:`", " und ", "`x`", "`/",
                                 "`/ping`", "/pyramid new", "`/pyramid club`", "{game}"]), max_size=8))
@example(["`/pyramide einstellungen vorschau:`", "/pyramid new", "`x`"])  # a span paired across two (CI found it)
def test_linking_twice_changes_nothing_more(parts: list[str]) -> None:
    """A translated text may carry another already linked (a placeholder filled with it): a second pass over the
    mentions leaves them alone."""
    known = links()
    once = known.link("".join(parts))
    assert known.link(once) == once
