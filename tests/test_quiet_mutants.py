"""Tests that kill mutants of pipvm/engine/quiet.py the rest of the suite let
live (tools/mutation-results/quiet.tsv)."""
from pipvm.engine.vm import Image

from .test_quiet import HEAD, LONG, bodied, image_of, same_either_way, variant
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
