"""What ``/pyramid stats`` and the rating leaderboard say: ratings and records as text
that fits a Discord message, in the reader's language (``lang``; English by default)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.catalogue import Catalogue
from bot.games.presenter import ENGLISH
from bot.games.rating import RatingRules
from bot.ratings import Record, Standing
from bot.ratings.model import ai_ratings
from engine.core import EngineError
from i18n import N_, Lang

#: Discord's limit on a message's text.
MESSAGE_LIMIT = 2000

EXPLAIN = N_("_Rating: skill ± twice its uncertainty (OpenSkill; newcomers start at 25 ± 16.7). Leaderboards rank "
             "by the cautious skill − 3 × uncertainty. AI seats have fixed ratings: {levels}._")
#: The record variants (``bot.ratings.rules``) as they are stored, marked to be shown translated.
VARIANTS = (N_("solo"), N_("co-op"), N_("solo (small)"), N_("co-op (small)"))
#: The AI levels (as stored), for the explanation.
LEVELS = (N_("easy"), N_("normal"), N_("hard"))


def explain(lang: Lang | None = None, kinds: Sequence[str] = (), catalogue: Catalogue | None = None) -> str:
    """How ratings work, with the measured AI ratings of ``kinds`` (the games shown)."""
    lang = lang or ENGLISH
    parts = []
    for kind in kinds:
        levels = ai_ratings(kind)
        figures = ", ".join(f"{lang.gettext(level)} {levels[level][0]:.1f}" for level in LEVELS if level in levels)
        parts.append(f"{game_name(catalogue, kind) if catalogue is not None else kind}: {figures}")
    return lang.tr(EXPLAIN, levels="; ".join(parts) or "—")


def unrated_note(rules: RatingRules, options: Mapping[str, Any], lang: Lang | None = None) -> str:
    """Why a game with these options is not rated ("" when it is): too short to
    measure skill (its presenter's ``rating.too_short``)."""
    shortest = rules.too_short(options)
    if shortest is None:
        return ""
    return (lang or ENGLISH).trn(
        "Not rated: a game of fewer than {count} turn is too short to measure skill.",
        "Not rated: a game of fewer than {count} turns is too short to measure skill.", shortest, count=shortest)


def game_name(catalogue: Catalogue, kind: str) -> str:
    """The game's emoji and title (its id when the catalogue has no such game)."""
    try:
        p = catalogue.presenter(kind)
    except EngineError:
        return kind
    return f"{p.emoji} {p.title}"


def games(count: int, lang: Lang | None = None) -> str:
    return (lang or ENGLISH).trn("{count} game", "{count} games", count, count=count)


def rating(standing: Standing) -> str:
    return f"{standing.mu:.1f} ± {2 * standing.sigma:.1f}"


def streak(games: int, current: int, best: int, lang: Lang | None = None) -> str:
    return (lang or ENGLISH).tr("streak {current} (best {best})", current=current, best=best) if games else ""


def standing_line(catalogue: Catalogue, s: Standing, lang: Lang | None = None) -> str:
    lang = lang or ENGLISH
    return lang.tr("{game} — rating **{rating}** · {games}: {wins} won, {losses} lost · {streak}",
                   game=game_name(catalogue, s.kind), rating=rating(s), games=games(s.games, lang), wins=s.wins,
                   losses=s.losses, streak=streak(s.games, s.streak, s.best_streak, lang))


def record_line(catalogue: Catalogue, r: Record, lang: Lang | None = None) -> str:
    lang = lang or ENGLISH
    best = "" if r.best_score is None else lang.tr(" · best {score}", score=f"{r.best_score:g}")
    return lang.tr("{game}, {variant} — {count} finished, {wins} won{best} · {streak}",
                   game=game_name(catalogue, r.kind), variant=lang.gettext(r.variant), count=r.games, wins=r.wins,
                   best=best, streak=streak(r.games, r.streak, r.best_streak, lang))


def favourite(catalogue: Catalogue, standings: Sequence[Standing], records: Sequence[Record],
              lang: Lang | None = None) -> str | None:
    """The game played most (rated and recorded games together; ties: the catalogue's order)."""
    played: dict[str, int] = {}
    for kind, count in [(s.kind, s.games) for s in standings] + [(r.kind, r.games) for r in records]:
        played[kind] = played.get(kind, 0) + count
    if not played:
        return None
    order = {kind: i for i, kind in enumerate(catalogue.kinds)}
    kind = min(played, key=lambda k: (-played[k], order.get(k, len(order)), k))
    return f"{game_name(catalogue, kind)} ({games(played[kind], lang)})"


def stats_text(catalogue: Catalogue, who: str, sections: Sequence[tuple[str, Sequence[Standing], Sequence[Record]]],
               *, game: str | None, lang: Lang | None = None) -> str:
    """``sections``: (heading, ratings, records) for the server and across servers (the
    headings are msgids); the favourite game is read from the first section (this
    server's, in a server)."""
    lang = lang or ENGLISH
    if game:
        lines = [lang.tr("📊 **Stats of {who}** in {game}", who=who, game=game_name(catalogue, game))]
    else:
        lines = [lang.tr("📊 **Stats of {who}**", who=who)]
    if sections:
        liked = favourite(catalogue, sections[0][1], sections[0][2], lang)
        if liked is not None:
            lines.append(lang.tr("Favourite game: {game}", game=liked))
    shown = False
    for heading, standings, records in sections:
        chosen_s = [s for s in standings if game is None or s.kind == game]
        chosen_r = [r for r in records if game is None or r.kind == game]
        if not chosen_s and not chosen_r:
            continue
        shown = True
        lines.append(f"\n**{lang.gettext(heading)}**")
        lines += [standing_line(catalogue, s, lang) for s in chosen_s]
        lines += [record_line(catalogue, r, lang) for r in chosen_r]
    if not shown:
        lines.append(lang.gettext("No finished games counted yet. Competitive games against people or AIs give a "
                                  "rating; solo and co-op games count as records."))
    else:
        kinds = sorted({s.kind for _, standings, _ in sections for s in standings if game is None or s.kind == game})
        lines.append("\n" + explain(lang, kinds, catalogue))
    return fit("\n".join(lines))


def leaderboard_text(catalogue: Catalogue, kind: str, standings: Sequence[Standing], *, min_games: int,
                     lang: Lang | None = None) -> str:
    lang = lang or ENGLISH
    title = lang.tr("{game} **ratings in this server** (at least {games})", game=game_name(catalogue, kind),
                    games=games(min_games, lang))
    if not standings:
        return fit(title + "\n" + lang.trn("Nobody here has {count} rated game of it yet.",
                                           "Nobody here has {count} rated games of it yet.", min_games,
                                           count=min_games))
    lines = [title]
    for place, s in enumerate(standings, start=1):
        lines.append(lang.tr("{place}. {mention} — **{ordinal}** (skill {rating}) · {games}, {wins} won", place=place,
                             mention=f"<@{s.user_id}>", ordinal=f"{s.skill.ordinal:.1f}", rating=rating(s),
                             games=games(s.games, lang), wins=s.wins))
    lines.append(lang.gettext("_Ranked by the cautious figure: skill − 3 × uncertainty, which rises as the bot grows "
                              "sure of a player._"))
    return fit("\n".join(lines))


def fit(text: str) -> str:
    """Cut at the last whole line that fits a message."""
    if len(text) <= MESSAGE_LIMIT:
        return text
    cut = text[: MESSAGE_LIMIT - 2].rsplit("\n", 1)[0]
    return cut + "\n…"
