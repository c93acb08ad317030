"""The generated module: what `referee compile` shows, and the shortcuts the compiler takes
(unrolled aggregates, cached functions, lazily made moves, copy-on-write clones) giving the
same answers as the plain forms."""
import gc
import random
import re

import pytest

from referee.dsl.types import named_type
from referee.interpreter.play.bots import RandomBot
from referee.interpreter.cli.main import main
from referee.interpreter.engine import Move, load_game
from referee.interpreter.runtime.errors import IllegalMove, RulesRuntimeError
from tests.conftest import GAMES, game_files
from referee.interpreter.compile.generated_names import ComprehensionVariable, Hoisted, Temporary


def load(path, options=(), players=None):
    game, diagnostics, _ = load_game(str(path), options, players)
    assert diagnostics == [], diagnostics
    return game


# ---- referee compile -----------------------------------------------------------------------

def test_compile_prints_one_function_per_rule_under_its_rules_line(capsys):
    assert main(["compile", str(GAMES / "continents.rules"), "--players", "3"]) == 0
    module = capsys.readouterr().out
    for name in ("def legal_build(s):", "def act_build(s, L_c, L_i, L_card):", "def fn_top_card(s, L_c, L_i):",
                 "def proc_settle(s, L_c):", "def fire_one_trigger(s):", "def setup(s):", "def run_flow(s):"):
        assert name in module
    assert "# continents.rules:" in module
    compile(module, "generated", "exec")      # it is Python (the bound values are shown as comments' peers)


def test_compile_writes_the_module_to_a_file(tmp_path, capsys):
    target = tmp_path / "titicaca.py"
    assert main(["compile", str(GAMES / "titicaca.rules"), "--players", "4", "-o", str(target)]) == 0
    assert "def legal_associate(s):" in target.read_text()
    assert "lines written to" in capsys.readouterr().err


@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.name)
@pytest.mark.slow
def test_every_game_compiles_to_a_module(path, capsys):
    assert main(["compile", str(path)]) == 0
    assert "def run_flow(s):" in capsys.readouterr().out


def test_a_game_compiles_to_the_same_text_every_time(capsys):
    texts = []
    for _ in range(2):
        assert main(["compile", str(GAMES / "titicaca.rules"), "--players", "2"]) == 0
        texts.append(capsys.readouterr().out)
    assert texts[0] == texts[1] and " at 0x" not in texts[0]     # no memory address in the comments


def test_compile_of_a_missing_file_is_refused(capsys):
    assert main(["compile", "no/such.rules"]) == 66


# ---- aggregates over small constant ranges are unrolled: same values ---------------------------

AGGREGATES = """
game "Aggregates" {
  players 2
}
var x[1..6]: int = 0
var top_index: int = 6
@@
fn lo_{v}(): int? = min(i in {r} where x[i] > 0)
fn hi_{v}(): int? = max(i in {r} where x[i] > 0)
fn first_{v}(): int? = first(i in {r} where x[i] > 1)
fn count_{v}(): int = count(i in {r} where x[i] > 0)
fn sum_{v}(): int = sum(i in {r}: x[i])
fn filtered_sum_{v}(): int = sum(i in {r} where x[i] != 2: x[i] * i)
fn any_{v}(): bool = any(i in {r} where x[i] > 2)
fn any_value_{v}(): bool = any(i in {r}: x[i] == 3)
fn all_{v}(): bool = all(i in {r}: x[i] >= 1)
fn all_filter_{v}(): bool = all(i in {r} where x[i] < 4)
fn none_above_{v}(): bool = count(i in {r} where x[i] > 2) == 0
fn some_above_{v}(): bool = 0 < count(i in {r} where x[i] > 2)
fn none_above_plain_{v}(): bool = size(filter(i in {r} where x[i] > 2)) == 0
@@
action add(k in 1..6, n in 1..3) "add {n} at {k}" {
  x[k] += n
}
flow {
  turns from 1 {
    play add
  }
}
"""
NAMES = ("lo", "hi", "first", "count", "sum", "filtered_sum", "any", "any_value", "all", "all_filter")


def test_unrolled_aggregates_give_the_values_of_the_loops(write_rules):
    head, body, tail = AGGREGATES.split("@@")
    # 1..6 is unrolled; 1..top_index (a variable) is a loop: both must agree everywhere
    text = head + body.replace("{v}", "unrolled").replace("{r}", "1..6") \
        + body.replace("{v}", "looped").replace("{r}", "1..top_index") + tail
    game = load(write_rules(text))
    assert "min(" not in game.compiler.module_source().split("def fn_lo_unrolled")[1].split("def ")[0]
    for seed in range(5):
        state, bot = game.new_initial_state(seed), RandomBot(seed)
        for _ in range(12):
            for name in NAMES:
                unrolled = game.functions[f"{name}_unrolled"](state, {})
                looped = game.functions[f"{name}_looped"](state, {})
                assert unrolled == looped and type(unrolled) is type(looped), (name, unrolled, looped)
            # a count compared with 0 is a search that stops at the first: the same answer
            for form in ("unrolled", "looped"):
                plain = game.functions[f"none_above_plain_{form}"](state, {})
                assert game.functions[f"none_above_{form}"](state, {}) is plain
                assert game.functions[f"some_above_{form}"](state, {}) is (not plain)
            state.apply(bot.choose(state))


# ---- cached functions are fresh after every change --------------------------------------------

CACHED = """
game "Cached" {
  players 2
}
board Cell: grid 8 by 8
var mark[Cell]: int = 0
var seen: int = 0
fn marked(): int = count(c in Cell where mark[c] > 0)
fn marked_by(p: Player): int = count(c in Cell where mark[c] == p)
action put(c in Cell where mark[c] == 0) "{c}" {
  mark[c] = current
  seen = marked()
}
flow {
  turns from 1 until marked() >= 10 {
    play put
  }
}
"""


def test_a_cached_function_follows_every_write(write_rules):
    game = load(write_rules(CACHED))
    assert {"marked", "marked_by"} <= game.compiler.memoized
    state, bot = game.new_initial_state(0), RandomBot(0)
    moves = 0
    while not state.is_terminal():
        assert game.functions["marked"](state, {}) == moves
        state.apply(bot.choose(state))
        moves += 1
        assert state.vars["seen"] == moves          # computed by the action right after its write
    assert moves == 10
    per_player = [game.functions["marked_by"](state, {"p": p}) for p in (1, 2)]
    assert per_player == [5, 5]


def test_a_cached_function_sees_a_change_made_from_outside(write_rules):
    game = load(write_rules(CACHED))
    state = game.new_initial_state(0)
    assert game.functions["marked"](state, {}) == 0
    cell = game.geometries["Cell"].at[(2, 3)]
    state.vars[("mark", cell)] = 1                 # as a test scenario arranges a position
    assert game.functions["marked"](state, {}) == 1
    other = state.clone()
    other.vars[("mark", game.geometries["Cell"].at[(4, 4)])] = 2
    assert [game.functions["marked"](s, {}) for s in (state, other, state)] == [1, 2, 1]


# ---- legal moves are made on use ----------------------------------------------------------------

def test_the_move_list_behaves_as_a_list_of_moves():
    game = load(GAMES / "continents.rules", players=3)
    state = game.new_initial_state(4)
    moves = state.legal_moves()
    names = [m.name for m in moves]
    assert len(names) == len(moves) == len(set(names)) > 10
    assert [m.name for m in moves[2:5]] == names[2:5]
    assert moves[-1].name == names[-1] and moves[0] is moves[0]
    with pytest.raises(IndexError):
        moves[len(moves)]
    assert moves[3] in moves and moves.index(moves[3]) == 3


def test_a_move_made_elsewhere_is_played_by_its_name_and_a_forged_one_is_refused():
    game = load(GAMES / "continents.rules", players=2)
    state = game.new_initial_state(1)
    twin = game.new_initial_state(1)
    move = twin.legal_moves()[5]                 # a move of another state, the same position
    state.apply(move)
    assert state.history == [move.name]
    before = (list(state.history), state.current_player())
    forged = Move("action", 0, (10_000, 99, 10_000), "build nothing on nowhere 99")
    with pytest.raises(IllegalMove):
        state.apply(forged)
    assert (list(state.history), state.current_player()) == before


# ---- clones share until they write --------------------------------------------------------------

def test_a_clone_and_its_original_never_see_each_others_moves():
    game = load(GAMES / "solstis.rules")
    state, bot = game.new_initial_state(3), RandomBot(3)
    for _ in range(6):
        state.apply(bot.choose(state))
    frozen = ({k: list(v) for k, v in state.zones.items()}, dict(state.vars), list(state.history),
              list(state.log), list(state.public_history))
    clone = state.clone()
    for _ in range(30):
        if clone.is_terminal():
            break
        clone.apply(bot.choose(clone))
    assert ({k: list(v) for k, v in state.zones.items()}, dict(state.vars), list(state.history),
            list(state.log), list(state.public_history)) == frozen
    # and the original plays on from where it was, as if the clone had never existed
    again = game.new_initial_state(3)
    replay = RandomBot(3)
    for _ in range(6):
        again.apply(replay.choose(again))
    assert [m.name for m in again.legal_moves()] == [m.name for m in state.legal_moves()]


# ---- errors in generated code point at the rules -----------------------------------------------

BROKEN = """
game "Broken" {
  players 2
}
board Cell: grid 3 by 3
var mark[Cell]: Player? = none
var length: int? = none
var won: bool = false

proc judge(p: Player) {
  let mine = filter(c in Cell where mark[c] == p)
  won = has_line(mine, length)
}

action put(c in Cell where mark[c] == none) "{c}" {
  mark[c] = current
  judge(current)
}

flow {
  turns from 1 {
    play put
  }
}
"""


def test_a_python_error_inside_a_procedure_points_at_its_line(write_rules):
    game = load(write_rules(BROKEN))
    state = game.new_initial_state(0)
    with pytest.raises(RulesRuntimeError) as raised:
        state.apply(state.legal_moves()[0])
    assert raised.value.span is not None and raised.value.span.line == 12


def test_an_error_after_an_expression_written_over_lines_points_at_its_own_line(write_rules):
    """A long expression is generated over several lines (render_python.joined): the lines after it
    keep the spans of their own statements."""
    long_let = ("  let busy = count(c in Cell where mark[c] == p) > 0 and count(c in Cell where mark[c] != p) >= 0"
                " and count(c in Cell where mark[c] == none) >= 0 and length == none\n")
    text = BROKEN.replace("  won = has_line(mine, length)\n", long_let + "  won = has_line(mine, length) and busy\n")
    game = load(write_rules(text))
    judge = game.compiler.module_source().split("def proc_judge(", 1)[1].split("\ndef ", 1)[0]
    assert any(line.endswith(" and") for line in judge.splitlines())       # (written over lines)
    state = game.new_initial_state(0)
    with pytest.raises(RulesRuntimeError) as raised:
        state.apply(state.legal_moves()[0])
    assert raised.value.span is not None and raised.value.span.line == 13


# ---- a step stopped at a choice resumes where it stopped; a clone of it replays ---------------

@pytest.mark.slow
def test_a_clone_of_a_stopped_step_replays_it_to_the_same_place():
    game = load(GAMES / "solstis.rules")
    compared = 0
    for seed in range(6):
        state, bot = game.new_initial_state(seed), RandomBot(seed)
        while not state.is_terminal():
            if state.pending is not None and state.pending.steps is not None:
                clone = state.clone()
                index = bot.rng.randrange(len(state.legal_moves()))
                resumed, replayed = state.legal_moves()[index], clone.legal_moves()[index]
                assert resumed.name == replayed.name
                state.apply(resumed)      # the generator goes on
                clone.apply(replayed)     # the step again, from before it, with the same choices
                assert clone.view(1) == state.view(1) and clone.view(2) == state.view(2)
                assert [m.name for m in clone.legal_moves()] == [m.name for m in state.legal_moves()]
                assert (clone.rng, clone.pc, clone.current, clone.history) == (state.rng, state.pc, state.current, state.history)
                assert (clone.log, clone.public_history) == (state.log, state.public_history)
                compared += 1
            else:
                state.apply(bot.choose(state))
    assert compared > 20


CHOOSING = """
game "Choosing" { players 2 }
var total: int = 0
action add(n in 1..2) "add {n}" {
  log "{current} adds {n}"
  choose k in 1..3 {
    total += n * k
    log "{current} doubles to {total}"
  }
}
flow { turns from 1 until total >= 12 { play add } }
"""


def test_a_clone_of_a_stopped_step_keeps_the_log_of_before_the_step(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(CHOOSING)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    state.apply("add 2")
    state.apply(state.legal_moves()[0])
    state.apply("add 1")                   # stopped at the choice, its first line logged
    clone = state.clone()
    state.apply(state.legal_moves()[2])    # the generator goes on
    state.apply("add 2")                   # and the original goes on logging
    clone.apply(clone.legal_moves()[2])    # the step again, from before it
    assert clone.log == ["P1 adds 2", "P1 doubles to 2", "P2 adds 1", "P2 doubles to 5"]
    assert state.log == clone.log + ["P1 adds 2"]


# ---- equality indexes answer as the aggregates they stand for -----------------------------------

INDEXED = """
game "Indexed" {
  players 2
}
board Cell: grid 8 by 8
var colour[Cell]: int = 0
fn cells_of(k: int): list of Cell = filter(c in Cell where colour[c] == k and c.row > 2)
fn cells_of_plain(k: int): list of Cell = filter(c in Cell where (colour[c] == k or false) and c.row > 2)
fn count_of(k: int): int = count(c in Cell where colour[c] == k)
fn count_of_plain(k: int): int = count(c in Cell where colour[c] == k or false)
fn near(a: Cell, k: int): bool = k != 0 and any(c in Cell where colour[c] == k and adjacent(a, c))
fn near_plain(a: Cell, k: int): bool = k != 0 and any(c in Cell where (colour[c] == k or false) and adjacent(a, c))
fn around(k: int): list of Cell = filter(c in Cell where c.row > 2 and any(n in neighbors(c) where colour[n] == k))
fn around_plain(k: int): list of Cell =
  filter(c in Cell where c.row > 2 and any(n in neighbors(c) where colour[n] == k or false))
fn around_count(k: int): int = count(c in Cell where any(n in neighbors(c) where colour[n] == k and n.col > 1))
fn around_count_plain(k: int): int =
  count(c in Cell where any(n in neighbors(c) where (colour[n] == k or false) and n.col > 1))
action paint(c in Cell, k in 1..3) "paint {c} {k}" {
  colour[c] = k
}
flow {
  turns from 1 until count_of(0) < 40 {
    play paint
  }
}
"""


def function_source(module, name) -> str:
    start = module.index(f"def {name}(")
    return module[start:module.index("\n\n", start)]


def test_equality_indexes_answer_as_the_aggregates_they_replace(write_rules):
    game = load(write_rules(INDEXED))
    module = game.compiler.module_source()
    assert "def index_around_" in module and "def index_around_count" in module
    # a filter, count or any over the whole board by the variable's value: the table of the
    # variable by value (var_table) answers it, not an equality index
    for name in ("cells_of", "count_of", "near"):
        assert f"def index_{name}" not in module
        assert "var_table(s, 'colour'" in function_source(module, f"fn_{name}")
        assert "var_table" not in function_source(module, f"fn_{name}_plain")
    corner = game.geometries["Cell"].at[(4, 4)]
    compiled = game.compiler.codegen.namespace      # the generated functions, called as the rules do
    for seed in range(3):
        state, bot = game.new_initial_state(seed), RandomBot(seed)
        while not state.is_terminal():
            for k in (0, 1, 2, 3, 2):        # several values in one state: the tables get built
                for name, args in (("cells_of", (k,)), ("count_of", (k,)), ("near", (corner, k)),
                                   ("around", (k,)), ("around_count", (k,))):
                    indexed = compiled[f"fn_{name}"](state, *args)
                    assert indexed == compiled[f"fn_{name}_plain"](state, *args), (name, args)
            state.apply(bot.choose(state))
    assert any(value is True for key, value in compiled.items() if key.startswith("_asked_") for value in value.values())
    assert state.var_index["colour"]      # (the table was built, and kept through the moves)


def test_a_function_its_indexes_answer_keeps_no_values_of_its_own(write_rules):
    """The index keeps the values already: a second cache in front of it would only cost."""
    text = INDEXED.replace("action paint", "fn around_near(k: int): bool = k != 0 and around_count(k) > 0\n"
                                           "fn around_more(k: int): int = around_count(k) + 1\n"
                                           "fn touches(a: Cell, k: int): bool =\n"
                                           "  k != 0 and not (k == 4) and any(x in Cell where adjacent(a, x): any(y in neighbors(x) where colour[y] == k))\n"
                                           "action paint")
    game = load(write_rules(text))
    module = game.compiler.module_source()
    for name in ("around", "around_count", "touches"):
        source = function_source(module, f"fn_{name}")
        assert f"index_{name}_" in source and "_cache_" not in source and "stamp" not in source
    # a body with more than index reads and tests of names and constants keeps its cache
    assert "_cache_around_more_" in function_source(module, "fn_around_more")
    assert "_cache_around_near_" in function_source(module, "fn_around_near")   # (a call, not an index)
    compiled = game.compiler.codegen.namespace
    neighbours = game.neighbor_table()
    corners = [game.geometries["Cell"].at[(1, 1)], game.geometries["Cell"].at[(4, 5)]]
    for seed in range(2):
        state, bot = game.new_initial_state(seed), RandomBot(seed)
        while not state.is_terminal():
            for k in (1, 2, 1, 3):      # the same value asked again in one state: the table is built then
                assert compiled["fn_around"](state, k) == compiled["fn_around_plain"](state, k)
                assert compiled["fn_around_count"](state, k) == compiled["fn_around_count_plain"](state, k)
                assert compiled["fn_around_more"](state, k) == compiled["fn_around_count_plain"](state, k) + 1
                for a in corners:
                    assert compiled["fn_touches"](state, a, k) == any(
                        state.vars.get(("colour", y), 0) == k for x in neighbours[a] for y in neighbours[x])
            state.apply(bot.choose(state))


@pytest.mark.parametrize("name, players", [("solstis", 2), ("titicaca", 3), ("connect-four", 2), ("tic-tac-toe", 2)])
@pytest.mark.slow
def test_cached_values_are_never_stale_during_play(name, players):
    """After every move, each cached function's value as the rules would read it now equals
    the value computed afresh: the stamps saw every change of what it reads."""
    game = load(GAMES / f"{name}.rules", players=players)
    compiled = game.compiler.codegen.namespace
    cells = [cells[::7] for cells in game.static_by_type.values()]
    samples = {"Player": list(range(1, players + 1)), **{board: c for board, c in zip(game.static_by_type, cells)}}

    def arguments(fn):
        combos = [()]
        for parameter in fn.parameters:
            values = samples.get(named_type(game.types.type_name(parameter.type)))
            if values is None:
                return []
            combos = [c + (v,) for c in combos for v in values]
        return combos
    cached = [(n, arguments(game.types.functions[n])) for n in sorted(game.compiler.memoized)]
    checked = 0
    for seed in range(3):
        state, bot = game.new_initial_state(seed), RandomBot(seed)
        while not state.is_terminal():
            state.apply(bot.choose(state))
            for fn_name, combos in cached:
                for args in combos:
                    as_read = compiled[f"fn_{fn_name}"](state, *args)
                    game.memo_reset(state)          # forget every cached value
                    assert compiled[f"fn_{fn_name}"](state, *args) == as_read, (fn_name, args)
                    checked += 1
    assert checked > 0 or not cached


def test_a_state_changed_by_hand_then_marked_changed_lists_fresh_moves(write_rules):
    game = load(write_rules(CACHED.replace("until marked() >= 10", "until marked() >= 60")
                            .replace('action put(c in Cell where mark[c] == 0)',
                                     'action put(c in Cell where mark[c] == 0 and marked() < 50)')))
    state = game.new_initial_state(0)
    assert len(state.legal_moves()) == 64
    for cell in game.geometries["Cell"].cells[:50]:
        state.vars[("mark", cell)] = 1             # by hand: the engine does not see it
    state.changed()
    assert len(state.legal_moves()) == 0          # marked() is 50 now: nothing may be put


# ---- what cannot be compiled is a located error, never a Python error --------------------------

def test_a_param_that_calls_a_recursive_function_is_a_located_error(write_rules):
    text = """
game "R" {
  players 2
}
fn f(n: int): int = n <= 0 ? 0 : f(n - 1) + 1
param depth = f(100000)
var total: int = 0
action pass "pass" {
  total += depth
}
flow {
  turns from 1 until total >= 3 {
    play pass
  }
}
"""
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert game is None and [(d.code, d.span.line) for d in diagnostics] == [("E701", 6)]


@pytest.mark.parametrize("depth", [300, 2000])
def test_an_expression_nested_too_deeply_is_a_diagnostic(write_rules, depth):
    text = ('game "D" {\n  players 2\n}\nvar n: int = 0\nfn deep(): int = ' + "(" * depth + "1" + " + 1)" * depth
            + '\naction pass "pass" {\n  n += deep()\n}\nflow {\n  turns from 1 until n >= 3 {\n    play pass\n  }\n}\n')
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert game is None and [(d.code, d.span.line) for d in diagnostics] == [("E103", 5)]
    assert "too deeply" in diagnostics[0].message


def test_the_setup_part_that_draws_nothing_runs_once_and_each_game_gets_its_own_copy():
    """Creates and moves before the first shuffle are the same in every game: run once, copied."""
    game, _, _ = load_game("games/solstis.rules", players=2)
    assert game.setup_parts is not None
    first = game.new_initial_state(1)
    base = game.setup_base
    assert base is not None and len(base.entities) == len(first.entities)
    bag = next(key for key in first.zones if key == "bag")
    first.zones[bag].clear()                       # a state changed by hand, in place
    again = game.new_initial_state(1)
    assert again.zones[bag] and game.setup_base is base
    fresh, _, _ = load_game("games/solstis.rules", players=2)
    assert fresh.new_initial_state(1).zones == again.zones        # the same game as without the copy


PATHS = """
game "Paths" { players 2 }
board Sq: grid 1 by 6
var mark[Sq]: Player? = none
fn steps(c: Sq): list of list of Sq = map(d in neighbors(c) where mark[d] == none: [c, d])
action walk(path in steps(Sq(1, 1)) + steps(Sq(1, 4))) "{path}" {
  for c in path { mark[c] = current }
}
flow { turns from 1 until not can_play(walk) { play walk } }
"""


def test_a_binder_over_lists_makes_one_move_per_path(write_rules):
    """A move whose argument is a whole path (a compound move as one decision): it was a crash
    (a list cannot be a key)."""
    game, diagnostics, _ = load_game(str(write_rules(PATHS)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    assert state.legal_move_names() == ["a1, b1", "d1, e1", "d1, c1"]
    state.apply("d1, c1")
    assert state.legal_move_names() == ["a1, b1", "d1, e1"] and state.current_player() == 2
    again = game.new_initial_state(0)
    again.apply(again.legal_moves()[2])
    assert again.vars == state.vars


# ---- actions listed together (Compiler.fused_listing) ------------------------------------------

@pytest.mark.parametrize("path", ["continents.rules", "variants/continents-six-places.rules"])
def test_actions_listed_together_give_the_moves_each_gives_alone(path):
    """build, burn and strike share `c in revealed, i in 1..places`: one generated function
    loops over the places once for all three (strike tries identical cards each, the others
    once: the continents are all different), and must list exactly what their own
    enumerators list."""
    game = load(GAMES / path, players=3)
    fused = [i for i in game.flow if i.fused is not None]
    assert fused and "def legal_together_build_burn_strike" in game.compiler.module_source()
    checked = 0
    for seed in range(8):
        state, bot = game.new_initial_state(seed), RandomBot(seed)
        while not state.is_terminal():
            instruction = game.flow[state.pc] if state.pending is None else None
            if instruction is not None and instruction.fused is not None:
                together = instruction.fused(state)
                assert len(together) == 3 and None not in together.values()
                for index, (tuples, exact) in together.items():
                    alone, alone_exact = game.actions[index].enumerate(state)
                    assert tuples == alone and (exact == alone_exact or not tuples)
                checked += 1
            state.apply(bot.choose(state))
    assert checked > 100


def test_with_coverage_each_action_lists_its_own_moves():
    game, diagnostics, _ = load_game(str(GAMES / "continents.rules"), (), 2, coverage=True)
    assert diagnostics == [] and all(i.fused is None for i in game.flow)


def test_best_and_worst_compute_the_tie_break_keys_only_for_the_tied():
    from referee.interpreter.runtime import ranked, ranked_ties
    scored = [((3, 1), "a"), ((5, 0), "b"), ((5, 2), "c"), ((5, 2), "d"), ((1, 9), "e")]
    for kind in ("best", "worst"):
        asked = []

        def later(v):
            asked.append(v)  # noqa: B023 (called at once, in this round)
            return dict((v, k[1:]) for k, v in scored)[v]
        assert ranked_ties(kind, [(k[0], v) for k, v in scored], later) == ranked(kind, scored)
        assert asked == (["b", "c", "d"] if kind == "best" else [])
    assert ranked_ties("best", [], None) == []


def test_best_and_worst_are_every_value_whose_key_is_the_largest_or_smallest_in_order():
    from fractions import Fraction
    from referee.interpreter.runtime import ranked, ranked_ties
    rng = random.Random(5)
    for _ in range(500):
        scored = [((rng.choice([0, 1, 2, Fraction(3, 2)]), rng.randint(0, 1)), name)
                  for name in "abcdefg"[:rng.randint(0, 6)]]
        for kind, pick in (("best", max), ("worst", min)):
            expected = [v for k, v in scored if k == pick(k for k, _ in scored)] if scored else []
            assert ranked(kind, scored) == expected
            by_first = [(k[0], v) for k, v in scored]
            assert ranked_ties(kind, by_first, lambda v: dict((v, k[1:]) for k, v in scored)[v]) == expected  # noqa: B023


def test_a_ranking_key_the_filter_computed_is_read_from_the_filter():
    from referee.interpreter.compile import ir
    from referee.interpreter.compile.expression_facts import filter_values, reusing
    x, f = ir.Local("x"), ir.Call("f", (ir.TheState(), ir.Local("x")))
    g, h, a = ir.Call("g", (x,)), ir.Call("h", (x,)), ir.Local("a")
    where = ir.Grouped(ir.BoolOp("and", (ir.Compare("is not", ir.Grouped(ir.Named(Temporary("_t1"), f)), ir.Constant(None)),
                                         ir.Compare(">", ir.Local(Temporary("_t1")), ir.Constant(0)),
                                         ir.Not(ir.Grouped(ir.Named(Temporary("_t2"), g))))))
    values = filter_values(where)
    assert values == {f: Temporary("_t1"), g: Temporary("_t2")}
    assert reusing(ir.Grouped(f), values) == ir.Local(Temporary("_t1"))
    assert reusing(ir.Call("f", (ir.TheState(), ir.Local("y"))), values) == ir.Call("f", (ir.TheState(), ir.Local("y")))
    # only what is surely computed when the filter is true: not the right side of an `or`
    positive = ir.Compare(">", ir.Grouped(ir.Named(Temporary("_t3"), h)), ir.Constant(0))
    assert filter_values(ir.BoolOp("or", (a, positive))) == {}
    assert filter_values(ir.BoolOp("or", (positive, a))) == {h: Temporary("_t3")}


def test_a_ranking_whose_filter_and_key_are_one_function_ranks_as_before(write_rules):
    from referee.interpreter.engine import load_game
    path = write_rules("""
game "Ranks" {
  players 3
}
var points[Player]: int = 0
fn score(p: Player): int = points[p] * 2 - 3
action add(p in players) "add {p}" {
  points[p] += 1
}
flow {
  turns from 1 {
    play add
    if count(p in players where points[p] >= 3) > 0 {
      finish winners best(p in players where score(p) > 0 by score(p), 0 - p)
    }
  }
}
""")
    game, diagnostics, _ = load_game(path, (), 3)
    assert game is not None, diagnostics
    s = game.new_initial_state(0)
    for name in ["add P2", "add P3", "add P2", "add P3", "add P2"]:
        s.apply(name)
    assert s.is_terminal() and s.winners == [2]


def test_tie_break_keys_that_bind_temporaries_move_into_the_lambda_only_when_they_are_their_own():
    from referee.interpreter.compile import ir
    from referee.interpreter.compile.expression_facts import temporaries_of_their_own
    hand = ir.ReadZone(ir.Key("hand", (ir.Local(ComprehensionVariable("a1_p")),)), empty=True)
    top = ir.Grouped(ir.Conditional(ir.Named(Temporary("_t3"), hand), ir.Item(ir.Local(Temporary("_t3")), ir.Constant(-1)), ir.Constant(None)))
    zero = ir.Constant(0)
    assert temporaries_of_their_own((ir.BoolOp("or", (top, zero)),), (ir.BoolOp("or", (ir.Call("len", (hand,)), zero)),))
    # one the filter binds and the key reads: it would read the last item's value in a lambda
    kept = ir.Compare(">", ir.Grouped(ir.Named(Temporary("_t1"), ir.Call("f", (ir.TheState(),)))), zero)
    assert not temporaries_of_their_own((ir.BoolOp("or", (ir.Local(Temporary("_t1")), zero)),), (kept,))
    # one the key binds and something else reads
    assert not temporaries_of_their_own((ir.BoolOp("or", (top, zero)),), (ir.Compare(">", ir.Local(Temporary("_t3")), zero),))
    # a value hoisted for a loop level, computed on first use: a lambda would make it its own
    assert not temporaries_of_their_own((ir.FirstUse(Hoisted("_h4"), ir.Call("f", (ir.TheState(),))),), (None,))


def test_a_ranking_broken_by_an_inlined_top_card_ranks_as_before(write_rules, tmp_path, capsys):
    """`by size(hand[p]), top_value(p)`: the tie-break inlines top(hand[p]) with a temporary,
    and is computed only for the tied players, in a lambda."""
    from referee.interpreter.engine import load_game
    path = write_rules("""
game "Ties" {
  players 3
}
component Card { value: int } label "card {value}"
zone deck: pile of Card public
zone hand[Player]: pile of Card public
fn top_value(p: Player): int = top(hand[p]) == none ? 0 : top(hand[p]).value
action take(c in deck) "take {c}" {
  move c to hand[current]
}
setup {
  for v in 1..5 {
    create 1 Card { value: v } in deck
  }
}
flow {
  turns from 1 {
    play take
    if size(deck) == 0 {
      finish winners best(p in players by size(hand[p]), top_value(p))
    }
  }
}
""")
    game, diagnostics, _ = load_game(path, (), 3)
    assert game is not None, diagnostics
    assert main(["compile", str(path), "--players", "3", "-o", str(tmp_path / "ties.py")]) == 0
    assert "ranked_ties(" in (tmp_path / "ties.py").read_text()
    # P1 and P2 hold two cards each, P3 one: the higher top card of the two wins
    for moves, winners in ((["take card 5", "take card 1", "take card 2", "take card 4", "take card 3"], [1]),
                           (["take card 1", "take card 5", "take card 2", "take card 3", "take card 4"], [2]),
                           (["take card 2", "take card 3", "take card 1", "take card 5", "take card 4"], [1])):
        s = game.new_initial_state(0)
        for name in moves:
            s.apply(name)
        assert s.is_terminal() and s.winners == winners, moves


def test_a_sum_whose_filter_computes_its_value_computes_it_once(write_rules):
    from referee.interpreter.engine import load_game
    path = write_rules("""
game "Sums" {
  players 2
}
var points[Player]: int = 0
fn worth(p: Player): int = points[p] - 1
action add(p in players) "add {p}" {
  points[p] += 1
}
flow {
  turns from 1 {
    play add
    if sum(p in players where worth(p) > 0: worth(p)) >= 2 {
      finish winners [current]
    }
  }
}
""")
    game, diagnostics, _ = load_game(path, (), 2)
    assert game is not None, diagnostics
    source = game.compiler.module_source()
    assert re.match(r"\(_t\d+ or 0\) for ", source.split("sum([", 1)[1])     # the body reads the filter's value
    s = game.new_initial_state(0)
    for name in ["add P1", "add P2", "add P1", "add P1"]:
        assert not s.is_terminal()
        s.apply(name)
    assert s.is_terminal() and s.winners == [2]


@pytest.mark.parametrize("name, players", [("continents.rules", 2), ("continents.rules", 5),
                                           ("variants/continents-six-places.rules", 3)])
def test_actions_listed_together_list_what_each_lists_alone(name, players):
    """A decision's actions that share their first binders are listed by one fused function:
    the same tuples, in the same order, as each action's own enumerator, at every decision of
    random games."""
    game, diagnostics, _ = load_game(str(GAMES / name), (), players)
    assert game is not None, diagnostics
    fused_decisions = 0
    for seed in range(6):
        s, bot = game.new_initial_state(seed), RandomBot(seed)
        while not s.is_terminal():
            instruction = game.flow[s.pc] if s.pending is None and s.pc < len(game.flow) else None
            if instruction is not None and getattr(instruction, "fused", None) is not None:
                together = instruction.fused(s)
                for index, action, _ in instruction.listed:
                    if together.get(index) is not None:
                        fused_decisions += 1
                        alone, exact = action.enumerate(s)
                        assert together[index][0] == alone and together[index][1] == exact, (name, action.name)
            s.apply(bot.choose(s))
    assert fused_decisions > 50       # (build and burn are listed together there)


def test_a_guard_split_on_what_the_loop_does_not_change_lists_the_same_moves(write_rules):
    """`require low == none or x.value > low`: the loop over x written twice, once for a
    none `low` (every x) and once testing x.value > low, gives the moves of the plain guard."""
    path = write_rules("""
game "Split" {
  players 2
}
component Card { value: int } label "{value}"
zone pile: row of Card public
zone hand[Player]: row of Card public
fn low(): Card? = top(pile)
setup {
  for p in players {
    create 1 Card { value: 1 } in hand[p]
    create 1 Card { value: 2 } in hand[p]
    create 1 Card { value: 3 } in hand[p]
  }
}
action play(x in hand[current]) "play {x}" {
  let under = low()
  require under == none or x.value > under.value else "too low"
  move x to pile
}
action pass "pass" { }
flow {
  turns from 1 {
    play play, pass
    if size(pile) >= 4 { finish }
  }
}
""")
    game, diagnostics, _ = load_game(path, (), 2)
    assert game is not None, diagnostics
    listing = game.compiler.module_source().split("def legal_play(s):")[1].split("\ndef ")[0]
    assert re.search(r"\n    if _h\d+ is None:\n        for L_x in fixed0:\n            out\.append", listing)
    s = game.new_initial_state(0)
    assert s.legal_move_names() == ["play 1", "play 2", "play 3", "pass"]
    s.apply("play 2")
    assert s.legal_move_names() == ["play 3", "pass"]        # P2 must beat the 2
    s.apply("play 3")
    assert s.legal_move_names() == ["pass"]


def test_a_domain_only_iterated_is_not_copied():
    from referee.interpreter.compile import ir
    from referee.interpreter.compile.expression_facts import one_call
    one, two, f_x = ir.Constant(1), ir.Constant(2), ir.Call("f", (ir.Local("x"),))
    assert one_call(ir.Call("numbers", (one, ir.Arithmetic("+", f_x, one), ir.Global("_span2"))), "numbers")
    assert not one_call(ir.Arithmetic("+", ir.Call("numbers", (one, two)), f_x), "numbers") and \
        not one_call(ir.Call("numbers2", (one,)), "numbers")
    game, diagnostics, _ = load_game(str(GAMES / "continents.rules"), (), 2)
    listing = game.compiler.module_source().split("def legal_strike(s):")[1].split("\ndef ")[0]
    assert "list(range(" not in listing and re.search(r"fixed1 = _k\d+\n", listing)   # 1..places: a constant tuple


def test_a_fused_listing_split_on_an_empty_place_lists_what_each_lists_alone():
    """build, burn and strike all ask whether the place is empty: it is tested once for the
    three (the place's list itself, its top read only where there is one); on an empty place
    only build is tried, and burn's `is_house(under)` no longer tests none."""
    game, diagnostics, _ = load_game(str(GAMES / "continents.rules"), (), 3)
    listing = game.compiler.module_source().split("def legal_together_build_burn_strike(s):")[1].split("\ndef ")[0]
    empty = re.search(r"\n( +)if not (_h\d+):\n((?:\1 .*\n)+)\1else:\n\1    (_h\d+) = \2\[-1\]\n((?:\1 .*\n)+)", listing)
    assert empty, listing
    when_empty, when_not = empty[3], empty[5]
    assert re.fullmatch(r" +if on0:\n +for L_card in fixed0_2:\n +out0\.append\(\(L_c, L_i, L_card, \)\)\n", when_empty)
    assert "on1" not in when_empty and "on2" not in when_empty      # burn and strike: never on an empty place
    assert "is None" not in when_not and "is not None" not in when_not and "not not" not in when_not
    # build's `not burned(c, i)` is implied by `is_house(under)`, its next test
    assert f"if _A0[{empty[4]}] == 'house' and" in when_not and "== 'fire'" not in when_not
    assert listing.count(f"{empty[4]} = ") == 1


@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.stem)
@pytest.mark.slow
def test_random_play_leaves_no_cycles_for_the_garbage_collector(path):
    """Moves point at their list's segments, not at the list that holds them, and a state
    keeps its listing's segments, not a MoveList (which holds the state): each move list is
    freed as soon as the next move is played, and a clone that listed its moves as soon as it
    is dropped, as search bots drop thousands. (A cycle kept every decision's argument tuples
    alive until the collector ran: Continents 6p played a third slower.)"""
    game = load(path)
    gc.collect()
    gc.disable()
    try:
        for seed in range(3):
            rng = random.Random(seed)
            state, moves = game.new_initial_state(seed), None
            while not state.is_terminal():
                moves = state.legal_moves()
                if state.pending is None:   # (a step stopped at a choice holds its generator)
                    probe = state.clone()
                    _ = probe.legal_moves()[0].name     # (naming a move runs its labeler)
                    del probe
                state.apply(moves[rng.randrange(len(moves))])
            del state, moves
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0, f"{left} objects were only freed by the garbage collector"


def test_requires_that_test_an_inner_binder_alone_filter_its_domain_once(write_rules, tmp_path):
    """`t in reserve[current], c in Grid`: the requires that test c alone become c's filter,
    computed once per listing (not once per token); the listing is still every (t, c) the
    guard lets through, in binder order."""
    path = write_rules("""
game "Tokens" {
  players 2
}
board Grid: grid 3 by 3
component Token { value: int } label "token {value}"
zone reserve[Player]: set of Token public
zone spot[Grid]: set of Token public
action put(t in reserve[current], c in Grid) "put {t} on {c}" {
  require size(spot[c]) == 0 else "taken"
  require c.row < 3 or c.col > 1 else "not there"
  require t.value > 1 or c.row == 1 else "a 1 goes on the first row"
  move t to spot[c]
}
setup {
  for v in 1..4 {
    create 1 Token { value: v } in reserve[1]
    create 1 Token { value: v + 4 } in reserve[2]
  }
}
flow {
  turns from 1 until size(reserve[1]) + size(reserve[2]) == 0 {
    play put
  }
}
""")
    game, diagnostics, _ = load_game(path, (), 2)
    assert game is not None, diagnostics
    assert main(["compile", str(path), "-o", str(tmp_path / "tokens.py")]) == 0
    listing = (tmp_path / "tokens.py").read_text().split("def legal_put(s):")[1].split("\ndef ")[0]
    assert "fixed1 = []" in listing          # the cells that pass, once
    assert_lists_what_the_guard_lets_through(game, game.actions[0])


def test_a_listing_over_a_constant_range_reads_zones_by_keys_made_once(write_rules, tmp_path):
    """`c in Color, i in 1..4` reading spot[c, i]: the keys of the range's values are made
    once per color (rows), not on every round; the listing is still every (c, i, t) the
    guard lets through, in binder order, as the moves change the zones."""
    path = write_rules("""
game "Spots" {
  players 2
}
enum Color { red, blue, green }
component Token { value: int } label "token {value}"
zone reserve[Player]: set of Token public
zone spot[Color, 1..4]: stack of Token public
action put(c in Color, i in 1..4, t in reserve[current]) "put {t} on {c} {i}" {
  require size(spot[c, i]) < 2 else "full"
  require size(spot[c, i]) == 0 or top(spot[c, i]).value < t.value else "too weak"
  move t to spot[c, i]
}
setup {
  for v in 1..6 {
    create 1 Token { value: v } in reserve[1]
    create 1 Token { value: v + 6 } in reserve[2]
  }
}
flow {
  turns from 1 until size(reserve[current]) == 0 {
    play put
  }
}
""")
    game, diagnostics, _ = load_game(path, (), 2)
    assert game is not None, diagnostics
    assert main(["compile", str(path), "-o", str(tmp_path / "spots.py")]) == 0
    listing = (tmp_path / "spots.py").read_text().split("def legal_put(s):")[1].split("\ndef ")[0]
    assert "_make_rows" in listing and "('spot', L_c, L_i,)" not in listing
    assert_lists_what_the_guard_lets_through(game, game.actions[0])


def assert_lists_what_the_guard_lets_through(game, action, seeds=5):
    """At every decision of random games: the action's listing is every combination of its
    binders' domains that its guard lets through, in binder order."""
    from referee.interpreter.engine.refusals import action_candidates
    for seed in range(seeds):
        s, bot = game.new_initial_state(seed), RandomBot(seed)
        while not s.is_terminal():
            allowed = [args for args in action_candidates(s, action, check_guard=False)
                       if action.guard(s, dict(zip((b[0] for b in action.binders), args))) is None]
            assert action.enumerate(s)[0] == allowed
            s.apply(bot.choose(s))


@pytest.mark.parametrize("n, under", [(0, False), (3, False), (40, False), (3, True), (40, True)])
@pytest.mark.slow
def test_a_deal_is_the_moves_of_the_top_cards_one_by_one(n, under):
    """State.deal moves the top cards as that many moves would (owning the lists once): the
    zones, where each card is, and the cached values read from them; a clone that deals
    leaves its original as it was."""
    game, _, _ = load_game(str(GAMES / "continents.rules"), (), 2)
    s = game.new_initial_state(3)
    original_zones = {key: list(items) for key, items in s.zones.items()}
    dealt, moved = s.clone(), s.clone()
    dealt.deal(n, ("draw", 1), ("hand", 2), under)
    for _ in range(n):
        pile = moved.zones.get(("draw", 1))
        if pile:
            moved.move(pile[-1], ("hand", 2), under)
    assert dealt.zones == moved.zones and dealt.loc == moved.loc
    assert s.zones == original_zones
    everything = sorted(x for items in original_zones.values() for x in items)
    assert sorted(x for items in dealt.zones.values() for x in items) == everything
    assert dealt.legal_move_names() == moved.legal_move_names()
    dealt.deal(2, ("hand", 2), ("hand", 2), under)          # onto itself: as two moves
    moved.move(moved.zones[("hand", 2)][-1], ("hand", 2), under)
    moved.move(moved.zones[("hand", 2)][-1], ("hand", 2), under)
    assert dealt.zones == moved.zones


def test_an_action_that_tries_identical_components_each_is_listed_apart_when_the_shared_values_hold_two(write_rules):
    """`zap` shares `m in markers, i in 1..2` with `put`, which tries identical markers once:
    the fused listing serves it only when no two markers are identical (else it is listed by
    its own enumerator, None in the fused result); the legal moves are those of the game
    listed without fusion (coverage) at every decision."""
    path = write_rules("""
game "Twins" {
  players 2
}
component Marker { color: text } label "{color}"
component Card { kind: text, power: int } label "{kind} {power}"
zone markers: row of Marker public
zone spare: set of Marker public
zone slot[Marker, 1..2]: stack of Card public
zone hand[Player]: row of Card owner
zone discard: set of Card public
var turns_played: int = 0
action put(m in markers, i in 1..2, card in hand[current] where card.kind == "plain") {
  require size(slot[m, i]) == 0 else "taken"
  move card to slot[m, i]
}
action zap(m in markers, i in 1..2, card in hand[current] where card.kind == "zap") "zap {m} {i}" {
  require size(slot[m, i]) > 0 else "nothing to zap"
  move top(slot[m, i]) to discard
  move card to discard
}
action twin "add a twin marker" {
  require size(spare) > 0 else "no twin left"
  move top(spare) to markers
}
action pass "pass" {
}
setup {
  create 1 Marker { color: "red" } in markers
  create 1 Marker { color: "blue" } in markers
  create 1 Marker { color: "red" } in spare
  for p in players {
    create 3 Card { kind: "plain", power: 1, owner: p } in hand[p]
    create 2 Card { kind: "zap", power: 0, owner: p } in hand[p]
  }
}
flow {
  turns from 1 until turns_played >= 12 {
    play put, zap, twin, pass
    turns_played += 1
  }
}
""")
    game, diagnostics, _ = load_game(path, (), 2)
    plain, _, _ = load_game(path, (), 2, coverage=True)
    assert game is not None and plain is not None, diagnostics
    instruction = next(i for i in game.flow if i.fused is not None)
    zap = next(a.index for a in game.actions if a.name == "zap")
    apart = served = 0
    for seed in range(30):
        s, t, bot = game.new_initial_state(seed), plain.new_initial_state(seed), RandomBot(seed)
        while not s.is_terminal():
            assert s.legal_move_names() == t.legal_move_names()
            if s.pending is None and game.flow[s.pc] is instruction:
                entry = instruction.fused(s)[zap]
                twins = len(s.zones.get("markers", ())) == 3
                assert (entry is None) == twins
                apart += twins
                served += entry is not None and bool(entry[0])
            move = bot.choose(s)
            s.apply(move.name)
            t.apply(move.name)
    assert apart > 20 and served > 5


def test_an_attribute_declared_without_a_question_mark_is_compared_without_a_none_test(write_rules, tmp_path):
    """`c.power` (int) of a component that is surely there needs no none test before `<`:
    every component is created with all its attributes (E207) and none is never written into
    one (a located error); `c.bonus` (int?) keeps its test, and an order with none is false."""
    path = write_rules("""
game "Powers" {
  players 2
}
component Card { power: int, bonus: int? } label "card {power}"
zone hand[Player]: row of Card public
zone pile: stack of Card public
var plays: int = 0
action play(c in hand[current] where c.power > 1) "play {c}" {
  require size(pile) == 0 or top(pile).power < c.power else "too weak"
  move c to pile
  plays += 1
}
action boost(c in hand[current] where c.bonus < 2) "boost {c}" {
  move c to pile
  plays += 1
}
action pass "pass" {
  plays += 1
}
setup {
  for v in 1..4 {
    create 1 Card { power: v, bonus: none } in hand[1]
    create 1 Card { power: v + 1, bonus: v } in hand[2]
  }
}
flow {
  turns from 1 until plays >= 6 {
    play play, boost, pass
  }
}
""")
    game, diagnostics, _ = load_game(path, (), 2)
    assert game is not None, diagnostics
    assert main(["compile", str(path), "-o", str(tmp_path / "powers.py")]) == 0
    source = (tmp_path / "powers.py").read_text()
    play = source.split("def legal_play(s):")[1].split("\ndef ")[0]
    boost = source.split("def legal_boost(s):")[1].split("\ndef ")[0]
    assert re.search(r"if not \(\(_A\d+\[L_c\] > 1\)\): continue", play)        # c.power > 1
    assert re.search(r"is not None and _t\d+ < 2", boost)                        # c.bonus < 2
    s = game.new_initial_state(0)
    assert s.legal_move_names() == ["play card 2", "play card 3", "play card 4", "pass"]
    s.apply("pass")                       # P2's bonuses are 1..4: only the first is below 2
    assert s.legal_move_names() == ["play card 2", "play card 3", "play card 4", "play card 5", "boost card 2", "pass"]
    s.apply("play card 4")
    assert s.legal_move_names() == ["pass"]       # P1: none stronger than 4, and none < 2 is false
    s.apply("pass")
    assert s.legal_move_names() == ["play card 5", "boost card 2", "pass"]
