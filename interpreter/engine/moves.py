"""Legal moves: Move, MoveList, listing them (merged by labels), their names and public texts."""
from __future__ import annotations

from typing import Optional

from referee.dsl.types import named_type

from ..runtime import CHANCE
from ..runtime.values import same_value
from ..runtime.errors import RulesRuntimeError, SameNamedMoves
from .located import PYTHON_ERRORS
from .labels import EMPTY_VALUE, closed_gaps, plain_label

SKIP = "skip"
LISTED = "listed"        # (a move argument that is a list of components: merged by its items' labels)


class Move:
    """One legal move: an action with its arguments, a choice among options, or a skip.
    Its text name is made on first use: a random playout names only the moves it plays."""
    __slots__ = ("kind", "action", "args", "_name", "_state", "owner")

    def __init__(self, kind, action, args, name, state=None, owner=None):
        self.kind, self.action, self.args, self._name, self._state = kind, action, args, name, state
        # the segments of the MoveList it came from: applying it needs no search (not the list
        # itself, which holds its moves: a cycle would outlive every move's list until the
        # garbage collector ran, with all the argument tuples listed)
        self.owner = owner

    @property
    def name(self) -> str:
        if self._name is None:
            self._name = move_name(self._state, self.action, self.args)
            self._state = None
        return self._name

    def __repr__(self):
        return f"Move({self.name!r})"

    def __eq__(self, other):
        return isinstance(other, Move) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


CHOICE_SEGMENT = -1      # (the action index of a MoveList segment that holds a choice's options)


class MoveList:
    """The legal moves of a state, in their stable order. The enumerators' argument tuples are
    kept as they are; a Move object is made only for a move that is looked at."""
    __slots__ = ("state", "segments", "length", "made")

    def __init__(self, state, segments):
        # segments: (action index, argument tuples, names or None), (CHOICE, option tuples (i,),
        # names) or (None, Move objects, None) for a skip
        self.state = state
        self.segments = segments
        length = 0
        for segment in segments:
            length += len(segment[1])
        self.length = length
        self.made = None

    def __len__(self):
        return self.length

    def __getitem__(self, i):
        if i.__class__ is not int:
            if isinstance(i, slice):
                return [self[k] for k in range(*i.indices(self.length))]
            i = i.__index__()
        if i < 0:
            i += self.length
        if not 0 <= i < self.length:
            raise IndexError("move index out of range")
        made = self.made
        if made is None:
            made = self.made = {}        # index -> Move: a playout looks at one or two
        move = made.get(i)
        if move is None:
            k = i
            for index, items, names in self.segments:
                if k < len(items):
                    break
                k -= len(items)
            # (the loop always breaks: 0 <= i < length)
            if index is CHOICE_SEGMENT:
                move = Move("choice", -1, items[k], names[k], None, self.segments)
            elif index is None:
                move = items[k]
                move = Move(move.kind, move.action, move.args, move._name, move._state, self.segments)
            else:
                move = Move("action", index, items[k], names[k] if names is not None else None, self.state, self.segments)
            made[i] = move
        return move

    def __iter__(self):
        for i in range(self.length):
            yield self[i]

    def __contains__(self, move):
        return any(m == move for m in self)

    def index(self, move):
        for i, m in enumerate(self):
            if m == move:
                return i
        raise ValueError(f"{move!r} is not a legal move")

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        return f"MoveList({list(self)!r})"


def move_name_or_none(s, move):
    """A move's name (a move made by hand is named as a move of s), or None when it names no
    move of the game: an action index, arguments or a state that are not the game's."""
    if move._name is not None:
        return move._name if isinstance(move._name, str) else None
    named_in = move._state if move._state is not None else s
    if move.kind != "action" or move.action.__class__ is not int or move.args.__class__ is not tuple \
            or not 0 <= move.action < len(getattr(getattr(named_in, "game", None), "namers", ())):
        return None          # (a choice's option and a skip are made with their names)
    try:
        name = move_name(named_in, move.action, move.args)
    except (*PYTHON_ERRORS, RulesRuntimeError):
        return None
    return name if isinstance(name, str) else None


def normalise(text: str) -> str:
    return " ".join(text.lower().split())


def compute_legal_moves(s) -> MoveList:
    """The legal moves of s, listed afresh."""
    return MoveList(s, legal_segments(s))


def legal_segments(s) -> list:
    """The legal moves as MoveList's segments: (action index, argument tuples, names or None),
    (CHOICE_SEGMENT, option tuples, names) for a choice's options, or (None, Move objects,
    None) for a skip. Empty: no legal move."""
    if s.terminal:
        return []
    if s.pending is not None:
        # options that look the same (identical cards) are one move, as for actions: the first
        options, names, seen = [], [], set()
        for i, name in enumerate(s.pending.names):
            if name not in seen:
                seen.add(name)
                options.append((i,))
                names.append(name)
        return [(CHOICE_SEGMENT, options, names)]
    game = s.game
    instruction = game.flow[s.pc] if s.pc < len(game.flow) else None
    if instruction is None or instruction.op not in ("play", "simultaneous"):
        return []
    segments, names_seen = [], None
    together = instruction.fused(s) if instruction.fused is not None else None
    for index, action, keyed in instruction.listed:
        listed = together.get(index) if together is not None else None
        if listed is not None:
            candidates, exact = listed
        else:
            candidates, exact = action.enumerate(s)
        if not candidates:
            continue
        if keyed is not None:
            # moves whose arguments look the same (identical cards) are one move
            if not exact:
                candidates = merge_by_labels(s, index, candidates, keyed)
            segments.append((index, candidates, None))
        else:
            if names_seen is None:
                names_seen = {}
            kept, names = named_once(s, index, candidates, names_seen)
            segments.append((index, kept, names))
    if instruction.optional and segments:
        segments.append((None, [Move("skip", -1, (), SKIP)], None))
    return segments


def named_once(s, index, candidates, names_seen):
    """An action's argument tuples with their names, the first of each name: moves of one name
    that are the same move (identical cards) are one, two different ones are refused.
    names_seen (name -> (index, arguments)) is shared by the actions offered together."""
    kept, names = [], []
    known = s.names      # (move_name's own cache, read here without a call)
    for args in candidates:
        move = (index, args)
        name = known.get(move)
        if name is None:
            name = move_name(s, index, args)
        first = names_seen.get(name)
        if first is None:
            names_seen[name] = move
            kept.append(args)
            names.append(name)
        elif not same_move(s, first, move):
            raise same_named(s, name, first, move)
    return kept, names


def named_moves(s, indexes):
    """The legal moves of these actions for the player to move, as (index, arguments), with
    their names (a decision inside a step: decisions.py)."""
    moves, names, seen = [], [], {}
    actions = s.game.actions
    for index in indexes:
        kept, named = named_once(s, index, actions[index].enumerate(s)[0], seen)
        moves += [(index, args) for args in kept]
        names += named
    return moves, names


def merge_by_labels(s, index, candidates, by_label):
    """The first of the argument tuples that show the same labels (identical cards)."""
    entities = s.entities
    seen, kept = {}, []
    for args in candidates:
        key = tuple((tuple(entities[x]["__label__"] for x in a) if label is LISTED else entities[a]["__label__"])
                    if label else a for a, label in zip(args, by_label))
        first = seen.get(key)
        if first is None:
            seen[key] = args
            kept.append(args)
        elif not same_move(s, (index, first), (index, args)):
            raise same_named(s, move_name(s, index, args), (index, first), (index, args))
    return kept


def same_move(s, first, second) -> bool:
    """Whether two (action, arguments) are the same move: one action, the same or identical
    arguments (arguments are components only where the action says so)."""
    (i, a), (j, b) = first, second
    if i != j:
        return False
    kinds, lists = s.game.argument_is_component[i], s.game.argument_lists_components[i]
    return all(x == y or ((component or listed) and same_value(s, x, y)) for x, y, component, listed in zip(a, b, kinds, lists))


def same_named(s, name, first, second) -> SameNamedMoves:
    game = s.game

    def shown(move):
        index, args = move
        action = game.actions[index]
        parts = []
        for b, v, component in zip(action.binders, args, game.argument_is_component[index]):
            text = s.label(v, b[3])
            if component and v is not None:
                text += " {" + ", ".join(f"{k}: {plain_label(x)}" for k, x in s.entities[v].items()
                                        if not k.startswith("__") and x is not None) + "}"
            parts.append(f"{b[0]}={text}")
        return f"{action.name}({', '.join(parts)})"
    return SameNamedMoves(f"two different moves have the same name '{name}': {shown(first)} and {shown(second)}; "
                          f"the action's label must tell them apart (a component's label must show what makes "
                          f"two of them different)", game.actions[second[0]].span)


def move_name(s, index, args, labelers=None) -> str:
    if labelers is None:
        key = (index, args)
        name = s.names.get(key)
        if name is None:
            name = s.names[key] = s.game.namers[index](s, *args)
        return name
    parts, tail = s.game.templates[index]
    if labelers is s.game.public_binder_labelers.get(index) and s.game.public_templates[index] is not None:
        parts, tail = s.game.public_templates[index]       # the text the others see
    masked = labelers is not None
    labelers = labelers or s.game.binder_labelers[index]
    out = []
    for literal, position in parts:
        out.append(literal)
        if position is not None and not isinstance(position, int):
            out.append(expression_text(s, index, position, args, masked) or EMPTY_VALUE)
        elif position is not None:
            out.append(labelers[position](s, args[position]) or EMPTY_VALUE)
    out.append(tail)
    return closed_gaps("".join(out))


def expression_text(s, index, node, args, masked) -> str:
    """The text of a label's {expression}; '?' in the text the others see when it reads an
    argument whose owner-only attributes they may not see."""
    game = s.game
    k = game.label_expression_order[index].index(node)
    fn, names = game.label_expressions[(index, k)]
    if masked:
        action = game.actions[index]
        if any(b[0] in names and named_type(b[3]) in game.private_fields for b in action.binders):
            return "?"
    return fn(s, *args)


def public_text(s, move) -> Optional[str]:
    """A move as the players other than its author see it: None while it is a sealed
    simultaneous move; owner-only attributes of its arguments masked."""
    if move.kind == "skip":
        return move.name
    if move.kind == "choice":
        public = s.pending.public_names
        return public[move.args[0]] if public is not None else move.name
    if s.sealed():
        return None
    labelers = s.game.public_binder_labelers.get(move.action)
    return move.name if labelers is None else move_name(s, move.action, move.args, labelers)


def public_moves(s, viewer: int, last: int = 10) -> list:
    """The last moves as a player saw them: their own in full, the others' public texts, and
    "P2 has chosen" for a sealed move not yet revealed."""
    start = max(0, len(s.history) - last)
    out = []
    for name, (player, text) in zip(s.history[start:], s.public_history[start:]):
        if player == CHANCE:
            out.append(f"chance: {text if text is not None else name}")
        elif player == viewer:
            out.append(f"P{player}: {name}")
        elif text is None:
            out.append(f"P{player} has chosen")
        else:
            out.append(f"P{player}: {text}")
    return out
