"""Configuration: find the nearest config file, validate every key, merge command-line overrides.

Like ruff, the nearest of `.mnemolint.toml`, `mnemolint.toml` or a `pyproject.toml` holding
`[tool.mnemolint]` wins, searched upwards from the first path being linted. Anything unknown or
ill-typed is a `ConfigError`, which the CLI turns into exit code 2 with one line naming the key.
Thresholds are validated against the options the rule families declare, as `rules/manifest.py` lists them.
"""

from __future__ import annotations

import os

from mnemolint.errors import ConfigError
from mnemolint.model import SEVERITIES
from mnemolint.options import defaults
from mnemolint.paths import upwards

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.options import Option

CONFIG_NAMES = (".mnemolint.toml", "mnemolint.toml", "pyproject.toml")
FAIL_LEVELS = SEVERITIES
_TOML_TYPES = {"str": "a string", "int": "an integer", "float": "a float", "bool": "a boolean"}
_GLOB_KEYS = ("exclude", "extend-exclude", "memory-dirs")
_SELECTOR_KEYS = ("select", "extend-select", "ignore")
_LIST_KEYS = (*_SELECTOR_KEYS, *_GLOB_KEYS)
# true or false: the preview rules; what discovery leaves out (discover/exclusion.py)
_BOOL_KEYS = ("preview", "respect-gitignore", "force-exclude")
# The keys `apply_table` validates itself; the thresholds are the option registry's (`rules.declared_options`).
SETTING_KEYS = (*_LIST_KEYS, "per-file-ignores", "severity", "fail-level", "cache-dir", *_BOOL_KEYS)


class Settings:
    """The resolved configuration of one run. Paths in globs are relative to `root`."""

    __slots__ = (
        "root",
        "source",
        "select",
        "extend_select",
        "ignore",
        "exclude",
        "extend_exclude",
        "per_file_ignores",
        "memory_dirs",
        "severity",
        "fail_level",
        "cache_dir",
        "preview",
        "respect_gitignore",
        "force_exclude",
        "options",
    )

    def __init__(self, root: str, source: str | None = None) -> None:
        self.root = root
        self.source = source
        self.select: list[str] = ["ALL"]
        self.extend_select: list[str] = []
        self.ignore: list[str] = []
        self.exclude: list[str] = []
        self.extend_exclude: list[str] = []
        self.per_file_ignores: dict[str, list[str]] = {}
        self.memory_dirs: list[str] = []
        self.severity: dict[str, str] = {}
        self.fail_level = "warning"  # an info is advice: it is printed but does not fail CI
        self.cache_dir = ""  # `cache-dir`, relative to the config file; "": `.mnemolint_cache` (cache_dir.py)
        self.preview = False  # `preview`: the preview rules run too (`Rule.preview`, selection.in_preview)
        self.respect_gitignore = True  # what a git work tree's `.gitignore` files ignore is not walked
        self.force_exclude = False  # `exclude` holds for paths named on the command line too
        self.options = defaults(_registry().values())


def _registry() -> dict[str, Option]:
    """Every option, as the rule families declare them (`rules/manifest.py`: no family is imported)."""
    from mnemolint.rules import declared_options

    return declared_options()


def find_config(start: str) -> str | None:
    """The nearest config file at or above `start` (a file or directory)."""
    directory = os.path.abspath(start)
    if not os.path.isdir(directory):
        directory = os.path.dirname(directory)
    for current in upwards(directory):
        for name in CONFIG_NAMES:
            candidate = os.path.join(current, name)
            if os.path.isfile(candidate) and (name != "pyproject.toml" or _has_tool_table(candidate)):
                return candidate
    return None


def _has_tool_table(pyproject: str) -> bool:
    try:
        with open(pyproject, "rb") as handle:
            return b"[tool.mnemolint" in handle.read()
    except OSError:
        return False


def _read_toml(path: str) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as error:
        raise ConfigError(f"cannot read config {path}: {error.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"invalid TOML in {path}: {error}") from None
    except ValueError:  # tomllib reads an integer of any length, and Python refuses the longest
        raise ConfigError(f"invalid TOML in {path}: an integer too long to read") from None
    except RecursionError:
        raise ConfigError(f"invalid TOML in {path}: arrays or tables nested too deeply") from None


def load_settings(config_path: str | None, start: str) -> Settings:
    """Settings from `config_path`, or from the nearest config above `start`, or the defaults."""
    path = config_path or find_config(start)
    if path is None:
        return Settings(os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or "."))
    if config_path and not os.path.isfile(config_path):
        raise ConfigError(f"config file not found: {config_path}")
    data = _read_toml(path)
    where = os.path.basename(path)
    if where == "pyproject.toml":
        data = _table(_table(data, "tool", where), "mnemolint", where, "tool.")
    settings = Settings(os.path.dirname(os.path.abspath(path)), path)
    apply_table(settings, data, where)
    if settings.cache_dir and not config_path:  # the repository's file: the cache stays inside it
        from mnemolint.cache_dir import check_setting

        problem = check_setting(path, settings.cache_dir)
        if problem:
            raise ConfigError(f"{where}: `cache-dir` {problem}")
    return settings


def _table(data: dict, key: str, where: str, prefix: str = "") -> dict:
    """`data[key]`, which must be a table (`[[tool.mnemolint]]` is an array of them, say)."""
    value = data.get(key, {})
    if not isinstance(value, dict):
        if isinstance(value, list):
            shape = "an array of tables" if value and all(isinstance(item, dict) for item in value) else "an array"
        else:
            shape = _TOML_TYPES.get(type(value).__name__, "a date or time")
        raise ConfigError(f"{where}: `{prefix}{key}` must be a table, not {shape}")
    return value


def apply_table(settings: Settings, data: dict, where: str) -> None:
    """Validate one config table and store it on `settings`."""
    for key, value in data.items():
        label = f"{where}: `{key}`"
        if key in _LIST_KEYS:
            setattr(settings, key.replace("-", "_"), _string_list(value, label))
            if key in _SELECTOR_KEYS:
                _check_selectors(getattr(settings, key.replace("-", "_")), label)
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(f"{label} must be a table of glob = [codes]")
            settings.per_file_ignores = {str(k): _string_list(v, f"{label}.{k}") for k, v in value.items()}
            for glob, selectors in settings.per_file_ignores.items():
                _check_selectors(selectors, f"{label}.{glob}")
        elif key == "severity":
            if not isinstance(value, dict):
                raise ConfigError(f'{label} must be a table of CODE = "error|warning|info"')
            for code, level in value.items():
                if level not in SEVERITIES:
                    raise ConfigError(f"{label}.{code} must be one of {', '.join(SEVERITIES)}, not {level!r}")
            _check_selectors(list(value), label)
            settings.severity = dict(value)
        elif key == "fail-level":
            if value not in FAIL_LEVELS:
                raise ConfigError(f"{label} must be one of {', '.join(FAIL_LEVELS)}, not {value!r}")
            settings.fail_level = value
        elif key == "cache-dir":
            if not isinstance(value, str) or not value.strip():
                raise ConfigError(f"{label} must be a directory path (a non-empty string)")
            settings.cache_dir = value
        elif key in _BOOL_KEYS:
            if not isinstance(value, bool):
                raise ConfigError(f"{label} must be a boolean (true or false)")
            setattr(settings, key.replace("-", "_"), value)
        elif key in _registry():
            try:
                settings.options[key] = _registry()[key].validate(value)
            except ValueError as error:
                raise ConfigError(f"{label} {error}") from None
        elif key == "tool" and where != "pyproject.toml":
            raise ConfigError(
                f"{label} is not a mnemolint setting: in {where} the settings stand at the top level, "
                "without the `[tool.mnemolint]` header that only pyproject.toml needs"
            )
        else:
            raise ConfigError(f"{label} is not a mnemolint setting{_hint(key, value)}")
    _check_globs(settings, where)


def _hint(key: str, value: object) -> str:
    """What an unknown key was likely meant to be: a near spelling, or ruff's `[lint]` table."""
    if key == "lint" and isinstance(value, dict):
        return ": mnemolint has no `lint` table (ruff's); its settings stand at the top level"
    from difflib import get_close_matches

    close = get_close_matches(key, [*SETTING_KEYS, *_registry()], n=1, cutoff=0.75)
    return f" (did you mean `{close[0]}`?)" if close else ""


def _check_selectors(selectors: list[str], label: str) -> None:
    """A selector that names no rule is an error naming the file and key (`selection.check_selectors`)."""
    from mnemolint.rules import CODES
    from mnemolint.selection import check_selectors

    check_selectors(selectors, CODES, label)


# wcmatch caches 256 compiled globs; past that every path would compile every glob again, and a
# brace such as `{1..2000}` expands to a glob per value.
MAX_GLOBS = 200


def glob_flags() -> int:
    """wcmatch flags of every configured glob: `**`, braces, dotfiles (imported only when used)."""
    from wcmatch import glob

    return glob.GLOBSTAR | glob.BRACE | glob.DOTGLOB


def _check_globs(settings: Settings, where: str) -> None:
    """Expand the configured globs now, so that too many fail here, naming the key, and not on
    the first path matched; all of them together get `MAX_GLOBS` expanded globs."""
    groups = [(f"`{key}`", getattr(settings, key.replace("-", "_"))) for key in _GLOB_KEYS]
    groups += [(f"`per-file-ignores` glob `{glob}`", [glob]) for glob in settings.per_file_ignores]
    if not any(patterns for _, patterns in groups):
        return
    import bracex  # wcmatch's own brace expander: a glob expands to exactly what it makes of it

    from mnemolint.parse.textutil import shorten

    left = MAX_GLOBS
    for label, patterns in groups:
        try:
            for pattern in patterns:
                left -= len(bracex.expand(pattern, limit=max(left, 1)))
        except bracex.ExpansionLimitException:
            left = -1
        if left < 0:
            raise ConfigError(
                f"{where}: {shorten(label, 100)} expands to more than {MAX_GLOBS} globs in all (braces "
                "multiply: `{a,b}{c,d}` is 4): write fewer, wider globs"
            )


def _string_list(value: object, label: str) -> list[str]:
    if isinstance(value, str):
        raise ConfigError(f"{label} must be a list of strings: write [{_toml_string(value)}], not a bare string")
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{label} must be a list of strings")
    return list(value)


def _toml_string(value: str) -> str:
    """`value` as a TOML basic string, cut short for a message."""
    import json

    from mnemolint.parse.textutil import shorten

    return json.dumps(shorten(value, 60), ensure_ascii=False)
