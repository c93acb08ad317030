"""One scenario test per numbered rule of backgammon (docs/games/backgammon.md, BG-1..BG-12).

Positions are written from the mover's side, as backgammon's notation counts: the mover's
checkers run from their 24 point down to their 1 point; the opponent's point i is the
mover's point 25 - i."""
from __future__ import annotations

import random
from pathlib import Path

try:
    from scenario import Scenario, load
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario, load

RULES = Path(__file__).resolve().parents[1] / "games" / "backgammon.rules"
CHECKERS = 15


def position(mine: dict, theirs: dict, dice: tuple, bar=(0, 0), off=None, options=(), seed=0,
             params=None) -> Scenario:
    """A game at the mover's play with `dice` rolled: the mover's checkers `mine` and the
    opponent's `theirs` ({point: count}, each in its owner's numbering), bar = (mover's,
    opponent's); the checkers not placed are borne off unless `off` says otherwise."""
    sc = Scenario(load(RULES, options=options, params=params).new_initial_state(seed=seed))
    me = sc.s.current_player()
    them = 3 - me
    values = {("men", p, i): 0 for p in (1, 2) for i in range(1, 25)}
    for owner, placed, on_bar in ((me, mine, bar[0]), (them, theirs, bar[1])):
        for point, count in placed.items():
            values[("men", owner, point)] = count
        values[("bar", owner)] = on_bar
        values[("borne_off", owner)] = CHECKERS - sum(placed.values()) - on_bar
    if off is not None:
        values[("borne_off", me)], values[("borne_off", them)] = off
    values["die1"], values["die2"] = dice
    sc.set_vars(values)
    sc.run("set_uses")
    sc.set_var("plays_left", sc.call("most_playable"))
    return sc


def mover(sc: Scenario) -> int:
    return sc.s.current_player()


def test_BG01_the_starting_position():
    sc = Scenario.new(RULES, seed=0)
    for p in (1, 2):
        placed = {i: sc.var(("men", p, i)) for i in range(1, 25) if sc.var(("men", p, i))}
        assert placed == {24: 2, 13: 5, 8: 3, 6: 5}
        assert sc.var(("bar", p)) == 0 and sc.var(("borne_off", p)) == 0
    # each side's 24 point is the other's 1 point: P2's back checkers stand on P1's 1 point
    assert sc.var(("men", 1, 1)) == 0 and sc.var(("men", 2, 24)) == 2


def test_BG02_the_higher_opening_die_starts_and_plays_both_numbers():
    starters = set()
    for seed in range(40):
        sc = Scenario.new(RULES, seed=seed)
        high, low = sc.var("die1"), sc.var("die2")
        assert high != low, "an opening roll is never a double"
        assert mover(sc) == (1 if high > low else 2)
        starters.add(mover(sc))
        # the opening turn plays those two numbers: no roll of its own, no double offered
        assert sc.var("plays_left") == 2 and sc.var(("uses", high)) == 1 and sc.var(("uses", low)) == 1
    assert starters == {1, 2}


def test_BG03_a_double_is_played_four_times():
    sc = position({13: 2, 8: 2}, {6: 5}, (3, 3))
    me = mover(sc)
    assert sc.var("plays_left") == 4 and sc.var(("uses", 3)) == 4
    sc.play("13/10", "13/10", "10/7", "8/5")
    assert sc.var(("men", me, 7)) == 1 and sc.var(("men", me, 10)) == 1 and sc.var(("men", me, 5)) == 1
    assert mover(sc) != me, "after four plays of the double, the turn passes"
    # other dice are played once each
    sc = position({13: 2}, {6: 5}, (5, 2))
    me = mover(sc)
    sc.play("13/8", "13/11")
    assert mover(sc) != me


def test_BG04_a_checker_moves_down_to_an_open_point():
    # the opponent's 2 checkers on their 16 point block the mover's 9 point (25 - 16)
    sc = position({13: 1}, {16: 2, 12: 1}, (4, 2))
    assert sc.moves() == ["13/11"]
    sc.refuse("13/9", "not possible")
    # one opposing checker does not block: 13/11 then 11/7... no: 11 - 4 = 7, open
    sc.play("13/11")
    assert sc.moves() == ["11/7"]


def test_BG05_a_checker_on_the_bar_enters_first():
    sc = position({13: 3}, {6: 2}, (3, 6), bar=(1, 0))
    # the opponent's 6 point is the mover's 19 point: closed, so the 6 cannot enter
    assert sc.moves() == ["bar/22"]
    sc.refuse("13/10", "not possible")
    sc.play("bar/22")
    assert sc.var(("bar", mover(sc))) == 0
    assert sc.moves() == ["13/7", "22/16"]


def test_BG05_a_player_who_cannot_enter_loses_the_turn():
    # the mover's last move ends the turn; the opponent's checker on the bar faces a closed board
    closed = {i: 2 for i in range(1, 7)}
    sc = position(closed | {13: 1}, {3: 14}, (1, 2), bar=(0, 1))
    me = mover(sc)
    sc.play("13/12", "12/10")
    assert mover(sc) == me, "the opponent could not enter: the turn came back"
    assert any("cannot move" in line for line in sc.s.log)


def test_BG06_landing_on_a_blot_hits_it():
    sc = position({13: 2}, {17: 1, 6: 5}, (5, 1))
    me, them = mover(sc), 3 - mover(sc)
    # the opponent's 17 point is the mover's 8 point
    sc.play("13/8")
    assert sc.var(("men", them, 17)) == 0 and sc.var(("bar", them)) == 1
    assert sc.var(("men", me, 8)) == 1


def test_BG07_bearing_off_needs_every_checker_home():
    sc = position({7: 1, 3: 2}, {12: 2}, (6, 4))
    assert not any("off" in m for m in sc.moves())
    sc.play("7/1")
    # now every checker is home: 3/off with the 4 (higher than the point, none above it)
    assert sc.moves() == ["3/off (4)"]


def test_BG07_a_higher_die_bears_off_only_the_highest_checker():
    sc = position({5: 1, 2: 1}, {12: 2}, (6, 1))
    assert sc.moves() == ["2/1", "5/4", "5/off (6)"]
    sc.refuse("2/off (6)", "not possible")
    sc.play("5/off (6)")
    assert sc.moves() == ["2/1"]


def test_BG08_both_dice_must_be_played_when_they_can():
    # 7/2 with the 5 would leave the 6 unplayable (20/14 blocked, no bearing off): refused
    sc = position({20: 1, 7: 1}, {11: 2, 24: 2}, (6, 5))
    assert sc.var("plays_left") == 2
    reason = sc.refuse("7/2", "unplayed")
    assert "could be played" in reason
    sc.play("20/15", "15/9")
    assert sc.var(("men", 3 - mover(sc), 9)) == 1


def test_BG08_if_only_one_die_can_be_played_it_must_be_the_larger():
    # from 20, 6 then 5 or 5 then 6 both end on 9, which the opponent holds (their 16)
    sc = position({20: 1}, {16: 2}, (6, 5))
    assert sc.var("plays_left") == 1
    assert sc.moves() == ["20/14"]
    sc.refuse("20/15", "unplayed")
    # the smaller is played when the larger cannot be: block 14 (their 11) as well
    sc = position({20: 1}, {16: 2, 11: 2}, (6, 5))
    assert sc.moves() == ["20/15"]


def test_BG08_a_double_is_played_as_many_times_as_it_can_be():
    # 4-4 from 20: 16, 12, then 8 is held (their 17)
    sc = position({20: 1}, {17: 2}, (4, 4))
    me = mover(sc)
    assert sc.var("plays_left") == 2
    sc.play("20/16", "16/12")
    assert mover(sc) != me


def test_BG09_bearing_off_the_last_checker_wins():
    sc = position({2: 1}, {24: 2, 6: 13}, (2, 1))
    me = mover(sc)
    sc.play("2/off (2)")
    assert sc.s.is_terminal() and sc.s.winners == [me]


def test_BG10_a_single_game_a_gammon_and_a_backgammon():
    def finish_against(theirs, bar=0, their_off=0):
        sc = position({1: 1}, theirs, (1, 2), bar=(0, bar), off=(14, their_off))
        me = mover(sc)
        sc.play("1/off (2)")
        return sc.s.returns()[me - 1]
    assert finish_against({6: 14}, their_off=1) == 1
    assert finish_against({6: 15}) == 2
    # a checker in the winner's home board (the loser's 19..24 points) or on the bar: 3
    assert finish_against({6: 14, 20: 1}) == 3
    assert finish_against({6: 14}, bar=1) == 3


def test_BG10_the_most_a_game_counts_is_a_typed_param_as_openspiels_scoring_types():
    def finish_against(theirs, most_points, bar=0, their_off=0):
        sc = position({1: 1}, theirs, (1, 2), bar=(0, bar), off=(14, their_off), params={"most_points": most_points})
        me = mover(sc)
        sc.play("1/off (2)")
        return sc.s.returns()[me - 1], sc.s.returns()[2 - me]
    # a backgammon counts 3 with full scoring (the default), 2 with gammons only, 1 win/loss
    assert [finish_against({6: 14}, most, bar=1) for most in (3, 2, 1)] == [(3, -3), (2, -2), (1, -1)]
    assert [finish_against({6: 15}, most) for most in (3, 2, 1)] == [(2, -2), (2, -2), (1, -1)]
    assert [finish_against({6: 14}, most, their_off=1) for most in (3, 2, 1)] == [(1, -1)] * 3


def test_BG11_the_cube_is_offered_before_rolling_and_taken_or_dropped():
    sc = Scenario.new(RULES, options=["cube"], seed=0)
    first = mover(sc)
    assert "double" not in sc.moves(), "the opening roll is played without a double"
    while mover(sc) == first:
        sc.play(sc.moves()[0])
    assert sc.moves() == ["double", "roll"]
    doubler = mover(sc)
    sc.play("double")
    assert mover(sc) == 3 - doubler and sc.moves() == ["take", "drop"]
    sc.play("take")
    assert sc.var("cube_value") == 2 and sc.var("cube_owner") == 3 - doubler
    assert mover(sc) == doubler and "double" not in sc.moves(), "the doubler rolls on"
    while mover(sc) == doubler:
        sc.play(sc.moves()[0])
    # the cube's owner may redouble; a drop then loses the cube's value before the double
    assert sc.moves() == ["double", "roll"]
    sc.play("double", "drop")
    assert sc.s.is_terminal() and sc.s.winners == [3 - doubler]
    assert sc.s.returns()[2 - doubler] == 2 and sc.s.returns()[doubler - 1] == -2


def test_BG11_without_the_option_there_is_no_cube():
    sc = Scenario.new(RULES, seed=0)
    first = mover(sc)
    while mover(sc) == first:
        sc.play(sc.moves()[0])
    assert "double" not in sc.moves() and "roll" not in sc.moves()


def test_BG12_returns_are_the_points_times_the_cube():
    sc = position({1: 1}, {6: 15}, (1, 2), off=(14, 0), options=["cube"])
    me = mover(sc)
    sc.set_var("cube_value", 4)
    sc.play("1/off (2)")
    assert sc.s.returns() == ([8, -8] if me == 1 else [-8, 8])
    # random play always ends with opposite returns of 1, 2 or 3 (times the cube)
    game = load(RULES)
    rng = random.Random(5)
    for seed in range(5):
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_moves()))
        assert sorted(s.returns()) in ([-1, 1], [-2, 2], [-3, 3])


def test_BG11_only_the_owner_of_the_cube_may_redouble():
    sc = Scenario.new(RULES, options=["cube"], seed=3)
    first = mover(sc)
    while mover(sc) == first:
        sc.play(sc.moves()[0])
    doubler = mover(sc)
    sc.play("double", "take")
    while mover(sc) == doubler:
        sc.play(sc.moves()[0])
    sc.play("roll")
    while mover(sc) != doubler:
        sc.play(sc.moves()[0])
    assert sc.var("cube_owner") == 3 - doubler
    assert "double" not in sc.moves() and "roll" not in sc.moves(), "the doubler no longer holds the cube"


# ---- an independent statement of BG-4..BG-8, written from the rules text ----

def _position(state):
    """(mover's checkers by point, opponent's checkers by the mover's point, mover's bar, faces
    left) read from an engine state."""
    me, them = state.current_player(), 3 - state.current_player()
    v = state.vars
    mine = {i: v.get(("men", me, i), 0) for i in range(1, 25)}
    theirs = {i: v.get(("men", them, 25 - i), 0) for i in range(1, 25)}
    faces = tuple(f for f in range(1, 7) for _ in range(v.get(("uses", f), 0)))
    return mine, theirs, v.get(("bar", me), 0), faces


def _steps(mine, theirs, bar, die):
    """Every (name, next position) of one checker moved by one die."""
    if bar:
        target = 25 - die
        return [(f"bar/{target}", _moved(mine, theirs, bar, 25, target))] if theirs[target] < 2 else []
    found = []
    home = all(mine[i] == 0 for i in range(7, 25))
    for point in range(1, 25):
        if not mine[point]:
            continue
        target = point - die
        if target >= 1 and theirs[target] < 2:
            found.append((f"{point}/{target}", _moved(mine, theirs, bar, point, target)))
        elif target < 1 and home and (target == 0 or all(mine[i] == 0 for i in range(point + 1, 7))):
            found.append((f"{point}/off ({die})", _moved(mine, theirs, bar, point, 0)))
    return found


def _moved(mine, theirs, bar, point, target):
    mine, theirs = dict(mine), dict(theirs)
    if point == 25:
        bar -= 1
    else:
        mine[point] -= 1
    if target >= 1:
        mine[target] += 1
        if theirs[target] == 1:
            theirs[target] = 0  # hit: where the blot goes does not matter to the mover
    return mine, theirs, bar


def _most(mine, theirs, bar, faces):
    best = 0
    for die in set(faces):
        rest = list(faces)
        rest.remove(die)
        for _, after in _steps(mine, theirs, bar, die):
            best = max(best, 1 + _most(*after, tuple(rest)))
            if best == len(faces):
                return best
    return best


def _legal(mine, theirs, bar, faces):
    most = _most(mine, theirs, bar, faces)
    names = set()
    for die in set(faces):
        rest = list(faces)
        rest.remove(die)
        for name, after in _steps(mine, theirs, bar, die):
            if 1 + _most(*after, tuple(rest)) == most:
                names.add((name, die))
    if most == 1 and len(set(faces)) == 2 and any(d == max(faces) for _, d in names):
        names = {(n, d) for n, d in names if d == max(faces)}
    return {n for n, _ in names}


def test_BG08_legal_steps_agree_with_an_independent_statement_of_the_rules():
    game = load(RULES)
    rng = random.Random(11)
    compared = 0
    for seed in range(12):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            assert set(state.legal_move_names()) == _legal(*_position(state)), state.history[-4:]
            compared += 1
            state.apply(rng.choice(state.legal_moves()))
    assert compared > 1000
