"""The module passes (compile/passes/MODULE_PASSES) over fixtures: share_equal_constants names
equal plain values once, drop_unread_constants leaves out what no function reads; both change
only the module as written (the games: test_compiled_module.py)."""
from referee.dsl.ast import Span
from referee.interpreter import runtime
from referee.interpreter.compile import ir
from referee.interpreter.compile.module_names import ModuleParts, names_read, plain_key, renamed
from referee.interpreter.compile.passes import run_module_passes
from referee.interpreter.compile.passes.drop_unread_constants import drop_unread_constants
from referee.interpreter.compile.passes.share_equal_constants import share_equal_constants

HERE = Span("g.rules", 3, 1, 3, 9)


def function(*statements, name="f"):
    return ir.Function(name, ("s",), statements)


def reads(*names):
    return function(*(ir.ExpressionStatement(ir.Global(n)) for n in names))


def test_names_read_are_the_module_names_in_its_nodes_and_those_the_renderer_writes():
    body = function(ir.ExpressionStatement(ir.Call("_k1", (ir.ReadColumn("_col2", ir.Local("x")),))),
                    ir.ChargeWork(ir.Constant(1), "_span3"), ir.Invalidate(0),
                    ir.Try((ir.Return(ir.Global("_k4")),), "Finished", (ir.Return(),)))
    assert names_read(body) >= {"_k1", "_col2", "_span3", "STEP", "MEMO_STAMPS", "_k4", "Finished"}
    assert "x" not in names_read(body) and "s" not in names_read(body)


def test_renamed_changes_module_names_only_and_keeps_what_it_does_not_change():
    body = function(ir.Assign("_k1", ir.Call("_k1", (ir.Global("_k1"), ir.Local("_k1")))))
    again = renamed(body, {"_k1": "_k0"})
    assert again.body[0] == ir.Assign("_k1", ir.Call("_k0", (ir.Global("_k0"), ir.Local("_k1"))))
    assert renamed(body, {"_k9": "_k0"}) is body


def test_equal_plain_values_share_the_first_name():
    parts = ModuleParts((reads("_domain1", "_k2", "_k3", "_k4"), reads("_k3")),
                        (("_domain1", [0, 1, 2]), ("_k2", [0, 1, 2]), ("_k3", (0, 1, 2)), ("_k4", [0, 1, 2])))
    shared = share_equal_constants(parts)
    assert [name for name, _ in shared.bound] == ["_domain1", "_k3"]        # (a tuple is not a list)
    assert names_read(shared.functions[0]) == {"_domain1", "_k3"} and shared.functions[1] is parts.functions[1]
    assert shared.reads == tuple(names_read(f) for f in shared.functions)     # (kept, not walked again)


def test_tables_the_code_fills_and_values_set_by_name_are_never_shared():
    table, other = {}, {}
    parts = ModuleParts((reads("_cache1", "_cache2", "STEP", "_k3"),),
                        (("_cache1", table), ("_cache2", other), ("STEP", [0]), ("_k3", [0])), frozenset({"STEP"}))
    assert share_equal_constants(parts) is parts


def test_values_a_maker_made_of_the_same_arguments_are_shared_not_of_other_tables():
    one, two = runtime.list_labeler(runtime.seen_labeler(2)), runtime.list_labeler(runtime.seen_labeler(2))
    rows, others = runtime.rows_maker({}, (1,), (), True), runtime.rows_maker({}, (1,), (), True)
    assert plain_key(one) == plain_key(two) != plain_key(runtime.list_labeler(runtime.seen_labeler(1)))
    assert plain_key(rows) != plain_key(others) and plain_key({}) is None and plain_key(lambda: 1) is None
    assert plain_key(1) != plain_key(True) and plain_key(HERE) == plain_key(Span("g.rules", 3, 1, 3, 9))
    parts = ModuleParts((reads("_label1", "_label2"),), (("_label1", one), ("_label2", two)))
    assert [name for name, _ in share_equal_constants(parts).bound] == ["_label1"]


def test_values_no_function_reads_are_not_written():
    parts = ModuleParts((reads("_k1"), function(ir.Spend(1, ir.Constant(2)))),
                        (("_k1", 1), ("_span2", HERE), ("MEMO_LIMIT", 5), ("STEP", [1, 2]), ("run_step", None)))
    assert [name for name, _ in drop_unread_constants(parts).bound] == ["_k1", "STEP"]
    assert drop_unread_constants(ModuleParts((reads("_k1"),), (("_k1", 1),))).bound == (("_k1", 1),)


def test_the_module_passes_run_in_order_and_each_can_be_switched_off():
    parts = ModuleParts((reads("_k2"),), (("_k1", [1]), ("_k2", [1]), ("_k3", 3)))
    assert [n for n, _ in run_module_passes(parts).bound] == ["_k1"]
    assert [n for n, _ in run_module_passes(parts, {"share_equal_constants"}).bound] == ["_k2"]
    assert [n for n, _ in run_module_passes(parts, {"drop_unread_constants"}).bound] == ["_k1", "_k3"]
    assert run_module_passes(parts, {"drop_unread_constants", "share_equal_constants"}) is parts
