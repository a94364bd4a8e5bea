"""Mutants of pipvm/engine/generated_cases.py that the rest of its SUITE left
alive (tools/mutation-results/generated_cases.tsv): small programs on the
loop (`--engine loop`: Image(program), not compiled), on the compiled tier's
cold blocks and in quiet games, each pinning what one handler leaves on the
stack, the part its Fault names or the cards it moves; Pip sources where the
compiled tier and the reference can play them too (`both`), hand-made files
(tests/test_vm.py's program) for what only a file can hold (an unset local,
a deal to a builtin list, a String count)."""
import pytest

from compiler.pip import frontend
from pipvm.core.errors import PipError
from pipvm.core.rng import OCamlRandom
from pipvm.engine.vm import Image, Machine
from pipvm.game.game import Game
from pipvm.isa.opcodes import DEAL_ALL, OP
from tests.fuzz.harness import both
from tests.test_vm import K, error, program, run, seated

HEAD = 'Game "H" requires 2 players.\n'
SEATS = ['2', 'Ada', 'Ben']


def loop_game(source, seed=1):
    """A game of source on the loop, at its first decision (or its end)."""
    return Game(Image(frontend.compile_text(source)), seed=seed, players=2,
                names=['Ada', 'Ben'])


def said(game):
    return [e.text for e in game.events if e.kind in ('message', 'played')]


def test_an_item_by_place_under_another_value_leaves_that_value_alone():
    # LIST_ITEM replaces its list (stack[-1]), not the stack's bottom (203:4)
    source = HEAD + '''Number k = 2.
Action main {
  let x be 1 + (item k of [7; 8; 9]).
  message "x {x}".
}
'''
    game = loop_game(source)
    assert said(game) == ['x 9'] and game.ending.kind == 'no winner'
    vm, ref = both(source, 1, SEATS)
    assert vm == ref


def test_a_dealing_loop_onto_an_items_own_hand_runs_as_written_deep_in_loops():
    # DEAL_EACH declining (Ben's hand is the pile) puts the iterator back at
    # stack[-1], under two outer loops' iterators (706: not stack[0], [1], [-2])
    source = HEAD + '''Deck deck = standard.
Player who.
Action main {
  deal 3 from deck to players.
  who = players->last.
  for i in [1] {
    for j in [1; 2] {
      for p in players { deal all from p to who. }
      let n be who->hand->size.
      let m be players->first->hand->size.
      message "{i} {j} {n} {m}".
    }
  }
}
'''
    game = loop_game(source)
    assert said(game) == ['1 1 6 0', '1 2 6 0'] and game.ending.kind == 'no winner'
    vm, ref = both(source, 1, SEATS)
    assert vm == ref


def test_a_call_of_no_arguments_leaves_the_callers_values_alone():
    # CALL_WITH and CALL_FOR of `f()` (0 arguments) move none of the caller's
    # stack into the callee's slots: not `if arg[1]` (437 and 452: 0 -> 1, 0 -> -1)
    source = HEAD + '''Number total = 0.
Action bump() {
  total += 1.
}
Action seven() gives Number {
  give 7.
}
Action main {
  for k in [1; 2] {
    bump().
    let u be k + seven().
    message "{k} {u} {total}".
  }
}
'''
    game = loop_game(source)
    assert said(game) == ['1 8 1', '2 9 2'] and game.ending.kind == 'no winner'
    vm, ref = both(source, 1, SEATS)
    assert vm == ref


TEAM = 7        # Player.team: undefined in a game without teams


@pytest.mark.parametrize('fused, main, column', [
    # after a CALL (which ends a block) each begins a cold block of the
    # compiled tier, run alone by its handler (INLINE_HANDLERS): the part
    # that fails is 0, and the Fault's text its message
    ('LOAD_LOCAL', [('LOAD_LOCAL', 0), ('STORE_GLOBAL', 0)], 2),                  # 820
    ('LOAD_PROP', [('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('CALL', 1), ('LOAD_PROP', TEAM),
                   ('STORE_GLOBAL', 0)], 4),                                        # 830
    ('LOAD_LOCAL_PROP', [('LOAD_LOCAL', 0), ('LOAD_PROP', TEAM), ('POP',)], 2),     # 861
    ('EQ_GLOBAL', [('CONST', K['7']), ('CALL', 1), ('LOAD_GLOBAL', 0), ('EQ',),
                   ('STORE_GLOBAL', 1)], 3),                                        # 869
    ('EQ_GLOBAL_JUMP_IF_FALSE', [('CONST', K['7']), ('CALL', 1), ('LOAD_GLOBAL', 0), ('EQ',),
                                 ('JUMP_IF_FALSE', 'x'), ('CONST', K['1']), ('STORE_GLOBAL', 2),
                                 ('LABEL', 'x')], 3),                               # 875
    ('LOAD_LOCAL_ITEM_PROP', [('LOAD_LOCAL', 0), ('LIST_PROP', 1), ('LOAD_PROP', TEAM),
                              ('POP',)], 2),                                        # 900
    ('LOAD_GLOBAL_PROP', [('LOAD_GLOBAL', 0), ('LOAD_PROP', TEAM), ('POP',)], 2),   # 892
])
def test_a_cold_blocks_first_instruction_fails_at_its_first_part(fused, main, column):
    # (the Fault's arguments in their order: 'Undefined value', then part 0)
    if main[0] != ('CONST', K['7']) and ('CALL', 1) not in main:
        main = [('CALL', 1)] + main
    for compiled in (False, True):
        image = Image(program(main), compiled=compiled)
        if not compiled:        # (the tier's instrs: its blocks where the runs were)
            assert getattr(OP, fused) in [op for op, _, _ in image.codes[4].instrs]
        m = Machine(image, OCamlRandom(1), events=[])
        with pytest.raises(PipError) as e:
            m.start(seated())
        assert str(e.value) == 'Error: Line 1, Col %d: Undefined value' % column


def test_a_new_group_keeps_its_lists_faceup_and_spreadout():
    # NEW_GROUP's AREA_FACEDOWN and AREA_SQUAREDUP bits: each is its own (192: & -> |)
    source = HEAD + '''Deck deck = standard.
Area up[] labeled "Up" is faceup, spreadout.
Area down[] labeled "Down" is facedown, squaredup.
Area mixed[] labeled "Mixed" is facedown, spreadout.
Action main {
  deal 1 from deck to new up.
  deal 1 from deck to new down.
  deal 1 from deck to new mixed.
  deal 1 from deck to new up.
  for a in up { let f be a->is_facedown. let s be a->is_squaredup. message "{a} {f} {s}". }
  for a in down { let f be a->is_facedown. let s be a->is_squaredup. message "{a} {f} {s}". }
  for a in mixed { let f be a->is_facedown. let s be a->is_squaredup. message "{a} {f} {s}". }
}
'''
    game = loop_game(source)
    assert said(game) == ['Up 1 False False', 'Up 2 False False', 'Down 1 True True',
                          'Mixed 1 True False']
    vm, ref = both(source, 1, SEATS)
    assert vm == ref


def test_an_undefined_own_value_read_first_in_a_cold_block_is_the_error_at_the_read():
    # LOAD_OWN begins the block after the call (compiled tier, cold: run
    # alone by its handler): its Fault is its own part 0, not the block's
    # last (329: 0 -> -1)
    source = HEAD + '''Number bid for each player.
Action who(Number k) gives Player {
  give (item k of players).
}
Action main {
  for k in [1; 2] {
    let w be (who(k))->bid.
    message "{w}".
  }
}
'''
    vm, ref = both(source, 2, SEATS)
    assert vm == ref and vm.ending == 'Error: Line 8, Col 14: Undefined value'


def _loaded_ops(main):
    return [op for op, _, _ in Image(program(main)).codes[4].instrs]


DECK_TO_G0 = [('LOAD_BUILTIN', 2), ('STORE_GLOBAL', 0)]     # g0: a new list of the 52 cards
SIZE_TO_G1 = [('LOAD_GLOBAL', 0), ('LIST_PROP', 0), ('STORE_GLOBAL', 1)]


@pytest.mark.parametrize('fused, deal, left', [
    ('DEAL_GLOBAL_BUILTIN_CONST', [('CONST', K['3']), ('DEAL', 0)], 49),
    ('DEAL_ALL_GLOBAL_BUILTIN', [('DEAL', DEAL_ALL)], 0),
])
def test_a_fused_deal_to_the_builtin_deck_deals_into_a_new_list(fused, deal, left):
    # a hand-made file's `deal ... from g0 to deck` (LOAD_BUILTIN 2: a new
    # list, not players, not teams): the cards leave g0 (611 and 638:
    # Eq -> NotEq; 620 and 646: & -> |, every deal to players)
    main = DECK_TO_G0 + [('LOAD_GLOBAL', 0), ('LOAD_BUILTIN', 2)] + deal + SIZE_TO_G1
    assert getattr(OP, fused) in _loaded_ops(main)
    assert run(*main)[1] == left


@pytest.mark.parametrize('fused, main', [
    ('SHUFFLE_GLOBAL', [('LOAD_GLOBAL', 0), ('SHUFFLE',)]),
    ('DEAL_GLOBAL_BUILTIN_CONST', [('LOAD_GLOBAL', 0), ('LOAD_BUILTIN', 0), ('CONST', K['3']),
                                   ('DEAL', 2)]),
    ('DEAL_ALL_GLOBAL_BUILTIN', [('LOAD_GLOBAL', 0), ('LOAD_BUILTIN', 0), ('DEAL', 3)]),
])
def test_a_fused_shuffle_or_deal_of_an_undefined_global_is_the_error_at_the_global(fused, main):
    # (the Fault's arguments in their order: 602, 608, 635 swapped)
    assert getattr(OP, fused) in _loaded_ops(main)
    assert error(*main) == 'Error: Line 1, Col 1: Undefined value'


def test_a_quiet_message_of_an_unset_local_is_handed_back_to_the_loud_code():
    # QUIET_MESSAGE goes loud where a slot it needs is unset (a hand-made
    # file's), before its checks: the loud code's error (663: drop Not)
    main = [('CONST', K['7']), ('STORE_GLOBAL', 0), ('LOAD_LOCAL', 0), ('LOAD_GLOBAL', 0),
            ('FORMAT', 2), ('MESSAGE_ALL',), ('CONST', K['1']), ('STORE_GLOBAL', 1)]
    image = Image(program(main))
    assert OP.QUIET_MESSAGE in [op for op, _, _ in image.codes[4].quiet]
    for events in (None, []):           # (quiet, loud)
        m = Machine(image, OCamlRandom(1), None, events)
        with pytest.raises(PipError) as e:
            m.start(seated())
        assert str(e.value) == 'Error: Line 1, Col 3: Undefined value' and m.globals[1] is None


@pytest.mark.parametrize('fused, deal, column', [
    ('DEAL_GLOBAL_BUILTIN_CONST', [('CONST', K['3']), ('DEAL', 0)], 4),
    ('DEAL_ALL_GLOBAL_BUILTIN', [('DEAL', DEAL_ALL)], 4),
])
def test_a_fused_deal_to_teams_in_a_game_without_them_is_the_error_at_teams(fused, deal, column):
    # (LOAD_BUILTIN 1, teams: undefined here) its part 1, not the deal's
    # (611 and 638: 1 -> 0, 612 and 639: Is -> IsNot)
    main = DECK_TO_G0 + [('LOAD_GLOBAL', 0), ('LOAD_BUILTIN', 1)] + deal
    assert getattr(OP, fused) in _loaded_ops(main)
    assert error(*main) == 'Error: Line 1, Col %d: Undefined value' % column


def test_a_fused_deal_of_a_negative_count_deals_nothing():
    # dealt_n > 0 and ...: a count below 0 leaves the source whole (625: And -> Or)
    main = DECK_TO_G0 + [('LOAD_GLOBAL', 0), ('LOAD_BUILTIN', 2), ('CONST', K['-7']),
                         ('DEAL', 0)] + SIZE_TO_G1
    assert OP.DEAL_GLOBAL_BUILTIN_CONST in _loaded_ops(main)
    assert run(*main)[1] == 52


def test_a_quiet_message_of_an_undefined_global_fails_as_the_loud_one():
    # QUIET_MESSAGE runs its checks (arg[1]), not its slots (667: 1 -> 0)
    source = HEAD + '''Number u.
Number n = 0.
Action main {
  message "u is {u}".
  n = 1.
}
'''
    for quiet in (True, False):
        game = Game(Image(frontend.compile_text(source)), seed=1, players=2,
                    names=['Ada', 'Ben'], quiet=quiet)
        assert str(game.ending.error) == 'Error: Line 5, Col 18: Undefined value'
        assert game.machine.globals[1] == 0
        if quiet:
            assert any(OP.QUIET_MESSAGE in [op for op, _, _ in code.quiet]
                       for code in game.machine.image.codes)


def test_a_dealing_loop_at_once_leaves_its_variable_at_the_last_item():
    # DEAL_EACH dealing at once sets the loop's local as its last round
    # would: the last player (703: each[-1], not each[0]); read after the
    # loop by a hand-made file
    main = DECK_TO_G0 + [('LOAD_BUILTIN', 0), ('FOR_ITER',), ('LABEL', 'top'),
                         ('FOR_NEXT', 0, 'end'), ('LOAD_LOCAL', 0), ('LOAD_GLOBAL', 0),
                         ('DEAL', DEAL_ALL), ('JUMP', 'top'), ('LABEL', 'end'),
                         ('LOAD_LOCAL', 0), ('STORE_GLOBAL', 1)]
    assert OP.DEAL_EACH in _loaded_ops(main)
    assert run(*main)[1].name == 'Bob'


def _names(values):
    return [v.name if hasattr(v, 'seat') else str(v) for v in values]


@pytest.mark.parametrize('deal, dest, left', [
    ([('CONST', K['3']), ('DEAL', 0)], ['Three of Clubs', 'Two of Clubs', 'Ace of Clubs'], 49),
    ([('CONST', K['1']), ('DEAL', 0)], ['Ace of Clubs'], 51),
    ([('CONST', K['0']), ('DEAL', 0)], [], 52),
    ([('CONST', K['-7']), ('DEAL', 0)], [], 52),
    # (all 52: the last first; '?': not looked at)
    ([('DEAL', DEAL_ALL)],
     ['King of Diamonds', 'Queen of Diamonds'] + ['?'] * 49 + ['Ace of Clubs'], 0),
])
def test_a_fused_deal_to_a_builtin_list_puts_the_cards_reversed_on_its_front(deal, dest, left):
    # a hand-made file's deal from g0 (the 52 cards, in order) to the players'
    # list as a card list (mode: not to players): the first n reversed onto
    # its front, none for n <= 0 (625-627, 651-653: the bound, the slices)
    main = DECK_TO_G0 + [('LOAD_GLOBAL', 0), ('LOAD_BUILTIN', 0)] + deal + [
        ('LOAD_BUILTIN', 0), ('STORE_GLOBAL', 1), ('LOAD_GLOBAL', 0), ('LIST_PROP', 0),
        ('STORE_GLOBAL', 2)]
    assert {OP.DEAL_GLOBAL_BUILTIN_CONST, OP.DEAL_ALL_GLOBAL_BUILTIN} & set(_loaded_ops(main))
    g = run(*main)
    got = _names(g[1])
    assert len(got) == len(dest) + 2 and got[-2:] == ['Ann', 'Bob'] and g[2] == left
    assert [n for n, want in zip(got, dest) if want != '?'] == [w for w in dest if w != '?']


def test_a_fused_deal_of_all_of_one_card_deals_it():
    # (dealt_n > 0: one card is dealt too; 651: 0 -> 1)
    main = [('CONST', K['A~C']), ('BUILD_LIST', 1), ('STORE_GLOBAL', 0), ('LOAD_GLOBAL', 0),
            ('LOAD_BUILTIN', 0), ('DEAL', DEAL_ALL), ('LOAD_BUILTIN', 0), ('STORE_GLOBAL', 1),
            ('LOAD_GLOBAL', 0), ('LIST_PROP', 0), ('STORE_GLOBAL', 2)]
    assert OP.DEAL_ALL_GLOBAL_BUILTIN in _loaded_ops(main)
    g = run(*main)
    assert _names(g[1]) == ['Ace of Clubs', 'Ann', 'Bob'] and g[2] == 0


def test_a_dealing_loop_over_three_areas_leaves_its_variable_at_the_last():
    # (three items: each[-1], not each[1]; the local's slot, not the
    # global's: 703: drop USub, 0 -> 1, 0 -> -1)
    main = [('LOAD_BUILTIN', 2), ('STORE_GLOBAL', 1),
            ('CONST', K['hi']), ('NEW_AREA', 0), ('CONST', K['T']), ('NEW_AREA', 0),
            ('CONST', K['7']), ('FORMAT', 1), ('NEW_AREA', 0), ('BUILD_LIST', 3),
            ('FOR_ITER',), ('LABEL', 'top'), ('FOR_NEXT', 0, 'end'), ('LOAD_LOCAL', 0),
            ('LOAD_GLOBAL', 1), ('DEAL', DEAL_ALL), ('JUMP', 'top'), ('LABEL', 'end'),
            ('LOAD_LOCAL', 0), ('STORE_GLOBAL', 2)]
    assert OP.DEAL_EACH in _loaded_ops(main)
    g = run(*main)
    assert g[2].name == '7' and len(g[1]) == 52


def test_a_quiet_loop_inside_a_loop_takes_its_list_off_the_stack():
    # QUIET_LOOP's rounds done (a loop `starting at`: no QUIET_FOR before
    # it): its list popped, the outer loop's iterator back on top (677:
    # remove stack.pop())
    source = HEAD + '''Number n = 0.
Action main {
  for i in [1; 2; 3] {
    for y in [4; 5; 6] starting at 5 { message "{y} {i}". }
    n += 1.
  }
}
'''
    game = Game(Image(frontend.compile_text(source)), seed=1, players=2, names=['Ada', 'Ben'],
                quiet=True)
    assert any(OP.QUIET_LOOP in [op for op, _, _ in code.quiet]
               for code in game.machine.image.codes)
    assert game.ending.kind == 'no winner' and game.machine.globals == [3]


def test_a_rules_undefined_property_of_its_card_is_the_rules_error():
    # the rule's closure for c->last_played_by raises where it is undefined,
    # and the loop then gives the error (1172: remove the raise: None)
    source = HEAD + '''Deck d = [2~H; 3~H].
Area table labeled "Table" is faceup.
Rule mine(p, c, pile) = c->last_played_by == p.
Action main {
  let p be players->first.
  deal 2 from d to p.
  if canplay mine from p to table { message "yes". }
  message "done".
}
'''
    game = loop_game(source)
    assert said(game) == [] and str(game.ending.error) == 'Error: Line 4, Col 25: Undefined value'
    vm, ref = both(source, 1, SEATS)
    assert vm == ref


def test_a_fused_deals_count_is_taken_as_a_number():
    # (int(count): a hand-made file's String count fails there, 618)
    main = DECK_TO_G0 + [('LOAD_GLOBAL', 0), ('LOAD_BUILTIN', 2), ('CONST', K['hi']), ('DEAL', 0)]
    assert OP.DEAL_GLOBAL_BUILTIN_CONST in _loaded_ops(main)
    assert error(*main) == ("Error: invalid bytecode at offset 4 of action main "
                            "(invalid literal for int() with base 10: 'hi')")


def test_a_dealing_loop_dealt_at_once_inside_a_loop_takes_its_list_off_the_stack():
    # DEAL_EACH dealing at once pops the list: the outer loop's iterator
    # back on top (704: remove stack.pop())
    source = HEAD + '''Deck deck = standard.
Area stock labeled "Stock" is facedown.
Action main {
  for i in [1; 2] {
    deal 3 from deck to players.
    for p in players { deal all from p to stock. }
    let n be stock->cards->size.
    message "{i} {n}".
  }
}
'''
    game = loop_game(source)
    assert said(game) == ['1 6', '2 12'] and game.ending.kind == 'no winner'
    vm, ref = both(source, 1, SEATS)
    assert vm == ref
