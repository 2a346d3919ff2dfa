"""Claude Code as the pinned client really behaves: the one place its facts live.

Each fact names the client version it was verified on and the oracle case that shows it: the
real client run offline on a crafted tree, its first model requests captured (the cases of
`tools/oracle/`, and the shared harness's `cl01…`/`cl02…`). Rules, `preview`, `manifest`, the
hook and the API read these, none keeps a copy. Pure text and names in, facts out: nothing here
runs git or a command; the only files read are the `.git` marker's kind, the user's own
`~/.claude/settings.json` and `~/.claude.json`, and a project's `.claude/settings*.json` (never
through a link to a sensitive place).

Two sections, memory (`MEMORY.md`, frontmatter, auto memory) and instruction files (`CLAUDE.md`,
`AGENTS.md`, imports, size); each fact is a constant, and `VERIFIED` maps each to the oracle cases
that show it on `VERSION` (none: read in the client's code of that version, no offline request
shows it yet). `AGENT` is its profile (agents/base.py), `ClaudeSession` its instruction-file walk.
"""

from __future__ import annotations

import os

from mnemolint.agents.base import (
    CLIENT,
    CONTEXT,
    DROPS_FOLDER,
    FILESYSTEM_ROOT,
    ON_TOUCH,
    SESSION,
    SKIPS_WHOLE,
    Agent,
    Cut,
    Imports,
    Instructions,
    Memory,
    RulesDirs,
    Session,
    Verified,
)
from mnemolint.parse.textutil import js_lstrip_count, js_trim, utf16_len, utf16_prefix_index
from mnemolint.patterns import Lazy

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from mnemolint.agents.base import Probe

VERSION = "2.1.332"


# ---------------------------------------------------------------------------------------------
# Memory: where auto memory lives, what of MEMORY.md loads, how frontmatter is read.
# (Instruction files, imports and parents are a separate section.)
# ---------------------------------------------------------------------------------------------

# `MEMORY.md`: the trimmed text (frontmatter and block-level HTML comments removed first) is cut
# to its first 200 lines, then at the last newline at or before 25,000 UTF-16 units.
INDEX_MAX_LINES = 200
INDEX_MAX_CHARS = 25_000
# The warning quotes the first line the cut drops, trimmed, shortened to 80 UTF-16 units at a
# word boundary with `…` (cl30a…cl30d); a cut inside line 1 says how much of it loaded (cl30c).
QUOTE_MAX_CHARS = 80
CUT_LINE_ONE = "everything after the first {kept} characters of line 1 was cut off"
WARNING_ADVICE = "Keep index entries to one line under ~200 chars; move detail into topic files."
# Frontmatter of MEMORY.md is removed before the count, as is that of every file it loads.
STRIPS_INDEX_FRONTMATTER = True

# The memory scan (what the model is shown to choose memories from, and what the extraction step
# is seeded with): each topic's first 30 lines, at most 64 KiB, read as frontmatter; `description`
# as written, `type` only one of the four; newest first, at most 200.
# (The request that shows them, the relevant-memory selection, is behind a server-side flag that
# an offline run does not turn on: cl31a and cl31c record that no such request is sent.)
SCAN_LINES = 30
SCAN_BYTES = 65_536
SCAN_MAX_ENTRIES = 200

# Frontmatter: read with Bun's YAML parser; when that fails, values holding a YAML indicator or
# `: ` on top-level `key: value` lines are double-quoted, leading tabs become two spaces each, and
# the block is read again. Still failing: no fields. A rule's `paths: **/*.ts` is read so (the rule
# loads when a `.ts` file is read), an indented `  - **/*.ts` is not quoted, nor is a line ending
# in CR: such a rule has no `paths` and loads at start (cl32a).
RETRIES_FRONTMATTER = True
RETRY_KEEPS_CR = True
# The block ends at the first `---` after the opening line, even inside a value (cl32c).
BLOCK_ENDS_AT_ANY_DASHES = True
# Of duplicate keys the last one wins (Bun's parser); mnemolint's strict reading reports them.
DUPLICATE_KEY_WINS = "last"

# Auto memory: `<config dir>/projects/<slug>/memory/`, the config dir `~/.claude` or
# `CLAUDE_CONFIG_DIR`; the slug is the project key (the git root: the nearest folder at or above
# the session's holding a `.git` directory or file, else the session folder) with every UTF-16
# unit outside [A-Za-z0-9] replaced by `-`, and past 200 units cut to 200 and followed by `-` and
# the key's 32-bit string hash in base 36.
SLUG_MAX = 200
SLUG_KEY = "git root, else the session folder"
# On unless `CLAUDE_CODE_DISABLE_AUTO_MEMORY` is true (`1`, `true`, `yes`, `on`) or the settings
# say `autoMemoryEnabled: false`; a false value of the variable (`0`, `false`, …) forces it on.
DISABLE_AUTO_MEMORY_ENV = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
AUTO_MEMORY_SETTING = "autoMemoryEnabled"
PROJECT_SETTING_COUNTS = True
FALSE_ENV_FORCES_ON = True
AUTO_MEMORY_DEFAULT = True

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def project_slug(key: str) -> str:
    """The folder name under `projects/` for project key `key` (an absolute path)."""
    units = key.encode("utf-16-le", "surrogatepass")
    codes = [int.from_bytes(units[at : at + 2], "little") for at in range(0, len(units), 2)]
    slug = "".join(chr(code) if chr(code).isascii() and chr(code).isalnum() else "-" for code in codes)
    limit = SLUG_MAX
    if len(slug) <= limit:
        return slug
    value = 0
    for code in codes:  # Java's String.hashCode, in 32-bit two's complement as JavaScript's `| 0`
        value = (value * 31 + code) & 0xFFFFFFFF
    signed = value - (1 << 32) if value & 0x80000000 else value
    return f"{slug[:limit]}-{_base36(abs(signed))}"


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, digit = divmod(number, 36)
        out = digits[digit] + out
        if not number:
            return out


def project_key(session_dir: str) -> str:
    """The project key auto memory is kept under for a session in `session_dir`."""
    from mnemolint.paths import repository

    return repository(os.path.abspath(session_dir))


def config_dir(environ: Mapping[str, str] | None = None) -> str:
    """`CLAUDE_CONFIG_DIR`, else `~/.claude`."""
    env = os.environ if environ is None else environ
    return env.get("CLAUDE_CONFIG_DIR") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".claude")


def auto_memory_dir(session_dir: str, environ: Mapping[str, str] | None = None) -> str:
    """Where Claude Code keeps the auto memory of a session started in `session_dir` (it may not
    exist). An `autoMemoryDirectory` in a repository's own settings is not followed here: a
    cloned repository must not be able to point mnemolint at another folder."""
    user = _user_settings(environ).get("autoMemoryDirectory")
    if isinstance(user, str) and user.strip():
        chosen = os.path.expanduser(user.strip()) if user.startswith("~/") else user.strip()
        if os.path.isabs(chosen):
            return os.path.normpath(chosen)
    return os.path.join(config_dir(environ), "projects", project_slug(project_key(session_dir)), "memory")


def auto_memory_off(session_dir: str, environ: Mapping[str, str] | None = None) -> str | None:
    """Why auto memory is off for a session in `session_dir`, or None when it is on."""
    root = project_key(session_dir)
    layers = _settings_layers(root, environ)
    env = dict(os.environ if environ is None else environ)
    for _, settings in reversed(layers):  # a settings file's `env` is applied over the process's (cl34a)
        values = settings.get("env")
        env.update(
            {key: value for key, value in values.items() if isinstance(value, str)} if isinstance(values, dict) else {}
        )
    switch = env.get(DISABLE_AUTO_MEMORY_ENV, "").strip().lower()
    if switch in _TRUE:
        return f"`{DISABLE_AUTO_MEMORY_ENV}={env[DISABLE_AUTO_MEMORY_ENV]}` turns it off"
    if switch in _FALSE:
        return None  # forced on, whatever the settings say
    if env.get("CLAUDE_CODE_SIMPLE"):
        return "`CLAUDE_CODE_SIMPLE` turns it off"
    for where, settings in layers:
        enabled = settings.get(AUTO_MEMORY_SETTING)
        if isinstance(enabled, bool):
            return None if enabled else f"`{AUTO_MEMORY_SETTING}: false` in {where} turns it off"
    return None if AUTO_MEMORY_DEFAULT else "it is off by default"


def _settings_layers(root: str, environ: Mapping[str, str] | None) -> list[tuple[str, dict]]:
    """The settings files that decide for a project, the one that wins first (cl34d: the project's)."""
    return [
        (".claude/settings.local.json", _json(os.path.join(root, ".claude", "settings.local.json"))),
        (".claude/settings.json", _json(os.path.join(root, ".claude", "settings.json"))),
        ("~/.claude/settings.json", _user_settings(environ)),
    ]


def _user_settings(environ: Mapping[str, str] | None) -> dict:
    return _json(os.path.join(config_dir(environ), "settings.json"))


def external_imports_approved(session_dir: str, environ: Mapping[str, str] | None = None) -> bool:
    """Whether the user approved `@imports` from outside the session folder for this project:
    `hasClaudeMdExternalIncludesApproved` in its entry of the user's `~/.claude.json` (keyed by the
    session folder or the project key). Only then does the client follow a parent `CLAUDE.md`'s
    imports and `@~/…` ones (cl2l against cl2m, cl03 against cl03c)."""
    environ = os.environ if environ is None else environ
    base = environ.get("CLAUDE_CONFIG_DIR") or environ.get("HOME") or os.path.expanduser("~")
    projects = _json(os.path.join(base, ".claude.json"), 16 << 20).get("projects")
    if not isinstance(projects, dict):
        return False
    folder = os.path.abspath(session_dir)
    for key in (folder, project_key(folder)):
        entry = projects.get(key)
        if isinstance(entry, dict) and entry.get(EXTERNAL_APPROVAL) is True:
            return True
    return False


def _json(path: str, limit: int = 1 << 20) -> dict:
    """A small settings file's object, {} when it is missing, not a regular file, too large or bad,
    or reached through a link to a sensitive place (a linked `.claude` folder too: `paths.dangerous_link`,
    asked by every read). The file itself is opened without following a link or blocking."""
    import json
    import stat

    from mnemolint.paths import dangerous_link

    if dangerous_link(path):
        return {}
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb", buffering=0) as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
                return {}
            data = json.loads(handle.read(limit + 1).decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def index_warning(cut: Cut) -> tuple[str, str]:
    """The line Claude Code quotes when it cuts `MEMORY.md` (the line after the cut, trimmed,
    blank or not; none for a cut inside line 1) and the note it appends."""
    lines, reason = cut.lines, cut.reason(kilobytes(cut.chars), kilobytes(cut.max_chars))
    quoted = "" if cut.in_line else js_trim(cut.dropped[1])
    if cut.in_line:
        what = CUT_LINE_ONE.format(kept=cut.kept_units)
    else:
        kept = cut.loaded_lines
        shown = f' ("{shorten_at_word(quoted, QUOTE_MAX_CHARS)}")' if quoted else ""
        what = f"{lines - kept} of {lines} lines were cut off, starting at line {kept + 1}{shown}"
    return quoted, f"> WARNING: MEMORY.md is {reason}. Only part of it was loaded: {what}. {WARNING_ADVICE}"


def kilobytes(size: int) -> str:
    """Claude Code's file size: 1024-based, one decimal rounded half up as `toFixed` does
    (the value is exact in binary), a trailing `.0` dropped; `N bytes` under 1 KB."""
    if size < 1024:
        return f"{size} bytes"
    from decimal import ROUND_HALF_UP, Decimal

    value, unit = Decimal(size) / 1024, "KB"
    for larger in ("MB", "GB"):
        if value < 1024:
            break
        value, unit = value / 1024, larger
    shown = str(value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)).removesuffix(".0")
    return f"{shown}{unit}"


def shorten_at_word(text: str, limit: int) -> str:
    """Claude Code's shortening of a quoted line: kept whole up to `limit` UTF-16 units, else its
    first `limit - 1` units (no half of a pair) cut back to the last white space when that keeps
    more than half, then `…`."""
    if utf16_len(text) <= limit:
        return text
    head = text[: utf16_prefix_index(text, limit - 1)]
    space = next((at for at in range(len(head) - 1, -1, -1) if not js_trim(head[at])), -1)
    words = "" if space == -1 else _js_trim_end(head[:space])
    return f"{words if utf16_len(words) > limit / 2 else _js_trim_end(head)}\u2026"


def _js_trim_end(text: str) -> str:
    return text[: len(text) - js_lstrip_count(text[::-1])]


# --- What it counts and sends of a file: frontmatter and block-level HTML comments removed -----

_COMMENT_START = Lazy(r"( {0,3})<!--")
_COMMENT_SPAN = Lazy(r"<!--[\s\S]*?-->")
_FENCE = Lazy(r" {0,3}(`{3,}|~{3,})")
_LIST_ITEM = Lazy(r" {0,3}(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)")


def counted(text: str) -> str:
    """A file as Claude Code keeps it before it counts or sends it (`MEMORY.md`, an instruction
    file): without the frontmatter as it splits it (up to the first `---`, cl32c) and without the
    block-level HTML comments."""
    return strip_block_comments(split_frontmatter(text)[1])


def strip_block_comments(text: str) -> str:
    """Claude Code's `stripHtmlCommentsFromTokens`: every top-level HTML block that starts with
    `<!--` and holds a `-->` loses its comment spans (and, being a marked `html` token, the
    newlines after it); what is left on its lines stays when it is not blank. An unclosed `<!--`,
    a comment inside a paragraph line, a fence or a list item, stays. marked normalises line
    endings to `\\n` when it lexes, which happens only when there is a comment."""
    if "<!--" not in text:
        return text
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    fence: str | None = None
    in_list = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if fence is not None:
            fence = None if line.strip().startswith(fence) else fence
            out.append(line)
            index += 1
            continue
        opened = _FENCE.match(line)
        start = _COMMENT_START.match(line)
        if opened:
            fence = opened.group(1)
        elif start and not (in_list and start.group(1)):
            end = _block_end(lines, index, start.end())
            if end is not None:
                after = end + 1
                while after < len(lines) - 1 and lines[after] == "":
                    after += 1  # the token's raw takes the newlines after the block
                block = "\n".join(lines[index:after]) + ("\n" if after < len(lines) else "")
                residue = _COMMENT_SPAN.sub("", block)
                if residue.strip():
                    out.extend(residue.split("\n")[:-1] if residue.endswith("\n") else residue.split("\n"))
                index = after
                continue
        if line.strip():
            in_list = bool(_LIST_ITEM.match(line)) or (in_list and line[:1] in " \t")
        out.append(line)
        index += 1
    return "\n".join(out)


def _block_end(lines: list[str], index: int, column: int) -> int | None:
    """The line holding the `-->` that closes a comment opened at `column` of line `index`."""
    if "-->" in lines[index][column:]:
        return index
    return next((at for at in range(index + 1, len(lines)) if "-->" in lines[at]), None)


# --- Frontmatter ------------------------------------------------------------------------------

_KEY = Lazy(r"[a-zA-Z_-]+:")
_INDICATOR = Lazy(r"[{}\[\]*&#!|>%@`]|: ")
_LEADING_TABS = Lazy(r"(?:^|(?<=[\n\r\u2028\u2029]))\t+")
_LINE_BREAKS = ("\r", "\u2028", "\u2029")  # what a JavaScript `.` never matches


def split_frontmatter(text: str) -> tuple[str | None, str]:
    """(block, body) as Claude Code splits a file: a BOM dropped, an opening `---` whose white
    space holds a newline, the block up to the first `---` after it (anywhere, even inside a
    value), the body after that `---` and all white space following it. No block: (None, text)."""
    stripped = text[1:] if text.startswith("\ufeff") else text
    if not stripped.startswith("---") or stripped.find("---", 3) < 0:
        return None, text
    space_end = 3 + js_lstrip_count(stripped[3:])
    newline = stripped.rfind("\n", 3, space_end)
    close = stripped.find("---", newline + 1) if newline >= 0 else -1
    if close < 0:
        return None, text
    after = close + 3
    return stripped[newline + 1 : close], stripped[after + js_lstrip_count(stripped[after:]) :]


def requote(block: str, is_list: Any) -> str:
    """The block as Claude Code rewrites it for its second try: on each top-level `key: value`
    line (key of letters, `_` and `-`) whose value is not quoted at both ends, is not a flow list
    (`is_list(value)`), and holds one of ``{}[]*&#!|>%@` `` or `: `, the value (trailing spaces
    too) is double-quoted with `\\` and `"` escaped; then each run of leading tabs becomes two
    spaces per tab. Linear in the block: no pattern here backtracks over a line."""
    out = []
    for line in block.split("\n"):
        key = _KEY.match(line)
        rest = line[key.end() :] if key else ""
        lead = js_lstrip_count(rest)
        value = rest[lead:]
        if (
            key
            and lead
            and value
            and not any(mark in value for mark in _LINE_BREAKS)
            and not (value[0] == value[-1] and value[0] in "\"'")
            and not (value[0] == "[" and value[-1] == "]" and is_list(value))
            and _INDICATOR.search(value)
        ):
            escaped = value.replace("\\", "\\\\").replace('"', '\\"')
            line = f'{key.group()[:-1]}: "{escaped}"'
        out.append(line)
    return _LEADING_TABS.sub(lambda tabs: "  " * len(tabs.group()), "\n".join(out))


def scan_head(text: str) -> str:
    """What the memory scan reads of a topic: its first 30 lines (CR before LF dropped), stopping
    before the line that would take it past 64 KiB of UTF-8."""
    kept: list[str] = []
    size = 0
    text = text[1:] if text.startswith("\ufeff") else text
    for line in text.split("\n", SCAN_LINES)[:SCAN_LINES]:
        line = line[:-1] if line.endswith("\r") else line
        size += len(line.encode("utf-8", "surrogatepass")) + (1 if kept else 0)
        if size > SCAN_BYTES:
            break
        kept.append(line)
    return "\n".join(kept)


YAML = "yaml"  # read as it is
RETRIED = "retried"  # read only once its values were quoted
FAILED = "failed"  # no fields: not YAML even then, or not a mapping


def read_frontmatter(block: str, max_depth: int) -> tuple[dict, str]:
    """The fields Claude Code takes from a frontmatter block, and how it got them (YAML, RETRIED,
    FAILED). mnemolint's YAML 1.2 reading stands in for Bun's parser; an alias with no anchor in
    the block fails there as here, and so is retried too."""
    from mnemolint.parse import frontmatter as fm

    first = fm.parse_block(block, max_depth, last_wins=True)
    if first.status == fm.OK:
        return first.data or {}, YAML
    unresolved = first.status == fm.TOO_COMPLEX and first.error.startswith("alias") and "&" not in block
    if first.status == fm.INVALID or unresolved:
        rewritten = requote(block, lambda value: _is_list(value, max_depth))
        second = fm.parse_block(rewritten, max_depth, last_wins=True)
        if second.status == fm.OK:
            return second.data or {}, RETRIED
    return {}, FAILED


def _is_list(value: str, max_depth: int) -> bool:
    from mnemolint.parse import frontmatter as fm

    read = fm.parse_block(value, max_depth)
    return read.status == fm.NOT_MAPPING and read.error == "list"


def frontmatter_fields(text: str, max_depth: int) -> tuple[dict, str, str]:
    """(fields, body, how) as Claude Code reads a whole file (an instruction file, a rule, MEMORY.md)."""
    block, body = split_frontmatter(text)
    if block is None:
        return {}, body, YAML
    fields, how = read_frontmatter(block, max_depth)
    return fields, body, how


def scan_fields(text: str, max_depth: int) -> dict:
    """The fields the memory scan takes from a topic: the frontmatter within its head only."""
    return frontmatter_fields(scan_head(text), max_depth)[0]


def recover(front: Any, max_depth: int, crs: bool) -> None:
    """Give a block plain YAML refused the fields Claude Code's second try reads (`front.retried`).
    `crs`: the client reads the block with its CR line endings (an instruction file such as a rule;
    the memory scan drops a topic's), and then its second try quotes no line (cl32a)."""
    from mnemolint.parse import frontmatter as fm

    if front.status not in (fm.INVALID, fm.TOO_COMPLEX) or crs:
        return
    data, how = read_frontmatter("\n".join(front.yaml_lines), max_depth)
    if how != FAILED:  # its second try, or its parser, which takes the last of a key given twice
        front.status, front.data, front.retried = fm.OK, data, True


def requoted_lines(yaml_lines: list[str], max_depth: int) -> list[tuple[int, str]]:
    """The lines of a block that Claude Code's second try rewrites: (index in the block, new line)."""
    rewritten = requote("\n".join(yaml_lines), lambda value: _is_list(value, max_depth)).split("\n")
    return [(at, new) for at, (old, new) in enumerate(zip(yaml_lines, rewritten, strict=True)) if old != new]


# ---------------------------------------------------------------- instruction files (CLAUDE.md, AGENTS.md)
# At the start of a session Claude Code walks every folder from the file system's root (the root
# itself left out) down to the session folder, a git root being no limit; in each it loads
# `CLAUDE.md`, `.claude/CLAUDE.md`, the `.claude/rules` files without `paths`, then
# `CLAUDE.local.md`. A file that is empty or only white space, or over `MAX_BYTES`, loads nothing,
# without a word. When no `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` with text loaded
# from the session folder or above, `AGENTS.md` and `.claude/AGENTS.md` of the same folders load
# instead (its AGENTS.md plugin, on by default); when any did, no `AGENTS.md` loads.
#
# When the agent reads a file below the session folder, each folder strictly below the session
# folder down to the file's own loads its `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md` and
# `.claude/rules` files (those with `paths` when they match), and, in a project that loaded
# `AGENTS.md` at the start, its `AGENTS.md` files where the folder has no `CLAUDE.md` of its own.
# A file read outside the session folder brings none.
#
# `@path` imports load only inside the session folder unless the project approved external
# imports (`hasClaudeMdExternalIncludesApproved` in `~/.claude.json`): a parent folder's
# `CLAUDE.md` loads, its own imports do not; `@~/…` imports need that approval too.
PROJECT_NAMES = ("CLAUDE.md", ".claude/CLAUDE.md")  # per folder, in this order, before its rules
LOCAL_NAME = "CLAUDE.local.md"  # per folder, after its rules
FALLBACK_NAMES = ("AGENTS.md", ".claude/AGENTS.md")  # per folder, in this order
BLOCKS_FALLBACK = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")  # any with text: no AGENTS.md
WALKS_TO_FILESYSTEM_ROOT = True  # not to the git root
NESTED_ON_TOUCH = True  # folders below the session folder load when a file in them is read
MAX_BYTES = 4 * 1024 * 1024  # over it, a file is skipped whole, without a word; at it, it loads
IMPORTS_WITHIN_SESSION = True  # imports outside the session folder need the project's approval
EXTERNAL_APPROVAL = "hasClaudeMdExternalIncludesApproved"  # that approval, in the project's ~/.claude.json entry
IMPORT_DEPTH = 4  # nested import levels below the file loaded
# An `@path` in a list item is found in the item's raw text, an HTML comment or a code span in it
# included; `\@` is no import; elsewhere a comment or code hides it.
LIST_ITEM_RAW = True
ESCAPED_AT_IS_TEXT = True
# An import of a file with another extension is skipped (a file with none is read).
TEXT_EXTENSIONS = frozenset(
    ".md .txt .text .json .yaml .yml .toml .xml .csv .html .htm .css .scss .sass .less .js .ts .tsx "
    ".jsx .mjs .cjs .mts .cts .py .pyi .pyw .rb .erb .rake .go .rs .java .kt .kts .scala .c .cpp .cc "
    ".cxx .h .hpp .hxx .cs .swift .sh .bash .zsh .fish .ps1 .bat .cmd .env .ini .cfg .conf .config "
    ".properties .sql .graphql .gql .proto .vue .svelte .astro .ejs .hbs .pug .jade .php .pl .pm .lua "
    ".r .dart .ex .exs .erl .hrl .clj .cljs .cljc .edn .hs .lhs .elm .ml .mli .f .f90 .f95 .for "
    ".cmake .make .makefile .gradle .sbt .rst .adoc .asciidoc .org .tex .latex .lock .log .diff .patch".split()
)

# ---------------------------------------------------------------- instruction file size (CLD006)
# The per-file limit is the larger of `CHAR_FLOOR` and `WINDOW_SHARE` of the model's context
# window times its characters per token (4 for the models in `FOUR_CHARS_PER_TOKEN`, else 3);
# `/doctor` then says `Large <path> will impact performance (<N> chars > <limit>)`. Each file
# counts on its own, an imported file too, as the client keeps it (frontmatter and HTML comment
# blocks removed, UTF-16 units). A file loaded at the start is sent whole whatever its length; one
# loaded on a file touch is cut at the last line break before the per-file limit.
CHAR_FLOOR = 40_000
WINDOW_SHARE = 0.05
TOTAL_FLOOR = 120_000  # the files under the per-file limit together: the larger of this and it
DEFAULT_MODEL = "Claude Opus 5.5"  # the default model of this release, with a 1M-token window
DEFAULT_WINDOW = 1_000_000
DEFAULT_CHARS_PER_TOKEN = 3
FOUR_CHARS_PER_TOKEN = (
    "claude-3-opus claude-3-sonnet claude-3-haiku claude-3-5-sonnet claude-3-5-haiku claude-3-7-sonnet "
    "claude-opus-4-0 claude-opus-4-1 claude-opus-4-5 claude-opus-4-6 claude-sonnet-4-0 claude-sonnet-4-5 "
    "claude-sonnet-4-6 claude-haiku-4-5".split()
)
START_FILES_SENT_WHOLE = True
NESTED_CUT_AT_LIMIT = True


def char_limit(window: int, chars_per_token: int) -> int:
    """The per-file character limit for a model with a `window`-token context."""
    return max(CHAR_FLOOR, round(window * WINDOW_SHARE * chars_per_token))


DEFAULT_CHAR_LIMIT = char_limit(DEFAULT_WINDOW, DEFAULT_CHARS_PER_TOKEN)  # 150,000
SMALL_WINDOW_CHAR_LIMIT = char_limit(200_000, 4)  # a 200,000-token model: the floor, 40,000


def imports_text_file(path: str) -> bool:
    """Whether Claude Code reads an import of `path`: a file with no extension, or a text one
    (the extension compared in lower case, as the client does)."""
    stem, dot, extension = path.rpartition("/")[2].rpartition(".")
    return not (dot and stem) or f".{extension}".lower() in TEXT_EXTENSIONS


# Each fact and the oracle cases that show it on `VERSION` (tests/test_claude_instructions.py and
# tests/test_claude_code_memory.py check that each names a constant above and each case exists).
VERIFIED = {
    "INDEX_MAX_LINES": ("cl01a_mem250",),
    "INDEX_MAX_CHARS": ("cl01b_mem150_40kb",),
    "QUOTE_MAX_CHARS": ("cl30a_mem_quote_words",),
    "CUT_LINE_ONE": ("cl30c_mem_one_line",),
    "WARNING_ADVICE": ("cl01a_mem250",),
    "STRIPS_INDEX_FRONTMATTER": ("cl02a_mem_fm_comment",),
    "SCAN_LINES": (),
    "SCAN_BYTES": (),
    "SCAN_MAX_ENTRIES": (),
    "RETRIES_FRONTMATTER": ("cl32a_rule_paths_retry",),
    "RETRY_KEEPS_CR": ("cl32a_rule_paths_retry",),
    "BLOCK_ENDS_AT_ANY_DASHES": ("cl32c_mem_fm_dashes",),
    "DUPLICATE_KEY_WINS": ("cl32a_rule_paths_retry",),
    "SLUG_MAX": ("cl33b_slug_over_200",),
    "SLUG_KEY": ("cl33a_slug_git_root",),
    "DISABLE_AUTO_MEMORY_ENV": ("cl34a_env_disables_auto_memory",),
    "AUTO_MEMORY_SETTING": ("cl34b_setting_disables_auto_memory",),
    "PROJECT_SETTING_COUNTS": ("cl34d_project_setting_off",),
    "FALSE_ENV_FORCES_ON": ("cl34c_env_false_forces_on",),
    "AUTO_MEMORY_DEFAULT": ("cl01e_automem_default_on",),
    "PROJECT_NAMES": ("cl08_nested", "cl07c_agents_and_dot_claude_md"),
    "LOCAL_NAME": ("cl2c_local_claude_agents", "cl2n_nested_read_deep"),
    "FALLBACK_NAMES": (
        "cl07b_agents_only",
        "cl07d_dot_agents_only",
        "cl2d_agents_and_dot_agents",
        "cl2e_agents_imports_rules",
    ),
    "BLOCKS_FALLBACK": (
        "cl07a_claude_and_agents",
        "cl07c_agents_and_dot_claude_md",
        "cl07f_agents_in_parent",
        "cl2c_local_claude_agents",
        "cl2b_blank_claude_agents",
    ),
    "WALKS_TO_FILESYSTEM_ROOT": (
        "cl07h_claude_parent_agents_cwd",
        "cl07g_agents_in_parent_only",
        "cl2k_above_git_root",
    ),
    "NESTED_ON_TOUCH": (
        "cl08_nested",
        "cl2n_nested_read_deep",
        "cl2o_read_outside_cwd",
        "cl2g_agents_nested_read",
        "cl2h_claude_nested_agents_read",
        "cl2i_agents_nested_claude_read",
    ),
    "MAX_BYTES": ("cl04b_huge_claude_md", "cl2p_size_4mib_exact", "cl2f_huge_claude_agents"),
    "IMPORTS_WITHIN_SESSION": ("cl2l_parent_imports", "cl2m_parent_imports_approved", "cl03c_home_import_approved"),
    "EXTERNAL_APPROVAL": ("cl2m_parent_imports_approved", "cl03c_home_import_approved"),
    "IMPORT_DEPTH": ("cl03_imports",),
    "LIST_ITEM_RAW": ("cl03b_imports_comments", "cl2a_imports_by_token"),
    "ESCAPED_AT_IS_TEXT": ("cl2a_imports_by_token",),
    "TEXT_EXTENSIONS": ("cl2a_imports_by_token",),
    "CHAR_FLOOR": ("cl04_big_claude_md",),
    "DEFAULT_CHAR_LIMIT": ("cl2q_nested_big",),
    "START_FILES_SENT_WHOLE": ("cl04_big_claude_md", "cl2q_nested_big"),
    "NESTED_CUT_AT_LIMIT": ("cl2q_nested_big",),
}


class ClaudeSession(Session):
    """What Claude Code loads as instructions for a session started in `folder`: the files of
    each folder from the file system's root (left out) down to `folder` at the start (`start`),
    and of each folder below it when the agent reads a file there (`nested`); `AGENTS.md` files
    in place of the `CLAUDE.md` ones when none of those loads (`falls_back`)."""

    def __init__(self, agent: Agent, folder: str, probe: Probe) -> None:
        super().__init__(agent, folder, probe)
        self.falls_back = not any(
            probe.loads(os.path.join(place, *name.split("/"))) for place in self.chain() for name in BLOCKS_FALLBACK
        )

    def files_of(self, place: str, nested: bool = False) -> list[str]:
        """The instruction files Claude Code loads from folder `place`, in its order, its rules
        dir left out (it loads between `.claude/CLAUDE.md` and `CLAUDE.local.md`)."""
        found = [path for name in (*PROJECT_NAMES, LOCAL_NAME) if self.probe.loads(path := _at(place, name))]
        if self.falls_back and not (nested and found):
            found += [path for name in FALLBACK_NAMES if self.probe.loads(path := _at(place, name))]
        return found


def _at(place: str, name: str) -> str:
    return os.path.join(place, *name.split("/"))


AGENT = Agent(
    "claude-code",
    "Claude Code",
    ".claude",
    verified=Verified(CLIENT, VERSION, "@anthropic-ai/claude-code (npm)", "2026-12-01"),
    facts=VERIFIED,
    traces=(".claude/", "CLAUDE.md"),
    instructions=Instructions(
        (*PROJECT_NAMES, LOCAL_NAME),
        fallback=FALLBACK_NAMES,
        walk=FILESYSTEM_ROOT,
        below=ON_TOUCH,
        max_bytes=MAX_BYTES,
        cut=SKIPS_WHOLE,
        strips=("frontmatter", "HTML comment blocks"),
        imports=Imports("@path", IMPORT_DEPTH, SESSION, imports_text_file, external_imports_approved),
        session=ClaudeSession,
    ),
    rules=RulesDirs((".claude/rules",), "gitignore", DROPS_FOLDER, entered=True, replaces=False),
    memory=Memory(
        "MEMORY.md",
        INDEX_MAX_LINES,
        INDEX_MAX_CHARS,
        index_warning,
        scan_fields,
        counted=counted,
        shows_size=kilobytes,
        strips=("frontmatter", "block-level HTML comments"),
    ),
    writes="`~/.claude/projects/<project>/memory/`",
    auto_memory=lambda folder: (auto_memory_dir(folder), auto_memory_off(folder)),
    hook_reply=CONTEXT,
    frontmatter="yaml",
    fields=lambda text, max_depth: frontmatter_fields(text, max_depth)[:2],
    reads_metadata_block=True,
)
# Its agent memory (`.claude/agent-memory/<agent>/MEMORY.md`) is cut raw, frontmatter and comments
# counted (memdir.ts:283-312): the same agent, another loader, the same warning.
AGENT_MEMORY = AGENT.variant(
    "agent memory",
    Memory("MEMORY.md", INDEX_MAX_LINES, INDEX_MAX_CHARS, index_warning, scan_fields, shows_size=kilobytes),
    "`.claude/agent-memory/<agent>/`",
)
