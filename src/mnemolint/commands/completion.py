"""`mnemolint completion bash|zsh|fish`: a shell completion script, generated from the real
argument parser (`cli.build_parser` with every command), so a new command or option completes
with no edit here.

What a value completes to is read off its argparse action: its `choices`; rule codes for a
selector (`type=common.codes`: `--select MEM1,MEM2`, a comma list) and for a `CODE` positional
(codes and names, as `rule` takes either); files for a `FILE` or `PATH`, directories for a `DIR`;
nothing for any other value (a number, a date).
"""

from __future__ import annotations

import sys

from mnemolint.commands import EXIT_CLEAN

TYPE_CHECKING = False  # typing is not imported at run time: start-up cost on every commit
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

NAME = "completion"
HELP = "print a shell completion script (bash, zsh or fish)"
SHELLS = ("bash", "zsh", "fish")
FILES, DIRS, SELECTORS = "files", "dirs", "selectors"  # what a value completes to, besides a word list


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "shell",
        choices=SHELLS,
        help='bash: eval "$(mnemolint completion bash)" in ~/.bashrc; zsh: save it as _mnemolint in a folder '
        "of $fpath; fish: save it as ~/.config/fish/completions/mnemolint.fish",
    )


class Option:
    """One option of a command: its spellings, its help, and what its value completes to (None:
    it takes no value; an empty tuple: a value nothing can complete)."""

    __slots__ = ("strings", "help", "values")

    def __init__(self, strings: list[str], help: str, values: tuple[str, ...] | str | None) -> None:
        self.strings = strings
        self.help = help
        self.values = values


class Command:
    """A command: its name, its help, its options, and what its positional arguments complete to."""

    __slots__ = ("name", "help", "options", "positional")

    def __init__(self, name: str, help: str, options: list[Option], positional: tuple[str, ...] | str) -> None:
        self.name = name
        self.help = help
        self.options = options
        self.positional = positional


def commands(parser: argparse.ArgumentParser) -> list[Command]:
    """The commands of `parser` (built with every command) as completion needs them."""
    import argparse

    (subparsers,) = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    helps = {choice.dest: choice.help or "" for choice in subparsers._choices_actions}
    found = []
    for name, subparser in subparsers.choices.items():
        options: list[Option] = []
        positional: tuple[str, ...] | str = ()
        for action in subparser._actions:
            if action.help == argparse.SUPPRESS:
                continue
            if action.option_strings:
                values = None if action.nargs == 0 else _values(action)
                options.append(Option(list(action.option_strings), action.help or "", values))
            elif not positional:  # a command's first positional: what a bare word completes to
                positional = _values(action)
        found.append(Command(name, helps.get(name, ""), options, positional))
    return found


def _values(action: argparse.Action) -> tuple[str, ...] | str:
    from mnemolint.commands.common import codes

    if action.choices:
        return tuple(str(choice) for choice in action.choices)
    if action.type is codes:
        return SELECTORS
    if action.metavar == "CODE":
        from mnemolint.rules import RULES

        return tuple(rule.code for rule in RULES) + tuple(rule.name for rule in RULES)
    return {"FILE": FILES, "PATH": FILES, "DIR": DIRS}.get(str(action.metavar), ())


def selectors() -> tuple[str, ...]:
    """What `--select` takes: ALL, each family's prefix, each code."""
    from mnemolint.rules import FAMILIES, RULES

    return ("ALL", *(family.prefix for family in FAMILIES), *(rule.code for rule in RULES))


def run(args: argparse.Namespace) -> int:
    from mnemolint.cli import build_parser

    found = commands(build_parser())
    sys.stdout.write({"bash": bash, "zsh": zsh, "fish": fish}[args.shell](found))
    return EXIT_CLEAN


def _header(shell: str, how: str) -> str:
    from mnemolint import __version__

    return f"# {shell} completion for mnemolint {__version__}, made by `mnemolint completion {shell}`.\n# {how}\n"


def _action(values: tuple[str, ...] | str, forms: dict[str, str], listed: Callable[[str], str], free: str) -> str:
    """A shell's way to complete `values`: its form for files, folders or selectors (`forms`), a
    word list (`listed`, given the words joined by spaces), or nothing (`free`: any value)."""
    if isinstance(values, str):
        return forms[values]
    return listed(" ".join(values)) if values else free


def _quoted(text: str) -> str:
    """`text` in single quotes for bash and zsh."""
    return "'" + text.replace("'", "'\\''") + "'"


# --- bash -----------------------------------------------------------------------------------------


def bash(found: list[Command]) -> str:
    branches = "".join(_bash_branch(command) for command in found)
    top = " ".join([command.name for command in found] + ["--help", "--version"])
    return (
        _header("bash", 'Load it from ~/.bashrc: eval "$(mnemolint completion bash)"')
        + f"""_mnemolint_words() {{ mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur"); }}
_mnemolint_files() {{ compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen "$1" -- "$cur"); }}
_mnemolint_list() {{
    local head="" tail=$cur
    if [[ $cur == *,* ]]; then head=${{cur%,*}},; tail=${{cur##*,}}; fi
    mapfile -t COMPREPLY < <(compgen -P "$head" -W "$1" -- "$tail")
}}
_mnemolint() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} command="" i
    if [[ $cur == = ]]; then cur=""; elif [[ $prev == = ]]; then prev=${{COMP_WORDS[COMP_CWORD-2]}}; fi
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ ${{COMP_WORDS[i]}} != -* ]]; then command=${{COMP_WORDS[i]}}; break; fi
    done
    COMPREPLY=()
    local selectors={_quoted(" ".join(selectors()))}
    case $command in
    "") _mnemolint_words {_quoted(top)} ;;
{branches}    esac
}}
complete -F _mnemolint mnemolint
"""
    )


def _bash_action(values: tuple[str, ...] | str) -> str:
    forms = {FILES: "_mnemolint_files -f", DIRS: "_mnemolint_files -d", SELECTORS: '_mnemolint_list "$selectors"'}
    return _action(values, forms, lambda words: f"_mnemolint_words {_quoted(words)}", ":")


def _bash_branch(command: Command) -> str:
    valued = [option for option in command.options if option.values is not None]
    cases = "".join(
        f"        {'|'.join(option.strings)}) {_bash_action(option.values)}; return ;;\n"  # type: ignore[arg-type]
        for option in valued
    )
    flags = " ".join(string for option in command.options for string in option.strings)
    return (
        f"    {command.name})\n"
        f"        case $prev in\n{cases}        esac\n"
        f"        if [[ $cur == -* ]]; then _mnemolint_words {_quoted(flags)}\n"
        f"        else {_bash_action(command.positional)}; fi ;;\n"
    )


# --- zsh ------------------------------------------------------------------------------------------


def _zsh_text(text: str) -> str:
    """Help text inside an `_arguments` spec's brackets, or a `_describe` description."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]").replace(":", "\\:")


def _zsh_action(values: tuple[str, ...] | str) -> str:
    forms = {FILES: "_files", DIRS: "_files -/", SELECTORS: "_mnemolint_selectors"}
    return _action(values, forms, lambda words: f"({words})", " ")


def zsh(found: list[Command]) -> str:
    described = "\n".join(f"        {_quoted(f'{command.name}:{_zsh_text(command.help)}')}" for command in found)
    branches = "".join(_zsh_branch(command) for command in found)
    return (
        "#compdef mnemolint\n"
        + _header(
            "zsh",
            'Save it as _mnemolint in a folder of $fpath, or eval "$(mnemolint completion zsh)" after compinit.',
        )
        + f"""_mnemolint_selectors() {{
    _sequence compadd - {" ".join(selectors())}
}}
_mnemolint() {{
    local curcontext=$curcontext state line
    local -a commands
    _arguments -C '(- *)--version[show the version]' '(- *)'{{-h,--help}}'[show the help]' \\
        '1:command:->command' '*::argument:->argument'
    case $state in
    command)
        commands=(
{described}
        )
        _describe -t commands 'mnemolint command' commands ;;
    argument)
        case $line[1] in
{branches}        esac ;;
    esac
}}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _mnemolint "$@"; else compdef _mnemolint mnemolint; fi
"""
    )


def _zsh_branch(command: Command) -> str:
    specs = []
    for option in command.options:
        for string in option.strings:
            value = "" if option.values is None else f":value:{_zsh_action(option.values)}"
            specs.append(_quoted(f"{string}[{_zsh_text(option.help)}]{value}"))
    if command.positional:
        specs.append(_quoted(f"*:argument:{_zsh_action(command.positional)}"))
    joined = " \\\n                ".join(specs)
    return f"        {command.name})\n            _arguments \\\n                {joined} ;;\n"


# --- fish -----------------------------------------------------------------------------------------


def _fish_quoted(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish_action(values: tuple[str, ...] | str) -> str:
    words = " ".join(selectors())
    forms = {FILES: "-F", DIRS: "-x -a '(__fish_complete_directories)'", SELECTORS: f"-x -a {_fish_quoted(words)}"}
    return _action(values, forms, lambda words: f"-x -a {_fish_quoted(words)}", "-x")


def fish(found: list[Command]) -> str:
    lines = [
        "complete -c mnemolint -f",
        "complete -c mnemolint -n __fish_use_subcommand -s h -l help -d 'show the help'",
        "complete -c mnemolint -n __fish_use_subcommand -l version -d 'show the version'",
    ]
    for command in found:
        lines.append(
            f"complete -c mnemolint -n __fish_use_subcommand -a {command.name} -d {_fish_quoted(command.help)}"
        )
        when = f"-n '__fish_seen_subcommand_from {command.name}'"
        for option in command.options:
            spelled = " ".join(
                f"-l {string[2:]}" if string.startswith("--") else f"-s {string[1:]}" for string in option.strings
            )
            value = "" if option.values is None else " " + _fish_action(option.values)
            lines.append(f"complete -c mnemolint {when} {spelled}{value} -d {_fish_quoted(option.help)}")
        if command.positional:
            lines.append(f"complete -c mnemolint {when} {_fish_action(command.positional)}")
    how = "Save it as ~/.config/fish/completions/mnemolint.fish"
    return _header("fish", how) + "\n".join(lines) + "\n"
