"""Lockstep playthroughs of a rules file (through the OpenSpiel adapter) against OpenSpiel's own
implementation of the same game: at every step the same player to move, the same legal moves
(through a name mapping per game), the same chance outcomes with the same probabilities, and at
the end the same returns. Used by tests/test_openspiel.py (a few games) and
benchmarks/openspiel_conformance.py (thousands of steps). docs/openspiel.md has the results.

Chance is matched in order of occurrence, not of time: a rules file may shuffle a whole deck in
its setup where OpenSpiel deals card by card later (Goofspiel's prizes), so an outcome drawn on
one side waits in a queue, with the distribution it was drawn from, until the other side
reaches its next chance node, which must offer the same outcomes with the same probabilities.
A chance node with a single outcome (OpenSpiel deals Goofspiel's last prize; the rules' shuffle
leaves the last card where it is) is played without comparing.

Where one side plays in one move what the other plays in several, a game's own Lockstep
subclass maps the sequence (Hearts: OpenSpiel passes three cards one action at a time, the
rules pass them as one sealed move).
"""
import itertools
import random
import re
from pathlib import Path
from typing import Callable, NamedTuple, Optional

import pyspiel

from interpreter.openspiel_game import load_openspiel_game

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
    }


def load_rules_game(native_name):
    """The rules file of a native game through the adapter, with the options that select
    OpenSpiel's rules."""
    mapping = native_name_mappings()[native_name]
    return load_openspiel_game(GAMES / mapping.rules_file, options=mapping.options)


class Mismatch(AssertionError):
    pass


class Lockstep:
    """One random playthrough of a native game and its rules file side by side."""

    def __init__(self, native_name, seed, rules_game=None):
        mapping = native_name_mappings()[native_name]
        self.action_name, self.chance_name, self.declared = mapping.action_name, mapping.chance_name, mapping.declared
        self.native_game = pyspiel.load_game(native_name)
        self.rules_game = rules_game or load_rules_game(native_name)
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


def run(native_name, games, seed=0, rules_game=None) -> int:
    """Play `games` lockstep playthroughs; the number of player steps compared."""
    rules_game = rules_game or load_rules_game(native_name)
    lockstep = native_name_mappings()[native_name].lockstep or Lockstep
    total = 0
    for k in range(games):
        total += lockstep(native_name, seed * 1_000_003 + k, rules_game).play()
    return total
