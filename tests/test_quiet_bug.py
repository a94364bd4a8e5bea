"""A product bug in pipvm/engine/quiet.py found while killing its mutants
(tools/mutation-results/quiet.tsv: 110:11 Lt -> LtE and 110:19 0 -> 1 play
as the loud code here; the real code does not).  Fails until it is fixed."""
from .test_quiet import same_either_way
from .test_quiet_mutants import main_of
from .test_vm import K


def test_a_string_a_read_takes_before_a_message_is_joined_quiet_too():
    # pins _only_shown's depth: message players->first ("{T}" x 12)->first.
    # LIST_PROP (only reads) takes the FORMAT's String itself (depth 0, not
    # below 0), so the quiet FORMAT joins nothing and `->first` of '' fails
    # ("Can't get item from empty list") where the loud code plays on
    image = main_of([('CONST', K['T'])] * 12 + [
        ('FORMAT', 12), ('LIST_PROP', 1), ('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('MESSAGE',),
        ('CONST', K['1']), ('STORE_GLOBAL', 1), ('RETURN',)])
    end, globals_, _ = same_either_way(image)
    assert end is None and globals_[1] == 1
