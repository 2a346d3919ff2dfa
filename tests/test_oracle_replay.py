"""The real clients' recorded behaviour, replayed against mnemolint on every run.

Each fixture in tests/oracle/<client>/<case>.json says what Claude Code 2.1.332, Codex 0.171.0 or
Gemini CLI 0.61.0 included of the user's files on an oracle case (tools/oracle/record.py records them from the real
clients; tools/oracle/README.md). Here the case's tree is laid out again from its definition
(tools/oracle/cases_*.py) and mnemolint's `preview`, `explain-rules` and `check` must say the same:
MEMORY.md's loaded counts and the client's warning byte for byte, the instruction files Claude Code
sends (and their order, where the client's order is known), the bytes Codex loads (by digest), the
files Gemini CLI sends with the text of each (by digest) and what it made of each import.

MNEMOLINT_ORACLE_FIXTURES=DIR replays other fixtures (tools/oracle/live.sh: a fresh recording).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from mnemolint.agents.gemini_cli import SAVE_MEMORY_TOOL
from mnemolint.cli import main

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "oracle"))
import casetree  # noqa: E402
import gemini  # noqa: E402
from extract import counts  # noqa: E402

FIXTURES = Path(os.environ.get("MNEMOLINT_ORACLE_FIXTURES") or ROOT / "tests" / "oracle")

# Where mnemolint and the client disagree today, by (case, aspect): issue 21 lists them and says
# what to fix. These are strict xfails: when a fix makes a case agree, its test fails until the
# entry is deleted here, so this list stays true.
KNOWN_DISAGREEMENTS: dict[tuple[str, str], str] = {}


def _fixtures() -> list[Path]:
    return sorted(FIXTURES.glob("*/*.json"))


def _aspects(recorded: dict) -> list[str]:
    """What can be compared for this fixture."""
    if recorded["client"] == "codex":
        return ["instructions", "check"]
    if recorded["client"] == "gemini-cli":
        return ["gemini-start", "gemini-touch", "check"] if recorded["session"]["reads"] else ["gemini-start", "check"]
    if recorded["client"] == "opencode":
        return ["opencode", "check"]
    memory = any(f["kind"] == "auto-memory" for f in recorded["files"])
    return (["memory", "mem101"] if memory else []) + ["files", "check"]


def _params() -> list:
    params = []
    for path in _fixtures():
        recorded = json.loads(path.read_text(encoding="utf-8"))
        for aspect in _aspects(recorded):
            why = KNOWN_DISAGREEMENTS.get((recorded["case"], aspect))
            marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
            params.append(pytest.param(path, aspect, id=f"{recorded['case']}-{aspect}", marks=marks))
    return params


@pytest.fixture(scope="session")
def case_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return casetree.write_all(tmp_path_factory.mktemp("oracle-cases"))


class Mnemolint:
    """mnemolint's CLI, in process, as a user of this session (its $HOME) runs it."""

    def __init__(self, session: casetree.Session, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
        self.session, self.capsys, self.monkeypatch = session, capsys, monkeypatch
        monkeypatch.setenv("HOME", str(session.home))
        monkeypatch.setenv("NO_COLOR", "1")
        monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
        monkeypatch.chdir(session.project.parent)

    def json(self, *args: str) -> tuple[int, object]:
        self.capsys.readouterr()
        rc = main(list(args))
        out = self.capsys.readouterr().out
        assert rc in (0, 1), f"{self.session.name}: mnemolint {' '.join(args)} exited {rc}: {out[-500:]}"
        return rc, json.loads(out)


def _memory_file(recorded: dict) -> dict:
    return next(f for f in recorded["files"] if f["kind"] == "auto-memory")


def _replay_memory(recorded: dict, ml: Mnemolint) -> None:
    """`preview` counts the lines and UTF-16 characters the client loaded and quotes its warning."""
    sent = _memory_file(recorded)
    _, preview = ml.json("preview", "--agent", "claude-code", "--output-format", "json", str(ml.session.memory_dir))
    assert isinstance(preview, dict)
    real = (sent["lines"], sent["utf16"], sent["notes"][0] if sent["notes"] else None)
    ours = (preview["loaded"]["lines"], preview["loaded"]["characters"], preview.get("warning") or None)
    assert ours == real, (
        f"{recorded['case']}: MEMORY.md (lines, characters, warning)\n"
        f"  Claude Code {recorded['client_version']}: {real}\n  mnemolint preview: {ours}"
    )


def _replay_mem101(recorded: dict, ml: Mnemolint) -> None:
    """MEM101 fires exactly when the client warns, at the line it cuts, quoting its warning."""
    notes = _memory_file(recorded)["notes"]
    _, found = ml.json(
        "check", "--no-cache", "--preview", "--select", "MEM101", "--output-format", "json", str(ml.session.memory_dir)
    )
    assert isinstance(found, list)
    messages = [(d["line"], d["message"]) for d in found]
    if not notes:
        assert messages == [], f"{recorded['case']}: the client loads MEMORY.md whole, mnemolint says {messages}"
        return
    cut = re.search(r"starting at line (\d+)", notes[0])
    assert len(messages) == 1 and notes[0] in messages[0][1], (
        f"{recorded['case']}: MEM101 must quote the client's warning\n"
        f"  Claude Code {recorded['client_version']}: {notes[0]}\n  mnemolint MEM101: {messages}"
    )
    if cut:
        assert messages[0][0] == int(cut.group(1)), (
            f"{recorded['case']}: cut at line {cut.group(1)}, MEM101 at {messages}"
        )


def _targets(session: casetree.Session) -> list[Path]:
    """The files explain-rules is asked about: the ones the model read, else the session's own
    instructions file (or its first file), as the recording's first turn shows them."""
    if session.reads:
        return [session.project / read for read in session.reads]
    for name in ("CLAUDE.md", "AGENTS.md"):
        if (session.cwd / name).is_file():
            return [session.cwd / name]
    return sorted(p for p in session.cwd.iterdir() if p.is_file())[:1] or [session.cwd / "CLAUDE.md"]


def _replay_files(recorded: dict, ml: Mnemolint) -> None:
    """explain-rules lists the instruction files Claude Code sent (all turns), and its project
    memory with its imports in the client's order (the rules' order is the folder listing's)."""
    session = ml.session
    listed: list[str] = []
    start: list[str] = []
    for target in _targets(session):
        _, explained = ml.json(
            "explain-rules", "--agent", "claude-code", "--all", "--root", str(session.cwd), "--output-format", "json",
            str(target),
        )  # fmt: skip
        assert isinstance(explained, dict)
        agent = explained["agents"][0]

        def said(rel: str, base: str = explained["project"]) -> str:
            return session.placeholder(os.path.normpath(os.path.join(base, os.path.expanduser(rel))))

        memory = [said(p) for p in agent["project_memory"]]
        imports = {said(k): [said(p) for p in v] for k, v in agent["imports"].items()}
        ordered = [p for pm in memory for p in (pm, *imports.get(pm, []))]
        start = start or ordered
        rules = [said(r["path"]) for r in agent["always"] + agent["applying"]]
        listed += ordered + [said(p) for p in agent["nested"]] + [p for v in imports.values() for p in v] + rules
    sent = [f["path"] for f in recorded["files"] if f["kind"] != "auto-memory"]
    real, ours = set(sent), set(listed)
    assert ours == real, (
        f"{recorded['case']}: instruction files\n"
        f"  only Claude Code {recorded['client_version']} sent: {sorted(real - ours)}\n"
        f"  only mnemolint explain-rules lists: {sorted(ours - real)}"
    )
    first = [f["path"] for f in recorded["files"] if f["turn"] == 0 and f["path"] in start]
    assert first == start, f"{recorded['case']}: load order\n  Claude Code: {first}\n  mnemolint: {start}"


def _codex_max_bytes(session: casetree.Session) -> list[str]:
    """The case's own `project_doc_max_bytes`, if its config sets one."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    extra = tomllib.loads(session.option("codex.toml") or "")
    return ["--codex-max-bytes", str(extra["project_doc_max_bytes"])] if "project_doc_max_bytes" in extra else []


def _replay_instructions(recorded: dict, ml: Mnemolint) -> None:
    """`preview --agent codex` loads the very bytes Codex sent between its <INSTRUCTIONS> tags."""
    args = [
        "preview",
        "--agent",
        "codex",
        "--output-format",
        "json",
        *_codex_max_bytes(ml.session),
        str(ml.session.cwd),
    ]
    _, preview = ml.json(*args)
    assert isinstance(preview, dict)
    loaded = ml.session.neutral(preview.get("loaded") or "")
    sent = recorded["instructions"]
    real = (sent["bytes"], sent["sha256"]) if sent else (0, None)
    ours = (counts(loaded)["bytes"], counts(loaded)["sha256"]) if loaded else (0, None)
    assert ours == real, (
        f"{recorded['case']}: AGENTS.md chain (bytes, sha256)\n"
        f"  Codex {recorded['client_version']}: {real}\n  mnemolint preview --agent codex: {ours}"
    )


def _replay_check(recorded: dict, ml: Mnemolint) -> None:
    """`check` lints the case's tree (and its auto memory) without a usage error or a crash."""
    paths = [str(ml.session.project)]
    if ml.session.memory_dir.is_dir():
        paths.append(str(ml.session.memory_dir))
    _, found = ml.json("check", "--no-cache", "--preview", "--output-format", "json", *paths)
    assert isinstance(found, list)


def _replay_gemini_start(recorded: dict, ml: Mnemolint) -> None:
    """`preview --agent gemini-cli` sends the files Gemini CLI sent at the start, in its order, each
    with the very text it sent (by digest) and what its import processor wrote of each import."""
    session = ml.session
    _, preview = ml.json("preview", "--agent", "gemini-cli", "--output-format", "json", str(session.cwd))
    assert isinstance(preview, dict)
    outcome = {
        "imported": "imported",
        "already processed": "already processed",
        "failed": "failed",
        "outside": "failed",
    }

    def said(found: dict) -> dict:
        reason = {"reason": session.neutral(found["reason"])} if found.get("reason") else {}
        return {"import": found["import"], "outcome": outcome[found["outcome"]], **reason}

    ours = [
        (
            session.placeholder(os.path.abspath(entry["path"])),
            entry["kind"],
            counts(session.neutral(entry["sent"]))["sha256"],
            [said(found) for found in entry["imports"] if found["outcome"] in outcome],
        )
        for entry in preview["files"]
        if entry["sent"] is not None
    ]
    real = [(f["path"], f["kind"], f["sha256"], f["imports"]) for f in recorded["files"] if f["turn"] == 0]
    assert recorded["save_memory_tool"] is SAVE_MEMORY_TOOL, f"{recorded['case']}: a save_memory tool was offered"
    for place in ("project", "system"):
        mine = [entry for entry in ours if (entry[1] == "project") == (place == "project")]
        theirs = [entry for entry in real if (entry[1] == "project") == (place == "project")]
        assert mine == theirs, (
            f"{recorded['case']}: {place} files (path, kind, sha256, imports)\n"
            f"  Gemini CLI {recorded['client_version']}: {theirs}\n  mnemolint preview --agent gemini-cli: {mine}"
        )


def _replay_gemini_touch(recorded: dict, ml: Mnemolint) -> None:
    """`explain-rules --agent gemini-cli` lists the files Gemini CLI added to a tool's result when
    the model read each of the case's files."""
    session = ml.session
    listed: list[str] = []
    for read in session.reads:
        _, explained = ml.json(
            "explain-rules", "--agent", "gemini-cli", "--root", str(session.cwd), "--output-format", "json",
            str(session.project / read),
        )  # fmt: skip
        assert isinstance(explained, dict)
        project = explained["project"]
        listed += [
            session.placeholder(os.path.normpath(os.path.join(project, p))) for p in explained["agents"][0]["nested"]
        ]
    real = [f["path"] for f in recorded["files"] if f["turn"] > 0]
    assert listed == real, f"{recorded['case']}: files added on a read\n  Gemini CLI: {real}\n  mnemolint: {listed}"


def _replay_opencode(recorded: dict, ml: Mnemolint) -> None:
    """`preview --agent opencode` lists the files OpenCode sent at the start, in its order and
    whole; `explain-rules --agent opencode` the ones it attached on each read."""
    session = ml.session
    for line in (session.option("env") or "").splitlines():
        ml.monkeypatch.setenv(*line.split("=", 1))
    _, preview = ml.json("preview", "--agent", "opencode", "--output-format", "json", str(session.cwd))
    assert isinstance(preview, dict)

    def said(path: str) -> str:
        return session.placeholder(os.path.normpath(os.path.join(os.getcwd(), os.path.expanduser(path))))

    ours = [(said(f["path"]), f["bytes"]) for f in preview["files"] if f["sent"]]
    real = [(f["path"], f["bytes"]) for f in recorded["files"] if f["place"] == "system"]
    assert ours == real, (
        f"{recorded['case']}: files at the start (path, bytes)\n"
        f"  OpenCode {recorded['client_version']}: {real}\n  mnemolint preview --agent opencode: {ours}"
    )
    attached: list[str] = []
    for read in session.reads:
        args = ["explain-rules", "--agent", "opencode", "--root", str(session.cwd), "--output-format", "json"]
        _, explained = ml.json(*args, str(session.project / read))
        assert isinstance(explained, dict)
        nested = [said(os.path.join(explained["project"], p)) for p in explained["agents"][0]["nested"]]
        attached += [path for path in nested if path not in attached]
    sent = [f["path"] for f in recorded["files"] if f["place"] == "read"]
    assert attached == sent, f"{recorded['case']}: attached on read\n  OpenCode: {sent}\n  mnemolint: {attached}"


REPLAY = {
    "gemini-start": _replay_gemini_start,
    "gemini-touch": _replay_gemini_touch,
    "memory": _replay_memory,
    "mem101": _replay_mem101,
    "files": _replay_files,
    "instructions": _replay_instructions,
    "check": _replay_check,
    "opencode": _replay_opencode,
}


@pytest.mark.parametrize(("fixture_path", "aspect"), _params())
def test_replay(
    fixture_path: Path, aspect: str, case_dirs: dict[str, Path], tmp_path: Path, monkeypatch, capsys
) -> None:
    recorded = json.loads(fixture_path.read_text(encoding="utf-8"))
    assert recorded["case"] in case_dirs, f"{fixture_path}: no case {recorded['case']} in tools/oracle/cases_*.py"
    session = casetree.lay_out(case_dirs[recorded["case"]], tmp_path / "session")
    if recorded["client"] == "claude":  # the user's own ~/.claude.json and settings, as the client had them
        for name, content in casetree.claude_config(session).items():
            (session.home / name).parent.mkdir(parents=True, exist_ok=True)
            (session.home / name).write_text(json.dumps(content), encoding="utf-8")
    if recorded["client"] == "gemini-cli":  # the user's ~/.gemini/settings.json, as the client had it
        gemini.write_home(session)
    REPLAY[aspect](recorded, Mnemolint(session, monkeypatch, capsys))


def test_every_case_is_recorded(case_dirs: dict[str, Path]) -> None:
    """Each case defined has a fixture and each fixture a case: re-record after changing the cases."""
    recorded = {path.stem: path.parent.name for path in _fixtures()}
    defined = {name: (path / "client").read_text().strip() for name, path in case_dirs.items()}
    assert recorded == defined, (
        f"not recorded: {sorted(set(defined) - set(recorded))}; no case: {sorted(set(recorded) - set(defined))} "
        "(python tools/oracle/record.py [--install] CASE…)"
    )


def test_fixtures_come_from_the_pinned_clients() -> None:
    import record

    pins = {client: version for client, (_, version) in record.PINS.items()}
    recorded = [json.loads(path.read_text(encoding="utf-8")) for path in _fixtures()]
    wrong = {r["case"]: r["client_version"] for r in recorded if r["client_version"] != pins[r["client"]]}
    assert recorded and not wrong, f"fixtures recorded from other client versions than {pins}: {wrong}"


def test_fixtures_hold_no_client_prompt_text() -> None:
    """A fixture keeps counts, digests, paths, markers and the client's notes about a file; no
    other long text (the client's prompt is not ours to copy)."""
    for path in _fixtures():

        def strings(value: object) -> list[str]:
            if isinstance(value, dict):
                return [s for k, v in value.items() if k != "notes" for s in strings(v)]
            if isinstance(value, list):
                return [s for v in value for s in strings(v)]
            return [value] if isinstance(value, str) else []

        # a path is ours (a case's folders), however long; any other long text is not
        long = [s for s in strings(json.loads(path.read_text(encoding="utf-8"))) if len(s) > 100 and " " in s]
        assert long == [], f"{path}: unexpected text {long[0][:80]!r}"
