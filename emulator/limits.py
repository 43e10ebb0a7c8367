"""Discord's documented limits, as named rules.

Every check returns :class:`Problem` objects; each names a rule id from :data:`RULES` (the id that shows up in
``Emulator.violations`` and that ``Emulator.expect_violation`` takes), the offending field path, and Discord's own
error code/message. :func:`form_error` turns problems into the ``400 / 50035 Invalid Form Body`` response whose
``errors`` object names the fields, exactly as Discord nests it.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import INVALID_FORM_BODY, APIError

JSON = dict[str, Any]
Path = tuple[str | int, ...]

RULES: dict[str, str] = {
    # messages
    "content-length": "message content is at most 2000 characters",
    "empty-message": "a message needs content, an embed, an attachment, components or a poll",
    "embed-count": "at most 10 embeds per message",
    "embed-title": "embed title is at most 256 characters",
    "embed-description": "embed description is at most 4096 characters",
    "embed-fields": "at most 25 fields per embed",
    "embed-field-name": "embed field name is 1-256 characters",
    "embed-field-value": "embed field value is 1-1024 characters",
    "embed-footer": "embed footer text is at most 2048 characters",
    "embed-author": "embed author name is at most 256 characters",
    "embed-total": "all embeds of a message together hold at most 6000 characters",
    "embed-color": "embed color is an integer from 0 to 0xFFFFFF",
    "embed-url": "embed URLs are http(s) (images also attachment://) and at most 2048 characters",
    "embed-timestamp": "embed timestamp is an ISO8601 timestamp",
    "embed-links": "embeds need EMBED_LINKS in the channel (without it Discord silently drops them)",
    "attachment-count": "at most 10 attachments per message",
    "attachment-size": "each uploaded file is within the attachment size limit",
    "attachment-reference": "attachments[].id names a files[n] part of the request "
    "(or, when editing, a kept attachment)",
    "attachment-description": "attachment description is at most 1024 characters",
    "request-size": "a request body is at most 25 MiB",
    "invalid-requests": "at most 10,000 answers 401, 403, 404 or 429 in 10 minutes (then a temporary ban)",
    "message-flags": "only the message flags the endpoint documents can be set",
    "allowed-mentions": "allowed_mentions: parse is one of users/roles/everyone, exclusive with users/roles lists; "
    "at most 100 ids each",
    "allowed-mentions-missing": "every message the bot sends or edits (channel posts and edits, interaction "
    "responses, follow-ups and their edits) carries allowed_mentions: without it Discord parses the message's "
    "mentions with its default allowances (a policy for the bot: Discord accepts the request)",
    "command-mention": "a command mention (</name subcommand:id>) in the bot's message names one of the app's "
    "commands, by its id and names (a policy for the bot: Discord draws any, but a click on a stale one opens "
    "nothing)",
    "nonce-length": "a nonce is an integer or a string of at most 25 characters",
    "message-reference": "a reply points at an existing, non-system message of the same channel",
    "message-stickers": "at most 3 sticker_ids",
    "history-query": "message history: limit 1-100, at most one of before/after/around, snowflakes",
    "bulk-delete": "bulk delete takes 2-100 distinct message ids",
    "reaction-emoji": "a reaction is a unicode emoji (URL-encoded) or a custom emoji of the guild (10014)",
    # components
    "action-rows": "at most 5 action rows per message",
    "components-total": "at most 25 components per message (40 with components v2)",
    "component-type": "component of a type not allowed at that place",
    "row-empty": "an action row holds 1-5 components",
    "row-buttons": "at most 5 buttons per action row",
    "row-select": "a select menu is alone in its action row",
    "button-label": "button label is at most 80 characters; a button has a label or an emoji",
    "button-custom-id": "non-link buttons have a custom_id and no url, link buttons a url and no custom_id",
    "button-style": "button style is 1-6 (premium buttons need a sku_id and nothing else)",
    "button-sku-id": "only premium buttons (style 6) take a sku_id",
    "button-url": "a link button's url is http(s) or discord:// and at most 512 characters",
    "component-emoji": "a component emoji is a unicode emoji or a custom emoji the sender may use "
    "(USE_EXTERNAL_EMOJIS: emulated guilds have no emojis of their own)",
    "custom-id-length": "custom_id is 1-100 characters",
    "custom-id-unique": "custom_ids are unique within a message or modal",
    "select-options": "a string select has 1-25 options",
    "select-option-length": "select option label/value/description are 1-100 characters",
    "select-option-unique": "select option values are unique",
    "select-placeholder": "select placeholder is at most 150 characters",
    "select-values": "0 <= min_values <= max_values <= 25 (and <= number of options)",
    "select-defaults": "a select's default options/values are no more than max_values",
    "components-v2-content": "messages flagged IS_COMPONENTS_V2 cannot use content, embeds, stickers or a poll (nor, "
    "when an edit sets the flag, keep the files the plain message was sent with)",
    "components-v2-webhook-files": "Execute Webhook (and so an interaction follow-up) flagged IS_COMPONENTS_V2 "
    "cannot upload files[n] (webhook.mdx, Execute Webhook, footnote ***)",
    "components-v2-flag": "layout and content components (sections, text displays, media, separators, containers) "
    "need the IS_COMPONENTS_V2 flag, which an edit cannot remove",
    "component-id": "a component id is a 32-bit integer (0 to 2,147,483,647), unique within the message or modal",
    "text-display-content": "a text display has content",
    "text-display-total": "the text displays of a message or modal hold at most 4000 characters together",
    "section-components": "a section holds 1-3 text displays",
    "section-accessory": "a section has its accessory: a button or a thumbnail",
    "media-item": "a media item has a url (http(s) or attachment://) and alt text of at most 1024 characters",
    "media-url": "a media url (gallery item, thumbnail, file) is at most 2048 characters",
    "media-description": "a media item's alt text (description) is null or 1-1024 characters: an empty one is refused",
    "media-gallery-items": "a media gallery holds 1-10 items",
    "media-attachment": "an attachment:// reference names a file of the message",
    "file-component": "a file component references an uploaded file (attachment:// only)",
    "separator-spacing": "a separator's spacing is 1 or 2 and divider a boolean",
    "container-components": "a container holds at least one component",
    "container-accent": "a container's accent_color is an integer from 0 to 0xFFFFFF",
    # modals
    "modal-title": "modal title is 1-45 characters",
    "modal-components": "a modal has 1-5 components",
    "modal-label": "a label's text is 1-45 characters, its description (when given) 1-100, and it wraps one input",
    "modal-disabled": "nothing in a modal is disabled (a select's disabled is for messages only)",
    "modal-select": "a select in a modal: min_values is omitted or at least 1 unless required is false",
    "radio-group": "a radio group has 2-10 options (value and label 1-100 characters, description at most 100), "
    "at most one of them default",
    "checkbox-group": "a checkbox group has 1-10 options; 0 <= min_values <= max_values <= 10 and <= the options; "
    "min_values at least 1 unless required is false",
    "checkbox": "a checkbox's default is a boolean (it cannot be required)",
    "text-input-label": "text input label is 1-45 characters",
    "text-input-style": "a text input's style is 1 (short) or 2 (paragraph)",
    "text-input-length": "text input min_length/max_length within 0-4000 / 1-4000",
    "text-input-placeholder": "text input placeholder is at most 100 characters",
    "text-input-value": "text input value is at most 4000 characters",
    # autocomplete
    "autocomplete-choices": "at most 25 autocomplete choices",
    "autocomplete-choice": "choice name is 1-100 characters, a string value at most 100, "
    "the value's type matches the option's",
    # commands
    "command-definition": "application command fields have the documented types and values",
    "command-name": "command/option names match ^[-_'\\p{L}\\p{N}]{1,32}$ in lowercase (chat input commands)",
    "command-description": "chat input command/option descriptions are 1-100 characters (context menus: empty)",
    "command-options": "at most 25 options; unique names; required before optional; fields valid for the type",
    "command-localized-names": "in every locale, the names of a command's options (and of the commands of a "
    "type) stay distinct once localized",
    "command-nesting": "options are all subcommands/groups or none; groups hold subcommands; one level of groups",
    "command-choices": "at most 25 choices, names 1-100, values of the option's type (strings 1-100 characters)",
    "command-size": "a chat input command has at most 8000 characters of names, descriptions and values",
    "command-count": "at most 100 chat input (15 user, 15 message) commands per scope, names unique per type",
    "command-permissions": "default_member_permissions is a permission bitfield (a string of digits) or null",
    "command-contexts": "contexts are 0/1/2 and integration_types 0/1",
    # interactions
    "interaction-deadline": "the initial interaction response is sent within 3 seconds",
    "interaction-acknowledged": "an interaction is responded to at most once",
    "interaction-response-type": "the response type is valid for the interaction type",
    "followup-before-response": "follow-ups / edits of the original response only after the initial response",
    "interaction-token-expired": "interaction tokens are valid for 15 minutes",
    "deferred-followup": "a deferred (thinking) response is completed by editing @original, not by a follow-up "
    "(deprecated; refused in strict mode)",
    "followup-limit": "an interaction only a user install authorizes takes at most 5 follow-ups",
    "webhook-message-not-owned": "an interaction's token reads, edits and deletes only its own response and "
    "follow-ups (the clicked message, after an update response)",
    "deprecated-field": "no field Discord documents as deprecated (dm_permission: use contexts); refused in strict "
    "mode",
    "command-install-context": "a command's integration_types are installation contexts the app supports",
    "followup-params": "interaction follow-ups take no thread_id, username, avatar_url, thread_name or applied_tags",
    # permissions
    "missing-access": "the bot acts only in channels it can view (VIEW_CHANNEL), else 50001 Missing Access",
    "missing-permissions": "the bot has the permission a route requires, else 50013 Missing Permissions",
    "reply-without-history": "replying needs READ_MESSAGE_HISTORY (160002)",
    # channels, threads
    "thread-name": "thread name is 1-100 characters",
    "thread-archived": "nothing but deleting messages happens in an archived thread (50083); posting unarchives",
    "thread-locked": "only members with MANAGE_THREADS post, edit or unarchive in a locked thread (160005)",
    "thread-archive-duration": "auto_archive_duration is one of 60, 1440, 4320, 10080",
    "channel-type": "the action fits the channel type (50024)",
    "slowmode": "rate_limit_per_user is 0-21600",
    "message-author": "a bot edits only its own messages",
    "unsupported-route": "the bot called a route the emulator does not implement (extend the emulator)",
}

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ATTACHMENTS = 10
MAX_ACTION_ROWS = 5
MAX_COMPONENTS = 25
MAX_COMPONENTS_V2 = 40
MAX_ROW_BUTTONS = 5
MAX_LABEL = 80
MAX_CUSTOM_ID = 100
MAX_SELECT_OPTIONS = 25
MAX_CHOICES = 25

# message flags
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_VOICE_MESSAGE = 1 << 13
IS_COMPONENTS_V2 = 1 << 15
FLAG_NAMES = {
    1 << 0: "CROSSPOSTED",
    1 << 1: "IS_CROSSPOST",
    SUPPRESS_EMBEDS: "SUPPRESS_EMBEDS",
    1 << 3: "SOURCE_MESSAGE_DELETED",
    1 << 4: "URGENT",
    1 << 5: "HAS_THREAD",
    EPHEMERAL: "EPHEMERAL",
    1 << 7: "LOADING",
    1 << 8: "FAILED_TO_MENTION_SOME_ROLES_IN_THREAD",
    SUPPRESS_NOTIFICATIONS: "SUPPRESS_NOTIFICATIONS",
    IS_VOICE_MESSAGE: "IS_VOICE_MESSAGE",
    1 << 14: "HAS_SNAPSHOT",
    IS_COMPONENTS_V2: "IS_COMPONENTS_V2",
}
#: The flags each endpoint lets a sender set (message.mdx, webhook.mdx, receiving-and-responding.mdx).
FLAGS_CREATE = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2
FLAGS_CALLBACK_MESSAGE = SUPPRESS_EMBEDS | EPHEMERAL | IS_COMPONENTS_V2 | IS_VOICE_MESSAGE | SUPPRESS_NOTIFICATIONS
FLAGS_CALLBACK_DEFERRED = EPHEMERAL
FLAGS_FOLLOWUP = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2 | EPHEMERAL
FLAGS_WEBHOOK_EDIT = SUPPRESS_EMBEDS | IS_COMPONENTS_V2
ALL_MESSAGE_FLAGS = (1 << 63) - 1  # channel edits: "unsupported flag changes are ignored without error"

MAX_EMBED_URL = 2048
MAX_BUTTON_URL = 512
MAX_NONCE = 25
MAX_MENTION_IDS = 100
MAX_ATTACHMENT_DESCRIPTION = 1024

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
INTERACTIVE_TYPES = frozenset({BUTTON, TEXT_INPUT} | SELECT_TYPES)
LABEL = 18
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 9, 10, 11, 12, 13, 14, 17
FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX = 19, 21, 22, 23
#: what may stand where (components reference: each component's "child components" tables)
V2_TYPES = frozenset({SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
V2_TOP_LEVEL = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
CONTAINER_CHILDREN = frozenset({ACTION_ROW, TEXT_DISPLAY, SECTION, MEDIA_GALLERY, SEPARATOR, FILE})
SECTION_CHILDREN = frozenset({TEXT_DISPLAY})
SECTION_ACCESSORIES = frozenset({BUTTON, THUMBNAIL})
MODAL_TOP_LEVEL = frozenset({LABEL, TEXT_DISPLAY, ACTION_ROW})  # action rows: legacy text inputs only
LABEL_CHILDREN = frozenset({TEXT_INPUT, FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX} | SELECT_TYPES)
MAX_TEXT_DISPLAY_TOTAL = 4000
MAX_MEDIA_DESCRIPTION = 1024
MAX_MEDIA_URL = 2048
#: Component ids are 32-bit integers (components reference, "Anatomy of a Component"): signed, as Discord
#: answers a larger one with "int value should be less than or equal to 2147483647.".
MAX_COMPONENT_ID = 2**31 - 1
TEXT_INPUT_STYLES = (1, 2)
MAX_GALLERY_ITEMS = 10
LINK_STYLE = 5
PREMIUM_STYLE = 6


@dataclass(frozen=True)
class Problem:
    rule: str
    path: Path
    code: str
    message: str

    def describe(self) -> str:
        where = ".".join(str(p) for p in self.path) or "<body>"
        return f"{where}: {self.message}"

    def __str__(self) -> str:
        return f"{self.rule}: {self.describe()}"


def _too_long(rule: str, path: Path, limit: int) -> Problem:
    return Problem(rule, path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _bad_length(rule: str, path: Path, low: int, high: int) -> Problem:
    return Problem(rule, path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def _required(rule: str, path: Path) -> Problem:
    return Problem(rule, path, "BASE_TYPE_REQUIRED", "This field is required")


def _not_a_list(rule: str, path: Path) -> Problem:
    return Problem(rule, path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")


def _not_a_dict(rule: str, path: Path) -> Problem:
    return Problem(rule, path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")


def _optional_list(out: list[Problem], rule: str, path: Path, value: Any) -> list[Any] | None:
    """An optional list field: None when it is absent, or when it is something else (reported)."""
    if value is not None and not isinstance(value, list):
        out.append(_not_a_list(rule, path))
    return value if isinstance(value, list) else None


def _check_len(
    out: list[Problem], rule: str, path: Path, value: Any, high: int, *, low: int = 0, required: bool = False
) -> None:
    if value is None:
        if required:
            out.append(_required(rule, path))
        return
    n = len(str(value))
    if n > high or n < low:
        out.append(_bad_length(rule, path, low, high) if low else _too_long(rule, path, high))


def form_error(problems: Sequence[Problem], prefix: Path = ()) -> APIError:
    """``400 Invalid Form Body`` whose ``errors`` object nests like Discord's (``{"content": {"_errors": [...]}}``)."""
    errors: JSON = {}
    for p in problems:
        node = errors
        for key in (*prefix, *p.path):
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": p.code, "message": p.message})
    first = problems[0]
    more = [(p.rule, p.describe()) for p in problems[1:]]
    return APIError(
        400,
        INVALID_FORM_BODY,
        "Invalid Form Body",
        errors=errors,
        rule=first.rule,
        detail=first.describe(),
        more_rules=more,
    )


# --- embeds ------------------------------------------------------------------------------------------------------


def _trimmed(value: Any) -> str | None:
    """Discord measures embed texts without leading/trailing whitespace (it trims them)."""
    return None if value is None else str(value).strip()


def embed_text_length(embed: JSON) -> int:
    total = len(_trimmed(embed.get("title")) or "") + len(_trimmed(embed.get("description")) or "")
    total += len(_trimmed((embed.get("footer") or {}).get("text")) or "")
    total += len(_trimmed((embed.get("author") or {}).get("name")) or "")
    for f in embed.get("fields") or []:
        total += len(_trimmed(f.get("name")) or "") + len(_trimmed(f.get("value")) or "")
    return total


def _bad_url(rule: str, path: Path) -> Problem:
    return Problem(rule, path, "URL_TYPE_INVALID_URL", "Not a well formed URL.")


def _check_url(out: list[Problem], rule: str, path: Path, url: Any, *, attachments: bool, limit: int) -> None:
    if url is None:
        return
    text = str(url)
    schemes = ("http://", "https://", "attachment://") if attachments else ("http://", "https://")
    if not isinstance(url, str) or not text.startswith(schemes) or len(text) <= len(text.split("//")[0]) + 2:
        out.append(_bad_url(rule, path))
    elif len(text) > limit:
        out.append(_too_long(rule, path, limit))


def _check_embed_extras(out: list[Problem], p: Path, e: JSON) -> None:
    color = e.get("color")
    if color is not None:
        if isinstance(color, bool) or not isinstance(color, int):
            out.append(Problem("embed-color", (*p, "color"), "NUMBER_TYPE_COERCE", f'Value "{color}" is not int.'))
        elif color < 0:
            out.append(
                Problem(
                    "embed-color", (*p, "color"), "NUMBER_TYPE_MIN", "int value should be greater than or equal to 0."
                )
            )
        elif color > 0xFFFFFF:
            out.append(
                Problem(
                    "embed-color",
                    (*p, "color"),
                    "NUMBER_TYPE_MAX",
                    "int value should be less than or equal to 16777215.",
                )
            )
    _check_url(out, "embed-url", (*p, "url"), e.get("url"), attachments=False, limit=MAX_EMBED_URL)
    for key in ("image", "thumbnail"):
        node = e.get(key)
        if isinstance(node, dict):
            if not node.get("url"):
                out.append(_required("embed-url", (*p, key, "url")))
            _check_url(out, "embed-url", (*p, key, "url"), node.get("url"), attachments=True, limit=MAX_EMBED_URL)
    author = e.get("author")
    if isinstance(author, dict):
        if _trimmed(author.get("name")) in (None, ""):
            out.append(_required("embed-author", (*p, "author", "name")))
        _check_url(out, "embed-url", (*p, "author", "url"), author.get("url"), attachments=False, limit=MAX_EMBED_URL)
        _check_url(
            out, "embed-url", (*p, "author", "icon_url"), author.get("icon_url"), attachments=True, limit=MAX_EMBED_URL
        )
    footer = e.get("footer")
    if isinstance(footer, dict):
        if _trimmed(footer.get("text")) in (None, ""):
            out.append(_required("embed-footer", (*p, "footer", "text")))
        _check_url(
            out, "embed-url", (*p, "footer", "icon_url"), footer.get("icon_url"), attachments=True, limit=MAX_EMBED_URL
        )
    stamp = e.get("timestamp")
    if stamp is not None:
        try:
            dt.datetime.fromisoformat(str(stamp))
        except ValueError:
            out.append(
                Problem("embed-timestamp", (*p, "timestamp"), "DATE_TIME_TYPE_PARSE", "Could not parse timestamp.")
            )


def check_embeds(embeds: Sequence[JSON], path: Path = ("embeds",)) -> list[Problem]:
    out: list[Problem] = []
    if len(embeds) > MAX_EMBEDS:
        out.append(_too_long("embed-count", path, MAX_EMBEDS))
    for i, e in enumerate(embeds):
        p = (*path, i)
        _check_len(out, "embed-title", (*p, "title"), _trimmed(e.get("title")), 256)
        _check_len(out, "embed-description", (*p, "description"), _trimmed(e.get("description")), 4096)
        _check_len(out, "embed-footer", (*p, "footer", "text"), _trimmed((e.get("footer") or {}).get("text")), 2048)
        _check_len(out, "embed-author", (*p, "author", "name"), _trimmed((e.get("author") or {}).get("name")), 256)
        _check_embed_extras(out, p, e)
        fields = e.get("fields") or []
        if len(fields) > 25:
            out.append(_too_long("embed-fields", (*p, "fields"), 25))
        for j, f in enumerate(fields):
            fp = (*p, "fields", j)
            _check_len(out, "embed-field-name", (*fp, "name"), _trimmed(f.get("name")), 256, low=1, required=True)
            _check_len(out, "embed-field-value", (*fp, "value"), _trimmed(f.get("value")), 1024, low=1, required=True)
    total = sum(embed_text_length(e) for e in embeds)
    if total > MAX_EMBED_TOTAL:
        out.append(
            Problem(
                "embed-total", path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"
            )
        )
    return out


# --- components --------------------------------------------------------------------------------------------------


def iter_components(components: Sequence[JSON], path: Path = ("components",)) -> Iterator[tuple[Path, JSON]]:
    """Every component, nested ones included (rows, containers, sections' accessories, labels), with its path."""
    for i, c in enumerate(components):
        p = (*path, i)
        yield p, c
        if isinstance(c.get("components"), list):
            yield from iter_components(c["components"], (*p, "components"))
        if isinstance(c.get("accessory"), dict):
            yield (*p, "accessory"), c["accessory"]
        if isinstance(c.get("component"), dict):
            yield (*p, "component"), c["component"]
            yield from iter_components(c["component"].get("components") or [], (*p, "component", "components"))


def _check_custom_id(out: list[Problem], path: Path, comp: JSON, seen: dict[str, Path]) -> None:
    cid = comp.get("custom_id")
    if cid is None:
        return
    _check_len(out, "custom-id-length", (*path, "custom_id"), cid, MAX_CUSTOM_ID, low=1)
    if cid in seen:
        out.append(
            Problem(
                "custom-id-unique",
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                f"Component custom id cannot be duplicated ({cid!r} also at {'.'.join(map(str, seen[cid]))})",
            )
        )
    else:
        seen[cid] = path


_CUSTOM_EMOJI_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
_KEYCAP_BASES = frozenset("#*0123456789")


def _check_emoji(out: list[Problem], path: Path, emoji: Any) -> None:
    """A partial emoji: a unicode emoji (``{"name": "🔥"}``) or a custom one (``{"id": "...", "name": "..."}``)."""
    bad = Problem("component-emoji", path, "COMPONENT_INVALID_EMOJI", "Invalid emoji")
    if not isinstance(emoji, dict):
        out.append(bad)
        return
    eid, name = emoji.get("id"), emoji.get("name")
    if eid is not None:
        if not str(eid).isdigit() or (name is not None and not _CUSTOM_EMOJI_NAME.match(str(name))):
            out.append(bad)
        return
    text = str(name or "")
    # a unicode emoji: no ASCII but keycap bases (1️⃣), at least one non-ASCII code point, short
    if (
        not text
        or len(text) > 32
        or not any(not c.isascii() for c in text)
        or any(c.isascii() and c not in _KEYCAP_BASES for c in text)
    ):
        out.append(bad)


def check_emoji_name(name: str) -> list[Problem]:
    """A unicode emoji as text (a reaction's emoji)."""
    out: list[Problem] = []
    _check_emoji(out, ("emoji",), {"name": name})
    return out


def custom_emojis(components: Sequence[JSON], path: Path = ("components",)) -> list[Path]:
    """Paths of the custom (id-carrying) emojis in buttons and select options."""
    found: list[Path] = []
    for p, c in iter_components(components, path):
        emoji = c.get("emoji")
        if isinstance(emoji, dict) and emoji.get("id") is not None:
            found.append((*p, "emoji", "id"))
        for j, o in enumerate(c.get("options") or [] if c.get("type") == STRING_SELECT else []):
            oe = o.get("emoji") if isinstance(o, dict) else None
            if isinstance(oe, dict) and oe.get("id") is not None:
                found.append((*p, "options", j, "emoji", "id"))
    return found


def _check_button(out: list[Problem], path: Path, b: JSON) -> None:
    style = b.get("style")
    if isinstance(style, bool) or style not in (1, 2, 3, 4, LINK_STYLE, PREMIUM_STYLE):
        out.append(
            Problem("button-style", (*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
        )
    _check_len(out, "button-label", (*path, "label"), b.get("label"), MAX_LABEL)
    if b.get("emoji") is not None:
        _check_emoji(out, (*path, "emoji"), b.get("emoji"))
    if style == LINK_STYLE:
        if not b.get("url"):
            out.append(_required("button-custom-id", (*path, "url")))
        else:
            url = str(b["url"])
            if not url.startswith(("http://", "https://", "discord://")):
                out.append(_bad_url("button-url", (*path, "url")))
            elif len(url) > MAX_BUTTON_URL:
                out.append(_too_long("button-url", (*path, "url"), MAX_BUTTON_URL))
        if b.get("custom_id") is not None:
            out.append(
                Problem(
                    "button-custom-id",
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_LINK_CUSTOM_ID",
                    "Link buttons cannot have a custom_id",
                )
            )
    elif style == PREMIUM_STYLE:
        if not b.get("sku_id"):
            out.append(_required("button-style", (*path, "sku_id")))
        for key in ("custom_id", "label", "url", "emoji"):
            if b.get(key) is not None:
                out.append(
                    Problem(
                        "button-style",
                        (*path, key),
                        "BUTTON_COMPONENT_INVALID_FIELD",
                        "Premium buttons only have a sku_id",
                    )
                )
    else:
        if not b.get("custom_id"):
            out.append(_required("button-custom-id", (*path, "custom_id")))
    if style != PREMIUM_STYLE and b.get("sku_id") is not None:
        out.append(
            Problem(
                "button-sku-id",
                (*path, "sku_id"),
                "BUTTON_COMPONENT_SKU_ID_INVALID",
                "Only premium buttons can have a sku_id",
            )
        )
    if style not in (LINK_STYLE, PREMIUM_STYLE) and b.get("url") is not None:
        out.append(
            Problem(
                "button-custom-id",
                (*path, "url"),
                "BUTTON_COMPONENT_NOT_LINK_URL",
                "Only link buttons can have a url",
            )
        )
    if style != PREMIUM_STYLE and not b.get("label") and not b.get("emoji"):
        out.append(
            Problem(
                "button-label",
                (*path, "label"),
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A label or emoji is required",
            )
        )


def _check_select(out: list[Problem], path: Path, s: JSON) -> None:
    _check_len(out, "select-placeholder", (*path, "placeholder"), s.get("placeholder"), 150)
    if not s.get("custom_id"):
        out.append(_required("custom-id-length", (*path, "custom_id")))
    n_options: int | None = None
    if s.get("type") == STRING_SELECT:
        options = s.get("options") or []
        n_options = len(options)
        if not 1 <= n_options <= MAX_SELECT_OPTIONS:
            out.append(_bad_length("select-options", (*path, "options"), 1, MAX_SELECT_OPTIONS))
        values: set[str] = set()
        for j, o in enumerate(options):
            op = (*path, "options", j)
            _check_len(out, "select-option-length", (*op, "label"), o.get("label"), 100, low=1, required=True)
            _check_len(out, "select-option-length", (*op, "value"), o.get("value"), 100, low=1, required=True)
            _check_len(out, "select-option-length", (*op, "description"), o.get("description"), 100)
            if o.get("emoji") is not None:
                _check_emoji(out, (*op, "emoji"), o.get("emoji"))
            if o.get("value") in values:
                out.append(
                    Problem(
                        "select-option-unique",
                        (*op, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Option values must be unique",
                    )
                )
            values.add(o.get("value"))
    lo, hi = s.get("min_values", 1), s.get("max_values", 1)
    if (
        not isinstance(lo, int)
        or not isinstance(hi, int)
        or not (0 <= lo <= 25 and 1 <= hi <= 25 and lo <= hi)
        or (n_options and hi > n_options)
    ):
        out.append(
            Problem(
                "select-values",
                (*path, "max_values"),
                "BASE_TYPE_BAD_VALUE",
                f"min_values={lo} max_values={hi} invalid",
            )
        )
        return
    if s.get("type") == STRING_SELECT:
        defaults = sum(1 for o in s.get("options") or [] if isinstance(o, dict) and o.get("default"))
        if defaults > hi:
            out.append(
                Problem(
                    "select-defaults",
                    (*path, "options"),
                    "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                    f"{defaults} default options but max_values is {hi}",
                )
            )
    else:
        default_values = s.get("default_values") or []
        if len(default_values) > hi or (default_values and len(default_values) < lo):
            out.append(
                Problem(
                    "select-defaults",
                    (*path, "default_values"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between {lo} and {hi} in length.",
                )
            )


def _check_row(out: list[Problem], path: Path, row: JSON, *, in_modal: bool = False) -> None:
    children = row.get("components") or []
    if not 1 <= len(children) <= MAX_ROW_BUTTONS:
        out.append(_bad_length("row-empty" if not children else "row-buttons", (*path, "components"), 1, 5))
    has_select = any(c.get("type") in SELECT_TYPES or c.get("type") == TEXT_INPUT for c in children)
    if has_select and len(children) > 1:
        out.append(
            Problem(
                "row-select",
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        )
    for j, c in enumerate(children):
        cp = (*path, "components", j)
        t = c.get("type")
        if t == BUTTON and not in_modal:
            _check_button(out, cp, c)
        elif t in SELECT_TYPES:
            _check_select(out, cp, c)
        elif t == TEXT_INPUT and in_modal:
            _check_text_input(out, cp, c)
        else:
            out.append(
                Problem(
                    "component-type", (*cp, "type"), "COMPONENT_TYPE_INVALID", f"Component type {t} not allowed here"
                )
            )


def check_components(
    components: Sequence[JSON],
    *,
    v2: bool = False,
    path: Path = ("components",),
    attachment_names: Sequence[str] | None = None,
) -> list[Problem]:
    """A message's components: legacy (action rows only) or, with IS_COMPONENTS_V2, the layout and content
    components where the components reference lets each stand. ``attachment_names``: the message's files, which
    ``attachment://`` references must name (None: not checked)."""
    out: list[Problem] = []
    seen: dict[str, Path] = {}
    everything = list(iter_components(components, path))
    for p, c in everything:
        _check_custom_id(out, p, c, seen)
    _check_ids(out, everything)
    if not v2:
        for i, c in enumerate(components):
            if c.get("type") in V2_TYPES:
                out.append(
                    Problem(
                        "components-v2-flag",
                        (*path, i, "type"),
                        "COMPONENT_TYPE_INVALID",
                        f"Component type {c.get('type')} needs the IS_COMPONENTS_V2 message flag",
                    )
                )
        if any(c.get("type") in V2_TYPES for c in components):
            return out
        if len(components) > MAX_ACTION_ROWS:
            out.append(_too_long("action-rows", path, MAX_ACTION_ROWS))
        interactive = [c for _, c in everything if c.get("type") in INTERACTIVE_TYPES]
        if len(interactive) > MAX_COMPONENTS:
            out.append(_too_long("components-total", path, MAX_COMPONENTS))
        for i, row in enumerate(components):
            if row.get("type") != ACTION_ROW:
                out.append(
                    Problem(
                        "component-type",
                        (*path, i, "type"),
                        "COMPONENT_TYPE_INVALID",
                        "Top-level components must be action rows",
                    )
                )
            else:
                _check_row(out, (*path, i), row)
        return out
    if len(everything) > MAX_COMPONENTS_V2:
        out.append(_too_long("components-total", path, MAX_COMPONENTS_V2))
    for i, c in enumerate(components):
        _check_v2(out, (*path, i), c, V2_TOP_LEVEL, attachment_names)
    _check_text_total(out, path, everything)
    return out


def text_display_contents(components: Sequence[JSON]) -> list[str]:
    """The markdown of every text display, in order: a components-v2 message's text (mentions in it ping)."""
    return [str(c.get("content") or "") for _, c in iter_components(components) if c.get("type") == TEXT_DISPLAY]


def _check_ids(out: list[Problem], everything: list[tuple[Path, JSON]]) -> None:
    """Component ``id``s: optional integers, unique within the message (0 means "none", the API fills it in)."""
    seen: dict[int, Path] = {}
    for p, c in everything:
        cid = c.get("id")
        if cid is None:
            continue
        if isinstance(cid, bool) or not isinstance(cid, int) or cid < 0:
            out.append(Problem("component-id", (*p, "id"), "NUMBER_TYPE_COERCE", f'Value "{cid}" is not int.'))
        elif cid > MAX_COMPONENT_ID:
            out.append(
                Problem(
                    "component-id",
                    (*p, "id"),
                    "NUMBER_TYPE_MAX",
                    f"int value should be less than or equal to {MAX_COMPONENT_ID}.",
                )
            )
        elif cid and cid in seen:
            out.append(
                Problem(
                    "component-id",
                    (*p, "id"),
                    "COMPONENT_ID_DUPLICATED",
                    f"Component id {cid} is already used at {'.'.join(map(str, seen[cid]))}",
                )
            )
        elif cid:
            seen[cid] = p


def _check_text_total(out: list[Problem], path: Path, everything: list[tuple[Path, JSON]]) -> None:
    total = sum(len(str(c.get("content") or "")) for _, c in everything if c.get("type") == TEXT_DISPLAY)
    if total > MAX_TEXT_DISPLAY_TOTAL:
        out.append(
            Problem(
                "text-display-total",
                path,
                "COMPONENT_TEXT_DISPLAY_MAX_LENGTH",
                f"Text displays hold {total} characters together (at most {MAX_TEXT_DISPLAY_TOTAL})",
            )
        )


def _misplaced(path: Path, ctype: Any) -> Problem:
    return Problem(
        "component-type", (*path, "type"), "COMPONENT_TYPE_INVALID", f"Component type {ctype} not allowed here"
    )


def _check_media(out: list[Problem], path: Path, item: Any, names: Sequence[str] | None) -> None:
    """A media gallery item or a thumbnail: ``media.url`` (http(s) or ``attachment://`` a file of the message) and
    its alt text (``description``)."""
    if not isinstance(item, dict):
        out.append(_not_a_dict("media-item", path))
        return
    media = item.get("media")
    url = media.get("url") if isinstance(media, dict) else None
    if not url:
        out.append(_required("media-item", (*path, "media", "url")))
    elif not isinstance(url, str) or not url.startswith(("http://", "https://", "attachment://")):
        out.append(_bad_url("media-item", (*path, "media", "url")))
    elif len(url) > MAX_MEDIA_URL:
        out.append(_too_long("media-url", (*path, "media", "url"), MAX_MEDIA_URL))
    elif url.startswith("attachment://") and names is not None and url.removeprefix("attachment://") not in names:
        out.append(
            Problem(
                "media-attachment",
                (*path, "media", "url"),
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                f"{url} names no file of this message",
            )
        )
    description = item.get("description")
    if description == "":
        out.append(_bad_length("media-description", (*path, "description"), 1, MAX_MEDIA_DESCRIPTION))
    _check_len(out, "media-item", (*path, "description"), description, MAX_MEDIA_DESCRIPTION)


def _check_v2(out: list[Problem], path: Path, c: Any, allowed: frozenset[int], names: Sequence[str] | None) -> None:
    """One component of a components-v2 message where ``allowed`` types may stand, and its children."""
    if not isinstance(c, dict):
        out.append(_not_a_dict("component-type", path))
        return
    t = c.get("type")
    if t not in allowed:
        out.append(_misplaced(path, t))
        return
    if t == ACTION_ROW:
        _check_row(out, path, c)
    elif t == TEXT_DISPLAY:
        if not isinstance(c.get("content"), str) or not c["content"]:
            out.append(_required("text-display-content", (*path, "content")))
    elif t == SECTION:
        children = c.get("components")
        if not isinstance(children, list) or not 1 <= len(children) <= 3:
            out.append(_bad_length("section-components", (*path, "components"), 1, 3))
        for j, child in enumerate(children if isinstance(children, list) else []):
            _check_v2(out, (*path, "components", j), child, SECTION_CHILDREN, names)
        accessory = c.get("accessory")
        if not isinstance(accessory, dict):
            out.append(_required("section-accessory", (*path, "accessory")))
        elif accessory.get("type") not in SECTION_ACCESSORIES:
            out.append(
                Problem(
                    "section-accessory",
                    (*path, "accessory", "type"),
                    "COMPONENT_TYPE_INVALID",
                    f"Component type {accessory.get('type')} cannot be a section's accessory",
                )
            )
        elif accessory.get("type") == BUTTON:
            _check_button(out, (*path, "accessory"), accessory)
        else:
            _check_media(out, (*path, "accessory"), accessory, names)
    elif t == MEDIA_GALLERY:
        items = c.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            out.append(_bad_length("media-gallery-items", (*path, "items"), 1, MAX_GALLERY_ITEMS))
        for j, item in enumerate(items if isinstance(items, list) else []):
            _check_media(out, (*path, "items", j), item, names)
    elif t == FILE:
        node = c.get("file")
        url = node.get("url") if isinstance(node, dict) else None
        if isinstance(url, str) and len(url) > MAX_MEDIA_URL:
            out.append(_too_long("media-url", (*path, "file", "url"), MAX_MEDIA_URL))
        elif not isinstance(url, str) or not url.startswith("attachment://"):
            out.append(
                Problem(
                    "file-component",
                    (*path, "file", "url"),
                    "UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED",
                    "A file component only takes attachment://<filename>",
                )
            )
        elif names is not None and url.removeprefix("attachment://") not in names:
            out.append(
                Problem(
                    "media-attachment",
                    (*path, "file", "url"),
                    "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                    f"{url} names no file of this message",
                )
            )
    elif t == SEPARATOR:
        spacing, divider = c.get("spacing"), c.get("divider")
        if spacing is not None and (isinstance(spacing, bool) or spacing not in (1, 2)):
            out.append(
                Problem("separator-spacing", (*path, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
            )
        if divider is not None and not isinstance(divider, bool):
            out.append(Problem("separator-spacing", (*path, "divider"), "BASE_TYPE_BAD_TYPE", "Must be a boolean."))
    elif t == CONTAINER:
        color = c.get("accent_color")
        if color is not None and (isinstance(color, bool) or not isinstance(color, int) or not 0 <= color <= 0xFFFFFF):
            out.append(
                Problem(
                    "container-accent",
                    (*path, "accent_color"),
                    "NUMBER_TYPE_MAX",
                    "int value should be between 0 and 16777215.",
                )
            )
        children = c.get("components")
        if not isinstance(children, list):
            out.append(_not_a_list("component-type", (*path, "components")))
            children = []
        elif not children:
            out.append(_bad_length("container-components", (*path, "components"), 1, MAX_COMPONENTS_V2))
        for j, child in enumerate(children):
            _check_v2(out, (*path, "components", j), child, CONTAINER_CHILDREN, names)


# --- whole messages ----------------------------------------------------------------------------------------------


def check_message(
    payload: JSON, *, n_files: int = 0, existing_attachments: int = 0, attachment_names: Sequence[str] | None = None
) -> list[Problem]:
    """Field limits of a message create/edit body (or the ``data`` of an interaction response)."""
    out: list[Problem] = []
    content = payload.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        out.append(_too_long("content-length", ("content",), MAX_CONTENT))
    embeds = payload.get("embeds") or []
    out += check_embeds(embeds)
    flags = int(payload.get("flags") or 0)
    v2 = bool(flags & IS_COMPONENTS_V2)
    if v2:
        for key in ("content", "embeds", "sticker_ids", "poll"):
            if payload.get(key):
                out.append(
                    Problem(
                        "components-v2-content",
                        (key,),
                        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                        f"The {key!r} field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                    )
                )
    out += check_components(payload.get("components") or [], v2=v2, attachment_names=attachment_names)
    if n_files + existing_attachments > MAX_ATTACHMENTS:
        out.append(_too_long("attachment-count", ("attachments",), MAX_ATTACHMENTS))
    stickers = payload.get("sticker_ids")
    if isinstance(stickers, list) and len(stickers) > 3:
        out.append(_too_long("message-stickers", ("sticker_ids",), 3))
    return out


def converted_with_files() -> Problem:
    """Edit Message / Edit Webhook Message, footnote *: the IS_COMPONENTS_V2 flag "can only be set. When the
    IS_COMPONENTS_V2 flag is set, any of the used content, embeds, files[n] or poll values in the initial message must
    be set to null first": a plain message becomes a card only without the files it was sent with."""
    return Problem(
        "components-v2-content",
        ("attachments",),
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        "The files of a message cannot be kept when an edit sets MessageFlags.IS_COMPONENTS_V2",
    )


def check_webhook_files(payload: JSON, n_files: int) -> list[Problem]:
    """Execute Webhook, which interaction follow-ups function the same as: "When the flag IS_COMPONENTS_V2 is set,
    the webhook message can only contain components. Providing content, embeds, files[n] or poll will fail with a
    400 BAD REQUEST response." (The message routes and the interaction callback list no such limit on files.)"""
    if not n_files or not int(payload.get("flags") or 0) & IS_COMPONENTS_V2:
        return []
    return [
        Problem(
            "components-v2-webhook-files",
            ("files",),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'files' field cannot be used when executing a webhook with MessageFlags.IS_COMPONENTS_V2",
        )
    ]


def flag_names(value: int) -> list[str]:
    return [FLAG_NAMES.get(1 << i, f"1 << {i}") for i in range(value.bit_length()) if value >> i & 1]


def check_flags(flags: Any, allowed: int, path: Path = ("flags",)) -> list[Problem]:
    """``flags`` may only combine the bits ``allowed`` on this endpoint."""
    if flags is None:
        return []
    if isinstance(flags, bool) or not isinstance(flags, int):
        return [Problem("message-flags", path, "NUMBER_TYPE_COERCE", f'Value "{flags}" is not int.')]
    extra = flags & ~allowed
    if flags < 0 or extra:
        names = ", ".join(flag_names(extra)) or str(flags)
        return [Problem("message-flags", path, "MESSAGE_FLAGS_INVALID", f"Cannot set message flags here: {names}")]
    return []


_SNOWFLAKE = re.compile(r"^\d{1,20}$")


def check_allowed_mentions(value: Any, path: Path = ("allowed_mentions",)) -> list[Problem]:
    out: list[Problem] = []
    if value is None:
        return out
    if not isinstance(value, dict):
        return [_not_a_dict("allowed-mentions", path)]
    parse = _optional_list(out, "allowed-mentions", (*path, "parse"), value.get("parse"))
    for i, kind in enumerate(parse or []):
        if kind not in ("users", "roles", "everyone"):
            out.append(
                Problem(
                    "allowed-mentions",
                    (*path, "parse", i),
                    "BASE_TYPE_CHOICES",
                    "Value must be one of ('users', 'roles', 'everyone').",
                )
            )
    for kind in ("users", "roles"):
        ids = _optional_list(out, "allowed-mentions", (*path, kind), value.get(kind))
        if ids is None:
            continue
        if len(ids) > MAX_MENTION_IDS:
            out.append(_too_long("allowed-mentions", (*path, kind), MAX_MENTION_IDS))
        for i, x in enumerate(ids):
            if isinstance(x, bool) or not _SNOWFLAKE.match(str(x)):
                out.append(
                    Problem(
                        "allowed-mentions", (*path, kind, i), "NUMBER_TYPE_COERCE", f'Value "{x}" is not snowflake.'
                    )
                )
        if ids and parse is not None and kind in parse:
            out.append(
                Problem(
                    "allowed-mentions",
                    (*path, "parse"),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                )
            )
    return out


def check_nonce(value: Any, path: Path = ("nonce",)) -> list[Problem]:
    if value is None:
        return []
    if isinstance(value, bool) or not isinstance(value, int | str):
        return [Problem("nonce-length", path, "BASE_TYPE_BAD_TYPE", "Must be an integer or a string.")]
    if isinstance(value, str) and len(value) > MAX_NONCE:
        return [_too_long("nonce-length", path, MAX_NONCE)]
    return []


def check_attachment_specs(specs: Any, path: Path = ("attachments",)) -> list[Problem]:
    out: list[Problem] = []
    for i, item in enumerate(_optional_list(out, "attachment-reference", path, specs) or []):
        if not isinstance(item, dict) or item.get("id") is None:
            out.append(_required("attachment-reference", (*path, i, "id")))
            continue
        _check_len(
            out,
            "attachment-description",
            (*path, i, "description"),
            item.get("description"),
            MAX_ATTACHMENT_DESCRIPTION,
        )
    return out


def check_request(payload: JSON, *, allowed_flags: int, create: bool = False) -> list[Problem]:
    """Fields of the request itself (not of the resulting message): flags for this endpoint, allowed_mentions,
    nonce (message create only), the attachments array."""
    out = check_flags(payload.get("flags"), allowed_flags)
    out += check_allowed_mentions(payload.get("allowed_mentions"))
    if create:
        out += check_nonce(payload.get("nonce"))
    out += check_attachment_specs(payload.get("attachments"))
    return out


def is_empty_message(content: str | None, *, embeds: int, attachments: int, components: int, poll: bool) -> bool:
    return not (content or "").strip() and not embeds and not attachments and not components and not poll


# --- modals, autocomplete, commands --------------------------------------------------------------------------------


def _check_text_input(out: list[Problem], path: Path, t: JSON) -> None:
    if t.get("custom_id") is None:  # its length is checked with every custom_id (_check_custom_id)
        out.append(_required("custom-id-length", (*path, "custom_id")))
    style = t.get("style")
    if isinstance(style, bool) or style not in TEXT_INPUT_STYLES:
        out.append(
            Problem("text-input-style", (*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
        )
    if "label" in t:  # legacy row-wrapped inputs carry their own label; Label-wrapped ones don't
        _check_len(out, "text-input-label", (*path, "label"), t.get("label"), 45, low=1)
    _check_len(out, "text-input-placeholder", (*path, "placeholder"), t.get("placeholder"), 100)
    _check_len(out, "text-input-value", (*path, "value"), t.get("value"), 4000)
    lo, hi = t.get("min_length"), t.get("max_length")
    if (
        (lo is not None and not 0 <= lo <= 4000)
        or (hi is not None and not 1 <= hi <= 4000)
        or (lo is not None and hi is not None and lo > hi)
    ):
        out.append(
            Problem(
                "text-input-length",
                (*path, "max_length"),
                "BASE_TYPE_BAD_VALUE",
                f"min_length={lo} max_length={hi} invalid",
            )
        )


def check_modal(data: JSON, path: Path = ("data",)) -> list[Problem]:
    """A modal: title, custom_id, 1-5 top-level components (labels wrapping one input, text displays, and the
    legacy action rows of text inputs), each input as the components reference describes it."""
    out: list[Problem] = []
    _check_len(out, "modal-title", (*path, "title"), data.get("title"), 45, low=1, required=True)
    _check_len(
        out, "custom-id-length", (*path, "custom_id"), data.get("custom_id"), MAX_CUSTOM_ID, low=1, required=True
    )
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        out.append(_bad_length("modal-components", (*path, "components"), 1, 5))
    seen: dict[str, Path] = {}
    everything = list(iter_components(comps, (*path, "components")))
    for p, c in everything:
        _check_custom_id(out, p, c, seen)
        if c.get("disabled"):
            out.append(
                Problem("modal-disabled", (*p, "disabled"), "COMPONENT_DISABLED_IN_MODAL", "Modals cannot have "
                        "disabled components")
            )
    _check_ids(out, everything)
    for i, c in enumerate(comps):
        cp = (*path, "components", i)
        t = c.get("type") if isinstance(c, dict) else None
        if t not in MODAL_TOP_LEVEL:
            out.append(_misplaced(cp, t))
        elif t == ACTION_ROW:
            _check_row(out, cp, c, in_modal=True)
        elif t == TEXT_DISPLAY:
            if not isinstance(c.get("content"), str) or not c["content"]:
                out.append(_required("text-display-content", (*cp, "content")))
        else:
            _check_label(out, cp, c)
    _check_text_total(out, (*path, "components"), everything)
    return out


def _check_label(out: list[Problem], path: Path, label: JSON) -> None:
    _check_len(out, "modal-label", (*path, "label"), label.get("label"), 45, low=1, required=True)
    _check_len(out, "modal-label", (*path, "description"), label.get("description"), 100, low=1)
    inner = label.get("component")
    cp = (*path, "component")
    if not isinstance(inner, dict):
        out.append(_required("modal-label", cp))
        return
    t = inner.get("type")
    if t not in LABEL_CHILDREN:
        out.append(_misplaced(cp, t))
        return
    if t != TEXT_INPUT and not inner.get("custom_id"):
        out.append(_required("custom-id-length", (*cp, "custom_id")))
    if t == TEXT_INPUT:
        _check_text_input(out, cp, inner)
    elif t in SELECT_TYPES:
        _check_select(out, cp, inner)
        _check_required_minimum(out, "modal-select", cp, inner)
    elif t == RADIO_GROUP:
        _check_choice_options(out, "radio-group", cp, inner.get("options"), low=2)
        defaults = [o for o in inner.get("options") or [] if isinstance(o, dict) and o.get("default")]
        if len(defaults) > 1:
            out.append(
                Problem(
                    "radio-group", (*cp, "options"), "RADIO_GROUP_TOO_MANY_DEFAULTS", "At most one option is default"
                )
            )
        _check_bool(out, "radio-group", cp, inner, "required")
    elif t == CHECKBOX_GROUP:
        options = inner.get("options")
        _check_choice_options(out, "checkbox-group", cp, options, low=1)
        n = len(options) if isinstance(options, list) else 0
        lo, hi = inner.get("min_values", 1), inner.get("max_values", n)
        if (
            not isinstance(lo, int)
            or not isinstance(hi, int)
            or isinstance(lo, bool)
            or isinstance(hi, bool)
            or not (0 <= lo <= 10 and 1 <= hi <= 10 and lo <= hi)
            or (n and hi > n)
        ):
            out.append(
                Problem(
                    "checkbox-group", (*cp, "max_values"), "BASE_TYPE_BAD_VALUE", f"min_values={lo} max_values={hi}"
                )
            )
        _check_required_minimum(out, "checkbox-group", cp, inner)
        _check_bool(out, "checkbox-group", cp, inner, "required")
    elif t == CHECKBOX:
        _check_bool(out, "checkbox", cp, inner, "default")
        if "required" in inner:
            out.append(Problem("checkbox", (*cp, "required"), "BASE_TYPE_BAD_VALUE", "A checkbox cannot be required"))
    elif t == FILE_UPLOAD:
        lo, hi = inner.get("min_values", 1), inner.get("max_values", 1)
        if not isinstance(lo, int) or not isinstance(hi, int) or not (0 <= lo <= 10 and 1 <= hi <= 10 and lo <= hi):
            out.append(
                Problem("modal-select", (*cp, "max_values"), "BASE_TYPE_BAD_VALUE", f"min_values={lo} max_values={hi}")
            )
        _check_required_minimum(out, "modal-select", cp, inner)


def _check_bool(out: list[Problem], rule: str, path: Path, comp: JSON, key: str) -> None:
    if key in comp and not isinstance(comp[key], bool):
        out.append(Problem(rule, (*path, key), "BASE_TYPE_BAD_TYPE", "Must be a boolean."))


def _check_required_minimum(out: list[Problem], rule: str, path: Path, comp: JSON) -> None:
    """ "min_values must be either omitted or at least 1 if required is omitted or true"."""
    if comp.get("required", True) is not False and comp.get("min_values", 1) == 0:
        out.append(
            Problem(
                rule,
                (*path, "min_values"),
                "BASE_TYPE_BAD_VALUE",
                "min_values must be at least 1 unless required is false",
            )
        )


def _check_choice_options(out: list[Problem], rule: str, path: Path, options: Any, *, low: int) -> None:
    """The options of a radio group or a checkbox group: ``low``-10 of them, values unique."""
    if not isinstance(options, list) or not low <= len(options) <= 10:
        out.append(_bad_length(rule, (*path, "options"), low, 10))
        return
    values: set[str] = set()
    for j, o in enumerate(options):
        op = (*path, "options", j)
        if not isinstance(o, dict):
            out.append(_not_a_dict(rule, op))
            continue
        _check_len(out, rule, (*op, "label"), o.get("label"), 100, low=1, required=True)
        _check_len(out, rule, (*op, "value"), o.get("value"), 100, low=1, required=True)
        _check_len(out, rule, (*op, "description"), o.get("description"), 100)
        _check_bool(out, rule, op, o, "default")
        if o.get("value") in values:
            out.append(Problem(rule, (*op, "value"), "OPTION_VALUE_DUPLICATED", "Option values must be unique"))
        values.add(str(o.get("value")))


# option types
SUB_COMMAND, SUB_COMMAND_GROUP, OPT_STRING, OPT_INTEGER, OPT_BOOLEAN = 1, 2, 3, 4, 5
OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, OPT_NUMBER, OPT_ATTACHMENT = 6, 7, 8, 9, 10, 11
MAX_SAFE_INTEGER = 2**53 - 1


def _value_fits(option_type: int | None, value: Any) -> bool:
    """Whether a choice value has the type an option of ``option_type`` takes."""
    if option_type == OPT_STRING:
        return isinstance(value, str)
    if option_type == OPT_INTEGER:
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_SAFE_INTEGER
    if option_type == OPT_NUMBER:
        return (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and math.isfinite(value)
            and abs(value) <= 2**53
        )
    return False


def _choice_type_problem(rule: str, path: Path, option_type: int | None, value: Any) -> Problem:
    kind = {OPT_STRING: "string", OPT_INTEGER: "integer", OPT_NUMBER: "number"}.get(option_type or 0, "?")
    return Problem(rule, path, "APPLICATION_COMMAND_OPTION_CHOICE_VALUE_TYPE", f"Value {value!r} is not a {kind}.")


def check_choices(
    choices: Sequence[JSON], path: Path = ("data", "choices"), *, option_type: int | None = None
) -> list[Problem]:
    """Autocomplete results: at most 25, names 1-100, values of the focused option's type (strings up to 100)."""
    out: list[Problem] = []
    if len(choices) > MAX_CHOICES:
        out.append(_too_long("autocomplete-choices", path, MAX_CHOICES))
    for i, ch in enumerate(choices):
        _check_len(out, "autocomplete-choice", (*path, i, "name"), ch.get("name"), 100, low=1, required=True)
        value = ch.get("value")
        if isinstance(value, str):
            _check_len(out, "autocomplete-choice", (*path, i, "value"), value, 100)
        if value is None:
            out.append(_required("autocomplete-choice", (*path, i, "value")))
        elif option_type is not None and not _value_fits(option_type, value):
            out.append(_choice_type_problem("autocomplete-choice", (*path, i, "value"), option_type, value))
    return out


#: command/option names: letters and digits of any script, '-', '_' and "'" (Python's \w covers \p{L}\p{N} and _)
_NAME_RE = re.compile(r"^[-_'\w]{1,32}$")
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
MAX_COMMAND_SIZE = 8000
COMMAND_LIMITS = {1: 100, 2: 15, 3: 15, 4: 1}


def _chat_name_ok(name: Any) -> bool:
    return isinstance(name, str) and bool(_NAME_RE.match(name)) and name == name.lower()


def _check_localizations(out: list[Problem], path: Path, value: Any, check: Any, rule: str) -> list[str]:
    """Validate a ``*_localizations`` dict (keys are locales, values follow the field's rules); its values."""
    if value is None:
        return []
    if not isinstance(value, dict):
        out.append(_not_a_dict(rule, path))
        return []
    for locale, text in value.items():
        if locale not in LOCALES:
            out.append(Problem(rule, (*path, locale), "LOCALE_INVALID", f"Invalid locale {locale!r}"))
        elif text is not None:
            check((*path, locale), text)
    return [str(v) for v in value.values() if v is not None]


def _longest(default: Any, localized: list[str]) -> int:
    return max([len(str(default or ""))] + [len(v) for v in localized])


def _check_name(out: list[Problem], path: Path, name: Any, *, chat: bool, what: str) -> None:
    if chat:
        if not _chat_name_ok(name):
            out.append(
                Problem("command-name", path, "APPLICATION_COMMAND_INVALID_NAME", f"{what} name is invalid: {name!r}")
            )
    elif not isinstance(name, str) or not 1 <= len(name) <= 32:
        out.append(_bad_length("command-name", path, 1, 32))


def _check_description(out: list[Problem], path: Path, value: Any, *, chat: bool) -> None:
    if chat:
        if not isinstance(value, str):
            out.append(_required("command-description", path))
        else:
            _check_len(out, "command-description", path, value, 100, low=1)
    elif value not in (None, ""):
        out.append(
            Problem(
                "command-description",
                path,
                "APPLICATION_COMMAND_INVALID_DESCRIPTION",
                "Must be empty for context menu commands.",
            )
        )


def _check_labels(out: list[Problem], path: Path, obj: JSON, *, chat: bool, what: str) -> int:
    """A command's or an option's name and description with their localizations, checked the same way for both;
    returns their size towards the 8000-character limit (the longest name plus the longest description)."""
    name = obj.get("name")
    _check_name(out, (*path, "name"), name, chat=chat, what=what)
    names = _check_localizations(
        out,
        (*path, "name_localizations"),
        obj.get("name_localizations"),
        lambda p, v: _check_name(out, p, v, chat=chat, what=what),
        "command-name",
    )
    _check_description(out, (*path, "description"), obj.get("description"), chat=chat)
    descriptions = _check_localizations(
        out,
        (*path, "description_localizations"),
        obj.get("description_localizations"),
        lambda p, v: _check_description(out, p, v, chat=chat),
        "command-description",
    )
    return _longest(name, names) + _longest(obj.get("description"), descriptions)


def check_command(cmd: JSON, path: Path = (), *, guild: bool = False) -> list[Problem]:
    """One application command definition, as Discord validates it on create/overwrite."""
    out: list[Problem] = []
    ctype = cmd.get("type", 1)
    if isinstance(ctype, bool) or ctype not in (1, 2, 3, 4) or (guild and ctype == 4):
        out.append(
            Problem("command-definition", (*path, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
        )
        return out
    chat = ctype == 1
    labels_size = _check_labels(out, path, cmd, chat=chat, what="Command")
    perms = cmd.get("default_member_permissions")
    # documented as a string; discord.py 2.7 sends an integer, which Discord accepts as the same bitfield
    if perms is not None and (
        isinstance(perms, bool)
        or not (isinstance(perms, int) or (isinstance(perms, str) and perms.isdigit()))
        or int(perms) < 0
        or int(perms) >> 60
    ):
        out.append(
            Problem(
                "command-permissions",
                (*path, "default_member_permissions"),
                "PERMISSIONS_INVALID",
                f"Invalid permission bitfield: {perms!r}",
            )
        )
    for key, allowed in (("contexts", (0, 1, 2)), ("integration_types", (0, 1))):
        for i, v in enumerate(_optional_list(out, "command-contexts", (*path, key), cmd.get(key)) or []):
            if isinstance(v, bool) or v not in allowed:
                out.append(
                    Problem(
                        "command-contexts",
                        (*path, key, i),
                        "BASE_TYPE_CHOICES",
                        f"Value must be one of {set(allowed)}.",
                    )
                )
    for key in ("nsfw", "dm_permission"):
        if cmd.get(key) is not None and not isinstance(cmd.get(key), bool):
            out.append(Problem("command-definition", (*path, key), "BASE_TYPE_BAD_TYPE", "Must be a boolean."))
    options = cmd.get("options")
    if options and not chat:
        out.append(
            Problem(
                "command-options",
                (*path, "options"),
                "APPLICATION_COMMAND_OPTIONS_INVALID",
                "Only chat input commands have options",
            )
        )
    size = 0
    if chat:
        size = labels_size + _check_options(out, list(options or []), (*path, "options"), depth=0)
        if size > MAX_COMMAND_SIZE:
            out.append(
                Problem(
                    "command-size",
                    path,
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({MAX_COMMAND_SIZE})",
                )
            )
    return out


def _check_options(out: list[Problem], options: list[Any], path: Path, *, depth: int) -> int:
    """Validate an options array at ``depth`` (0: the command's, 1: a subcommand's or group's, 2: a grouped
    subcommand's); returns its size in characters towards the 8000 limit."""
    if len(options) > 25:
        out.append(_too_long("command-options", path, 25))
    size = 0
    names: set[str] = set()
    seen_optional = False
    kinds = [o.get("type") for o in options if isinstance(o, dict)]
    subs = [k for k in kinds if k in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if subs and len(subs) != len(kinds):
        out.append(
            Problem(
                "command-nesting",
                path,
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Sub-command and sub-command group option types are mutually exclusive to all other types",
            )
        )
    for i, o in enumerate(options):
        op = (*path, i)
        if not isinstance(o, dict):
            out.append(_not_a_dict("command-options", op))
            continue
        raw_type = o.get("type")
        if isinstance(raw_type, bool) or not isinstance(raw_type, int) or raw_type not in range(1, 12):
            out.append(Problem("command-options", (*op, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1..11}."))
            continue
        t: int = raw_type
        name = o.get("name")
        size += _check_labels(out, op, o, chat=True, what="Option")
        if name in names:
            out.append(
                Problem(
                    "command-options",
                    (*op, "name"),
                    "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    f"Duplicate option {name!r}",
                )
            )
        names.add(str(name))
        nested = o.get("options")
        if t in (SUB_COMMAND, SUB_COMMAND_GROUP):
            # groups only at the top level and holding subcommands only; subcommands never hold subcommands
            bad_place = (t == SUB_COMMAND_GROUP and depth != 0) or (t == SUB_COMMAND and depth > 1)
            inner = list(nested or [])
            inner_kinds = {x.get("type") for x in inner if isinstance(x, dict)}
            bad_inner = (t == SUB_COMMAND_GROUP and inner_kinds - {SUB_COMMAND}) or (
                t == SUB_COMMAND and inner_kinds & {SUB_COMMAND, SUB_COMMAND_GROUP}
            )
            if bad_place or bad_inner:
                out.append(
                    Problem(
                        "command-nesting",
                        (*op, "type"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Subcommand groups hold subcommands; subcommands hold no subcommands; one level of groups",
                    )
                )
            if o.get("required") is not None:
                out.append(_invalid_field(op, "required", t))
            if t == SUB_COMMAND_GROUP and not inner:
                out.append(_bad_length("command-nesting", (*op, "options"), 1, 25))
            size += _check_options(out, inner, (*op, "options"), depth=depth + 1)
            continue
        if nested:
            out.append(_invalid_field(op, "options", t))
        size += _check_leaf_option(out, op, o, t)
        if o.get("required"):
            if seen_optional:
                out.append(
                    Problem(
                        "command-options",
                        (*op, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
    _check_localized_names(out, path, [(i, o) for i, o in enumerate(options) if isinstance(o, dict)], "option")
    return size


def _check_localized_names(out: list[Problem], path: Path, objs: list[tuple[int, JSON]], what: str) -> None:
    """Names must stay distinct in every language: a localized name that equals another's (localized or default)
    name there is refused, as Discord refuses duplicate names."""
    locales = {loc for _, o in objs if isinstance(o.get("name_localizations"), dict) for loc in o["name_localizations"]}
    for locale in sorted(str(loc) for loc in locales):
        seen: dict[str, int] = {}
        for i, o in objs:
            if not isinstance(o.get("name_localizations") or {}, dict):
                continue
            name = (o.get("name_localizations") or {}).get(locale) or o.get("name")
            if name in seen and seen[name] != i:
                out.append(
                    Problem(
                        "command-localized-names",
                        (*path, i, "name_localizations", locale),
                        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                        f"{what} name {name!r} is used twice in {locale}",
                    )
                )
            seen.setdefault(str(name), i)


def _invalid_field(path: Path, key: str, option_type: int) -> Problem:
    return Problem(
        "command-options",
        (*path, key),
        "APPLICATION_COMMAND_OPTION_INVALID_FIELD",
        f"{key} is not valid for options of type {option_type}",
    )


def _check_leaf_option(out: list[Problem], op: Path, o: JSON, t: int) -> int:
    """A value option: fields valid for its type, bounds, choices; returns the choices' size."""
    size = 0
    numeric = t in (OPT_INTEGER, OPT_NUMBER)
    for key, valid in (
        ("choices", t in (OPT_STRING, OPT_INTEGER, OPT_NUMBER)),
        ("autocomplete", t in (OPT_STRING, OPT_INTEGER, OPT_NUMBER)),
        ("min_value", numeric),
        ("max_value", numeric),
        ("min_length", t == OPT_STRING),
        ("max_length", t == OPT_STRING),
        ("channel_types", t == OPT_CHANNEL),
    ):
        value = o.get(key)
        if value is not None and value is not False and value != [] and not valid:
            out.append(_invalid_field(op, key, t))
    if numeric:
        lo, hi = o.get("min_value"), o.get("max_value")
        for key, v in (("min_value", lo), ("max_value", hi)):
            if v is not None and not _value_fits(t, v):
                out.append(_choice_type_problem("command-options", (*op, key), t, v))
        if lo is not None and hi is not None and _value_fits(t, lo) and _value_fits(t, hi) and lo > hi:
            out.append(
                Problem("command-options", (*op, "max_value"), "NUMBER_TYPE_MIN", "max_value is below min_value.")
            )
    if t == OPT_STRING:
        lo, hi = o.get("min_length"), o.get("max_length")
        if lo is not None and (isinstance(lo, bool) or not isinstance(lo, int) or not 0 <= lo <= 6000):
            out.append(Problem("command-options", (*op, "min_length"), "NUMBER_TYPE_MAX", "min_length is 0-6000."))
        if hi is not None and (isinstance(hi, bool) or not isinstance(hi, int) or not 1 <= hi <= 6000):
            out.append(Problem("command-options", (*op, "max_length"), "NUMBER_TYPE_MAX", "max_length is 1-6000."))
        if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
            out.append(
                Problem("command-options", (*op, "max_length"), "NUMBER_TYPE_MIN", "max_length is below min_length.")
            )
    choices = o.get("choices") or []
    if not isinstance(choices, list) or t not in (OPT_STRING, OPT_INTEGER, OPT_NUMBER):
        choices = []  # (choices on another option type were refused above)
    if len(choices) > MAX_CHOICES:
        out.append(_too_long("command-choices", (*op, "choices"), MAX_CHOICES))
    if choices and o.get("autocomplete"):
        out.append(
            Problem(
                "command-options",
                (*op, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_CHOICES_AND_AUTOCOMPLETE",
                "Autocomplete and choices are exclusive",
            )
        )
    for j, ch in enumerate(choices):
        cp = (*op, "choices", j)
        if not isinstance(ch, dict):
            out.append(_not_a_dict("command-choices", cp))
            continue
        _check_len(out, "command-choices", (*cp, "name"), ch.get("name"), 100, low=1, required=True)
        localized = _check_localizations(
            out,
            (*cp, "name_localizations"),
            ch.get("name_localizations"),
            lambda p, v: _check_len(out, "command-choices", p, v, 100, low=1),
            "command-choices",
        )
        value = ch.get("value")
        if value is None:
            out.append(_required("command-choices", (*cp, "value")))
        elif not _value_fits(t, value):
            out.append(_choice_type_problem("command-choices", (*cp, "value"), t, value))
        elif isinstance(value, str):
            _check_len(out, "command-choices", (*cp, "value"), value, 100, low=1)
        size += _longest(ch.get("name"), localized) + len(str(value if value is not None else ""))
    return size


def check_command_set(commands: Sequence[JSON], *, guild: bool = False) -> list[Problem]:
    """A bulk overwrite: every command, at most 100 chat input / 15 user / 15 message commands, names unique per
    type."""
    out: list[Problem] = []
    for i, c in enumerate(commands):
        if not isinstance(c, dict):
            out.append(_not_a_dict("command-definition", (i,)))
            continue
        out += check_command(c, (i,), guild=guild)
    valid = [c for c in commands if isinstance(c, dict)]
    for ctype, limit in COMMAND_LIMITS.items():
        n = sum(1 for c in valid if c.get("type", 1) == ctype)
        if n > limit:
            out.append(
                Problem(
                    "command-count",
                    (),
                    "APPLICATION_COMMANDS_TOO_MANY",
                    f"Maximum number of application commands of type {ctype} reached ({limit})",
                )
            )
    for ctype in COMMAND_LIMITS:
        same_type = [(i, c) for i, c in enumerate(commands) if isinstance(c, dict) and c.get("type", 1) == ctype]
        if any(c.get("name_localizations") for _, c in same_type):
            _check_localized_names(out, (), same_type, "command")
    seen: set[tuple[str, int]] = set()
    for i, c in enumerate(commands):
        if not isinstance(c, dict):
            continue
        key = (str(c.get("name")), int(c.get("type", 1)) if isinstance(c.get("type", 1), int) else 0)
        if key in seen:
            out.append(
                Problem(
                    "command-count",
                    (i, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique ({key[0]!r})",
                )
            )
        seen.add(key)
    return out
