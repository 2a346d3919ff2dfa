"""What several commands share: the configuration and rule-selection options, and the settings
they make, so that `check`, `index` (and the commands to come) read the command line alike."""

from __future__ import annotations

import argparse
import os

from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.config import Settings


def codes(value: str) -> list[str]:
    """Comma-separated selectors; none at all (`--select ,`) would silently change the selection."""
    found = [part.strip() for part in value.split(",") if part.strip()]
    if not found:
        raise argparse.ArgumentTypeError(f"no rule selector in {value!r} (a code such as MEM101, a prefix, or ALL)")
    return found


def add_selection_arguments(parser: argparse.ArgumentParser) -> None:
    """--select, --extend-select, --ignore, --fail-level and --preview, applied by `settings_from_args`."""
    parser.add_argument("--select", type=codes, help="comma-separated codes or prefixes to enable (replaces config)")
    parser.add_argument("--extend-select", type=codes, help="codes or prefixes to enable on top of the selection")
    parser.add_argument("--ignore", type=codes, help="codes or prefixes to disable")
    parser.add_argument(
        "--fail-level", choices=("info", "warning", "error"), help="lowest severity that exits 1 (default: warning)"
    )
    add_preview_argument(parser)


def add_preview_argument(parser: argparse.ArgumentParser) -> None:
    """--preview / --no-preview, as ruff's: the `preview` setting from the command line."""
    parser.add_argument(
        "--preview",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="enable preview rules: those not yet precise enough to be on by default (`mnemolint rules` marks them)",
    )


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="use this config file instead of the nearest one")


def add_clock_argument(parser: argparse.ArgumentParser) -> None:
    """--now (alias --today): pin the moment ages are judged against, as the `now` setting does."""
    parser.add_argument(
        "--now", "--today", dest="now", metavar="WHEN", help="judge ages as of this ISO 8601 date or time"
    )


def add_user_rules_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--user-rules", action="store_true", default=None, help="also lint ~/.claude/rules and ~/.wave/rules"
    )


def add_user_memory_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--user-memory",
        action="store_true",
        default=None,
        help="read your user-level memory too: ~/.ai-memory/user_profile.md and @~/ imports (by $HOME)",
    )


def add_codex_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--codex-max-bytes",
        type=int,
        metavar="N",
        help="bytes of the AGENTS.md chain Codex loads (its project_doc_max_bytes; default 32768)",
    )


def working_directory() -> str:
    """The current directory; one that was deleted under the process is a usage error, not a traceback."""
    try:
        return os.getcwd()
    except FileNotFoundError:
        raise ConfigError("the current directory no longer exists") from None


def settings_from_args(args: argparse.Namespace, start: str) -> Settings:
    """The configuration (`--config`, else the nearest to `start`) with the command line's selection
    on top. A command without the selection options (`index`) gets the configuration as it is."""
    from mnemolint.config import load_settings

    settings = load_settings(args.config, start)
    given = vars(args)
    if given.get("select") is not None:
        settings.select = given["select"]
    if given.get("extend_select"):
        settings.extend_select = settings.extend_select + given["extend_select"]
    if given.get("ignore"):
        settings.ignore = settings.ignore + given["ignore"]
    if given.get("fail_level"):
        settings.fail_level = given["fail_level"]
    if given.get("preview") is not None:
        settings.preview = given["preview"]
    if given.get("user_rules"):
        settings.options["user-rules"] = True
    if given.get("user_memory"):
        settings.options["user-memory"] = True
    if given.get("codex_max_bytes") is not None:
        if given["codex_max_bytes"] < 1:
            raise ConfigError("--codex-max-bytes must be a positive integer")
        settings.options["codex-max-bytes"] = given["codex_max_bytes"]
    if given.get("now"):
        settings.options["now"] = given["now"]
    if settings.options["now"]:
        from mnemolint.clock import parse

        parse(str(settings.options["now"]))  # a bad value is a usage error before anything runs
    return settings


def directory_argument(given: str) -> str:
    """The directory a command names, as an absolute path (a usage error when it is none)."""
    working_directory()
    directory = os.path.abspath(given)
    if not os.path.isdir(directory):
        raise ConfigError(f"not a directory: {given}")
    return directory


def memory_dir_settings(args: argparse.Namespace, given: str) -> tuple[str, Settings]:
    """The memory dir a command names (`DIR` of `index`, `preview`, `manifest`) as an absolute
    path, and the settings for it. It must be one: a directory holding MEMORY.md, an agent's
    memory location, or a `memory-dirs` entry of the configuration; any other directory is a usage
    error that says what was looked for (its files are not memory, and walking them is no use).
    A link is never read or written through."""
    directory = directory_argument(given)
    if os.path.islink(directory):
        raise ConfigError(f"{given} is a symlink: give the memory dir it points to")
    from mnemolint.memory_dirs import claim_memory_dir, is_memory_dir

    settings = settings_from_args(args, directory)
    if not is_memory_dir(directory, settings):
        from mnemolint.agents import AGENT_HOMES
        from mnemolint.kinds.memory import INDEX_NAME
        from mnemolint.parse.textutil import visible

        homes = " or ".join(f"`{home}/projects/*/memory`" for home in sorted(AGENT_HOMES))
        raise ConfigError(
            f"{visible(given)} is not a memory dir: it holds no {INDEX_NAME}, is not an agent's memory location "
            f"({homes}), and matches no `memory-dirs` entry of the configuration. Give a memory dir, or create "
            f"{INDEX_NAME} in it, or add it to `memory-dirs`."
        )
    claim_memory_dir(settings, directory)
    return directory, settings
