"""Lockstep playthroughs of a rules file (through the OpenSpiel adapter) against OpenSpiel's own
implementation of the same game: at every step the same player to move, the same legal moves
(through a name mapping per game), the same chance outcomes with the same probabilities, and at
the end the same returns. Used by tests/test_openspiel.py (a few games) and
benchmarks/openspiel.py (thousands of steps). docs/openspiel.md has the results.

Chance is matched in order of occurrence, not of time: a rules file may shuffle a whole deck in
its setup where OpenSpiel deals card by card later (Goofspiel's prizes), so an outcome drawn on
one side waits in a queue, with the distribution it was drawn from, until the other side
reaches its next chance node, which must offer the same outcomes with the same probabilities.
A chance node with a single outcome (OpenSpiel deals Goofspiel's last prize; the rules' shuffle
leaves the last card where it is) is played without comparing.

Where one side plays in one move what the other plays in several, a game's own Lockstep
subclass maps the sequence (Hearts: OpenSpiel passes three cards one action at a time, the
rules pass them as one sealed move; Backgammon: OpenSpiel moves two checkers per action and
rolls both dice at once, the rules move one checker per die and roll each die; Checkers:
OpenSpiel plays each jump of a multi-jump as an action, the adapter plays the rules' one move
over a path as its first id and one id per square landed on). Where the
rules differ, the mapping names the rules' options and params that select OpenSpiel's rules,
or OpenSpiel's parameters that select the rules' (NativeMapping).
"""
import itertools
import random
import re
from pathlib import Path
from typing import Callable, NamedTuple, Optional

import pyspiel

from referee.interpreter.adapters.openspiel_game import load_openspiel_game

GAMES = Path(__file__).resolve().parent.parent / "games"
RANKS = ("jack", "queen", "king")


def cell_of(text):
    """OpenSpiel's tic-tac-toe `x(row,col)` as the rules' cell: column letter, row from 1."""
    row, col = re.fullmatch(r"[xo]\((\d),(\d)\)", text).groups()
    return "abc"[int(col)] + str(int(row) + 1)


CARD_FACES = dict(zip("23456789TJQKA", ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                          "jack", "queen", "king", "ace")))
CARD_SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
# OpenSpiel's hearts draws the pass direction; the rules' option `openspiel` draws which hand
# of the passes' cycle (left, right, across, none) is played
HEARTS_PASS_DIRECTIONS = {"Left": "1", "Right": "2", "Across": "3", "No Pass": "4"}


def card_name(text):
    """OpenSpiel's card `QS` as the rules' label `queen of spades`."""
    return f"{CARD_FACES[text[0]]} of {CARD_SUITS[text[1]]}"


def hearts_chance_name(text):
    return HEARTS_PASS_DIRECTIONS.get(text) or card_name(text)


class NativeMapping(NamedTuple):
    rules_file: str
    action_name: Callable          # native action string -> rules move name
    chance_name: Optional[Callable]  # native chance outcome string -> rules outcome name
    declared: bool                 # whether the rules declare OpenSpiel's returns
    options: tuple = ()            # the rules' options that select OpenSpiel's rules
    lockstep: Optional[type] = None  # a Lockstep subclass for moves that one side splits
    native_params: Optional[dict] = None  # the native game's parameters, if not its defaults
    rules_params: Optional[dict] = None   # the rules' typed params that select OpenSpiel's rules


# the rules score gammons and backgammons (OpenSpiel's full scoring) and set no limit of turns
# (OpenSpiel's 2.x ends a game after 500 turns; older releases have no such parameter)
BACKGAMMON_NATIVE_PARAMS = {"scoring_type": "full_scoring", "max_player_turns": 1_000_000}


def native_name_mappings():
    """Native game -> its NativeMapping."""
    same = lambda text: text  # noqa: E731 (names that are already OpenSpiel's)
    return {
        "tic_tac_toe": NativeMapping("tic-tac-toe.rules", cell_of, None, False),
        "connect_four": NativeMapping("connect-four.rules", lambda t: str(int(t[1:]) + 1), None, False),
        "kuhn_poker": NativeMapping("kuhn-poker.rules", str.lower, lambda t: RANKS[int(t.split(":")[1])], True),
        # card k: rank k // 2 (suits never count in Leduc; which suit is which is a choice)
        "leduc_poker": NativeMapping(
            "leduc-poker.rules", same,
            lambda t: f"{RANKS[int(t.split(':')[1]) // 2]} of {('spades', 'hearts')[int(t.split(':')[1]) % 2]}", True),
        "goofspiel": NativeMapping("goofspiel.rules", lambda t: "bid " + t.split(": ")[1], lambda t: t.split(" ")[1], True),
        "liars_dice": NativeMapping("liars-dice.rules", same, lambda t: t.split(" ")[1], True),
        "othello": NativeMapping("othello.rules", same, None, True),
        "hearts": NativeMapping("hearts.rules", card_name, hearts_chance_name, True, ("openspiel",),
                                PassesOneCardAtATime),
        # moves and rolls are compared by the positions they lead to (CheckersByPosition)
        "backgammon": NativeMapping("backgammon.rules", None, None, True, (), CheckersByPosition,
                                    BACKGAMMON_NATIVE_PARAMS),
        # whole moves are compared as the sequences of OpenSpiel's actions (JumpsOneAtATime)
        "checkers": NativeMapping("checkers.rules", None, None, True, (), JumpsOneAtATime),
    }


def load_rules_game(native_name, mapping=None):
    """The rules file of a native game through the adapter, with the options and params that
    select OpenSpiel's rules."""
    mapping = mapping or native_name_mappings()[native_name]
    return load_openspiel_game(GAMES / mapping.rules_file, options=mapping.options, params=mapping.rules_params)


def load_native_game(native_name, mapping=None):
    """OpenSpiel's own game, with the mapping's parameters that this release of OpenSpiel has."""
    mapping = mapping or native_name_mappings()[native_name]
    known = pyspiel.load_game(native_name).get_parameters()
    return pyspiel.load_game(native_name, {k: v for k, v in (mapping.native_params or {}).items() if k in known})


class Mismatch(AssertionError):
    pass


class Lockstep:
    """One random playthrough of a native game and its rules file side by side."""

    def __init__(self, native_name, seed, rules_game=None, mapping=None):
        mapping = mapping or native_name_mappings()[native_name]
        self.action_name, self.chance_name, self.declared = mapping.action_name, mapping.chance_name, mapping.declared
        self.native_game = load_native_game(native_name, mapping)
        self.rules_game = rules_game or load_rules_game(native_name, mapping)
        self.native = self.native_game.new_initial_state()
        self.rules = self.rules_game.new_initial_state()
        self.rng = random.Random(seed)
        self.queue = []          # (side that drew, outcome name, {name: probability})
        self.steps = 0

    # ---- chance ----
    def native_outcomes(self):
        return {self.chance_name(self.native.action_to_string(pyspiel.PlayerId.CHANCE, a)): (a, p)
                for a, p in self.native.chance_outcomes()}

    def rules_outcomes(self):
        return {self.rules.action_to_string(pyspiel.PlayerId.CHANCE, a): (a, p)
                for a, p in self.rules.chance_outcomes()}

    def chance_step(self, side, state, outcomes):
        if len(outcomes) == 1:
            state.apply_action(next(iter(outcomes.values()))[0])
            return
        if self.queue and self.queue[0][0] != side:
            _, name, drawn_from = self.queue.pop(0)
            here = {n: p for n, (_, p) in outcomes.items()}
            if set(here) != set(drawn_from) or any(abs(here[n] - drawn_from[n]) > 1e-9 for n in here):
                raise Mismatch(f"step {self.steps}: chance outcomes differ: native/rules {drawn_from} vs {here}")
            state.apply_action(outcomes[name][0])
            return
        names = sorted(outcomes)
        name = self.rng.choices(names, weights=[outcomes[n][1] for n in names])[0]
        self.queue.append((side, name, {n: p for n, (_, p) in outcomes.items()}))
        state.apply_action(outcomes[name][0])

    # ---- players ----
    def native_moves(self, player):
        return {self.action_name(self.native.action_to_string(player, a)): a for a in self.native.legal_actions(player)}

    def rules_moves(self, player):
        return {self.rules.action_to_string(player, a): a for a in self.rules.legal_actions(player)}

    def compare_moves(self, player):
        native, rules = self.native_moves(player), self.rules_moves(player)
        if set(native) != set(rules):
            raise Mismatch(f"step {self.steps}: player {player}'s legal moves differ: native {sorted(native)}, "
                           f"rules {sorted(rules)}")
        return native, rules

    def step(self):
        native, rules = self.native, self.rules
        if rules.is_chance_node():
            self.chance_step("rules", rules, self.rules_outcomes())
            return
        if native.is_chance_node():
            self.chance_step("native", native, self.native_outcomes())
            return
        self.steps += 1
        if native.current_player() != rules.current_player():
            raise Mismatch(f"step {self.steps}: native player {native.current_player()}, rules "
                           f"{rules.current_player()}")
        if native.is_simultaneous_node():
            joint_native, joint_rules = [], []
            for player in range(self.native_game.num_players()):
                native_moves, rules_moves = self.compare_moves(player)
                name = self.rng.choice(sorted(native_moves))
                joint_native.append(native_moves[name])
                joint_rules.append(rules_moves[name])
            native.apply_actions(joint_native)
            rules.apply_actions(joint_rules)
            return
        native_moves, rules_moves = self.compare_moves(native.current_player())
        name = self.rng.choice(sorted(native_moves))
        native.apply_action(native_moves[name])
        rules.apply_action(rules_moves[name])

    def compare_returns(self):
        native, rules = self.native.returns(), self.rules.returns()
        if self.declared:
            same = all(abs(a - b) < 1e-9 for a, b in zip(native, rules))
        else:
            # without declared returns a winner gets 1 and the others 0; OpenSpiel pays +1/-1 (0/0 a draw)
            same = [a > 0 for a in native] == [b > 0 for b in rules] and (any(a > 0 for a in native) or
                                                                           all(b == 0 for b in rules))
        if not same:
            raise Mismatch(f"returns differ: native {native}, rules {rules}")

    def play(self, max_steps=10_000) -> int:
        """Play to the end (both sides end together); the number of player steps."""
        while not (self.native.is_terminal() and self.rules.is_terminal()):
            if self.native.is_terminal() != self.rules.is_terminal():
                raise Mismatch(f"step {self.steps}: only the {'native' if self.native.is_terminal() else 'rules'} "
                               f"game has ended")
            if self.steps >= max_steps:
                break
            self.step()
        else:
            self.compare_returns()
        return self.steps


class PassesOneCardAtATime(Lockstep):
    """Hearts: OpenSpiel passes three cards as three actions, seat after seat (each seat's
    passes hidden from the others); the rules pass them as one sealed move of a simultaneous
    step (`pass A, B, C`). At the rules' simultaneous node, each seat's rules moves must be
    exactly the sets of three of the cards OpenSpiel lets it pass; the seat's move, drawn among
    them, is played on the native side card by card, in a random order (OpenSpiel takes any),
    each card checked legal there; every native action counts as a step."""

    def step(self):
        if not self.rules.is_simultaneous_node() or self.native.is_chance_node():
            return super().step()
        joint_rules = []
        for player in range(self.native_game.num_players()):
            passes = {frozenset(name.removeprefix("pass ").split(", ")): action
                      for name, action in self.rules_moves(player).items()}
            first_cards = self.native_moves(player) if self.native.current_player() == player else {}
            if set(passes) != {frozenset(three) for three in itertools.combinations(first_cards, 3)}:
                raise Mismatch(f"step {self.steps}: player {player}'s passes differ: native cards "
                               f"{sorted(first_cards)}, rules {len(passes)} passes")
            cards = sorted(self.rng.choice(sorted(passes, key=sorted)))
            joint_rules.append(passes[frozenset(cards)])
            for card in self.rng.sample(cards, len(cards)):
                self.steps += 1
                native_moves = self.native_moves(player) if self.native.current_player() == player else {}
                if card not in native_moves:
                    raise Mismatch(f"step {self.steps}: native player {self.native.current_player()} may not pass "
                                   f"{card} for player {player}")
                self.native.apply_action(native_moves[card])
        self.rules.apply_actions(joint_rules)


BACKGAMMON_BAR = 100         # OpenSpiel's board(player, 100) is the player's bar (its kBarPos)
ROLL = re.compile(r"chance outcome \d+ (?:(?P<starter>[XO]) starts, )?\(roll: (?P<a>\d)(?P<b>\d)\)")


class CheckersByPosition(Lockstep):
    """Backgammon: one OpenSpiel action moves two checkers (a double is two actions), and the
    rules move one checker per die; one roll of OpenSpiel's is two chance nodes of the rules
    (a die each). Both are compared by what they lead to:

    - a player step: the set of positions OpenSpiel's legal actions lead to must be the set of
      positions the rules reach with the same seat's next moves, two at most (one where only
      one die can be played; none where OpenSpiel's only action is `Pass` and the rules have
      passed the turn by themselves). A position is each seat's checkers on its points 1..24
      (OpenSpiel's X is P1, counting from its own side: X's point i is OpenSpiel's index
      24 - i, O's is i - 1), on the bar and borne off. The action drawn is played on the rules'
      side by one of the sequences of moves that lead to its position.
    - a roll: OpenSpiel's outcomes `(roll: ab)` with their probabilities must be the rules'
      two dice {a, b} with the product of the two dice's probabilities, added over both orders
      (the order of the dice changes nothing in the play; OpenSpiel 2 lists 1-2 and 2-1 apart,
      older releases as one outcome). The opening roll, where the rules roll again on a tie and
      OpenSpiel draws among the 30 outcomes without one, `X starts, (roll: ab)`, is compared
      with the rules' distribution given no tie, X starting where P1's die is the higher.

    OpenSpiel 2.0 moves two checkers per action (a double is two actions); its newer sources
    move all four of a double in one: the number of moves per action is read from the size of
    its action space (2 x 26^2 ids: two)."""

    def native_position(self, state) -> tuple:
        board = [[state.board(p, i) for i in range(24)] for p in (0, 1)]
        bars = [state.board(p, BACKGAMMON_BAR) for p in (0, 1)]
        borne_off = [15 - sum(board[p]) - bars[p] for p in (0, 1)]
        return (tuple(board[0][24 - i] for i in range(1, 25)), tuple(board[1][i - 1] for i in range(1, 25)),
                tuple(bars), tuple(borne_off))

    @staticmethod
    def rules_position(state) -> tuple:
        value = lambda *key: state.vars.get(key, 0)  # noqa: E731 (an entry never set is its initial 0)
        return (tuple(value("men", 1, i) for i in range(1, 25)), tuple(value("men", 2, i) for i in range(1, 25)),
                (value("bar", 1), value("bar", 2)), (value("borne_off", 1), value("borne_off", 2)))

    def moves_per_action(self) -> int:
        """2, or 4 with a double where one action moves four checkers."""
        if self.native_game.num_distinct_actions() == 2 * 26 ** 2:
            return 2
        return 4 if self.rules.engine.state.vars.get("die1") == self.rules.engine.state.vars.get("die2") else 2

    def rules_plays(self, state, seat, dice) -> dict:
        """{position: the move names that reach it} over the seat's next `dice` moves at most."""
        if dice == 0 or state.is_terminal() or state.is_chance_node() or state.current_player() != seat:
            return {self.rules_position(state): ()}
        out = {}
        for move in state.legal_moves():
            after = state.clone()
            after.apply(move)
            for position, names in self.rules_plays(after, seat, dice - 1).items():
                out.setdefault(position, (move.name,) + names)
        return out

    def step(self):
        native, rules = self.native, self.rules
        engine = rules.engine.state
        if native.is_chance_node():
            return self.roll()
        if rules.is_chance_node() and not engine.chance_outcomes():
            raise Mismatch(f"step {self.steps}: the rules roll where OpenSpiel has player {native.current_player()} move")
        self.steps += 1
        player = native.current_player()
        native_plays = {}
        for action in native.legal_actions():
            after = native.clone()
            after.apply_action(action)
            native_plays.setdefault(self.native_position(after), action)
        rules_plays = self.rules_plays(engine, player + 1, self.moves_per_action())
        if set(native_plays) != set(rules_plays):
            raise Mismatch(f"step {self.steps}: player {player}'s plays differ: native "
                           f"{sorted(native.action_to_string(a) for a in native_plays.values())}, "
                           f"rules {sorted(' '.join(names) or 'no move' for names in rules_plays.values())}")
        position = self.rng.choice(sorted(native_plays))
        native.apply_action(native_plays[position])
        for name in rules_plays[position]:
            rules.apply_action(self.rules_moves(player)[name])

    def roll(self):
        native, rules = self.native, self.rules
        if not rules.is_chance_node():
            raise Mismatch(f"step {self.steps}: OpenSpiel rolls where the rules have player {rules.current_player()} move")
        native_odds = {}     # (the starter at the opening roll, the dice low first): (actions, probability)
        for action, probability in native.chance_outcomes():
            roll = ROLL.fullmatch(native.action_to_string(pyspiel.PlayerId.CHANCE, action))
            key = (roll["starter"], tuple(sorted((int(roll["a"]), int(roll["b"])))))
            actions, before = native_odds.get(key, ((), 0.0))
            native_odds[key] = (actions + (action,), before + probability)
        opening = any(starter for starter, _ in native_odds)
        rules_odds = {}      # the same key: ((first die's outcome, second's), probability)
        for first, p in rules.chance_outcomes():
            after = rules.clone()
            after.apply_action(first)
            for second, q in after.chance_outcomes():
                a, b = int(rules.action_to_string(-1, first)), int(after.action_to_string(-1, second))
                if opening and a == b:
                    continue      # the rules roll again
                key = ("X" if a > b else "O") if opening else None, tuple(sorted((a, b)))
                outcomes, before = rules_odds.get(key, ((first, second), 0.0))
                rules_odds[key] = (outcomes, before + p * q)
        total = sum(p for _, p in rules_odds.values())
        rules_odds = {key: (outcomes, p / total) for key, (outcomes, p) in rules_odds.items()}
        if set(native_odds) != set(rules_odds) or any(abs(native_odds[k][1] - rules_odds[k][1]) > 1e-9
                                                      for k in native_odds):
            raise Mismatch(f"step {self.steps}: rolls differ: native {sorted((k, p) for k, (_, p) in native_odds.items())}, "
                           f"rules {sorted((k, p) for k, (_, p) in rules_odds.items())}")
        rolls = sorted(native_odds, key=str)
        drawn = self.rng.choices(rolls, weights=[native_odds[k][1] for k in rolls])[0]
        native.apply_action(self.rng.choice(native_odds[drawn][0]))      # 1-2 or 2-1: the same roll
        for outcome in rules_odds[drawn][0]:
            rules.apply_action(outcome)


def native_checkers_moves(state) -> dict:
    """{the actions' names: the state after them} of every whole move of the player to move in
    OpenSpiel's checkers: a jump (`c3e5`, two rows) goes on while OpenSpiel keeps the same
    player to move."""
    player, out = state.current_player(), {}

    def extend(s, done):
        for action in s.legal_actions():
            child = s.clone()
            child.apply_action(action)
            names = done + (s.action_to_string(action),)
            jumped = abs(int(names[-1][1]) - int(names[-1][3])) == 2
            if jumped and not child.is_terminal() and child.current_player() == player:
                extend(child, names)
            else:
                out[names] = child
    extend(state, ())
    return out


def as_native_checkers_actions(move: str) -> tuple:
    """The rules' move name as OpenSpiel's checkers actions: "c3-d4" is ("c3d4",), "c3xe5, g7"
    is ("c3e5", "e5g7")."""
    if "-" in move:
        return (move.replace("-", ""),)
    start, _, path = move.partition("x")
    squares = [start] + path.split(", ")
    return tuple(a + b for a, b in zip(squares, squares[1:]))


class JumpsOneAtATime(Lockstep):
    """Checkers: OpenSpiel plays each jump of a multi-jump as an action of its own, the same
    player moving again; the rules make the whole path one move, which the adapter plays as
    several ids (its first, `jump(c3)`, then one per square landed on, docs/openspiel.md). At
    the start of each move, the set of OpenSpiel's whole moves (its jumps followed while it
    keeps the player to move), as sequences of its actions, must be the set of the adapter's
    moves (its ids followed while a move is under way), each translated from its name into
    OpenSpiel's actions (`c3xe5, g7` -> `c3e5`, `e5g7`). The move drawn is played id by id on
    the adapter and action by action on OpenSpiel, each checked legal there."""

    def rules_whole_moves(self, state) -> dict:
        """{OpenSpiel's actions for the move: the adapter's ids} of the player to move."""
        out = {}
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if child.engine.chosen:
                for native, ids in self.rules_whole_moves(child).items():
                    out[native] = (action,) + ids
            else:
                out[as_native_checkers_actions(state.action_to_string(action))] = (action,)
        return out

    def step(self):
        native, rules = self.native, self.rules
        self.steps += 1
        player = native.current_player()
        if rules.current_player() != player:
            raise Mismatch(f"step {self.steps}: native player {player}, rules {rules.current_player()}")
        native_moves, rules_moves = native_checkers_moves(native), self.rules_whole_moves(rules)
        if set(native_moves) != set(rules_moves):
            raise Mismatch(f"step {self.steps}: player {player}'s moves differ: native {sorted(native_moves)}, "
                           f"rules {sorted(rules_moves)}")
        move = self.rng.choice(sorted(native_moves))
        for name in move:
            actions = {native.action_to_string(a): a for a in native.legal_actions()}
            if native.current_player() != player or name not in actions:
                raise Mismatch(f"step {self.steps}: OpenSpiel's player {player} may not play {name} of {move}")
            native.apply_action(actions[name])
        for number in rules_moves[move]:
            if rules.current_player() != player or number not in rules.legal_actions():
                raise Mismatch(f"step {self.steps}: the adapter's player {player} may not play id {number} of {move}")
            rules.apply_action(number)


def run(native_name, games, seed=0, rules_game=None, mapping=None) -> int:
    """Play `games` lockstep playthroughs; the number of player steps compared. `mapping`: a
    NativeMapping in place of the game's own (other parameters on either side)."""
    mapping = mapping or native_name_mappings()[native_name]
    rules_game = rules_game or load_rules_game(native_name, mapping)
    lockstep = mapping.lockstep or Lockstep
    total = 0
    for k in range(games):
        total += lockstep(native_name, seed * 1_000_003 + k, rules_game, mapping).play()
    return total
