"""What generated code calls, in one place: a compiled module imports these names (and only
these) from here. The layer under the compiler: it never imports the compiler, the engine or
the command line."""
from referee.dsl.ast import Span
from referee.dsl.limits import MAX_LEGAL_MOVES, MAX_LOG_LINE, MAX_NUMBER, MAX_STEP_ROUNDS, MAX_STEP_WORK

from .chance import CHANCE, after_procedure, chance_draw, chance_pick, chance_shuffle, reveal_to, shuffle
from .checks import (charged, logged, not_a_player, outside_indexes, outside_range, past_log_limits, seat,
                     step_runs_on, stored_none, too_many_moves, work_runs_on)
from .errors import Finished, NeedChoice, RulesRuntimeError
from .exact import bounded, number_too_large, quotient
from .maintained import PartCounts, changed_rows, refiltered
from .boards import build_geometry
from .stdlib import (Boards, absolute, board_function, bottom, char_at, flatten, join, next_seat, pick, previous_seat,
                     reversed_list, size, split_text, subsets, text_of, to_int, top)
from .steps import (RuleText, SeatTexts, can_play, counting_invariant, counting_legal, distinct_labelled,
                    distinct_options, finish, label_of_entity, without_choice)
from .values import (EMPTY, EMPTY_VALUE, LOOP_CAP, UNSET, attribute, closed_gaps, counted, divisor, entity_label, entity_labeler, grouped,
                     hashable_values, item_at, list_labeler, player_labeler, plain_labeler, seen_labeler,
                     joined, largest, none_error, numbers, order, plain_label, present, ranked, ranked_ties, room_for,
                     smallest, top_of, within)
from .writes import move_all, set_attribute, var_index_write, var_table
from .zone_rows import row_of_key_maker, rows_maker

__all__ = [
    # values: arithmetic and orders that tell a none, ranges, lists, rankings
    "EMPTY", "EMPTY_VALUE", "LOOP_CAP", "UNSET", "attribute", "closed_gaps", "bounded", "counted", "divisor", "grouped", "hashable_values",
    "item_at", "joined", "largest", "none_error", "number_too_large", "numbers", "order", "present",
    "plain_label", "quotient", "ranked", "ranked_ties", "room_for", "smallest", "top_of", "within",
    # labels: the text of a value of a type, as a viewer sees it
    "entity_label", "entity_labeler", "list_labeler", "plain_labeler", "player_labeler", "seen_labeler",
    # the built-in functions of the rules (stdlib.py), and those of a game's boards
    "absolute", "bottom", "next_seat", "pick", "previous_seat", "reversed_list", "size", "top",
    "char_at", "join", "split_text", "text_of", "to_int", "subsets", "flatten",
    "Boards", "board_function", "build_geometry",
    # chance
    "CHANCE", "after_procedure", "chance_draw", "chance_pick", "chance_shuffle", "reveal_to", "shuffle",
    # the located checks and the limits of a step
    "MAX_LEGAL_MOVES", "MAX_LOG_LINE", "MAX_NUMBER", "MAX_STEP_ROUNDS", "MAX_STEP_WORK", "charged", "logged",
    "not_a_player", "outside_indexes", "outside_range", "past_log_limits", "seat", "step_runs_on",
    "stored_none", "too_many_moves", "work_runs_on",
    # writes
    "move_all", "set_attribute", "var_index_write", "var_table",
    # choices, the end of the game, coverage counters
    "RuleText", "SeatTexts", "can_play", "counting_invariant", "counting_legal", "distinct_labelled",
    "distinct_options", "finish", "label_of_entity", "without_choice",
    # filters kept up to date (maintained.py), rows of zone keys made once (zone_rows.py)
    "PartCounts", "changed_rows", "refiltered", "row_of_key_maker", "rows_maker",
    # errors, and where the rules say it
    "Finished", "NeedChoice", "RulesRuntimeError", "Span",
]


def namespace() -> dict:
    """The public names, as a generated module that imported them sees them."""
    return {name: globals()[name] for name in __all__}
