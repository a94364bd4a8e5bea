"""reads.reused: a checked read of a global, a local or a property of
one that an earlier checked read got, on every path and with nothing
between that could change it, is a copy of the name that holds it (an
action's function in play-out mode, pipvm/engine/actions.py); PLAY's
card answered where it stands in such a function (and PLAY_AGAIN's, and an ASK's
question); a loop's head, where
its long runs stop and the start tested before the function's tree of
starts."""
import os
import re

from compiler.pip import frontend
from pipvm.engine import actions, reads, rewrites
from pipvm.engine.vm import Image
from pipvm.isa.opcodes import OP
from pipvm.play import loader
from tests.fuzz import harness
from tests.test_compiled_playouts import ROOT, _play_outs

READ = ['if (value0 := globals_[8]) is None:', "    raise Fault('Undefined value', 0)"]
AGAIN = ['if (value5 := globals_[8]) is None:', "    raise Fault('Undefined value', 5)"]
RANK = ['if (value6 := value5.rank) is None:', "    raise Fault('Undefined value', 6)"]


def _reused(lines):
    return [text for text, _ in reads.reused([(line, k) for k, line in enumerate(lines)])]


def test_a_read_again_is_a_copy_and_its_property_too():
    first = READ + ['if (value1 := value0.rank) is None:', "    raise Fault('Undefined value', 1)"]
    assert _reused(first + AGAIN + RANK + ['x = value6']) == first + [
        'value5 = value0', 'value6 = value1', 'x = value6']
    # a name that holds it already: nothing to read
    assert _reused(READ + ['y = len(value0)'] + READ) == READ + ['y = len(value0)', 'pass']


def test_a_read_after_what_may_change_it_is_checked_again():
    for between in ['globals_[8] = value3', 'globals_[8] += 1', 'x = A[3](self, value1)',
                    'self._answer_auto()', 'rec_[0].action(self, rec_)', 'alias = frame',
                    'frames[-1][3][0] = v', 'for x in y:']:
        assert _reused(READ + [between] + AGAIN) == READ + [between] + AGAIN, between
    # a name that held it given another value: the slot still holds it
    for between in ['value0 = 3', 'value0, z = 1, 2']:
        assert _reused(READ + [between] + AGAIN)[-1] == 'value5 = globals_[8]', between
    # a property after a store to any property
    assert _reused(READ + ['x.rank = 4', 'value5 = value0'] + RANK)[-2:] == RANK
    # a store of a defined value is known: its read is the name stored
    assert _reused(READ + ['frame[2] = value0', 'if (value3 := frame[2]) is None:',
                           "    raise Fault('Undefined value', 3)"])[-1] == 'value3 = value0'


def test_a_read_in_a_branch_ended_is_no_fact_after_it():
    branch = ['if n:'] + ['    ' + x for x in READ] + ['else:', '    y = 1']
    assert _reused(branch + AGAIN) == branch + AGAIN
    inside = ['try:'] + ['    ' + x for x in READ] + ['except Fault as e:'] + ['    ' + x for x in AGAIN]
    assert _reused(inside) == inside
    # (an enclosing block's read holds inside a nested one)
    assert _reused(READ + ['if n:'] + ['    ' + x for x in AGAIN]) == READ + ['if n:',
                                                                          '    value5 = value0']


DEFINED = ['if frame[0] is None:', '    return LOUD_RUN(self, rec, 8)']
LOCAL = ['if (value3 := frame[0]) is None:', "    raise Fault('Undefined value', 3)"]


def test_a_local_tested_defined_or_read_is_not_tested_again():
    # a quiet instruction's test, then a checked read and the test again
    assert _reused(DEFINED + LOCAL + DEFINED + ['x = value3']) == DEFINED + [
        'value3 = frame[0]', 'x = value3']
    # a checked read: the slot holds a defined value (its own copy, and no test)
    assert _reused(LOCAL + ['y = 1'] + DEFINED + LOCAL) == LOCAL + ['y = 1', 'pass']
    # (a block left empty holds a pass)
    assert _reused(DEFINED + ['if n:'] + ['    ' + x for x in DEFINED] + ['z = 2']) == (
        DEFINED + ['if n:', '    pass', 'z = 2'])
    # a store, or a quiet loop's rounds storing that slot, makes it unknown again
    for between in ['frame[0] = value7', 'if not QUIET_ROUNDS(self, frame, A[1], rest_):'
                    '  # (it stores frame[0] alone)']:
        assert _reused(DEFINED + [between] + DEFINED) == DEFINED + [between] + DEFINED
    # rounds storing another slot, a quiet check's closures on a copy of the
    # frame, a line that ends its path: the same
    rounds = ['if not QUIET_ROUNDS(self, frame, A[1], rest_):  # (it stores frame[1] alone)',
              '    return LOUD_RUN(self, rec, 12)']
    check = ['if (type(frame[2]) is int and frame[2].bit_length() > SHOWN_BITS):',
             '    env_ = frame + [self]', '    try:', '        A[3][0](env_)',
             '    except Exception:', '        return LOUD_RUN(self, rec, 20)']
    steps = ['if self.steps_left < 0:', '    raise StepLimit(self.max_steps)']
    for between in (rounds, check, steps):
        assert _reused(DEFINED + between + DEFINED) == DEFINED + between, between


def test_an_except_block_knows_nothing_and_one_that_ends_keeps_what_was_known():
    # (the handler is entered from anywhere in its try: nothing known there)
    handler = ['try:', '    x = f(value3)', 'except Fault as e:'] + ['    ' + x for x in DEFINED]
    assert _reused(DEFINED + handler) == DEFINED + handler
    # after a handler that raises: what the try's end knew
    raising = ['try:', '    x = len(value3)', 'except Fault as e:', '    e.part = e.part or 3',
               '    raise']
    assert _reused(DEFINED + raising + DEFINED) == DEFINED + raising
    # after one that goes on: nothing
    going = ['try:', '    x = len(value3)', 'except Exception:', '    x = 0']
    assert _reused(DEFINED + going + DEFINED) == DEFINED + going + DEFINED


AREA = READ + ['if (value1 := value0.cards) is None:', "    raise Fault('Undefined value', 1)"]


def _listed(name):
    """rewrites.inlined's list of cards the value a name holds stands for."""
    return ('(%s.cards if (ct_ := type(%s)) is Area else %s.hand if ct_ is Player else %s '
            'if ct_ is list else cards_of(%s))' % ((name,) * 5))


def test_the_cards_of_a_slot_whose_kind_a_read_showed_are_its_property():
    # only an Area has `cards`, only a Player a `hand`: a read of one that
    # did not fail says what the slot holds, and its cards are that property
    call = 'found = A[5](self, p, %s)  # (no steps)'
    assert _reused(AREA + ['v = globals_[8]', call % _listed('v')])[-1] == call % 'v.cards'
    player = DEFINED + ['value0 = frame[0]', 'if (value := value0.hand) is None:',
                        "    raise Fault('Undefined value', 1)"]
    assert _reused(player + ['dest_ = %s' % _listed('value0')])[-1] == 'dest_ = value0.hand'
    # a property stored between: what the slot holds stays
    assert _reused(AREA + ['self.canplay_found = x', 'deal(s, %s, 1)' % _listed('value0')])[
        -1] == 'deal(s, value0.cards, 1)'
    # not after a store to the slot or a call that may store, where the
    # kind is not known, or after what the line evaluates before it
    for between in ['globals_[8] = value3', 'x = f(1)']:
        assert _listed('value0') in _reused(AREA + [between, 'd = %s' % _listed('value0')])[-1]
    assert _listed('value5') in _reused(READ + ['value5 = value0', 'd = %s' % _listed('value5')])[-1]
    line = 'x = f(y) + len(%s)' % _listed('value0')
    assert _reused(AREA + [line])[-1] == line


def test_a_name_given_a_slot_known_defined_holds_it():
    given = READ + ['value0 = 3', 'v = globals_[8]', 'if (value1 := v.rank) is None:',
                    "    raise Fault('Undefined value', 1)"]
    assert _reused(given + AGAIN + RANK)[-2:] == ['value5 = globals_[8]', 'value6 = value1']


FILTER = ['try:', '    found = A[5](self, value0, value1)  # (no steps)', 'except Exception:',
          '    found = self.playable(4, value0, value1)']


def test_a_rule_s_filter_and_its_fallback_change_nothing_known():
    assert _reused(READ + FILTER + AGAIN) == READ + FILTER + ['value5 = value0']
    # another operand's call (not the filter's, unmarked) may store anything
    unmarked = [FILTER[0], FILTER[1].replace('  # (no steps)', '')] + FILTER[2:]
    assert _reused(READ + unmarked + AGAIN)[-2:] == AGAIN


def test_what_was_known_before_a_block_that_ends_its_path_holds_after_it():
    ends = ['if n:', '    x = f(1)', '    continue']
    assert _reused(READ + ends + AGAIN) == READ + ends + ['value5 = value0']
    # with an else, or a block that goes on: not
    for block in (ends + ['else:', '    y = 2'], ['if n:', '    x = f(1)']):
        assert _reused(READ + block + AGAIN)[-2:] == AGAIN, block


CHANGED = '''Game "g" requires 2 players.
Number n = 0.
Number hits = 0.
Card seen.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action bump { n += 1. seen = table->cards->top. }
Action turn {
  play any from players->first to table.
  if n < 100 and seen->suit == S { hits += 1. }
  bump().
  if n > 7 and seen->suit == S { hits += 10. }
  if n == 12 { hits += 1000 / (n - 12). }
  rotate players.
}
Action main {
  deal 20 from standard to players.
  seen = standard->top.
  forever { turn(). }
}
'''


def test_a_global_a_callee_changes_is_read_again_and_fails_as_on_the_loop():
    program = harness.compile_checked(frontend.check_text(CHANGED))
    loop, compiled = _play_outs(program, n=2, reps=2)
    assert compiled == loop
    errors = {o[1][2] for o in loop if o[1]}
    assert any('Line 13' in e and 'Division by zero' in e for e in errors), errors


def test_euchre_s_functions_reuse_reads_and_answer_cards_where_they_play():
    image = Image(loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip')),
                  compiled=True)
    actions.prepare(image)
    fns = {loaded.code.name: loaded.action for loaded in image.codes if loaded.action}
    assert 'value5 = value2' in fns['rate'].source
    trick = fns['play_trick'].source
    # (answered where it plays: no pending decision made for it, c8z)
    assert 'choose_(len(cards))' in trick and 'card_choice(' not in trick
    assert '_answer_auto' not in trick


def test_a_loop_s_head_its_stops_and_the_start_are_tested_before_the_tree():
    image = Image(loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip')),
                  compiled=True)
    actions.prepare(image)
    fns = {loaded.code.name: loaded.action for loaded in image.codes if loaded.action}
    # play_trick's `for p in players starting at leader` starts at 7, a
    # Python `for`; the loud loop of its quiet `for c in p->hand` (13) is no head
    lines = [line.strip() for line in fns['play_trick'].source.split('\n')]
    tests = [line for line in lines if line.startswith('if pc ')]
    assert tests[0] == 'if pc == 7:' and 'if pc == 13:' not in tests, tests
    assert lines[lines.index('if pc == 7:') + 1] == 'for frame[2] in stack[-1]:'
    assert tests.index('if pc == 0:') < min(k for k, t in enumerate(tests) if '<' in t)
    # choose_trump's loops (an ASK's answer jumps: no `for`) go back to 64
    # and 11; the long runs of their bodies stop where the tree then tests
    # first (51; not at 32 and 87, a JUMP each: written where the run
    # reaches it); 0 before the tree
    tests = [line.strip() for line in fns['choose_trump'].source.split('\n')
             if line.strip().startswith('if pc ')]
    assert tests[:4] == ['if pc == %d:' % k for k in (64, 11, 51, 0)], tests
    assert 'if pc == 0:' in fns['rate'].source.split('while True:')[1].split('\n')[1]


def test_crazy_eights_answers_its_plays_and_questions_where_they_stand():
    # PLAY after CANPLAY (PLAY_AGAIN: its destination cards_of(x)) and the
    # ASK to draw are answered in the function, not by _answer_auto's call,
    # and its playouts are the loop's
    program = loader.load_program(os.path.join(ROOT, 'tests', 'data', 'full', 'crazy_eights.pip'))
    image = Image(program, compiled=True)
    actions.prepare(image)
    turn = {loaded.code.name: loaded.action for loaded in image.codes if loaded.action}['turn']
    source = turn.source
    assert 'dest_ = ' in source and 'choose_(len(found))' in source, source
    assert 'action_choice(' not in source and 'choose_(len(texts))' in source
    assert 'self.pending' not in source
    assert '_answer_auto' not in source
    loop, compiled = _play_outs(program, n=3, reps=3)
    assert compiled == loop


def test_an_ask_s_first_question_and_a_return_are_written_where_the_run_reaches_them():
    # the ASK to draw falls through to its first question's JUMP, whose
    # run (the deal) follows in the function, not a trip through the tree;
    # a run past RUN_ON that reaches a RETURN (after the PLAY) returns there
    program = loader.load_program(os.path.join(ROOT, 'tests', 'data', 'full', 'crazy_eights.pip'))
    image = Image(program, compiled=True)
    actions.prepare(image)
    loaded = {loaded.code.name: loaded for loaded in image.codes}['turn']
    lines = [line.strip() for line in loaded.action.source.split('\n')]
    # (its one question's flag tested before the choice: no jump table)
    ask = lines.index('log_.append((choice_, texts[choice_]))')
    deal = next(i for i in range(ask, len(lines)) if lines[i].startswith('deal(source'))
    assert deal < ask + 20 and 'continue' not in lines[ask:deal], lines[ask:deal]
    returns = {i for i, (op, _, _) in enumerate(loaded.plain[1]) if op == OP.RETURN}
    jumps = {int(line[5:]) for line in lines if re.fullmatch(r'pc = \d+', line)}
    assert returns and not returns & jumps, jumps


def test_a_quiet_loop_takes_its_list_in_a_name_and_gives_it_back_to_the_loud_code():
    # turn's `for c in p->hand { message ... }`: the hand pushed and taken
    # back at once is the name that held it; where the rounds cannot run
    # here (the step limit falls inside the loop) the loud code gets the
    # list on the stack, and stops at the loop's step
    assert rewrites.taken([('    push(value)', 1), ('    rest_ = pop()', 2)]) == [
        ('    rest_ = value', 2)]
    assert rewrites.taken([('push(value)', 1), ('    rest_ = pop()', 2)])[1] == (
        '    rest_ = pop()', 2)
    program = loader.load_program(os.path.join(ROOT, 'tests', 'data', 'full', 'crazy_eights.pip'))
    image = Image(program, compiled=True)
    actions.prepare(image)
    turn = {loaded.code.name: loaded.action for loaded in image.codes if loaded.action}['turn']
    assert 'rest_ = value' in turn.source and 'stack.append(rest_)' in turn.source
    # (nothing else pushes: the function sets up no push or pop at its calls)
    assert 'push, pop =' not in turn.source
    for steps in (9, 10, 11, 12, 13, 14):
        loop, compiled = _play_outs(program, n=2, reps=1, steps=steps)
        assert compiled == loop, steps


def test_only_an_area_has_cards_and_only_a_player_a_hand():
    # (what _KIND_OF reads a value's kind from: a Text's cards are `shows`)
    from pipvm.core import runtime
    card = runtime.new_deck()[0]
    values = [card, runtime.Player('p'), runtime.Team([]), runtime.Area('a', [], False, False),
              runtime.joined(['x ', card]), 'x', 3, True, card.rank, card.suit, [], ()]
    assert type(values[4]) is runtime.Text and values[4].shows == (card.name,)
    for prop, kind in reads._KIND_OF.items():
        assert [type(v).__name__ for v in values if hasattr(v, prop)] == [kind.strip()]


def test_a_for_s_local_is_defined_in_its_body_where_no_list_holds_an_undefined_value():
    head = ['for frame[2] in stack[-1]:', '    if frame[2] is None:',
            '        return LOUD_RUN(self, rec, 8)',
            '    if (value0 := frame[2]) is None:', "        raise Fault('Undefined value', 0)",
            '    x = value0']
    after = ['if (value1 := frame[2]) is None:', "    raise Fault('Undefined value', 1)"]

    def reused(lines, items_defined):
        return [t for t, _ in reads.reused([(x, k) for k, x in enumerate(lines)], None,
                                           items_defined)]
    assert reused(head + after, True) == [head[0], '    value0 = frame[2]', '    x = value0'
                                          ] + after
    # (without: the quiet test stays, and the read after it is a copy)
    assert reused(head + after, False) == head[:3] + ['    value0 = frame[2]', '    x = value0'
                                                      ] + after
    # (and after a block inside the body)
    nested = head[:1] + ['    if y:', '        z = 1'] + head[3:]
    assert reused(nested, True) == nested[:3] + ['    value0 = frame[2]', '    x = value0']
    # (a store to it in the body: tested again after it)
    stored = head[:1] + ['    frame[2] = y'] + head[3:]
    assert reused(stored, True) == stored
