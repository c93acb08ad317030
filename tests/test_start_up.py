"""What `referee check` imports: what it uses and nothing it does not (start-up time, measured in
benchmarks/compile_time.py); Lark without its optional modules, which a grammar's build still
uses to check terminal collisions."""
import importlib.util
import json
import subprocess
import sys

import pytest
from tests.golden import ROOT

# run in a new process from the checkout: `referee check FILE`, then the names of the modules it imported
CHILD = """
import json, sys
from referee.interpreter.cli.main import main
code = main(["check", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def printed(code, *argv) -> str:
    """The last line the code printed, run in a new Python process from the checkout."""
    done = subprocess.run([sys.executable, "-c", code, *argv], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def check_imports():
    return json.loads(printed(CHILD, "games/tic-tac-toe.rules"))


def test_check_imports_lark_without_its_optional_modules(check_imports):
    assert check_imports["code"] == 0
    modules = set(check_imports["modules"])
    assert {"lark", "lark.lexer", "referee.dsl.parser", "referee.interpreter.compile.ir"} <= modules
    # regex and interegular: only for Lark(regex=True) and a grammar's build; difflib: a mistake's hint
    assert not modules & {"regex", "interegular", "difflib"}, sorted(modules & {"regex", "interegular", "difflib"})


def test_the_hidden_modules_import_as_usual_afterwards():
    code = ("import sys, referee.dsl.parser; "
            "assert 'regex' not in sys.modules and 'interegular' not in sys.modules; "
            "import importlib.util; "
            "print(all(importlib.util.find_spec(m) is None or __import__(m) for m in ('regex', 'interegular')))")
    assert printed(code) == "True"


@pytest.mark.skipif(importlib.util.find_spec("interegular") is None, reason="interegular is not installed")
def test_a_build_checks_terminal_collisions_again():
    code = ("import referee.dsl.parser as p, lark.lexer; before = lark.lexer.has_interegular; "
            "p.lark_parser(strict=True); print(before, lark.lexer.has_interegular)")
    # imported after referee's parser, Lark went without interegular; the strict build has it
    assert printed(code).split() == ["False", "True"]


def test_a_parser_built_for_one_command_parses_and_helps_as_the_whole_one():
    """main() builds the arguments of the command the words name only: the same help, the same
    parsed examples (docs/cli.md's, through each command's --help)."""
    import shlex

    from referee.interpreter.cli.arguments import COMMAND_HELP, build_parser
    from referee.interpreter.cli.main import named_command
    whole = build_parser()
    assert set(COMMAND_HELP) == set(whole.commands)
    for name, (_, examples, _) in COMMAND_HELP.items():
        one = build_parser(only=name)
        assert one.format_help() == whole.format_help()
        assert one.commands[name].format_help() == whole.commands[name].format_help()
        for example in examples:
            words = shlex.split(example.split("| ")[-1])[1:]
            assert named_command(words) == name
            assert one.parse_args(words) == whole.parse_args(words), example
    assert named_command(["--plain", "check", "x.rules"]) == "check" and named_command(["--", "check"]) is None
