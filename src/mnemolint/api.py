"""mnemolint as a library, for tools that manage memory (memory servers, editors, scripts).

    >>> from mnemolint import api
    >>> findings = api.lint(["memory/"])                   # what `mnemolint check memory/` finds
    >>> post = api.read("memory/user_role.md", agent="wave")  # the file as Wave reads it
    >>> post["description"], post.content
    >>> api.preview("memory/", agent="claude-code")["warning"]

`lint` returns the findings (`mnemolint.model.Diagnostic`: `code`, `severity`, `message`, `path`,
`line`, `column`, `fix`) exactly as every output format has them: secrets redacted, control
characters escaped. `read` returns a `frontmatter.Post` of python-frontmatter, the ecosystem's type
for "Markdown with metadata": its metadata is what that agent gets from the frontmatter, its
content the body. python-frontmatter is imported here only, when `read` is first called.
`preview` returns the facts `mnemolint preview --output-format json` prints (both ask
`mnemolint/preview.py`).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from mnemolint.config import Settings
    from mnemolint.model import Diagnostic

    PathLike = str | os.PathLike[str]


def lint(
    paths: PathLike | Iterable[PathLike], config: PathLike | dict[str, Any] | None = None, preview: bool | None = None
) -> list[Diagnostic]:
    """The findings on `paths` (files or directories), sorted by path and line.

    `config` is a config file (`.mnemolint.toml`, or a `pyproject.toml` with `[tool.mnemolint]`),
    a table of settings as that file holds them (`{"select": ["MEM1"], "index-max-lines": 150}`),
    or None for the config file nearest the first path. A bad setting raises
    `mnemolint.errors.ConfigError`. `preview` turns the preview rules on or off over what the
    configuration says (`--preview`).
    """
    from mnemolint.engine import lint as run
    from mnemolint.report import shown

    given = [os.fspath(paths)] if isinstance(paths, (str, os.PathLike)) else [os.fspath(path) for path in paths]
    if not given:
        return []
    settings = _settings(config, given[0])
    if preview is not None:
        settings.preview = preview
    return shown(run(given, settings).diagnostics)


def _settings(config: PathLike | dict[str, Any] | None, start: str) -> Settings:
    from mnemolint.config import Settings, apply_table, load_settings

    if isinstance(config, dict):
        settings = Settings(os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or "."))
        apply_table(settings, config, "config")
        return settings
    return load_settings(None if config is None else os.fspath(config), start)


def read(path: PathLike, agent: str = "claude-code") -> Any:
    """The memory file at `path` as `agent` reads it, as a `frontmatter.Post`.

    Claude Code reads the frontmatter as YAML (mnemolint's YAML 1.2 reading: `no` stays a string,
    anchors and aliases are refused) and, where that fails, once more with the values it can quote
    quoted, as Claude Code 2.1.332 does (`description: Build: use pnpm` is read); Wave with its own
    line reader (strings and
    string lists only, a flow list is one string, continuation lines of a value on the key's line
    are lost, a BOM hides the block). Metadata a reader cannot take (invalid YAML, not a mapping,
    an unclosed fence) is empty, and the body is then the whole file, as the agent has it.
    The file is read as UTF-8 (undecodable bytes replaced), at most `max-file-bytes`.
    """
    try:
        import frontmatter  # python-frontmatter: the one place it is imported
    except ImportError:
        raise ImportError(
            "mnemolint.api.read returns a python-frontmatter Post: install it with `pip install 'mnemolint[api]'`"
        ) from None

    from mnemolint.agents import AGENTS
    from mnemolint.options import YAML_MAX_DEPTH

    readers = {reader.name: reader for reader in AGENTS if reader.selectable and reader.fields is not None}
    if agent not in readers:
        raise ValueError(f"agent must be one of {', '.join(readers)}, not {agent!r}")
    text = _text(os.fspath(path))
    metadata, body = readers[agent].fields(text, YAML_MAX_DEPTH.default)  # type: ignore[misc,arg-type]
    post = frontmatter.Post(body)
    post.metadata.update(metadata)  # keys such as `content` or `1` are metadata too, not arguments
    return post


def _text(path: str) -> str:
    """The file's text, read the way every mnemolint read is (never blocking on a FIFO or a device,
    never past `max-file-bytes`, a link judged where it stands); ValueError when it cannot be read."""
    from mnemolint.options import defaults
    from mnemolint.parse.document import Document

    document = Document(path, None, defaults())
    if document.too_large:
        raise ValueError(f"{path} is over {document.options['max-file-bytes']:,} bytes: not read")
    if document.text is None:
        raise ValueError(f"{path} cannot be read: {document.read_error or 'not UTF-8 text'}")
    return document.text


def preview(directory: PathLike, agent: str | None = None, config: PathLike | dict[str, Any] | None = None) -> dict:
    """What `agent` (default: Wave under `.wave/`, else Claude Code) loads from `directory/MEMORY.md`:
    `loaded` and `total` sizes (lines, UTF-16 characters), the agent's own `warning` (None when
    nothing is cut), the `dropped` entries, the `unreachable` topics, and the index that would be
    `generated` when there is none (None otherwise)."""
    from mnemolint.agents import memory_readers
    from mnemolint.memory_dirs import claim_memory_dir, find_memory_dir
    from mnemolint.preview import memory, reader_of

    path = os.path.abspath(os.fspath(directory))
    names = [reader.name for reader in memory_readers()]
    if agent is not None and agent not in names:
        raise ValueError(f"agent must be one of {', '.join(names)}, not {agent!r}")
    settings = _settings(config, path)
    claim_memory_dir(settings, path)
    memdir = find_memory_dir(path, settings)
    return memory(memdir, reader_of(memdir, agent), settings.options)
