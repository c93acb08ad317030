"""Driving steps: a move applied, actions, triggers and the flow run, choices stopped and resumed,
simultaneous moves, and a state's copy before a step made again from its seed and moves."""
from __future__ import annotations

from functools import partial
from typing import Optional

import attrs

from referee.dsl import ast
from referee.dsl.limits import MAX_STEP_ROUNDS, MAX_STEP_WORK

from ..runtime import LOOP_CAP, seat
from ..runtime.errors import DeadEnd, Finished, IllegalMove, NeedChoice, RulesRuntimeError
from .moves import move_name, public_text


@attrs.define
class Pending:
    """A step stopped at a choice. The state that stopped (`owner`) goes on by sending the
    chosen option to `steps`, the step's generator, which resumes where it stopped. A clone
    of it replays instead: `runner` on a copy of `snapshot` with the `choices` made so far."""
    snapshot: object
    runner: object
    may_choose: bool
    choices: tuple
    names: list
    chooser: int
    prompt: str
    public_names: Optional[list] = None     # the options as the other players see them
    weights: Optional[list] = None          # at a chance node: how likely each option is (relative)
    steps: object = attrs.field(default=None, eq=False)   # the stopped generator (resumed once, by its owner)
    owner: object = attrs.field(default=None, eq=False)
    current: int = attrs.field(default=None, eq=False)     # whose turn it was when the step stopped
    moves: Optional[list] = None     # a decision's (decisions.py): the (action, arguments) of each option
    options: Optional[list] = attrs.field(default=None, eq=False)   # the options' values, with `numbering`
    numbering: Optional[tuple] = attrs.field(default=None, eq=False)  # NeedChoice's, for the adapters


def setup_snapshot(s):
    """A copy of a state before or during its setup, to replay the setup from: the
    components are still being created, so it keeps its own lists of them."""
    copy = s.clone()
    copy.entities = list(s.entities)
    copy.columns = [column[:] for column in s.columns]
    copy.by_type = {k: list(v) for k, v in s.by_type.items()}
    return copy


def action_steps(s, index, args):
    """An action and the triggers it sets off, as steps: a choice yields."""
    action = s.game.actions[index]
    if action.steps is not None:
        yield from action.steps(s, *args)
    else:
        action.run(s, *args)
    yield from trigger_steps(s)


def trigger_steps(s):
    game = s.game
    if not game.triggers_may_choose:
        run_triggers(s)
        return
    for _ in range(LOOP_CAP):
        fired = yield from game.fire_one_trigger(s)
        if not fired:
            return
    raise RulesRuntimeError("triggers keep firing: a trigger's effect must make its condition false",
                            game.trigger_span)


def play_steps(state, index, args):
    """action_steps, then on to the next instruction of the flow (one generator, not three,
    when the triggers cannot choose)."""
    game = state.game
    action = game.actions[index]
    if action.steps is not None:
        yield from action.steps(state, *args)
    else:
        action.run(state, *args)
    if game.triggers_may_choose:
        yield from trigger_steps(state)
    elif game.fire_one_trigger is not None:      # (a game without triggers: no call)
        run_triggers(state)
    state.pc += 1


def play_runner(index, args):
    """The step of a move played in a turn: runner(state) -> its generator."""
    return partial(play_steps, index=index, args=args)


def run_triggers(s, fired=0):
    fire = s.game.fire_one_trigger
    if fire is None:
        return
    for _ in range(LOOP_CAP - fired):
        if not fire(s):
            return
    raise RulesRuntimeError("triggers keep firing: a trigger's effect must make its condition false",
                            s.game.trigger_span)


def run_step(s, runner, may_choose):
    """Run one indivisible step (runner(state): a generator); if it reaches a choice not yet
    made, keep the stopped generator, and a copy of the state from before the step so that a
    clone can replay it. A state that its seed and moves make again takes no copy (most steps
    that may choose reach no choice): a clone that replays the step has it made then
    (rebuild_snapshot)."""
    snapshot = (Unbuilt(s.rng) if s.rebuildable else s.snapshot()) if may_choose else None
    s.choices, s.cursor = (), 0
    drive(s, runner(s), snapshot, runner, ())


STEP_DONE = object()       # what next() gives for a step that ended (drive)


def drive(s, steps, snapshot, runner, choices, answer=None):
    """Run a step's generator on until it ends or waits for a choice (then s is pending). A
    step started (answer None) is begun by next(): its end raises no StopIteration to catch."""
    try:
        if answer is None:
            need = next(steps, STEP_DONE)
            if need is STEP_DONE:
                return
        else:
            need = steps.send(answer)
    except StopIteration:
        return
    except Finished:
        return
    if snapshot is None:
        raise RulesRuntimeError("a choice was reached where none was expected")
    s.pending = Pending(snapshot, runner, True, choices, need.names, need.chooser, need.prompt,
                        need.public_names, need.weights, steps, s, s.current, getattr(need, "moves", None),
                        need.options if need.numbering is not None else None, need.numbering)
    s.current = need.chooser


def apply_move(s, move):
    game = s.game
    game.step_budget[:] = (MAX_STEP_ROUNDS, MAX_STEP_WORK)
    s._legal = None
    name = move.name
    if s.shared:
        s.own_trails()
    s.history.append(name)
    if move.kind == "action" and game.flow[s.pc].op == "play":
        # the common case, without a closure: an action played in a turn
        index, args = move.action, move.args
        labelers = game.public_binder_labelers.get(index)
        s.public_history.append((s.current, name if labelers is None else move_name(s, index, args, labelers)))
        action = game.actions[index]
        if action.may_choose or game.triggers_may_choose:
            run_step(s, play_runner(index, args), True)
        else:
            s.choices, s.cursor = (), 0
            try:
                # the move is one of the legal moves just listed: its guard holds
                action.run_legal(s, *args)
                fire = game.fire_one_trigger
                if fire is not None and fire(s):
                    run_triggers(s, fired=1)     # (the first test inline: most moves fire none)
                s.pc += 1
            except Finished:
                pass
            except NeedChoice:
                raise RulesRuntimeError("a choice was reached where none was expected")
        if not s.terminal and s.pending is None:      # (advance, inline: every move comes here)
            game.run_flow(s)
        return
    s.public_history.append((s.current, public_text(s, move)))
    if move.kind == "choice":
        pending = s.pending
        choices = pending.choices + move.args
        if pending.steps is not None and pending.owner is s:
            # the state that stopped goes on from where its step stopped
            steps, pending.steps = pending.steps, None
            s.pending = None
            s.current = pending.current      # the chooser was only asked: the step goes on as it was
            drive(s, steps, pending.snapshot, pending.runner, choices, move.args[0])
            s._legal = None
            advance(s)
            return
        # a clone of a stopped state: the step again, from the copy taken before it
        if pending.snapshot.__class__ is Unbuilt:
            rebuild_snapshot(s, pending)
        new = pending.snapshot.clone() if pending.runner != game.setup_runner else setup_snapshot(pending.snapshot)
        new.history = s.history
        new.public_history = s.public_history
        if pending.snapshot.log_at is not None:
            new.log = pending.snapshot.log[:pending.snapshot.log_at]     # the log before the step
        new.pending = None
        new.choices, new.cursor = choices, 0
        drive(new, pending.runner(new), pending.snapshot, pending.runner, choices)
        new._legal = None
        s._become(new)
        advance(s)
        return
    instruction = game.flow[s.pc]
    if move.kind == "skip":
        s.pc += 1
    elif instruction.op == "simultaneous":
        remaining, sealed = s.env[instruction.key]
        s.env[instruction.key] = (remaining[1:], sealed + ((s.current, move.action, move.args),))
    else:
        action = game.actions[move.action]
        run_step(s, play_runner(move.action, move.args), action.may_choose or game.triggers_may_choose)
    advance(s)


class Unbuilt:
    """The copy from before a step, not taken (run_step): rebuild_snapshot makes it when asked."""
    __slots__ = ("rng",)

    def __init__(self, rng):
        self.rng = rng          # the random source before the step: the copy made must have it


def replayed(s, moves, rebuildable=True):
    """A new state: s's seed and its first `moves` moves played again, the rule coverage
    counts left as they were (those moves were counted when they were first played)."""
    coverage = s.game.coverage
    counted = list(coverage.counts) if coverage is not None else None
    try:
        again = s.game.new_initial_state(s.seed)
        again.rebuildable = rebuildable and again.rebuildable
        for name in s.history[:moves]:
            again.apply(name)
    finally:
        if counted is not None:
            coverage.counts[:] = counted
    return again


def rebuild_snapshot(s, pending, applying=True):
    """The copy from before a stopped step that took none, for a clone of its state to replay
    the step from: the state that stopped, played again from its seed and moves by a state
    that copies before its steps. The copy is kept in the stopped step, which the state and
    all its clones share: the game is played again at most once per stopped step. `applying`:
    s's last move is the choice being applied (not played again)."""
    game = s.game
    try:
        # (the last move is the choice being applied; the copy takes copies before its steps)
        again = replayed(s, len(s.history) - applying, rebuildable=False)
    except IllegalMove as error:
        raise RulesRuntimeError(f"{UNREBUILT}: {error}") from error
    finally:
        game.step_budget[:] = (MAX_STEP_ROUNDS, MAX_STEP_WORK)      # (the choice's own budget)
    stopped = again.pending
    if stopped is None or stopped.snapshot.__class__ is Unbuilt or stopped.choices != pending.choices \
            or stopped.snapshot.rng != pending.snapshot.rng:
        raise RulesRuntimeError(f"{UNREBUILT}: played again, it does not stop at the same choice")
    pending.snapshot, pending.runner = stopped.snapshot, stopped.runner


UNREBUILT = ("this state's seed and moves do not make it again (was it changed by hand without "
             "State.changed()?)")


def filtered_domain(s, env, ins) -> tuple:
    """The values of a flow binder (for, simultaneous) that pass its filter, bound in turn."""
    domain, where = ins.fn
    values = []
    for value in list(domain(s, env)):
        env[ins.name] = value
        if where is None or where(s, env):
            values.append(value)
    return tuple(values)


def advance(s):
    """Run the flow until a player must decide, or the game ends."""
    if s.terminal or s.pending is not None:
        return
    s.game.run_flow(s)


def effect_runner(fn):
    """A flow statement that may choose, as a step (fn is a generator)."""
    def effect(state):
        yield from fn(state, state.env)
        state.pc += 1
    return effect


def flow_runs_on(s):
    raise RulesRuntimeError("the flow runs on without asking any player to move", s.game.flow[s.pc].span)


def dead_end(s, ins):
    raise DeadEnd(f"P{s.current} must play ({', '.join(s.game.actions[i].name for i in ins.actions)}) "
                  f"but has no legal move", ins.span)


def simultaneous_step(s, ins) -> bool:
    """A simultaneous decision: ask the next player who has not chosen (True: stop here), or
    reveal the sealed moves and apply them together."""
    env = s.env
    entry = env.get(ins.key)
    if entry is None:
        entry = env[ins.key] = (filtered_domain(s, env, ins), ())
    remaining, sealed = entry
    if remaining:
        s.current = seat(s, remaining[0], "a simultaneous move", ins.span)
        s._legal = None
        if s.listed():
            return True
        raise DeadEnd(f"P{s.current} must choose but has no legal move", ins.span)
    key = ins.key
    # the sealed moves are the last ones played: their public texts become known
    s.own_trails()
    history = s.public_history
    for k, (player, index, args) in enumerate(sealed, start=len(history) - len(sealed)):
        history[k] = (player, move_name(s, index, args, s.game.public_binder_labelers.get(index)))

    def reveal(state, sealed=sealed, key=key):
        for player, index, args in sealed:
            state.current = player
            yield from action_steps(state, index, args)
        del state.env[key]
        state.pc += 1
    run_step(s, reveal, any(s.game.actions[i].may_choose for i in ins.actions) or s.game.triggers_may_choose)
    return False


def finish_by_score(s):
    s.terminal = True
    if s.game.score is None:
        s.winners = []
        return
    scores = s.scores()
    if None in scores:          # the ranking needs numbers: said at the score's line
        score = next(f for f in s.game.program.game.fields if isinstance(f, ast.ScoreField))
        raise RulesRuntimeError(f"the game ends by the scores, but the score of P{scores.index(None) + 1} is none",
                                score.expr.span)
    best = max(scores)
    s.winners = [p for p, v in enumerate(scores, start=1) if v == best]
