"""The grammar: it loads strictly, every named rule has its AST class, and fuzzed programs never
make the parser or the checker raise."""
from __future__ import annotations

import random
import re
import string
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from referee.dsl import ast
from referee.dsl.checks import diagnostics as check
from referee.dsl.diagnostics import Diagnostic
from referee.dsl.parser import GRAMMAR_PATH, LIST_RULES, WORD_RULES, class_name, lark_parser, parse
from referee.dsl.program import build_program
from referee.interpreter.engine import Game
from referee.interpreter.runtime.errors import RulesRuntimeError

from .conftest import game_files

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = GRAMMAR_PATH.read_text()
SPECIAL = {"start": "Module"}
# A place where nothing exists: an `extends` in a fuzzed program finds no file.
NOWHERE = "/nonexistent-referee-dir/fuzz.rules"


def aliases() -> set:
    return set(re.findall(r"->\s*([a-z_]+)", GRAMMAR))


def rule_definitions() -> dict:
    """rule name -> its prefix ('?' inlined, '!' keeps tokens, '' plain)."""
    return {name: prefix for prefix, name in re.findall(r"^([?!]?)([a-z_]+)\s*:", GRAMMAR, re.M)}


def node_rules() -> set:
    """Rules that become nodes: plain rules that are neither lists nor words, plus every alias."""
    plain = {name for name, prefix in rule_definitions().items()
             if prefix != "?" and name not in LIST_RULES and name not in WORD_RULES}
    return plain | aliases()


def expected_class(rule: str) -> str:
    return SPECIAL.get(rule, class_name(rule))


def node_classes() -> dict:
    return {name: cls for name, cls in vars(ast).items()
            if isinstance(cls, type) and attrs.has(cls) and cls is not ast.Span}


# ---- the grammar itself ----------------------------------------------------------------------

@pytest.mark.slow
def test_grammar_loads_with_strict_lark():
    parser = lark_parser(strict=True)
    assert parser.options.parser == "lalr"
    # the strict grammar parses the same way as the one the parser uses
    source = (ROOT / "games" / "tic-tac-toe.rules").read_text()
    assert parser.parse(source) == lark_parser().parse(source)


def test_rule_lists_name_real_rules():
    defined = rule_definitions()
    for rule in LIST_RULES | WORD_RULES:
        assert rule in defined, f"{rule} is listed in parser.py but not defined in grammar.lark"
    for rule in WORD_RULES:
        assert defined[rule] == "!", f"{rule} is a word: its rule must keep its token (!)"


def test_class_name_is_camel_case_without_underscores():
    assert class_name("call_statement") == "CallStatement"
    assert class_name("if_") == "If"
    assert class_name("and_") == "And"
    assert class_name("boolean") == "Boolean"


@pytest.mark.parametrize("rule", sorted(node_rules()))
def test_every_node_rule_has_its_class(rule):
    cls = getattr(ast, expected_class(rule), None)
    assert cls is not None, f"grammar rule '{rule}' has no class {expected_class(rule)} in dsl/ast.py"
    assert attrs.has(cls)
    fields = attrs.fields(cls)
    assert fields[0].name == "span", f"{cls.__name__}: the first field must be its span"
    assert fields[0].type in (ast.Span, "Span")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        instance = cls(ast.NOWHERE, *([None] * (len(fields) - 1)))
        instance.span = ast.NOWHERE


def test_every_node_class_comes_from_a_grammar_rule():
    rules_by_class = {expected_class(rule) for rule in node_rules()}
    orphans = sorted(set(node_classes()) - rules_by_class)
    assert orphans == [], f"classes in dsl/ast.py that no grammar rule builds: {orphans}"


# A program that uses every construct of the grammar (parsed only, never checked).
EVERYTHING = r'''
extends "base.rules"
@C-1 "a tagged game"
game "Everything" { players 2..4 score p: wins[p] returns p: wins[p] - 1 teams p: p % 2 }
option fast "a fast game" { rounds = 3 }
param rounds = 10
param heap: int in 1..20 = 7
enum Colour { red, blue }
component Card { colour: Colour, value: int?, tags: list of text, } label "{colour}"
zone deck: pile of Card hidden
zone hand[Player]: row of Card owner
var wins[Player]: int public = 0
var seen: set of list of int = {[1], [2]} + {}
var counted: map of list of int to int = {[1]: 2, [2]: 3,} + {:}
board Cell: grid 3 by 3
board Hex: hexmap """
 a b
""" { "a": { number: 1 } "b": { } }
board Town: places { north_end, south_end, }
board Road: routes of Town { north_end - south_end { length: 2 } north_end - south_end { } }
fn double(x: int): int = x * 2
proc reset(p: Player) { wins[p] = 0 }
action take(c in hand[current] where c.value != none, d in deck) "take {c}" {
  require c.value > 0 else "nothing to take"
  let x = -c.value
  wins[current] += x // 2 % 3 - 1
  if x == 1 { again } elif x in [1, 2] { log "one" } else { finish winners [current] }
  if x == 2.5 { finish winners team 1 } else { finish lost }
  for y in 1..3 { move c to hand[y] }
  while x not in [] { x = x + 1 }
  repeat { shuffle deck } until x >= 0
  reveal c to current
  let w = after reset(current): wins[current]
  c.value = 1
  let v = let k = 2 in k + 1
  move c under deck
  move all of hand[current] to deck
  deal 2 from deck to hand[current]
  choose z in players by current "who?" { reset(z) }
  let t = true ? false : none
  let u = not (x > 1 or x < 2 and x != 3)
  let v = count(k in deck) + sum(k in deck where k.colour == red: k.value)
  let w = best(p in players by wins[p], double(1))
  let s = sorted(p in players by p)[1]
  let q = "a text"
  finish
}
trigger full for c in Cell when any(k in deck: true) { reset(1) }
invariant never_negative: all(p in players: wins[p] >= 0)
setup {
  create 2 Card { colour: red, value: none, tags: [] } in deck
}
flow {
  @C-2
  turns from 1 until rounds < 0 {
    play take
    play optional take, take
  }
  turn 1 { play take }
  simultaneous p in players { play take }
  play optional take by 2
  respond p in players where p != 1 { play take } else { rounds = 0 }
  respond every p in players { play take }
  destroy top(deck)
}
override param rounds = 2
'''


def test_the_coverage_program_builds_every_node_class():
    module, diagnostics = parse(EVERYTHING, "everything.rules")
    assert diagnostics == []
    seen = set()

    def walk(value):
        if attrs.has(type(value)):
            seen.add(type(value).__name__)
            for field in attrs.fields(type(value)):
                walk(getattr(value, field.name))
        elif isinstance(value, tuple):
            for item in value:
                walk(item)

    walk(module)
    wanted = {expected_class(rule) for rule in node_rules()}
    assert wanted - seen == set(), f"constructs missing from the coverage program: {wanted - seen}"


@pytest.mark.slow
def test_nodes_repr_as_attrs_writes_it():
    # dsl/ast.py gives its classes one shared __repr__, not one compiled by attrs for each class
    # (start-up time): it writes what attrs writes, for every node of every game
    twins = {}
    sources = [(EVERYTHING, "everything.rules")] + [(path.read_text(encoding="utf-8"), str(path)) for path in game_files()]
    for text, file in sources:
        module, diagnostics = parse(text, file)
        assert diagnostics == []
        for node in ast.walk(module):
            cls = type(node)
            names = [field.name for field in attrs.fields(cls)]
            twin = twins.get(cls) or twins.setdefault(cls, attrs.make_class(cls.__name__, names, frozen=True))
            assert repr(node) == repr(twin(*(getattr(node, name) for name in names)))
    assert set(twins) == {*node_classes().values(), ast.Span}


# ---- fuzzing: generated programs never make the front end raise ------------------------------

KEYWORDS = {t.pattern.value for t in lark_parser().terminals if t.pattern.type == "str"}


def terminal_strategies() -> dict:
    """One strategy per terminal, each followed by a separator (whitespace is ignored by the
    grammar, so the generator must put it in explicitly or words would run together)."""
    out = {}
    for terminal in lark_parser().terminals:
        if terminal.pattern.type == "str":
            out[terminal.name] = st.just(terminal.pattern.value + " ")
    names = st.from_regex(r"[a-z][a-z0-9_]{0,4}|[A-Z][a-z]{0,4}", fullmatch=True)
    out["NAME"] = names.filter(lambda s: s not in KEYWORDS).map(lambda s: s + " ")
    out["INT"] = st.integers(0, 30).map(lambda i: f"{i} ")
    pieces = st.sampled_from(list(string.ascii_letters[:8] + " {}.,") + ["\\n", "\\\"", "\\\\", "\\x", "\\N"])
    out["STRING"] = st.lists(pieces, max_size=6).map(lambda p: '"' + "".join(p) + '" ')
    out["LONG_STRING"] = st.text(st.sampled_from(" .ab\n"), max_size=12).map(lambda s: f'"""{s}""" ')
    out["RULE_TAG"] = st.from_regex(r"@[A-Z][a-z]?-[0-9]{1,2}[a-z]?", fullmatch=True).map(lambda s: s + " ")
    out["COMMENT"] = st.just("# note\n")
    out["WS"] = st.sampled_from([" ", "\n", "\t"])
    for name, texts in (("COMPARE", ["==", "!=", "<=", ">=", "<", ">"]), ("AUGMENT", ["+=", "-="]),
                        ("ADD_OP", ["+", "-"]), ("MUL_OP", ["*", "//", "%"])):
        out[name] = st.sampled_from(texts).map(lambda s: s + " ")
    return out


def front_end(text: str, file: str = NOWHERE):
    """Parse, build and check `text`; return every diagnostic. Must never raise."""
    return checked(text, file)[0]


def checked(text: str, file: str = NOWHERE):
    """(diagnostics, program or None) of `text` read as `file`."""
    module, diagnostics = parse(text, file)
    for d in diagnostics:
        assert isinstance(d, Diagnostic) and d.code in ("E100", "E101", "E102", "E103", "E104")
        assert d.span.line >= 1 and d.span.column >= 1
    if module is None:
        assert len(diagnostics) == 1
        return diagnostics, None
    assert diagnostics == []
    program, diagnostics, _ = build_program(module, file, {})
    if program is None:
        assert diagnostics
        return diagnostics, None
    return diagnostics + check(program), program


# (each example draws a program from the whole grammar, then parses and checks it: the slowest
# examples of the suite, about 0.15 s each; 3 times the profile's, 75 in CI, was 8 times)
@settings(max_examples=settings().max_examples * 3,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.data_too_large, HealthCheck.large_base_example])
@given(from_lark(lark_parser(), explicit=terminal_strategies()))
@pytest.mark.slow
def test_generated_programs_parse_and_check_without_raising(text):
    module, diagnostics = parse(text, NOWHERE)
    # what the grammar generates, the parser accepts, except strings with escapes that mean nothing
    assert all(d.code == "E101" and "escape" in d.message for d in diagnostics), (text, diagnostics)
    for d in front_end(text):
        assert isinstance(d, Diagnostic) and re.fullmatch(r"E\d{3}", d.code)
        d.render(text)     # rendering never raises either


TOKEN = re.compile(r'"""(?:.|\n)*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|\w+|==|!=|<=|>=|\+=|-=|//|\.\.|\s+|\S')
REAL_FILES = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "games" / "variants").glob("*.rules"))
INSERTS = list("{}()[]=,:.?-+*/&|!'\"@#") + ["if", "play", "none", "list of", "override", "require",
                                             "create", "turns", "owner", "Player", "best", "@C-1", "0"]


@settings(max_examples=settings().max_examples * 8,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(file_index=st.integers(0, 100), seed=st.integers(0, 2 ** 32 - 1), edits=st.integers(1, 3))
@pytest.mark.slow
def test_mutated_real_files_never_make_the_front_end_raise(file_index, seed, edits):
    path = REAL_FILES[file_index % len(REAL_FILES)]
    tokens = TOKEN.findall(path.read_text())
    rng = random.Random(seed)
    solid = [i for i, t in enumerate(tokens) if not t.isspace() and not t.startswith("#")]
    words = [i for i in solid if re.match(r"\w", tokens[i])]
    for _ in range(edits):
        i, j = rng.choice(solid), rng.choice(solid)
        kind = rng.randrange(8)
        if kind == 0:
            tokens[i] = ""                                  # delete a token
        elif kind == 1:
            tokens[i] = tokens[i] + " " + tokens[i]         # double it
        elif kind == 2:
            tokens[i], tokens[j] = tokens[j], tokens[i]     # swap two tokens
        elif kind == 3:
            tokens[i] += " " + rng.choice(INSERTS)          # insert something
        else:                                               # a word for another word or a number
            tokens[rng.choice(words)] = tokens[rng.choice(words)] if kind < 7 else str(rng.randint(0, 9))
    text = "".join(tokens)
    # read as the real file, so that a variant finds the file it extends
    for d in front_end(text, str(path)):
        assert isinstance(d, Diagnostic) and re.fullmatch(r"E\d{3}", d.code)
        assert d.span.line >= 0 and d.span.column >= 0
        d.render(text)


@settings(max_examples=settings().max_examples,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(file_index=st.integers(0, 100), seed=st.integers(0, 2 ** 32 - 1))
@pytest.mark.slow
def test_mutants_that_check_clean_run_without_python_errors(file_index, seed):
    """What the checker accepts, the engine runs: a rules mistake it lets through may only show
    up as a RulesRuntimeError, never as a Python error (TypeError, KeyError...)."""
    path = REAL_FILES[file_index % len(REAL_FILES)]
    original = TOKEN.findall(path.read_text())
    words = [i for i, t in enumerate(original) if re.match(r"\w", t) and not t.startswith("#")]
    rng = random.Random(seed)
    for _ in range(8):
        tokens = list(original)
        for _ in range(rng.randint(1, 2)):   # a word for another word of the file, or a number
            tokens[rng.choice(words)] = tokens[rng.choice(words)] if rng.random() < 0.8 else str(rng.randint(0, 9))
        text = "".join(tokens)
        diagnostics, program = checked(text, str(path))
        if diagnostics or program is None:
            continue
        changed = [f"line {''.join(original[:i]).count(chr(10)) + 1}: {b!r} -> {a!r}"
                   for i, (a, b) in enumerate(zip(tokens, original)) if a != b]
        try:
            game = Game(program, {str(path): text}, (), None)
            s = game.new_initial_state(seed=seed)
            for _ in range(40):
                if s.is_terminal():
                    break
                s.apply(rng.choice(s.legal_moves()))
        except RulesRuntimeError:
            pass         # a rules bug found while playing, reported as one
        except Exception as error:
            raise AssertionError(f"{path.name} with {changed} checks clean but crashes: {error!r}") from error


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.name)
def test_token_splitter_keeps_the_real_files_whole(path):
    # the mutation test above edits tokens: check that it sees the files as they are
    text = path.read_text()
    assert "".join(TOKEN.findall(text)) == text
