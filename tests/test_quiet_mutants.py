"""Tests that kill mutants of pipvm/engine/quiet.py the rest of the suite let
live (tools/mutation-results/quiet.tsv)."""
from compiler.pip import frontend
from pipvm.engine.vm import Image
from pipvm.isa import pipc

from .test_quiet import HEAD, LONG, bodied, image_of, same_either_way, variant
from . import test_vm
from .test_vm import K, program


def test_a_loop_whose_body_does_more_than_show_stays_loud():
    # pins quiet.variant's `and` of a message-only loop: a body with a message
    # first and an assignment after is no quiet loop (n counts its rounds)
    image = image_of(HEAD + 'Action main {\n  for p in players { message "{p}". n = n + 1. }\n}\n')
    assert 'QUIET_LOOP' not in [q for _, q, _ in variant(image)]
    end, globals_, _ = same_either_way(image)
    assert end is None and globals_[1] == 3


def test_a_long_message_in_a_loop_leaves_the_loops_list():
    # pins a bodied instruction's operand (FORMAT's count): the quiet FORMAT
    # takes its twelve values and not the loop's items under them
    image = image_of(HEAD + 'Action main {\n  for p in players {\n    message "%s".\n'
                     '    message players->first "%s".\n    n = n + 1.\n  }\n}\n' % (LONG, LONG))
    assert bodied(image) == ['FORMAT_MESSAGE_ALL', 'FORMAT', 'MESSAGE']
    end, globals_, _ = same_either_way(image)
    assert end is None and globals_[1] == 3


def test_a_message_only_loop_checks_a_recipient_at_every_item():
    # for x in [A~H, 7] { message players->first x->suit }: the text's check
    # is no locals-only one, so every item is checked and the quiet loop hands
    # the second (7, no suit) back to the loud code, which fails there
    image = Image(program([
        ('CONST', K['A~H']), ('CONST', K['7']), ('BUILD_LIST', 2), ('FOR_ITER',),
        ('LABEL', 'next'), ('FOR_NEXT', 0, 'done'),
        ('LOAD_LOCAL', 0), ('LOAD_PROP', 1), ('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('MESSAGE',),
        ('JUMP', 'next'), ('LABEL', 'done'), ('CONST', K['1']), ('STORE_GLOBAL', 1)]))
    assert any(q == 'QUIET_LOOP' for _, q, _ in variant(image))
    end, globals_, _ = same_either_way(image)
    assert end is not None and "has no attribute 'suit'" in end, end
    assert globals_[1] is None


def main_of(instrs):
    """An image whose main is instrs as they are (no RETURN added: code may
    follow the last one, never reached, as a hand-made file may have)."""
    code = test_vm.code
    codes = [code('init', 'globals', [], [('RETURN',)]),
             code('action', 'helper', [], [('RETURN',)]),
             code('rule', 'hearts', ['p', 'c', 'pile'], test_vm.RULE),
             code('ordering', 'hearts_first', ['cards'], [('LOAD_LOCAL', 0), ('RETURN_VALUE',)]),
             code('action', 'main', ['x', 'y'], instrs)]
    return Image(test_vm.validated(codes, 4))


def test_a_string_joined_in_code_never_reached_at_the_end_loads():
    # pins _only_shown's end of the runs: a FORMAT and reads after the last
    # RETURN (never reached) leave no run for a message to be
    image = main_of([('CONST', K['1']), ('STORE_GLOBAL', 1), ('RETURN',),
                     ('CONST', K['T']), ('FORMAT', 1), ('LOAD_GLOBAL', 0)])
    end, globals_, _ = same_either_way(image)
    assert end is None and globals_[1] == 1


def test_a_string_kept_where_a_jump_lands_is_joined_quiet_too():
    # pins _only_shown's refusal where a jump lands after the FORMAT: g0 =
    # (True ? "{T}" : "hi"), the STORE where both ways meet keeps the String
    image = main_of([('CONST', K['True']), ('JUMP_IF_FALSE', 'other'),
                     ('CONST', K['T']), ('FORMAT', 1), ('LABEL', 'kept'), ('STORE_GLOBAL', 0),
                     ('JUMP', 'end'), ('LABEL', 'other'), ('CONST', K['hi']), ('JUMP', 'kept'),
                     ('LABEL', 'end'), ('RETURN',)])
    assert 'FORMAT' not in bodied(image)
    assert same_either_way(image)[1][0] == 'T'


def test_a_string_left_under_a_read_is_joined_quiet_too():
    # pins _only_shown's last test: "{T}", then g0 read; the read goes to a
    # message to everyone (or is stored) and the String is stored after it
    for use in [('MESSAGE_ALL',), ('STORE_GLOBAL', 3)]:
        image = main_of([('CONST', K['hi']), ('STORE_GLOBAL', 0),
                         ('CONST', K['T']), ('FORMAT', 1), ('LOAD_GLOBAL', 0), use,
                         ('STORE_GLOBAL', 1), ('RETURN',)])
        assert 'FORMAT' not in bodied(image)
        assert same_either_way(image)[1][1] == 'T'


def test_a_string_only_shown_between_two_places_a_jump_lands_joins_nothing_quiet():
    # pins the runs _only_shown looks for a jump into: from the one after the
    # FORMAT to the message's own.  if True { message players->first
    # "{T}{True and False}" }: the `and` lands on the FORMAT, the `if` right
    # after the message; neither is between, so the FORMAT joins nothing
    image = main_of([('CONST', K['True']), ('JUMP_IF_FALSE', 'after'),
                     ('CONST', K['T']), ('CONST', K['True']), ('JUMP_IF_FALSE_OR_POP', 'format'),
                     ('CONST', K['False']), ('LABEL', 'format'), ('FORMAT', 2),
                     ('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('MESSAGE',),
                     ('LABEL', 'after'), ('CONST', K['1']), ('STORE_GLOBAL', 1), ('RETURN',)])
    assert bodied(image) == ['FORMAT', 'MESSAGE']
    end, globals_, _ = same_either_way(image)
    assert end is None and globals_[1] == 1


def test_a_message_only_loop_in_code_never_reached_at_the_end_loads():
    # pins variant's end of the instructions: a FOR_NEXT and a message after
    # the last RETURN (never reached), nothing after them
    image = main_of([('CONST', K['1']), ('STORE_GLOBAL', 1), ('RETURN',),
                     ('LABEL', 'next'), ('FOR_NEXT', 0, 'next'), ('CONST', K['T']), ('MESSAGE_ALL',)])
    end, globals_, _ = same_either_way(image)
    assert end is None and globals_[1] == 1



def test_a_long_message_to_everyone_unfused_joins_nothing_quiet():
    # pins _only_shown's MESSAGE_ALL right after the FORMAT: without
    # superinstructions (Image's fuse=False) they are two runs, and the FORMAT
    # still joins nothing
    image = Image(pipc.load(pipc.dump(frontend.compile_text(
        HEAD + 'Action main {\n  message "%s".\n  n = 2.\n}\n' % LONG)), '<test>'), fuse=False)
    assert bodied(image) == ['FORMAT', 'MESSAGE_ALL']
    end, globals_, _ = same_either_way(image)
    assert end is None and globals_[1] == 2


def test_a_string_a_read_takes_before_a_message_is_joined_quiet_too():
    # message players->first ("{T}" x 12)->first: a read (LIST_PROP) takes
    # the FORMAT's String itself, so it is more than shown and the FORMAT
    # stays loud.  _only_shown let it go quiet (it tested the depth only
    # below 0): the quiet FORMAT joined nothing and `->first` of '' failed
    # ("Can't get item from empty list") where the loud code plays on
    image = main_of([('CONST', K['T'])] * 12 + [
        ('FORMAT', 12), ('LIST_PROP', 1), ('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('MESSAGE',),
        ('CONST', K['1']), ('STORE_GLOBAL', 1), ('RETURN',)])
    end, globals_, _ = same_either_way(image)
    assert end is None and globals_[1] == 1
