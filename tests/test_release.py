"""The project can be released: one version, a changelog, a release workflow GitHub accepts, and an
sdist and a wheel that pass `twine check`, install in a clean environment and run.

The build tests are `packaging` tests: they build from the same copy of the checkout and install from
the same wheelhouse as the pre-commit tests (tests/conftest.py), so nothing but that one download
reaches the package index.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml
from conftest import EXAMPLE, PROJECT

import mnemolint

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

packaging = pytest.mark.packaging
RELEASE = PROJECT / ".github" / "workflows" / "release.yml"
USERS_WORKFLOW = PROJECT / "hooks" / "github-actions" / "mnemolint.yml"


def run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_the_version_has_one_source() -> None:
    project = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["hatch"]["version"]["path"] == "src/mnemolint/__init__.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+", mnemolint.__version__)


def test_the_changelog_has_a_section_for_what_is_not_released_or_for_this_version() -> None:
    headings = re.findall(r"^## \[([^\]]+)\]", (PROJECT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert headings and headings[0] in ("Unreleased", mnemolint.__version__)


def test_no_dependency_is_listed_twice() -> None:
    project = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))
    names = [re.match(r"[A-Za-z0-9_.-]+", spec).group().lower() for spec in project["project"]["dependencies"]]
    assert len(names) == len(set(names)), names


@pytest.mark.parametrize("workflow", [RELEASE, USERS_WORKFLOW], ids=lambda path: path.name)
def test_the_workflows_are_valid_github_workflows(workflow: Path) -> None:
    """Against the GitHub workflow schema that check-jsonschema ships (no network)."""
    run(sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", workflow)


def test_a_workflow_with_a_wrong_key_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(broken)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1


def test_the_release_publishes_by_trusted_publishing_from_a_checked_tag() -> None:
    workflow = yaml.safe_load(RELEASE.read_text(encoding="utf-8"))
    assert workflow[True]["push"]["tags"] == ["v*"]  # YAML 1.1 reads the key `on` as true
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    commands = "\n".join(step.get("run", "") for step in build["steps"])
    assert "src/mnemolint/__init__.py" in commands and "GITHUB_REF_NAME" in commands
    assert "twine check --strict" in commands and "python -m build" in commands
    assert publish["needs"] == "build" and publish["permissions"] == {"id-token": "write"}
    (upload,) = [step for step in publish["steps"] if "pypi-publish" in step.get("uses", "")]
    assert "with" not in upload or not {"password", "user"} & set(upload["with"])  # no stored token


@pytest.fixture(scope="module")
def dist(hook_repo: Path, wheelhouse: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`python -m build` of the checkout copy: an sdist and a wheel (the backend from the wheelhouse)."""
    out = tmp_path_factory.mktemp("dist")
    env = {**_environ(), "PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_INDEX": "1"}
    run(sys.executable, "-m", "build", "--outdir", out, hook_repo, env=env)
    return out


def _environ() -> dict[str, str]:
    import os

    return {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}


@packaging
def test_the_sdist_and_the_wheel_pass_twine_check(dist: Path) -> None:
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    assert sdist.name == f"mnemolint-{mnemolint.__version__}.tar.gz"
    run(sys.executable, "-m", "twine", "check", "--strict", sdist, wheel)
    names = zipfile.ZipFile(wheel).namelist()
    assert "mnemolint/catalog/MEM101.md" in names and not any(name.startswith("tests/") for name in names)
    with tarfile.open(sdist) as archive:
        assert f"mnemolint-{mnemolint.__version__}/CHANGELOG.md" in archive.getnames()


@packaging
@pytest.mark.parametrize("artifact", ["*.whl", "*.tar.gz"])
def test_each_artifact_installs_in_a_clean_venv_and_runs(
    artifact: str, dist: Path, wheelhouse: Path, tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    (package,) = dist.glob(artifact)
    env = {**_environ(), "PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_INDEX": "1"}
    run(venv / "bin" / "pip", "install", "--quiet", package, env=env)
    assert run(venv / "bin" / "mnemolint", "--version").split() == ["mnemolint", mnemolint.__version__]
    result = subprocess.run(
        [str(venv / "bin" / "mnemolint"), "check", "--no-cache", str(EXAMPLE)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 1 and "Found " in result.stdout, result.stderr
    probe = "import mnemolint.api as a\ntry:\n    a.read('x.md')\nexcept ImportError as e:\n    print(e)\n"
    assert "mnemolint[api]" in run(venv / "bin" / "python", "-c", probe, cwd=tmp_path)
