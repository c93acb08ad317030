"""What expression_facts.facts_of keeps on each IR node equals what a walk over the node finds,
over every function every game compiles (before and after the passes); and a pass that changes
nothing gives back the very function it was given."""
import pytest
from referee.interpreter.compile import ir, lower_functions
from referee.interpreter.compile.expression_facts import FOLDABLE, NOTHING, facts_of
from referee.interpreter.compile.generated_names import ComponentColumn
from referee.interpreter.compile.passes import FUNCTION_PASSES, LISTING_PASSES, run_passes
from referee.interpreter.engine import load_game
from tests.golden import ROOT

GAMES = sorted((ROOT / "games").glob("**/*.rules"))


def walked(node):
    """The facts found by walking the node (the definitions the cached ones replace)."""
    names, more, tables, bound = set(), set(), set(), set()
    env = generator = False
    folds = any(n.__class__ in FOLDABLE and FOLDABLE[n.__class__](n) for n in ir.walk(node))
    negations = any(isinstance(n, ir.Not) and isinstance(n.operand, (ir.Not, ir.Grouped))
                    or isinstance(n, ir.Call) and n.function in ("any", "all") for n in ir.walk(node))
    for n in ir.walk(node):
        if isinstance(n, ir.Local):
            names.add(n.name)
        elif isinstance(n, (ir.ReadEnv, ir.WriteEnv, ir.DeleteEnv, ir.HasEnv)):
            env = True
        elif isinstance(n, ir.ReadZone):
            tables.add("_Z")
        elif isinstance(n, ir.ReadVar):
            tables.add("_V")
        elif isinstance(n, (ir.ReadAttribute, ir.Entities)):
            tables.add("_E")
        elif isinstance(n, ir.ReadColumn) and isinstance(n.column, ComponentColumn):
            tables.add(n.column)
        elif isinstance(n, ir.Cached):
            more.add(n.name)
        elif isinstance(n, ir.WriteVar):
            bound.add("_V")
        elif isinstance(n, ir.ArgumentText) and n.of == "label":
            bound.add("_E")
        elif isinstance(n, ir.LabelSet):
            bound.add(n.column)
        elif isinstance(n, (ir.Yield, ir.YieldFrom)):
            generator = True
    return names, env, more, tables, tables | bound, generator, folds, negations


@pytest.fixture(scope="module")
def functions():
    """Every function the games compile, as given to the passes and as they leave them."""
    seen = []
    original = lower_functions.run_passes

    def recorded(function, *args, **kwargs):
        optimised = original(function, *args, **kwargs)
        seen.extend((function, optimised))
        return optimised
    lower_functions.run_passes = recorded
    try:
        for path in GAMES:
            game, diagnostics, _ = load_game(str(path))
            assert game is not None, diagnostics
    finally:
        lower_functions.run_passes = original
    return seen


def test_every_game_gives_functions_to_look_into(functions):
    assert len(functions) > 20 * len(GAMES)
    assert any(facts_of(f).generator for f in functions) and any(facts_of(f).env for f in functions)


def test_the_kept_facts_are_those_a_walk_finds_in_every_node(functions):
    for function in functions:
        for node in ir.walk(function):
            facts = facts_of(node)
            assert (facts.names, facts.env, facts.more_names, facts.tables, facts.bound, facts.generator,
                    facts.folds, facts.negations) == walked(node), node


def test_fold_constants_changes_nothing_where_the_facts_say_it_folds_nothing(functions):
    """(fold_constants gives such a node back at once: unguarded, folding it gives it back too)"""
    import sys
    from referee.interpreter.compile.passes.fold_constants import fold_constants
    folding = sys.modules[fold_constants.__module__]
    unchanged = 0
    for function in functions:
        for node in ir.walk(function):
            if isinstance(node, ir.Expression) and not facts_of(node).folds:
                assert folding.folded_value(node) is node and folding.folded_test(node) is node, node
                unchanged += 1
    folding.FOLDED.clear()
    folding.TESTED.clear()
    assert unchanged > 1000


def test_remove_double_negation_changes_nothing_where_the_facts_say_it_finds_nothing(functions):
    """(remove_double_negation gives such a node back at once: unguarded, rewriting it gives it
    back too, as a test and as a value)"""
    import sys
    from referee.interpreter.compile.passes.remove_double_negation import remove_double_negation
    negating = sys.modules[remove_double_negation.__module__]
    unchanged = 0
    for function in functions:
        for node in ir.walk(function):
            if not facts_of(node).negations:
                assert negating.inside(node) is node, node
                assert not isinstance(node, ir.Expression) or negating.truth(node) is node, node
                unchanged += 1
    negating.DONE.clear()
    assert unchanged > 1000


def test_the_facts_are_kept_on_the_node_and_no_part_of_its_value():
    node = ir.If(ir.ReadZone(ir.Local("k")), (ir.Yield(ir.Local("x"), "y"),))
    facts = facts_of(node)
    assert facts_of(node) is facts and node.facts is facts and node.test.facts is facts_of(node.test)
    assert facts.names == {"k", "x"} and facts.tables == {"_Z"} and facts.generator
    fresh = ir.If(ir.ReadZone(ir.Local("k")), (ir.Yield(ir.Local("x"), "y"),))
    assert fresh == node and hash(fresh) == hash(node) and repr(fresh) == repr(node)
    assert facts_of(ir.Constant(3)) is NOTHING


def test_the_passes_give_back_what_they_do_not_change(functions):
    for function in functions:
        optimised = run_passes(function)
        assert run_passes(optimised) is optimised or run_passes(optimised) == optimised
    plain = ir.Function("f", ("s", "x"), (ir.If(ir.Local("x"), (ir.Return(ir.Local("x")),)),
                                          ir.Return(ir.Constant(1))))
    for optimise in FUNCTION_PASSES + LISTING_PASSES:
        assert optimise(plain) is plain, optimise.__name__


def test_evolved_is_attrs_evolve_for_every_node(functions):
    """ir.evolved builds a node from its fields in order: every IR class takes all its fields
    in __init__, by their own names, so it gives what attrs.evolve gives."""
    import attrs
    classes = [c for c in vars(ir).values() if isinstance(c, type) and attrs.has(c) and issubclass(c, ir.Node)]
    assert len(classes) > 50
    for cls in classes:
        assert all(f.init and not f.kw_only and f.alias == f.name for f in attrs.fields(cls)), cls
    changed = 0
    for function in functions:
        for node in ir.walk(function):
            names = ir.field_names(type(node))
            if names:
                updates = {names[0]: getattr(node, names[0])}
                made = ir.evolved(node, updates)
                assert made == attrs.evolve(node, **updates) and made is not node and type(made) is type(node)
                changed += 1
    assert changed > 1000
