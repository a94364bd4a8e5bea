"""Joins (pipvm/engine/joins.py): a forward jump of an action's function
to where its own run goes on, written as an `if`/`else` falling out to the
join's code instead of a trip through the test tree; the playouts as the
loop's."""
import os
import re

from pipvm.engine import actions, answers, joins
from pipvm.engine.vm import Image
from pipvm.play import loader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAD = ' ' * 12

# (the `if` and the lines between are units 0 and 1, of instructions 2 and
# 3; the join's code unit 2, of instruction 5; all straight)
JUMP = [('if not v:', 0), ('    push(v)', 0), ('    pc = 5', 0), ('    continue', 0),
        ('else:', 0), ('    pass', 0), ('x = 1', 1), ('if x:', 1), ('    push(x)', 1),
        ('y = pop()', 2)]
FIRSTS = {0: 2, 1: 3, 2: 5}


def _lines(body, pad=PAD):
    return [(pad + text, unit) for text, unit in body]


def _texts(lines, pad=PAD):
    return [text[len(pad):] for text, _ in lines]


def test_a_jump_to_where_its_run_goes_on_falls_out_of_an_else():
    out = joins.joined(_lines(JUMP), FIRSTS, [True] * 6)
    assert _texts(out) == ['if not v:', '    push(v)', 'else:', '    pass', '    x = 1',
                           '    if x:', '        push(x)', 'y = pop()']
    # (each line keeps its unit; the lines made are the `if`'s)
    assert [u for _, u in out] == [0, 0, 0, 0, 1, 1, 1, 2]
    # a jump alone in its block: `pass` there
    alone = [('if not v:', 0), ('    pc = 5', 0), ('    continue', 0), ('y = pop()', 2)]
    assert _texts(joins.joined(_lines(alone), FIRSTS, [True] * 6)) == [
        'if not v:', '    pass', 'y = pop()']


def test_a_jump_is_left_to_the_tree_where_its_run_does_not_go_on_there_alone():
    def left(lines, straight=(True,) * 6, firsts=FIRSTS):
        return joins.joined(lines, firsts, list(straight)) == lines
    # an instruction between that is not straight (a quiet one, a loop's head)
    assert left(_lines(JUMP), straight=(True, True, True, False, True, True))
    # a line of the tree between (no unit), a unit of the join or past it between
    assert left(_lines(JUMP[:6] + [('x = 1', None)] + JUMP[7:]))
    assert left(_lines(JUMP), firsts={0: 2, 1: 6, 2: 5})
    # the join's code deeper than the `if` (inside another block)
    assert left(_lines(JUMP[:-1] + [('if y:', 1), ('    y = pop()', 2)]))
    # a loop around it: there `continue` is the loop's
    loop = [('for frame[1] in stack[-1]:', 0)] + [('    ' + t, u) for t, u in JUMP]
    assert left(_lines(loop))
    # an `elif` going on the `if`'s chain; an `if` whose block goes on past the jump
    assert left(_lines(JUMP[:4] + [('elif w:', 0), ('    pass', 0)] + JUMP[6:]))
    assert left(_lines(JUMP[:4] + [('    x = 2', 0)] + JUMP[4:]))
    # a jump to another place
    assert left(_lines(JUMP), firsts={0: 2, 1: 3, 2: 4})


def _function(path, name):
    image = Image(loader.load_program(os.path.join(ROOT, path)), compiled=True)
    actions.prepare(image)
    return next(c.action for c in image.codes if c.code.name == name)


def test_oh_hell_s_bids_join_where_their_questions_conditions_meet(monkeypatch):
    # its ASK's conditions (`n >= 1 and not (hook and total_bid + 1 == n)`)
    # went through the test tree at each join once its budget of copies ran out
    joined = _function('examples/oh_hell.pip', 'bidding').source
    tree = lambda source: set(map(int, re.findall(r'pc = (\d+)$', source, re.M)))
    assert not tree(joined) & {30, 40, 41, 50, 51, 60, 61}
    assert re.search(r'\n( +)if not \w+:\n\1    push\(\w+\)\n\1else:\n', joined)
    monkeypatch.setattr(joins, 'wanted', lambda *args: set())
    assert {30, 40, 41, 50, 51, 60, 61} <= tree(_function('examples/oh_hell.pip', 'bidding').source)


def test_a_join_is_made_only_where_the_tree_went():
    # Euchre's play_trick: its copies ran out, but `must_follow = ... and
    # ...`'s jump was written again, within the budget: no join, no split
    # (a push and a pop more), where its other jumps went through the tree
    source = _function('examples/euchre.pip', 'play_trick').source
    assert not re.search(r'pc = 52$', source, re.M)
    assert not re.search(r'push\(res\)\n +globals_\[\d+\] = pop\(\)', source)


def test_a_function_written_again_with_joins_composes_each_run_once(monkeypatch):
    # (Oh Hell's `bidding`: written without joins, then with them; each
    # pass and the writing again take the runs composed before: prepare's
    # time, 67 -> 62 ms)
    composed, jumped = [], answers.jumped
    monkeypatch.setattr(answers, 'jumped', lambda text, writer, indexes: (
        composed.append((writer, tuple(indexes))), jumped(text, writer, indexes))[1])
    actions._MADE.clear()
    assert _function('examples/oh_hell.pip', 'bidding').source
    assert len(composed) == len(set(composed))
