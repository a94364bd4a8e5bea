"""Superinstructions and jump threading change speed, never behaviour."""
import glob
import os

import pytest

from compiler.pip import frontend
from compiler.codegen.assembler import Assembler
from pipvm.isa import opcodes, pipc
from pipvm.engine import vm
from pipvm.play.table import TableGame

from .fuzz import harness
from .test_regressions import cases, read_case

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def unfused_engine(checked):
    image = vm.Image(harness.compile_checked(checked), fuse=False)
    return lambda table, rng: TableGame(image, table, rng, harness.MAX_STEPS)


@pytest.mark.parametrize('name', cases())
def test_fused_and_unfused_runs_are_identical(name):
    source, seed, answers = read_case(name)
    checked = frontend.check_text(source)
    fused = harness.run(harness.vm_engine(checked), seed, answers)
    plain = harness.run(unfused_engine(checked), seed, answers)
    assert fused == plain


def fused_names(source, kind='action'):
    program = pipc.load(pipc.dump(frontend.compile_text(source)), 'x')
    image = vm.Image(program)
    names = {op.code: op.name for op in opcodes.INSTRUCTIONS}
    return [[names[op] for op, _, _ in loaded.instrs]
            for code, loaded in zip(program.codes, image.codes) if code.kind == kind]


HEAD = 'Game "g" requires 2 players.\nNumber n = 1.\nSuit s = H.\n'


def test_hot_runs_fuse():
    rule = HEAD + 'Rule r(p, c, d) = c->rank == 8 or c->suit == s or c->rank == d->first->rank.\n' \
        'Action main { }\n'
    assert fused_names(rule, 'rule') == [['LOAD_LOCAL_PROP', 'EQ_CONST_OR', 'LOAD_LOCAL_PROP',
                                          'EQ_GLOBAL', 'JUMP_IF_TRUE_OR_POP', 'LOAD_LOCAL_PROP',
                                          'LOAD_LOCAL_ITEM_PROP', 'EQ', 'RETURN_VALUE']]


def test_no_fusion_across_a_jump_target():
    # `n + 1` after an if: the jump past the message lands on the CONST, so
    # LOAD_GLOBAL n ... CONST ADD may fuse only as CONST ADD.
    source = HEAD + 'Action main {\n  if n == 2 { message "two". }\n  n = n + 1.\n}\n'
    body = fused_names(source)[0]
    assert 'ADD_CONST' in body
    code = Assembler()
    code.emit('CONST', 0)
    jump = code.emit('JUMP_IF_FALSE', 0)
    code.emit('CONST', 0)
    code.patch(jump)                            # lands between CONST and ADD
    code.emit('ADD')
    code.emit('POP')
    code.emit('RETURN')
    loaded = vm.Loaded(pipc.Code('action', 'a', [], bytes(code.code), []))
    assert [op for op, _, _ in loaded.instrs] == [
        opcodes.OP.CONST, opcodes.OP.JUMP_IF_FALSE, opcodes.OP.CONST, opcodes.OP.ADD,
        opcodes.OP.POP, opcodes.OP.RETURN]


def test_or_chains_jump_straight_to_their_end():
    source = HEAD + 'Rule r(p, c, d) = n == 1 or n == 2 or n == 3 or n == 4.\nAction main { }\n'
    program = frontend.compile_text(source)
    rule = next(c for c in program.codes if c.kind == 'rule')
    decoded = pipc.decode(rule.code)
    end = decoded[-1].offset
    jumps = [ins for ins in decoded if ins.op.name == 'JUMP_IF_TRUE_OR_POP']
    assert len(jumps) == 3 and all(ins.args == (end,) for ins in jumps)


@pytest.mark.parametrize('source, expected', [
    # LOAD_GLOBAL_PROP: the global undefined (part 0), then its property (part 1).
    (HEAD + 'Card c.\nAction main { let r be c->rank. }\n',
     'Error: Line 5, Col 24: Undefined value'),
    (HEAD + 'Action main {\n  let p be players->first.\n  let t be p->team.\n}\n',
     'Error: Line 6, Col 12: Undefined value'),
    # LOAD_LOCAL_ITEM_PROP: an empty list (part 1, at `top`).
    (HEAD + 'Area pile labeled "Pile" is faceup.\nDeck deck = standard.\n'
     'Rule r(p, c, d) = c->rank == d->top->rank.\n'
     'Action main {\n  deal 1 from deck to players.\n  let p be players->first.\n'
     '  if canplay r from p to pile { message "yes". }\n}\n',
     "Error: Line 6, Col 33: Can't get item from empty list"),
])
def test_a_fault_inside_a_superinstruction_has_its_part_s_position(source, expected):
    checked = frontend.check_text(source)
    answers = [0, 'A', 'B']
    fused = harness.run(harness.vm_engine(checked), 1, answers)
    reference = harness.run(harness.reference_engine(checked), 1, answers)
    assert fused.ending == reference.ending == expected


def test_examples_run_the_same_fused_and_unfused():
    for path in glob.glob(os.path.join(ROOT, 'examples', '*.pip')):
        with open(path, encoding='latin-1') as f:
            checked = frontend.check_text(f.read())
        answers = list(range(60))
        assert (harness.run(harness.vm_engine(checked), 3, answers)
                == harness.run(unfused_engine(checked), 3, answers)), path


def test_dis_fused_lists_what_the_vm_runs():
    from disasm.listing import listing
    from pipvm.play import loader
    names = {op.code: op.name for op in opcodes.INSTRUCTIONS}
    for path in glob.glob(os.path.join(ROOT, 'examples', '*.pip')):
        program = loader.load_program(path)
        lines = listing(program, fused=True).splitlines()
        listed = [line[14:].split()[0] for line in lines if line[6:12].strip().isdigit()]
        ran = [names[op] for loaded in vm.Image(program).codes for op, _, _ in loaded.instrs]
        assert listed == ran, path
        assert set(listed) & {f.name for f in opcodes.FUSED}


def rewritten(source):
    """fusion.rewrites of main, by the names the VM runs."""
    from pipvm.engine import fusion
    program = pipc.load(pipc.dump(frontend.compile_text(source)), 'x')
    code = program.codes[program.main]
    runs = fusion.runs(pipc.decode(code.code))
    return sorted(set(fusion.rewrites(runs).values()))


PLAYS = ('Game "g" requires 2 players.\nDeck d = standard.\nArea a labeled "A".\n'
         'Area b labeled "B".\nRule r(p, c, cl) = c->rank == 3.\nRule q(p, c, cl) = True.\n'
         'Action main { deal 5 from d to players. %s }\n')


@pytest.mark.parametrize('body, again', [
    ('if canplay r from players->first to a { play r from players->first to a. }', True),
    # something runs in between, or the operands or the rule differ: play looks again
    ('if canplay r from players->first to a { message "x". play r from players->first to a. }',
     False),
    ('if canplay r from players->first to a { play r from players->last to a. }', False),
    ('if canplay r from players->first to a { play r from players->first to b. }', False),
    ('if canplay r from players->first to a { play q from players->first to a. }', False),
    ('if not canplay r from players->first to a { message "x". } '
     'else { play r from players->first to a. }', False),
    # the branch is on a comparison of canplay's answer, not on the answer:
    # the play may run when canplay found nothing
    ('if (canplay r from players->first to a) == False { play r from players->first to a. }',
     False),
    # only a PLAY is rewritten: the same canplay again asks again
    ('if canplay r from players->first to a { if canplay r from players->first to a { '
     'message "x". } }', False),
])
def test_a_play_takes_canplays_cards_only_right_after_it(body, again):
    assert ('PLAY_AGAIN' in rewritten(PLAYS % body)) is again


def test_a_play_takes_canplays_cards_when_canplay_begins_the_action():
    # the reads before CANPLAY start at the code's first run
    first = ('Game "g" requires 2 players.\nArea a labeled "A".\nRule r(p, c, cl) = c->rank == 3.\n'
             'Action main { if canplay r from players->first to a { play r from players->first to a. } }\n')
    assert rewritten(first) == ['PLAY_AGAIN']


def test_a_rewrite_the_vm_does_not_know_is_refused(monkeypatch):
    # A load-time rewrite is mapped by name (vm.REWRITES): one with no
    # mapping used to run as PLAY_AGAIN.
    from pipvm.engine import fusion
    code = Assembler()
    code.emit('RETURN')
    plain = pipc.Code('action', 'a', [], bytes(code.code), [])
    monkeypatch.setattr(fusion, 'rewrites', lambda runs: {0: 'SHUFFLE'})
    with pytest.raises(ValueError, match="no load-time rewrite 'SHUFFLE'"):
        vm.Loaded(plain)
    monkeypatch.setattr(fusion, 'rewrites', lambda runs: {0: 'RETURN'})
    assert vm.Loaded(plain).instrs == [(opcodes.OP.RETURN, (), None)]


def test_the_loop_runs_inline_exactly_the_instructions_the_table_marks_inline():
    import ast
    import inspect
    tree = ast.parse(inspect.getsource(vm.Machine._run).lstrip())
    compared = [opcodes.BY_CODE[node.comparators[0].value].name for node in ast.walk(tree)
                if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name)
                and node.left.id == 'op' and isinstance(node.comparators[0], ast.Constant)]
    assert sorted(compared) == sorted(vm.INLINE)


def test_a_jump_forward_to_a_return_returns():
    # the end of an if's first branch jumps past the else to the action's end
    assert rewritten(PLAYS % 'if d->size > 0 { message "x". } else { message "y". }') == ['RETURN']


def test_every_example_keeps_fusions_contract():
    from pipvm.play import loader
    from .fuzz import fusion_contract
    for path in glob.glob(os.path.join(ROOT, 'examples', '*.pip')):
        assert fusion_contract.violations(vm.Image(loader.load_program(path))) == [], path


def test_the_contract_check_sees_a_fusion_or_a_rewrite_lost_or_added(monkeypatch):
    # fusing less, or losing or adding a rewrite, plays every game the same:
    # only the contract check of property 2 (tests/fuzz/fusion_contract.py) sees it
    from pipvm.engine import fusion
    from .fuzz import fusion_contract

    def image(body):
        return vm.Image(pipc.load(pipc.dump(frontend.compile_text(PLAYS % body)), 'x'))
    again = 'if canplay r from players->first to a { play r from players->first to a. }'
    other = 'if canplay r from players->first to a { play q from players->first to a. }'
    assert fusion_contract.violations(image(again)) == []
    assert fusion_contract.violations(image(other)) == []
    with monkeypatch.context() as m:
        m.setattr(fusion, 'fuse_runs', lambda decoded: [(ins.op, [ins]) for ins in decoded])
        assert any('the table fuses' in v for v in fusion_contract.violations(image(again)))
    with monkeypatch.context() as m:
        m.setattr(fusion, 'rewrites', lambda runs: {})
        assert any('contract says %d' % opcodes.OP.PLAY_AGAIN in v
                   for v in fusion_contract.violations(image(again)))
    with monkeypatch.context() as m:
        m.setattr(fusion, 'rewrites', lambda runs: {i: 'PLAY_AGAIN' for i, (op, _) in
                                                    enumerate(runs) if op.name == 'PLAY'})
        assert any('contract says %d' % opcodes.OP.PLAY in v
                   for v in fusion_contract.violations(image(other)))


def test_a_superinstruction_only_reads_if_each_of_its_parts_does():
    # EQ_CONST (CONST EQ) computes: between CANPLAY's branch and the PLAY it
    # is no read, so the PLAY looks again (the contract's PLAY_AGAIN needs
    # only reads there).  A hand-made file: the compiler's PLAY operands end
    # in loads.
    code = Assembler()
    operands = [('LOAD_BUILTIN', 0), ('CONST', 0), ('CONST', 0), ('EQ',)]
    for op in operands:
        code.emit(*op)
    code.emit('CANPLAY', 0)
    jump = code.emit('JUMP_IF_FALSE', 0)
    for op in operands:
        code.emit(*op)
    code.emit('PLAY', 0)
    code.patch(jump)
    code.emit('RETURN')
    loaded = vm.Loaded(pipc.Code('action', 'a', [], bytes(code.code), []))
    names = {op.code: op.name for op in opcodes.INSTRUCTIONS}
    ran = [names[op] for op, _, _ in loaded.instrs]
    assert ran == ['LOAD_BUILTIN', 'CONST', 'EQ_CONST', 'CANPLAY_JUMP_IF_FALSE',
                   'LOAD_BUILTIN', 'CONST', 'EQ_CONST', 'PLAY', 'RETURN']


def test_a_deal_from_a_global_to_players_fuses_only_for_its_mode():
    # LOAD_GLOBAL LOAD_BUILTIN [CONST] DEAL: one superinstruction for the
    # mode its effect was made for (deals_all); a DEAL of the other mode
    # takes other operands (a hand-made file), and its run stays apart
    # (and a shuffle of a global, SHUFFLE_GLOBAL)
    source = HEAD + 'Deck deck = standard.\nAction main {\n  shuffle deck.\n' \
        '  deal 3 from deck to players.\n  deal all from deck to players.\n}\n'
    assert fused_names(source)[0] == ['SHUFFLE_GLOBAL', 'DEAL_GLOBAL_BUILTIN_CONST',
                                      'DEAL_ALL_GLOBAL_BUILTIN', 'RETURN']
    OP = opcodes.OP
    for mode, operands in ((opcodes.DEAL_ALL, ('CONST',)), (0, ())):
        code = Assembler()
        code.emit('LOAD_GLOBAL', 0)
        code.emit('LOAD_BUILTIN', 0)
        for name in operands:
            code.emit(name, 0)
        code.emit('DEAL', mode)
        code.emit('RETURN')
        loaded = vm.Loaded(pipc.Code('action', 'a', [], bytes(code.code), []))
        assert [op for op, _, _ in loaded.instrs] == [
            OP.LOAD_GLOBAL, OP.LOAD_BUILTIN] + [OP.CONST] * len(operands) + [OP.DEAL, OP.RETURN]


def test_a_fault_of_a_fused_deal_is_its_own_part_s():
    # (the handler's DEAL part, not its first: the error's position is the DEAL's)
    from types import SimpleNamespace
    from pipvm.core.errors import Fault
    from pipvm.engine import generated_cases
    m = SimpleNamespace(globals=[7], players=[], consts=[1])
    for handler, arg, part in ((generated_cases.op_DEAL_GLOBAL_BUILTIN_CONST, (0, 0, 0, 2), 3),
                               (generated_cases.op_DEAL_ALL_GLOBAL_BUILTIN, (0, 0, 3), 2)):
        with pytest.raises(Fault) as e:
            handler(m, [], None, arg)
        assert (e.value.message, e.value.part) == ('Expected cards', part)
