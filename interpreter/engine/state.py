"""State: one position of a game, the OpenSpiel-like interface, and the zone moves and caches
that compiled effects change it through."""
from __future__ import annotations

from fractions import Fraction

from referee.dsl.templates import parse_template
from referee.dsl.types import PLAYER, UNKNOWN, Type, named_type, written_type
from referee.dsl.limits import MAX_STEP_WORK

from ..runtime import CHANCE
from ..runtime.writes import entity_column_value
from ..runtime.errors import IllegalMove, RulesRuntimeError, UnlocatedRulesError
from ..runtime.steps import AllLost
from ..runtime.zone_rows import canonical_key
from .labels import plain_label
from .located import PYTHON_ERRORS, located
from .moves import Move, MoveList, legal_segments, move_name_or_none, normalise
from .refusals import explain_refusal
from .steps import apply_move, replayed
from .views import key_label, make_view

TERMINAL = 0            # current_player() once the game has ended
UNMARKED = object()     # (key_marks: a zone key not looked up yet)


def free_slot(entities, of_type) -> int:
    """The first number (from 0) that no component of the type in play has: without a `destroy`,
    the count of those before; the adapters number a type created in play by it."""
    used = {entities[e]["__slot__"] for e in of_type or ()}
    if not used or max(used) == len(used) - 1:
        return len(used)
    return min(set(range(len(used))) - used)


def holds(value, x) -> bool:
    """Whether a variable's value is the component x or a collection holding it (lists, sets,
    a map's keys and values)."""
    if value.__class__ is int:
        return value == x
    if isinstance(value, dict):
        return any(holds(k, x) or holds(v, x) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(holds(v, x) for v in value)
    return False


def key_mark(game, key):
    """What a change of zone `key` makes stale: (the stamp of its family, the part of the
    family under its first index or None, `key` when the game logs the changes of that part (a
    filter kept up to date: maintained.py) or None), or None when no cached value reads its
    family."""
    family = key if key.__class__ is str else key[0]
    mark = game.zone_marks.get(family)
    if mark is None:
        return None
    if not mark[1]:
        return mark[0], None, None
    part = (family, key[1] if key.__class__ is not str else None)
    return mark[0], part, (key if mark[2] else None)


class State:
    __slots__ = ("game", "entities", "by_type", "zones", "loc", "vars", "rng", "pc", "env",
                 "current", "extra", "terminal", "winners", "pending", "history", "public_history",
                 "choices", "cursor", "log", "turn", "seed", "_legal", "owned", "shared", "names",
                 "replayable", "columns", "shown_to", "entities_mine", "var_index", "var_index_mine",
                 "log_at", "rebuildable")

    def __init__(self, game):
        self.game = game
        self.entities = []
        # the attributes the compiled rules read, one list per attribute indexed by component
        # (Game.column_names), grown by `create`; shared by clones, as entities are
        self.columns = []
        self.by_type = {}
        self.zones = {}
        self.loc = []
        self.vars = {}
        self.rng = 0
        self.pc = 0
        self.env = {}
        self.current = 1
        self.extra = False
        self.terminal = False
        self.winners = []
        self.pending = None
        self.history = []
        # one (seat, text) per applied move, as the other players saw it; text None: a sealed
        # simultaneous move not yet revealed
        self.public_history = []
        self.choices = ()
        self.cursor = 0
        self.log = []
        self.turn = 0
        self.seed = 0
        self._legal = None
        # zone key -> its list, for the lists this state may change in place (the zones dict
        # itself when it owns them all): a clone shares the lists of its original until one
        # of them changes a zone (copy on write)
        self.owned = {}
        # history, public_history and log are shared with a clone until one of them writes
        self.shared = False
        # (action, arguments) -> the move's name: names depend only on the components, which
        # never change after the setup, so a state and its clones share them
        self.names = {}
        # whether new_initial_state(seed) and the moves of the history make this state again
        self.replayable = True
        # whether this state is one that new_initial_state made and only moves changed (not a
        # clone: whoever clones may draw its random source anew, as search bots do): its seed
        # and history make it again, so its steps take no copy from before them (Unbuilt)
        self.rebuildable = False
        # component -> the players a `reveal` showed it to, and (seat, attribute, value) facts
        # `reveal x.attribute` told, until it moves (never changed in place: a clone shares it)
        self.shown_to = {}
        # whether this state may change its entities and columns in place (x.a = ...): they
        # are shared with clones, and with the other games of the game, until one changes
        self.entities_mine = False
        # variable -> {value: its indexes holding it}, for the variables the compiled rules ask
        # that of (Compiler.var_indexes); shared with clones until one of them writes
        self.var_index = {}
        self.var_index_mine = True
        # a copy taken before a step (snapshot): the length of the log it shares, which the
        # state it was taken from goes on appending to
        self.log_at = None

    def clone(self) -> "State":
        """A copy to play on, in a time that does not grow with the game's history: zones and
        the history lists are shared, each copied by whichever state changes it first."""
        other = State.__new__(State)
        other.game = self.game
        other.entities = self.entities
        other.columns = self.columns
        other.by_type = self.by_type
        other.zones = self.zones.copy()
        self.owned = {}
        other.owned = {}
        other.loc = self.loc[:]
        other.vars = self.vars.copy()
        other.rng = self.rng
        other.pc = self.pc
        other.env = self.env.copy()
        other.current = self.current
        other.extra = self.extra
        other.terminal = self.terminal
        other.winners = self.winners
        other.pending = self.pending
        other.history = self.history
        other.public_history = self.public_history
        self.shared = other.shared = True
        other.choices = self.choices
        other.cursor = self.cursor
        other.log = self.log
        other.turn = self.turn
        other.seed = self.seed
        other._legal = self._legal
        other.names = self.names
        other.replayable = self.replayable
        other.shown_to = self.shown_to
        self.entities_mine = other.entities_mine = False
        other.var_index = self.var_index
        self.var_index_mine = other.var_index_mine = False
        other.log_at = None
        other.rebuildable = False
        return other

    def snapshot(self) -> "State":
        """A copy from before a step that may stop at a choice, for a clone of the stopped
        state to replay the step from. Unlike a clone, this state keeps appending to its trails
        without copying them (they only grow): the copy keeps the log's length (the replay takes
        the history lists of the clone it replays for)."""
        shared = self.shared
        other = self.clone()
        self.shared = shared
        other.log_at = len(self.log)
        return other

    def changed(self):
        """Call after changing a state by hand (its vars, zones or components, not through the
        engine): the values the compiled rules cached from it are forgotten. (The engine's own moves
        keep them exact; reading a function or the scores from outside forgets them anyway.)"""
        self.game.memo_reset(self)
        self._legal = None
        self.names = self.game.names_for_labels_of(self)    # (labels changed by hand name moves anew)
        self.var_index, self.var_index_mine = {}, True     # built again from the variables
        self.replayable = False      # its seed and moves no longer make it
        self.rebuildable = False

    def own_trails(self):
        """Copy the history lists and the log before changing them, if a clone shares them."""
        if self.shared:
            self.history = self.history[:]
            self.public_history = self.public_history[:]
            self.log = self.log[:]
            self.shared = False

    def _become(self, other: "State"):
        for slot in State.__slots__:
            setattr(self, slot, getattr(other, slot))

    # ---- changes used by compiled effects ----
    def own(self, key) -> list:
        """The list of a zone, copied first if it is shared with a clone (None: no such zone)."""
        items = self.owned.get(key)
        if items is None:
            items = self.zones.get(key)
            if items is not None:
                items = self.zones[key] = self.owned[key] = items[:]
        if self.game.zone_marks is not None:
            self.mark_changed(key)       # the caller is about to change it in place (shuffle)
        return items

    def mark_changed(self, key):
        """A zone's content changes: the values cached from it (its family, and the part of it
        under its first index) are stale."""
        game = self.game
        mark = game.key_marks.get(key, UNMARKED)
        if mark is UNMARKED:
            mark = game.key_marks[key] = key_mark(game, key)
        if mark is not None:
            game.memo_stamps[mark[0]] += 1
            if mark[1] is not None:
                parts = game.memo_parts
                parts[mark[1]] = parts.get(mark[1], 0) + 1
                if mark[2] is not None:
                    parts.log.append(mark[2])

    def own_target(self, key) -> tuple:
        """(key, list) of a zone that a move or a deal puts components in and the state does not
        own yet: its list copied from the one a clone shares, or a new zone (its key canonical)."""
        zones = self.zones
        target = zones.get(key)
        if target is None:
            key = canonical_key(key)      # (a new zone)
            target = zones[key] = []
        else:
            target = zones[key] = target[:]
        if self.owned is not zones:
            self.owned[key] = target
        return key, target

    def move(self, x, key, under=False):
        loc = self.loc
        here = loc[x]
        owned = self.owned
        if here is not None:
            items = owned.get(here)
            if items is None:
                items = self.zones[here] = owned[here] = self.zones[here][:]
            if items[-1] == x:
                items.pop()         # the top (a deal, a draw): no scan of the whole pile
            else:
                items.remove(x)
        target = owned.get(key)
        if target is None:
            key, target = self.own_target(key)
        if under:
            target.insert(0, x)
        else:
            target.append(x)
        loc[x] = key
        if self.shown_to and x in self.shown_to:
            self.shown_to = {y: seats for y, seats in self.shown_to.items() if y != x}
        game = self.game
        if game.zone_marks is not None:
            # (mark_changed, inline: a move is the commonest change)
            key_marks = game.key_marks
            for changed in (key, here) if here is not None else (key,):
                mark = key_marks.get(changed, UNMARKED)
                if mark is UNMARKED:
                    mark = key_marks[changed] = key_mark(game, changed)
                if mark is not None:
                    game.memo_stamps[mark[0]] += 1
                    if mark[1] is not None:
                        parts = game.memo_parts
                        parts[mark[1]] = parts.get(mark[1], 0) + 1
                        if mark[2] is not None:
                            parts.log.append(mark[2])

    def deal(self, n, source, key, under):
        """The top n components of zone `source` moved one by one onto (or under) zone
        `key`, as n moves would: the lists owned and the caches marked once, not per card
        (one card, one move: the move marks them inline)."""
        zones = self.zones
        items = zones.get(source)
        if not items or n <= 0:
            return
        if n == 1 or source == key or under:
            for _ in range(n):
                items = zones.get(source)     # (read again: a move may copy a shared list)
                if not items:
                    return
                self.move(items[-1], key, under)
            return
        owned = self.owned
        if owned.get(source) is None:
            items = zones[source] = owned[source] = items[:]
        target = owned.get(key)
        if target is None:
            key, target = self.own_target(key)
        loc = self.loc
        for _ in range(min(n, len(items))):
            x = items.pop()
            target.append(x)
            loc[x] = key
            if self.shown_to and x in self.shown_to:
                self.shown_to = {y: seats for y, seats in self.shown_to.items() if y != x}
        if self.game.zone_marks is not None:
            self.mark_changed(key)
            self.mark_changed(source)

    def create(self, type_name, values, template, key):
        game = self.game
        of_type = self.by_type.get(type_name)
        set_up = of_type.__class__ is tuple       # (after the setup: Game.setup_done)
        if set_up:
            most = game.component_maximum.get(type_name)
            if most is None or len(of_type) >= most:
                raise UnlocatedRulesError(f"a {type_name} more than the {most} its declaration allows "
                                          f"(component {type_name} {{ ... }} max {most})")
            if not self.entities_mine:      # (shared with clones: copied before a change)
                self.entities = list(self.entities)
                self.columns = [column[:] for column in self.columns]
                self.entities_mine = True
        elif type_name in game.component_maximum and len(of_type or ()) >= game.component_maximum[type_name]:
            raise UnlocatedRulesError(f"a {type_name} more than the {game.component_maximum[type_name]} "
                                      "its declaration allows")
        eid = len(self.entities)
        try:
            # identical components have the same labels, signature and columns: computed once per game
            given = (type_name, template, *values.items())
            known = game.created.get(given)
        except TypeError:      # an unhashable attribute value
            given = known = None
        if known is None:
            values["__type__"] = type_name
            values["__label__"] = self.component_label(type_name, values, template)
            values["__same__"] = (type_name, *sorted((k, repr(v)) for k, v in values.items() if k != "__same__"))
            private = game.private_fields.get(type_name)
            if private:
                values["__public_label__"] = self.component_label(type_name, values, template, private)
            shown = {k: v for k, v in values.items() if k.startswith("__")}
            known = (shown, tuple(entity_column_value(game, values, eid, name) for name in game.column_names))
            if given is not None:
                if len(game.created) >= 10_000:
                    game.created.clear()      # components whose values differ from game to game
                game.created[given] = known
        else:
            values.update(known[0])
        if type_name in game.component_maximum:      # (the adapters number such components by slot)
            values["__slot__"] = free_slot(self.entities, of_type)
        self.entities.append(values)
        for column, value in zip(self.columns, known[1]):
            column.append(value)
        if set_up:      # a new tuple: the old one is shared with clones and checkpoints
            self.by_type = {**self.by_type, type_name: (*of_type, eid)}
            self.names = {}         # (the cached move names are those of the components before)
        else:
            self.by_type.setdefault(type_name, []).append(eid)
        if game.zone_marks is not None:
            self.mark_changed("#types")
        loc = self.loc
        while len(loc) <= eid:
            loc.append(None)
        self.move(eid, key)

    def destroy(self, x):
        """`destroy x`: the component leaves play: out of its zone and of its type's list (so a
        `create` has room again), its id never given to another, refused while a variable holds it."""
        if x is None:
            raise UnlocatedRulesError("'destroy' of none: there is no component to destroy")
        entity = self.entities[x]
        type_name = entity["__type__"]
        of_type = self.by_type.get(type_name, ())
        if x not in of_type:
            raise UnlocatedRulesError(f"{entity['__label__']} was destroyed already")
        holder = self.variable_holding(x, type_name)
        if holder is not None:
            raise UnlocatedRulesError(f"{entity['__label__']} cannot be destroyed: the variable {holder} still holds it "
                                      "(set it to none, or take it out, first)")
        here = self.loc[x]
        if here is not None:
            items = self.owned.get(here)
            if items is None:
                items = self.zones[here] = self.owned[here] = self.zones[here][:]
            items.remove(x)
            self.loc[x] = None
            if self.game.zone_marks is not None:
                self.mark_changed(here)
        kept = [e for e in of_type if e != x]
        self.by_type = {**self.by_type, type_name: tuple(kept) if of_type.__class__ is tuple else kept}
        self.names = {}         # (the cached move names are those of the components before)
        if self.shown_to and x in self.shown_to:
            self.shown_to = {y: seats for y, seats in self.shown_to.items() if y != x}
        if self.game.zone_marks is not None:
            self.mark_changed("#types")

    def variable_holding(self, x, type_name):
        """The entry of a variable (as written: `v[P2]`) whose value is or holds component x."""
        for name in self.game.component_holders(type_name):
            for key, value in self.vars.items():
                if (key if key.__class__ is str else key[0]) == name and holds(value, x):
                    return key_label(self, key, self.game.var_meta[name][2])
        return None

    def component_label(self, type_name, values, template, masked=()):
        def text(name):
            if name in masked:
                return "?"
            value = values.get(name)
            if value is None:
                return plain_label(value)
            declared = self.attribute_type(type_name, name)
            if name == "owner" or declared.without_none() == PLAYER:
                return f"P{value}"
            if named_type(declared) in self.game.types.boards.keys() | self.game.types.components.keys():
                return self.entities[value]["__label__"]        # a cell or a component: its own label
            return plain_label(value)
        if template:
            # a value that is none leaves its placeholder empty ("{suit} {rank}" -> "joker")
            filled = "".join(part if isinstance(part, str) else part.written if not part.named
                             else "" if values.get(part.inside) is None else text(part.inside)
                             for part in parse_template(template).parts)
            return " ".join(filled.split())
        shown = [text(k) for k in values if not k.startswith("__") and k != "owner"]
        return " ".join([type_name] + shown)

    def attribute_type(self, type_name, name) -> Type:
        """The declared Type of a component type's attribute (unknown for no such attribute)."""
        component = self.game.types.components.get(type_name)
        field = next((f for f in component.fields if f.name == name), None) if component is not None else None
        return written_type(field.type) if field is not None else UNKNOWN

    def label(self, value, t=UNKNOWN):
        return self.game.labeler(t)(self, value)

    # ---- interface ----
    def sealed(self) -> bool:
        """Whether the move to make now is a sealed simultaneous move (kept secret until every
        player of that step has chosen)."""
        return (not self.terminal and self.pending is None and self.pc < len(self.game.flow)
                and self.game.flow[self.pc].op == "simultaneous")

    def current_player(self) -> int:
        """The seat to move (1..n), CHANCE (-1) at a chance node, TERMINAL (0) at the end."""
        return TERMINAL if self.terminal else self.current

    def is_chance_node(self) -> bool:
        """Whether chance moves next (only with explicit chance: a shuffle or a pick)."""
        return not self.terminal and self.pending is not None and self.pending.chooser == CHANCE

    def chance_outcomes(self) -> list:
        """At a chance node, (move, probability) for each outcome, in the order of legal_moves();
        identical components are one outcome, as likely as they are many."""
        if not self.is_chance_node():
            return []
        weights = self.pending.weights
        total = sum(weights)
        return [(move, weights[move.args[0]] / total) for move in self.legal_moves()]

    def is_terminal(self) -> bool:
        return self.terminal

    def legal_moves(self) -> "MoveList":
        legal = self._legal
        return MoveList(self, legal if legal is not None else self.listed())

    def listed(self) -> list:
        """The segments of the legal moves (MoveList), listed once per position. The state keeps
        them and not a MoveList: a MoveList holds its state, and the cycle would keep every
        state dropped with its moves listed (search bots drop thousands) until the garbage
        collector ran."""
        legal = self._legal
        if legal is None:
            self.game.step_budget[1] = MAX_STEP_WORK      # a listing has the work budget of a step
            try:
                legal = self._legal = legal_segments(self)
            except PYTHON_ERRORS as error:
                raise located(self, error, "finding the legal moves") from error
        return legal

    def legal_move_names(self) -> list:
        return [m.name for m in self.legal_moves()]

    def apply(self, move):
        """Play a move (a Move or its text name). An illegal move raises IllegalMove, whose
        reason says why, and leaves the state as it was."""
        if isinstance(move, str):
            move = self.find_move(move)
        else:
            segments = self._legal if self._legal is not None else self.listed()
            # a move of this very listing (it carries its segments) plays at once: checking its
            # arguments against the listing again would cost a scan on every move of a playout
            if getattr(move, "owner", None) is not segments:
                move = self.legal_move_named(move, segments)
        # all or nothing: a move that fails half-way is undone. A state reached by moves alone
        # is rebuilt from its seed and moves (nothing to pay while moves succeed); one changed
        # by hand keeps a copy of itself for the time of the move.
        saved = None if self.replayable else self.checkpoint()
        before = len(self.history)
        try:
            apply_move(self, move)
        except PYTHON_ERRORS as error:
            self.undo_failed_move(saved, before)
            raise located(self, error, f"playing '{move.name}'") from error
        except RulesRuntimeError:
            self.undo_failed_move(saved, before)
            raise

    def legal_move_named(self, move, segments) -> Move:
        """The legal move of the same name as `move` (one from another state, or made by hand),
        or IllegalMove: also when `move` names no move of this game at all."""
        name = move_name_or_none(self, move) if isinstance(move, Move) else None
        if name is None:
            what = (f"action {move.action!r} with arguments {move.args!r}" if isinstance(move, Move)
                    else f"{type(move).__name__} {move!r}")
            raise IllegalMove(f"this is not a move of this game ({what[:200]})")
        legal = MoveList(self, segments)
        for candidate in legal:
            if candidate.name == name:
                return candidate
        raise IllegalMove(f"'{name}' is not a legal move now")

    def undo_failed_move(self, saved, moves_before):
        if saved is not None:
            self.restore(saved)
            return
        self._become(replayed(self, moves_before))
        self.game.memo_reset(self)

    def checkpoint(self) -> tuple:
        """What `restore` needs to undo a move that fails half-way: the zone lists are shared
        with the copy from now on, as with a clone (the first write to one copies it); the
        trails only grow, so their lengths are enough."""
        self.owned = {}
        mine, self.entities_mine = self.entities_mine, False      # (a change of an attribute copies them)
        self.var_index_mine = False                               # (a write copies the tables)
        return (self.zones.copy(), self.loc[:], self.vars.copy(), self.env.copy(), self.rng, self.pc,
                self.current, self.extra, self.terminal, self.winners, self.pending, self.choices,
                self.cursor, self.turn, len(self.history), len(self.public_history), len(self.log),
                self._legal, self.history, self.public_history, self.log, self.shared, self.shown_to,
                self.entities, self.columns, self.names, mine, self.var_index, self.by_type)

    def restore(self, saved: tuple):
        (self.zones, self.loc, self.vars, self.env, self.rng, self.pc, self.current, self.extra,
         self.terminal, self.winners, self.pending, self.choices, self.cursor, self.turn, history,
         public_history, log, self._legal, self.history, self.public_history, self.log, self.shared,
         self.shown_to, self.entities, self.columns, self.names, self.entities_mine, self.var_index, self.by_type) = saved
        self.owned = {}
        self.var_index_mine = False
        if not self.shared:
            del self.history[history:], self.public_history[public_history:], self.log[log:]
        self.game.memo_reset(self)      # values cached during the failed move may be of its half

    def find_move(self, text: str) -> Move:
        wanted = normalise(text)
        for m in self.legal_moves():
            if normalise(m.name) == wanted:
                return m
        raise IllegalMove(explain_refusal(self, text))

    def returns(self) -> list:
        """Each seat's payoff: at the end of a game with `returns p: EXPR` in its header, that
        number; else 1 for a winner and 0 for the others, -1 for all in a game every player lost
        (0 for all before the end)."""
        declared = self.game.declared_returns
        if declared is None or not self.terminal:
            if self.winners.__class__ is AllLost:
                return [-1.0] * self.game.num_players
            return self.win_returns()
        self.game.memo_reset(self)
        values = []
        for p in range(1, self.game.num_players + 1):
            try:
                value = declared(self, p)
            except PYTHON_ERRORS as error:
                raise located(self, error, "computing the returns") from error
            if value is None or value.__class__ not in (int, float, Fraction):
                raise RulesRuntimeError(f"the return of P{p} is {plain_label(value)}, not a number",
                                        self.game.returns_span)
            values.append(float(value))
        return values

    def win_returns(self) -> list:
        return [1.0 if p in self.winners else 0.0 for p in range(1, self.game.num_players + 1)]

    def outcome(self):
        """How the game ended: "win" (one winner), "team" (the winners are the members of one
        team of the header's `teams`, several), "shared" (several winners otherwise: `finish
        winners [...]` with several, or a tie for the best score), "draw" (no winner: `finish`,
        or the end of the flow with no score), "lost" (`finish lost`: every player lost);
        None before the end."""
        if not self.terminal:
            return None
        if self.winners.__class__ is AllLost:
            return "lost"
        if len(self.winners) > 1 and self.game.teams is not None and self.one_team(self.winners):
            return "team"
        return "draw" if not self.winners else "win" if len(self.winners) == 1 else "shared"

    def winning_team(self):
        """The label of the team whose members won (`teams` in the header), None unless the
        outcome is "team"."""
        if self.outcome() != "team":
            return None
        self.game.memo_reset(self)
        return plain_label(self.game.teams(self, self.winners[0]))

    def one_team(self, players) -> bool:
        """Whether these players are all the members of one team (the header's `teams`)."""
        self.game.memo_reset(self)
        try:
            teams = [self.game.teams(self, p) for p in range(1, self.game.num_players + 1)]
        except PYTHON_ERRORS as error:
            raise located(self, error, "computing the teams") from error
        team = teams[players[0] - 1]
        return team is not None and {p for p, t in enumerate(teams, start=1) if t == team} == set(players)

    def scores(self) -> list:
        if self.game.score is None:
            return self.win_returns()
        self.game.memo_reset(self)
        try:
            return [self.game.score(self, p) for p in range(1, self.game.num_players + 1)]
        except PYTHON_ERRORS as error:
            raise located(self, error, "computing the scores") from error

    def broken_invariants(self) -> list:
        """The names of the game's invariants that do not hold in this state."""
        self.game.memo_reset(self)
        try:
            return [name for name, holds, _ in self.game.invariants if not holds(self, {})]
        except PYTHON_ERRORS as error:
            raise located(self, error, "checking the invariants") from error

    def view(self, player: int) -> dict:
        return make_view(self, player)

    def __str__(self):
        from .render import render_view
        return render_view(self.view(self.current_player() or 1))
