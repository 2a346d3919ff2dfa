"""The Copilot CLI as an oracle: what `@github/copilot` really reads of a project's instruction files.

The CLI runs offline (`COPILOT_OFFLINE=true`, a model provider of its own on 127.0.0.1: the fake
API of `fake_api.py`, spoken to as Anthropic's), in the same empty network namespace as the other
clients (`sandbox.py`), on each case of `CASES`, twice: `copilot instruction list --json` (the
sources it found and the `applyTo` it read of each) and `copilot -p "say hi"` (its first model
request: which files' text it loaded whole, and which files it only offered by path for the model
to read when it works on a matching file). The fixture `tests/oracle-copilot/<case>.json` keeps
those paths and patterns only, never the client's own prompt text; `tests/test_copilot_oracle.py`
replays them against mnemolint.

    python3 tools/oracle/copilot_cli.py --install        # every case; then review `git diff tests/oracle-copilot`
    python3 tools/oracle/copilot_cli.py c1_apply_to_forms --binary PATH

Needs npm (for `--install`), git and a network namespace (root, or unprivileged user namespaces).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from runner import Unavailable, netns_command  # noqa: E402
from sandbox import PORT_TOKEN  # noqa: E402

PACKAGE, VERSION = "@github/copilot", os.environ.get("COPILOT_VERSION", "1.0.102")
FIXTURES = HERE.parents[1] / "tests" / "oracle-copilot"
DEFAULT_NPM = Path(os.environ.get("MNEMOLINT_ORACLE_NPM") or Path.home() / ".cache" / "mnemolint-oracle" / "npm")
MARK = re.compile(r"MARK-[A-Za-z0-9_]+")
OFFERED = re.compile(r"^\| [^|\n]* \| '([^'\n]+)' \|", re.MULTILINE)  # a row of the table of files offered by path


def marker(path: str) -> str:
    """The marker a case file's text carries: its path, spelled as one word."""
    return "MARK-" + re.sub(r"[^A-Za-z0-9]", "_", path)


def instructions(front: str | None) -> str:
    return (f"---\n{front}\n---\n" if front is not None else "") + "{mark}\n"


# Each case: the files (`{mark}` is replaced by the file's marker), and the session folder.
CASES: dict[str, dict] = {
    "c1_apply_to_forms": {
        "cwd": "",
        "files": {
            "src/a.ts": "",
            "lib/b.py": "",
            ".github/copilot-instructions.md": instructions('applyTo: "**/*.nothing"'),
            ".github/instructions/unquoted.instructions.md": instructions("applyTo: **/*.ts"),
            ".github/instructions/comma.instructions.md": instructions('applyTo: "src/**/*.ts,**/*.py"'),
            ".github/instructions/spaced.instructions.md": instructions("applyTo: src/**/*.ts, lib/**"),
            ".github/instructions/braces.instructions.md": instructions('applyTo: "**/*.{ts,tsx}"'),
            ".github/instructions/flow.instructions.md": instructions('applyTo: ["src/**", "lib/**"]'),
            ".github/instructions/block.instructions.md": instructions('applyTo:\n  - "**/*.md"\n  - docs/**'),
            ".github/instructions/comment.instructions.md": instructions('applyTo: "**/*.ts" # ts'),
            ".github/instructions/twice.instructions.md": instructions('applyTo: "**/*.ts"\napplyTo: "**/*.py"'),
            ".github/instructions/unclosed.instructions.md": instructions("applyTo: [unclosed"),
            ".github/instructions/sub/nested.instructions.md": instructions("applyTo: '*.py'"),
            ".github/instructions/star.instructions.md": instructions('applyTo: "**"'),
            ".github/instructions/one.instructions.md": instructions('applyTo: "*"'),
            ".github/instructions/all.instructions.md": instructions('applyTo: "**/*"'),
            ".github/instructions/empty.instructions.md": instructions('applyTo: ""'),
            ".github/instructions/emptylist.instructions.md": instructions("applyTo: []"),
            ".github/instructions/none.instructions.md": instructions('description: "about python"'),
            ".github/instructions/plain.instructions.md": instructions(None),
            ".github/instructions/wrongcase.instructions.md": instructions('ApplyTo: "**/*.ts"'),
            ".github/instructions/review.instructions.md": instructions(
                'applyTo: "**/*.ts"\nexcludeAgent: code-review'
            ),
            ".github/instructions/coding.instructions.md": instructions('applyTo: "**"\nexcludeAgent: "coding-agent"'),
            ".github/instructions/notes.md": instructions(None),
        },
    },
    "c2_nested_agents": {
        "cwd": "pkg/sub",
        "files": {
            "AGENTS.md": "{mark}\n",
            "pkg/AGENTS.md": "{mark}\n",
            "pkg/sub/AGENTS.md": "{mark}\n",
            "pkg/CLAUDE.md": "{mark}\n",
            ".github/copilot-instructions.md": "{mark}\n",
            "pkg/.github/copilot-instructions.md": "{mark}\n",
            "pkg/.github/instructions/p.instructions.md": instructions(None),
        },
    },
    "c3_other_tools": {
        "cwd": "",
        "files": {
            "CLAUDE.md": "{mark}\n",
            "GEMINI.md": "{mark}\n",
            ".cursorrules": "{mark}\n",
            ".cursor/rules/a.mdc": instructions("alwaysApply: true"),
            ".windsurf/rules/w.md": instructions("trigger: always_on"),
            ".clinerules": "{mark}\n",
        },
    },
}


def lay_out(case: dict, root: Path) -> Path:
    """Write the case under `root` (a git repository), return its session folder."""
    for rel, text in case["files"].items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("{mark}", marker(rel)), encoding="utf-8")
    env = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "PATH": os.environ.get("PATH", "")}
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    return root / case["cwd"]


def _run(argv: list[str], cwd: Path, home: Path, capture: Path, netns: list[str]) -> str:
    """One client run in the sandbox; its stdout."""
    capture.mkdir(parents=True, exist_ok=True)
    spec = {
        "argv": argv,
        "env": {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "TMPDIR": str(home),
            "COPILOT_OFFLINE": "true",
            "COPILOT_AUTO_UPDATE": "false",
            "COPILOT_PROVIDER_TYPE": "anthropic",
            "COPILOT_PROVIDER_BASE_URL": f"http://127.0.0.1:{PORT_TOKEN}",
            "COPILOT_PROVIDER_API_KEY": "dummy-key-not-real-0000",
            "COPILOT_MODEL": "claude-sonnet-4.5",
            "NO_COLOR": "1",
            "HTTP_PROXY": "",
            "HTTPS_PROXY": "",
        },
        "cwd": str(cwd),
        "capture": str(capture),
        "reads": [],
        "timeout": 90,
    }
    (capture / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    subprocess.run(
        [*netns, sys.executable, str(HERE / "sandbox.py"), str(capture / "spec.json")], check=True, timeout=200
    )
    return (capture / "stdout").read_text(encoding="utf-8", errors="replace")


def record(name: str, binary: Path, netns: list[str], work: Path) -> dict:
    """What the CLI listed, loaded whole and offered by path on case `name`."""
    case = CASES[name]
    root = work / name / "project"
    cwd = lay_out(case, root)
    listed = json.loads(
        _run([str(binary), "instruction", "list", "--json"], cwd, work / name / "h1", work / name / "c1", netns)
    )
    _run(
        [str(binary), "-p", "say hi", "--allow-all-tools", "--trust-folder", "--disable-client-telemetry"],
        cwd,
        work / name / "h2",
        work / name / "c2",
        netns,
    )
    first = (work / name / "c2" / "requests.jsonl").read_text(encoding="utf-8").splitlines()[0]
    body = json.dumps(json.loads(first)["body"], ensure_ascii=False).replace("\\n", "\n")
    by_marker = {marker(rel): rel for rel in case["files"]}
    return {
        "case": name,
        "client": "copilot",
        "client_version": VERSION,
        "listed": sorted(
            ({"path": entry["sourcePath"], "applyTo": entry.get("applyTo")} for entry in listed),
            key=lambda entry: entry["path"],
        ),
        "loaded_whole": sorted({by_marker[mark] for mark in MARK.findall(body) if mark in by_marker}),
        "offered": sorted(set(OFFERED.findall(body))),
    }


def install(prefix: Path) -> Path:
    if shutil.which("npm") is None:
        raise Unavailable("npm is not installed")
    command = ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--ignore-scripts"]
    subprocess.run([*command, f"{PACKAGE}@{VERSION}"], check=True, capture_output=True, timeout=900)
    return binary_under(prefix)


def binary_under(prefix: Path) -> Path:
    return prefix / "node_modules" / "@github" / "copilot-linux-x64" / "copilot"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="*", help="default: every case")
    parser.add_argument("--install", action="store_true", help=f"npm install {PACKAGE}@{VERSION} first")
    parser.add_argument("--npm", type=Path, default=DEFAULT_NPM)
    parser.add_argument("--binary", type=Path, help="the CLI's native binary (default: under --npm)")
    parser.add_argument("--out", type=Path, default=FIXTURES)
    arguments = parser.parse_args(argv)
    try:
        binary = install(arguments.npm) if arguments.install else arguments.binary or binary_under(arguments.npm)
        netns = netns_command()
    except Unavailable as why:
        print(f"copilot oracle: cannot run here: {why}", file=sys.stderr)
        return 3
    arguments.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="copilot-oracle-") as work:
        for name in arguments.cases or list(CASES):
            found = record(name, binary, netns, Path(work))
            (arguments.out / f"{name}.json").write_text(json.dumps(found, indent=2) + "\n", encoding="utf-8")
            print(f"{name}: {len(found['listed'])} listed, {len(found['loaded_whole'])} loaded whole")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
