"""The pre-commit hooks, the files in hooks/ and the CI recipes of the docs, exercised with the real tools.

The `packaging` tests build the package and install it the way users get it: `pre-commit
try-repo` pip-installs this project into a fresh hook environment. To keep that fast and offline,
a session fixture fetches the wheels of the dependencies and the build backend once (the only
step that needs the package index), and every hook environment installs from them.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml
from conftest import GIT_ENV, git, run_cli, summary_of, write_tree

from mnemolint.cli import build_parser

PROJECT = Path(__file__).resolve().parent.parent
README = PROJECT / "README.md"
CI_DOC = PROJECT / "docs" / "ci.md"
MANIFEST = PROJECT / ".pre-commit-hooks.yaml"
EXAMPLE_CONFIG = PROJECT / "hooks" / ".pre-commit-config.yaml"
WORKFLOW = PROJECT / "hooks" / "github-actions" / "mnemolint.yml"
GIT_HOOK = PROJECT / "hooks" / "pre-commit"
TOPIC = "---\nname: {0}\ndescription: {0} notes\ntype: project\n---\nBody.\n"

packaging = pytest.mark.packaging

# The defects these repositories hold are MEM105's (a topic no index line links), a preview rule:
# their configuration turns preview on, as a team that wants every rule does.
PREVIEW_ON = {".mnemolint.toml": "preview = true\n"}


def hooks() -> dict[str, dict]:
    return {hook["id"]: hook for hook in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}


def with_mnemolint_on_path() -> dict[str, str]:
    """The environment with this interpreter's scripts (`mnemolint`) first on PATH, as an installed tool."""
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}


def pre_commit(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key not in ("SKIP", "GITHUB_ACTIONS")}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        env={**environment, **GIT_ENV, "NO_COLOR": "1", **(env or {})},
        capture_output=True,
        text=True,
        timeout=600,
    )


# --- the manifest and the files users copy (no installation) -------------------------------------


def test_manifest_is_valid() -> None:
    result = pre_commit("validate-manifest", str(MANIFEST), cwd=PROJECT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert set(hooks()) == {"mnemolint", "mnemolint-fix"}


@pytest.mark.parametrize("hook_id", ["mnemolint", "mnemolint-fix"])
def test_manifest_hooks(hook_id: str) -> None:
    hook = hooks()[hook_id]
    assert hook["language"] == "python"
    assert hook["require_serial"] is True  # index rules need the whole memory dir in one process
    assert tuple(int(part) for part in hook["minimum_pre_commit_version"].split(".")) >= (2, 9, 0)  # types_or
    command = shlex.split(hook["entry"])
    assert command[:2] == ["mnemolint", "check"]
    build_parser().parse_args(command[1:] + ["memory/MEMORY.md"])  # every flag exists (argparse exits if not)


def test_manifest_triggers_on_every_memory_file_kind(tmp_path: Path) -> None:
    """pre-commit itself filters with the manifest's `files`/`types`: a hook that prints what it was given."""
    repo = write_tree(
        tmp_path / "repo",
        {
            "memory/MEMORY.md": "- [Build](build.md) — Build notes\n",
            "memory/build.md": TOPIC.format("Build"),
            "AGENTS.md": "Use tabs.\n",
            ".gitignore": ".ai-memory/logs/\n",
            ".ai-memory/sessions/2024-05-01.jsonl": '{"role": "user"}\n',
        },
    )
    (repo / ".wave/rules").mkdir(parents=True)
    (repo / ".wave/rules/shared").symlink_to("../../memory")
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    filters = {
        key: value for key, value in hooks()["mnemolint"].items() if key in ("files", "exclude", "types", "types_or")
    }
    echo = {"id": "show", "name": "show", "language": "system", "verbose": True, **filters}
    echo["entry"] = f"{sys.executable} -c 'import sys; print(*sys.argv[1:], sep=chr(10))'"
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"repos": [{"repo": "local", "hooks": [echo]}]}), encoding="utf-8")
    passed = git("ls-files", cwd=repo).split()
    result = pre_commit("run", "-c", str(config), "--color", "never", "--files", *passed, cwd=repo)
    assert result.returncode == 0, result.stdout + result.stderr
    shown = result.stdout.splitlines()
    assert sorted(path for path in passed if path in shown) == sorted(passed)


def test_example_config_is_valid_and_names_real_hooks() -> None:
    result = pre_commit("validate-config", str(EXAMPLE_CONFIG), cwd=PROJECT)
    assert result.returncode == 0, result.stdout + result.stderr
    config = yaml.safe_load(EXAMPLE_CONFIG.read_text(encoding="utf-8"))
    (repo,) = config["repos"]
    assert repo["repo"] == "https://github.com/mnemolint/mnemolint"
    assert {hook["id"] for hook in repo["hooks"]} <= set(hooks())
    commented = [line.split("id:", 1)[1].strip() for line in EXAMPLE_CONFIG.read_text().splitlines() if "id:" in line]
    assert set(commented) <= set(hooks())


def test_github_workflow() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    (job,) = workflow["jobs"].values()
    assert job["permissions"]["security-events"] == "write"
    steps = job["steps"]
    runs = [step["run"] for step in steps if "mnemolint check" in step.get("run", "")]
    for command in runs:  # every mnemolint invocation is one the CLI accepts
        build_parser().parse_args(shlex.split(command.split(">")[0])[1:])
    assert any("--output-format github" in command for command in runs)
    sarif_step = next(step for step in steps if "--output-format sarif" in step.get("run", ""))
    sarif_file = sarif_step["run"].split(">")[1].strip()
    (upload,) = [step for step in steps if step.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    assert upload["if"] == sarif_step["if"] == "always()"  # upload even when the lint step failed the job
    assert upload["with"] == {"sarif_file": sarif_file, "category": "mnemolint"}
    assert steps.index(upload) > steps.index(sarif_step)


def test_plain_git_hook(tmp_path: Path) -> None:
    """hooks/pre-commit as git runs it: blocks a commit with a bad memory file, lets a clean one through."""
    repo = write_tree(tmp_path / "repo", {"memory/MEMORY.md": "- [Build](build.md) — Build notes\n", **PREVIEW_ON})
    write_tree(repo, {"memory/build.md": TOPIC.format("Build"), "app.py": "print()\n"})
    git("init", "-q", cwd=repo)
    hook_dir = tmp_path / "git-hooks"
    hook_dir.mkdir()
    shutil.copy2(GIT_HOOK, hook_dir / "pre-commit")
    git("config", "core.hooksPath", str(hook_dir), cwd=repo)
    env = {**with_mnemolint_on_path(), **GIT_ENV}

    def commit(*paths: str) -> subprocess.CompletedProcess:
        git("add", *paths, cwd=repo)
        return subprocess.run(
            ["git", "commit", "-q", "-m", "change"], cwd=repo, env=env, capture_output=True, text=True, timeout=120
        )

    first = commit("-A")
    assert first.returncode == 0, first.stderr
    write_tree(repo, {"memory/odd name, v2.md": TOPIC.format("Odd"), "notes.txt": "x\n"})
    blocked = commit("-A")
    assert blocked.returncode != 0
    assert "memory/odd name, v2.md: MEM105 " in blocked.stderr  # git shows a hook's output on stderr
    assert "fix the findings above" in blocked.stderr
    (repo / "memory/odd name, v2.md").unlink()
    (repo / "memory/build.md").write_text(TOPIC.format("Build") + "More.\n", encoding="utf-8")
    allowed = commit("-A")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    git("rm", "-q", "app.py", cwd=repo)
    assert commit("-A").returncode == 0  # only a deletion staged: nothing to lint


def yaml_blocks(path: Path, after: str = "") -> list:
    """The ```yaml blocks of a Markdown file (those after the heading `after`), parsed."""
    text = path.read_text(encoding="utf-8").split(after, 1)[1] if after else path.read_text(encoding="utf-8")
    return [yaml.safe_load(block) for block in re.findall(r"^```yaml\n(.*?)^```$", text, re.S | re.M)]


def steps(workflow_steps: list[dict]) -> list[tuple]:
    return [(step.get("uses"), step.get("run"), step.get("if"), step.get("with")) for step in workflow_steps]


def test_ci_doc_shows_the_shipped_workflow() -> None:
    shipped = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert shipped in yaml_blocks(CI_DOC, "### GitHub code scanning")


def test_readme_integrations() -> None:
    config, workflow = yaml_blocks(README, "## Integrations")[:2]
    assert {hook["id"] for hook in config["repos"][0]["hooks"]} <= set(hooks())
    (shipped_job,) = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"].values()
    (job,) = workflow["jobs"].values()
    assert steps(job["steps"]) == steps(shipped_job["steps"])
    assert job["permissions"]["security-events"] == "write"


def test_gitlab_recipes(example: Path) -> None:
    plain, codequality = yaml_blocks(CI_DOC, "## GitLab CI")
    assert plain["mnemolint"]["script"][-1] == codequality["mnemolint"]["script"][-1] == "mnemolint check"
    job = codequality["mnemolint"]
    assert job["artifacts"]["reports"]["codequality"] == "gl-code-quality-report.json"
    if shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    for command in job["script"][:-1]:  # the JSON report, then jq
        result = subprocess.run(
            command,
            shell=True,
            cwd=example,
            env=with_mnemolint_on_path(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
    report = json.loads((example / "gl-code-quality-report.json").read_text(encoding="utf-8"))
    assert len(report) == summary_of(example, "--no-preview")[0]  # the recipe runs the default rules
    assert len({issue["fingerprint"] for issue in report}) == len(report)
    for issue in report:
        assert set(issue) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert (
            isinstance(issue["location"]["lines"]["begin"], int)
            and (example / issue["location"]["path"]).parent.is_dir()
        )


# --- the hooks installed by pre-commit, and the wheel ---------------------------------------------


@pytest.fixture
def offline(wheelhouse: Path, tmp_path: Path) -> dict[str, str]:
    """Environment for pre-commit: hook environments install from the wheelhouse, never the index."""
    return {
        "PIP_FIND_LINKS": str(wheelhouse),
        "PIP_NO_INDEX": "1",
        "VIRTUALENV_NO_PERIODIC_UPDATE": "1",
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
    }


def memory_repo(root: Path, files: dict[str, str | bytes]) -> Path:
    """A git repository holding `files` (and `PREVIEW_ON`), committed."""
    write_tree(root, {**PREVIEW_ON, **files})
    git("init", "-q", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "memory", cwd=root)
    return root


@packaging
def test_check_hook_with_try_repo(tmp_path: Path, hook_repo: Path, offline: dict[str, str]) -> None:
    """A changed topic passed alone is still checked against its index; nothing else is reported."""
    repo = memory_repo(
        tmp_path / "repo",
        {
            "memory/MEMORY.md": "- [Build](build.md) — Build notes\n",
            "memory/build.md": TOPIC.format("Build"),
            "other/memory/MEMORY.md": "- [Gone](gone.md) — Gone notes\n",  # broken, but not changed
            "app.py": "print()\n",
        },
    )
    write_tree(repo, {"memory/oncall.md": TOPIC.format("Oncall"), "app.py": "print(1)\n"})
    git("add", "-A", cwd=repo)
    files = ["memory/oncall.md", "memory/build.md", "app.py"]
    result = pre_commit(
        "try-repo", str(hook_repo), "mnemolint", "--color", "never", "--files", *files, cwd=repo, env=offline
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "mnemolint................" in result.stdout and "Failed" in result.stdout
    findings = [line for line in result.stdout.splitlines() if ": MEM" in line]
    assert findings == [
        "memory/oncall.md: MEM105 No line of MEMORY.md links to `oncall.md`: the index is the agent's only way to "
        "discover a topic, so this one is never read."
    ]


@packaging
def test_fix_hook_with_try_repo(tmp_path: Path, hook_repo: Path, offline: dict[str, str]) -> None:
    """The fix hook applies the safe fixes, fails because it changed files, and leaves them clean."""
    index = "- [Build](build.md) — Build notes\n- [gone](gone.md)\n"
    repo = memory_repo(
        tmp_path / "repo",
        {"memory/MEMORY.md": index, "memory/build.md": "\ufeff" + TOPIC.format("Build")},
    )
    files = ["memory/MEMORY.md", "memory/build.md"]
    result = pre_commit(
        "try-repo", str(hook_repo), "mnemolint-fix", "--color", "never", "--files", *files, cwd=repo, env=offline
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "files were modified by this hook" in result.stdout
    assert (repo / "memory/MEMORY.md").read_text(encoding="utf-8") == "- [Build](build.md) — Build notes\n"
    assert (repo / "memory/build.md").read_bytes() == TOPIC.format("Build").encode()
    after = run_cli("check", *files, cwd=repo)
    assert after.returncode == 0, after.stdout


@packaging
def test_wheel_ships_the_catalogue(tmp_path: Path, wheelhouse: Path) -> None:
    """Installed from the wheel (not this checkout), rule pages and SARIF help still come from the catalogue."""
    (wheel,) = wheelhouse.glob("mnemolint-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    write_tree(tmp_path / "repo", {"memory/MEMORY.md": "- [Gone](gone.md) — Gone notes\n"})
    env = {"PYTHONPATH": str(site)}
    where = subprocess.run(
        [sys.executable, "-c", "import mnemolint.catalog as c; print(c.catalog_dir())"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert where.stdout.strip() == str(site / "mnemolint" / "catalog"), where.stderr
    result = run_cli("check", "--output-format", "sarif", cwd=tmp_path / "repo", env=env)
    rules = json.loads(result.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert all(rule["help"]["markdown"].startswith(f"# {rule['id']} ") for rule in rules)
