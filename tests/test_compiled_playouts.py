"""Play-out mode on the compiled tier (pipvm/engine/actions.py): an action
the loop CALLs during Machine.play_out runs as one generated function.  A
playout must be the loop's exactly: the same answers, the same draws from
the policy's generator, the same ending (winner, step limit or error, at
the same position) and the same final state, from every state, on every
example game."""
import glob
import os
import random
import re
import sys

import pytest

from compiler.pip import frontend
from pipvm.core import plain
from pipvm.engine import actions, rewrites
from pipvm.engine.vm import Image
from pipvm.game.game import Game
from pipvm.play import loader
from pipvm.play.bots import playout
from tests.fuzz import harness

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, 'examples', '*.pip')))


def _states(image, program, n, seed0=1):
    """n quiet forks of decisions with a choice, from games answered at random."""
    players = program.counts[0] * (program.team_size or 1)
    states, seed = [], seed0
    while len(states) < n and seed < seed0 + 40:
        g = Game(image, seed=seed, players=players,
                 names=['P%d' % i for i in range(players)], quiet=True)
        rng = random.Random(seed)
        k = 0
        while g.decision is not None and len(states) < n:
            d = g.decision
            if len(d.options) > 1 and k % 3 == 0:
                states.append(g.fork(quiet=True))
            k += 1
            g.answer(rng.randrange(len(d.options)))
        seed += 1
    return states


def _outcome(g, rng):
    m = g.machine
    e = g.ending
    return (g.history, e and (e.kind, e.winner, str(e.error)), rng.getstate(),
            harness.snapshot(m), m.steps_left, len(m.frames))


def _play_outs(program, n=4, reps=3, steps=None):
    out = []
    for compiled in (False, True):
        image = Image(program, compiled=compiled)
        played, rng = [], random.Random(7)
        for s in _states(image, program, n):
            for _ in range(reps):
                g = s.fork(quiet=True)
                if steps is None:
                    playout(g, rng)
                else:
                    g.limit_steps(steps)
                    g.play_out(rng)
                played.append(_outcome(g, rng))
        out.append(played)
        if compiled and played:         # (the actions were made functions)
            assert any(loaded.action is not None for loaded in image.codes)
    return out


@pytest.mark.parametrize('path', EXAMPLES, ids=lambda p: os.path.basename(p)[:-4])
def test_a_playout_on_the_compiled_tier_is_the_loop_s(path):
    loop, compiled = _play_outs(loader.load_program(path))
    assert compiled == loop


def test_most_examples_have_playouts_to_compare():
    with_choices = [p for p in EXAMPLES if _states(Image(loader.load_program(p)),
                                                     loader.load_program(p), 1)]
    assert len(with_choices) >= len(EXAMPLES) - 3


@pytest.mark.parametrize('steps', [1, 7, 40, 300])
def test_a_playout_stops_at_the_same_step(steps):
    # the step limit reached inside an action run as a function
    program = loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip'))
    loop, compiled = _play_outs(program, n=2, reps=2, steps=steps)
    assert compiled == loop
    assert any(o[1] and o[1][0] == 'step limit' for o in loop)


FAILS = '''Game "g" requires 2 players.
Deck deck = standard.
Number n = 0.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action risky {
  n += 1.
  if n > 3 { let x be 10 / (n - n). }
}
Action turn {
  play any from players->first to table.
  risky().
}
Action main {
  shuffle deck.
  deal 6 from deck to players.
  forever { turn(). rotate players. }
}
'''


def test_an_error_in_an_action_run_as_a_function_is_at_its_line():
    program = harness.compile_checked(frontend.check_text(FAILS))
    loop, compiled = _play_outs(program, n=2, reps=1)
    assert compiled == loop
    errors = {o[1][2] for o in loop}
    assert any('Line 8' in e and 'Division by zero' in e for e in errors), errors


def test_a_quiet_message_that_fails_goes_on_loud_and_fails_where_the_loop_does():
    # QUIET_MESSAGE's check fails (an undefined global): the action goes on in
    # its loud code (actions.loud_run), which raises at the message's line
    program = harness.compile_checked(frontend.check_text(FAILS.replace(
        'Number n = 0.', 'Number n = 0.\nPlayer nobody.').replace(
        'if n > 3 { let x be 10 / (n - n). }', 'if n > 3 { message "{nobody} is here". }')))
    loop, compiled = _play_outs(program, n=2, reps=1)
    assert compiled == loop
    errors = {o[1][2] for o in loop}
    assert any('Line 9' in e and 'Undefined' in e for e in errors), errors


def test_the_functions_hold_only_the_table_s_text_and_indexes():
    # a constant by A[k] (or its index, CONST's operand); what is not the
    # table's text is an index (a slot, a count), an opcode or a property's
    # name (`value.rank`)
    program = loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip'))
    fns = list(_made(program).values())
    assert len(fns) >= 6 and any('A[' in fn.source for fn in fns)
    for fn in fns:
        assert 'OPERAND' not in fn.source and '@' not in fn.source
        assert 'getattr(' not in fn.source or 'getattr(value' not in fn.source
        for const in program.consts:
            if isinstance(const, str) and len(const) > 3:
                assert repr(const) not in fn.source and '"%s"' % const not in fn.source


def _made(program):
    """The compiled tier's function of each of program's actions that has
    one, by the action's name (made as a playout makes them)."""
    image = Image(program, compiled=True)
    actions.prepare(image)
    return {loaded.code.name: loaded.action for loaded in image.codes if loaded.action}


def _deep(n):
    """A chain of n actions, each calling the one before (Pip has no recursion:
    an action calls only those defined before it)."""
    lines = ['Game "g" requires 2 players.', 'Number n = 0.', 'Rule any(p, c, pile) = True.',
             'Area table labeled "Table" is faceup.', 'Action a0 { n += 1. }']
    lines += ['Action a%d { n += 1. a%d(). }' % (k, k - 1) for k in range(1, n)]
    lines += ['Action turn {', '  play any from players->first to table.',
              '  a%d().' % (n - 1), '  rotate players.', '}',
              'Action main {', '  deal 20 from standard to players.',
              '  forever { turn(). }', '}']
    return '\n'.join(lines) + '\n'


@pytest.mark.parametrize('steps', [1500, 100_000])
def test_actions_called_1500_deep_run_as_functions_as_in_the_loop(steps):
    # deeper than Python's default recursion limit allows two frames a call
    program = harness.compile_checked(frontend.check_text(_deep(1500)))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)         # (Python's default: pytest's plugins may raise it)
    try:
        loop, compiled = _play_outs(program, n=1, reps=1, steps=steps)
    finally:
        sys.setrecursionlimit(limit)
    assert compiled == loop and loop


RECURSE = '''Game "g" requires 2 players.
Number total = 0.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action count(Number k) gives Number {
  if k <= 0 { give 0. }
  give 1 + count(k - 1).
}
Action turn(Number depth) {
  play any from players->first to table.
  total = total + count(depth).
  rotate players.
}
Action main {
  deal 5 from standard to players.
  turn(10).
  turn(300).
  turn(%d).
  turn(5).
}
'''


@pytest.mark.parametrize('depth', [900, 997, 998, 2000])
def test_recursion_and_its_depth_limit_in_a_playout_are_the_loop_s(depth):
    # CALL_FOR / GIVE as functions: the results, and the limit's error at the
    # same call (the frame records counted as in the loop)
    program = harness.compile_checked(frontend.check_text(RECURSE % depth))
    loop, compiled = _play_outs(program, n=2, reps=1)
    assert compiled == loop and loop
    endings = {o[1] for o in loop}
    if depth >= 998:             # (main, turn and count 0..998: 1001 frames)
        assert any('more than 1000 deep' in str(e) for e in endings), endings
    else:
        assert all(e[0] != 'error' for e in endings), endings


QUIET_LOOPS = '''Game "g" requires 2 players.
Deck deck = standard.
Number n = 0.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action show {
  n += 1.
  let big be 3.
  for c in players->first->hand { message "{c} and {big}". }
  for x in [1; 2; n] { message "{x} and {n}". }
}
Action turn {
  play any from players->first to table.
  show().
}
Action main {
  shuffle deck.
  deal 6 from deck to players.
  forever { turn(). rotate players. }
}
'''


@pytest.mark.parametrize('steps', [None, 9, 40])
def test_a_quiet_loop_written_out_stops_where_the_loop_does(steps):
    # the quiet loops over cards (the first item's check, written out in the
    # function) and over Numbers (bodies.quiet_rounds') count their steps as the
    # loop does: the step limit stops inside them at the same step
    program = harness.compile_checked(frontend.check_text(QUIET_LOOPS))
    loop, compiled = _play_outs(program, n=2, reps=2, steps=steps)
    assert compiled == loop
    if steps is not None:
        assert any(o[1] and o[1][0] == 'step limit' for o in loop)
    source = '\n'.join(fn.source for fn in _made(program).values())
    assert 'env_[' in source and 'QUIET_ROUNDS' in source      # (both ways are there)


def _too_long(program, literal):
    """program with its constant literal made a Number too long to show
    (only a hand-made file holds one: the compiler refuses such a literal)."""
    consts = list(program.consts)
    consts[consts.index(literal)] = 7 ** 6000
    return plain.evolve(program, consts=type(program.consts)(consts))


def test_a_shown_number_too_long_fails_as_in_the_loop():
    # (only a hand-made file holds one: the compiler refuses such a literal)
    program = harness.compile_checked(frontend.check_text(QUIET_LOOPS.replace(
        'let big be 3.', 'let big be 3.\n  if n > 3 { big = 123457. }')))
    program = _too_long(program, 123457)
    loop, compiled = _play_outs(program, n=2, reps=2)
    assert compiled == loop
    errors = {o[1][2] for o in loop if o[1]}
    assert any('Line 10' in e and 'too large' in e for e in errors), errors


def test_a_quiet_loop_over_an_item_too_long_to_show_fails_as_in_the_loop():
    # the written-out loop's one test of the items' types (no undefined item,
    # no Number) sends a list holding a Number to bodies.quiet_rounds, which
    # fails at the item too long to show where the loop does
    # (its messages show only locals: the loop written out in the function)
    program = harness.compile_checked(frontend.check_text(QUIET_LOOPS.replace(
        'for x in [1; 2; n] { message "{x} and {n}". }',
        'for x in [1; 123458; big] { message "{x} and {big}". }')))
    program = _too_long(program, 123458)
    loop, compiled = _play_outs(program, n=2, reps=2)
    assert compiled == loop
    errors = {o[1][2] for o in loop if o[1]}
    assert any('Line 10' in e and 'too large' in e for e in errors), errors
    source = '\n'.join(fn.source for fn in _made(program).values())
    assert 'UNSHOWN.isdisjoint' in source


@pytest.mark.parametrize('fault', ['big', 'undefined'])
def test_a_quiet_message_showing_a_global_fails_as_in_the_loop(fault):
    # a message showing locals and a global runs its check only where one of
    # them is undefined or a Number too long to show (tested in the
    # function); then the check fails and the loud code fails where the loop does
    source = QUIET_LOOPS.replace('Number n = 0.', 'Number n = 0.\nNumber g%s.' % (
        ' = 0' if fault == 'big' else '')).replace('  n += 1.\n', '  n += 1.\n%s' % (
            '  if n > 3 { g = 123459. }\n  message "{n} and {g}".\n' if fault == 'big'
            else '  if n > 3 { message "{n} and {g}". }\n'))
    program = harness.compile_checked(frontend.check_text(source))
    if fault == 'big':
        program = _too_long(program, 123459)
    loop, compiled = _play_outs(program, n=2, reps=2)
    assert compiled == loop
    errors = {o[1][2] for o in loop if o[1]}
    line, what = ('Line 10', 'too large') if fault == 'big' else ('Line 9', 'Undefined')
    assert any(line in e and what in e for e in errors), errors
    source = '\n'.join(fn.source for fn in _made(program).values())
    assert re.search(r'if globals_\[\d+\] is None or', source)


def test_folded_takes_the_branch_of_integer_tests_only():
    text = ('if 0 == 0:\n    a = 1\nelif 0 == 1:\n    a = 2\nelse:\n    a = 3\nb = a\n'
            'if 7 < 5:\n    x()\nif 5 < 7:\n    y()\n    if 1 >= 2:\n        z()\n'
            'if n == 0:\n    w()\nif 1 == 2:\n    u()\nelif n:\n    v()')
    assert rewrites.folded(text) == ('a = 1\nb = a\ny()\n'
                                      'if n == 0:\n    w()\nif 1 == 2:\n    u()\nelif n:\n    v()')
    assert rewrites.folded('if 1 == 2:\n    a()\nelse:\n    b()\nc()') == 'b()\nc()'


ANDS = '''Game "g" requires 2 players.
Number n = 0.
Number hits = 0.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action judge {
  if n > 2 and n < 9 { hits += 1. }
  elseif n == 1 and hits == 0 { hits += 2. }
  elseif n == 12 { hits += 1000 / (n - n). }
  else { hits -= 1. }
}
Action turn {
  play any from players->first to table.
  n += 1.
  judge().
  rotate players.
}
Action main {
  deal 20 from standard to players.
  forever { turn(). }
}
'''


def test_ands_and_forward_jumps_are_threaded_and_written_where_they_jump():
    # `and`: its false value jumps straight past the `if` (no push, no pop);
    # the if/elif chain's jumps are the runs they go to (no test tree), and
    # the division by zero at n == 12 still fails at its line as on the loop
    program = harness.compile_checked(frontend.check_text(ANDS))
    judge = _made(program)['judge']
    assert 'push(' not in judge.source and ' pop()' not in judge.source
    body = judge.source.split('while True:', 1)[1]
    assert not re.search(r'pc = \d+\n +continue', body), judge.source
    loop, compiled = _play_outs(program, n=2, reps=2)
    assert compiled == loop
    errors = {o[1][2] for o in loop if o[1]}
    assert any('Line 9' in e and 'Division by zero' in e for e in errors), errors


def test_inlined_list_props_and_cards_call_the_runtime_where_it_answers():
    assert rewrites.inlined('x = list_prop(value1, 0, 2)') == 'x = len(value1)'
    assert rewrites.inlined('x = list_prop(v, 1, 3) + list_prop(v, 2, 4)') == (
        'x = (v[0] if v else list_prop(v, 1, 3)) + (v[-1] if v else list_prop(v, 2, 4))')
    # an Area's cards, a Player's hand: of a local, or of the value popped
    assert rewrites.inlined('to = cards_of(dest)\nsource = cards_of(pop())') == (
        'to = (dest.cards if (ct_ := type(dest)) is Area else dest.hand if ct_ is Player '
        'else dest if ct_ is list else cards_of(dest))\n'
        'source = (cv_.cards if (ct_ := type((cv_ := pop()))) is Area else cv_.hand '
        'if ct_ is Player else cv_ if ct_ is list else cards_of(cv_))')
    assert rewrites.inlined('list_prop(a.b, 1, 0)') == 'list_prop(a.b, 1, 0)'
    # an ASK's one question, enabled or not; DEAL's mode bits
    assert rewrites.inlined('e, t = questions_enabled(flat, 1)') == (
        'e, t = (([0], [flat[0]]) if flat[1] else ([], []))')
    assert rewrites.inlined('questions_enabled(flat, 2)') == 'questions_enabled(flat, 2)'
    assert rewrites.inlined('c = None if 1 & DEAL_ALL else 3 & DEAL_TO_PLAYERS') == (
        'c = None if 1 else 2')


SUMS = '''Game "g" requires 2 players.
Deck deck = standard.
Number n = 0.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action turn {
  play any from players->first to table.
  let r be table->cards->top->rank.
  n = r + 1.
  n = n - 2 + r.
  message "{n}".
}
Action main {
  shuffle deck.
  deal 6 from deck to players.
  forever { turn(). rotate players. }
}
'''


def test_a_sum_of_a_number_or_a_rank_adds_without_int_s_call():
    # ADD's and SUB's `int(a) + b`, a whole operand: a + b for a Number a
    assert rewrites.inlined('x = int(value1) + consts[3]\npush(int(v) - w)') == (
        'x = (value1 + consts[3] if isinstance(value1, int) else int(value1) + consts[3])\n'
        'push((v - w if isinstance(v, int) else int(v) - w))')
    assert rewrites.inlined('r = int(a) + (int(b) + c)') == (
        'r = int(a) + ((b + c if isinstance(b, int) else int(b) + c))')
    # (not where an operator around it binds tighter, nor of more than a name)
    for text in ('x = int(a) + b * c', 'x = d - int(a) + b', 'x = int(a) + b[1].c',
                 'x = int(a.b) + c', 'x = int(a)'):
        assert rewrites.inlined(text) == text, text
    # a Rank (`r + 1`: int's sum makes it the Number) plays as in the loop
    program = harness.compile_checked(frontend.check_text(SUMS))
    turn = _made(program)['turn']
    assert turn.source.count(', int) else int(') >= 3, turn.source
    loop, compiled = _play_outs(program, n=2, reps=2)
    assert compiled == loop


CONTAINS = '''Game "g" requires 2 players.
Deck deck = standard.
Boolean has.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action turn {
  let s be table->cards->top->suit.
  has = s in players->first->hand.
  if has { rotate players. }
  has = Q in players->first->hand.
  if has { deal 1 from deck to players->first. }
  play any from players->first to table.
}
Action main {
  shuffle deck.
  deal 6 from deck to players.
  deal 1 from deck to table.
  forever { turn(). rotate players. }
}
'''


def test_a_suit_is_in_a_list_that_holds_it_or_a_card_of_it_alone():
    # (bodies.SUIT_IN, the one text of the loop's and the tier's answer)
    from pipvm.core import runtime
    from pipvm.engine import bodies
    deck = runtime.new_deck()
    clubs, hearts = deck[0].suit, deck[13].suit
    for lst, found in [([deck[13]], True), ([deck[0], deck[14]], True), ([hearts], True),
                       ([deck[0], clubs], False), ([], False),
                       ([runtime.Player('p'), 3, 'H'], False)]:
        assert bodies.contains(lst, hearts) is found, lst
        space = {'lst': lst, 'x': hearts, 'Card': runtime.Card}
        exec(bodies.SUIT_IN.format(res='res', lst='lst', x='x'), space)
        assert space['res'] is found, lst


def test_a_suit_in_a_list_is_looked_for_without_a_call():
    # IN's `contains(lst, x)` on a line of its own: a Suit's loop written out
    text = rewrites.inlined('    res3 = contains(value2, value0)')
    assert text.split('\n') == [
        '    if type(value0) is Suit:', '        res3 = False', '        for item_ in value2:',
        '            if (item_.suit is value0) if type(item_) is Card else item_ == value0:',
        '                res3 = True', '                break', '    else:',
        '        res3 = contains(value2, value0)']
    assert rewrites.inlined('x = f(contains(a, b))') == 'x = f(contains(a, b))'
    # (a Suit found or not, and a Rank by the call: as in the loop)
    program = harness.compile_checked(frontend.check_text(CONTAINS))
    turn = _made(program)['turn']
    assert turn.source.count('is Suit:') >= 2, turn.source
    loop, compiled = _play_outs(program, n=2, reps=3)
    assert compiled == loop


def test_values_pushed_for_the_next_body_s_pops_are_passed_in_their_names():
    deal = ['push(value0)', 'push(value1)', 'push(value2)', 'try:',
            '    count = None if 0 & DEAL_ALL else int(pop())', '    dest = pop()',
            '    source = cards_of(pop())', '    deal(source, dest, count)']
    # (DEAL's mode bit folded first: a count popped; DEAL all pops none)
    assert rewrites.inlined('\n'.join(deal)).split('\n') == [
        'try:', '    count = int(value2)', '    dest = value1',
        '    source = (value0.cards if (ct_ := type(value0)) is Area else value0.hand '
        'if ct_ is Player else value0 if ct_ is list else cards_of(value0))',
        '    deal(source, dest, count)']
    every = rewrites.inlined('\n'.join(deal[1:4] + ['    count = None if 1 & DEAL_ALL else '
                                                    'int(pop())'] + deal[5:]))
    assert every.split('\n')[:3] == ['try:', '    count = None', '    dest = value2']
    # an ASK's questions and its player; a value no line takes stays pushed
    ask = ['push(value9)', 'push(value0)', 'push(value1)', 'push(value2)', 'try:',
           '    flat = stack[-2 * 1:]', '    del stack[-2 * 1:]', '    player = pop()',
           '    enabled = len(flat)']
    assert rewrites.unstacked('\n'.join(ask)).split('\n') == [
        'push(value9)', 'try:', '    flat = [value1, value2]', '    player = value0',
        '    enabled = len(flat)']
    # what may read the stack, or not run, comes first: the pushes stay
    for first in ['    x = f(pop())', '    y = stack[-1]', '    if n:', '    z = 1 if n else pop()',
                  '    value1 = 3']:
        text = '\n'.join(['push(value1)', 'try:', first, '    dest = pop()'])
        assert rewrites.unstacked(text) == text, first


EMPTY = '''Game "g" requires 2 players.
Number n = 0.
Card seen.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Area pile labeled "Pile" is faceup.
Action look {
  n += 1.
  if n == 7 { seen = pile->cards->top. }
  else { seen = table->cards->top. n = n + pile->cards->size. }
}
Action turn {
  play any from players->first to table.
  look().
  rotate players.
}
Action main {
  deal 20 from standard to players.
  forever { turn(). }
}
'''


def test_the_top_of_an_empty_list_fails_at_its_line_as_on_the_loop():
    program = harness.compile_checked(frontend.check_text(EMPTY))
    loop, compiled = _play_outs(program, n=2, reps=1)
    assert compiled == loop
    errors = {o[1][2] for o in loop if o[1]}
    assert any('Line 9' in e and 'empty list' in e for e in errors), errors



def test_a_decision_drawn_by_getrandbits_makes_no_pending_choice():
    # (answers.py: a decision answered where it stands makes no pending
    # choice; the first, the fork's own, was made before play_out)
    for name in ('euchre', 'oh_hell'):
        program = loader.load_program(os.path.join(ROOT, 'examples', name + '.pip'))
        image = Image(program, compiled=True)
        g = _states(image, program, 1)[0].fork(quiet=True)
        seen = []

        class Bits(random.Random):      # (still drawn where it stands: game._bits)
            def getrandbits(self, k):
                seen.append(g.machine.pending)
                return super().getrandbits(k)

        g.play_out(Bits(3))
        # (the first answers the decision the fork was waiting at: its own)
        assert len(seen) > 10 and seen[0] is not None and all(p is None for p in seen[1:])


# A quiet loop over a hand whose message shows a Number besides the card:
# its check runs at each round, and fails (too long to show) once n has
# been doubled often enough, which goes on in the loud code.
SHOWN = '''Game "g" requires 2 players.
Number n = 1.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action turn {
  let p be players->first.
  let k be n.
  for c in p->hand { message p "{c} {k}". }
  play any from p to table.
  let i be 0.
  forever {
    if i == 1000 { skip to done. }
    n += n.
    i += 1.
  }
  label done.
  rotate players.
}
Action main {
  deal 20 from standard to players.
  forever { turn(). }
}
'''


def test_a_quiet_loop_over_a_list_just_pushed_takes_it_from_its_local():
    fn = _made(loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip')))['play_trick']
    assert 'rest_ = value\n' in fn.source and 'rest_ = stack[-1]' not in fn.source


@pytest.mark.parametrize('steps', [None, 9, 30, 14040])
def test_a_quiet_loop_s_check_that_fails_goes_on_loud_as_the_loop_does(steps):
    program = harness.compile_checked(frontend.check_text(SHOWN))
    loop, compiled = _play_outs(program, n=2, reps=1, steps=steps)
    assert compiled == loop and loop
    fn = _made(program)['turn']
    assert 'rest_ = value' in fn.source and 'env_[' in fn.source
    if steps is None:
        assert any(o[1] and 'too large to show' in o[1][2] for o in loop), [o[1] for o in loop]


def test_an_ask_s_answer_goes_straight_to_its_question_s_code():
    # (answers.jumped: not through the JUMP that follows the ASK)
    fn = _made(loader.load_program(os.path.join(ROOT, 'examples', 'oh_hell.pip')))['bidding']
    assert '+ enabled[choice_]' not in fn.source
    assert re.search(r'pc = \((\d+, ){5}\d+\)\[enabled\[choice_\]\]', fn.source)


def test_an_ask_s_jumps_that_count_a_step_are_kept():
    from types import SimpleNamespace
    from pipvm.engine import answers
    from pipvm.isa.opcodes import OP
    text = 'x\n    pc = A[0] + enabled[choice_]\n    continue'
    instrs = [(OP.ASK, (2, 1), None), (OP.JUMP, 5, None), (OP.JUMP, 6, None)] + [(0, 0, None)] * 4
    writer = SimpleNamespace(instrs=instrs, operands=[1])
    assert answers.jumped(text, writer, [0]) == text.replace('A[0] + enabled[choice_]',
                                                              '(5, 6)[enabled[choice_]]')
    for bad in ([(OP.JUMP, 0, None)], [(OP.RETURN, None, None)]):    # (back: a step; not a JUMP)
        writer.instrs = instrs[:2] + bad + instrs[3:]
        assert answers.jumped(text, writer, [0]) == text
    writer.instrs, writer.operands = instrs, [2]        # (not the ASK's own first)
    assert answers.jumped(text, writer, [0]) == text
    # the ASK's first written as its number (not an operand): the same
    writer.operands = []
    plain = text.replace('A[0]', '1')
    assert answers.jumped(plain, writer, [0]) == text.replace('A[0] + enabled[choice_]',
                                                               '(5, 6)[enabled[choice_]]')
    assert answers.jumped(plain.replace('= 1', '= 2'), writer, [0]) == plain.replace('= 1', '= 2')
    # not one ASK with its (n, first) among the run's instructions: kept
    writer.operands = [1]
    ask = instrs[0]
    for run, first in (([(OP.JUMP, 5, None)], [0]), ([ask, ask], [0, 1]),
                       ([(OP.ASK, (2, 1, 0), None)], [0]), ([(OP.ASK, 2, None)], [0])):
        writer.instrs = run + instrs[len(run):]
        assert answers.jumped(text, writer, first) == text
    # JUMPs that would run past the end: kept
    writer.instrs, writer.operands = [(OP.ASK, (2, 6), None)] + instrs[1:], [6]
    assert answers.jumped(text, writer, [0]) == text
    # no JUMPs, an n that is no number, a JUMP to itself or past the end: kept
    writer.operands = [1]
    for bad in ([(OP.ASK, (0, 1), None)] + instrs[1:], [(OP.ASK, ('2', 1), None)] + instrs[1:],
                instrs[:1] + [(OP.JUMP, 1, None)] + instrs[2:], instrs[:2] + [(OP.JUMP, 7, None)] + instrs[3:]):
        writer.instrs = bad
        assert answers.jumped(text, writer, [0]) == text
    # one question: straight to it as well
    writer.instrs = [(OP.ASK, (1, 1), None)] + instrs[1:]
    assert answers.jumped(text, writer, [0]) == text.replace('A[0] + enabled[choice_]',
                                                              '(5,)[enabled[choice_]]')


# A one-question ASK in a loop, its question offered until n reaches 9.
ONE_ASK = '''Game "g" requires 2 players.
Number n = 0.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action turn {
  play any from players->first to table.
  n += 1.
  ask players->first {
    "Go" if n < 9 { message players->first "go". }
  }
  rotate players.
}
Action main {
  deal 20 from standard to players.
  forever { turn(). }
}
'''


def test_a_one_question_ask_is_answered_without_its_lists_as_on_the_loop():
    # (answers.jumped's _ONE_ASKED: its flag tested, its text listed, no
    # test of the JUMP it takes; a flag that is false fails as it did)
    program = harness.compile_checked(frontend.check_text(ONE_ASK))
    loop, compiled = _play_outs(program, n=3, reps=2)
    assert compiled == loop and loop
    assert all(o[1] and 'None of the questions can be asked' in o[1][2] for o in loop)
    for text, name in ((ONE_ASK, 'turn'), (None, 'turn')):
        fn = _made(harness.compile_checked(frontend.check_text(text)) if text else
                   loader.load_program(os.path.join(ROOT, 'tests', 'data', 'full',
                                                    'crazy_eights.pip')))[name]
        assert 'texts = [' in fn.source and 'flat = ' not in fn.source
        assert 'enabled' not in fn.source
