"""What ``/pyramid stats`` and the rating leaderboard say: ratings and records as text
that fits a Discord message."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.catalogue import Catalogue
from bot.ratings import AI_RATINGS, Record, Standing
from engine.core import EngineError

#: Discord's limit on a message's text.
MESSAGE_LIMIT = 2000

EXPLAIN = ("_Rating: skill ± twice its uncertainty (OpenSkill; newcomers start at 25 ± 16.7). Leaderboards rank by "
           "the cautious skill − 3 × uncertainty. AI seats have fixed ratings: "
           + ", ".join(f"{level} {mu:g}" for level, (mu, _) in AI_RATINGS.items()) + "._")


def game_name(catalogue: Catalogue, kind: str) -> str:
    """The game's emoji and title (its id when the catalogue has no such game)."""
    try:
        p = catalogue.presenter(kind)
    except EngineError:
        return kind
    return f"{p.emoji} {p.title}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def rating(standing: Standing) -> str:
    return f"{standing.mu:.1f} ± {2 * standing.sigma:.1f}"


def streak(games: int, current: int, best: int) -> str:
    return f"streak {current} (best {best})" if games else ""


def standing_line(catalogue: Catalogue, s: Standing) -> str:
    return (f"{game_name(catalogue, s.kind)} — rating **{rating(s)}** · {plural(s.games, 'game')}: {s.wins} won, "
            f"{s.losses} lost · {streak(s.games, s.streak, s.best_streak)}")


def record_line(catalogue: Catalogue, r: Record) -> str:
    best = "" if r.best_score is None else f" · best {r.best_score:g}"
    return (f"{game_name(catalogue, r.kind)}, {r.variant} — {r.games} finished, {r.wins} won{best} · "
            f"{streak(r.games, r.streak, r.best_streak)}")


def favourite(catalogue: Catalogue, standings: Sequence[Standing], records: Sequence[Record]) -> str | None:
    """The game played most (rated and recorded games together; ties: the catalogue's order)."""
    played: dict[str, int] = {}
    for kind, games in [(s.kind, s.games) for s in standings] + [(r.kind, r.games) for r in records]:
        played[kind] = played.get(kind, 0) + games
    if not played:
        return None
    order = {kind: i for i, kind in enumerate(catalogue.kinds)}
    kind = min(played, key=lambda k: (-played[k], order.get(k, len(order)), k))
    return f"{game_name(catalogue, kind)} ({plural(played[kind], 'game')})"


def stats_text(catalogue: Catalogue, who: str, sections: Sequence[tuple[str, Sequence[Standing], Sequence[Record]]],
               *, game: str | None) -> str:
    """``sections``: (heading, ratings, records) for the server and across servers; the
    favourite game is read from the first section (this server's, in a server)."""
    lines = [f"📊 **Stats of {who}**" + (f" in {game_name(catalogue, game)}" if game else "")]
    if sections:
        liked = favourite(catalogue, sections[0][1], sections[0][2])
        if liked is not None:
            lines.append(f"Favourite game: {liked}")
    shown = False
    for heading, standings, records in sections:
        chosen_s = [s for s in standings if game is None or s.kind == game]
        chosen_r = [r for r in records if game is None or r.kind == game]
        if not chosen_s and not chosen_r:
            continue
        shown = True
        lines.append(f"\n**{heading}**")
        lines += [standing_line(catalogue, s) for s in chosen_s]
        lines += [record_line(catalogue, r) for r in chosen_r]
    if not shown:
        lines.append("No finished games counted yet. Competitive games against people or AIs give a rating; "
                     "solo and co-op games count as records.")
    else:
        lines.append("\n" + EXPLAIN)
    return fit("\n".join(lines))


def leaderboard_text(catalogue: Catalogue, kind: str, standings: Sequence[Standing], *, min_games: int) -> str:
    title = f"{game_name(catalogue, kind)} **ratings in this server** (at least {plural(min_games, 'game')})"
    if not standings:
        return fit(f"{title}\nNobody here has {plural(min_games, 'rated game')} of it yet.")
    lines = [title]
    for place, s in enumerate(standings, start=1):
        lines.append(f"{place}. <@{s.user_id}> — **{s.skill.ordinal:.1f}** (skill {rating(s)}) · "
                     f"{plural(s.games, 'game')}, {s.wins} won")
    lines.append("_Ranked by the cautious figure: skill − 3 × uncertainty, which rises as the bot grows sure of "
                 "a player._")
    return fit("\n".join(lines))


def fit(text: str) -> str:
    """Cut at the last whole line that fits a message."""
    if len(text) <= MESSAGE_LIMIT:
        return text
    cut = text[: MESSAGE_LIMIT - 2].rsplit("\n", 1)[0]
    return cut + "\n…"
