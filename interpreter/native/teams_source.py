"""Teams and the outcomes they give in a native kernel (a mixin of rules_source.KernelSource):
the header's `teams p: EXPR` as `team_of(S, cur, p)`, `finish winners team X` (the members of
team X win; a team without members is the engine's error, played in Python), `finish lost`
(every player loses), and the outcome the engine reports at the end (State.outcome).

The kernel keeps the outcome in its winners slot beside the winners' bits (bit p: player p
won): bit 0 says every player lost (`finish lost`), and, when several winners are exactly the
members of one team, that team's code plus one lies above TEAM_SHIFT (the record's "team"). A
team is coded as any value in the kernel (layout.py): an enum member by its position, a seat by
its number, a bool 0/1, an int as it is (one outside 0..TEAM_CODES: played in Python).
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL, INT, PLAYER, named_type

from .not_native import NotNative

ALL_LOST = 1                # the winners slot's bit 0: `finish lost`
TEAM_SHIFT = 32             # the winning team's code + 1, above the winners' bits
TEAM_CODES = 1 << 30        # the team codes the slot holds
MOST_TEAM_PLAYERS = TEAM_SHIFT - 1


def untag(node):
    return ast.untag(node)[0]


class TeamsSource:
    """The header's teams, `finish winners team X`, `finish lost` and the team outcome for
    KernelSource (its `expr`, `define`, `type_of`, `players`)."""

    def teams_field(self):
        header = self.program.game
        return next((f for f in (header.fields if header is not None else ()) if isinstance(f, ast.TeamsField)), None)

    def teams(self, scope_class) -> None:
        """team_of(S, cur, p): the team of player p; mark_outcome(S): the team outcome, at the end."""
        field = self.teams_field()
        if field is None:
            self.define("def mark_outcome(S):", ["pass"])
            return
        if self.players > MOST_TEAM_PLAYERS:
            raise NotNative(f"teams of more than {MOST_TEAM_PLAYERS} players", field.span)
        t = self.type_of(field.expr).without_none()
        if t not in (INT, BOOL, PLAYER) and named_type(t) not in self.game.enum_members:
            raise NotNative(f"teams of type {t.text}", field.expr.span)
        scope = scope_class({field.player_name: "p"})
        none = self.none_of(self.type_of(field.expr))
        self.define("def team_of(S, cur, p):", [f"return {self.expr(field.expr, scope, self.type_of(field.expr))}"])
        self.define("def team_members(S, team):", [
            "mask = 0", "for p in range(1, PLAYERS + 1):", "    if team_of(S, S[CURRENT], p) == team:",
            "        mask |= 1 << p", "return mask"])
        self.define("def mark_outcome(S):", [
            "\"\"\"Several winners who are exactly the members of one team: that team, above TEAM_SHIFT.\"\"\"",
            "winners = S[WINNERS]", "if winners & 1 or winners & (winners - 1) == 0:",
            "    return                      # (lost, no winner or one: no team outcome)",
            "first = 1", "while not winners >> first & 1:", "    first += 1",
            "team = team_of(S, S[CURRENT], first)",
            f"if team == {none} or team_members(S, team) != winners:", "    return",
            f"if team < 0 or team >= {TEAM_CODES}:", "    S[ERROR] = 1", "    return",
            f"S[WINNERS] = winners | ((team + 1) << {TEAM_SHIFT})"])

    def finish_statement(self, node, scope):
        """The lines of `finish winners team X` and `finish lost`, or None for other statements."""
        if isinstance(node, ast.FinishTeam):
            field = self.teams_field()
            if field is None:
                raise NotNative("finish winners team in a game without teams", node.span)
            team = self.expr(node.team, scope, self.type_of(node.team))
            return ["S[TERMINAL] = 1", f"S[WINNERS] = team_members(S, {team})",
                    "if S[WINNERS] == 0:            # (a team without members: the engine's error)",
                    "    S[ERROR] = 1", "return"]
        if isinstance(node, ast.FinishLost):
            return ["S[TERMINAL] = 1", f"S[WINNERS] = {ALL_LOST}", "return"]
        return None


def outcome_of(game, mask: int) -> dict:
    """The record's winners, outcome and team of a finished game from the kernel's winners slot."""
    players = range(1, game.num_players + 1)
    if mask & ALL_LOST:
        return {"winners": [], "outcome": "lost", "team": None}
    winners = [p for p in players if mask >> p & 1]
    team = mask >> TEAM_SHIFT
    if team:
        return {"winners": winners, "outcome": "team", "team": team_label(game, team - 1)}
    return {"winners": winners, "outcome": "draw" if not winners else "win" if len(winners) == 1 else "shared",
            "team": None}


def team_label(game, code: int) -> str:
    """The label of a team's code (runtime.values.plain_label of the engine's value)."""
    from ..runtime.values import plain_label
    t = game.compiler.checked.type_of(untag(teams_expression(game))).without_none()
    if named_type(t) in game.enum_members:
        return plain_label(game.enum_members[named_type(t)][code])
    if t == BOOL:
        return plain_label(bool(code))
    return plain_label(code)


def teams_expression(game):
    header = game.program.game
    return next(f.expr for f in header.fields if isinstance(f, ast.TeamsField))
