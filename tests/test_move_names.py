"""A move's name is how a player tells it from the others: two moves that differ never share one.
Labels that cannot tell moves apart are refused by the checker (tests/bad/label_merges_moves.rules);
those that can only be told at play time (components whose labels hide what makes them differ)
stop the game with a located error, and `verify` reports them."""
import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import IllegalMove, SameNamedMoves
from referee.interpreter.tools.verify import verify

HAND = """
game "Hands" {{ players 2 }}
component Card {{ rank: int, secret: int }} label "{{rank}}"
zone hand[Player]: row of Card owner
zone pile: set of Card public
setup {{
  create 1 Card {{ rank: 1, secret: 1 }} in hand[1]
  create 1 Card {{ rank: 1, secret: {second} }} in hand[1]
  create 1 Card {{ rank: 2, secret: 1 }} in hand[1]
  for p in [2] {{ create 3 Card {{ rank: 3, secret: 0 }} in hand[p] }}
}}
{action}
flow {{ turns from 1 {{ play discard }} }}
"""

SHOWN = 'action discard(c in hand[current]) "discard {c}" { move c to pile }'
UNSHOWN = 'action discard(c in hand[current] where c.rank == 1) "discard a one" { move c to pile }'
CHOSEN = '''action discard "discard" {
  choose c in hand[current] "which card?" { move c to pile }
}'''


def load(tmp_path, action, second):
    path = tmp_path / "hands.rules"
    path.write_text(HAND.format(action=action, second=second))
    game, diagnostics, _ = load_game(str(path))
    assert not diagnostics, diagnostics
    return game


@pytest.mark.parametrize("action", [SHOWN, UNSHOWN])
def test_identical_components_make_one_move(tmp_path, action):
    state = load(tmp_path, action, second=1).new_initial_state(0)
    names = state.legal_move_names()
    assert len(names) == len(set(names))
    assert names == (["discard 1", "discard 2"] if action is SHOWN else ["discard a one"])


@pytest.mark.parametrize("action", [SHOWN, UNSHOWN])
def test_different_components_with_one_name_are_an_error(tmp_path, action):
    game = load(tmp_path, action, second=2)
    with pytest.raises(SameNamedMoves) as error:
        game.new_initial_state(0)        # the first turn lists the moves
    message = str(error.value)
    assert "hands.rules:12:1:" in message and "two different moves have the same name" in message
    assert "discard(c=1 {rank: 1, secret: 1}) and discard(c=1 {rank: 1, secret: 2})" in message


def test_a_choice_between_different_options_with_one_name_is_an_error(tmp_path):
    game = load(tmp_path, CHOSEN, second=2)
    state = game.new_initial_state(0)
    with pytest.raises(SameNamedMoves) as error:
        state.apply("discard")
    assert "two different options of this choice have the same name '1'" in str(error.value)
    assert state.history == []                       # the refused move changed nothing
    same = load(tmp_path, CHOSEN, second=1).new_initial_state(0)
    same.apply("discard")
    assert same.legal_move_names() == ["1", "2"]     # identical cards: one option


def test_verify_reports_moves_merged_by_name_with_the_moves_that_lead_there(tmp_path):
    report = verify(load(tmp_path, SHOWN, second=2), games=3)
    assert report.failures and {f.kind for f in report.failures} == {"duplicate-moves"}
    assert report.failures[0].moves == []               # the first position already shows it


# ---- labels that compute from the arguments: {expression} ------------------------------------

COMPUTED = """
game "Labels" {
  players 2
}
board Cell: grid 3 by 3
component Chip { value: int owner } label "chip"
zone tray[Player]: row of Chip owner
var mark[Cell]: Player? = none
setup {
  for p in players { create 1 Chip { value: 7, owner: p } in tray[p] }
}
action slide(a in Cell, b in Cell where mark[a] == none and mark[b] == none and a.row == b.row and b.col == a.col + 1)
  "{a}-{b} ({b.col - a.col} right, row {a.row})" {
  mark[a] = current
}
action double(n in 1..3 where mark[Cell(n, n)] == none) "double {n * 2}" {
  mark[Cell(n, n)] = current
}
action show(c in tray[current]) "show chip worth {c.value + 0}" {
  mark[Cell(1, 1)] = current
}
flow {
  turns from 1 until count(c in Cell where mark[c] == none) < 4 {
    play slide, double, show
  }
}
"""


def test_a_label_shows_values_computed_from_its_arguments(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(COMPUTED)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    names = state.legal_move_names()
    assert names[:2] == ["a1-b1 (1 right, row 1)", "b1-c1 (1 right, row 1)"]
    assert names[-4:] == ["double 2", "double 4", "double 6", "show chip worth 7"]
    state.apply("Double 4")                 # typed by its name, as any move
    assert "double 4" not in state.legal_move_names() and state.history == ["double 4"]
    # the others see the move with what they may not see masked: the chip's value is the owner's
    state.apply("show chip worth 7")
    assert state.public_history[-1] == (2, "show chip worth ?")
    assert state.view(1)["moves"][-1] == "P2: show chip worth ?" and state.view(2)["moves"][-1] == "P2: show chip worth 7"


def test_a_computed_label_that_gives_two_moves_one_name_stops_the_game(write_rules):
    text = COMPUTED.replace('"double {n * 2}"', '"double {n // 2 * 0}"')
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert diagnostics == []
    with pytest.raises(SameNamedMoves, match="double 0"):
        game.new_initial_state(0).legal_moves()


@pytest.mark.parametrize("label, read", [
    ('"double {n + size(tray[current])}"', "'tray'"),
    ('"double {n} {current == 1}"', "'current'"),
    ('"double {twice(n)}"', "'twice(...)'"),
    ('"double {n} {n + Chip.value}"', "'Chip'"),
])
def test_a_label_may_not_read_the_state(write_rules, label, read):
    text = COMPUTED.replace('"double {n * 2}"', label) + "fn twice(k: int): int = 2 * k\n"
    _, diagnostics, _ = load_game(str(write_rules(text)))
    assert [d.code for d in diagnostics] == ["E413"] and read in diagnostics[0].message, diagnostics


def test_a_label_may_not_read_an_attribute_that_statements_change(write_rules):
    text = COMPUTED.replace('"show chip worth {c.value + 0}" {', '"show chip worth {c.value + 0}" {\n  c.value = 3')
    _, diagnostics, _ = load_game(str(write_rules(text)))
    assert [d.code for d in diagnostics] == ["E413"] and "which statements change" in diagnostics[0].message


# ---- why a move is refused ---------------------------------------------------------------------

def test_a_refused_move_is_told_by_the_binder_reason_or_in_words(write_rules):
    text = ('game "Reasons" { players 2 }\nboard Cell: grid 2 by 2\nvar mark[Cell]: Player? = none\n'
            'action put(c in Cell where mark[c] == none else "that cell is taken") "{c}" { mark[c] = current }\n'
            'action fill(r in 1..2, k in 1..2 where k >= r and mark[Cell(r, k)] == none) "fill {r} {k}" {\n'
            '  mark[Cell(r, k)] = current\n}\n'
            'flow { turns from 1 until count(c in Cell where mark[c] == none) == 0 { play put, fill } }\n')
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    state.apply("a1")
    with pytest.raises(IllegalMove, match="'a1' is not possible now: that cell is taken$"):
        state.apply("a1")
    # without a reason: the filter in words, with the move's own values
    with pytest.raises(IllegalMove) as refused:
        state.apply("fill 2 1")
    assert str(refused.value) == "'fill 2 1' is not possible now (by the rules, 1 must be at least 2 and mark[Cell(2, 1)] must be none)"


REASONS = """
game "Reasons" { players 2 }
board Cell: grid 2 by 2
var mark[Cell]: Player? = none
var gold[Player]: int = 1
action put(c in Cell where mark[c] == none else "{c} is taken by {mark[c]}") "{c}" {
  require gold[current] >= 2 else "you have {gold[current]} gold, {2 - gold[current]} short"
  mark[c] = current
}
action earn "earn" { gold[current] += 1 }
flow { turns from 1 until count(c in Cell where mark[c] == none) == 0 { play put, earn } }
"""


def test_a_reason_shows_values_of_the_moment(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(REASONS)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    with pytest.raises(IllegalMove, match="^'a1' is not possible now: you have 1 gold, 1 short$"):
        state.apply("a1")
    for name in ("earn", "earn", "a1", "earn"):
        state.apply(name)
    with pytest.raises(IllegalMove, match="^'a1' is not possible now: a1 is taken by P1$"):
        state.apply("a1")


def test_a_reason_placeholder_must_be_an_expression(write_rules):
    _, diagnostics, _ = load_game(str(write_rules(REASONS.replace("{2 - gold[current]} short", "{2 gold} short"))))
    assert [d.code for d in diagnostics] == ["E411"] and "in the reason of a refusal" in diagnostics[0].message


LOGGED = """
game "Logged" { players 2 }
component Chip { value: int owner, colour: text } label "{colour} chip"
zone pile: stack of Chip public
zone hand[Player]: set of Chip public
var gold[Player]: int = 1
setup {
  create 1 Chip { value: 3, colour: "red" } in pile
  create 1 Chip { value: 5, colour: "blue" } in pile
}
action take(x in pile) "take {x}" {
  move x to hand[current]
  gold[current] += x.value
  log "{current} takes {x} ({x.colour}, worth {x.value}) and holds {size(hand[current])}, gold {gold[current] * 10}"
}
flow { turns from 1 until size(pile) == 0 { play take } }
"""


def test_a_log_line_shows_expressions_publicly(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(LOGGED)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    state.apply("take blue chip")
    # the log is public: an owner-only attribute reads '?', the others their values
    assert state.log[-1] == "P1 takes blue chip (blue, worth ?) and holds 1, gold 60"
    state.apply("take red chip")
    assert state.log[-1] == "P2 takes red chip (red, worth ?) and holds 1, gold 40"


def test_a_log_line_shows_seats_lists_of_seats_enums_and_none(write_rules):
    """Seats and enum members are written inline (no labeler call): the same texts."""
    game, diagnostics, _ = load_game(str(write_rules("""
game "Seats" { players 3 }
enum Colour { red, blue }
var shade: Colour? = none
var last: Player? = none
var order: list of Player = []
var rounds: int = 0
action go "go" {
  log "{current} goes after {last}; shade {shade}; order {order}; {[current, next(current)]}"
  last = current
  shade = rounds == 0 ? red : blue
  order = [current, 1]
  rounds += 1
  log "the same words every time"
}
flow { turns from 1 until rounds >= 3 { play go } }
""")))
    assert diagnostics == []
    state = game.new_initial_state(0)
    for _ in range(3):
        state.apply("go")
    assert state.log == ["P1 goes after none; shade none; order; P1, P2", "the same words every time",
                         "P2 goes after P1; shade red; order P1, P1; P2, P3", "the same words every time",
                         "P3 goes after P2; shade blue; order P2, P1; P3, P1", "the same words every time"]
    module = game.compiler.module_source()
    assert "_seat_text" in module and "STEP[1] -= 25" in module     # (a constant line's length is known)


def test_a_log_placeholder_must_be_an_expression_of_known_names(write_rules):
    _, diagnostics, _ = load_game(str(write_rules(LOGGED.replace("{size(hand[current])}", "{size hand}"))))
    assert [d.code for d in diagnostics] == ["E411"] and "in a log line" in diagnostics[0].message
    _, diagnostics, _ = load_game(str(write_rules(LOGGED.replace("{size(hand[current])}", "{nosuch}"))))
    assert diagnostics and "nosuch" in diagnostics[0].message


OUTSIDE = """
game "Outside" { players 2 }
board Cell: grid 3 by 3
var mark[Cell]: Player? = none
var gold[Player]: int = 2
fn middle_row(): list of Cell = filter(c in Cell where c.row == 2)
action put(c in middle_row() else "{c} is not in the middle row" where mark[c] == none else "{c} is taken") "{c}" {
  mark[c] = current
}
action bid(n in 1..gold[current] else "you have {gold[current]} gold, not {n}") "bid {n}" { gold[current] -= n }
flow { turns from 1 until count(c in middle_row() where mark[c] == none) == 0 { play put, bid } }
"""


def test_a_value_outside_a_binders_domain_is_refused_with_its_reason(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(OUTSIDE)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    assert sorted(state.legal_move_names()) == ["a2", "b2", "bid 1", "bid 2", "c2"]     # the domain still decides
    with pytest.raises(IllegalMove, match="^'a1' is not possible now: a1 is not in the middle row$"):
        state.apply("a1")
    with pytest.raises(IllegalMove, match="^'bid 25' is not possible now: you have 2 gold, not 25$"):
        state.apply("bid 25")
    state.apply("b2")
    with pytest.raises(IllegalMove, match="^'b2' is not possible now: b2 is taken$"):
        state.apply("b2")
    assert state.history == ["b2"]


@pytest.mark.parametrize("before, after, where", [
    ("count(c in middle_row() where", 'count(c in middle_row() else "no" where', "domain"),
    ("fn middle_row(): list of Cell = filter(c in Cell where c.row == 2)",
     'fn middle_row(): list of Cell = filter(c in Cell else "no" where c.row == 2)', "domain"),
])
def test_a_domain_reason_is_only_for_an_actions_binders(write_rules, before, after, where):
    _, diagnostics, _ = load_game(str(write_rules(OUTSIDE.replace(before, after))))
    assert [d.code for d in diagnostics] == ["E414"] and f"after the {where} of 'c'" in diagnostics[0].message


def test_a_domain_reason_needs_values_a_player_can_type(write_rules):
    text = OUTSIDE.replace('action bid(n in 1..gold[current] else "you have {gold[current]} gold, not {n}") "bid {n}" { gold[current] -= n }',
                           'action bid(r in [middle_row()] else "no") "bid {r}" { gold[current] -= 1 }')
    _, diagnostics, _ = load_game(str(write_rules(text)))
    assert [d.code for d in diagnostics] == ["E414"] and "cannot be typed" in diagnostics[0].message


@pytest.mark.slow
def test_a_log_line_of_many_placeholders_compiles(write_rules):
    many = LOGGED.replace('log "{current} takes {x}', 'log "' + "{x.colour}," * 3000 + ' {current} takes {x}')
    game, diagnostics, _ = load_game(str(write_rules(many)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    state.apply("take blue chip")
    assert state.log[-1].startswith("blue," * 3000 + " P1 takes blue chip")


@pytest.mark.slow
def test_a_template_of_many_placeholders_compiles(write_rules):
    many = LOGGED.replace('action take(x in pile) "take {x}"', 'action take(x in pile) "take ' + "{x}," * 3000 + '"')
    game, diagnostics, _ = load_game(str(write_rules(many)))
    assert diagnostics == []
    assert sorted(game.new_initial_state(0).legal_move_names()) == ["take " + "blue chip," * 3000, "take " + "red chip," * 3000]


LINKED = """
game "Pins" { players 2 }
board Square: grid 2 by 2
component Flag { colour: int } label "flag {colour}"
component Pin { at: Square, by: Player, under: Flag?, spare: Square? } label "pin {at} of {by} on {under}{spare}"
zone flags: row of Flag public
zone box: row of Pin public
setup {
  create 1 Flag { colour: 3 } in flags
  create 1 Pin { at: Square(1, 2), by: 2, under: top(flags), spare: none } in box
}
action take(x in box) "take {x}" {
  x.at = Square(2, 1)
}
flow { turns from 1 until false { play take } }
"""


def test_an_attribute_that_holds_a_cell_a_player_or_a_component_shows_its_label(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(LINKED)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    assert state.legal_move_names() == ["take pin b1 of P2 on flag 3"]     # not the cell's number
    state.apply("take pin b1 of P2 on flag 3")
    assert state.legal_move_names() == ["take pin a2 of P2 on flag 3"]     # a changed attribute too


TWINS = """
game "Twins" {{ players 2 }}
component Chip {{ colour: int }} label "chip {{colour}}"
zone heap: row of Chip public
zone won[Player]: row of Chip public
var marked: Chip? = none
setup {{
  create 3 Chip {{ colour: 1 }} in heap
  marked = top(heap)
  create 1 Chip {{ colour: 2 }} in heap
}}
{action}
flow {{ turns from 1 until size(heap) == 0 {{ play take }} }}
"""


@pytest.mark.parametrize("action", [
    'action take(x in heap where x == top(heap) or x == marked) "take {x}" { move x to won[current] }',
    'action take(x in heap) "take {x}" {\n  require x == top(heap) or x == marked\n  move x to won[current]\n}',
    'fn kept(x: Chip): bool = x == marked\naction take(x in heap where kept(x) or x.colour == 2) "take {x}" { }'])
def test_a_twin_that_passes_the_filter_or_the_guard_is_listed_when_an_earlier_twin_fails_it(write_rules, action):
    # the first two chips 1 fail the test, the third (marked) passes it: its move is listed
    game, diagnostics, _ = load_game(str(write_rules(TWINS.format(action=action))))
    assert game is not None, diagnostics
    assert game.new_initial_state(0).legal_move_names() == ["take chip 1", "take chip 2"]
