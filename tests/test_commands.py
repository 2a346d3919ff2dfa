"""The command registry: each subcommand is one module of `mnemolint.commands` plus one line of
`MODULES`, and the parser, `--help` and dispatch all come from that, with nothing else to edit."""

from __future__ import annotations

import argparse
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import run_cli

from mnemolint import commands
from mnemolint.cli import build_parser
from mnemolint.commands.common import settings_from_args

MODULES = commands.load()


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    [action] = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    return action.choices


@pytest.mark.parametrize("module", MODULES, ids=commands.MODULES)
def test_every_command_module_has_the_four_names(module) -> None:
    assert isinstance(module.NAME, str) and module.NAME
    assert isinstance(module.HELP, str) and module.HELP and not module.HELP.endswith(".")
    assert callable(module.add_arguments) and callable(module.run)
    assert module.NAME.replace("-", "_") == module.__name__.rsplit(".", 1)[1]  # found by its name


def test_the_registry_and_the_parser_agree() -> None:
    parsed = subcommands(build_parser())
    assert list(parsed) == [module.NAME for module in MODULES]
    for module in MODULES:
        assert parsed[module.NAME].get_default("run") is module.run


def test_help_lists_each_command_with_its_help() -> None:
    process = run_cli("--help", env={"COLUMNS": "200"})
    assert process.returncode == 0
    listed = [line.split(None, 1) for line in process.stdout.splitlines() if line.startswith("    ")]
    assert listed == [[module.NAME, module.HELP] for module in MODULES]


def test_no_command_is_a_usage_error_with_the_help_on_stderr() -> None:
    process = run_cli()
    assert (process.returncode, process.stdout) == (2, "")
    assert all(module.NAME in process.stderr for module in MODULES)


def test_a_new_command_is_one_module_and_one_registry_line(tmp_path: Path) -> None:
    """A `hello` module in a directory of its own, and its name added to `MODULES`: it is parsed,
    listed in --help, run, and its ConfigError is the usual one-line usage error."""
    (tmp_path / "hello.py").write_text(
        textwrap.dedent(
            """
            import sys

            from mnemolint.errors import ConfigError

            NAME = "hello"
            HELP = "say hello"


            def add_arguments(parser):
                parser.add_argument("--to", required=True)


            def run(args):
                if args.to == "nobody":
                    raise ConfigError("hello to nobody")
                sys.stdout.write(f"hello {args.to}\\n")
                return 0
            """
        ),
        encoding="utf-8",
    )
    script = (
        "import sys\nimport mnemolint.commands as commands\n"
        f"commands.__path__.append({str(tmp_path)!r})\n"
        'commands.MODULES = (*commands.MODULES, "hello")\n'
        "from mnemolint.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    )

    def hello(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=60)

    said = hello("hello", "--to", "you")
    assert (said.returncode, said.stdout, said.stderr) == (0, "hello you\n", "")
    assert "say hello" in hello("--help").stdout
    refused = hello("hello", "--to", "nobody")
    assert (refused.returncode, refused.stderr) == (2, "mnemolint: error: hello to nobody\n")
    assert hello("hello").returncode == 2  # its own arguments are parsed: --to is required


def test_building_the_parser_imports_no_command_body() -> None:
    """Heavy modules stay inside `run`: `mnemolint rules` does not load the engine or the fixer."""
    heavy = ("mnemolint.rules", "mnemolint.engine", "mnemolint.fix", "mnemolint.catalog", "wcmatch", "rich")
    script = (
        "import sys\nfrom mnemolint.cli import build_parser\nbuild_parser().parse_args(['index', 'x'])\n"
        f"print(sorted(name for name in sys.modules if name.startswith({heavy!r})))\n"
    )
    process = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (process.returncode, process.stdout) == (0, "[]\n"), process.stderr
    probe = (
        "import sys\nfrom mnemolint.cli import main\nmain(['rules'])\n"
        "print('mnemolint.rules' in sys.modules, file=sys.stderr)"
    )
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert ran.stderr == "True\n"  # the probe sees a module once a command does import it


def test_settings_from_args_applies_the_selection_over_the_config(tmp_path: Path) -> None:
    (tmp_path / ".mnemolint.toml").write_text('select = ["MEM"]\nignore = ["MEM101"]\n', encoding="utf-8")
    plain = settings_from_args(argparse.Namespace(config=None), str(tmp_path))  # as `index` has it
    assert (plain.select, plain.ignore, plain.fail_level) == (["MEM"], ["MEM101"], "warning")
    given = argparse.Namespace(config=None, select=["FM"], extend_select=["TXT"], ignore=["FM004"], fail_level="error")
    settings = settings_from_args(given, str(tmp_path))
    assert (settings.select, settings.extend_select, settings.ignore) == (["FM"], ["TXT"], ["MEM101", "FM004"])
    assert settings.fail_level == "error"


def test_a_command_line_loads_only_the_command_it_names(tmp_path: Path) -> None:
    """Start-up on every commit: `check` builds its own arguments only; `--help` and a typo see all."""
    script = (
        "import sys\nfrom mnemolint.cli import build_parser\n"
        "build_parser(sys.argv[1:])\n"
        "print(sorted(name for name in sys.modules if name.startswith('mnemolint.commands.')))\n"
    )

    def loaded(*words: str) -> str:
        process = subprocess.run([sys.executable, "-c", script, *words], capture_output=True, text=True, timeout=60)
        return process.stdout.strip()

    shared = ("common", "check_input")  # what commands share; the arguments of check's input
    assert loaded("check", "-q", ".") == str(sorted(f"mnemolint.commands.{name}" for name in ("check", *shared)))
    everything = str(sorted(f"mnemolint.commands.{name}" for name in (*commands.MODULES, *shared)))
    assert loaded("--help") == loaded("chek") == loaded() == everything
