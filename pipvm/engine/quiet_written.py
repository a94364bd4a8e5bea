"""The quiet instructions (pipvm/engine/quiet.py) written out where they
stand in a whole action's function (pipvm/engine/actions.py, play-out
mode): a message's checks unrolled, run only where one may fail, and a
quiet loop's rounds paid at once; where one cannot go on, the loud code
goes on at its index (LOUD_RUN)."""
from pipvm.engine import fors
from pipvm.engine.compiled import SMALL
from pipvm.isa.opcodes import BY_CODE, OP


class QuietWriting:
    """actions._Writer's quiet instructions."""

    def quiet(self, i, indent, tested=frozenset()):
        """A quiet instruction written out where it stands; the index its
        run goes on at (where its statement or loop ends), or None if it
        ends the run (LOUD: the loud code goes on at its index); tested: the
        locals known defined there (self.tested: those it tests)."""
        op_code, arg, handler = self.instrs[i]
        u = self.new_unit([i])
        loud = '    return LOUD_RUN(self, rec, %d)' % i
        lines, self.tested = [], set()
        if op_code in (OP.QUIET_LOCALS, OP.QUIET_MESSAGE):
            slots, after = arg[0], arg[-1]
            # each local its messages show must be defined (DEFINED_LOCAL's test)
            for slot in slots:
                if not (type(slot) is int and 0 <= slot < SMALL):      # (a damaged file's)
                    self.operands.append(slot)
                    slot = 'A[%d]' % (len(self.operands) - 1)
                lines += ['if frame[%s] is None:' % slot, loud]
                self.tested.add(slot)
            if op_code == OP.QUIET_MESSAGE:
                # QUIET_MESSAGE's checks, for their failures only
                self.operands.append(tuple(arg[1]))
                k = len(self.operands) - 1
                # a check that shows only locals fails only on a Number (too long
                # to show), one that shows globals too also on an undefined
                # global: when none of them is one, it need not run
                shown = [shows(c) for c in arg[1]]
                checks = ['env_ = frame + [self]', 'try:']
                checks += ['    A[%d][%d](env_)' % (k, j) for j in range(len(arg[1]))]
                checks += ['except Exception:', loud]
                if None in shown or not all(type(s) is int and 0 <= s < SMALL
                                            for both in shown for slots in both for s in slots):
                    lines += checks
                else:
                    tests = [LONG % (s, s) for s in sorted({s for c in shown for s in c[0]})]
                    tests += [GLOBAL % (g, g, g) for g in sorted({g for c in shown for g in c[1]})]
                    if tests:       # (none: nothing to check)
                        lines.append('if %s:' % ' or '.join(tests))
                        lines += ['    ' + x for x in checks]
        elif op_code == OP.QUIET_FOR and type(arg[-1]) is int:
            # QUIET_FOR's body without its call and its copy of the list
            self.operands.append(arg)
            k, after = len(self.operands) - 1, arg[-1]
            # (the list taken off the stack, and put back for the loud code: by
            # stack's method, so that a function pushing nothing else sets up
            # no push and pop at each call)
            back = ['    stack.append(rest_)', loud]
            rounds = ['if not QUIET_ROUNDS(self, frame, A[%d], rest_):' % k] + back
            slot, others, of_item, checks, locals_only = arg[:5]
            if type(slot) is int and 0 <= slot < SMALL:
                # (what reads.reused may know: it stores no other slot)
                rounds[0] += '  # (it stores frame[%d] alone)' % slot
            if locals_only and all(type(s) is int and 0 <= s < SMALL
                                   for s in (slot,) + tuple(others)):
                # quiet_rounds' commonest case written out: its checks show
                # only locals, and no item is a Number (that could be too long
                # to show) or undefined: every round checks as the first does
                tests = ['len(rest_) > self.steps_left']
                tests += ['frame[%d] is None' % s for s in others if s not in tested]
                if of_item and checks and not self.shown:     # (shown: kinds.py)
                    # (one pass over the items' types: no None and no Number)
                    tests.append('not UNSHOWN.isdisjoint(map(type, rest_))')
                elif of_item and not self.shown:
                    tests.append('None in rest_')
                elif checks and not self.shown:
                    tests.append('int in map(type, rest_)')
                lines += ['rest_ = pop()', 'if %s:' % ' or '.join(tests)]
                lines += ['    ' + x for x in rounds]
                lines += ['elif rest_:']
                # (the item is no Number: only the other locals shown may be one)
                shown = {s for c in checks for s in getattr(c, 'slots', (None,))} - {slot}
                if shown and all(type(s) is int and 0 <= s < SMALL for s in shown):
                    lines += ['    if %s:' % ' or '.join(LONG % (s, s) for s in sorted(shown))]
                    pad = '    '
                else:
                    pad = ''
                if shown:
                    check = ['env_ = frame + [self]', 'env_[%d] = rest_[0]' % slot, 'try:']
                    check += ['    A[%d][3][%d](env_)' % (k, j) for j in range(len(checks))]
                    check += ['except Exception:'] + back
                    lines += ['    ' + pad + x for x in check]
                lines += ['    frame[%d] = rest_[-1]' % slot,
                          '    self.steps_left -= len(rest_)      # (a step a round, as JUMP counts)']
            else:
                lines += ['rest_ = pop()'] + rounds
        elif handler is not None:
            # the handler: where the statement ends, or LOUD (the loud code, here)
            self.handlers['H%d' % op_code] = handler
            self.operands.append(arg)
            after = arg[-1] if type(arg[-1]) is int else None
            lines += ['t_ = H%d(self, stack, frame, A[%d])' % (op_code, len(self.operands) - 1),
                      'if t_ is LOUD:', loud]
            if after is None:
                if self.open:
                    raise fors.NoFor
                lines += ['pc = t_', 'continue']
        else:
            raise ValueError('%s in an action' % BY_CODE[op_code].name)
        self.emit('\n'.join(lines), indent, u)
        return after


# The tests a quiet message's or loop's written-out checks make first
# (QuietWriting.quiet): they run a check only where it may fail.
# A local that may be a Number too long to show (checks._shows' test, whose
# check then decides): the only failure of a check that shows locals.
LONG = '(type(frame[%d]) is int and frame[%d].bit_length() > SHOWN_BITS)'
# A global a check shows that may fail it: undefined, or a Number too long.
GLOBAL = ('globals_[%d] is None or (type(globals_[%d]) is int '
          'and globals_[%d].bit_length() > SHOWN_BITS)')


def shows(check):
    """(The local slots, the global slots) a QUIET_MESSAGE's check shows,
    when it fails only where one of them is undefined or a Number too long
    to show (its locals are tested defined before it), else None."""
    if getattr(check, 'locals_only', False):
        return check.slots, ()
    if getattr(check, 'globals', None) is not None:
        return check.slots, check.globals
    return None


# An item's types a quiet loop cannot take as the first item's: undefined
# (`None in`: no Pip value equals None but None) or a Number (that may be too long).
UNSHOWN = frozenset({type(None), int})
