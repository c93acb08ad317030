"""The checker: the real games are clean; names resolve in the right scopes; types fit;
options and params reach the compiled game."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.dsl.checks import diagnostics as check
from referee.dsl.parser import parse
from referee.dsl.program import build_program, load_program
from referee.interpreter.engine import load_game

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "games" / "variants").glob("*.rules"))

HEAD = '''game "Scopes" { players 2 }
enum Colour { red, blue }
component Card { colour: Colour, value: int }
zone deck: pile of Card hidden
zone hand[Player]: row of Card owner
var total: int = 0
'''
TAIL = '''
action pass "pass" { }
flow { turns from 1 { play pass } }
'''


def diagnostics_of(body: str, head: str = HEAD, tail: str = TAIL):
    """Check `head + body + tail` as one file; return (code, line, message) of each diagnostic,
    with lines counted from the first line of `body`."""
    text = head + body + tail
    module, errors = parse(text, "scopes.rules")
    assert errors == [], errors
    program, errors, _ = build_program(module, "scopes.rules", {})
    assert errors == [], errors
    offset = head.count("\n")
    return [(d.code, d.span.line - offset, d.message) for d in check(program)]


def clean(body: str, **kw):
    found = diagnostics_of(body, **kw)
    assert found == [], found


def only(body: str, code: str, line: int, fragment: str, **kw):
    found = diagnostics_of(body, **kw)
    assert len(found) == 1, found
    assert found[0][:2] == (code, line), found
    assert fragment in found[0][2], found


# ---- the real games -------------------------------------------------------------------------

def test_there_are_games_to_check():
    names = {p.name for p in GAME_FILES}
    assert {"tic-tac-toe.rules", "continents.rules"} <= names


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.name)
def test_real_games_check_clean(path):
    program, diagnostics, sources = load_program(str(path))
    assert diagnostics == []
    assert check(program) == []
    assert str(path) in sources
    game, diagnostics, _ = load_game(str(path))
    assert diagnostics == [] and game is not None
    low, high = game.player_range
    assert 1 <= low <= high


def test_checker_does_not_change_a_clean_program():
    program, _, _ = load_program(str(ROOT / "games" / "continents.rules"))
    before = dict(program.declarations)
    assert check(program) == [] and check(program) == []
    assert program.declarations == before


# ---- let ----------------------------------------------------------------------------------

def test_let_is_visible_after_it_and_in_nested_blocks():
    clean('''proc p() {
  let x = 1
  if x > 0 { total = x }
  for c in deck { total += x + c.value }
  x = x + 1
}
''')


def test_let_is_not_visible_before_it():
    only('''proc p() {
  total = x
  let x = 1
}
''', "E202", 2, "unknown name 'x'")


def test_let_ends_with_its_block():
    only('''proc p() {
  if total > 0 {
    let inner = 2
  }
  total = inner
}
''', "E202", 5, "unknown name 'inner'")


def test_let_does_not_leak_into_another_declaration():
    only('''proc p() { let mine = 1 }
proc q() { total = mine }
''', "E202", 2, "unknown name 'mine'")


def test_sibling_blocks_may_reuse_a_name_with_different_types():
    clean('''proc p() {
  if total > 0 { let v = 1
    total = v }
  else { let v = red
    total = 0 }
}
''')


def test_a_let_keeps_its_type():
    only('''proc p() {
  let c = red
  total = c
}
''', "E303", 3, "'total' holds a number, not 'Colour'")


def test_repeat_until_sees_the_lets_of_its_body():
    clean('''proc p() {
  repeat { let done = total > 3
    total += 1 } until done
}
''')


# ---- binders ------------------------------------------------------------------------------

def test_action_binders_are_visible_in_the_body_and_in_later_filters():
    clean('''action play_card(c in hand[current] where c.value > 0, d in deck where d.value < c.value) "{c} {d}" {
  require c.colour == d.colour
  move c to deck
}
''')


def test_a_binder_is_not_visible_in_an_earlier_filter():
    only('''action two(c in hand[current] where c.value < d.value, d in deck) "x" { }
''', "E202", 1, "unknown name 'd'")


def test_a_binder_is_not_visible_in_another_action():
    only('''action one(c in deck) "one {c}" { }
action other "other" { move c to deck }
''', "E202", 2, "unknown name 'c'")


def test_for_binder_ends_with_its_loop():
    only('''proc p() {
  for c in deck { total += c.value }
  total = c.value
}
''', "E202", 3, "unknown name 'c'")


def test_aggregate_and_ranking_binders_are_local_to_the_expression():
    clean('''fn strongest(p: Player): int = max(c in hand[p]: c.value)
fn reds(): int = count(c in deck where c.colour == red)
fn leaders(): list of Player = best(p in players by strongest(p))
''')
    only('''fn reds(): int = count(c in deck where c.colour == red) + c.value
''', "E202", 1, "unknown name 'c'")


def test_binder_element_types_follow_the_domain():
    only('''fn f(): int = count(c in deck where c.colour > 1)
''', "E303", 1, "'>' compares numbers or members of one enum, but this is 'Colour'")
    only('''fn f(): int = count(p in players where p.value > 1)
''', "E305", 1, "no attributes")


def test_choose_and_trigger_binders():
    clean('''proc choose_card() {
  choose c in hand[current] "which card?" { move c to deck }
}
trigger tidy for c in deck when c.value < 0 { move c to hand[1] }
''')
    only('''trigger tidy for c in deck when c.value < 0 { move c to hand[1] }
proc p() { move c to deck }
''', "E202", 2, "unknown name 'c'")


def test_score_field_names_its_player():
    clean("", head=HEAD.replace('players 2 }', 'players 2 score who: size(hand[who]) }'))
    found = diagnostics_of("", head=HEAD.replace('players 2 }', 'players 2 score who: size(hand[p]) }'))
    assert [(c, m) for c, _, m in found] == [("E202", "unknown name 'p'")]


# ---- fn and proc parameters -----------------------------------------------------------------

def test_function_parameters_are_visible_in_the_body_with_their_types():
    clean('''fn weight(c: Card, factor: int): int = c.value * factor
fn heavy(c: Card): bool = weight(c, 2) > 10
''')
    only('''fn weight(c: Card, factor: int): int = c.value * factor + other
''', "E202", 1, "unknown name 'other'")
    only('''fn colour_of(c: Card): int = c.colour
''', "E303", 1, "says it gives a number, but its body gives 'Colour'")


def test_parameters_do_not_leak_between_functions():
    only('''fn a(x: int): int = x
fn b(): int = x
''', "E202", 2, "unknown name 'x'")


def test_call_arguments_are_checked_against_parameters():
    only('''fn weight(c: Card, factor: int): int = c.value * factor
fn bad(): int = weight(top(deck), red)
''', "E303", 2, "'factor' of weight is a number, not 'Colour'")
    only('''fn weight(c: Card, factor: int): int = c.value * factor
fn bad(): int = weight(top(deck))
''', "E208", 2, "takes 2 argument(s), not 1")


def test_procedure_parameters_and_calls():
    clean('''proc give(p: Player, n: int) { deal n from deck to hand[p] }
proc round_start() { for p in players { give(p, 3) } }
''')
    only('''proc give(p: Player, n: int) { deal n from deck to hand[p] }
proc round_start() { give(1) }
''', "E208", 2, "'give' takes 2 argument(s), not 1")
    only('''proc give(p: Player) { deal n from deck to hand[p] }
''', "E202", 1, "unknown name 'n'")


def test_a_procedure_has_no_value():
    only('''proc give(p: Player) { }
fn f(): int = give(1)
''', "E204", 2, "is a procedure")


def test_only_variables_and_locals_can_be_assigned():
    clean('''proc p(n: int) {
  let x = 1
  x = 2
  x += n
  total = x
}
''')
    only('''param rounds = 3
proc p() { rounds = 4 }
''', "E209", 2, "'rounds' cannot be assigned")
    only('''proc p() { red = blue }
''', "E209", 1, "'red' cannot be assigned")
    only('''proc p() { deck = 1 }
''', "E209", 1, "'deck' cannot be assigned")
    only('''proc p() { totl = 1 }
''', "E202", 1, "unknown variable 'totl'")


# ---- options and params ------------------------------------------------------------------------

OPTIONS_GAME = '''game "Options" { players 2..3 }
param rounds = 5
param bonus = 1
option short "a short game" { rounds = 2 }
option generous "more points" { bonus = 3 }
option plain "changes nothing"
var n: int = 0
var points[Player]: int = 0
action pass "pass" {
  n += 1
  points[current] += bonus
  if short { log "short" }
}
flow { turns from 1 until n >= rounds { play pass } }
'''


def test_params_keep_their_values_without_options(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(OPTIONS_GAME)))
    assert diagnostics == []
    assert game.params == {"rounds": 5, "bonus": 1}
    assert game.options == frozenset()


@pytest.mark.parametrize("options, params", [
    (["short"], {"rounds": 2, "bonus": 1}),
    (["generous"], {"rounds": 5, "bonus": 3}),
    (["short", "generous"], {"rounds": 2, "bonus": 3}),
    (["plain"], {"rounds": 5, "bonus": 1}),
])
def test_an_options_settings_override_params(write_rules, options, params):
    game, diagnostics, _ = load_game(str(write_rules(OPTIONS_GAME)), options=options)
    assert diagnostics == []
    assert game.params == params
    assert game.options == frozenset(options)


def test_options_change_how_the_game_plays(write_rules):
    path = str(write_rules(OPTIONS_GAME))
    lengths = {}
    for options in ((), ("short",)):
        game, _, _ = load_game(path, options=options)
        s = game.new_initial_state(seed=0)
        moves = 0
        while not s.is_terminal():
            s.apply("pass")
            moves += 1
        lengths[options] = moves
        assert ("short" in s.log) == ("short" in options)
    assert lengths == {(): 5, ("short",): 2}


def test_unknown_option_and_bad_player_count_are_load_errors(write_rules):
    path = str(write_rules(OPTIONS_GAME))
    game, diagnostics, _ = load_game(path, options=["shrot"])
    assert game is None and [d.code for d in diagnostics] == ["E601"]
    assert "did you mean 'short'?" == diagnostics[0].hint
    game, diagnostics, _ = load_game(path, players=4)
    assert game is None and [d.code for d in diagnostics] == ["E602"]
    assert "2..3" in diagnostics[0].message
    for players in (2, 3):
        game, diagnostics, _ = load_game(path, players=players)
        assert diagnostics == [] and game.num_players == players


def test_an_option_is_a_condition_and_a_param_is_a_value():
    head = HEAD + 'param rounds = 3\noption fast "fast" { rounds = 1 }\n'
    clean("proc p() { if fast and total < rounds { total += rounds } }\n", head=head)
    only("proc p() { if rounds { total = 1 } }\n", "E301", 1, "a condition must be true or false", head=head)
    only("proc p() { total = fast }\n", "E303", 1, "'total' holds a number, not true/false", head=head)


def test_an_option_may_only_set_params_of_the_same_type():
    head = HEAD + 'param rounds = 3\n'
    found = diagnostics_of('option fast "fast" { rounds = red  speed = 2 }\n', head=head)
    assert [(code, line) for code, line, _ in found] == [("E303", 1), ("E202", 1)]
    assert "sets 'rounds' to 'Colour'" in found[0][2]
    assert "'speed', which is not a param" in found[1][2]


def test_continents_normal_option(tmp_path):
    path = str(ROOT / "games" / "continents.rules")
    game, diagnostics, _ = load_game(path, options=["normal"])
    assert diagnostics == [] and game.options == frozenset({"normal"})
    plain, _, _ = load_game(path)
    assert plain.params == game.params          # 'normal' changes the flow, not the params
    assert plain.params["places"] == 8 and plain.params["hand_size"] == 5


# ---- several errors at once, and other kinds ------------------------------------------------------

def test_all_errors_are_reported_at_once_in_file_order_of_checks():
    found = diagnostics_of('''fn f(): int = nope
proc p() { total = true }
action a "a" { total += red }
''')
    assert [code for code, _, _ in found] == ["E202", "E303", "E302"]
    assert [line for _, line, _ in found] == [1, 2, 3]


def test_enum_member_names_must_be_unique():
    found = diagnostics_of("enum Suit { red, spades }\n")
    assert [code for code, _, _ in found] == ["E201"]
    assert "member of both" in found[0][2]


def test_zone_of_something_that_is_not_a_component():
    only("zone z: pile of Colour\n", "E206", 1, "not a component type")


def test_a_board_cell_is_found_by_numbers():
    head = HEAD + "board Cell: grid 3 by 3\n"
    clean("fn corner(n: int): Cell? = Cell(n, 3 - n)\n", head=head)
    only("fn corner(): Cell? = Cell(players, 1)\n", "E303", 1,
         "a cell of Cell is found by its row and column numbers, not a list of Player", head=head)
    only("fn corner(): Cell? = Cell(1)\n", "E208", 1, "'Cell' takes 2 argument(s), not 1", head=head)


def test_library_functions_check_their_arguments():
    head = HEAD + "board Cell: grid 3 by 3\n"
    clean("fn n(): int = size(deck) + size(players) + size([1, 2])\n", head=head)
    only("fn n(): int = size(9)\n", "E306", 1, "size takes a list or a zone here, not a number", head=head)
    only("fn line(): bool = has_line(filter(c in Cell where c.row == 1), none)\n", "E303", 1,
         "has_line takes a number here, not none", head=head)


def test_a_hexmap_legend_gives_constants_of_one_type_per_attribute():
    head = HEAD + 'board Hex: hexmap """\n a b\n""" {\n  "a": { colour: red }\n  "b": { colour: %s }\n}\n'
    clean("", head=head % "blue")
    found = diagnostics_of("", head=head % "3")
    assert [(code, m) for code, _, m in found] == [("E303", "'colour' is 'Colour' in another legend entry, not a number")]
    found = diagnostics_of("", head=head % "Hex")
    assert [(code, m) for code, _, m in found] == [
        ("E303", "a legend gives cells numbers, text, true/false or enum members, not a list of Hex")]


def test_a_mistake_in_a_legend_is_reported_once():
    head = HEAD + 'board Hex: hexmap """\n a b\n""" {\n  "a": { colour: rde }\n  "b": { colour: blue }\n}\n'
    found = diagnostics_of('''fn f(h: Hex): bool = h.colour == red
fn g(h: Hex): bool = h.colour == blue
''', head=head)
    assert [(code, m) for code, _, m in found] == [("E202", "unknown name 'rde'")]


def test_the_elements_of_a_list_that_may_be_none_are_its_elements():
    """pick of lists is a list or none: a loop over it binds numbers (it bound 'int]')."""
    clean('var rows: list of int = []\naction sum_up "sum up" { for i in pick([rows, rows]) { total += i } }')
    only('var rows: list of int = []\naction sum_up "sum up" { for i in pick([rows]) { total += i.value } }',
         "E305", 2, "a number has no attributes")


def test_none_is_refused_where_a_type_has_no_question_mark():
    only('var best: Card = none', "E303", 1, "'best' holds 'Card', not none")
    clean('var best: Card? = none')
    only('var leader: Player', "E303", 1, "'leader' holds 'Player', never none, but has no starting value")
    clean('var leader: Player?\nvar round: int\nvar done: bool')


def test_a_message_names_a_type_as_a_rules_file_writes_it():
    only('var rows: list of list of int = []\naction sum_up "sum up" { total = rows }', "E303", 2,
         "'total' holds a number, not a list of list of int")


def test_a_list_of_mixed_items_is_named_a_list():
    [(code, line, message)] = diagnostics_of('action show "show" { reveal deck to [current, red] }')
    assert (code, line) == ("E303", 1) and message.endswith("a list of players, not a list")


def test_a_local_of_an_unknown_value_gives_one_error_not_two():
    only('action take "take" { let c = top(nowhere) c.value = 1 }', "E202", 1, "unknown name 'nowhere'")


def test_an_item_of_a_list_of_optional_values_is_optional_once():
    """[c, c] of a Card? is a list of Card?: its items (and its top) are Card?, which move
    (the checker said "only components move, but this is 'Card??'")."""
    clean('action take "take" { let c = top(deck) let cs = [c, c] move cs[1] to deck move top(cs) to deck }')


def test_a_value_of_unknown_type_stays_unknown_when_it_may_be_none():
    """The first of an unknown list is unknown, not 'any?': one error, not a second one about
    'a list of any?'."""
    only('fn picks(): list of Card = map(c in deck: first(x in nowhere()))', "E204", 1, "unknown function 'nowhere'")


def test_a_list_of_zones_is_named_as_a_rules_file_would():
    only('setup { create 1 Card { colour: red, value: 1 } in [deck] }', "E304", 1,
         "where to create must be a zone, but this is a list of zone of Card")
