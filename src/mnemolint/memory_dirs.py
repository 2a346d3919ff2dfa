"""The memory dir a command or the API names: whether a directory is one (by the container's own
tests, as the walk applies them), claiming it as one for a run, and finding it with its index and
topics. The CLI (`commands/common.memory_dir_settings`, which words the usage error) and the API
(`api.preview`) both ask here.
"""

from __future__ import annotations

import os

from mnemolint.errors import ConfigError

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    from mnemolint.config import Settings
    from mnemolint.kinds.memory import MemoryDir


def is_memory_dir(directory: str, settings: Settings) -> bool:
    """Whether `directory` is a memory dir by the container's own tests, as the walk applies them:
    its marker, where it is, or a configured glob."""
    from mnemolint.discover.walk import placed
    from mnemolint.kinds.memory import INDEX_NAME, MEMORY_DIR

    return os.path.lexists(os.path.join(directory, INDEX_NAME)) or placed(directory, settings) is MEMORY_DIR


def claim_memory_dir(settings: Settings, directory: str) -> None:
    """Make `directory` a memory dir in `settings` (a `memory-dirs` glob matching it alone)."""
    from wcmatch import glob

    rel = os.path.relpath(directory, settings.root).replace(os.sep, "/")
    settings.memory_dirs = [*settings.memory_dirs, glob.escape(rel)]


def find_memory_dir(directory: str, settings: Settings) -> MemoryDir:
    """The memory dir at `directory`, discovered with its index and topics."""
    from mnemolint.discover.walk import discover
    from mnemolint.kinds.memory import MemoryDir
    from mnemolint.parse.textutil import visible

    found = discover([directory], settings).containers
    memdir = next((each for each in found if isinstance(each, MemoryDir) and each.path == directory), None)
    if memdir is None:  # excluded by the configuration, say
        raise ConfigError(f"{visible(directory)} is not a memory dir mnemolint lints (is it excluded?)")
    return memdir
