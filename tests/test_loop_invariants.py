"""Work an aggregate does once instead of once per item, each checked against a writing of
the same question the compiler leaves as it is, at every decision of random games:

- `any(x in D where A or B)` whose first disjuncts A do not name x tests A once, when D is
  not empty (lower_aggregates.invariant_first), and not per item; a D read once, an A that would fail
  not tried on an empty D;
- a map that keeps the items whose zone is not empty and takes its top reads the zone once
  (expression_facts.top_of_tested);
- an attribute of a named value (a parameter) that a stopping loop or a choice's filter reads
  per item is read once before it (expression_facts.attributes_read_once, for both);
- a range up to a variable of type int with a declared range is a plain `range` (no call
  that checks its ends: codegen.short_range);
- squares(...), groups(...), reachable(...) and bordering(...) have lengths known when
  compiling (work.py): an aggregate over them charges nothing when it runs."""
import random

from referee.interpreter.engine import load_game
from tests.compiled_support import function_source

HOISTS = """
game "Hoists" { players 2 }
board Cell: grid 4 by 4
component Chip { value: int } label "chip {value}"
zone supply: pile of Chip public
zone hand[Player]: set of Chip owner
zone slot[1..20]: stack of Chip public
zone laid[Player, Cell]: set of Chip public
var open_slots: int in 1..20 = 3
var loose: int = 3
var rounds: int = 0
setup {
  for v in 1..24 { create 1 Chip { value: v } in supply }
  shuffle supply
  for p in players { deal 2 from supply to hand[p] }
}
fn big(x: Chip): bool = x.value > 12
fn quick(p: Player): bool = any(x in hand[p] where size(supply) > 6 or big(x))
fn slow(p: Player): bool = any(x in hand[p] where big(x) or size(supply) > 6)
fn quick_two(p: Player): bool = any(x in hand[p] where rounds > 9 or size(supply) < 3 or x.value == rounds)
fn slow_two(p: Player): bool = any(x in hand[p] where x.value == rounds or rounds > 9 or size(supply) < 3)
fn quick_guarded(p: Player): bool = any(x in hand[p] where 12 // rounds > 3 or big(x))
fn tops(): list of Chip = map(k in 1..open_slots where size(slot[k]) > 0: top(slot[k]))
fn tops_plain(): list of Chip = map(k in 1..open_slots where k > 0 and size(slot[k]) > 0: top(slot[k]))
fn top_sum(): int = sum(k in 1..loose where size(slot[k]) > 0: top(slot[k]).value)
fn top_sum_plain(): int = sum(k in 1..loose where size(slot[k]) >= 1: top(slot[k]).value)
fn matching(x: Chip): bool = any(y in tops() where y.value == x.value + 1 or y.value == x.value - 1)
fn matching_plain(x: Chip): bool = count(y in tops() where y.value == x.value + 1 or y.value == x.value - 1) > 0
fn laid_cells(p: Player): list of Cell = filter(c in Cell where size(laid[p, c]) > 0)
fn corners(p: Player): list of Cell = map(b in squares(laid_cells(p)): first(c in b))
fn areas(p: Player): int = sum(g in groups(laid_cells(p)): size(g))
action drop(k in 1..open_slots) "drop {k}" {
  move top(supply) to slot[k]
  rounds += 1
}
action lay(c in Cell where size(laid[current, c]) == 0) "lay {c}" {
  move top(supply) to laid[current, c]
  rounds += 1
}
action trade(x in hand[current]) "trade {x}" {
  require quick(current)
  move x to supply
  deal 1 from supply to hand[current]
  shuffle supply
  rounds += 1
}
action swap(x in hand[current]) "swap {x}" {
  choose y in supply where y.value > x.value by current "which chip" {
    move y to hand[current]
    move x to supply
  }
}
action widen "widen" {
  require open_slots < 20
  open_slots += 1
  loose = open_slots
}
flow { turns from 1 until size(supply) == 0 { play drop, lay, trade, swap, widen } }
"""


def test_what_stays_the_same_through_an_aggregate_is_done_once_and_answers_alike(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(HOISTS)))
    assert diagnostics == []
    module = game.compiler.module_source()
    # the first disjuncts that do not name the item: tested once, before the loop
    # (a function's body: the test, then the loop in its else; a require: the same in one expression)
    for name in ("quick", "quick_two", "quick_guarded"):
        assert "\n    else:\n        for " in function_source(module, f"fn_{name}"), name
    for name in ("slow", "slow_two"):
        assert "else:" not in function_source(module, f"fn_{name}"), name
    assert "(True if (" in function_source(module, "legal_trade")
    # the top of a zone the filter found not empty: read once, no test of its own
    assert "[-1] if" not in function_source(module, "fn_tops")
    assert "[-1] if" in function_source(module, "fn_tops_plain")
    # 1..open_slots (declared 1..20): a plain range; 1..loose (no range declared): checked
    assert "numbers(" not in function_source(module, "fn_tops") and "range(1, " in function_source(module, "fn_tops")
    assert "numbers(" in function_source(module, "fn_top_sum")
    # a parameter's attribute a stopping loop or a choice's filter reads per item: read once
    assert function_source(module, "fn_matching").count("[L_x]") == 1
    assert function_source(module, "fn_matching_plain").count("[L_x]") > 1      # (per item)
    swap = function_source(module, "proc_swap") if "def proc_swap(" in module else function_source(module, "act_swap")
    assert swap.count("[L_x]") == 1
    # an aggregate over squares() or groups() of a board: no charge when it runs
    for name in ("corners", "areas"):
        assert "charged(" not in function_source(module, f"fn_{name}"), name
    pairs = [("quick", "slow"), ("quick_two", "slow_two"), ("tops", "tops_plain"), ("top_sum", "top_sum_plain")]
    seen = set()
    rng = random.Random(4)
    for seed in range(12):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            for fast, plain in pairs:
                parameters = game.compiler.types.functions[fast].parameters
                for env in ([{"p": p} for p in game.seats] if parameters else [{}]):
                    answer = game.functions[fast](state, env)
                    assert answer == game.functions[plain](state, env), (fast, env)
                    seen.add((fast, bool(answer)))
            for x in state.zones.get(("hand", state.current), []):
                answer = game.functions["matching"](state, {"x": x})
                assert answer == game.functions["matching_plain"](state, {"x": x})
                seen.add(("matching", answer))
            rounds = state.vars.get("rounds", 0)
            for p in game.seats:
                hand = state.zones.get(("hand", p), [])
                if rounds > 0:
                    expected = bool(hand) and (12 // rounds > 3 or any(state.entities[x]["value"] > 12 for x in hand))
                    assert game.functions["quick_guarded"](state, {"p": p}) == expected
            state.apply(rng.choice(state.legal_moves()))
    # both answers met: the test once and the loop both decided some of them
    assert {(name, answer) for name, _ in pairs + [("matching", None)] for answer in (True, False)} <= seen


def test_an_invariant_test_is_not_tried_on_an_empty_domain(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(HOISTS)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    state.zones[("hand", 1)] = []       # an empty hand: 12 // rounds (rounds is 0) is not tried
    state.changed()
    assert state.vars.get("rounds", 0) == 0
    assert game.functions["quick_guarded"](state, {"p": 1}) is False
    assert game.functions["quick"](state, {"p": 1}) is False        # (supply > 6, but no chip to try)
