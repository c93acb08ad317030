"""A stable integer action space for any rules file, shared by the OpenSpiel adapter
(openspiel_game.py) and the PettingZoo environment (pettingzoo_env.py).

Learning and game-theory tools want every move of a game to be one integer of a fixed range,
the same integer in every state and every process. The engine names moves by text; this module
numbers them, from the rules alone (docs/openspiel.md, "The action space"):

- an action's move is its binders' values in mixed radix, each binder over the whole domain of
  its type (seats, enum members, board cells, the components of a type with identical ones
  counted once, the numbers of a range), after the ids of the actions before it;
- a move whose binder is a list (a path of cells, the dice a subset keeps) is several ids, as
  OpenSpiel plays a multi-jump: the move's other binders in one id, then each item of the list
  in an id of the items' range (for numbers, the numbers of the rules' ranges), then an id that ends the list (which the adapter plays by itself where no
  other move goes on: ListBinder, move_sequence), which both adapters play one after another
  by the same player (MoveUnderWay);
- a choice (`choose`) is numbered by its option's label among the labels of every value of
  every type (LabelTable), after the actions (a move played inside a step, `play ... by` or
  `respond`, is numbered as the action's move or the skip it is: played_move); `skip` and, in games with a `simultaneous` step,
  `wait` (a seat that does not take part in it) come last;
- a chance outcome is numbered by its label in the same table.

ViewEncoding turns a seat's view into a fixed-length list of numbers (the observation tensor
of both adapters).
"""
import itertools
import re
from fractions import Fraction
from typing import Optional

from referee.dsl import ast
from referee.dsl.types import BOOL, INT, PLAYER, ListOf, MapOf, Named, OptionalOf, SetOf, element_type, named_type, written_type

from ..engine import CHANCE, PUBLIC, Move, load_game
from ..engine.views import key_label
from ..runtime.errors import RulesRuntimeError

# A number binder whose range depends on the state (`n in 1..stock[current]`) gets this many
# numbers from its low bound (0 when that is not constant either).
DYNAMIC_INT_SPAN = 100
# A range of the rules with more numbers than this gives none to the label table (a choice or
# a draw among them is refused): a table of a million labels would number nothing useful.
LABEL_RANGE_LIMIT = 10_000
# The most ids OpenSpiel takes (its actions are 32-bit ints on the C++ side).
MAX_ACTION_IDS = 2 ** 31 - 1
# Seeds whose setups give the components the action space numbers (a setup may be random).
SETUP_SEEDS = range(8)


class ActionSpaceError(RulesRuntimeError):
    """A game whose moves cannot be numbered, or a move outside the numbered space."""


class RulesLoadError(ValueError):
    """A rules file that does not load (its diagnostics are in the message)."""


def load_explicit_game(path, options=(), players=None, params=None, error=RulesLoadError):
    """The engine's game with explicit chance (every shuffle and pick a chance node), or
    `error` with the file's diagnostics, rendered as the command line shows them."""
    game, diagnostics, sources = load_game(path, options=tuple(options), players=players, params=params or None,
                                           chance="explicit")
    if game is None:
        raise error("\n".join(d.render(sources.get(d.span.file)) for d in diagnostics))
    return game


class ActionSpace:
    def __init__(self, game):
        if not game.explicit_chance:
            raise ValueError("the action space is for a game loaded with chance='explicit'")
        self.game = game
        # states just after the setup (sampled chance), one per seed: what the setup creates
        self.set_up = set_up_states(game)
        self.signatures = component_signatures(self.set_up)
        actions_ast = {a.name: a for a in game.program.of_kind(ast.Action)}
        self.radices = []          # per action: the domain of each binder numbered in its first id
        self.digit_of = []         # per action: per such binder, {value key: digit}
        self.head_binders = []     # per action: the indexes of those binders (all but its lists)
        self.lists = []            # per action: a ListBinder per binder over a list
        self.offsets = []
        offset = 0
        for action in game.actions:
            binders = actions_ast[action.name].binders
            head = [k for k in range(len(action.binders)) if not self.is_list(action.binders[k][3])]
            domains = [self.binder_domain(action, k, binders[k]) for k in head]
            self.head_binders.append(head)
            self.radices.append([len(d) for d in domains])
            self.digit_of.append([{value: digit for digit, value in enumerate(d)} for d in domains])
            self.offsets.append(offset)
            size = 1
            for d in domains:
                size *= len(d)
            offset += size
            lists = []
            for k in range(len(action.binders)):
                if k not in head:
                    items = self.binder_domain(action, k, binders[k], element_type(action.binders[k][3]))
                    lists.append(ListBinder(k, items, offset))
                    offset += len(items) + 1
            self.lists.append(lists)
        self.labels = LabelTable(game, self.signatures, self.int_values(), self.texts())
        chosen_types = [self.choice_type(n) for n in rules_nodes(game.program) if isinstance(n, ast.Choose)]
        self.choice_offset = offset
        if chosen_types:
            offset += len(self.labels)
        # components created in play that a choice may offer: N ids per type, by position
        self.created_offsets = {}
        for name, most in game.component_maximum.items():
            if any(t is None or name in (named_type(t), named_type(element_type(t))) for t in chosen_types):
                self.created_offsets[name] = offset
                offset += most
        # a choice among lists: an item's id each, then this id that ends the list
        self.choice_end_id = None
        if any(t is None or isinstance(t, ListOf) for t in chosen_types):
            self.choice_end_id = offset
            offset += 1
        self.skip_id = None
        if any(ins.optional for ins in game.flow) or any(
                isinstance(n, ast.Respond) or (isinstance(n, ast.PlayBy) and n.optional) for n in rules_nodes(game.program)):
            self.skip_id = offset
            offset += 1
        self.wait_id = None
        if any(ins.op == "simultaneous" for ins in game.flow):
            self.wait_id = offset
            offset += 1
        self.end_ids = {binder.end_id for lists in self.lists for binder in lists} | (
            {self.choice_end_id} if self.choice_end_id is not None else set())
        if offset > MAX_ACTION_IDS:
            raise ActionSpaceError(f"the moves of this game would need {offset:,} ids, more than the "
                                   f"{MAX_ACTION_IDS:,} OpenSpiel takes: an action's binders range over too "
                                   f"many values together", game.program.game.span)
        self.num_distinct_actions = max(offset, 1)
        self.max_chance_outcomes = len(self.labels)

    def choice_type(self, node):
        """The type of a `choose`'s options, or None where the checker left it unknown."""
        found = self.game.compiler.checked.types.get(id(node.binder.domain))
        return element_type(found).without_none() if found is not None else None

    # ---- domains ----
    @staticmethod
    def is_list(element) -> bool:
        return isinstance(element.without_none(), ListOf)

    def binder_domain(self, action, k, binder_ast, element=None) -> list:
        """The values a binder (or, given `element`, an item of its list) may take in any
        state, as keys (components: their signature)."""
        name, _, _, declared = action.binders[k]
        element = element if element is not None else declared
        optional = isinstance(element, OptionalOf)
        t, named = element.without_none(), named_type(element)
        game = self.game
        values = None
        if t == PLAYER:
            values = list(range(1, game.num_players + 1))
        elif t == BOOL:
            values = [False, True]
        elif named in game.enum_members:
            values = list(game.enum_members[named])
        elif named in game.types.boards:
            values = list(game.static_by_type.get(named, ()))
        elif named in game.component_maximum:
            values = list(range(game.component_maximum[named]))     # (created in play: by slot, key)
        elif named in game.types.components:
            values = list(self.signatures.get(named, ()))
        elif t == INT and element is declared:
            values = list(self.int_range(binder_ast.domain))
        elif t == INT:
            # an item of a list of numbers (`dice in subsets(rolled)`): among the rules' numbers
            values = sorted(set(self.int_values())) or None
        if values is None:
            what = (f"{element.text}, which has" if element is declared
                    else f"{declared.text}, whose items ({element.text}) have")
            raise ActionSpaceError(f"the moves of '{action.name}' cannot be numbered: its binder {name} ranges "
                                   f"over {what} no fixed list of values", action.span)
        return values + [None] if optional else values

    def int_range(self, domain) -> range:
        low, high = self.constant(getattr(domain, "low", None)), self.constant(getattr(domain, "high", None))
        if low is not None and high is not None:
            return range(low, high + 1)
        start = low if low is not None else 0
        return range(start, start + DYNAMIC_INT_SPAN)

    def constant(self, node) -> Optional[int]:
        """The value of a range bound that needs no state (a number, a param), else None."""
        if node is None:
            return None
        try:
            value = self.game.compiler.constant(node)
        except Exception:     # a bound that reads the state or a binder: known only in play
            return None
        return value if value.__class__ is int else None

    def int_values(self) -> list:
        """Every number a pick, a choice or a binder may give: each range of the rules with
        constant bounds, and the window of a range that has none."""
        values = []
        for node in rules_nodes(self.game.program):
            if isinstance(node, ast.Range):
                numbers = self.int_range(node)
                if len(numbers) <= LABEL_RANGE_LIMIT:
                    values.extend(numbers)
        return values

    def texts(self) -> list:
        """Every text written in the rules (a choice may be among texts)."""
        return [node.value for node in rules_nodes(self.game.program) if isinstance(node, ast.Text)]

    # ---- moves <-> ids ----
    def key(self, state, value, t):
        named = named_type(t)
        if value is not None and named in self.game.component_maximum:
            # its slot (State.create): its kinds are not known beforehand, and its number stays
            # while it is in play, whatever is destroyed before it
            return state.entities[value]["__slot__"]
        if value is not None and named in self.game.types.components:
            return state.entities[value]["__same__"]
        return value

    def outside(self, state, move, name, value, element, action):
        return ActionSpaceError(f"the move '{move.name}' is outside the action space: {name} = "
                                f"{state.label(value, element)} is not among the values numbered for "
                                f"it (docs/openspiel.md, 'The action space')", action.span)

    def first_id(self, state, move: Move) -> int:
        """The id of an action's move with its binders but its lists (all of a move without)."""
        action = self.game.actions[move.action]
        number = 0
        for k, radix, digits in zip(self.head_binders[move.action], self.radices[move.action],
                                    self.digit_of[move.action]):
            name, _, _, element = action.binders[k]
            digit = digits.get(self.key(state, move.args[k], element))
            if digit is None:
                raise self.outside(state, move, name, move.args[k], element, action)
            number = number * radix + digit
        return self.offsets[move.action] + number

    def move_sequence(self, state, move: Move) -> tuple:
        """The ids of one legal move of `state`: one, or for a move over lists its first id,
        each item's and the end of each list (a chance outcome and a choice are one id)."""
        move = played_move(state, move)
        if move.kind == "choice" and state.pending is not None and state.pending.numbering is not None:
            return self.option_ids(state, move)
        if move.kind != "action" or not self.lists[move.action]:
            return (self.move_id(state, move),)
        action = self.game.actions[move.action]
        ids = [self.first_id(state, move)]
        for binder in self.lists[move.action]:
            name, _, _, element = action.binders[binder.index]
            for item in move.args[binder.index] or ():
                digit = binder.digit_of.get(self.key(state, item, element_type(element)))
                if digit is None:
                    raise self.outside(state, move, name, move.args[binder.index], element, action)
                ids.append(binder.start + digit)
            ids.append(binder.end_id)
        return tuple(ids)

    def move_id(self, state, move: Move) -> int:
        """The integer of one legal move of `state` (a player's move or a chance outcome) that
        is one id (ActionSpaceError for a move over a list: move_sequence)."""
        move = played_move(state, move)
        if move.kind == "action":
            if self.lists[move.action]:
                raise ActionSpaceError(f"the move '{move.name}' is several ids (its list argument one id per "
                                       f"item, docs/openspiel.md, 'The action space'), and a move here must be "
                                       f"one: a seat's move at a simultaneous step is one action",
                                       self.game.actions[move.action].span)
            return self.first_id(state, move)
        if move.kind == "skip":
            return self.skip_id
        if move.kind == "choice" and state.pending is not None and state.pending.numbering is not None:
            ids = self.option_ids(state, move)
            if len(ids) > 1 or ids[0] == self.choice_end_id:
                raise ActionSpaceError(f"the option '{move.name}' is several ids (a list: one id per item, "
                                       f"docs/openspiel.md, 'The action space'), and a move here must be one",
                                       self.game.program.game.span)
            return ids[0]
        number = self.labels.index(move.name, self.game)
        return number if state.is_chance_node() else self.choice_offset + number

    def option_ids(self, state, move) -> tuple:
        """The ids of a choice's option numbered through its type (NeedChoice's numbering): a
        component created in play by its slot (key(): its number while in play); a list, each item
        (by its label, or its slot) and then the end of the list."""
        item_labeler, created = state.pending.numbering
        value = state.pending.options[move.args[0]]

        def item_id(x):
            if created is not None:
                return self.created_offsets[created] + state.entities[x]["__slot__"]      # (as key() numbers it)
            return self.choice_offset + self.labels.index(item_labeler(state, x), self.game)
        if item_labeler is None:
            return (item_id(value),)
        return tuple(item_id(x) for x in value) + (self.choice_end_id,)

    def legal_ids(self, state) -> dict:
        """{id: Move} of the legal moves of `state` (chance outcomes at a chance node)."""
        return self.numbered_moves(state, self.move_id)

    def legal_sequences(self, state) -> dict:
        """{ids: Move} of the legal moves of `state`, each as its move_sequence."""
        return self.numbered_moves(state, self.move_sequence)

    def numbered_moves(self, state, number_of) -> dict:
        """{number_of(state, move): move} of the legal moves, two moves never the same."""
        out = {}
        for move in state.legal_moves():
            number = number_of(state, move)
            if number in out:
                raise ActionSpaceError(f"the moves '{out[number].name}' and '{move.name}' get the same id "
                                       f"{number}", self.game.program.game.span)
            out[number] = move
        return out

    def next_ids(self, sequences: dict, chosen: tuple) -> dict:
        """{id: the Move it completes, or None} of the ids that may follow `chosen` (the first
        ids of a move, () at its start) among `sequences` (legal_sequences). An id completes a
        move when it is the move's last, or its last but an end of list that no other move
        goes on from: that end is played with it, as OpenSpiel's last jump ends a move."""
        at = len(chosen)
        following = {}
        for ids, move in sequences.items():
            if ids[:at] == chosen:
                following.setdefault(ids[at], []).append((ids, move))
        out = {}
        for number, moves in following.items():
            (ids, move), alone = moves[0], len(moves) == 1
            out[number] = move if alone and (len(ids) == at + 1 or (len(ids) == at + 2 and ids[-1] in self.end_ids)) \
                else None
        return out

    def played_ids(self, sequences: dict, move: Move) -> tuple:
        """The ids by which `move`, one of `sequences`, is played (an end of list played with
        the item before it left out)."""
        ids = next(i for i, m in sequences.items() if m.name == move.name)
        for at in range(len(ids)):
            if self.next_ids(sequences, ids[:at])[ids[at]] is not None:
                return ids[:at + 1]
        return ids

    def partial_text(self, state, sequences: dict, chosen: tuple) -> str:
        """What the last of `chosen`, the first ids of a move of several, stands for:
        'hop(c3)' for the move's first id, an item's label ('e5'), 'end of path'."""
        move = next(m for ids, m in sequences.items() if ids[:len(chosen)] == chosen)
        if move.kind == "choice":       # a list, item by item
            return "end of the choice" if chosen[-1] == self.choice_end_id else self.describe(chosen[-1])
        action = self.game.actions[move.action]
        if len(chosen) == 1:
            values = [state.label(move.args[k], action.binders[k][3]) for k in self.head_binders[move.action]]
            return f"{action.name}({', '.join(values)})"
        at = 1
        for binder in self.lists[move.action]:
            name, _, _, element = action.binders[binder.index]
            items = list(move.args[binder.index] or ())
            if len(chosen) - 1 - at < len(items):
                return state.label(items[len(chosen) - 1 - at], element_type(element))
            if len(chosen) - 1 - at == len(items):
                return f"end of {name}"
            at += len(items) + 1
        return self.describe(chosen[-1])

    def describe(self, number: int) -> str:
        """What an id stands for in any state (action_to_string of an id that is not legal)."""
        for index, action in enumerate(self.game.actions):
            rest = number - self.offsets[index]
            size = 1
            for radix in self.radices[index]:
                size *= radix
            if 0 <= rest < size:
                values = []
                for radix, digits in zip(reversed(self.radices[index]), reversed(self.digit_of[index])):
                    rest, digit = divmod(rest, radix)
                    values.append(list(digits)[digit])
                lists = ["..." for _ in self.lists[index]]
                return f"{action.name}({', '.join([repr(v) for v in reversed(values)] + lists)})"
            for binder in self.lists[index]:
                name = action.binders[binder.index][0]
                if number == binder.end_id:
                    return f"end of {name}"
                if 0 <= number - binder.start < len(binder.items):
                    return f"{name} item {binder.items[number - binder.start]!r}"
        if number == self.skip_id:
            return "skip"
        if number == self.choice_end_id:
            return "end of the choice"
        for name, start in self.created_offsets.items():
            if 0 <= number - start < self.game.component_maximum[name]:
                return f"{name} #{number - start + 1}"
        if number == self.wait_id:
            return "wait"
        if 0 <= number - self.choice_offset < len(self.labels):
            return self.labels.names[number - self.choice_offset]
        return f"action {number}"


class MoveUnderWay:
    """An engine state and the ids chosen so far of a move of several ids (a path: ListBinder),
    which both adapters keep: nothing is played in the engine until the move is complete, so
    the same player acts again, id by id (docs/openspiel.md, "The action space")."""
    __slots__ = ("state", "chosen", "ids", "sequences")

    def __init__(self, state, chosen=()):
        self.state = state
        self.chosen = tuple(chosen)
        # what the ids are now, until the next id or move (listing them twice would number twice)
        self.ids = None
        self.sequences = None

    def legal_ids(self, space) -> dict:
        """{id: Move} of the moves now, or in a game with moves of several ids, {id: the Move it
        completes, or None where the move goes on} of the ids that may follow those chosen."""
        if self.ids is None:
            if space.end_ids and not self.state.is_chance_node():
                self.ids = space.next_ids(self.legal_sequences(space), self.chosen)
            else:
                self.ids = space.legal_ids(self.state)
        return self.ids

    def legal_sequences(self, space) -> dict:
        if self.sequences is None:
            self.sequences = space.legal_sequences(self.state)
        return self.sequences

    def take(self, space, number) -> Optional[Move]:
        """Play id `number`: the Move it completes, applied, or None where the move goes on
        (ValueError for an id that is not legal now)."""
        moves = self.legal_ids(space)
        if number not in moves:
            raise ValueError(f"action {number} ({space.describe(number)}) is not legal now")
        move = moves[number]
        if move is None:
            self.choose(number)
        else:
            self.apply(move)
        return move

    def choose(self, number):
        """One more id of the move under way."""
        self.ids = None
        self.chosen = self.chosen + (number,)

    def apply(self, move):
        """Play a whole move (or a chance outcome) in the engine: no move is under way after it."""
        self.ids = self.sequences = None
        self.chosen = ()
        self.state.apply(move)

    def chosen_texts(self, space) -> list:
        """What each id chosen so far stands for: ['hop(c3)', 'e5']."""
        sequences = self.legal_sequences(space)
        return [space.partial_text(self.state, sequences, self.chosen[:k + 1]) for k in range(len(self.chosen))]

    def chosen_line(self, space, seat, everyone_sees: bool) -> Optional[str]:
        """The ids chosen so far as `seat` sees them, one line ('P1 choosing: hop(c3), e5'), or
        None: the mover sees them, and where `everyone_sees` (perfect information) every seat."""
        if not self.chosen or not (everyone_sees or seat == self.state.current_player()):
            return None
        return f"P{self.state.current_player()} choosing: {', '.join(self.chosen_texts(space))}"

    def id_text(self, space, number) -> str:
        """What a legal id does now: the move's name where it completes one, else what it
        adds to the move under way ('e5'); for an id not legal now, what it stands for."""
        moves = self.legal_ids(space) if not self.state.is_terminal() else {}
        if moves.get(number) is not None:
            return moves[number].name
        if number in moves:
            text = space.partial_text(self.state, self.legal_sequences(space), self.chosen + (number,))
            # (a choice among lists: 'card 3, ...' goes on, where the option 'card 3' would end)
            return text + ", ..." if self.state.pending is not None else text
        return space.describe(number)

    def moves_on(self, space) -> list:
        """The legal moves the ids chosen so far may still become (all of them at a move's start)."""
        if not self.chosen:
            return self.state.legal_moves()
        at = len(self.chosen)
        return [move for ids, move in self.legal_sequences(space).items() if ids[:at] == self.chosen]


class ListBinder:
    """A binder over a list (`path in paths_from(c)`): its items' ids start at `start`, one
    per value an item may take, and `end_id`, just after them, ends the list."""
    __slots__ = ("index", "items", "digit_of", "start", "end_id")

    def __init__(self, index, items, start):
        self.index = index
        self.items = items
        self.digit_of = {value: digit for digit, value in enumerate(items)}
        self.start = start
        self.end_id = start + len(items)


class LabelTable:
    """The labels of every value of every type, each once, in a fixed order: what numbers the
    options of a choice and the outcomes of chance, which the engine gives by label."""

    def __init__(self, game, signatures, numbers, texts):
        names = []
        names.extend(f"P{p}" for p in range(1, game.num_players + 1))
        names.extend(["yes", "no", "none"])
        for members in game.enum_members.values():
            names.extend(str(m) for m in members)
        for board in game.types.boards:
            names.extend(game.static_entities[c]["__label__"] for c in game.static_by_type.get(board, ()))
        for by_signature in signatures.values():
            names.extend(by_signature.values())
        names.extend(str(n) for n in numbers)
        names.extend(texts)
        self.names = list(dict.fromkeys(names))
        self.position = {name: k for k, name in enumerate(self.names)}

    def __len__(self):
        return len(self.names)

    def index(self, name: str, game) -> int:
        k = self.position.get(name)
        if k is None:
            raise ActionSpaceError(f"the option or chance outcome '{name}' is not the label of any value the "
                                   f"action space numbers (docs/openspiel.md, 'The action space')",
                                   game.program.game.span)
        return k


def played_move(state, move: Move) -> Move:
    """A decision's option inside a step (`play ... by`, `respond`) as the move it plays, numbered
    as in a turn: an action's move, or the skip. Any other move as it is."""
    moves = state.pending.moves if move.kind == "choice" and state.pending is not None else None
    if moves is None:
        return move
    chosen = moves[move.args[0]]
    if chosen is None:
        return Move("skip", -1, (), move.name)
    return Move("action", chosen[0], chosen[1], move.name)


def rules_nodes(program):
    """Every node of a program's syntax tree: declarations, setup and flow."""
    for part in [d.node for d in program.declarations.values()] + [program.setup, program.flow]:
        if part is not None:
            yield from ast.walk(part)


def set_up_states(game) -> list:
    """The game (loaded again, with sampled chance) just after its setup, for a few seeds."""
    sampled, _, _ = load_game(game.path, options=game.options, players=game.num_players,
                              params=game.given_params or None)
    return [sampled.new_initial_state(seed) for seed in SETUP_SEEDS]


def component_signatures(states) -> dict:
    """{component type: {signature: label}} of the components the setups created, identical
    components once, in the order of creation, then of what they may become (component_kinds)."""
    out = {}
    for kind in component_kinds(states):
        out.setdefault(kind["__type__"], {}).setdefault(kind["__same__"], kind["__label__"])
    return out


# At most this many kinds of component are made of one by changing its attributes
ATTRIBUTE_VARIANTS_LIMIT = 1_000


def component_kinds(states) -> list:
    """One entity (its attributes, __type__, __label__, __same__, __public_label__) per kind of
    component the setups created, then per kind each may become where the rules change its
    attributes of a finite type (`x.rank = high`: a component that changes rank, whose label the
    observation tensor counts), every combination of their values, ATTRIBUTE_VARIANTS_LIMIT
    at most per component."""
    state = states[0]
    game = state.game
    changed = game.compiler.changed_attributes
    created = [e for s in states for e in s.entities[len(game.static_entities):]]
    kinds = list({e["__same__"]: e for e in created}.values())
    out = list(kinds)
    for entity in kinds:
        type_name = entity["__type__"]
        fields = [f for f in game.types.components[type_name].fields if f.name in changed]
        domains = [finite_values(game, written_type(f.type).without_none()) for f in fields]
        fields = [f for f, d in zip(fields, domains) if d]
        domains = [d for d in domains if d]
        values = {k: v for k, v in entity.items() if not k.startswith("__")}
        template = game.label_templates.get(type_name)
        private = game.private_fields.get(type_name)
        for combination in itertools.islice(itertools.product(*domains), ATTRIBUTE_VARIANTS_LIMIT) if fields else ():
            variant = dict(values, **{f.name: v for f, v in zip(fields, combination)})
            kind = dict(variant, __type__=type_name, __label__=state.component_label(type_name, variant, template),
                        __same__=(type_name, *sorted((k, repr(v)) for k, v in variant.items())))
            if private:
                kind["__public_label__"] = state.component_label(type_name, variant, template, private)
            out.append(kind)
    return out


def finite_values(game, t) -> list:
    """The values of a type (a Type) with a fixed few (seats, yes/no, an enum's members), else []."""
    if t == PLAYER:
        return list(game.seats)
    if t == BOOL:
        return [False, True]
    return list(game.enum_members.get(t.name, ())) if isinstance(t, Named) else []


class ViewEncoding:
    """The observation tensor: a fixed-length list of numbers read from a seat's view
    (docs/openspiel.md, "Observations"). Its layout comes from the rules and the states after
    the setup: the player to move (one-hot), whether the game is over, each variable entry (its
    value, 0 where the seat may not see it; a list of seats or enum members one number per
    possible item), each zone's size, and the count of each kind of component the seat sees in
    each zone (masked ones under their public label)."""

    def __init__(self, engine_game, space):
        self.num_players = engine_game.num_players
        views = [s.view(p) for s in space.set_up for p in range(PUBLIC, self.num_players + 1)]
        self.var_keys = sorted({k for v in views for k in v["vars"]})
        self.zone_keys = zone_labels(engine_game, space)
        labels = []
        for by_signature in space.signatures.values():
            labels.extend(by_signature.values())
        # what a seat sees of a component whose owner-only attributes are masked from it
        labels.extend(e["__public_label__"] for e in component_kinds(space.set_up) if "__public_label__" in e)
        self.component_labels = list(dict.fromkeys(labels))
        self.label_number = {name: k + 1 for k, name in enumerate(space.labels.names)}
        # a variable entry: its place, and for a list of seats or enum members the labels of
        # its possible items (one number each: the item's place in the list from 1, 0 if absent)
        self.var_at = {}
        at = self.vars_start = self.num_players + 1
        for key in self.var_keys:
            items = list_items(engine_game, key)
            refuse_unencoded_set(engine_game, key, items)
            self.var_at[key] = (at, items)
            at += len(items) if items else 1
        self.zone_at = {k: i for i, k in enumerate(self.zone_keys)}
        self.component_at = {k: i for i, k in enumerate(self.component_labels)}
        self.zones_start = at
        self.items_start = self.zones_start + len(self.zone_keys)
        self.size = self.items_start + len(self.zone_keys) * len(self.component_labels)

    def number(self, text: str) -> float:
        """A variable's shown value as a number: itself for a number (a fraction shown 1/3 too),
        1/0 for yes/no, the seat for a player, 0 for none, else its place (from 1) in the action
        space's label table."""
        if text in ("no", "none"):
            return 0.0
        if text == "yes":
            return 1.0
        if re.fullmatch(r"-?\d+(/\d+)?", text):
            return float(Fraction(text))
        if re.fullmatch(r"P\d+", text):
            return float(text[1:])
        return float(self.label_number.get(text, -1))

    def fill(self, tensor, view):
        tensor.fill(0)
        if view["current"] is not None and 1 <= view["current"] <= self.num_players:
            tensor[view["current"] - 1] = 1
        tensor[self.num_players] = 1 if view["terminal"] else 0
        for key, text in view["vars"].items():
            at, items = self.var_at.get(key, (None, None))
            if at is None:
                continue
            if items is None:
                tensor[at] = self.number(text)
                continue
            shown = text.split(", ") if text else []
            for k, item in enumerate(items):
                tensor[at + k] = shown.index(item) + 1 if item in shown else 0
        width = len(self.component_labels)
        for key, zone in view["zones"].items():
            at = self.zone_at.get(key)
            if at is None:
                continue
            tensor[self.zones_start + at] = zone["count"]
            for item in [*zone.get("items", ()), *zone.get("shown", ())]:
                k = self.component_at.get(item["label"])
                if k is not None:
                    tensor[self.items_start + at * width + k] += 1


def list_items(engine_game, key) -> Optional[list]:
    """The labels of the items a list variable may hold, for a list of seats or enum members;
    None for any other variable."""
    t = engine_game.var_meta[key.partition("[")[0]][3]
    if not isinstance(t, (ListOf, SetOf)):
        return None
    if t.element == PLAYER:
        return [f"P{p}" for p in engine_game.seats]
    if isinstance(t.element, Named) and t.element.name in engine_game.enum_members:
        return [str(m) for m in engine_game.enum_members[t.element.name]]
    return None


def refuse_unencoded_set(engine_game, key, items) -> None:
    """A set is encoded as a list, one number per possible item, when its items are seats or
    enum members; another set (of numbers, of positions) has no fixed place in the tensor, nor
    has a map (its keys are not known before the game)."""
    name = key.partition("[")[0]
    t = engine_game.var_meta[name][3]
    if isinstance(t.without_none(), MapOf):
        declared = engine_game.program.get(name)
        raise ActionSpaceError(f"the observation tensor cannot encode '{name}', a {t.written()}: a map has no "
                               "place of a fixed size (declare it hidden to leave it out of the views and of "
                               "the tensor)", getattr(declared, "span", None))
    if items is None and isinstance(t.without_none(), SetOf):
        declared = engine_game.program.get(name)
        raise ActionSpaceError(f"the observation tensor cannot encode '{name}', a {t.written()}: only sets of "
                               "players or of enum members have a place of a fixed size (declare it hidden "
                               "to leave it out of the views and of the tensor)", getattr(declared, "span", None))


def zone_labels(engine_game, space) -> list:
    """The view's name of every zone a state may have: each index over its type's values
    (seats, cells, enum members, the components the setups create, the numbers of a range
    with constant bounds), and the zones the setups made for other indexes."""
    states = space.set_up
    state = states[0]
    declared = {z.name: z.index for z in engine_game.program.of_kind(ast.Zone)}
    keys = []
    for name, (_, _, _, index_types) in engine_game.zone_meta.items():
        domains = []
        for t, index in zip(index_types, declared.get(name, ())):
            named = named_type(t)
            if t == PLAYER:
                domains.append(engine_game.seats)
            elif named in engine_game.geometries:
                domains.append(list(engine_game.geometries[named].cells))
            elif named in engine_game.enum_members:
                domains.append(list(engine_game.enum_members[named]))
            elif named in engine_game.types.components:
                domains.append([x for x, e in enumerate(state.entities) if e.get("__type__") == named])
            elif isinstance(index, ast.Range) and None not in (space.constant(index.low), space.constant(index.high)):
                domains.append(list(space.int_range(index)))
            else:
                break
        else:
            keys.extend(key_label(state, (name, *combination) if index_types else name, index_types)
                        for combination in itertools.product(*domains))
    for s in states:
        for key in s.zones:
            name = key if isinstance(key, str) else key[0]
            keys.append(key_label(s, key, engine_game.zone_meta[name][3]))
    return list(dict.fromkeys(keys))


__all__ = ["ActionSpace", "ActionSpaceError", "MoveUnderWay", "ViewEncoding", "CHANCE"]
