"""Decisions inside a step: `play A, B by P` (P plays one move of those actions, and the step
goes on after it) and `respond` windows (players asked in a declared order whether to play one;
the first who does closes the window). Each is a choice of the step it stands in: the step
stops (steps.py's Pending), the legal moves of P are the options, and the step resumes with the
move played. A window inside the effect of a response is one more decision nested in the step."""
from __future__ import annotations

from referee.dsl.limits import MAX_DECISION_DEPTH

from ..runtime import seat
from ..runtime.errors import DeadEnd, NeedChoice, RulesRuntimeError
from .moves import SKIP, move_name, named_moves
from .steps import action_steps

DEPTH = "#decisions"        # the decisions under way in a step, kept in the state's environment


class NeedMove(NeedChoice):
    """A choice among a player's moves: `moves` are their (action index, arguments), None for
    the skip (the action space numbers them as the actions' moves)."""

    def __init__(self, moves, names, chooser, prompt, public_names):
        super().__init__(moves, names, chooser, prompt, public_names)
        self.moves = moves


def decided(s, need):
    """The option chosen: the next of the choices a replayed step made already, or asked (the
    step stops here until the engine sends it back)."""
    cursor = s.cursor
    if cursor < len(s.choices):
        s.cursor = cursor + 1
        return s.choices[cursor]
    return (yield need)


def decision_steps(s, actions, player, optional, span, prompt, asked_anyway=False):
    """`play A, B by P`: P plays one legal move of those actions as the player to move, then
    the step goes on with the player to move as before. True if P played, False if P skipped
    (`optional`: also when P has no legal move, passed over unless `asked_anyway`: then P is
    asked with the skip as the only option, so that nobody learns P had no move)."""
    env = s.env
    depth = env.get(DEPTH, 0) + 1
    if depth > MAX_DECISION_DEPTH:
        raise RulesRuntimeError(f"decisions nested deeper than {MAX_DECISION_DEPTH} (a move played inside the "
                                f"effect of a move played inside ...): do the rules call themselves?", span)
    player = seat(s, player, "a move", span)
    before = s.current
    s.current = player
    moves, names = named_moves(s, actions)
    if not moves and not (optional and asked_anyway):
        s.current = before
        if optional:
            return False
        raise DeadEnd(f"P{player} must play ({', '.join(s.game.actions[i].name for i in actions)}) "
                      f"but has no legal move", span)
    labelers = s.game.public_binder_labelers
    public = [name if labelers.get(index) is None else move_name(s, index, args, labelers[index])
              for (index, args), name in zip(moves, names)]
    if optional:
        moves.append(None)
        names.append(SKIP)
        public.append(SKIP)
    k = yield from decided(s, NeedMove(moves, names, player, prompt, public))
    chosen = moves[k]
    if chosen is not None:
        env[DEPTH] = depth
        yield from action_steps(s, *chosen)
        if depth > 1:
            env[DEPTH] = depth - 1
        else:
            del env[DEPTH]
    s.current = before
    return chosen is not None


def respond_steps(s, players, actions, span, prompt, everyone=False):
    """A response window: each player in turn (in the order given) may play one move of the
    actions or skip; the first who plays closes it (True). A player with no legal move is not
    asked, unless `everyone` (`respond every`): then asked, to skip. False when nobody responded."""
    for player in players:
        responded = yield from decision_steps(s, actions, player, True, span, prompt, everyone)
        if responded:
            return True
    return False
