"""Simple players for any game. A bot's `choose(state)` returns one of `state.legal_moves()`.

    RandomBot(seed)   a uniformly random legal move; the same seed gives the same choices
    FirstBot()        always the first legal move (deterministic, handy in tests)
    MCTSBot(seed)     Monte Carlo tree search (UCT), for games of perfect information
    ISMCTSBot(seed)   information-set MCTS: searches states drawn from what its seat may see
"""
from __future__ import annotations

import math
import random
from typing import Optional

from .determinize import determinization


class Bot:
    kind = "bot"

    def choose(self, state):
        raise NotImplementedError


class RandomBot(Bot):
    kind = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state):
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal move to choose from")
        if state.pending is not None and state.is_chance_node():
            return sample_chance(state, self.rng)
        return moves[self.rng.randrange(len(moves))]


def sample_chance(state, rng):
    """An outcome of a chance node, drawn by its probability."""
    outcomes = state.chance_outcomes()
    x = rng.random()
    for move, probability in outcomes:
        x -= probability
        if x < 0:
            return move
    return outcomes[-1][0]


class FirstBot(Bot):
    kind = "first"

    def choose(self, state):
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal move to choose from")
        return moves[0]



def hidden_information(game) -> Optional[str]:
    """What a seat of the game may not see (None for a game of perfect information): a
    search bot that reads the state would cheat there."""
    for name, (_, visibility, _, _) in game.zone_meta.items():
        if visibility != "public":
            return f"the zone '{name}' is {visibility}"
    for name, (visibility, _, _, _) in game.var_meta.items():
        if visibility != "public":
            return f"the variable '{name}' is {visibility}"
    if game.private_fields:
        return f"the components '{next(iter(game.private_fields))}' have owner-only attributes"
    if any(instruction.op == "simultaneous" for instruction in game.flow):
        return "a step is simultaneous (sealed moves)"
    return None


class SearchBot(Bot):
    """What the tree searches share: their settings, a generator seeded once, and the moves
    that need no search (each kind has its own `exploration` default)."""

    def __init__(self, seed: int = 0, iterations: int = 1000, exploration: Optional[float] = None,
                 max_moves: int = 10_000, rollouts=None):
        self.rollouts = rollouts        # native/rollouts.NativeRollouts of the game, or None: in Python
        self.rng = random.Random(seed) if rollouts is None else rollouts.generator(seed)
        self.iterations, self.max_moves = iterations, max_moves
        if exploration is not None:
            self.exploration = exploration

    def playout(self, s) -> list:
        """The returns of a random playout from s (s is played on): in the game's native
        kernel when the bot has one and it can play from s, else in Python; the same returns
        and the same draws of self.rng either way."""
        if self.rollouts is not None:
            returns = self.rollouts.returns(s, self.rng, self.max_moves)
            if returns is not None:
                return returns
        return playout(s, self.rng, self.max_moves)

    def without_search(self, state):
        """The move when there is nothing to search (chance to sample, a single legal move), else None."""
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal move to choose from")
        if state.is_chance_node():
            return sample_chance(state, self.rng)
        return moves[0] if len(moves) == 1 else None


class MCTSBot(SearchBot):
    """Monte Carlo tree search (UCT) for games of perfect information: `iterations` random
    playouts per move from the current state, grown into a tree by the UCB1 rule. Chance is
    sampled: every iteration plays on a copy whose random source is drawn anew, so the bot
    never knows the shuffles and dice to come. Open loop: a node is the sequence of move
    names from the root, and each iteration lists the legal moves of its own sampled state.
    At the root, a move that wins at once is played, and moves that let the next player win
    at once are left out while others remain. The same seed gives the same choices."""
    kind = "mcts"
    exploration = 1.4

    def choose(self, state):
        reason = hidden_information(state.game)
        if reason is not None:
            raise ValueError(f"mcts reads the whole state, and here {reason}: it would cheat")
        forced = self.without_search(state)
        if forced is not None:
            return forced
        moves = state.legal_moves()
        allowed = self.decisive(state, moves)
        if len(allowed) == 1:
            return allowed[0]
        root = Node()
        root.allowed = {m.name for m in allowed}
        for _ in range(self.iterations):
            self.iterate(root, state)
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].total))[0]
        return next(m for m in moves if m.name == best)

    def decisive(self, state, moves) -> list:
        """The moves worth searching (decisive and anti-decisive moves, the usual remedy for
        random playouts that do not see a threat): a move that wins at once, alone; else those
        after which the next player, if another, cannot win at once (all of them if none is)."""
        seat = state.current_player()
        safe = []
        for move in moves:
            after = state.clone()
            after.rng = self.rng.getrandbits(64)
            after.apply(move)
            if after.is_terminal():
                if after.winners == [seat]:
                    return [move]
                safe.append(move)
                continue
            rival = after.current_player()
            if rival == seat or not any(self.wins_at_once(after, reply, rival) for reply in after.legal_moves()):
                safe.append(move)
        return safe or list(moves)

    def wins_at_once(self, state, move, seat) -> bool:
        after = state.clone()
        after.apply(move)
        return after.is_terminal() and seat in after.winners and len(after.winners) == 1

    def iterate(self, root, state):
        s = state.clone()
        s.rng = self.rng.getrandbits(64)          # chance to come, sampled afresh
        path, node = [], root
        # selection and expansion: down the tree while every move of the node has been tried
        for mover, moves in decisions(s, self.rng):
            if node is root:
                moves = [m for m in moves if m.name in root.allowed]
            untried = [m for m in moves if m.name not in node.children]
            if untried:
                move = untried[self.rng.randrange(len(untried))]
                child = node.children[move.name] = Node()
                s.apply(move)
                path.append((child, mover))
                break
            move = max(moves, key=lambda m: node.children[m.name].score(node.visits, self.exploration))
            node = node.children[move.name]
            s.apply(move)
            path.append((node, mover))
        returns = self.playout(s)
        root.visits += 1
        for node, mover in path:
            node.visits += 1
            node.total += returns[mover - 1]     # the value of a move for the seat that made it


def decisions(s, rng):
    """(seat to move, its legal moves) at each decision of `s` until the end of the game, as
    the caller plays on s; chance nodes (explicit chance) are sampled on the way."""
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply(sample_chance(s, rng))
            continue
        yield s.current_player(), s.legal_moves()


def playout(s, rng, max_moves) -> list:
    """Random moves (chance by its odds) to the end of the game, at most max_moves: the
    returns then (all 0 for a game still going)."""
    for _ in range(max_moves):
        if s.is_terminal():
            break
        moves = s.legal_moves()
        s.apply(sample_chance(s, rng) if s.is_chance_node() else moves[rng.randrange(len(moves))])
    return s.returns() if s.is_terminal() else [0.0] * s.game.num_players


class ISMCTSBot(SearchBot):
    """Information-set Monte Carlo tree search (single observer, open loop; Cowling, Powley
    and Whitehouse 2012) for games of hidden information, and of perfect information too.
    Each of `iterations` iterations searches one determinization (determinize.py: a state
    drawn among those the seat cannot tell from the real one, with its own random source),
    down one tree shared by all of them: a node is the sequence of move names from the root.
    A move legal in some determinizations only is judged against the number of times it was
    available, not the node's visits (the usual ISMCTS form of UCB1). Returns are scaled to
    [0, 1] by the least and greatest seen in the search, so that chips and wins explore
    alike. The bot never reads the state beyond what its seat may see: the same seed gives
    the same choice on two states that differ only in what the seat cannot see."""
    kind = "ismcts"
    exploration = 0.7          # returns are scaled to [0, 1]: UCB1's usual constant, 1/sqrt(2)

    def choose(self, state):
        forced = self.without_search(state)
        if forced is not None:
            return forced
        statistics = self.search(state)
        best = max(statistics.items(), key=lambda item: item[1])[0]
        return next(m for m in state.legal_moves() if m.name == best)

    def search(self, state) -> dict:
        """{move name: (visits, total return)} of the root's moves after the search."""
        seat = state.current_player()
        root = InformationSetNode()
        self.low, self.high = math.inf, -math.inf
        for _ in range(self.iterations):
            self.iterate(root, determinization(state, seat, self.rng))
        legal = set(state.legal_move_names())
        return {name: (node.visits, node.total) for name, node in root.children.items() if name in legal}

    def iterate(self, root, s):
        path, node = [], root
        # selection and expansion: down the tree while every move available here has been tried
        for mover, moves in decisions(s, self.rng):
            children = node.children
            untried = [m for m in moves if m.name not in children]
            for m in moves:
                if m.name in children:
                    children[m.name].available += 1
            if untried:
                move = untried[self.rng.randrange(len(untried))]
                node = children[move.name] = InformationSetNode()
                node.available = 1
                s.apply(move)
                path.append((node, mover))
                break
            low, span = self.low, (self.high - self.low) or 1.0
            move = max(moves, key=lambda m: children[m.name].score(low, span, self.exploration))
            node = children[move.name]
            s.apply(move)
            path.append((node, mover))
        returns = self.playout(s)
        self.low, self.high = min(self.low, *returns), max(self.high, *returns)
        for node, mover in path:
            node.visits += 1
            node.total += returns[mover - 1]     # the value of a move for the seat that made it


class InformationSetNode:
    __slots__ = ("children", "visits", "total", "available")

    def __init__(self):
        self.children, self.visits, self.total, self.available = {}, 0, 0.0, 0

    def score(self, low, span, exploration) -> float:
        mean = (self.total / self.visits - low) / span
        return mean + exploration * math.sqrt(math.log(self.available) / self.visits)


class Node:
    __slots__ = ("children", "visits", "total", "allowed")

    def __init__(self):
        self.children, self.visits, self.total, self.allowed = {}, 0, 0.0, None

    def score(self, parent_visits, exploration) -> float:
        return self.total / self.visits + exploration * math.sqrt(math.log(parent_visits) / self.visits)


def make_bot(kind: str, seed: int, rollouts=None):
    """A bot from its command-line spelling: 'random', 'first', 'mcts' or
    'mcts:iterations=500,exploration=1.0' (ismcts likewise); rollouts: a search bot's native
    playouts (see SearchBot). ValueError says what is wrong."""
    name, _, settings = kind.partition(":")
    if name not in KINDS:
        raise ValueError(f"unknown bot '{name}' (known: {', '.join(KINDS)})")
    options = {}
    for setting in filter(None, settings.split(",")):
        key, sep, value = setting.partition("=")
        allowed = SETTINGS.get(name, {})
        if not sep or key not in allowed:
            raise ValueError(f"'{setting}': {name} takes " + (", ".join(f"{k}=..." for k in allowed) or "no settings"))
        try:
            options[key] = allowed[key](value)
        except ValueError:
            raise ValueError(f"'{setting}': not a number") from None
        if options[key] <= 0 or options[key] != options[key] or options[key] == float("inf"):
            raise ValueError(f"'{setting}': must be a positive number")
    if name == "first":
        return FirstBot()
    if name in SETTINGS:
        options["rollouts"] = rollouts
    return KINDS[name](seed, **options)


def searches(kind: str) -> bool:
    """Whether a bot of this spelling plays random playouts (mcts, ismcts)."""
    return kind.partition(":")[0] in SETTINGS


SEARCH_SETTINGS = {"iterations": int, "exploration": float}
SETTINGS = {"mcts": SEARCH_SETTINGS, "ismcts": SEARCH_SETTINGS}
KINDS = {"random": RandomBot, "first": FirstBot, "mcts": MCTSBot, "ismcts": ISMCTSBot}
