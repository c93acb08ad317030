"""How the generated module lists legal moves: actions listed together, rankings and their
tie-break keys, guards split on what a loop does not change, requires turned into a binder's
filter, zones read by keys made once, deals and identical components; each lists the moves
the plain form lists."""
import random
import re

import pytest

from referee.interpreter.play.bots import RandomBot
from referee.interpreter.cli.main import main
from referee.interpreter.engine import load_game
from tests.conftest import GAMES
from referee.interpreter.compile.generated_names import ComprehensionVariable, Hoisted, Temporary
from tests.compiled_support import load


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
    """`zap` shares `m in markers, i in 1..2` with `put`, which tries identical markers once
    (its guard tells no twin apart: tells_twins_apart): the fused listing serves it only when no two markers are identical (else it is listed by
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
  require size(hand[current]) > i else "keep a card or two"
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
