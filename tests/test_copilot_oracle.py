"""The Copilot CLI 1.0.102's recorded reading of `.github/instructions`, replayed against mnemolint.

Each fixture in tests/oracle-copilot/ says what the real CLI listed of a case (each source and the
`applyTo` it read), which files' text it loaded whole and which it offered by path
(tools/oracle/copilot_cli.py records them offline). Here the case is laid out again from its
definition and mnemolint must read the same patterns and make the same split.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mnemolint.agents import copilot
from mnemolint.config import load_settings
from mnemolint.discover.walk import discover
from mnemolint.kinds.copilot import PATH_INSTRUCTIONS
from mnemolint.kinds.instructions import INSTRUCTION_FILE, session
from mnemolint.rules.copilot import apply_to

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "oracle"))
from copilot_cli import CASES, lay_out  # noqa: E402

FIXTURES = sorted((ROOT / "tests" / "oracle-copilot").glob("*.json"))


def _documents(name: str, tmp_path: Path) -> dict[str, object]:
    lay_out(CASES[name], tmp_path)
    tree = discover([str(tmp_path)], load_settings(None, str(tmp_path)))
    return {
        Path(document.path).relative_to(tmp_path).as_posix(): document
        for document in tree.documents
        if document.kind in (PATH_INSTRUCTIONS, INSTRUCTION_FILE)
    }


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda path: path.stem)
def test_apply_to_is_read_as_the_cli_reads_it(fixture: Path, tmp_path: Path) -> None:
    recorded = json.loads(fixture.read_text(encoding="utf-8"))
    documents = _documents(recorded["case"], tmp_path)
    for entry in recorded["listed"]:
        document = documents.get(entry["path"])
        if document is None or document.kind is not PATH_INSTRUCTIONS:
            continue
        assert apply_to(document) == (entry["applyTo"] or []), entry["path"]
        whole = entry["path"] in recorded["loaded_whole"]
        assert whole == (not apply_to(document)), entry["path"]
        assert whole != (entry["path"] in recorded["offered"]), entry["path"]


def test_every_file_the_cli_lists_as_instructions_is_a_kind_here(tmp_path: Path) -> None:
    recorded = json.loads((ROOT / "tests" / "oracle-copilot" / "c1_apply_to_forms.json").read_text())
    documents = _documents("c1_apply_to_forms", tmp_path)
    listed = {entry["path"] for entry in recorded["listed"]}
    assert listed <= set(documents)
    assert ".github/instructions/notes.md" not in documents  # the CLI reads `*.instructions.md` only


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda path: path.stem)
def test_session_start_is_what_the_cli_loads_whole(fixture: Path, tmp_path: Path) -> None:
    """`.github/copilot-instructions.md`, `AGENTS.md`, `CLAUDE.md` and `GEMINI.md` of each folder
    from the git root down to the session folder (agents/copilot.py's `Instructions`)."""
    recorded = json.loads(fixture.read_text(encoding="utf-8"))
    case = CASES[recorded["case"]]
    folder = lay_out(case, tmp_path)
    started = session(copilot.AGENT, str(folder), {}, load_settings(None, str(tmp_path)).options).start()
    loaded = [Path(path).relative_to(tmp_path).as_posix() for path in started]
    expected = [path for path in recorded["loaded_whole"] if "/instructions/" not in path]
    assert sorted(loaded) == expected
