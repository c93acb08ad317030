"""One scenario test per numbered rule of Love Letter (docs/games/love-letter.md, LL-1..LL-15):
hands arranged card by card, moves played by name, and what each seat is shown checked in its
view."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.interpreter.engine import load_game

try:
    from scenario import Scenario, play_out
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario, play_out

RULES = Path(__file__).resolve().parents[1] / "games" / "love-letter.rules"


def arrange(players: int, hands: dict, deck=(), only: bool = False, seed: int = 0) -> Scenario:
    """A new game at P1's first decision with each hand[p] holding exactly the cards named
    (P1 two, having drawn), and `deck` on top of the deck in the order they will be drawn;
    with `only`, the deck holds nothing else (the other cards lie in aside_up, which counts
    for nothing with three or four players)."""
    sc = Scenario.new(RULES, players=players, seed=seed)
    used = []

    def card(kind):
        x = next(c for c in sc.find("Card", label=kind) if c not in used)
        used.append(x)
        return x

    for p, kinds in hands.items():
        sc.fill(("hand", p), [card(k) for k in kinds], spill="deck")
    if only:
        sc.empty("deck", "aside_up")
    sc.put([card(k) for k in reversed(deck)], "deck")
    return sc


def kinds(sc, key) -> list:
    return sorted(sc.labels(key))


def test_LL01_sixteen_cards_of_eight_kinds():
    sc = Scenario.new(RULES, players=2)
    count = {}
    for c in sc.find("Card"):
        count[(sc.label(c), sc.attr(c, "value"))] = count.get((sc.label(c), sc.attr(c, "value")), 0) + 1
    assert count == {("guard", 1): 5, ("priest", 2): 2, ("baron", 3): 2, ("handmaid", 4): 2,
                     ("prince", 5): 2, ("king", 6): 1, ("countess", 7): 1, ("princess", 8): 1}


@pytest.mark.slow
def test_LL02_one_card_set_aside_face_down_three_face_up_with_two():
    sc = Scenario.new(RULES, players=2)
    assert len(sc.zone("aside")) == 1 and len(sc.zone("aside_up")) == 3
    for seat in (1, 2):
        assert sc.seen(seat, "aside") is None
        assert sc.seen(seat, "aside_up") == sc.labels("aside_up")
    for n in (3, 4):
        sc = Scenario.new(RULES, players=n)
        assert len(sc.zone("aside")) == 1 and sc.zone("aside_up") == []
        assert len(sc.zone("deck")) == 16 - 1 - n - 1          # P1 has drawn
    orders = {tuple(Scenario.new(RULES, players=2, seed=s).labels("deck")) for s in range(6)}
    assert len(orders) > 1                                      # shuffled


def test_LL02_with_explicit_chance_the_shuffle_is_chance_nodes_nobody_sees():
    game, diagnostics, _ = load_game(str(RULES), players=2, chance="explicit")
    assert diagnostics == []
    state = game.new_initial_state(0)
    odds = {move.name: p for move, p in state.chance_outcomes()}
    assert odds == {"guard": 5 / 16, "priest": 2 / 16, "baron": 2 / 16, "handmaid": 2 / 16,
                    "prince": 2 / 16, "king": 1 / 16, "countess": 1 / 16, "princess": 1 / 16}
    state.apply("princess")
    assert state.view(1)["moves"] == ["chance: ?"] and state.view(2)["moves"] == ["chance: ?"]
    while state.is_chance_node():
        state.apply(state.legal_moves()[0])
    assert state.current_player() == 1
    aside = state.zones["aside"]
    assert [state.entities[x]["__label__"] for x in aside] == ["princess"]   # the top card, set aside


def test_LL03_one_card_each_seen_by_its_holder_only():
    sc = Scenario.new(RULES, players=3)
    assert [len(sc.zone(("hand", p))) for p in (1, 2, 3)] == [2, 1, 1]
    assert sc.seen(2, "hand[P2]") == sc.labels(("hand", 2))
    assert sc.seen(2, "hand[P1]") is None and sc.seen(2, "hand[P3]") is None
    assert sc.seen(0, "hand[P2]") is None                      # an onlooker sees no hand


def test_LL04_draw_then_play_face_up_and_players_out_are_skipped():
    sc = arrange(3, {1: ["guard", "priest"], 2: ["baron"], 3: ["king"]}, deck=["handmaid", "countess"])
    sc.play("guard on P2 naming baron")                         # P2 is out, its card face up
    assert sc.labels(("discards", 1)) == ["guard"] and sc.labels(("discards", 2)) == ["baron"]
    assert sc.seen(3, "discards[P1]") == ["guard"]
    assert sc.var(("in_round", 2)) is False and sc.zone(("hand", 2)) == []
    assert sc.s.current_player() == 3                           # P2 is skipped
    assert kinds(sc, ("hand", 3)) == ["handmaid", "king"]       # P3 drew the top card first


def test_LL05_handmaid_protects_until_its_players_next_turn():
    sc = arrange(3, {1: ["handmaid", "guard"], 2: ["guard"], 3: ["priest"]}, deck=["guard", "prince", "baron"])
    sc.play("handmaid")
    assert sc.var(("protected", 1)) is True
    assert not any("P1" in m for m in sc.moves())               # P2 (two guards) cannot target P1
    sc.play("guard on P3 naming king")
    assert not any("P1" in m for m in sc.moves())               # nor P3
    sc.play("prince on P2")
    assert sc.s.current_player() == 1 and sc.var(("protected", 1)) is False


def test_LL06_guard_names_a_card_other_than_guard():
    sc = arrange(2, {1: ["guard", "priest"], 2: ["prince"]})
    assert not sc.can("guard on P2 naming guard")
    assert sum(m.startswith("guard on P2 naming") for m in sc.moves()) == 7
    sc.play("guard on P2 naming baron")                         # wrong: nothing happens
    assert sc.var(("in_round", 2)) is True and sc.s.current_player() == 2
    sc = arrange(2, {1: ["guard", "priest"], 2: ["prince"]})
    sc.play("guard on P2 naming prince")                        # right: P2 is out, P1 wins the round
    assert sc.var(("tokens", 1)) == 1 and sc.var("round") == 1


def test_LL07_cards_with_no_target_are_played_without_effect():
    sc = arrange(3, {1: ["guard", "king"], 2: ["handmaid"], 3: ["baron"]}, deck=["priest", "prince"])
    sc.play("guard on P3 naming baron")                         # P3 is out
    sc.play("handmaid")                                         # P2 is protected
    assert sorted(sc.moves()) == ["king without effect", "prince on P1"]   # a Prince on oneself
    sc.play("king without effect")
    assert kinds(sc, ("hand", 1)) == ["prince"] and sc.labels(("discards", 1)) == ["guard", "king"]
    sc = arrange(2, {1: ["guard", "priest"], 2: ["baron"]})
    assert "guard without effect" not in sc.moves()             # a target exists: no empty play


def test_LL08_priest_shows_a_hand_to_its_player_only():
    sc = arrange(3, {1: ["priest", "guard"], 2: ["countess"], 3: ["baron"]})
    sc.play("priest on P2")
    assert sc.seen(1, "hand[P2]") == ["countess"]
    assert sc.seen(3, "hand[P2]") is None
    assert all(sc.seen(2, f"hand[P{p}]") is None for p in (1, 3))


def test_LL09_baron_compares_in_private_and_the_lower_card_is_out():
    sc = arrange(3, {1: ["baron", "king"], 2: ["priest"], 3: ["guard"]})
    sc.play("baron on P2")
    assert sc.var(("in_round", 2)) is False and sc.labels(("discards", 2)) == ["priest"]
    assert sc.seen(2, "hand[P1]") == ["king"]                  # the loser saw the winner's card
    assert sc.seen(3, "hand[P1]") is None                      # nobody else did
    sc = arrange(3, {1: ["baron", "guard"], 2: ["princess"], 3: ["guard"]})
    sc.play("baron on P2")
    assert sc.var(("in_round", 1)) is False and sc.var(("in_round", 2)) is True
    assert sc.seen(3, "hand[P2]") is None                      # the winner's card stays secret
    sc = arrange(3, {1: ["baron", "guard"], 2: ["guard"], 3: ["priest"]})
    sc.play("baron on P2")                                      # a tie: nothing
    assert sc.var(("in_round", 1)) and sc.var(("in_round", 2))
    assert sc.seen(1, "hand[P2]") == ["guard"] and sc.seen(2, "hand[P1]") == ["guard"]


def test_LL10_prince_makes_a_player_discard_and_draw():
    sc = arrange(3, {1: ["prince", "guard"], 2: ["king"], 3: ["baron"]}, deck=["handmaid", "priest"])
    sc.play("prince on P2")                                     # P2 redraws, then draws for its turn
    assert sc.labels(("discards", 2)) == ["king"] and kinds(sc, ("hand", 2)) == ["handmaid", "priest"]
    sc = arrange(2, {1: ["prince", "guard"], 2: ["king"]}, deck=["countess"])
    sc.play("prince on P1")                                     # oneself
    assert sc.labels(("discards", 1)) == ["prince", "guard"] and kinds(sc, ("hand", 1)) == ["countess"]
    # the deck is empty: the card set aside face down is drawn
    sc = arrange(3, {1: ["prince", "guard"], 2: ["king"], 3: ["baron"]}, only=True)
    aside = sc.labels("aside")
    sc.play("prince on P2")
    assert kinds(sc, ("hand", 2)) == aside and sc.zone("aside") == []
    assert sc.moves() == ["deal the next round"]                # the deck was empty: the round ends


def test_LL11_king_trades_hands_and_the_countess_is_forced_with_king_or_prince():
    sc = arrange(3, {1: ["king", "guard"], 2: ["princess"], 3: ["baron"]}, deck=["priest"])
    sc.play("king on P2")
    assert kinds(sc, ("hand", 1)) == ["princess"] and kinds(sc, ("hand", 2)) == ["guard", "priest"]
    assert sc.seen(1, "hand[P2]") == ["guard"] and sc.seen(2, "hand[P1]") == ["princess"]
    assert sc.seen(3, "hand[P1]") is None and sc.seen(3, "hand[P2]") is None
    for other in ("king", "prince"):
        sc = arrange(2, {1: ["countess", other], 2: ["guard"]})
        assert sc.moves() == ["countess"]
        sc.refuse(f"{other} on P2", "countess")
    sc = arrange(2, {1: ["countess", "guard"], 2: ["priest"]})
    assert "countess" in sc.moves() and "guard on P2 naming priest" in sc.moves()


def test_LL12_a_discarded_princess_puts_her_player_out():
    sc = arrange(3, {1: ["princess", "guard"], 2: ["priest"], 3: ["baron"]})
    sc.play("princess")
    assert sc.var(("in_round", 1)) is False and kinds(sc, ("discards", 1)) == ["guard", "princess"]
    sc = arrange(3, {1: ["prince", "guard"], 2: ["princess"], 3: ["baron"]})
    sc.play("prince on P2")                                     # discarded by a Prince
    assert sc.var(("in_round", 2)) is False and sc.zone(("hand", 2)) == []


def test_LL13_the_round_ends_with_one_player_left_or_an_empty_deck():
    sc = arrange(2, {1: ["guard", "priest"], 2: ["baron"]})
    sc.play("guard on P2 naming baron")
    assert sc.var(("tokens", 1)) == 1 and sc.moves() == ["deal the next round"]
    sc = arrange(3, {1: ["guard", "priest"], 2: ["baron"], 3: ["king"]}, deck=["handmaid"], only=True)
    sc.play("guard on P2 naming countess")                     # P2 draws the last card, then plays
    assert sc.s.current_player() == 2 and sc.zone("deck") == []
    sc.play("handmaid")                                        # the deck is empty after a turn
    assert sc.moves() == ["deal the next round"] and sc.var("round") == 1


def test_LL14_the_highest_hand_then_the_discards_win_the_round_and_hands_are_shown():
    sc = arrange(3, {1: ["handmaid", "guard"], 2: ["king"], 3: ["baron"]}, deck=["priest"], only=True)
    sc.play("handmaid", "priest on P3")                         # P2 drew the last card
    assert [sc.var(("tokens", p)) for p in (1, 2, 3)] == [0, 1, 0]
    assert sc.seen(1, "hand[P2]") == ["king"] and sc.seen(3, "hand[P1]") == ["guard"]
    assert sc.s.current_player() == 2                           # the winner deals and starts
    sc.play("deal the next round")
    assert sc.var("round") == 2 and sc.s.current_player() == 2 and len(sc.zone(("hand", 2))) == 2
    # equal hands: the higher total of discards wins; still equal, both win a token
    sc = arrange(3, {1: ["guard", "baron"], 2: ["guard"], 3: ["king"]})
    sc.set_var(("in_round", 3), False)
    sc.fill(("hand", 3), [], spill="deck")
    sc.fill(("hand", 1), [sc.one("Card", ("hand", 1), label="guard")], spill=("discards", 1))
    assert sc.call("round_winners") == [1]                      # guard against guard: P1 discarded a baron
    sc.put(sc.take("Card", "deck", label="priest"), ("discards", 2))
    assert sc.call("round_winners") == [1]                      # 3 against 2
    sc.put(sc.take("Card", "deck", label="guard"), ("discards", 2))
    assert sc.call("round_winners") == [1, 2]                   # 3 against 3: both win a token


def test_LL15_the_tokens_needed_win_the_game():
    for players, needed in ((2, 7), (3, 5), (4, 4)):
        sc = arrange(players, {1: ["guard", "priest"], 2: ["baron"]} if players == 2 else
                     {1: ["baron", "king"], **{p: ["guard"] for p in range(2, players + 1)}})
        assert sc.game.params["tokens_needed"] == needed
        sc.set_var(("tokens", 1), needed - 1)
        if players == 2:
            sc.play("guard on P2 naming baron")
        else:
            for p in range(2, players + 1):
                sc.set_var(("in_round", p), p == 2)
                if p > 2:
                    sc.fill(("hand", p), [], spill=("discards", p))
            sc.play("baron on P2")
        assert sc.s.is_terminal() and sc.s.winners == [1] and sc.s.scores()[0] == needed
    for players in (2, 3, 4):
        state = play_out(Scenario.new(RULES, players=players, seed=players).s, random.Random(players))
        tokens = state.scores()
        assert max(tokens) == (7, 5, 4)[players - 2] and state.winners
        assert all(tokens[p - 1] == max(tokens) for p in state.winners)
