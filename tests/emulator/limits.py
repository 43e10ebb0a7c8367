"""Discord's documented limits, as named rules.

Every check returns :class:`Problem` objects; each names a rule id from :data:`RULES` (the id that shows up in
``Emulator.violations`` and that ``Emulator.expect_violation`` takes), the offending field path, and Discord's own
error code/message. :func:`form_error` turns problems into the ``400 / 50035 Invalid Form Body`` response whose
``errors`` object names the fields, exactly as Discord nests it.
"""

from __future__ import annotations

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
    "attachment-count": "at most 10 attachments per message",
    "attachment-size": "each uploaded file is within the attachment size limit",
    # components
    "action-rows": "at most 5 action rows per message",
    "components-total": "at most 25 components per message (40 with components v2)",
    "component-type": "component of a type not allowed at that place",
    "row-empty": "an action row holds 1-5 components",
    "row-buttons": "at most 5 buttons per action row",
    "row-select": "a select menu is alone in its action row",
    "button-label": "button label is at most 80 characters; a button has a label or an emoji",
    "button-custom-id": "non-link buttons have a custom_id, link buttons a url and no custom_id",
    "custom-id-length": "custom_id is 1-100 characters",
    "custom-id-unique": "custom_ids are unique within a message or modal",
    "select-options": "a string select has 1-25 options",
    "select-option-length": "select option label/value/description are 1-100 characters",
    "select-option-unique": "select option values are unique",
    "select-placeholder": "select placeholder is at most 150 characters",
    "select-values": "0 <= min_values <= max_values <= 25 (and <= number of options)",
    "components-v2-content": "messages flagged IS_COMPONENTS_V2 cannot use content or embeds",
    # modals
    "modal-title": "modal title is 1-45 characters",
    "modal-components": "a modal has 1-5 components",
    "text-input-label": "text input label is 1-45 characters",
    "text-input-length": "text input min_length/max_length within 0-4000 / 1-4000",
    "text-input-placeholder": "text input placeholder is at most 100 characters",
    "text-input-value": "text input value is at most 4000 characters",
    # autocomplete
    "autocomplete-choices": "at most 25 autocomplete choices",
    "autocomplete-choice": "choice name is 1-100 characters, a string value at most 100",
    # commands
    "command-definition": "application command names/descriptions/options follow Discord's rules",
    # interactions
    "interaction-deadline": "the initial interaction response is sent within 3 seconds",
    "interaction-acknowledged": "an interaction is responded to at most once",
    "interaction-response-type": "the response type is valid for the interaction type",
    "followup-before-response": "follow-ups / edits of the original response only after the initial response",
    "interaction-token-expired": "interaction tokens are valid for 15 minutes",
    # channels, threads
    "thread-name": "thread name is 1-100 characters",
    "thread-archived": "no messages in an archived and locked thread",
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

IS_COMPONENTS_V2 = 1 << 15

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
INTERACTIVE_TYPES = frozenset({BUTTON, TEXT_INPUT} | SELECT_TYPES)
LABEL = 18
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


def embed_text_length(embed: JSON) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        total += len(f.get("name") or "") + len(f.get("value") or "")
    return total


def check_embeds(embeds: Sequence[JSON], path: Path = ("embeds",)) -> list[Problem]:
    out: list[Problem] = []
    if len(embeds) > MAX_EMBEDS:
        out.append(_too_long("embed-count", path, MAX_EMBEDS))
    for i, e in enumerate(embeds):
        p = (*path, i)
        _check_len(out, "embed-title", (*p, "title"), e.get("title"), 256)
        _check_len(out, "embed-description", (*p, "description"), e.get("description"), 4096)
        _check_len(out, "embed-footer", (*p, "footer", "text"), (e.get("footer") or {}).get("text"), 2048)
        _check_len(out, "embed-author", (*p, "author", "name"), (e.get("author") or {}).get("name"), 256)
        fields = e.get("fields") or []
        if len(fields) > 25:
            out.append(_too_long("embed-fields", (*p, "fields"), 25))
        for j, f in enumerate(fields):
            fp = (*p, "fields", j)
            _check_len(out, "embed-field-name", (*fp, "name"), f.get("name"), 256, low=1, required=True)
            _check_len(out, "embed-field-value", (*fp, "value"), f.get("value"), 1024, low=1, required=True)
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


def _check_button(out: list[Problem], path: Path, b: JSON) -> None:
    style = b.get("style", 1)
    _check_len(out, "button-label", (*path, "label"), b.get("label"), MAX_LABEL)
    if style == LINK_STYLE:
        if not b.get("url"):
            out.append(_required("button-custom-id", (*path, "url")))
        if b.get("custom_id") is not None:
            out.append(
                Problem(
                    "button-custom-id",
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_LINK_CUSTOM_ID",
                    "Link buttons cannot have a custom_id",
                )
            )
    elif style != PREMIUM_STYLE and not b.get("custom_id"):
        out.append(_required("button-custom-id", (*path, "custom_id")))
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
    if not (0 <= lo <= 25 and 1 <= hi <= 25 and lo <= hi) or (n_options and hi > n_options):
        out.append(
            Problem(
                "select-values",
                (*path, "max_values"),
                "BASE_TYPE_BAD_VALUE",
                f"min_values={lo} max_values={hi} invalid",
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


def check_components(components: Sequence[JSON], *, v2: bool = False, path: Path = ("components",)) -> list[Problem]:
    out: list[Problem] = []
    seen: dict[str, Path] = {}
    everything = list(iter_components(components, path))
    for p, c in everything:
        _check_custom_id(out, p, c, seen)
    if not v2:
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
    for p, c in everything:
        if c.get("type") == ACTION_ROW:
            _check_row(out, p, c)
        elif c.get("type") == BUTTON and p[-1] == "accessory":
            _check_button(out, p, c)
    return out


# --- whole messages ----------------------------------------------------------------------------------------------


def check_message(payload: JSON, *, n_files: int = 0, existing_attachments: int = 0) -> list[Problem]:
    """Field limits of a message create/edit body (or the ``data`` of an interaction response)."""
    out: list[Problem] = []
    content = payload.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        out.append(_too_long("content-length", ("content",), MAX_CONTENT))
    embeds = payload.get("embeds") or []
    out += check_embeds(embeds)
    flags = int(payload.get("flags") or 0)
    v2 = bool(flags & IS_COMPONENTS_V2)
    if v2 and (content or embeds):
        out.append(
            Problem(
                "components-v2-content",
                ("content" if content else "embeds",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        )
    out += check_components(payload.get("components") or [], v2=v2)
    if n_files + existing_attachments > MAX_ATTACHMENTS:
        out.append(_too_long("attachment-count", ("attachments",), MAX_ATTACHMENTS))
    return out


def is_empty_message(content: str | None, *, embeds: int, attachments: int, components: int, poll: bool) -> bool:
    return not (content or "").strip() and not embeds and not attachments and not components and not poll


# --- modals, autocomplete, commands --------------------------------------------------------------------------------


def _check_text_input(out: list[Problem], path: Path, t: JSON) -> None:
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
    out: list[Problem] = []
    _check_len(out, "modal-title", (*path, "title"), data.get("title"), 45, low=1, required=True)
    _check_len(
        out, "custom-id-length", (*path, "custom_id"), data.get("custom_id"), MAX_CUSTOM_ID, low=1, required=True
    )
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        out.append(_bad_length("modal-components", (*path, "components"), 1, 5))
    seen: dict[str, Path] = {}
    for p, c in iter_components(comps, (*path, "components")):
        _check_custom_id(out, p, c, seen)
    for i, c in enumerate(comps):
        cp = (*path, "components", i)
        if c.get("type") == ACTION_ROW:
            _check_row(out, cp, c, in_modal=True)
        elif c.get("type") == LABEL:
            _check_len(out, "text-input-label", (*cp, "label"), c.get("label"), 45, low=1, required=True)
            inner = c.get("component") or {}
            if inner.get("type") == TEXT_INPUT:
                _check_text_input(out, (*cp, "component"), inner)
            elif inner.get("type") in SELECT_TYPES:
                _check_select(out, (*cp, "component"), inner)
    return out


def check_choices(choices: Sequence[JSON], path: Path = ("data", "choices")) -> list[Problem]:
    out: list[Problem] = []
    if len(choices) > MAX_CHOICES:
        out.append(_too_long("autocomplete-choices", path, MAX_CHOICES))
    for i, ch in enumerate(choices):
        _check_len(out, "autocomplete-choice", (*path, i, "name"), ch.get("name"), 100, low=1, required=True)
        if isinstance(ch.get("value"), str):
            _check_len(out, "autocomplete-choice", (*path, i, "value"), ch["value"], 100)
    return out


_NAME_RE = re.compile(r"^[-_'\w]{1,32}$")


def check_command(cmd: JSON, path: Path = ()) -> list[Problem]:
    """Name/description/option rules of one application command definition (chat input commands)."""
    out: list[Problem] = []
    rule = "command-definition"
    ctype = cmd.get("type", 1)
    name = cmd.get("name") or ""
    if ctype == 1:
        if not _NAME_RE.match(name) or name != name.lower():
            out.append(
                Problem(rule, (*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
            )
        _check_len(out, rule, (*path, "description"), cmd.get("description"), 100, low=1, required=True)
    else:
        _check_len(out, rule, (*path, "name"), name, 32, low=1)
    out += _check_options(cmd.get("options") or [], (*path, "options"))
    return out


def _check_options(options: Sequence[JSON], path: Path) -> list[Problem]:
    out: list[Problem] = []
    rule = "command-definition"
    if len(options) > 25:
        out.append(_too_long(rule, path, 25))
    names: set[str] = set()
    seen_optional = False
    for i, o in enumerate(options):
        op = (*path, i)
        name = o.get("name") or ""
        if not _NAME_RE.match(name) or name != name.lower():
            out.append(
                Problem(rule, (*op, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Option name is invalid: {name!r}")
            )
        if name in names:
            out.append(
                Problem(
                    rule, (*op, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", f"Duplicate option {name!r}"
                )
            )
        names.add(name)
        _check_len(out, rule, (*op, "description"), o.get("description"), 100, low=1, required=True)
        if o.get("type") in (1, 2):
            out += _check_options(o.get("options") or [], (*op, "options"))
            continue
        if o.get("required"):
            if seen_optional:
                out.append(
                    Problem(
                        rule,
                        (*op, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        choices = o.get("choices") or []
        if len(choices) > 25:
            out.append(_too_long(rule, (*op, "choices"), 25))
        if choices and o.get("autocomplete"):
            out.append(
                Problem(
                    rule,
                    (*op, "autocomplete"),
                    "APPLICATION_COMMAND_OPTION_CHOICES_AND_AUTOCOMPLETE",
                    "Autocomplete and choices are exclusive",
                )
            )
    return out
