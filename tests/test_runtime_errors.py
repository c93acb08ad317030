"""A rules bug found while playing is a located RulesRuntimeError, never a Python error."""
import re

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError

GAME = """
game "Broken" {
  players 2
}
board Cell: grid 3 by 3
var mark[Cell]: Player? = none
var length: int? = none

action put(c in Cell where mark[c] == none) "{c}" {
  mark[c] = current
}

flow {
  turns from 1 {
    play put
    if has_line(filter(c in Cell where mark[c] == current), length) {
      finish winners [current]
    }
  }
}
"""


def test_a_library_function_given_none_is_a_located_rules_error(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(GAME)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    with pytest.raises(RulesRuntimeError) as raised:
        state.apply(state.legal_moves()[0])
    message = str(raised.value)
    assert "has_line of none: the length of a line is a number" in message
    assert raised.value.span is not None and raised.value.span.line == 16


def test_a_runtime_error_carries_its_message_and_span_as_fields(write_rules):
    """Callers read what went wrong and where from the error's fields; its text is made of them."""
    game, diagnostics, _ = load_game(str(write_rules(GAME)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    with pytest.raises(RulesRuntimeError) as raised:
        state.apply(state.legal_moves()[0])
    error = raised.value
    assert error.message.startswith("has_line of none: the length of a line is a number")
    assert str(error) == f"{error.span}: runtime error: {error.message}"
    assert str(RulesRuntimeError("no span")) == "runtime error: no span"
    assert RulesRuntimeError("no span").message == "no span" and RulesRuntimeError("no span").span is None


def test_geometry_of_something_that_is_no_cell_is_a_rules_error(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(GAME)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    from referee.interpreter.runtime import stdlib
    with pytest.raises(RulesRuntimeError, match="is not a board cell"):
        stdlib.neighbors(state, 10_000)


def everything(state):
    return ({k: list(v) for k, v in state.zones.items() if v}, dict(state.vars), list(state.loc),
            state.current, state.pc, dict(state.env), state.rng, state.turn, state.terminal,
            list(state.history), list(state.public_history), list(state.log), state.legal_move_names())


@pytest.mark.parametrize("by_hand", [False, True])
def test_a_move_that_fails_half_way_changes_nothing(write_rules, by_hand):
    """The move writes its mark, then the flow after it fails: apply is all or nothing, both for
    a state reached by moves (rebuilt from its seed and moves) and one changed by hand (a copy
    kept for the time of the move)."""
    game, _, _ = load_game(str(write_rules(GAME)))
    state = game.new_initial_state(3)
    if by_hand:
        state.vars[("mark", game.geometries["Cell"].at[(3, 3)])] = 2
        state.changed()
    before = everything(state)
    for attempt in range(2):
        with pytest.raises(RulesRuntimeError, match="has_line of none"):
            state.apply("a1")
        assert everything(state) == before, attempt
    clone = state.clone()
    with pytest.raises(RulesRuntimeError):
        clone.apply(clone.legal_moves()[1])
    assert everything(clone) == before and everything(state) == before


def test_a_forged_or_stale_move_is_refused(write_rules):
    from referee.interpreter.engine import Move
    from referee.interpreter.runtime.errors import IllegalMove
    game, _, _ = load_game(str(write_rules(GAME.replace("length)", "3)"))))
    state = game.new_initial_state(0)
    stale = state.legal_moves()[0]
    state.apply(stale)
    before = everything(state)
    for move in (stale, Move("action", 0, (10_000,), "z9"), "z9", 42):
        with pytest.raises(IllegalMove):
            state.apply(move)
        assert everything(state) == before


WRITES = """
game "Writes" { players 2 }
var heap[1..3]: int = 5
var w: Player? = none
action shift(h in 1..3) "shift {h}" { heap[h + 1] = heap[h] }
action name(k in 1..3) "name {k}" { w = current + k }
action crown(k in 1..3) "crown {k}" { finish winners [k] }
action toss(k in 1..3) "toss {k}" { move top(deck) to pile[current + k] }
action ask(k in 1..3) "ask {k}" { choose c in [1, 2] by current + k { heap[1] = c } }
action hop(k in 1..3) "hop {k}" { w = 1 w += k }
action bump "bump" { w += 1 }
component Chip { size: int }
zone deck: pile of Chip
zone pile[Player]: pile of Chip
setup { create 3 Chip { size: 1 } in deck }
flow { turns from 1 { play shift, name, crown, toss, ask, hop, bump } }
"""


@pytest.mark.parametrize("move, message, line, inside", [
    ("shift 3", "a write to heap[4], outside the indexes declared for heap (1..3)", 5, "shift 2"),
    ("name 2", "w is a player, but is given 3 (players are 1..2)", 6, "name 1"),
    ("crown 3", "the winners must be players of this game (1..2), not 3", 7, "crown 2"),
    # a component put in a zone nobody declared would be lost to every view and every rule
    ("toss 2", "a write to pile[3], outside the indexes declared for pile (players 1..2)", 8, "toss 1"),
    ("ask 2", "a choice is given to 3, which is not a player (players are 1..2)", 9, "ask 1"),
    ("hop 2", "w is a player, but is given 3 (players are 1..2)", 10, "hop 1"),
    ("bump", "arithmetic on 'none'", 11, "hop 1"),
])
def test_a_value_outside_what_was_declared_is_a_located_error(write_rules, move, message, line, inside):
    game, diagnostics, _ = load_game(str(write_rules(WRITES)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    before = everything(state)
    with pytest.raises(RulesRuntimeError, match=message.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")) as raised:
        state.apply(move)
    assert raised.value.span is not None and raised.value.span.line == line
    assert everything(state) == before
    state.apply(inside)
    assert state.history == [inside]


OWNERS = """game "Owners" { players 2 }
component Chip { size: int, keeper: Player }
zone deck: pile of Chip
var v: int = 0
setup { create 2 Chip { size: 1, keeper: 1, owner: 2 } in deck }
action give(k in 1..2) "give {k}" { let c = top(deck) c.owner = v + k }
action keep(k in 1..2) "keep {k}" { let c = top(deck) c.keeper = v + k }
flow { turns from 1 { play give, keep } }
"""


@pytest.mark.parametrize("move, message, line, inside", [
    ("give 2", "c.owner is a player, but is given 3 (players are 1..2)", 6, "give 1"),
    ("keep 2", "c.keeper is a player, but is given 3 (players are 1..2)", 7, "keep 1"),
])
def test_an_attribute_of_a_player_given_a_number_that_is_no_seat_is_a_located_error(write_rules, move, message, line, inside):
    game, diagnostics, _ = load_game(str(write_rules(OWNERS.replace("var v: int = 0", "var v: int = 1"))))
    assert diagnostics == []
    state = game.new_initial_state(0)
    with pytest.raises(RulesRuntimeError, match=re.escape(message)) as raised:
        state.apply(move)
    assert raised.value.span.line == line
    state.apply(inside)
    with pytest.raises(RulesRuntimeError, match=re.escape("Chip.owner is a player, but is given 7")) as raised:
        load_game(str(write_rules(OWNERS.replace("owner: 2", "owner: 7"))))[0].new_initial_state(0)
    assert raised.value.span.line == 5


def test_components_created_outside_a_zones_indexes_are_a_located_error(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(
        'game "Chips" { players 2 }\ncomponent Chip { size: int }\nzone pile[Player]: pile of Chip\n'
        'setup {\n  for k in 1..3 { create 1 Chip { size: k } in pile[k] }\n}\n'
        'action pass "pass" { }\nflow { turns from 1 { play pass } }\n')))
    assert diagnostics == []
    with pytest.raises(RulesRuntimeError, match=re.escape("a write to pile[3], outside the indexes declared for pile")) as raised:
        game.new_initial_state(0)
    assert (raised.value.span.line, raised.value.span.column) == (5, 48)


@pytest.mark.parametrize("flow, moves, message", [
    ("turn 3 { play pass }", 0, "a turn is given to 3, which is not a player (players are 1..2)"),
    ("turns from v + 5 { play pass }", 0, "the first turn is given to 6, which is not a player"),
    ("turns from 0 { play pass }", 0, "the first turn is given to 0, which is not a player"),
    ("for p in [2, 3] { turn p { play pass } }", 1, "a turn is given to 3, which is not a player"),
    ("simultaneous p in [1, 0] { play pass }", 1, "a simultaneous move is given to 0, which is not a player"),
])
def test_a_turn_given_to_a_value_that_is_no_seat_is_a_located_error(write_rules, flow, moves, message):
    """Without the check the game would ask player 3 of 2 (current_player() == 3)."""
    game, diagnostics, _ = load_game(str(write_rules(
        'game "Seats" { players 2 }\nvar v: int = 1\naction pass "pass" { v += 1 }\n'
        f"flow {{\n  {flow}\n}}\n")))
    assert diagnostics == []
    with pytest.raises(RulesRuntimeError, match=re.escape(message)) as raised:
        state = game.new_initial_state(0)
        for _ in range(moves):
            assert state.current_player() in (1, 2)
            state.apply("pass")
    assert raised.value.span is not None and raised.value.span.line == 5


LIBRARY = """game "Library" {
  players 2
  score p: next(nobody)
}
board Cell: grid 3 by 3
var nobody: Player? = none
var v: int = 0
invariant far: distance(Cell(9, 9), Cell(1, 1)) >= 0
action step "step" { v += 1 }
action hop "hop" { v = distance(Cell(1, 1), Cell(0, 0)) }
action pass "pass" { finish winners [next(nobody)] }
var maybe: int? = none
action absolute "absolute" { v = abs(maybe) }
action upto "upto" { v = sum(i in 1..maybe) }
action line "line" { if has_line([Cell(1, 1)], maybe) { v += 1 } }
flow { turns from 1 { play step, hop, pass, absolute, upto, line } }
"""


@pytest.mark.parametrize("reading, message, line", [
    (lambda state: state.scores(), "next of none: it takes a player", 3),
    (lambda state: state.view(1), "next of none: it takes a player", 3),
    (lambda state: state.broken_invariants(), "distance of none: both cells must be given", 8),
    (lambda state: state.apply("hop"), "distance of none: both cells must be given", 10),
    (lambda state: state.apply("pass"), "next of none: it takes a player", 11),
    (lambda state: state.apply("absolute"), "abs of none: it takes a number", 13),
    (lambda state: state.apply("upto"), "a range runs between numbers, not none", 14),
    (lambda state: state.apply("line"), "has_line of none: the length of a line is a number", 15),
])
def test_what_the_tools_read_fails_with_a_located_error(write_rules, reading, message, line):
    """Scores, views and invariants (read by play, verify, bots) and the standard functions
    that do not know their rules line: located at the line that called them."""
    game, diagnostics, _ = load_game(str(write_rules(LIBRARY)))
    assert diagnostics == []
    with pytest.raises(RulesRuntimeError, match=re.escape(message)) as raised:
        reading(game.new_initial_state(0))
    assert raised.value.span is not None and raised.value.span.line == line


def test_a_score_that_is_none_when_the_scores_decide_is_a_located_error(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(
        'game "Scores" {\n  players 2\n  score p: p == 1 ? 3 : bonus\n}\nvar bonus: int? = none\n'
        'var v: int = 0\naction pass "pass" { v += 1 }\nflow { turns from 1 until v > 1 { play pass } }\n')))
    assert diagnostics == []
    state = game.new_initial_state(0)
    state.apply("pass")
    with pytest.raises(RulesRuntimeError, match="the game ends by the scores, but the score of P2 is none") as raised:
        state.apply("pass")
    assert (raised.value.span.line, raised.value.span.column) == (3, 12)
    assert not state.is_terminal() and state.history == ["pass"]


RUNAWAY = """
game "Runaway" {{ players 2 }}
var v: int = 1
{action}
action pass "pass" {{ v += 1 }}
flow {{ turns from 1 until v > 5 {{ play {play} }} }}
"""


@pytest.mark.parametrize("action, play, message, line", [
    # loops nested in one another share the step's one budget (each alone is short enough)
    ('action spin "spin" {\n  let i = 0\n  while i < 2000 {\n    i += 1\n    let j = 0\n'
     '    while j < 2000 { j += 1 }\n  }\n}', "spin", "this step ran more than 1,000,000 loop rounds", 9),
    ('action grow "grow" {\n  for k in 1..200 { v = v * 2 }\n}', "grow", "a number of 19 digits, beyond the limit", 5),
    # a value squared in a recursion never reaches a variable: stopped at the product itself
    ('fn squared(x: int, n: int): int = n == 0 ? x : squared(x * x, n - 1)\naction grow "grow" { v = squared(2, 40) }',
     "grow", "a number of 20 digits, beyond the limit", 4),
    ('fn shrink(x: real, n: int): real = n == 0 ? x : shrink(x * x, n - 1)\n'
     'action grow "grow" { v = shrink(1 / 3, 40) // 1 }', "grow", "the fraction 1/[0-9]+ has more digits than the limit", 4),
    ('fn tiny(x: real, n: int): real = n == 0 ? x : tiny(x + 1 / (n + 1) + x / 7, n - 1)\n'
     'action grow "grow" { v = tiny(1 / 3, 300) // 1 }', "grow", "has more digits than the limit", 4),
    ('action pick(i in 1..1000, j in 1..1000) "pick {i} {j}" { v += 1 }', "pick, pass",
     "'pick' has more than 100,000 legal moves at once", 4),
    # a list doubled round after round would fill the memory (2^40 items)
    ('var items: list of int = [1]\naction grow "grow" {\n  for k in 1..40 { items = items + items }\n}', "grow",
     "a list of 1,048,576 items, beyond the limit of 1,000,000", 6),
])
def test_a_step_that_runs_away_is_a_located_error(write_rules, action, play, message, line):
    game, diagnostics, _ = load_game(str(write_rules(RUNAWAY.format(action=action, play=play))))
    assert diagnostics == []
    with pytest.raises(RulesRuntimeError, match=message) as raised:
        state = game.new_initial_state(0)
        state.apply(state.legal_moves()[0])
    assert raised.value.span is not None and raised.value.span.line == line


DOUBLING_CHAIN = "fn f0(): int = 1\n" + "".join(f"fn f{k}(): int = f{k - 1}() + f{k - 1}()\n" for k in range(1, 41))


@pytest.mark.parametrize("action, play, line", [
    # nested aggregates: 10^10 rounds in all, each aggregate alone short enough
    ('fn big(): int = sum(a in 1..100000: sum(b in 1..100000: 1))\naction grow "grow" { v = big() }', "grow", 4),
    # an exponential call tree (3^40 calls), at the recursive function
    ('fn f(n: int): int = n == 0 ? 1 : f(n - 1) + f(n - 1) - f(n - 1)\naction grow "grow" { v = f(40) }', "grow", 4),
    # no function calls itself, but each calls the one before twice: f13 is the first whose body
    # costs more than 10,000 units, it charges at each call (and so do those after it)
    (DOUBLING_CHAIN + 'action grow "grow" { v = f40() }', "grow", 17),
    # a loop, short enough for the rounds limit, whose every round runs a long aggregate
    ('action spin "spin" {\n  for k in 1..1000000 { v = count(c in 1..1000000 where c > k) }\n}', "spin", 5),
    # small constant ranges nested 8 deep (12^8 items): too costly to be free, they charge
    ("fn deep(): int = " + "".join(f"sum(i{k} in 1..12: " for k in range(8)) + "1" + ")" * 8 +
     '\naction grow "grow" { v = deep() }', "grow", 4),
    # a procedure that calls itself twice
    ('proc split(n: int) { if n > 0 { split(n - 1)\n split(n - 1) } }\naction grow "grow" { split(60) }', "grow", 4),
])
@pytest.mark.slow
def test_work_that_multiplies_is_a_located_error_that_changes_nothing(write_rules, action, play, line):
    game, diagnostics, _ = load_game(str(write_rules(RUNAWAY.format(action=action, play=play))))
    assert diagnostics == []
    state = game.new_initial_state(0)
    before = everything(state)
    with pytest.raises(RulesRuntimeError, match="this step did more than 100,000,000 units of work") as raised:
        state.apply(state.legal_moves()[0])
    assert raised.value.span is not None and raised.value.span.line == line
    assert everything(state) == before
    # the same place again: work is counted, not timed
    with pytest.raises(RulesRuntimeError) as again:
        state.apply(state.legal_moves()[0])
    assert again.value.span == raised.value.span


@pytest.mark.slow
def test_binders_tried_in_full_though_no_move_passes_are_a_located_error(write_rules):
    """MAX_LEGAL_MOVES counts the moves kept: 10^10 tuples tried for none is stopped by the work."""
    action = 'action pick(a in 1..100000, b in 1..100000 where a + b < 0) "pick {a} {b}" { v += 1 }'
    game, diagnostics, _ = load_game(str(write_rules(RUNAWAY.format(action=action, play="pick, pass"))))
    assert diagnostics == []
    spans = []
    for _ in range(2):        # (the first decision's moves are listed as the game starts)
        with pytest.raises(RulesRuntimeError, match="this step did more than 100,000,000 units of work") as raised:
            game.new_initial_state(0)
        spans.append(raised.value.span)
    assert spans[0].line == 4 and spans[0] == spans[1]


def test_a_heavy_step_that_a_game_could_need_stays_under_the_work_budget(write_rules):
    heavy = ('fn pairs(n: int): int = sum(a in 1..n: sum(b in 1..n: a == b ? 1 : 0))\n'
             'action heavy "heavy" {\n  for k in 1..3 { v += pairs(1000) }\n}')
    rules = RUNAWAY.format(action=heavy, play="heavy").replace("until v > 5", "until v > 9000")
    game, diagnostics, _ = load_game(str(write_rules(rules)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    state.apply("heavy")          # 3 x 10^6 pairs tried
    assert state.vars["v"] == 3001
    state.apply("heavy")          # the budget is the step's: the next step has all of it again
    assert state.vars["v"] == 6001 and not state.is_terminal()


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four"])
def test_small_boards_pay_nothing_for_the_work_budget(name):
    """Their aggregates and listings go through domains of lengths known when compiling and
    cost little: the generated code charges nothing."""
    from pathlib import Path
    game, diagnostics, _ = load_game(str(Path(__file__).parent.parent / "games" / f"{name}.rules"))
    source = game.compiler.module_source()
    assert "STEP[1]" not in source and "charged(" not in source


CACHED_RECURSION = """
game "Cached" { players 2 }
board Cell: grid 100 by 100
var mark[Cell]: Player? = none
var total: int = 0
fn depth(p: Player, n: int): int = n == 0 ? count(c in Cell where mark[c] == p) : depth(p, n - 1) + 1
action go "go" { total = depth(1, 30) + depth(1, 30) }
flow { turns from 1 until total > 0 { play go } }
"""


def test_a_cached_function_charges_only_when_it_computes(write_rules):
    """A recursive function charges at its entry; cached, the charge comes after the cache: a
    value found there costs nothing."""
    game, diagnostics, _ = load_game(str(write_rules(CACHED_RECURSION)))
    assert diagnostics == []
    body = game.compiler.module_source().split("def fn_depth(", 1)[1].split("\ndef ", 1)[0].splitlines()
    hit = next(k for k, line in enumerate(body) if "return entry[1]" in line)
    charge = next(k for k, line in enumerate(body) if "STEP[1] -=" in line)
    assert hit < charge
    state = game.new_initial_state(0)
    state.apply("go")
    assert state.vars["total"] == 60          # 30 steps down to a count of 0, twice


RANGED = """
game "Ranged" { players 2 }
var n: int in 1..20 = 5
var total: int = 0
fn upto(): int = sum(k in 1..n + 1: k * total)
action go "go" { total = upto() + 1 }
flow { turns from 1 until total > 3 { play go } }
"""


def test_a_variable_that_declares_its_range_bounds_the_aggregates_over_it(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(RANGED)))
    assert diagnostics == []
    assert "charged(" not in game.compiler.module_source()        # at most 21 items: free
    game, diagnostics, _ = load_game(str(write_rules(RANGED.replace("int in 1..20 = 5", "int = 5"))))
    assert diagnostics == []
    assert "charged(" in game.compiler.module_source()            # unbounded: charged when it runs


def test_a_long_log_line_is_cut_and_its_length_is_work(write_rules):
    """A list of a million items logged round after round filled the memory (1.4 GB for 2,000
    rounds of 100,000 items): a line's characters are work now, and it is cut at the limit."""
    from referee.dsl.limits import MAX_LOG_LINE
    from referee.interpreter.runtime import logged
    game, diagnostics, _ = load_game(str(write_rules(
        'game "Log" { players 2 }\nvar v: int = 0\nvar items: list of int = []\n'
        'action show "show" { items = map(i in 1..30000: i) log "{items}" v += 1 }\n'
        'flow { turns from 1 until v > 1 { play show } }\n')))
    assert diagnostics == []
    state = game.new_initial_state(0)
    state.apply("show")
    assert state.log[-1].startswith("1, 2, 3, ") and state.log[-1].endswith("...")
    assert len(state.log[-1]) == MAX_LOG_LINE + 3
    with pytest.raises(RulesRuntimeError, match="units of work"):
        logged([0, 10], "x" * 11, None)


@pytest.mark.parametrize("move, message, line", [
    ("go", "'at' of arrive holds 'Square', but is given none here", 9),
    ("put", "a write to on[none], outside the indexes declared for on", 10),
])
def test_a_cell_that_is_none_puts_no_component_in_a_zone_of_none(write_rules, move, message, line):
    """A procedure's parameter typed Square, or a loop's value over a list, may be none: the
    call and the zone's index are checked, not trusted by their type (the fuzzer found a
    component in ('on', None))."""
    game, diagnostics, _ = load_game(str(write_rules(
        'game "Cells" { players 2 }\nboard Square: grid 2 by 2\ncomponent Piece { rank: int }\n'
        'zone on[Square]: stack of Piece\nzone box: pile of Piece\nvar v: int = 0\n'
        'setup { create 1 Piece { rank: 1 } in box }\n'
        'proc arrive(x: Piece, at: Square) { move x to on[at] }\n'
        'action go "go" { arrive(top(box), Square(5, 5)) v += 1 }\n'
        'action put "put" { for at in [Square(5, 5)] { move top(box) to on[at] } v += 1 }\n'
        'flow { turns from 1 until v > 1 { play go, put } }\n')))
    assert diagnostics == []
    state = game.new_initial_state(0)
    with pytest.raises(RulesRuntimeError, match=re.escape(message)) as raised:
        state.apply(move)
    assert raised.value.span.line == line
    assert ("on", None) not in state.zones
