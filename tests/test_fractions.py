"""Exact fractions: '/' makes a `real` (a Fraction, or an int when it divides exactly). The
checker says where a fraction may stand and refuses it where only a whole number means
something (E215); at run time it is exact, shown as 1/3, and returns() gives it as a float."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dsl import names
from referee.interpreter.lsp import server as lsp
from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError
from referee.interpreter.runtime.exact import quotient
from referee.interpreter.tools.gamelog import read_log, replay, write_log
from referee.interpreter.adapters.openspiel_game import load_openspiel_game

from .test_checker import clean, diagnostics_of
from .test_cli import run

# The players who join share the pot equally (docs/language.md has this game too).
SPLIT = """game "Split the pot" {
  players 2..4
  returns p: joined[p] ? share() : 0
}
var joined[Player]: bool = false
var pot: int = 2
var last_share: real
fn share(): real = pot / count(q in players where joined[q])
action join "join" {
  joined[current] = true
}
action stay "stay out" {
}
flow {
  for p in players {
    turn p {
      play join, stay
    }
  }
  if any(p in players where joined[p]) {
    let each = share()
    last_share = -each
    log "each who joined takes {each}"
  }
}
"""

# Functions of numbers, and an action whose labels show a fraction of its argument.
NUMBERS = """game "Numbers" {
  players 2
}
var big: real = 1
var halves: int = 0
fn ratio(a: int, b: int): real = a / b
fn rounded(a: int, b: int): int = a / b // 1
fn exact(): bool = 1 / 3 + 1 / 6 == 1 / 2
fn mixed(k: int): real = k > 1 ? k : 1 / k
fn smallest(): real = min(k in 1..4: 1 / k)
fn total(): real = sum(k in 1..3: 1 / k)
fn gap(a: int, b: int): real = abs(a / b - 1)
fn half_of(x: real): real = x / 2
action take(n in 1..3) "take {n / 2}" {
  halves += n
}
action shrink "shrink" {
  big = big / 1000000000
}
action nothing "nothing" {
  halves = halves / (halves - halves) // 1
}
flow {
  turns from 1 {
    play take, shrink, nothing
  }
}
"""


def load(write_rules, text, players=None):
    game, diagnostics, _ = load_game(str(write_rules(text)), players=players)
    assert diagnostics == [], diagnostics
    return game


# ---- the checker ----------------------------------------------------------------------------

def test_fractions_stand_where_numbers_are_compared_added_and_paid():
    clean('''var share: real = 1 / 2
var shares[Player]: real
fn half(x: real): real = x / 2
fn rank(k: int): real = -k / 3 + abs(1 / k) * 2 - 1 / k % 1
fn most(): real = max(p in players: shares[p] / num_players)
fn small(): bool = share < 1 and share == 1 / 2 and 1 == share * 2 and shares[1] != 0
fn either(k: int): real = k > 0 ? k : 1 / 2
fn whole(): int = share // 1 + size(hand[1]) / 1 // 1
fn seats(): list of Player = best(p in players by shares[p])
proc pay(x: real) { share = half(x) + 1 }
''', tail='''
action pass "pass" { shares[current] += 1 / 3
  share -= 1
  pay(3)
}
flow { turns from 1 { play pass } }
''')


def test_returns_may_be_fractions():
    head = '''game "Pays" {
  players 3
  returns p: p == 1 ? 1 : -1 / 2
}
'''
    clean("", head=head)


@pytest.mark.parametrize("body, line, message", [
    ("fn f(n: int): list of int = 1..n / 2\n", 1, "a bound of a range must be a whole number"),
    ("var v[1..4]: int = 0\nproc p() { v[3 / 2] = 1 }\n", 2, "'v' is indexed by a whole number, not a fraction"),
    ("fn f(): Card? = hand[1][3 / 2]\n", 1, "a position in a list or a zone must be a whole number"),
    ("proc p() { deal 1 / 2 from deck to hand[1] }\n", 1, "the number to deal must be a whole number"),
    ("fn f(): bool = has_line(filter(c in Cell where true), 6 / 2)\n", 1, "what has_line takes here must be a whole number"),
    ("fn f(): Player = next(3 / 2)\n", 1, "what next takes here must be a whole number"),
    ("fn f(): Cell? = Cell(1 / 2, 1)\n", 1, "a row or column of Cell must be a whole number"),
    ("proc p() { total = 1 / 2 }\n", 1, "'total' holds a whole number, not a fraction"),
    ("proc p() { total += 1 / 2 }\n", 1, "'total' holds whole numbers: what '+=' changes it by must be a whole number"),
    ("fn f(): int = 1 / 2\n", 1, "'f' says it gives a whole number, but its body gives a fraction"),
    ("fn g(n: int): int = n\nfn f(): int = g(1 / 2)\n", 2, "'n' of g is a whole number, not a fraction"),
    ("var v: int = 1 / 2\n", 1, "'v' holds a whole number, not a fraction"),
    ("setup { create 3 / 2 Card { value: 1 } in deck }\n", 1, "how many to create must be a whole number"),
    ("setup { create 1 Card { value: 1 / 2 } in deck }\n", 1, "'value' is a whole number, not a fraction"),
    ("board Wide: grid 2 by 7 / 2\n", 1, "a grid's size must be a whole number"),
])
def test_a_fraction_where_only_a_whole_number_means_something_is_refused(body, line, message):
    head = 'game "Scopes" { players 2 }\ncomponent Card { value: int }\nzone deck: pile of Card hidden\n' \
           'zone hand[Player]: row of Card owner\nboard Cell: grid 3 by 3\nvar total: int = 0\n'
    found = diagnostics_of(body, head=head)
    assert [(code, at) for code, at, _ in found] == [("E215", line)], found
    assert message in found[0][2], found


def test_a_score_may_be_a_fraction(write_rules):
    # (issue 25: a score was a whole number, E215; tests/test_outcomes_rules.py ranks by such scores)
    game, diagnostics, _ = load_game(str(write_rules('game "G" {\n  players 2\n  score p: p / 2\n}\n'
                                                     'action pass "pass" { }\nflow { turns from 1 { play pass } }\n')))
    assert diagnostics == []
    assert game.new_initial_state(1).scores() == [Fraction(1, 2), 1]


def test_check_shows_the_fraction_diagnostic_with_its_hint(capsys, write_rules):
    path = write_rules('game "G" { players 2 }\nvar n: int = 4\naction pass "pass" {\n  for k in 1..n / 3 { }\n}\n'
                       'flow { turns from 1 { play pass } }\n')
    code, out, err = run(capsys, "check", path)
    assert code == 1                                 # check: 1 when a file has errors (docs/cli.md)
    text = out + err
    assert "4:15: error[E215]: a bound of a range must be a whole number, not a fraction" in text
    assert "help: '/' makes a fraction; '//' divides rounding down" in text


# ---- at run time ----------------------------------------------------------------------------

def test_division_is_exact_and_a_whole_quotient_stays_an_int(write_rules):
    game = load(write_rules, NUMBERS)
    state = game.new_initial_state(0)
    call = lambda name, **args: game.functions[name](state, args)   # noqa: E731
    third = call("ratio", a=1, b=3)
    assert third == Fraction(1, 3) and isinstance(third, Fraction)
    whole = call("ratio", a=6, b=3)
    assert whole == 2 and whole.__class__ is int
    assert call("ratio", a=-2, b=6) == Fraction(-1, 3)
    assert call("exact") is True
    assert call("rounded", a=7, b=2) == 3 and call("rounded", a=-7, b=2) == -4
    assert call("mixed", k=4) == 4 and call("mixed", k=1) == 1
    assert call("smallest") == Fraction(1, 4)
    assert call("total") == Fraction(11, 6)
    assert call("gap", a=1, b=4) == Fraction(3, 4)
    assert call("half_of", x=Fraction(1, 3)) == Fraction(1, 6)


def test_move_names_and_labels_show_fractions_as_a_over_b(write_rules):
    game = load(write_rules, NUMBERS)
    state = game.new_initial_state(0)
    assert state.legal_move_names()[:3] == ["take 1/2", "take 1", "take 3/2"]
    state.apply("take 3/2")
    assert state.view(1)["vars"]["halves"] == "3"


def test_division_by_zero_is_an_error_at_the_slash(write_rules):
    game = load(write_rules, NUMBERS)
    state = game.new_initial_state(0)
    with pytest.raises(RulesRuntimeError) as raised:
        state.apply("nothing")
    assert "division by zero" in str(raised.value)
    span = raised.value.span
    assert (span.line, span.column) == (21, 12)       # the division: halves / (halves - halves)
    assert state.history == [] and state.legal_move_names()[0] == "take 1/2"   # nothing changed


def test_a_fraction_past_the_limit_of_numbers_is_an_error_at_the_slash(write_rules):
    game = load(write_rules, NUMBERS)
    state = game.new_initial_state(0)
    state.apply("shrink")                          # 1/10^9
    state.apply("shrink")                          # 1/10^18, at the limit
    assert state.view(1)["vars"]["big"] == "1/" + "1" + "0" * 18
    with pytest.raises(RulesRuntimeError) as raised:
        state.apply("shrink")
    assert "the fraction 1/1" + "0" * 27 + " has more digits than the limit" in str(raised.value)
    assert (raised.value.span.line, raised.value.span.column) == (18, 9)     # big / 1000000000


def test_returns_are_floats_of_the_exact_shares_and_logs_show_the_fraction(write_rules):
    game = load(write_rules, SPLIT, players=3)
    state = game.new_initial_state(0)
    for move in ("join", "join", "join"):
        state.apply(move)
    assert state.is_terminal()
    assert state.returns() == [2 / 3] * 3 and all(r.__class__ is float for r in state.returns())
    assert state.log[-1] == "each who joined takes 2/3"
    assert state.view(2)["vars"]["last_share"] == "-2/3"
    state = game.new_initial_state(0)
    for move in ("join", "stay out", "join"):
        state.apply(move)
    assert state.returns() == [1.0, 0.0, 1.0]       # 2 / 2 is a whole 1
    state = game.new_initial_state(0)
    for move in ("stay out", "stay out", "stay out"):
        state.apply(move)
    assert state.returns() == [0.0, 0.0, 0.0]       # nobody joined: share() is never asked


def test_a_log_of_a_game_with_fractional_returns_round_trips_through_json(tmp_path, capsys, write_rules):
    path = write_rules(SPLIT, "split.rules")
    game = load(write_rules, SPLIT, players=3)
    state = game.new_initial_state(4)
    for move in ("join", "stay out", "join"):
        state.apply(move)
    state = game.new_initial_state(4)
    for move in ("join", "join", "join"):
        state.apply(move)
    log_path = tmp_path / "split.json"
    write_log(log_path, game, state, str(path))
    assert json.loads(log_path.read_text())["result"]["returns"] == [2 / 3] * 3   # floats, exactly
    log, error = read_log(log_path)
    assert error is None
    replayed, error = replay(log)
    assert error is None and replayed.returns() == state.returns() and replayed.log == state.log
    code, out, _ = run(capsys, "replay", log_path, "--json")
    assert code == 0 and json.loads(out)["returns"] == [2 / 3] * 3
    code, out, _ = run(capsys, "replay", log_path)
    assert code == 0 and "returns: P1 2/3 · P2 2/3 · P3 2/3" in out


# ---- properties -----------------------------------------------------------------------------

NUMBERS_RANGE = st.integers(min_value=-10 ** 6, max_value=10 ** 6)


@pytest.fixture(scope="module")
def numbers_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("fractions") / "numbers.rules"
    path.write_text(NUMBERS, encoding="utf-8")
    game, diagnostics, _ = load_game(str(path))
    assert diagnostics == []
    return game


@settings(max_examples=200, deadline=None)
@given(a=NUMBERS_RANGE, b=NUMBERS_RANGE.filter(bool))
def test_the_rules_division_is_the_exact_quotient(numbers_game, a, b):
    state = numbers_game.new_initial_state(0)
    value = numbers_game.functions["ratio"](state, {"a": a, "b": b})
    assert value == Fraction(a, b)
    assert (value.__class__ is int) == (a % b == 0)                  # whole quotients are ints
    assert value * b == a
    assert numbers_game.functions["rounded"](state, {"a": a, "b": b}) == a // b   # '//' of it floors
    assert Fraction(str(value)) == value                              # its label reads back


@given(a=NUMBERS_RANGE)
def test_division_by_zero_is_refused_whatever_the_numerator(a):
    with pytest.raises(RulesRuntimeError, match="division by zero"):
        quotient(a, 0, None)


def test_the_editor_knows_real_as_a_built_in_type(write_rules):
    path = write_rules(SPLIT, "split.rules")
    analysis = lsp.analyse(str(path))
    assert analysis.diagnostics == []
    line = SPLIT.splitlines().index("var last_share: real") + 1
    hover = names.hover_text(analysis.index, str(path), line, len("var last_share: ") + 1)
    assert hover is not None and "real" in hover and "built-in type" in hover
    line = next(k for k, text in enumerate(SPLIT.splitlines(), start=1) if text.startswith("fn share"))
    assert "fn share(): real" in names.hover_text(analysis.index, str(path), line, 4)


def test_the_observation_tensor_holds_a_fraction_as_its_value(write_rules):
    game = load_openspiel_game(write_rules(SPLIT, "split.rules"), players=3)
    state = game.engine_game.new_initial_state(0)
    for move in ("join", "join", "join"):
        state.apply(move)
    tensor = np.zeros(game.encoding.size, np.float32)
    game.encoding.fill(tensor, state.view(1))
    at, _ = game.encoding.var_at["last_share"]
    assert tensor[at] == pytest.approx(-2 / 3)


def test_an_attribute_may_hold_a_fraction_and_its_label_shows_it(write_rules):
    game = load(write_rules, '''game "Chips" { players 2 }
component Chip { share: real } label "chip {share}"
zone pot: pile of Chip public
setup {
  create 1 Chip { share: 1 / 2 } in pot
  create 1 Chip { share: 2 } in pot
}
action cut(c in pot) "cut {c}" {
  let x = c
  x.share = x.share / 3
}
flow { turns from 1 { play cut } }
''')
    state = game.new_initial_state(0)
    assert state.legal_move_names() == ["cut chip 1/2", "cut chip 2"]
    state.apply("cut chip 1/2")
    assert state.legal_move_names() == ["cut chip 1/6", "cut chip 2"]
    assert [item["label"] for item in state.view(2)["zones"]["pot"]["items"]] == ["chip 1/6", "chip 2"]
