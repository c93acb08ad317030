"""How generated steps choose and end: options told apart by their names, a game finished,
steps run where no choice may wait, coverage counters around listings and invariants."""
from __future__ import annotations

from .errors import Finished, SameNamedMoves, UnlocatedRulesError
from .values import plain_label, same_value


EMPTY_OPTION = "nothing"     # the name of an option whose label is empty (the empty list), so it can be typed


def distinct_options(s, options, labeler, components, span):
    """Options that look the same (identical cards) are one option: (options, their names),
    the names None where the choice is not asked (one option). Two different options with one
    name are refused: the chooser could not tell them apart. Components that all look alike
    are still asked about unless every seat sees them all: the others would learn that the
    chooser held identical ones."""
    if len(options) <= 1:
        return options, None
    names, kept, first = [], [], {}
    for value in options:
        label = labeler(s, value) or EMPTY_OPTION
        if label not in first:
            first[label] = value
            names.append(label)
            kept.append(value)
        elif not (value == first[label] or (components and same_value(s, value, first[label]))):
            raise SameNamedMoves(f"two different options of this choice have the same name '{label}'; "
                                 f"their labels must tell them apart", span)
    if len(kept) == 1 and not (components and not all(seen_by_all(s, x) for x in options)):
        return kept, None
    return kept, names


def seen_by_all(s, x) -> bool:
    """Whether every seat sees component x as it is: in a public zone (or on top of a `top`
    one) or revealed to every seat, with no owner-only attribute; a list of components when
    every seat sees each of them."""
    if x.__class__ is list:
        return all(seen_by_all(s, item) for item in x)
    game = s.game
    if s.entities[x]["__type__"] in game.private_fields:
        return False
    key = s.loc[x]
    if key is None:
        return False
    visibility = game.zone_meta[key if key.__class__ is str else key[0]][1]
    if visibility == "public" or (visibility == "top" and s.zones[key][-1] == x):
        return True
    seats = s.shown_to.get(x) or ()
    return all(p in seats for p in range(1, game.num_players + 1))


def distinct_labelled(s, options, components, span):
    """distinct_options of components or board cells, named by their labels: the labels read
    at once, and when no two are alike (the common case) every option kept as it is."""
    if len(options) <= 1:
        return options, None
    entities = s.entities
    names = [entities[v]["__label__"] if v is not None else "none" for v in options]
    if len(set(names)) == len(names):
        return options, names
    return distinct_options(s, options, label_of_entity, components, span)


def label_of_entity(s, v):
    """The label of a component or a board cell (Game.labeler's, for distinct_labelled)."""
    return s.entities[v]["__label__"] if v is not None else "none"


def can_play(s, legal, player):
    """Whether an action has a legal move now, for `player` (the player to move if none)."""
    if player is None or player == s.current:
        return bool(legal(s)[0])
    saved = s.current
    s.current = player
    try:
        return bool(legal(s)[0])
    finally:
        s.current = saved


class AllLost(list):
    """The winners of a game that every player lost (`finish lost`): none, as in a draw, but
    State.outcome() says "lost"."""


def finish(s, winners, how=None):
    """End the game: these winners; how="team": the members of the team `winners`; how="lost":
    nobody wins, every player loses."""
    seats = s.game.num_players
    if how == "team":
        team, teams = winners, s.game.teams
        winners = [p for p in range(1, seats + 1) if teams(s, p) == team]
        if not winners:
            raise UnlocatedRulesError(f"no player is in the team {plain_label(team)}")
    strangers = [w for w in winners if w.__class__ is not int or not 1 <= w <= seats]
    if strangers:
        shown = "none" if strangers[0] is None else repr(strangers[0])
        raise UnlocatedRulesError(f"the winners must be players of this game (1..{seats}), not {shown}")
    s.winners = sorted(set(winners)) if how != "lost" else AllLost()
    raise Finished()


def without_choice(steps, s=None):
    """Run a generator of steps where no choice can be waited for (the setup, a procedure
    called from a test): the first choice it reaches stops it with NeedChoice."""
    for need in steps:
        raise need


def counting_legal(enumerate, counts, k):
    """An action's enumerator that counts the decisions where the action is legal (coverage)."""
    def listed(s):
        found = enumerate(s)
        if found[0]:
            counts[k] += 1
        return found
    return listed


def counting_invariant(holds, counts, k):
    """An invariant that counts its checks, and how often it held (coverage)."""
    def check(s, e):
        counts[k] += 1
        value = holds(s, e)
        if value:
            counts[k + 1] += 1
        return value
    return check


class SeatTexts(dict):
    """Seat -> its text in a log line (P1, P2...), filled as seats are asked: one lookup."""

    def __missing__(self, seat):
        return "none" if seat is None else self.setdefault(seat, f"P{seat}")


class RuleText(str):
    """A refusal that the rules give no reason for: the text of the rule that says no."""
