"""Every numbered rule of a seed game has its scenario test and its tag in the rules file.

The numbered rules of the seed games live outside the repository, in ../shared/games/<game>.md;
those of the classic games in docs/games/<game>.md (named by their path in COVERED). They are list items
"- C-8 [seed] ...", or as the first cell of a table row "| S-28a | Bee | ...". An id may end
with a lowercase letter (S-28a). For each game in COVERED:
  (a) each rule id X-n has a test function test_X<nn>_... (nn: at least two digits, then the
      letter if any: test_S28a_...) in its test file;
  (b) each rule id appears as a tag @X-n in its rules file (or the files it extends);
and, the other way round, no test names a rule the spec does not have.

A rule id is kept as its number (8) or, with a letter, as text ("28a").
"""
from __future__ import annotations

import ast as python_ast
import re
from pathlib import Path

import pytest

from referee.dsl.program import load_program

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared"

# spec (under shared/games) -> rule id prefix, test file (under tests), rules file (under games)
COVERED = {
    "continents.md": ("C", "test_continents_rules.py", "continents.rules"),
    "solstis.md": ("S", "test_solstis_rules.py", "solstis.rules"),
    "titicaca.md": ("T", "test_titicaca_rules.py", "titicaca.rules"),
    "docs/games/kuhn-poker.md": ("K", "test_kuhn_poker_rules.py", "kuhn-poker.rules"),
    "docs/games/goofspiel.md": ("G", "test_goofspiel_rules.py", "goofspiel.rules"),
    "docs/games/othello.md": ("O", "test_othello_rules.py", "othello.rules"),
    "docs/games/liars-dice.md": ("L", "test_liars_dice_rules.py", "liars-dice.rules"),
    "docs/games/leduc-poker.md": ("LP", "test_leduc_poker_rules.py", "leduc-poker.rules"),
    "docs/games/love-letter.md": ("LL", "test_love_letter_rules.py", "love-letter.rules"),
    "docs/games/hearts.md": ("H", "test_hearts_rules.py", "hearts.rules"),
    "docs/games/backgammon.md": ("BG", "test_backgammon_rules.py", "backgammon.rules"),
    "docs/games/the-resistance.md": ("RS", "test_the_resistance_rules.py", "the-resistance.rules"),
    "docs/games/dominion.md": ("DO", "test_dominion_rules.py", "dominion.rules"),
    "docs/games/skull.md": ("SK", "test_skull_rules.py", "skull.rules"),
    "docs/games/ticket-to-ride.md": ("TR", "test_ticket_to_ride_rules.py", "ticket-to-ride.rules"),
}


def rule_key(number: str, letter: str = ""):
    """8 for 'C-8', '28a' for 'S-28a'."""
    return f"{int(number)}{letter}" if letter else int(number)


def rule_order(key):
    text = str(key)
    digits = text.rstrip("abcdefghijklmnopqrstuvwxyz")
    return int(digits), text[len(digits):]


def spec_rule_ids(text: str, prefix: str) -> list:
    """The rules a spec defines: list items that start with the rule id, and table rows whose
    first cell is a rule id."""
    p = re.escape(prefix)
    items = re.compile(rf"^\s*[-*]\s+(?:\*\*)?{p}-(\d+)([a-z]?)\b", re.MULTILINE)
    rows = re.compile(rf"^\s*\|\s*{p}-(\d+)([a-z]?)\s*\|", re.MULTILINE)
    found = {rule_key(n, l) for n, l in items.findall(text) + rows.findall(text)}
    return sorted(found, key=rule_order)


def scenario_tests_by_rule(path: Path, prefix: str) -> dict:
    """rule id -> names of the test functions test_<prefix><nn>[letter]_... in a test file."""
    tree = python_ast.parse(path.read_text(encoding="utf-8"), str(path))
    pattern = re.compile(rf"^test_{re.escape(prefix)}(\d{{2,}})([a-z]?)_\w+$")
    found = {}
    for node in tree.body:
        if isinstance(node, (python_ast.FunctionDef, python_ast.AsyncFunctionDef)):
            match = pattern.match(node.name)
            if match:
                found.setdefault(rule_key(*match.groups()), []).append(node.name)
    return found


def rules_tag_ids(path: Path, prefix: str) -> set:
    """Rule ids tagged @<prefix>-n in a rules file and the files it extends."""
    program, diagnostics, sources = load_program(str(path))
    assert program is not None, "\n".join(d.render(sources.get(d.span.file)) for d in diagnostics)
    pattern = re.compile(rf"^{re.escape(prefix)}-(\d+)([a-z]?)$")
    ids = set()
    for rule_id, _, _ in program.tags():
        match = pattern.match(rule_id)
        if match:
            ids.add(rule_key(*match.groups()))
    return ids


def spec_text(spec: str) -> str:
    if spec.startswith("docs/"):            # a classic game's rules, kept in the repository
        return (ROOT / spec).read_text(encoding="utf-8")
    path = SHARED / "games" / spec
    if not path.is_file():
        pytest.skip(f"the numbered rules {path} are not here (the shared folder sits beside the "
                    f"repository, at ../shared)")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("spec", sorted(COVERED))
@pytest.mark.slow
def test_every_rule_has_a_scenario_test(spec):
    prefix, test_file, _ = COVERED[spec]
    ids = spec_rule_ids(spec_text(spec), prefix)
    assert ids, f"no rule ids {prefix}-n found in {spec}"
    tests = scenario_tests_by_rule(ROOT / "tests" / test_file, prefix)
    missing = [f"{prefix}-{n}" for n in ids if n not in tests]
    assert not missing, f"rules of {spec} without a test_{prefix}<nn>_... in tests/{test_file}: {missing}"
    unknown = sorted(name for n, names in tests.items() if n not in ids for name in names)
    assert not unknown, f"tests in tests/{test_file} name rules that {spec} does not have: {unknown}"


@pytest.mark.parametrize("spec", sorted(COVERED))
def test_every_rule_is_tagged_in_the_rules_file(spec):
    prefix, _, rules_file = COVERED[spec]
    ids = spec_rule_ids(spec_text(spec), prefix)
    assert ids, f"no rule ids {prefix}-n found in {spec}"
    tagged = rules_tag_ids(ROOT / "games" / rules_file, prefix)
    missing = [f"@{prefix}-{n}" for n in ids if n not in tagged]
    assert not missing, f"rules of {spec} not tagged in games/{rules_file}: {missing}"


def test_the_extractors_read_what_they_should(tmp_path):
    spec = "- C-1 [seed] one\n  see C-9 below\n- C-2 [seed] two\n* C-10 three\n"
    assert spec_rule_ids(spec, "C") == [1, 2, 10]
    tests = tmp_path / "test_x.py"
    tests.write_text("def test_C01_a():\n    pass\ndef test_C1_short():\n    pass\n"
                     "def test_C10_b():\n    pass\ndef helper_C02_x():\n    pass\n")
    assert scenario_tests_by_rule(tests, "C") == {1: ["test_C01_a"], 10: ["test_C10_b"]}


def test_lettered_ids_and_table_rows_are_rules(tmp_path):
    spec = ("- S-2 [seed] two\n| id | name |\n|---|---|\n| S-28b | Ladybug | x |\n"
            "| S-28a | Bee | x |\n| S-21 | Trout | y |\n- S-30 see S-28c\n")
    assert spec_rule_ids(spec, "S") == [2, 21, "28a", "28b", 30]
    tests = tmp_path / "test_y.py"
    tests.write_text("def test_S28a_bee():\n    pass\ndef test_S28_plain():\n    pass\n"
                     "def test_S02_two():\n    pass\n")
    assert scenario_tests_by_rule(tests, "S") == {"28a": ["test_S28a_bee"], 28: ["test_S28_plain"],
                                                 2: ["test_S02_two"]}
    rules = tmp_path / "x.rules"
    rules.write_text('game "X" { players 2 }\n@S-28a "Bee."\nparam bee = 1\n@S-3 "Three."\n'
                     'param three = 3\nflow { }\n')
    assert rules_tag_ids(rules, "S") == {"28a", 3}
