"""The compiled tier's whole actions, for play-out mode (a bot's playouts:
quiet code run to the game's end, every decision answered by the playout
policy, Machine.play_out).

In that mode nothing outside the machine waits between instructions, so
an action called from the loop, or from another such action, runs as one
generated Python function of (machine, its frame record) instead of in the
loop: no VM frame switch, no CALL and RETURN dispatch, values passed in
locals within a straight run (cases.compose, as the blocks do), and a
decision answered where it stands (a card or an ASK's question by
Machine._answer_auto's case written out, any other by its call:
pipvm/engine/answers.py) instead
of pausing.  The frames on the machine's stack when the playout starts keep
running in the loop; what they CALL runs here (vm.Machine._run's CALLED).
A called action still pushes its frame record on machine.frames and pops
it when it ends, so the call depth, an ASK's or a set's answer
(Machine._apply writes the top frame's locals and stack) and GIVE's result
(the caller's stack) are as in the loop; a small callee that calls and
decides nothing is written where it is called (pipvm/engine/inline.py).

The function holds the action's quiet and loud code side by side, as
instruction indexes i and i + n: a quiet instruction that cannot go on
(LOUD) continues in the loud copy at its own index, as the loop does.  It
is a `while True` over a tree of `if pc < k` tests whose leaves are the
straight runs that start where control can enter (a jump's target, an
ASK's choice, a LOUD's index); a run goes on past such an index but a
loop's head (no body written twice), and a jump is
`pc = target` then `continue`, or, forward and while a budget lasts, the
run it goes to written where it jumps (fors.Writing.leave), or where that
budget ran out, a jump to where its own run goes on the end of an `if`'s
block, falling out to it (joins.py); a loop's head
and 0 are tested before the tree (_Writer.heads).  A loop over a list
whose body can stand in one is a Python `for` over the iteration state on
the stack, its body inside it: its jump back `continue`, a jump out
`break` (pipvm/engine/fors.py).  A checked read that an
earlier one got with nothing between that could change it is a copy
(reads.reused).  An `and`'s jump
is threaded (compiled.threaded), integer tests of operands are folded
(rewrites.folded), a list's size or end and an Area's cards written
out (rewrites.inlined) and PLAY's and CANPLAY's filter of a hand called
as the rule's Pure.filter (filters.direct_filters).  A quiet instruction is written out where
it stands and its run goes on where the statement or loop it stands for
ends (its checks unrolled; a check that shows only locals runs only when
one of them is a Number too long to show, the only value it fails on; a
quiet loop over a list pays the steps of all its rounds at once, as
bodies.quiet_rounds does, whose other cases it calls); where it cannot go on it
hands over to the loud code (LOUD).  An instruction the table writes inline or
a block can hold is its body (in this context's words); any other calls
its handler and acts on what it returns (PAUSE: answer here; CALLED: call
the callee's function; LOUD; a jump).  A Fault's position is found from
the line the traceback stops at in the function (no bookkeeping at run
time): each line maps to its instruction.

Trust (docs/pipc.md): the source holds only the table's text, instruction
indexes and opcode numbers; every operand reaches it as A[k], an index
into the tuple the function gets as its default argument.  Functions are
cached in memory by their source (never written to disk); an action's own
function is its code object with its operands bound, made on its first call.
"""
import re
import sys
import types

from pipvm.core.errors import Fault, PipError
from pipvm.core.runtime import PROPERTY_NAMES, Card, Player, Suit
from pipvm.engine import (answers, bodies, cases, compiled, filters, fors, generated_cases,
                          inline, joins, kinds, reach, reads, rewrites, sizes, steady, steps)
from pipvm.engine.bodies import CALLED, LOUD, PAUSE, InvalidProgram
from pipvm.engine.compiled import INDEXES, SMALL
from pipvm.engine.fors import QUIET
from pipvm.engine.lines import indent_of
from pipvm.engine.quiet_written import UNSHOWN, QuietWriting
from pipvm.isa.opcodes import BY_CODE, OP
from pipvm.isa.operands import OPERANDS

_MADE = {}              # source -> the function first made from it
RUN_ON = 12             # instructions a run holds before it stops where another starts
_OWN, _ENDS = {OP.JUMP, OP.RETURN, OP.GIVE}, {OP.JUMP, OP.RETURN}
# What may leave a run besides a jump: a decision (its answer may jump, an
# ASK's), a call (Machine._apply and GIVE write the frame record's stack).
_LEAVING = ('JUMP', 'PAUSE', 'SIGNAL', 'CALL')


def _composable(op):
    """Can op's body stand in a run (composed with its neighbours)? (Once an opcode.)"""
    known = _COMPOSABLE.get(op.code)
    if known is None:
        parts = op.parts or (op,)
        known = _COMPOSABLE[op.code] = (
            op.code not in _OWN and op.code not in QUIET
            and all(p.body is not None and not p.loop_only for p in parts)
            and not any(_nested_leave(cases.expand(p.body, CONTEXT)) for p in parts))
    return known


def _nested_leave(text):
    """Does the text leave the run (`continue`) from inside a loop of its own?"""
    loops = []                          # indentation of the loops open here
    for line in text.split('\n'):
        indent = indent_of(line)
        loops = [n for n in loops if n < indent]
        word = line.strip()
        if word.startswith(('for ', 'while ')):
            loops.append(indent)
        elif loops and (word == 'continue' or word.startswith('@SIGNAL')):
            return True
    return False


CONTEXT = cases.Context({'machine': 'self', 'PUSH': 'push', 'POP': 'pop'},
                        ['pc = {0}', 'continue'], None, None, signal=['@SIGNAL {0}@'])
_COMPOSED = {}
_COMPOSABLE = {}        # opcode -> _composable's answer


def _composed(codes):
    """The statements of a run of these opcodes in this context, their
    operands OPERANDk_ and SIGNAL written out (made once per sequence)."""
    text = _COMPOSED.get(codes)
    if text is None:
        ops = tuple(p for c in codes for p in (BY_CODE[c].parts or (BY_CODE[c],)))
        n = sum(len(p.names) for p in ops)
        text = cases.compose(types.SimpleNamespace(parts=ops), CONTEXT,
                             ['OPERAND%d_' % k for k in range(n)], own_parts=True,
                             leaving=_LEAVING)
        lines = []
        for line in text.split('\n'):
            word = line.strip()
            if word.startswith('@SIGNAL '):
                answers.signal(lines, line[:indent_of(line)], word[8:-1])
            else:
                lines.append(line)
        # (a call's callee and frame by the function's locals)
        text = '\n'.join(lines).replace('self.image.codes[', 'codes[').replace(
            'self.frames.append(', 'frames.append(')
        _COMPOSED[codes] = text
    return text


# (what may store a local or call what may: a local's test after it is made again)
_STORES = re.compile(r'frame\[.*?\] *=(?!=)|for frame\[|\brec|\(self\b|choose_|bits_')
_OPERAND = re.compile(r'(?<![\w.])A\[(\d+)\]')        # (a function's operand k)
_GETATTR = re.compile(r'getattr\((\w+|list_prop\(\w+, \w+, \w+\)), OPERAND(\d+)_\)')
# What a function's body may read, set up at its start if it does.
_PROLOGUE = [(('stack', 'frame'), ('rec[2]', 'rec[3]')),
             (('push', 'pop'), ('stack.append', 'stack.pop')),
             (('consts', 'globals_'), ('self.consts', 'self.globals')),
             (('codes',), ('self.image.codes',)),
             (('choose_', 'log_', 'noted_', 'bits_'), ('self.auto',))]
# A name the prologue sets up, where the body reads it (not an attribute: `frames.pop`)
_NAME = re.compile(r'(?<![\w.])(%s)(?!\w)' % '|'.join(n for names, _ in _PROLOGUE for n in names))


class _Writer(joins.Joining, fors.Writing, QuietWriting):
    """The source of one action's function over instrs, a code object's
    loaded instructions (its quiet or its loud code), entered at starts."""
    looped = frozenset()    # (loop heads a run stops at: source sets them)
    again = True        # may it read a CANPLAY's cards (filters.plays_again)? (function sets it)
    steady = None       # (steady.steady's globals and properties: function sets them)

    def __init__(self, instrs, starts, positions, pures=(), outside=(), leaves=None):
        self.instrs, self.n, self.positions = instrs, len(instrs), positions
        self.leaves = leaves or {}  # code index -> a callee written where it is called
        self.pures = pures          # the image's rules as Pures (a filter called directly)
        self.starts = {0} | starts
        self.outside = {0} | set(outside)   # (starts entered from outside the function)
        self.handlers = {}          # H<opcode> -> a quiet instruction's handler
        self.loops = fors.loops(instrs)     # head -> end of each loop a Python `for` may run
        # (what a run composes or writes one after another; where a jump joins it: joins.py)
        self.straight = [_composable(BY_CODE[op]) and not BY_CODE[op].ends for op, _, _ in instrs]
        self.joins = frozenset()    # (none until the copies at jumps run out of budget)
        self.open = []              # the `for`s being written, innermost last
        # a run's indexes -> (its text, its first operand, its operands): kept
        # from pass to pass, and for the writing again with joins
        self.made = {}

    def operand_exprs(self, i):
        """(Its parts' opcodes, A[k] or a jump's index for each operand) of
        instruction i, an `and`'s jump threaded (compiled.threaded)."""
        op, arg, _ = self.instrs[i]
        op = BY_CODE[op]
        parts = op.parts or (op,)
        n = sum(len(p.names) for p in parts)
        args = [arg] if n == 1 else list(arg)
        parts, args = compiled.threaded(parts, args, self.instrs)
        self.codes += [p.code for p in parts]
        # (a name without a kind is the VM's own: QUIET_LOCALS' `after` is a jump)
        targets = [OPERANDS[p.operands[j]].is_target if j < len(p.operands) else name == 'after'
                   for p in parts for j, name in enumerate(p.names)]
        kinds = [p.operands[j] if j < len(p.operands) else None
                 for p in parts for j, _ in enumerate(p.names)]
        out = []
        for a, target, kind in zip(args, targets, kinds):
            if target or (kind in INDEXES and type(a) is int and 0 <= a < SMALL):
                # (a jump's index, or a slot, count or code index the
                # verifier checked: never a value of the program)
                out.append(str(a))
            else:
                out.append('A[%d]' % len(self.operands))
                self.operands.append(a)
                if kind == 'prop' and a in PROPERTY_NAMES and a.isidentifier():
                    self.props[out[-1]] = a     # (the runtime's own name: obj.NAME in a run)
        return out

    def attribute(self, match, exprs):
        """`getattr(obj, OPERANDk_)` as `obj.name` where operand k is a
        stored property's name (runtime.PROPERTY_NAMES), else as it was."""
        name = self.props.get(exprs[int(match.group(2))])
        return match.group(0) if name is None else '%s.%s' % (match.group(1), name)

    def emit(self, text, indent, unit):
        for line in text.split('\n'):
            self.lines.append((' ' * indent + line, unit))
            self.budget -= self.copying > 0

    def new_unit(self, indexes):
        """A unit's number: its instructions' positions, by part, are P[it]."""
        self.units.append(tuple(p for i in indexes for p in self.positions[i]))
        self.firsts[len(self.units) - 1] = indexes[0]   # (a dict: fors.loop takes units back)
        return len(self.units) - 1

    def group(self, indexes, indent):
        """A run of composable instructions as one composition, its text
        returned (a run written again where a jump goes to it: its text as
        the first time, its operands taken again, renumbered)."""
        key, first = tuple(indexes), len(self.operands)
        made = self.made.get(key)
        if made is None:
            self.codes = []
            exprs = [e for i in indexes for e in self.operand_exprs(i)]
            text = _composed(tuple(self.codes))
            # a stored property read as an attribute (LOAD_PROP's `getattr(obj, prop)`)
            text = _GETATTR.sub(lambda m: self.attribute(m, exprs), text)
            for k in reversed(range(len(exprs))):
                text = text.replace('OPERAND%d_' % k, exprs[k])
            text = answers.jumped(rewrites.inlined(text), self, indexes)
            text = filters.direct_filters(text, self.pures, self.operand, steps.NO_STEPS,
                                          self.again)
            text = sizes.sized(rewrites.folded(text))
            self.made[key] = (text, first, self.operands[first:])
        else:
            text, was, operands = made
            self.operands += operands
            if first != was:        # (its own operands: those from `was` on)
                text = _OPERAND.sub(lambda m: 'A[%d]' % (int(m.group(1)) + (
                    first - was if int(m.group(1)) >= was else 0)), text)
        self.leave(text, indent, self.new_unit(indexes), indexes[0])
        return text

    def written(self, group, indent, tested):
        """Write group's run; the locals of tested still known defined after
        it (none if it may store a local, or call what may)."""
        return set() if _STORES.search(self.group(group, indent)) else tested

    def operand(self, value):
        """The source that reads value: one of the function's operands."""
        self.operands.append(value)
        return 'A[%d]' % (len(self.operands) - 1)

    def unit(self, i, indent):
        """An instruction no run composes: JUMP, RETURN, GIVE (control
        never falls through past any of them)."""
        op_code, arg, handler = self.instrs[i]
        op = BY_CODE[op_code]
        u = self.new_unit([i])
        emit = lambda text: self.emit(text, indent, u)
        if op_code == OP.JUMP:
            text = cases.substitute(cases.BODIES['JUMP'].body,
                                    dict(CONTEXT.names, target=str(arg), pc=str(i + 1)))
            self.leave(rewrites.folded(cases.expand(text, CONTEXT)), indent, u, i)
        elif op_code == OP.RETURN:
            emit('frames.pop()\nreturn')
        elif op_code == OP.GIVE:
            # (GIVE's own body, the loop's frame switch left out: the caller is a Python frame)
            emit('value = pop()\nframes.pop()\nframes[-1][2][-1] = value\nreturn')
        else:
            raise ValueError('%s in an action' % op.name)

    def run(self, start, indent):
        """The straight run from start, up to an instruction that leaves
        (a quiet one goes on where its statement ends)."""
        i, group, count = start, [], 0
        tested = set()      # (locals the last quiet instruction tested defined, unstored since)
        while i is not None and i < self.n:
            op = BY_CODE[self.instrs[i][0]]
            if i in self.loops and i not in self.unwritten:
                if self.open or i == start:
                    if group:
                        self.group(group, indent)
                        group = []
                    if self.loop(i, indent):
                        return
                else:
                    # (at the top, the loop is written once, where its head
                    # starts: a start of the tree even where no jump the
                    # function reaches goes there, a body that always
                    # leaves: `for c in L { skip to out. }`)
                    if group:
                        self.group(group, indent)
                    self.pending.add(i)
                    self.emit('pc = %d\ncontinue' % i, indent, None)
                    return
            if (i != start and i in self.looped and not self.open
                    and op.code not in _ENDS):
                if group:
                    self.group(group, indent)
                self.emit('pc = %d\ncontinue' % i, indent, None)
                return
            if i in self.joins and group:       # (a join's code starts a unit: joins.py)
                tested, group = self.written(group, indent, tested), []
            if (count >= RUN_ON and not self.open and (i in self.starts or count >= 4 * RUN_ON)
                    and op.code not in _ENDS and i not in self.joins):
                # (past RUN_ON, a run stops where another starts: the code stays
                # about linear in size; a RETURN or a JUMP, a few lines, is
                # written where it stands instead of a trip through the tree)
                if group:
                    self.group(group, indent)
                self.pending.add(i)
                self.stops.add(i)
                self.emit('pc = %d\ncontinue' % i, indent, None)
                return
            count += 1
            if op.code in QUIET:
                if group:
                    tested, group = self.written(group, indent, tested), []
                i = self.quiet(i, indent, tested)
                tested = self.tested
                continue
            if not _composable(op):
                if group:
                    self.group(group, indent)
                self.unit(i, indent)
                return
            group.append(i)
            i += 1
            if op.ends:
                self.group(group, indent)
                return
        if i is None:
            return
        raise ValueError('an action runs off its end')

    def source(self):
        """((Its source, line number -> unit number), the same counting on the machine)."""
        self.pending, self.stops, used, passes = set(), set(), set(), 0
        # (until no run stops at a start it has not got, and the runs stop
        # where the last pass's tree tests first; a pass more at most)
        while True:
            # (a start inside a `for`'s body is entered only from within it,
            # unless control enters the body from outside the function)
            inside = {s for h, end in self.loops.items()
                      if not any(h < s < end for s in self.outside) for s in range(h + 1, end)}
            todo = sorted((self.starts | self.pending) - inside)
            self.lines, self.operands, self.units, self.firsts = [], [], [], {}  # (text, unit)
            self.budget = INLINED * self.n + INLINED_ANY    # (lines written again at a jump)
            self.copying = 0        # (how deep in runs written again: their lines spend the budget)
            self.props = {}         # 'A[k]' -> the property's name it holds
            self.pending, self.stops = set(), set()
            self.unwritten = set()  # (loops whose body cannot stand in a `for`)
            first = self.heads(used)
            # (a run that reaches a loop head tested before the tree goes
            # there by it, as each round does: the loop written once, not
            # again after each way in; the source shorter where the
            # way in is a call's: Crazy Eights' `turn` 709 -> 520 lines)
            self.looped = {h for h in first if h in self.backs and h in todo}
            self._tree(todo, 12, first)
            passes += 1
            if self.unwritten:      # (a body a `for` cannot hold: its starts are the tree's)
                self.loops = {h: e for h, e in self.loops.items() if h not in self.unwritten}
                passes -= 1
                continue
            if self.pending <= set(todo) and (self.stops == used or passes > 2):
                self.entries = frozenset(todo)      # (a pc the function may start at)
                break
            self.starts |= self.pending
            used = self.stops
        if self.budget <= 0 and not self.joins:     # (its copies ran out: joins.py)
            self.joins = joins.wanted(self.instrs, self.straight, self.lines)
            if self.joins:
                return self.source()
        if self.joins:
            self.lines = joins.joined(self.lines, self.firsts, self.straight)
        self.lines = reads.reused(rewrites.taken(self.lines), self.steady, self.shown)
        if self.leaves:
            self.lines = inline.written(self.lines, self.leaves, self.operands, self.units)
        tail = ['    except Fault as f:',
                '        raise positioned(f, P, AT) from None',
                '    except %s as e:' % inline.ERRORS,
                '        raise invalid(rec, e) from None']
        # the locals the body reads, set up on entry (a call's cost: most
        # actions called in a playout are short)
        used = set(_NAME.findall('\n'.join(t for t, _ in self.lines)))
        # (as it is, for a caller that takes the body in: inline.leaf)
        plain = self._written(self.lines, used, [], tail)
        counted = steps.local(self.lines)
        if counted is None:
            return plain, plain
        return self._written(counted, used, [steps.PROLOGUE], tail + steps.TAIL), plain

    def _written(self, lines, used, prologue, tail):
        """(The function's source of its body's lines, line number -> unit number)."""
        if used & {'push', 'pop'}:
            used.add('stack')           # (they are its methods)
        head = ['def action(self, rec, pc=0, A=None, P=None):', '    frames = self.frames']
        head += ['    %s = %s' % (', '.join(names), ', '.join(values))
                 for names, values in _PROLOGUE if used & set(names)]
        head += prologue + ['    try:', '        while True:']
        at = {len(head) + k + 1: unit for k, (_, unit) in enumerate(lines) if unit is not None}
        return '\n'.join(head + [t for t, _ in lines] + tail) + '\n', at

    def heads(self, stops=()):
        """The starts a backward jump goes to (the heads of loops, entered
        at each round; not those in the loud code a quiet instruction
        skips), the last first, at most HEADS of them; then as many of
        stops, where a long run stopped (a loop's body goes on there at
        each round); then 0 (a call enters there)."""
        heads, skipped = set(), set()
        for i, (op, arg, _) in enumerate(self.instrs):
            if op in QUIET and type(arg[-1]) is int:     # (the loud code a quiet one skips)
                skipped |= set(range(i + 1, arg[-1]))
            heads |= {a for a in fors.targets(op, arg) if a <= i}
        heads = sorted(heads - skipped, reverse=True)[:HEADS]
        self.backs = set(heads)
        # (a stop in a `for`'s body is left to the tree: only code entered
        # from outside the function runs there without the `for`)
        stops = {s for s in stops if not any(h < s < e for h, e in self.loops.items())}
        return heads + sorted(stops - set(heads) - {0})[:HEADS] + [0]

    def _tree(self, starts, indent, first=()):
        """A test tree over starts (pc values) whose leaves are their runs,
        each of first tested alone before it (what is entered most: a test
        instead of a path down the tree)."""
        if len(starts) == 1:
            self.run(starts[0], indent)
            return
        if first:
            if first[0] not in starts:
                self._tree(starts, indent, first[1:])
                return
            self.emit('if pc == %d:' % first[0], indent, None)
            self.run(first[0], indent + 4)
            self.emit('else:', indent, None)
            self._tree([s for s in starts if s != first[0]], indent + 4, first[1:])
            return
        mid = len(starts) // 2
        self.emit('if pc < %d:' % starts[mid], indent, None)
        self._tree(starts[:mid], indent + 4)
        self.emit('else:', indent, None)
        self._tree(starts[mid:], indent + 4)


HEADS = 3               # loop heads tested before the tree (each one more test for the rest)
# How many lines a function may write again where a jump goes to their run,
# for each of its instructions (one takes 2-9 lines written once): joins
# after `if`s are written once per path (which doubles with each `if`
# before them), so a budget of lines bounds the size, and with it the
# time compile() takes (a budget of runs let Agram's RECYCLE turn grow
# from 1,637 lines to 9,840, and its first playout cost 250 ms).
INLINED = 3
INLINED_ANY = 200       # (and a short function's joins, whatever its length)


def function(loaded, loud=False, pures=(), leaves=None, shown=False, steady=None):
    """The function running loaded's action in play-out mode, from its quiet
    code (or its loud code: where a quiet instruction cannot go on, made
    then); its code object is made once per source.  pures: the image's
    rules and orderings as Pures (Image.pure), whose filters PLAY and
    CANPLAY call directly.  leaves: code index -> inline.Leaf, the callees
    written where they are called.  shown: kinds.items_shown's answer.
    steady: steady.steady's globals and properties never undefined."""
    plain, quiet, positions = loaded.plain
    instrs = plain if loud else quiet
    # where control enters from outside: a call at 0; a frame paused before
    # the playout goes on after its decision or call; the quiet code goes
    # on loud at a quiet instruction
    outside = {i + 1 for i, (op, _, _) in enumerate(instrs)
               if i + 1 < len(instrs) and _resumes(BY_CODE[op])}
    if loud:
        outside |= {i for i, (op, _, _) in enumerate(quiet) if op in QUIET}
    writer = _Writer(instrs, reach.starts(loaded, instrs, outside), positions, pures, outside,
                     leaves)
    # (either copy's PLAY_AGAIN: the quiet code goes on in the loud one)
    writer.again = filters.plays_again(plain) or filters.plays_again(quiet)
    writer.shown, writer.steady = shown, steady
    (source, at), plain = writer.source()
    name, defaults = 'action_' + loaded.code.name, (0, tuple(writer.operands), tuple(writer.units))

    def made():
        code = _MADE.get(source)
        if code is None:
            space = dict(vars(generated_cases), END=bodies.END, PAUSE=PAUSE, CALLED=CALLED,
                         LOUD=LOUD, Fault=Fault, positioned=positioned, invalid=invalid, AT=at,
                         DEEP=DEEP, ensure_depth=ensure_depth, LOUD_RUN=loud_run,
                         entered=inline.entered, QUIET_ROUNDS=bodies.quiet_rounds,
                         UNSHOWN=UNSHOWN, SHOWN_BITS=bodies.SHOWN_BITS, Card=Card,
                         Player=Player, Suit=Suit, **writer.handlers)
            exec(compile(source, '<pipvm action %s>' % loaded.code.name, 'exec'), space)
            code = _MADE[source] = space['action']
        return _named(types.FunctionType(code.__code__, code.__globals__, name, defaults))

    def _named(fn):
        fn.source, fn.at = source, at
        fn.plain = plain        # (without the steps' local: what a caller takes in)
        fn.entries = writer.entries
        return fn

    if loud or source in _MADE:
        return made()

    def later(self, rec, pc=0, A=None, P=None):
        # (compiled at its first call: a callee written in wherever it is
        # called never is, Crazy Eights' `turn` and `setup`, 4 ms of a
        # simulation's first game)
        fn = made()
        if loaded.action is later:
            loaded.action = fn
        return fn(self, rec, pc)
    later.__defaults__ = defaults
    return _named(later)


def _resumes(op):
    """Can a frame stop after op (a decision, a call) and go on after it?"""
    return any(p.body is not None and cases._words(p.body) & {'PAUSE', 'CALL', 'SIGNAL'}
               for p in (op.parts or (op,)))


def resume(machine):
    """Run the frames a playout found on the machine's stack (the paused
    decision's, and the calls that led to it) as their actions' functions,
    each from where it stopped, while they have one that starts there; the
    rest on the loop (Machine.resume).  None when main has returned."""
    frames = machine.frames
    while frames:
        rec = frames[-1]
        fn = rec[0].action
        if fn is None or rec[1] not in fn.entries:
            return machine.resume()
        fn(machine, rec, rec[1])


def positioned(fault, positions, at):
    """The PipError of a Fault at the line the traceback stops at in the function."""
    return PipError(positions[at[fault.__traceback__.tb_lineno]][fault.part], fault.message)


def invalid(rec, e):
    """A validated file's operation that still failed (values of the wrong kind)."""
    code = rec[0].code
    return InvalidProgram(None, 'invalid bytecode in %s %s (%s)' % (code.kind, code.name, e))


def loud_run(machine, rec, pc):
    """Go on in the loud code of rec's action at pc (a quiet instruction can't)."""
    loaded = rec[0]
    if loaded.loud_action is None:
        loaded.loud_action = function(loaded, loud=True, pures=machine.image.pure,
                                      steady=steady.steady(machine.image.program))
    return loaded.loud_action(machine, rec, pc)


def prepare(image):
    """Give each action of image its function (once per image): None for
    one that cannot have one, or that may call one that cannot (a function
    calls its callees' functions)."""
    if image.actions_ready:
        return
    made, calls, leaves = {}, {}, {}
    for loaded in image.codes:
        loaded.action = None
    actions = [k for k, loaded in enumerate(image.codes)
               if loaded.code.kind == 'action' and loaded.plain is not None]
    for k in actions:
        calls[k] = {(arg if op == OP.CALL else arg[1]) for copy in image.codes[k].plain[:2]
                    for op, arg, _ in copy if op in _CALLS}
    called = set().union(*calls.values())
    shown = kinds.items_shown(image.program)    # (the program's: once, not an action's)
    known = steady.steady(image.program)        # (as shown: once)
    # (callees before their callers where the calls allow: a caller takes
    # in the leaves it calls, and may be one itself)
    for k in inline.callees_first(actions, calls):
        loaded = image.codes[k]
        try:
            made[k] = function(loaded, pures=image.pure, leaves=leaves, shown=shown,
                               steady=known)
        except ValueError:
            continue
        fit = inline.leaf(made[k], loaded.frame_size) if k in called else None
        if fit is not None:
            leaves[k] = fit
    changed = True
    while changed:              # (a function whose callee has none has none)
        changed = False
        for k in list(made):
            if not calls[k] <= made.keys():
                del made[k]
                changed = True
    for k, fn in made.items():
        image.codes[k].action = fn
    image.actions_ready = True


_CALLS = {OP.CALL, OP.CALL_WITH, OP.CALL_FOR}


# A called action is a Python call (two Python frames): past DEEP frames,
# each call makes sure Python's recursion limit stays well above the VM's
# depth (CALL has no depth limit but its steps).
DEEP = 100


def ensure_depth(depth):
    if sys.getrecursionlimit() < 3 * depth + 1000:
        sys.setrecursionlimit(6 * depth + 1000)
