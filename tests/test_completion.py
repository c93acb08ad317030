"""referee completion bash|zsh: a completion script built from the command line's own parser."""
import shutil
import subprocess

import pytest

from referee.interpreter.cli.arguments import build_parser
from referee.interpreter.cli.main import main
from referee.interpreter.cli.completion import bash_script, command_options


def test_the_script_names_every_command_and_its_flags():
    parser = build_parser()
    script = bash_script(parser)
    for name, sub in parser.commands.items():
        assert f"        {name}) flags=" in script
        for action in sub._actions:
            for flag in action.option_strings:
                if flag.startswith("--"):
                    assert flag in command_options(parser)[name][0]
    assert command_options(parser)["replay"][1] == "json" and command_options(parser)["play"][1] == "rules"


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completes_commands_flags_and_rules_files(tmp_path, capsys):
    assert main(["completion", "bash"]) == 0
    script = tmp_path / "referee.bash"
    script.write_text(capsys.readouterr().out)
    (tmp_path / "game.rules").write_text("")
    (tmp_path / "game.json").write_text("")
    (tmp_path / "notes.txt").write_text("")

    def complete(*words):
        probe = (f"source {script}; COMP_WORDS=(referee {' '.join(repr(w) for w in words)}); "
                 f"COMP_CWORD={len(words)}; _referee; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
        done = subprocess.run(["bash", "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True)
        return done.stdout.split()
    assert complete("ver") == ["verify"]
    assert complete("play", "--se") == ["--seed"]
    assert complete("check", "") == ["game.rules"]
    assert complete("replay", "") == ["game.json"]


def test_zsh_gets_the_same_script_through_bashcompinit(capsys):
    assert main(["completion", "zsh"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("autoload -U +X bashcompinit && bashcompinit\n") and "complete -o filenames -F _referee referee" in out
