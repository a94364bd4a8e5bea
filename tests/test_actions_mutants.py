"""The edits of pipvm/engine/actions.py that its playouts let live
(tools/mutation-results/actions.tsv), each caught here by a direct test."""
import os

from pipvm.engine import actions
from pipvm.engine.vm import Image
from pipvm.play import loader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _turn(monkeypatch):
    """Crazy Eights' `turn` (a callee written in where it is called: its
    function compiled at its first call), and its image."""
    monkeypatch.setattr(actions, '_MADE', {})
    image = Image(loader.load_program(os.path.join(ROOT, 'tests', 'data', 'full',
                                                   'crazy_eights.pip')), compiled=True)
    actions.prepare(image)
    return next(loaded for loaded in image.codes if loaded.code.name == 'turn'), image


def test_an_action_s_compiled_function_is_named_for_it(monkeypatch):
    # (the name a traceback or a profile shows)
    import random
    from pipvm.game.game import Game
    from pipvm.play.bots import playout
    turn, image = _turn(monkeypatch)
    later = turn.action
    assert later.source not in actions._MADE
    game = Game(image, seed=3, players=2, names=['a', 'b'], quiet=True)
    playout(game.fork(quiet=True), random.Random(3))
    assert turn.action is not later and turn.action.__name__ == 'action_turn'


def test_a_loud_function_is_compiled_when_it_is_made(monkeypatch):
    # (the loud code runs at once: loud_run calls it as it makes it)
    turn, image = _turn(monkeypatch)
    loud = actions.function(turn, loud=True, pures=image.pure)
    assert loud.source in actions._MADE
    assert loud.__code__ is actions._MADE[loud.source].__code__
    assert loud.__name__ == 'action_turn'


def test_an_image_s_actions_get_their_functions_once(monkeypatch):
    # (prepare again, at each playout's start, keeps the functions it made)
    turn, image = _turn(monkeypatch)
    made = [loaded.action for loaded in image.codes]
    actions.prepare(image)
    assert all(a is b for a, b in zip(made, [loaded.action for loaded in image.codes]))
    assert turn.action is not None


def test_an_undefined_global_a_quiet_message_shows_goes_on_in_the_loud_code(monkeypatch):
    # (its quiet check fails: LOUD_RUN makes the loud function at its first
    # use, and it fails as the loop does)
    from tests.test_actions import GAME, _play_outs, _program
    ran = []
    real = actions.loud_run
    monkeypatch.setattr(actions, 'loud_run', lambda *a: ran.append(a[2]) or real(*a))
    program = _program((GAME % 'Number m.').replace(
        '  n += 1.\n}\nAction turn', '  n += 1.\n  message "{m}".\n}\nAction turn'))
    (loop, _), (tier, functions) = _play_outs(program)
    assert functions and ran and loop == tier
    assert {o[1] for o in tier} == {('error', None, 'Error: Line 9, Col 13: Undefined value')}


def test_a_value_left_under_an_ask_s_options_is_on_the_stack_where_its_answer_goes():
    # (a hand-made file: 6 pushed, then an ask whose answer jumps to the
    # code that stores it; a run pushes what it holds before a decision
    # that may leave it, cases.compose's `leaving`)
    from tests.test_actions import _hand_made, _play_outs
    other = ('Action other {\n  ask players->first {\n'
             '    for c in players->first->hand "Play {c}" { n += 1. }\n  }\n}')
    program = _hand_made([('CONST', 6), ('LOAD_BUILTIN', 0), ('LIST_PROP', 1),
                          ('LIST_CONST', 2), ('CONST', 3), ('CONST', 4), ('OPTION', 0),
                          ('ASK_FROM', 1), ('JUMP', 21), ('STORE_GLOBAL', 1), ('RETURN',)], other)
    assert program.consts[2:5] == [(), 'Play ', True]
    (loop, _), (tier, functions) = _play_outs(program)
    assert functions and loop == tier
    assert [o[2][0][1] for o in loop] == [6, 6]     # (the global n)


def test_a_function_s_line_map_holds_only_the_lines_of_its_body(monkeypatch):
    # (a Fault's position is the unit AT gives the line the traceback stops
    # at: its keys are the body's lines, after the prologue, before the tail)
    turn, image = _turn(monkeypatch)
    for fn in (turn.action, actions.function(turn, loud=True, pures=image.pure)):
        lines = fn.source.split('\n')
        first = lines.index('        while True:') + 2     # (numbered from 1)
        last = lines.index('    except Fault as f:')
        assert first <= min(fn.at) and max(fn.at) <= last
        # (the first line of the body a unit writes: the tree's test before it has none)
        assert lines[first - 1].strip().startswith('if pc ') and first + 1 in fn.at


def test_each_unit_names_the_first_instruction_it_writes(monkeypatch):
    # (joins.py finds a join's code by the unit whose first instruction is
    # the join: firsts, unit -> that index; a unit's positions, P[u], are
    # its instructions' in order)
    from pipvm.engine import reach
    turn, image = _turn(monkeypatch)
    _, quiet, positions = turn.plain
    writer = actions._Writer(quiet, reach.starts(turn, quiet, set()), positions, image.pure)
    writer.shown = False                # (as function() sets it: kinds.items_shown's)
    writer.source()
    longer = [u for u, first in writer.firsts.items()
              if len(writer.units[u]) > len(positions[first])]
    assert longer and all(writer.units[u][:len(positions[first])] == tuple(positions[first])
                          for u, first in writer.firsts.items())
    assert any(writer.units[u][-1] != positions[first][-1] for u, first in writer.firsts.items())


def test_an_undefined_item_a_loud_loop_shows_fails_where_it_is_read(monkeypatch):
    # (a hand-made file: AGG_START of a max leaves None, put in a list; the
    # quiet loop over it goes loud, and the loud function's `for` must test
    # its item: items_shown is the program's, not the loud function's own)
    from compiler.codegen.assembler import Assembler
    from pipvm.isa import pipc
    from pipvm.isa.operands import AGG_MAX
    from tests.test_actions import GAME, _play_outs, _program
    ran = []
    real = actions.loud_run
    monkeypatch.setattr(actions, 'loud_run', lambda *a: ran.append(a[2]) or real(*a))
    program, asm = _program(GAME % ''), Assembler()
    for col, (op, *args) in enumerate([
            ('AGG_START', AGG_MAX), ('BUILD_LIST', 1), ('FOR_ITER',), ('FOR_NEXT', 0, 21),
            ('LOAD_LOCAL', 0), ('FORMAT', 1), ('MESSAGE_ALL',), ('JUMP', 5), ('RETURN',)]):
        asm.emit(op, *args, pos=(8, col + 1))
    k = [c.name for c in program.codes].index('helper')
    program.codes[k] = pipc.Code('action', 'helper', ['x'], bytes(asm.code), asm.lines)
    program = pipc.load(pipc.dump(program), '<hand-made>')
    (loop, _), (tier, functions) = _play_outs(program)
    assert functions and ran and loop == tier
    assert {o[1] for o in tier} == {('error', None, 'Error: Line 8, Col 5: Undefined value')}


def test_a_fault_is_placed_by_the_unit_of_the_line_it_stops_at():
    # (positioned: AT maps the function's line the traceback stops at to its
    # unit, P gives that unit's positions by part)
    from pipvm.core.errors import Fault, PipError
    space = {'Fault': Fault}
    exec(compile('def action():\n    try:\n        raise Fault("boom")\n'
                 '    except Fault as f:\n        return f\n', '<test>', 'exec'), space)
    fault = space['action']()
    fault.part = 1
    placed = actions.positioned(fault, [((1, 1), (2, 5)), ((3, 1), (4, 7))], {3: 0, 4: 1})
    assert str(placed) == str(PipError((2, 5), 'boom'))


def test_an_action_calling_with_arguments_one_without_a_function_has_none(monkeypatch):
    # (prepare: a caller's calls are CALL's operand or CALL_WITH's callee,
    # its second: `turn` calls `helper` with 2 arguments, helper gets no
    # function, so neither does turn, nor main that calls it: a function
    # would call helper's, None; the loop plays them)
    from tests.test_actions import GAME, _play_outs, _program
    real = actions.function

    def function(loaded, *args, **kwargs):
        if loaded.code.name == 'helper':
            raise ValueError('no function')     # (as for a body no run composes)
        return real(loaded, *args, **kwargs)

    monkeypatch.setattr(actions, 'function', function)
    program = _program((GAME % '').replace('Action helper {\n  n += 1.',
                                           'Action helper(Number x, Number y) {\n  n += x + y.')
                       .replace('helper().', 'helper(1; 2).'))
    names = [c.name for c in program.codes]
    assert names.index('helper') != 2 and names[2] == 'turn'    # (2: its count of arguments)
    image = Image(program, compiled=True)
    actions.prepare(image)
    assert [loaded.code.name for loaded in image.codes if loaded.action is None] == names
    (loop, _), (tier, _) = _play_outs(program)
    assert loop == tier


def test_a_function_s_layout_takes_a_pass_more_at_most(monkeypatch):
    # (_Writer.source lays the runs out again while their stops move, but
    # past two passes takes the third's; one whose stops repeat at once
    # (none: act40) takes one.  main's, joined, moves them at each pass)
    names, passes = [], []
    real_function, real_source, real_tree = (actions.function, actions._Writer.source,
                                             actions._Writer._tree)

    def function(loaded, *args, **kwargs):
        names.append(loaded.code.name)
        return real_function(loaded, *args, **kwargs)

    def source(self):
        passes.append([names[-1], 0])
        return real_source(self)

    def tree(self, starts, indent, first=()):
        real_tree(self, starts, indent, first)
        if indent == 12 and not self.unwritten:     # (a pass written whole)
            passes[-1][1] += 1

    monkeypatch.setattr(actions, 'function', function)
    monkeypatch.setattr(actions._Writer, 'source', source)
    monkeypatch.setattr(actions._Writer, '_tree', tree)
    image = Image(loader.load_program(os.path.join(ROOT, 'tests', 'data',
                                                   'beliefs_unshuffled_1.pip')), compiled=True)
    actions.prepare(image)
    for loaded in image.codes:
        if loaded.action is not None:
            actions.function(loaded, loud=True, pures=image.pure)
    assert {n for n, _ in passes} == {'act40', 'main'}
    assert max(k for _, k in passes) == 3
    assert [k for n, k in passes if n == 'act40'] == [1, 1]     # (quiet and loud)


def test_an_empty_forever_counts_a_step_at_each_round():
    # (JUMP's body ticks where target < pc, the index after the jump: a
    # jump to itself, `forever { }`, is a round of a loop, and the playout
    # ends at the step limit as the loop's does, not in an endless loop)
    from tests.test_actions import GAME, _play_outs, _program
    program = _program((GAME % '').replace('Action helper {\n  n += 1.',
                                           'Action helper {\n  n += 1.\n  forever { }'))
    image = Image(program, compiled=True)
    actions.prepare(image)
    helper = next(loaded for loaded in image.codes if loaded.code.name == 'helper')
    assert 'raise StepLimit' in helper.action.source
    (loop, _), (tier, functions) = _play_outs(program, seeds=(1,))
    assert functions and loop == tier and loop[0][1][0] == 'step limit'


def test_a_rule_s_filter_is_called_as_the_function_s_operand(monkeypatch):
    # (filters.direct_filters writes PLAY's playable as a call of the rule's
    # filter, an operand the writer keeps; were the operand wrong, the call
    # would fail and playable run instead: the same cards, slower)
    import re
    turn, image = _turn(monkeypatch)
    for loaded in (turn, next(loaded for loaded in image.codes if loaded.code.name == 'main')):
        operands = loaded.action.__defaults__[1]
        called = re.findall(r'A\[(\d+)\]\(self, ', loaded.action.source)
        assert called and all(callable(operands[int(k)]) for k in called)


def test_every_action_of_every_example_runs_as_a_function():
    # play-out mode gives each action of the bundled games its function: an
    # action the writer gave up on (ValueError) would run in the loop, the
    # same game but the playouts' speed lost where a run ends at a quiet
    # instruction that hands over to the loud code (_Writer.run's `i is None`)
    import glob
    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'examples')
    paths = sorted(glob.glob(os.path.join(root, '*.pip')))
    assert len(paths) > 30
    for path in paths:
        image = Image(loader.load_program(path), compiled=True)
        actions.prepare(image)
        assert [loaded.code.name for loaded in image.codes
                if loaded.code.kind == 'action' and loaded.action is None] == [], path
