"""Shell completion for `referee`: a bash function (also for zsh, through bashcompinit) built
from the command line's own parser, so that it names every command and flag there is."""
from __future__ import annotations

import shlex

FILE_KINDS = {"FILE": "rules", "LOG": "json", "PATH": None, "DIR": "dir"}


def command_options(parser) -> dict:
    """command -> (its flags, the kind of file its positional arguments are: 'rules', ...)."""
    out = {}
    for name, sub in parser.commands.items():
        flags, kinds = [], []
        for action in sub._actions:
            if action.option_strings:
                flags += [o for o in action.option_strings if o.startswith("--") or len(o) == 2]
            elif action.metavar in FILE_KINDS or action.dest in ("file", "files", "log"):
                kinds.append(FILE_KINDS.get(action.metavar, "rules"))
        out[name] = (sorted(set(flags)), kinds[0] if kinds else "rules")
    return out


def bash_script(parser) -> str:
    commands = command_options(parser)
    cases = []
    for name, (flags, kind) in sorted(commands.items()):
        pattern = {"rules": "!*.rules", "json": "!*.json"}.get(kind, "")
        cases.append(f"        {name}) flags={shlex.quote(' '.join(flags))}; pattern={shlex.quote(pattern)} ;;")
    names = " ".join(sorted(commands))
    return "\n".join([
        "# referee: bash completion (zsh: autoload -U bashcompinit && bashcompinit first)",
        "# eval \"$(referee completion bash)\"   -- or save it in ~/.local/share/bash-completion/completions/referee",
        "_referee() {",
        "    local word=\"${COMP_WORDS[COMP_CWORD]}\" command=\"${COMP_WORDS[1]}\" flags pattern",
        "    if [ \"$COMP_CWORD\" -eq 1 ]; then",
        f"        COMPREPLY=($(compgen -W \"{names} --help --version\" -- \"$word\"))",
        "        return",
        "    fi",
        "    case \"$command\" in",
        *cases,
        "        *) return ;;",
        "    esac",
        "    if [[ \"$word\" == -* ]]; then",
        "        COMPREPLY=($(compgen -W \"$flags\" -- \"$word\"))",
        "    elif [ -n \"$pattern\" ]; then      # the files of the argument's kind, and folders",
        "        COMPREPLY=($(compgen -f -X \"$pattern\" -- \"$word\") $(compgen -d -- \"$word\"))",
        "    else",
        "        COMPREPLY=($(compgen -f -- \"$word\"))",
        "    fi",
        "}",
        "complete -o filenames -F _referee referee",
        "",
    ])


def print_script(args, parser) -> int:
    script = bash_script(parser)
    if args.shell == "zsh":
        script = "autoload -U +X bashcompinit && bashcompinit\n" + script
    print(script, end="")
    return 0


def print_completion(args) -> int:
    """`referee completion`: the script for this very command line."""
    from .arguments import build_parser
    return print_script(args, build_parser())
