"""The expression translator (pipvm/engine/expressions.py) moves the stack
as each instruction's record says: for every instruction it accepts, a
program runs it on a stack one value deeper than it takes, then pops what
the record says is left (falling through, and where a jump jumps) and
returns the last value.  The translator refuses the program (a return
with other than one value, a pop of nothing) wherever its own stack and
the record's effect disagree."""
import types

import pytest

from pipvm.engine import expressions
from pipvm.engine.expressions import _JUMPS, _RETURNS, _Refused, _Translator
from pipvm.isa.opcodes import OPCODES, OPERANDS
from pipvm.isa.pipc import Instr

BY_NAME = {op.name: op for op in OPCODES}
PROGRAM = types.SimpleNamespace(consts=[7])
# The operands an instruction is given: a count 2 (FORMAT, BUILD_LIST, DROP), else 0.
COUNT = 2


def _args(op, target):
    return tuple(target if OPERANDS[k].is_target else COUNT if k == 'count' else 0
                 for k in op.operands)


def _code(names_args):
    """Instrs at offsets 0, 1, ... (an offset is an index: jumps name them)."""
    return [Instr(i, BY_NAME[name], tuple(args), i + 1) for i, (name, args) in enumerate(names_args)]


def _tail(depth):
    """Code that returns from a stack this deep: pop all but one."""
    return [('POP', ())] * (depth - 1) + [('RETURN_VALUE', ())]


def _translate(code):
    t = _Translator(_code(code), PROGRAM, set(), 1)
    return t.block(0, ())


def _under(op):
    """The values pushed before op runs: one more than it takes."""
    return [('CONST', (0,))] * (op.stack_pops((COUNT,)) + 1)


ACCEPTED = sorted(set(expressions._LOADS | expressions._UNARY | expressions._BINARY
                      | expressions._COUNTED | expressions._CANPLAY | set(expressions._MOVES)))


@pytest.mark.parametrize('name', ACCEPTED)
def test_a_straight_instruction_leaves_the_depth_its_record_says(name):
    op = BY_NAME[name]
    before = op.stack_pops((COUNT,)) + 1
    after = before - op.stack_pops((COUNT,)) + op.pushes
    _translate(_under(op) + [(name, _args(op, None))] + _tail(after))
    for wrong in (after - 1, after + 1):
        if wrong >= 1:
            with pytest.raises(_Refused):
                _translate(_under(op) + [(name, _args(op, None))] + _tail(wrong))


@pytest.mark.parametrize('name', sorted(_JUMPS))
def test_a_jump_leaves_the_depths_its_record_says_each_way(name):
    op = BY_NAME[name]
    before = op.pops + 1
    fall = before - op.pops + op.pushes
    taken = before + op.branch

    def code(fall, taken):
        head = _under(op)
        at = len(head) + 1 + len(_tail(fall))         # where the jump's path begins
        return head + [(name, _args(op, at))] + _tail(fall) + _tail(taken)
    tree = _translate(code(fall, taken))
    assert type(tree) is (expressions.Return if _JUMPS[name].always
                          else expressions.Keep if op.keeps else expressions.If)
    # one deeper or shallower either way (where the code is reached) is refused
    for f, t in ((fall + 1, taken), (fall, taken + 1), (fall, taken - 1)):
        if min(f, t) >= 1 and (f != fall and not _JUMPS[name].always or t != taken):
            with pytest.raises(_Refused):
                _translate(code(f, t))


def test_the_jumps_and_returns_are_the_tables():
    # the records an expression's control is read from: the conditional jumps
    # on their `cond`, which value jumps as their bodies test it
    assert {n: (j.always, j.on, j.keeps) for n, j in _JUMPS.items()} == {
        'JUMP': (True, None, False), 'JUMP_IF_FALSE': (False, False, False),
        'JUMP_IF_FALSE_OR_POP': (False, False, True), 'JUMP_IF_TRUE_OR_POP': (False, True, True)}
    assert _RETURNS == {'RETURN_VALUE'}


def test_a_jump_whose_record_differs_is_translated_as_the_record_says(monkeypatch):
    # the translator reads the record, not the name: a JUMP_IF_FALSE whose
    # record kept its condition where it jumps would leave it there
    op = BY_NAME['JUMP_IF_FALSE']
    keeping = types.SimpleNamespace(**{f: getattr(op, f) for f in ('pops', 'pushes', 'name')},
                                    branch=0)
    monkeypatch.setitem(_JUMPS, 'JUMP_IF_FALSE', expressions._Jump(keeping, False, False, True))
    code = _under(op) + [('JUMP_IF_FALSE', (4,))] + _tail(1) + _tail(2)
    assert type(_translate(code)) is expressions.Keep


@pytest.mark.parametrize('name', sorted(n for n, j in _JUMPS.items() if not j.always))
def test_a_branch_goes_where_its_body_jumps(name):
    # on the condition (a global): falling through returns the constant 7,
    # jumping returns a local (dropping the condition where it is kept)
    jump = _JUMPS[name]
    fall = [('CONST', (0,)), ('RETURN_VALUE', ())]
    taken = [('POP', ())] * jump.keeps + [('LOAD_LOCAL', (0,)), ('RETURN_VALUE', ())]
    tree = _translate([('LOAD_GLOBAL', (0,)), (name, (2 + len(fall),))] + fall + taken)
    assert tree.cond == expressions.Leaf('load_global', 0)
    if jump.keeps:
        assert tree.on_true is jump.on
        jumped, fell = tree.kept, tree.rest
    else:
        jumped, fell = (tree.then, tree.else_) if jump.on else (tree.else_, tree.then)
    assert jumped.value == expressions.Leaf('load_local', 0)
    assert fell.value == expressions.Leaf('const', 7)
