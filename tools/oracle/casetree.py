"""Oracle cases: finding their definitions, and laying a case out as the session a client runs in.

The recorder (record.py) and the replay test (tests/test_oracle_replay.py) both lay a case out here,
so the client and mnemolint see the same tree, the same $HOME and the same auto-memory folder.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # so that a cases_* module can import its siblings (cases_base)
from cases_base import HOME_TOKEN  # noqa: E402

CLIENTS = ("claude", "codex", "gemini-cli", "opencode")
DUMMY_KEY = "dummy-key-not-real-0000"  # the only key a client is given; the fake API takes any
# A fixed identity and none of the user's git config, for the `git` cases.
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "oracle",
    "GIT_AUTHOR_EMAIL": "oracle@mnemolint.invalid",
    "GIT_COMMITTER_NAME": "oracle",
    "GIT_COMMITTER_EMAIL": "oracle@mnemolint.invalid",
}


def case_modules() -> list[Path]:
    """Every `cases_*.py` beside this file, by name."""
    return sorted(HERE.glob("cases_*.py"))


def write_all(out: Path) -> dict[str, Path]:
    """Write the cases of every module under `out`; return case name → case folder."""
    written: dict[str, Path] = {}
    for module_path in case_modules():
        spec = importlib.util.spec_from_file_location(f"oracle_{module_path.stem}", module_path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name in module.write_cases(out):
            if name in written:
                raise ValueError(f"oracle case {name} is defined twice ({module_path.name})")
            client = (out / name / "client").read_text().strip()
            if client not in CLIENTS:
                raise ValueError(f"oracle case {name}: client {client!r} is not one of {CLIENTS}")
            written[name] = out / name
    return written


def slug(path: str) -> str:
    """The folder under ~/.claude/projects/ of a project: every UTF-16 unit outside [A-Za-z0-9]
    becomes `-`; past 200 units the name is cut to 200 and `-` plus the base-36 absolute value of
    the key's 32-bit Java hashCode is added (Claude Code 2.1.332, cases cl33a and cl33b)."""
    units = path.encode("utf-16-le", "surrogatepass")
    codes = [int.from_bytes(units[at : at + 2], "little") for at in range(0, len(units), 2)]
    name = "".join(chr(code) if chr(code).isascii() and chr(code).isalnum() else "-" for code in codes)
    if len(name) <= 200:
        return name
    value = 0
    for code in codes:
        value = (value * 31 + code) & 0xFFFFFFFF
    number = abs(value - (1 << 32) if value & 0x80000000 else value)
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
        if not number:
            return f"{name[:200]}-{digits}"


@dataclass(frozen=True)
class Session:
    """A case laid out: the project copy, the session folder in it and the throwaway $HOME."""

    name: str
    client: str
    case: Path
    project: Path
    cwd: Path
    root: Path  # the git root, else the session folder: what names the auto-memory folder
    home: Path

    @property
    def reads(self) -> list[str]:
        """The project-relative files the fake model Reads, one per turn."""
        path = self.case / "reads"
        return [line for line in path.read_text().splitlines() if line] if path.exists() else []

    @property
    def memory_dir(self) -> Path:
        """Claude Code's auto-memory folder for this session."""
        return self.home / ".claude" / "projects" / slug(str(self.root)) / "memory"

    def option(self, name: str) -> str | None:
        """The text of the case's optional file `name` (`settings.json`, `codex.toml`, …), if any."""
        path = self.case / name
        return path.read_text(encoding="utf-8") if path.exists() else None

    def placeholder(self, path: str) -> str:
        """`path` said without this machine's folders: <PROJECT>/…, <HOME>/… and <SLUG>."""
        real = os.path.normpath(path)
        inside = any(real == str(root) or real.startswith(str(root) + os.sep) for root in (self.project, self.home))
        return self.neutral(real) if inside else real

    def neutral(self, text: str) -> str:
        """`text` with this session's folders said as <PROJECT>, <HOME> and <SLUG>, so that what a
        client sent is the same on every machine (a case may hold an absolute path: HOME_TOKEN)."""
        for real, token in (
            (str(self.project), "<PROJECT>"),
            (str(self.home), "<HOME>"),
            (slug(str(self.root)), "<SLUG>"),
        ):
            text = text.replace(real, token)
        return text


def lay_out(case: Path, base: Path) -> Session:
    """Copy `case` to a session under `base` (base/project, base/home), as a client will run it."""
    case = case.resolve()
    base = base.resolve()
    project, home = base / "project", base / "home"
    shutil.rmtree(base, ignore_errors=True)
    shutil.copytree(case / "project", project, symlinks=True)
    home.mkdir(parents=True)
    if (case / "home").is_dir():
        shutil.copytree(case / "home", home, symlinks=True, dirs_exist_ok=True)
    for path in project.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if HOME_TOKEN.encode() in data:
                path.write_bytes(data.replace(HOME_TOKEN.encode(), str(home).encode()))
    if (case / "git").exists():
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "oracle case", "--allow-empty"]):
            subprocess.run(["git", *args], cwd=project, env={**os.environ, **GIT_ENV}, check=True, timeout=60)
    cwd_file = case / "cwd"
    cwd = (project / cwd_file.read_text().strip()).resolve() if cwd_file.exists() else project
    session = Session(
        name=case.name,
        client=(case / "client").read_text().strip(),
        case=case,
        project=project,
        cwd=cwd,
        root=project if (case / "git").exists() else cwd,
        home=home,
    )
    if (case / "automem").is_dir():
        shutil.copytree(case / "automem", session.memory_dir, symlinks=True)
    return session


def claude_config(session: Session) -> dict[str, dict]:
    """The throwaway ~/.claude.json and ~/.claude/settings.json: onboarding done, the project
    trusted (plus the case's own project keys), auto memory on unless the case says otherwise."""
    project = {
        "hasTrustDialogAccepted": True,
        "hasCompletedProjectOnboarding": True,
        "projectOnboardingSeenCount": 5,
        "allowedTools": [],
        **json.loads(session.option("claude_project.json") or "{}"),
    }
    state = {
        "hasCompletedOnboarding": True,
        "lastOnboardingVersion": "9.9.9",
        "numStartups": 5,
        "autoUpdates": False,
        "bypassPermissionsModeAccepted": True,
        "customApiKeyResponses": {"approved": [DUMMY_KEY[-20:]], "rejected": []},
        "projects": {str(session.cwd): project, str(session.root): project},
    }
    settings = json.loads(session.option("settings.json") or '{"autoMemoryEnabled": true, "autoUpdates": false}')
    return {".claude.json": state, ".claude/settings.json": settings}
