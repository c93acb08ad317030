"""Variants: `extends "base.rules"` then `override ...` replaces declarations of the base."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.dsl import ast
from referee.dsl.diagnostics import RulesError
from referee.dsl.program import load_program
from referee.interpreter.engine import load_game

ROOT = Path(__file__).resolve().parent.parent

BASE = '''# the base game: count up to a target
game "Counting" { players 2 }
param target = 3
param step = 1
var n: int = 0
var last: Player? = none
action add "add" {
  n += step
  last = current
}
action wait "wait" { }
flow {
  turns from 1 until n >= target {
    play add, wait
  }
  finish winners [last]
}
'''


@pytest.fixture
def files(tmp_path):
    """files({"name.rules": text, ...}) writes them all; returns the path of each."""
    def write(contents: dict) -> dict:
        out = {}
        for name, text in contents.items():
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            out[name] = path
        return out
    return write


def load(path, **kw):
    game, diagnostics, sources = load_game(str(path), **kw)
    if game is None:
        raise AssertionError(RulesError(diagnostics, sources).render())
    return game


def errors(path):
    game, diagnostics, sources = load_game(str(path))
    assert game is None and diagnostics
    return [(d.code, Path(d.span.file).name, d.span.line, d.span.column, d.message, d.hint) for d in diagnostics]


def play_adds(game, seed=0):
    """Play 'add' until the end; return how many moves it took and who won."""
    s = game.new_initial_state(seed=seed)
    moves = 0
    while not s.is_terminal():
        s.apply("add")
        moves += 1
    return moves, s.winners


def test_the_base_game_plays(files):
    paths = files({"base.rules": BASE})
    assert play_adds(load(paths["base.rules"])) == (3, [1])


def test_override_param_changes_the_value_and_keeps_the_rest(files):
    paths = files({"base.rules": BASE, "variant.rules":
                   'extends "base.rules"\n@V-1 "first to 4"\noverride param target = 4\n'})
    game = load(paths["variant.rules"])
    assert game.params == {"target": 4, "step": 1}
    assert game.title == "Counting"
    assert play_adds(game) == (4, [2])
    program, diagnostics, sources = load_program(str(paths["variant.rules"]))
    assert diagnostics == []
    assert program.files == [str(paths["base.rules"]), str(paths["variant.rules"])]
    assert set(sources) == {str(paths["base.rules"]), str(paths["variant.rules"])}
    declared = program.declarations["target"]
    assert declared.tag is not None and declared.tag.rule_id == "@V-1"
    assert declared.node.span.file == str(paths["variant.rules"])
    assert program.declarations["step"].node.span.file == str(paths["base.rules"])
    # the order of the base is kept: an override replaces in place
    assert list(program.declarations)[:2] == ["target", "step"]


def test_override_action_replaces_its_body(files):
    paths = files({"base.rules": BASE, "variant.rules": '''extends "base.rules"
override action add "add" {
  n += 2
  last = current
}
'''})
    assert play_adds(load(paths["variant.rules"])) == (2, [2])
    assert play_adds(load(paths["base.rules"])) == (3, [1])      # the base file is unchanged


def test_override_action_may_rename_its_move(files):
    paths = files({"base.rules": BASE, "variant.rules": '''extends "base.rules"
override action wait "rest" { }
'''})
    s = load(paths["variant.rules"]).new_initial_state()
    assert s.legal_move_names() == ["add", "rest"]


def test_override_flow_and_new_declarations(files):
    paths = files({"base.rules": BASE, "variant.rules": '''extends "base.rules"
param bonus = 10
override flow {
  turns from 2 until n >= target + bonus {
    play add
  }
  finish winners [last]
}
'''})
    game = load(paths["variant.rules"])
    assert game.params["bonus"] == 10
    assert play_adds(game) == (13, [2])


def test_an_extends_chain_applies_overrides_in_order(files):
    paths = files({
        "base.rules": BASE,
        "middle.rules": 'extends "base.rules"\noverride param target = 10\noverride param step = 2\n',
        "top.rules": 'extends "middle.rules"\noverride param target = 6\n',
    })
    game = load(paths["top.rules"])
    assert game.params == {"target": 6, "step": 2}
    assert play_adds(game) == (3, [1])
    program, _, _ = load_program(str(paths["top.rules"]))
    assert [Path(f).name for f in program.files] == ["base.rules", "middle.rules", "top.rules"]


def test_extends_paths_are_relative_to_the_file(files):
    paths = files({"games/base.rules": BASE,
                   "games/variants/v.rules": 'extends "../base.rules"\noverride param step = 3\n'})
    assert load(paths["games/variants/v.rules"]).params["step"] == 3


# ---- errors ------------------------------------------------------------------------------------

def test_override_of_an_unknown_name(files):
    paths = files({"base.rules": BASE, "v.rules": 'extends "base.rules"\noverride param targte = 4\n'})
    assert errors(paths["v.rules"]) == [
        ("E405", "v.rules", 2, 10, "'override' names 'targte', which the base file does not declare",
         "did you mean 'target'?")]


def test_override_of_an_unknown_action(files):
    paths = files({"base.rules": BASE, "v.rules": 'extends "base.rules"\noverride action jump "jump" { }\n'})
    (found,) = errors(paths["v.rules"])
    assert found[:4] == ("E405", "v.rules", 2, 10) and "'jump'" in found[4]


def test_override_with_another_kind(files):
    paths = files({"base.rules": BASE, "v.rules": 'extends "base.rules"\noverride var target: int = 4\n'})
    (found,) = errors(paths["v.rules"])
    assert found[:4] == ("E406", "v.rules", 2, 10)
    assert "'target' is a param in the base file, not a var" == found[4]


@pytest.mark.parametrize("declaration, name", [
    ("param target = 4", "target"),
    ('action add "add" { }', "add"),
    ("var n: int = 1", "n"),
    ("flow { turns from 1 { play add } }", "flow"),
    ('game "Other" { players 3 }', "game"),
])
def test_redeclaring_without_override(files, declaration, name):
    paths = files({"base.rules": BASE, "v.rules": f'extends "base.rules"\n{declaration}\n'})
    (found,) = errors(paths["v.rules"])
    code, file, line, column, message, hint = found
    assert (code, file, line, column) == ("E201", "v.rules", 2, 1)
    assert message == f"'{name}' is declared in the base file"
    assert hint.startswith("write 'override ") and name in hint


def test_declaring_twice_in_the_variant_itself(files):
    paths = files({"base.rules": BASE, "v.rules": 'extends "base.rules"\nparam extra = 1\nparam extra = 2\n'})
    (found,) = errors(paths["v.rules"])
    assert found[:5] == ("E201", "v.rules", 3, 1, "'extra' is declared already")


def test_override_without_a_base(files):
    paths = files({"alone.rules": BASE + "override param target = 9\n"})
    # a file may override its own earlier declaration: the last one wins
    assert load(paths["alone.rules"]).params["target"] == 9
    paths = files({"alone2.rules": BASE + "override param nothing = 9\n"})
    (found,) = errors(paths["alone2.rules"])
    assert found[0] == "E405"


def test_extends_must_come_first(files):
    paths = files({"base.rules": BASE, "v.rules": 'param extra = 1\nextends "base.rules"\n'})
    found = errors(paths["v.rules"])
    assert found[0][:4] == ("E403", "v.rules", 2, 1)


def test_extends_of_a_missing_file_reports_only_that(files):
    paths = files({"v.rules": 'extends "nowhere.rules"\noverride param target = 4\noverride param step = 2\n'})
    assert [f[:4] for f in errors(paths["v.rules"])] == [("E501", "v.rules", 1, 1)]


def test_extends_itself(files):
    paths = files({"self.rules": 'extends "self.rules"\n' + BASE})
    found = errors(paths["self.rules"])
    assert [f[:4] for f in found] == [("E404", "self.rules", 1, 1)]
    assert "cycle" in found[0][4]


def test_extends_cycle_of_two_files(files):
    paths = files({"a.rules": 'extends "b.rules"\noverride param target = 1\n',
                   "b.rules": 'extends "a.rules"\noverride param target = 2\n'})
    found = errors(paths["a.rules"])
    assert [f[:4] for f in found] == [("E404", "b.rules", 1, 1)]
    assert "'a.rules' extends itself in a cycle" == found[0][4]
    found = errors(paths["b.rules"])
    assert [f[:4] for f in found] == [("E404", "a.rules", 1, 1)]


def test_extends_cycle_of_three_files(files):
    paths = files({"a.rules": 'extends "b.rules"\n', "b.rules": 'extends "c.rules"\n',
                   "c.rules": 'extends "a.rules"\n'})
    found = errors(paths["a.rules"])
    assert [f[:2] for f in found] == [("E404", "c.rules")]


def test_a_diamond_is_not_a_cycle(files):
    # two files extending the same base is fine (only a chain back to itself is a cycle)
    paths = files({"base.rules": BASE,
                   "left.rules": 'extends "base.rules"\noverride param target = 5\n',
                   "right.rules": 'extends "base.rules"\noverride param target = 7\n'})
    assert load(paths["left.rules"]).params["target"] == 5
    assert load(paths["right.rules"]).params["target"] == 7


def test_errors_in_the_base_point_into_the_base(files):
    paths = files({"base.rules": BASE.replace("n += step", "n += stpe"),
                   "v.rules": 'extends "base.rules"\noverride param target = 4\n'})
    found = errors(paths["v.rules"])
    assert [f[:3] for f in found] == [("E202", "base.rules", 8)]
    assert found[0][5] == "did you mean 'step'?"


def test_syntax_error_in_the_base(files):
    paths = files({"base.rules": BASE.replace("n += step", "n += = step"),
                   "v.rules": 'extends "base.rules"\n'})
    found = errors(paths["v.rules"])
    assert [f[:3] for f in found] == [("E100", "base.rules", 8)]


def test_override_cannot_apply_to_extends(files):
    paths = files({"base.rules": BASE, "v.rules": 'extends "base.rules"\noverride extends "base.rules"\n'})
    (found,) = errors(paths["v.rules"])
    assert found[:4] == ("E406", "v.rules", 2, 10)


def test_overrides_are_checked_in_the_merged_program(files):
    # the overriding action uses a name only the base declares, and a type error is found
    paths = files({"base.rules": BASE, "v.rules": 'extends "base.rules"\noverride action add "add" { n = true }\n'})
    (found,) = errors(paths["v.rules"])
    assert found[:3] == ("E303", "v.rules", 2)


# ---- the real variants -------------------------------------------------------------------------

VARIANTS = sorted((ROOT / "games" / "variants").glob("*.rules"))


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.name)
@pytest.mark.slow
def test_real_variants_load_and_differ_from_their_base(path):
    program, diagnostics, _ = load_program(str(path))
    assert diagnostics == []
    assert len(program.files) >= 2 and program.files[-1] == str(path)
    base = load(program.files[-2])
    variant = load(path)
    own = [node for node in (d.node for d in program.declarations.values()) if node.span.file == str(path)]
    assert own, "a variant declares or overrides something"
    differs = variant.params != base.params or any(not isinstance(n, ast.Param) for n in own)
    assert differs
    s = variant.new_initial_state(seed=1)
    assert s.legal_moves()
