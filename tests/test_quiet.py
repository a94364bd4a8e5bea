"""The quiet variant (pipvm/engine/quiet.py): what runs when nobody reads the
output.  It must play exactly as the loud code, on any file the loader
accepts (a damaged one too), and it must actually be taken: a message
statement or a message-only loop whose operands cannot fail is skipped or
run at once, never handed back to the loud code."""
import pytest

from compiler.pip import frontend
from pipvm.core.errors import PipError, StepLimit
from pipvm.core.rng import OCamlRandom
from pipvm.core.runtime import Player
from pipvm.engine import generated_cases, quiet
from pipvm.engine.bodies import LOUD
from pipvm.engine.vm import Image, Machine
from pipvm.game.game import Game
from pipvm.isa import opcodes, pipc

from .test_vm import K, program

NAMES = {op.code: op.name for op in opcodes.INSTRUCTIONS}
QUIET = {'QUIET_MESSAGE', 'QUIET_LOOP', 'QUIET_LOCALS', 'QUIET_FOR'}


def image_of(source):
    return Image(pipc.load(pipc.dump(frontend.compile_text(source)), '<test>'))


def variant(image, name='main'):
    """[(loud name, quiet name, quiet operand)] of a code object's instructions."""
    loaded = next(c for c in image.codes if c.code.name == name)
    return [(NAMES[i[0]], NAMES[q[0]], q[1]) for i, q in zip(loaded.instrs, loaded.quiet)]


def outcome(image, quiet_game, max_steps=None):
    """How main ends (the error line, 'step limit' or None), the globals, the
    steps left; the machine is left for more checks."""
    m = Machine(image, OCamlRandom(1), max_steps, None if quiet_game else [])
    try:
        m.start([Player('Ann', seat=0), Player('Bob', seat=1)])
        end = None
    except StepLimit:
        end = 'step limit'
    except PipError as e:
        end = str(e)
    return (end, [_plain(g) for g in m.globals], m.steps_left), m


def _plain(value):
    # cards and players by name: each machine has its own
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return getattr(value, 'name', value)


def same_either_way(image, max_steps=None):
    loud, _ = outcome(image, False, max_steps)
    still, _ = outcome(image, True, max_steps)
    assert still == loud
    return loud


# --- which instructions are quiet ----------------------------------------------------

HEAD = 'Game "g" requires 2 players.\nDeck stock = standard.\nNumber n = 1.\n'


def test_messages_and_message_only_loops_are_quiet():
    image = image_of(HEAD + '''Action main {
  deal 2 from stock to players.
  message "hi".
  message "n is {n}".
  message players->first "to one {n}".
  n = 2.
  for p in players { message "{p}". }
  for c in stock starting at stock->last { message "{c}". }
}
''')
    ins = variant(image)
    quiet = [(i, loud, q) for i, (loud, q, _) in enumerate(ins) if q != loud]
    # each message statement, and the ones after it (nothing jumps between
    # them), is one QUIET_MESSAGE, which jumps past the last; then the loops
    # (a shown local is checked for a Number too long to show: QUIET_MESSAGE)
    assert [q for _, _, q in quiet] == ['QUIET_MESSAGE'] * 3 + [
        'QUIET_FOR', 'QUIET_LOOP', 'QUIET_MESSAGE', 'QUIET_LOOP', 'QUIET_MESSAGE']
    messages = [ins[i] for i, _, q in quiet if q == 'QUIET_MESSAGE'][:3]
    after = {arg[2] for _, _, arg in messages}
    assert len(after) == 1 and ins[after.pop()][:2] == ('CONST', 'CONST')     # n = 2
    # the checks of {n}, {n} and players->first; "hi" needs none
    assert [len(arg[1]) for _, _, arg in messages] == [3, 3, 2]
    # for p in players: at its FOR_ITER and FOR_NEXT; starting at: its FOR_NEXT only
    assert [loud for _, loud, q in quiet if q in ('QUIET_FOR', 'QUIET_LOOP')] == [
        'FOR_ITER', 'FOR_NEXT', 'FOR_NEXT']


def test_rules_and_the_initialiser_have_no_quiet_variant():
    image = image_of(HEAD + 'Rule r(p, c, d) = c->rank == 8.\nAction main { message "hi". }\n')
    for loaded in image.codes:
        if loaded.code.kind != 'action':
            assert loaded.quiet is loaded.instrs


def test_a_message_that_begins_an_action_is_quiet():
    ins = variant(image_of(HEAD + 'Action main {\n  message "n is {n}".\n  n = 2.\n}\n'))
    assert ins[0][1] == 'QUIET_MESSAGE'


def test_a_message_statement_of_up_to_twelve_runs_is_quiet():
    # quiet.LONGEST, written out here so that the limit cannot move unseen:
    # a longer statement stays loud
    def first(k):
        source = HEAD + 'Action main {\n  message "%s".\n  n = 2.\n}\n' % ('{n}' * k)
        return variant(image_of(source))[0][1]
    # runs: k LOAD_GLOBALs (the text is only placeholders), FORMAT_MESSAGE_ALL
    assert first(11) == 'QUIET_MESSAGE'
    assert first(12) == 'LOAD_GLOBAL'


def test_a_message_an_if_jumps_to_and_a_text_before_a_number_are_quiet():
    # the if's jump lands on the second message (a statement may begin where
    # control enters); the text "hi" is the constant just before 2
    ins = variant(image_of(HEAD + 'Action main {\n  if n == 2 { n = 3. }\n'
                           '  message "n is {n}".\n  message "hi".\n  n = 2.\n}\n'))
    quiet = [(i, q) for i, (_, q, _) in enumerate(ins) if q != ins[i][0]]
    assert quiet == [(4, 'QUIET_MESSAGE'), (7, 'QUIET_LOCALS')], ins


# --- it is taken: nothing that cannot fail goes back to the loud code -----------------

def spy(image):
    """Wrap the quiet instructions' handlers: [(name, what each returned)]."""
    returned = []
    for loaded in image.codes:
        for i, (op, arg, handler) in enumerate(loaded.quiet):
            if handler is not None and NAMES[op] in QUIET:
                def wrapped(machine, stack, frame, arg, handler=handler, name=NAMES[op]):
                    target = handler(machine, stack, frame, arg)
                    returned.append((name, target))
                    return target
                loaded.quiet[i] = (op, arg, wrapped)
    return returned


def handed_back(returned):
    return sum(target is LOUD for _, target in returned)


def test_quiet_instructions_whose_operands_cannot_fail_never_hand_back():
    image = image_of(HEAD + '''Action main {
  deal 3 from stock to players.
  let k be stock->size.
  message "k {k} n {n}".
  for p in players { message "{p} {k}". }
  for c in stock starting at stock->last { message "{c} {n}". }
  for c in players->first->hand { message players->last "{c} {k}". }
}
''')
    returned = spy(image)
    loud = same_either_way(image)
    assert loud[0] is None
    assert sorted({name for name, _ in returned}) == ['QUIET_FOR', 'QUIET_LOOP', 'QUIET_MESSAGE']
    assert handed_back(returned) == 0 and all(t >= 0 for _, t in returned), returned


# --- the same as loud, on files the compiler would not write -------------------------

def test_an_undefined_local_in_a_quiet_message_fails_there():
    # x (slot 0) is never set: the message's own check finds it
    image = Image(program([('CONST', K['7']), ('STORE_GLOBAL', 0),
                           ('CONST', K['T']), ('LOAD_LOCAL', 0), ('LOAD_GLOBAL', 0),
                           ('FORMAT', 3), ('MESSAGE_ALL',),
                           ('CONST', K['1']), ('STORE_GLOBAL', 1)]))
    assert any(q == 'QUIET_MESSAGE' for _, q, _ in variant(image))
    assert same_either_way(image)[0] == 'Error: Line 1, Col 4: Undefined value'


@pytest.mark.parametrize('set_first', [False, True])
def test_a_message_of_locals_only_checks_each_is_set(set_first):
    # "{x}T" then "{y}T": that x and y are set, and not Numbers too long
    # to show; y (slot 1) never is set, and x only if set_first.  The
    # loud code takes over at the statement's first instruction, the local.
    before = [('CONST', K['7']), ('STORE_LOCAL', 0)] if set_first else []
    image = Image(program(before + [
        ('LOAD_LOCAL', 0), ('CONST', K['T']), ('FORMAT', 2), ('MESSAGE_ALL',),
        ('LOAD_LOCAL', 1), ('CONST', K['T']), ('FORMAT', 2), ('MESSAGE_ALL',),
        ('CONST', K['1']), ('STORE_GLOBAL', 1)]))
    assert any(q == 'QUIET_MESSAGE' for _, q, _ in variant(image))
    column = 7 if set_first else 1
    assert same_either_way(image)[0] == 'Error: Line 1, Col %d: Undefined value' % column


def players_loop(body, after, start=False, before=()):
    """A hand-made main: before, then `for x in players [starting at
    players->last] { body }` (x is slot 0), then after."""
    head = ([('LOAD_BUILTIN', 0), ('LOAD_BUILTIN', 0), ('LIST_PROP', 2), ('FOR_ITER_FROM',)]
            if start else [('LOAD_BUILTIN', 0), ('FOR_ITER',)])
    return Image(program([*before, *head, ('LABEL', 'next'), ('FOR_NEXT', 0, 'done'), *body,
                          ('JUMP', 'next'), ('LABEL', 'done'), *after]))


@pytest.mark.parametrize('start', [False, True])
def test_an_undefined_local_in_a_message_only_loop_fails_there(start):
    # for x in players [starting at players->last] { message "T {x} {y}" }, y never set
    image = players_loop(
        [('CONST', K['T']), ('LOAD_LOCAL', 0), ('LOAD_LOCAL', 1), ('FORMAT', 3), ('MESSAGE_ALL',)],
        [('CONST', K['1']), ('STORE_GLOBAL', 1)], start)
    assert any(q == 'QUIET_LOOP' for _, q, _ in variant(image))
    end = same_either_way(image)[0]
    assert end.endswith('Undefined value')


@pytest.mark.parametrize('items', [0, 1])
def test_a_message_only_loop_over_no_items_never_reads_what_it_shows(items):
    # for x in [...] { message "T {x} {y}" }, y never set: over an empty
    # list no round runs and nothing fails, loud or quiet, and the quiet
    # loop is taken (found by the fuzzer: an action called twice, its list
    # empty the first time, was handed back both times)
    image = Image(program([
        # (Ann's hand, empty; or [7])
        *([('CONST', K['7']), ('BUILD_LIST', 1)] if items else
          [('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('LOAD_PROP', 4)]), ('FOR_ITER',),
        ('LABEL', 'next'), ('FOR_NEXT', 0, 'done'),
        ('CONST', K['T']), ('LOAD_LOCAL', 0), ('LOAD_LOCAL', 1), ('FORMAT', 3), ('MESSAGE_ALL',),
        ('JUMP', 'next'), ('LABEL', 'done'), ('CONST', K['1']), ('STORE_GLOBAL', 1)]))
    assert any(q in ('QUIET_FOR', 'QUIET_LOOP') for _, q, _ in variant(image))
    returned = spy(image)
    end, globals_, _ = same_either_way(image)
    assert (end is None) == (items == 0) and (globals_[1] == 1) == (items == 0)
    assert handed_back(returned) == items


@pytest.mark.parametrize('start', [False, True])
def test_a_message_only_loop_leaves_its_variable_at_the_last_item(start):
    # only a hand-made file reads a loop's variable after the loop
    image = players_loop(
        [('CONST', K['T']), ('LOAD_LOCAL', 0), ('FORMAT', 2), ('MESSAGE_ALL',)],
        [('LOAD_LOCAL', 0), ('STORE_GLOBAL', 0)], start)
    end, globals_, _ = same_either_way(image)
    assert end is None and globals_[0] == ('Ann' if start else 'Bob')


def test_a_message_to_everyone_of_no_text_fails_quiet_too():
    # MESSAGE_ALL shows a String; only a damaged file gives it a Number
    image = Image(program([('CONST', K['7']), ('MESSAGE_ALL',), ('CONST', K['1']), ('STORE_GLOBAL', 1)]))
    loud = same_either_way(image)
    assert loud[0] is not None and loud[1][1] is None


# --- the step limit --------------------------------------------------------------------

LOOP = HEAD + 'Action main {\n  for c in stock { message "{c} {n}". }\n  n = 2.\n}\n'


@pytest.mark.parametrize('spare', [0, -1, 1])
def test_a_quiet_loop_meets_the_step_limit_where_the_loud_one_does(spare):
    image = image_of(LOOP)
    _, _, left = same_either_way(image, 1000)
    used = 1000 - left                  # 52 rounds of the loop
    returned = spy(image)
    end, globals_, left = same_either_way(image, used + spare)
    assert (end == 'step limit') == (spare < 0)
    assert globals_[1] == (2 if spare >= 0 else 1) and left == spare
    # with steps enough the loop is taken at once; else the loud loop meets the limit
    assert handed_back(returned) == (spare < 0)


# --- a loop handed back to the loud code inside another loop -------------------------

@pytest.mark.parametrize('start', ['', ' starting at p->hand->last'])
def test_a_message_only_loop_in_another_loop_is_handed_back_whole(start):
    # the inner loop's message fails (u is undefined): the loud code must find
    # the inner loop's items where they were, above the outer loop's
    image = image_of(HEAD + '''Number u.
Action main {
  deal 2 from stock to players.
  for p in players {
    n += 1.
    for c in p->hand%s { message "{c} {u}". }
  }
}
''' % start)
    assert same_either_way(image)[0].endswith('Undefined value')


def test_a_message_only_loop_taken_at_once_inside_another_loop_leaves_its_list():
    # the inner loop (starting at: QUIET_LOOP, no QUIET_FOR) is taken at
    # once; the outer loop must find its own items under it
    image = image_of(HEAD + '''Action main {
  deal 2 from stock to players.
  for p in players {
    n += 1.
    for c in p->hand starting at p->hand->last { message "{c}". }
  }
}
''')
    returned = spy(image)
    end, globals_, _ = same_either_way(image)
    assert end is None and globals_[1] == 3
    assert ('QUIET_LOOP', LOUD) not in returned and any(n == 'QUIET_LOOP' for n, _ in returned)


def test_a_message_only_loop_checks_each_item_not_the_variables_old_value():
    # x holds a card (whose suit shows) when the loop over the players
    # starts; a player has no suit, so the loop must fail at its first item
    # as the loud code does, whatever x held before (kills _loop's checks run
    # without `env[slot] = item`, which the fuzz properties let live)
    image = players_loop(
        [('CONST', K['T']), ('LOAD_LOCAL', 0), ('LOAD_PROP', 1), ('FORMAT', 2), ('MESSAGE_ALL',)],
        [('CONST', K['1']), ('STORE_GLOBAL', 1)],
        before=[('CONST', K['A~H']), ('STORE_LOCAL', 0)])
    assert any(q == 'QUIET_LOOP' for _, q, _ in variant(image))
    end = same_either_way(image)[0]
    assert end is not None and "has no attribute 'suit'" in end, end


@pytest.mark.parametrize('big_at', [0, 2])
def test_a_message_only_loop_over_numbers_fails_at_one_too_long_to_show(big_at):
    # the checks of a loop showing only locals run once for all the items
    # (bodies.quiet_rounds): an item that is a Number too long to show still hands
    # the loop back to the loud code, which fails at its round
    items = ['1', '2', '3']
    items[big_at] = 'b'             # 2 ** 15000: past Python's 4,300 digits
    source = (HEAD + 'Action main {\n  let b be 1.\n  let k be 0.\n'
              '  forever { if k >= 15000 { skip to done. } b = b + b. k += 1. }\n'
              '  label done.\n  let xs be [%s].\n'
              '  for x in xs { message "{x}". }\n  n = 2.\n}\n') % '; '.join(items)
    image = image_of(source)
    assert any(q == 'QUIET_FOR' for _, q, _ in variant(image))
    end, globals_, _ = same_either_way(image)
    assert end is not None and 'Line 10' in end, end
    assert globals_[1] == 1         # (n: the loop failed before `n = 2`)


# --- a message's quiet body: where a statement is not one check ---------------------

def bodied(image, name='main'):
    """The instructions the quiet variant runs from their quiet bodies."""
    loaded = next(c for c in image.codes if c.code.name == name)
    handlers = set(generated_cases.QUIET_HANDLERS.values())
    return [NAMES[op] for op, _, handler in loaded.quiet if handler in handlers]


LONG = '{n}' * 12           # twelve placeholders: past quiet.LONGEST, the statement stays


def test_a_message_too_long_for_one_check_joins_nothing_quiet():
    image = image_of(HEAD + 'Action main {\n  message "%s".\n  message players->first "%s".\n'
                     '  n = 2.\n}\n' % (LONG, LONG))
    assert bodied(image) == ['FORMAT_MESSAGE_ALL', 'FORMAT', 'MESSAGE']
    end, globals_, _ = same_either_way(image)
    assert end is None and globals_[1] == 2


def test_a_string_kept_or_compared_is_joined_quiet_too():
    # only a String a message shows may be left unjoined
    image = image_of(HEAD + 'String s = "".\nAction main {\n  s = "%s".\n'
                     '  if "%s" == s { n = 2. }\n  message players->first s.\n}\n' % (LONG, LONG))
    assert 'FORMAT' not in bodied(image)
    assert same_either_way(image)[1][1] == 2        # (n: the two Strings were equal)


@pytest.mark.parametrize('to', ['', 'players->first '])
@pytest.mark.parametrize('fault', ['big', 'undefined'])
def test_a_long_message_fails_quiet_where_it_fails_loud(to, fault):
    # the parts a quiet FORMAT checks fail as joining them would, at the same
    # line: a Number too long to show, a global never set
    source = (HEAD + 'Number u.\nAction main {\n  let b be 1.\n  let k be 0.\n'
              '  forever { if k >= 15000 { skip to done. } b = b + b. k += 1. }\n'
              '  label done.\n  message %s"%s{%s}".\n  n = 2.\n}\n'
              % (to, LONG, 'b' if fault == 'big' else 'u'))
    image = image_of(source)
    assert 'FORMAT' in ''.join(bodied(image))
    end, globals_, _ = same_either_way(image)
    assert end is not None and 'Line 10' in end, end
    assert ('too large' if fault == 'big' else 'Undefined') in end, end
    assert globals_[1] == 1         # (n: the message failed before `n = 2`)
