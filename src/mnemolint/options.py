"""Every tunable number, with its default and the seed it comes from.

One table, so the config loader can validate keys and types, rules read values by name, and the
catalogue pages can list the options a rule takes.
"""

from __future__ import annotations


class Option:
    __slots__ = ("name", "default", "help")

    def __init__(self, name: str, default: int | float, help: str) -> None:
        self.name = name
        self.default = default
        self.help = help


_OPTIONS = (
    Option("index-max-lines", 200, "Lines of MEMORY.md the agent loads (seed 000, auto memory 2)."),
    Option("index-max-chars", 25_000, "UTF-16 characters of MEMORY.md the agent loads (000, capacity 1)."),
    Option("index-warn-ratio", 0.8, "Index occupancy that starts the near-limit warning (000, capacity 3)."),
    Option("index-target-lines", 140, "Lines to compress an index below (000, capacity 3)."),
    Option("index-target-chars", 17_500, "Characters to compress an index below (000, capacity 3)."),
    Option("index-line-max-chars", 150, "Longest advised index line, UTF-16 units (000, capacity 2, 4)."),
    Option("topic-max-bytes", 4_096, "UTF-8 bytes of a trimmed topic file (000, capacity 11)."),
    Option("topic-max-lines", 200, "Lines of a trimmed topic file (000, capacity 11)."),
    Option("topic-warn-ratio", 0.8, "Topic occupancy that starts the near-limit warning (000, capacity 11)."),
    Option("description-max-chars", 300, "Longest topic `description` before compressing it (000, capacity 12)."),
    Option("description-target-chars", 150, "What a too-long description should be compressed to (000, capacity 12)."),
    Option("yaml-max-depth", 16, "Deepest nesting of frontmatter collections read before refusing it."),
    Option("max-file-bytes", 2 * 1024 * 1024, "Files larger than this are not read; size rules use the file size."),
)

OPTIONS: dict[str, Option] = {option.name: option for option in _OPTIONS}


def defaults() -> dict[str, int | float]:
    return {option.name: option.default for option in _OPTIONS}
