"""A fuzz harness: arbitrary text and bytes into every parser and into the whole engine.

`tests/test_fuzz.py` runs it under hypothesis for a bounded number of examples on every CI run;
for a longer hunt, `python tests/fuzz.py 20000` (the number of examples per target). A failure
is a bug: no input may raise out of a parser, the engine, the index generator or the fixer, nor
leave an internal error behind (a rule that raised, caught by the engine and told on stderr).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from mnemolint.config import load_settings
from mnemolint.discover.walk import discover
from mnemolint.engine import lint
from mnemolint.fix import generate
from mnemolint.kinds.memory import MemoryDir
from mnemolint.parse import index_lines, markdown
from mnemolint.parse.frontmatter import split_and_parse
from mnemolint.parse.textutil import visible
from mnemolint.redact import find_secrets, redact

TOPIC_HEAD = b"---\nname: T\ndescription: "  # half the examples: arbitrary bytes inside a frontmatter
# What the parsers branch on, so that random text reaches past their first check.
PIECES = (
    "---\n",
    "- [",
    "](",
    ")",
    " — ",
    ": ",
    "&a ",
    "*a",
    "[",
    "]",
    "{",
    "}",
    "\n",
    "  ",
    "# ",
    "`",
    "```\n",
    "<!-- mnemolint-disable MEM1 -->",
    "-->",
    "\t",
    "\r\n",
    "\ufeff",
    "\x00",
    "|",
    "!!int ",
    "password: ",
    "ghp_",
    "https://u:",
    "@h/",
    "\\",
    "&#38;",
    "%20",
    "x" * 300,
    "é",
    "\U0001f600",
    "\ud800",
)


def parse_text(text: str) -> None:
    """Each parser on its own: frontmatter, Markdown blocks, the index scanner, load cut, redaction."""
    lines = text.split("\n")
    split_and_parse(lines, 16)
    markdown.blocks(text)
    index_lines.classify(lines, 0)
    index_lines.find_links(text)
    index_lines.load_cut(text, 200, 25_000)
    assert redact(redact(text)) == redact(text)
    find_secrets(text, credible=True)
    visible(text)


def lint_memory_dir(index: bytes, topic: bytes, in_frontmatter: bool) -> None:
    """The engine over a memory dir holding these bytes as its index and a topic; then the index
    generator and the fixer's lint over what was found."""
    with tempfile.TemporaryDirectory() as top:
        root = Path(top)
        (root / "memory").mkdir()
        (root / "memory" / "MEMORY.md").write_bytes(index)
        (root / "memory" / "t.md").write_bytes(TOPIC_HEAD + topic + b"\n---\n" if in_frontmatter else topic)
        settings = load_settings(None, str(root))
        result = lint([str(root)], settings)
        assert result.errors == [], result.errors
        for container in discover([str(root)], settings).containers:
            if isinstance(container, MemoryDir):
                generate.generate(container, settings.options).text()


def texts():  # noqa: ANN201 - a hypothesis strategy
    """Arbitrary text, and text built from the parsers' own punctuation."""
    from hypothesis import strategies as st

    return st.text() | st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=40).map("".join)


def byte_strings():  # noqa: ANN201 - a hypothesis strategy
    """Arbitrary bytes, and structured text encoded as UTF-8, UTF-16 or Latin-1."""
    from hypothesis import strategies as st

    encoded = st.tuples(texts(), st.sampled_from(["utf-8", "utf-16", "latin-1"])).map(
        lambda pair: pair[0].encode(pair[1], "surrogatepass" if pair[1] != "latin-1" else "replace")
    )
    return st.binary() | encoded


def hunt(examples: int) -> None:
    """Run both targets for `examples` examples each."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    run = settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    run(given(texts())(parse_text))()
    run(given(byte_strings(), byte_strings(), st.booleans())(lint_memory_dir))()


if __name__ == "__main__":  # PYTHONPATH=src python tests/fuzz.py 20000
    hunt(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
    print("no failure")
