"""Decisions inside a step in a native kernel (a mixin of rules_source.KernelSource): `choose`,
`play ... by` and `respond`, each a nested random choice drawn as the Python engine and its RandomBot
draw it (engine/decisions.py, runtime/steps.py `distinct_options`).

A function that may decide (an action's effect, a procedure, the flow) takes the decision's
arrays beside the state: the bot's generator `mt`, the moves' buffer `buf`, `max_moves` and
the analyze trail `T` (DECISION_ARGUMENTS); the others keep their signatures. A decision is a
move: counted in S[MOVES], stopped at max_moves (S[STOPPED], every caller returns), written
to the trail with the action code CHOICE (analyze's "(choice)").

`choose x in L where C by P { ... }`: the options that pass the filter, those that look the
same (components of one label class, equal values of a list) kept once, the first (two
components of one label that are not identical: the engine's error, played in Python); with
none the body is skipped, with one it is taken without a draw, unless the options are
components that not every seat sees (the others would learn the chooser held identical ones).
`play A, B by P`: P's legal moves of those actions (listed as a turn lists them, into `buf`),
`skip` last when optional; the move drawn runs as P, then the triggers, and the step goes on
with the player to move as before. A play by P with no legal move is a dead end (Python's
error): the game is played in Python. `respond p in ORDER { play A }`: each player in turn
asked as by `play optional` (one with no legal move passed over, or with `respond every` asked
to skip), the first who plays closing the window, the `else` block when nobody did.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.limits import MAX_DECISION_DEPTH
from referee.dsl.types import BOOL, INT, PLAYER, TEXT, named_type

from .not_native import NotNative

DECISION_ARGUMENTS = ", mt, buf, max_moves, T"
CHOICE = -2             # the trail's action code of a decision inside a step (-1: a skip, rules_source.SKIP)
DECIDING = (ast.Choose, ast.PlayBy, ast.Respond)
STOPPED_HERE = ["if S[TERMINAL] or S[ERROR] or S[STOPPED]:", "    return"]
VISIBILITY = {"public": 1, "top": 2}        # a zone's cells as seen by all (else 0: not by all)


def untag(node):
    return ast.untag(node)[0]


def indented(lines: list) -> list:
    return ["    " + line for line in lines or ["pass"]]


class DecisionsSource:
    """`choose` and `play ... by` for KernelSource (its expr, block, domain_loop, fresh, define,
    choice, after_move...)."""

    def find_decisions(self) -> None:
        """The procedures and actions that may decide (themselves or in what they call or play):
        those take DECISION_ARGUMENTS. Refused: a trigger that decides, and an action played by
        a player inside its own effect (the kernel does not recurse)."""
        procedures = {p.name: p for p in self.program.of_kind(ast.Procedure)}
        actions = {a.name: a for a in self.program.of_kind(ast.Action)}
        bodies = {**{n: p.body for n, p in procedures.items()}, **{n: a.body for n, a in actions.items()}}
        calls, plays, direct = {}, {}, set()
        for name, body in bodies.items():
            nodes = list(ast.walk(body))
            calls[name] = {n.name for n in nodes if isinstance(n, ast.CallStatement)}
            plays[name] = {a for n in nodes if isinstance(n, (ast.PlayBy, ast.Play)) for a in n.actions}  # (a respond's play)
            if any(isinstance(n, DECIDING) or self.is_chance_node(n) for n in nodes):     # (chance_source.py)
                direct.add(name)
        deciding = set(direct)
        changed = True
        while changed:
            changed = False
            for name in bodies:
                if name not in deciding and calls[name] & deciding:
                    deciding.add(name)
                    changed = True
        self.deciding = deciding
        self.has_triggers = bool(self.program.of_kind(ast.Trigger))       # (after_move reads it)
        self.find_deciding_triggers()       # (triggers_source.py)
        self.decision_depth(actions, calls, plays)
        components = self.game.types.components
        chooses = [n for n in ast.walk(self.program.parts()) if isinstance(n, ast.Choose)]
        self.tracks_shown = any(isinstance(n, ast.Reveal) for n in ast.walk(self.program.parts())) and any(
            named_type(self.checked.local_types[n.binder.span]) in components for n in chooses)
        self.shown_at = None

    @staticmethod
    def decision_depth(actions, calls, plays) -> None:
        """The decisions nested in one step, at most: refused past the engine's limit, or where an
        action is played inside its own effect (through calls and plays)."""
        def reached(name, path):
            if name in path:
                raise NotNative(f"the action {name} is played inside its own effect", actions[name].span)
            deepest, stack, seen = 0, [name], set()
            while stack:                    # (the procedures it calls, then the actions they play)
                at = stack.pop()
                if at in seen:
                    continue
                seen.add(at)
                stack.extend(calls.get(at, ()))
                for played in plays.get(at, ()):
                    deepest = max(deepest, 1 + reached(played, path | {name}))
            return deepest
        for name in actions:
            if reached(name, frozenset()) >= MAX_DECISION_DEPTH:
                raise NotNative(f"decisions nested deeper than {MAX_DECISION_DEPTH}", actions[name].span)

    def decision_arguments(self, name: str) -> str:
        """What a procedure's or an action's header and calls add: the decision's arrays, if it decides."""
        return DECISION_ARGUMENTS if name in self.deciding else ""

    def decision_prologue(self, seat: str) -> list:
        """Lines run where a decision is asked of `seat` (verify checks its invariants there)."""
        return []

    def decision_statement(self, node, scope):
        """The lines of a decision, or None for other statements."""
        if isinstance(node, ast.Choose):
            return self.choose(node, scope)
        if isinstance(node, ast.PlayBy):
            return self.play_by(node, scope)
        if isinstance(node, ast.Respond):
            return self.respond(node, scope)
        return None

    # ---- the draw ----------------------------------------------------------------------------
    def decided(self, options: str, seat: str, chosen: str) -> list:
        """One of `options` drawn into `chosen` as a move of `seat` (the bot's draw, counted,
        written to the trail), or the step stopped at max_moves."""
        return [*self.decision_prologue(seat),
                "if S[MOVES] >= max_moves:", "    S[STOPPED] = 1", "    return",
                f"n = {options}", f"{chosen} = {self.choice}",
                "if len(T) > 1:", "    at = 3 * S[MOVES]", "    if at + 3 > len(T):", "        S[ERROR] = 1",
                "        return", f"    T[at], T[at + 1], T[at + 2] = n, {CHOICE}, {seat}",
                "S[MOVES] += 1"]

    def seat_checked(self, node, scope) -> tuple:
        """(the lines that bind a decision's seat, checked, its name)."""
        seat = self.fresh("seat")
        value = self.expr(node, scope, PLAYER) if node is not None else "cur"
        return [f"{seat} = {value}", f"if {seat} < 1 or {seat} > PLAYERS:", "    S[ERROR] = 1", "    return"], seat

    # ---- play ... by, respond ----------------------------------------------------------------
    def play_by(self, node, scope) -> list:
        """`play A, B by P` (decisions.decision_steps)."""
        lines, seat = self.seat_checked(node.player, scope)
        return lines + self.asked_play(node.actions, seat, node.optional, node.span)

    def respond(self, node, scope) -> list:
        """`respond p in ORDER where C { play A } else { BODY }` (decisions.respond_steps): the
        players found first; each in turn asked as by `play optional`, the first who plays
        closing the window; the else block when nobody did."""
        play = untag(node.body[0])
        var, order, count, k, responded = (self.fresh(p) for p in ("L_", "order", "count", "k", "responded"))
        loop, capacity = self.domain_loop(node.binder, scope, var)
        inner = scope.child(**{node.binder.name: var})
        where = [f"if not ({self.expr(node.binder.condition, inner, BOOL)}):", "    continue"] \
            if node.binder.condition is not None else []
        seat = self.fresh("seat")
        asked = [f"{seat} = {order}[{k}]", f"if {seat} < 1 or {seat} > PLAYERS:", "    S[ERROR] = 1", "    return",
                 *self.asked_play(play.actions, seat, True, node.span, responded, node.everyone),
                 f"if {responded}:", "    break"]
        lines = [*loop[:-1], f"{order} = np.empty({capacity}, dtype=np.int64)", f"{count} = 0", loop[-1],
                 *indented(where + [f"{order}[{count}] = {var}", f"{count} += 1"]),
                 f"{responded} = False", f"for {k} in range({count}):", *indented(asked)]
        if node.orelse:
            lines += [f"if not {responded}:", *indented(self.block(node.orelse, scope, flow=False))]
        return lines

    def asked_play(self, actions, seat: str, optional: bool, span, responded: str = "", everyone: bool = False) -> list:
        """`seat` plays one of its legal moves of the actions, listed into buf (none: a dead end,
        or passed over when optional, unless `everyone`: asked to skip, the skip drawn last);
        `responded` set if it played."""
        for name in actions:
            if name not in self.actions:
                raise NotNative(f"play {name}", span)
        listed, chosen, saved = self.fresh("listed"), self.fresh("chosen"), self.fresh("before")
        lines = [f"S[CURRENT] = {seat}"]
        lines += [f"{listed} = moves_{name}(S, {seat}, buf, {'0' if k == 0 else listed})"
                  for k, name in enumerate(actions)]
        lines += ["if S[ERROR]:", "    return"]
        played = ["move = buf[" + chosen + "]", "kind = move // MOVE_BASE", f"{saved} = cur", f"cur = {seat}"]
        played += [f"{responded} = True"] if responded else []
        for name in actions:
            index = self.actions[name][0]
            played += [f"if kind == {index}:",
                       f"    run_{name}{self.level_copy('action', name)}(S, cur, move{self.decision_arguments(name)})"]
        played += [*self.after_move(), *STOPPED_HERE, f"cur = {saved}"]
        asked = self.decided(f"{listed} + 1" if optional else listed, seat, chosen)
        asked += [f"if {chosen} < {listed}:", *indented(played), "S[CURRENT] = cur"]
        if everyone:            # (`respond every`: asked even with no move, as decisions.decision_steps)
            return lines + asked
        passed_over = [f"if {listed} == 0:", "    S[CURRENT] = cur"] + ([] if optional else ["    S[ERROR] = 1", "    return"])
        return lines + passed_over + ["else:", *indented(asked)]

    # ---- choose ------------------------------------------------------------------------------
    def choose(self, node, scope) -> list:
        """`choose x in L where C by P { BODY }` (lower_statements.visit_Choose, steps.distinct_options)."""
        binder = node.binder
        t = self.checked.local_types[binder.span]
        element = named_type(t)
        if element not in self.choice_kinds():          # (a list, a set: no name)
            raise NotNative(f"a choice among values of type {t.text} has no native form yet", binder.span)
        components = element in self.game.types.components
        if components and ({f.name for f in self.game.types.components[element].fields} | {"owner"}) \
                & self.game.types.changed_attributes:
            raise NotNative(f"a choice among {element}s whose attributes change (their labels would)", binder.span)
        var, options, count, kept, chosen = (self.fresh(p) for p in ("L_", "options", "count", "kept", "chosen"))
        loop, capacity = self.domain_loop(binder, scope, var)
        inner = scope.child(**{binder.name: var})
        where = [f"if not ({self.expr(binder.condition, inner, BOOL)}):", "    continue"] \
            if binder.condition is not None else []
        lines = [*loop[:-1], f"{options} = np.empty({capacity}, dtype=np.int64)", f"{count} = 0", loop[-1],
                 *indented(where + [f"{options}[{count}] = {var}", f"{count} += 1"])]
        seat_lines, seat = self.seat_checked(node.chooser, scope)
        if components:
            seen = self.fresh("seen")
            alike = [f"{seen} = all_seen(S, {options}, {count})", f"{kept} = distinct_components(S, {options}, {count})",
                     "if S[ERROR]:", "    return"]
            asked = f"{count} > 1 and ({kept} > 1 or not {seen})"
            self.component_choices()
        elif self.may_repeat(binder.domain, scope):
            alike, asked = [f"{kept} = distinct_values({options}, {count})"], f"{kept} > 1"
            self.value_choices()
        else:
            alike, asked = [f"{kept} = {count}"], f"{kept} > 1"
        body = self.block(node.body, scope.child(**{binder.name: var}), flow=False)
        chosen_lines = [*alike, f"{chosen} = 0", f"if {asked}:",
                        *indented(seat_lines + self.decided(kept, seat, chosen)),
                        f"{var} = {options}[{chosen}]", *body]
        return lines + [f"if {count} > 0:", *indented(chosen_lines)]

    def choice_kinds(self) -> set:
        """The types whose values a kernel's choice codes: ints, seats, texts (list_vars_source's
        codes), enum members, cells, components."""
        return {INT.name, BOOL.name, PLAYER.name, TEXT.name, *self.game.enum_members, *self.ids_of_type}

    def may_repeat(self, domain, scope) -> bool:
        """Whether a domain's values may repeat (a list; not a zone, a type, a range or players)."""
        domain = untag(domain)
        if isinstance(domain, ast.Name) and (domain.id in self.game.enum_members or domain.id in self.ids_of_type
                                             or domain.id == "players") and domain.id not in scope.names:
            return False
        return not (isinstance(domain, ast.Range) or self.is_zone(domain, scope))

    def value_choices(self) -> None:
        if getattr(self, "has_value_choices", False):
            return
        self.has_value_choices = True
        self.define("def distinct_values(options, count):",
                    ["kept = 0", "for i in range(count):", "    x = options[i]", "    fresh = True",
                     "    for j in range(kept):", "        if options[j] == x:", "            fresh = False",
                     "            break", "    if fresh:", "        options[kept] = x", "        kept += 1",
                     "return kept"])

    def component_choices(self) -> None:
        """The helpers of choices among components (once per kernel): which look alike, which
        every seat sees (by their zones' visibility: a game that reveals goes to Python there)."""
        if getattr(self, "has_component_choices", False):
            return
        self.has_component_choices = True
        visibility = [0] * self.zone_cells
        for name, family in self.zone_families.items():
            seen = VISIBILITY.get(self.game.zone_meta[name][1], 0)
            visibility[family.first_cell:family.first_cell + self.cells_of(family)] = [seen] * self.cells_of(family)
        private = [int(t in self.game.private_fields) for t in self.component_types]
        self.defs.append(f"CELL_SEEN = np.array([{', '.join(map(str, visibility))}], dtype=np.int64)\n"
                         f"PRIVATE_TYPE = np.array([{', '.join(map(str, private))}], dtype=np.int64)\n"
                         f"ALL_SEATS = {sum(1 << p for p in range(1, self.players + 1))}")
        self.define("def all_seen(S, options, count):",
                    ["for i in range(count):", "    x = options[i]",
                     f"    if x < 0 or x >= COMPONENTS or PRIVATE_TYPE[{self.kind_read('x')}]:", "        return False",
                     "    cell = S[LOC + x]", "    if cell < 0:", "        return False",
                     "    if CELL_SEEN[cell] == 1 or (CELL_SEEN[cell] == 2 and zone_top(S, cell) == x):",
                     "        continue", "    if SHOWN < 0 or (S[SHOWN + x] & ALL_SEATS) != ALL_SEATS:",
                     "        return False", "return True"])
        self.define("def distinct_components(S, options, count):",
                    ["kept = 0", "for i in range(count):", "    x = options[i]",
                     "    if x < 0 or x >= COMPONENTS:", "        S[ERROR] = 1", "        return kept",
                     "    fresh = True", "    for j in range(kept):", "        y = options[j]",
                     f"        if {self.label_read('x')} == {self.label_read('y')}:",
                     f"            if x != y and {self.same_read('x')} != {self.same_read('y')}:",
                     "                S[ERROR] = 1             # (two options of one name: the engine's error)",
                     "                return kept", "            fresh = False", "            break",
                     "    if fresh:", "        options[kept] = x", "        kept += 1", "return kept"])

    # ---- who saw what ------------------------------------------------------------------------
    def shown_offset(self) -> int:
        """Where each component's seats that saw it (a bit mask, as `reveal` shows it: runtime
        chance.reveal_to) lie in S, or -1: kept only in a game that reveals and asks a choice
        among components (runtime steps.seen_by_all), placed after the rest of S."""
        if not self.tracks_shown:
            return -1
        if self.shown_at is None:
            self.shown_at = self.size
            self.size += self.components
        return self.shown_at

    def reveal(self, node, scope) -> list:
        """`reveal X to P` where who saw what is kept (a told attribute is not the component seen)."""
        what = untag(node.what)
        if self.shown_offset() < 0 or isinstance(what, ast.Attribute):
            return []
        t = self.type_of(what)
        items = f"np.array([{self.expr(what, scope, t)}])" if named_type(t) in self.game.types.components \
            else self.sequence(what, scope)
        seats = self.type_of(node.players)
        players = f"np.array([{self.expr(node.players, scope, seats)}])" if seats.without_none() == PLAYER \
            else self.expr(node.players, scope, seats)
        self.reveal_helper()
        return [f"reveal_to(S, {items}, {players})"]

    def reveal_helper(self) -> None:
        if getattr(self, "has_reveal", False):
            return
        self.has_reveal = True
        self.define("def reveal_to(S, items, players):",
                    ["mask = 0", "for p in players:", "    if 1 <= p <= PLAYERS:", "        mask |= 1 << p",
                     "for x in items:", "    if 0 <= x < COMPONENTS:", "        S[SHOWN + x] |= mask"])


__all__ = ["DECISION_ARGUMENTS", "CHOICE", "DecisionsSource"]
