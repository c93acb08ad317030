"""The generated module: what `referee compile` shows, and the shortcuts the compiler takes
(unrolled aggregates, cached functions, lazily made moves, copy-on-write clones) giving the
same answers as the plain forms. (How the module lists moves: test_compiled_listing.py.)"""
import gc
import random

import pytest

from referee.dsl.types import named_type
from referee.interpreter.play.bots import RandomBot
from referee.interpreter.cli.main import main
from referee.interpreter.engine import Move, load_game
from referee.interpreter.runtime.errors import IllegalMove, RulesRuntimeError
from tests.conftest import GAMES, game_files
from tests.compiled_support import function_source, load


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
