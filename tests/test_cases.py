"""The VM's loop, handlers and closure factories are written from the
instructions' bodies (pipvm/isa/instructions.py, the one table) by
pipvm/engine/cases.py; the checked-in pipvm/engine/generated_cases.py must
be what it writes now."""
import ast
import difflib
from types import SimpleNamespace

import pytest

from pipvm.core import plain
from pipvm.core.errors import Fault
from pipvm.engine import cases, generated_cases, vm
from pipvm.isa import opcodes


def test_the_generated_code_is_what_the_bodies_make():
    # generated_cases.py, and the loop's branches in vm.py
    for path, made in cases.outputs().items():
        with open(path, encoding='utf-8') as f:
            checked_in = f.read()
        diff = ''.join(difflib.unified_diff(checked_in.splitlines(True), made.splitlines(True),
                                            path, 'as the bodies make it', n=1))
        assert not diff, 'run `python -m pipvm.engine.cases`:\n' + diff[:3000]


def test_a_changed_body_changes_the_generated_module(monkeypatch):
    # the comparison above can fail: a body edited without regenerating
    before = cases.outputs()
    changed = dict(cases.BODIES, EQ=plain.evolve(cases.BODIES['EQ'], body='res = a is b'))
    monkeypatch.setattr(cases, 'BODIES', changed)
    after = cases.outputs()
    assert after[cases.OUT] != before[cases.OUT]
    # every instruction with an EQ part takes it (the loop's or a handler; an
    # inline one both, its handler a cold compiled block's first instruction),
    # and closure_EQ, pure.any_equal and pure.filter_by_card
    eqs = [op for op in opcodes.INSTRUCTIONS if 'EQ' in [p.name for p in op.parts or (op,)]]
    both = [op for op in eqs if op.code in generated_cases.INLINE_HANDLERS]
    gone = ''.join(before.values()).count(' == ') - ''.join(after.values()).count(' == ')
    assert both and gone == len(eqs) + len(both) + 3


def test_every_instruction_runs_from_its_body_but_the_quiet_variant_s():
    # the design card's DEAL, PLAY, ORDER, ASK, CALL, ... too: Machine keeps
    # only the loop and its entry points
    assert not [name for name in vars(vm.Machine) if name.startswith('op_')]
    for op in opcodes.INSTRUCTIONS:
        from_body = cases.derived(op)
        assert from_body or op.name in ('QUIET_MESSAGE', 'QUIET_LOOP', 'QUIET_FOR'), op.name
        if not op.inline:
            assert vm.HANDLERS[op.code] is not None, op.name
            assert (vm.HANDLERS[op.code] is generated_cases.HANDLERS.get(op.code)) == from_body


def test_a_superinstruction_passes_values_between_its_parts_in_locals():
    # LOAD_LOCAL LOAD_PROP: no push of the local between them
    text = cases.compose(opcodes.BY_NAME['LOAD_LOCAL_PROP'], cases.CONTEXTS['loop'],
                         ['arg[0]', 'arg[1]'])
    assert text.count('push(') == 1 and 'pop()' not in text
    assert "raise Fault('Undefined value', 1)" in text      # the part that fails


def test_a_body_may_not_jump_where_nothing_can():
    with pytest.raises(ValueError, match='JUMP in a context'):
        cases.compose(opcodes.BY_NAME['JUMP_IF_FALSE'], cases.CONTEXTS['closure'], ['t'], ['f0'])


def test_a_card_closure_reads_its_suit_before_it_checks_its_rank_as_the_loop_does():
    # The loop has both operands on its stack before MAKE_CARD checks the
    # rank; a closure that checked the rank first failed with "The value 0
    # can't be a Rank" where the loop's error is the suit's "Undefined
    # value" (test_closures_match_the_loop, PIPVM_FUZZ_SEED=1621129596).
    def undefined(env):
        raise Fault('Undefined value', 0)
    card = generated_cases.closure_MAKE_CARD(0, lambda env: 0, undefined)
    with pytest.raises(Fault, match='Undefined value'):
        card([SimpleNamespace(deck=[])])


def test_the_generated_code_follows_the_table_s_numbers(monkeypatch):
    # the numbers come from the one table too: renumbering an instruction
    # there changes the loop's branch and the handlers' index
    renumbered = tuple(plain.evolve(op, code=250) if op.name in ('JUMP', 'DIV') else op
                       for op in opcodes.INSTRUCTIONS)
    monkeypatch.setattr(cases, 'INSTRUCTIONS', renumbered)
    after = cases.outputs()
    assert 'elif op == 250:    # JUMP' in after[cases.VM]
    assert '250: op_DIV,' in after[cases.OUT] and '23: op_DIV' not in after[cases.OUT]


def test_no_body_binds_a_name_of_the_bodies_namespace():
    # A whole action (actions.py) writes every body into one Python function,
    # so a name one body binds (an input, an output, an operand, an assigned
    # local) is that function's local everywhere: a helper of the same name
    # is then unbound where another body calls it (OPTION's `asked` once
    # shadowed ASK's helper: UnboundLocalError in a generated action)
    space = set(vars(generated_cases))
    checked = 0
    for op in opcodes.INSTRUCTIONS:
        for body in (op.body, op.quiet):
            if body:
                stored = {n.id for n in ast.walk(ast.parse(body))
                          if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
                bound = stored | set(op.inputs) | set(op.outputs) | set(op.names)
                assert not bound & space, (op.name, sorted(bound & space))
                checked += 1
    assert checked > 80


def test_a_for_iter_over_the_list_the_part_before_made_takes_no_snapshot_of_it():
    # LIST_CONST's list is new and nobody else's: FOR_ITER iterates it as it
    # is; a list read from a global (anyone's) is still copied first
    ctx = cases.CONTEXTS['handler']

    def composed(*names):
        parts = tuple(opcodes.BY_NAME[n] for n in names)
        return cases.compose(SimpleNamespace(parts=parts), ctx, ['arg[1]'], forwarded=False)
    fresh = composed('LIST_CONST', 'FOR_ITER')
    assert 'iter(value0)' in fresh and 'iter(list(' not in fresh, fresh
    assert 'iter(list(value0))' in composed('LOAD_GLOBAL', 'FOR_ITER')
    # and the loop goes over the constant's items all the same
    space = dict(vars(generated_cases))
    exec('def f(self, stack, frame, arg, consts):\n    ' + fresh.replace('\n', '\n    '), space)
    stack = []
    space['f'](SimpleNamespace(consts=[[1, 2, 3]]), stack, [], (None, 0), [[1, 2, 3]])
    assert list(stack.pop()) == [1, 2, 3]
