"""The compiled tier's regions: a loop whose every instruction a block can
hold (no decision, call or hand-back: pipvm/engine/compiled.py) runs as
one Python function, its blocks' runs side by side under one `while True`.

A block returns to the loop at each jump it takes; in a loop of several
blocks (an `if` inside a `for`) every round went back to the loop two or
three times.  A region keeps control inside: a jump to an index of the
region is `pc = k` then `continue` to the tests of pc (`if pc == k:`, in
the order of the indexes, the loop's head first), a jump out of it
returns that index to the loop, as a block's does.  Its runs start where
control can enter (the loop's head, a jump's target, the block that made
it) and stop at the next such index or at a JUMP; a jump to a JUMP goes
on where that one goes (counting its step as it would); an `and`'s jump
is threaded (compiled.threaded).  Each run is composed as a block is
(cases.compose: values passed in locals), its parts numbered across the
region, whose Fault is raised here at its part's position (the region's
own: the loud and quiet code may have different regions at one index), its
constants and slots locals read on entry, a `for`'s local untested in
its body, copies of them read in place (local_names; reads.reused's
copies of reads saved 0.13 ms of loops.pip's rounds, cost 0.26 to make),
its sums and products of a Number written out (sums.py).
A loop inside that a region holds is its own region, called from here
(`elif h <= pc <= e:`, or `elif pc == h:` for a `for`): each instruction
is composed once, whichever loop is hot first.  A `for` inside, not made
yet, that leaves only at its end is written in place instead, its Python
`for` under `elif pc == h:` (loops.pip's `for s`: no call, and its
operands and steps set up, at each round of the outer `for c`).  A loop whose head is a
FOR_NEXT alone is a Python `for` over the iteration state on the stack
(_for_head; no `next` call and test of pc a round), entered at its head
only; with no loop inside it but a `for` written in place, its rounds are
one pass with no `while`: a jump to a later run sets pc and falls through
to the tests of the runs after it (_fallen).  Where nothing in a region reads the machine but its constants and
globals, its steps are counted in a local (_own_steps).  (Writing a forward jump's run where it jumps, as
pipvm/engine/actions.py does, saved a tenth of a region's run time on
benchmarks/programs/loops.pip but cost more to compile than it saved in
one game.)

When a block inside such a loop is hot (compiled.HOT calls), the
innermost loop around it that a region can hold is made one (unless the
block is that whole loop by itself, compiled._Lazy.whole_loop: its own
`while` serves every loop of its opcodes) (once per
copy of a code object's instructions: compiled._Site), and the region's
function stands at each of its entries in the instruction list instead of
the blocks there.

Trust (docs/pipc.md): the source holds the table's text, the region's
instruction indexes (jump targets the loader made from offsets the
verifier checked), slots, counts and constants' indexes the verifier
checked (below 1000), a stored property's name from the runtime's table
(runtime.PROPERTY_NAMES), and subscripts of the operand tuple the function
gets at run time (every other operand); a function is cached in memory by
its source, never written to disk.
"""
import types

from pipvm.core.errors import PipError, StepLimit
from pipvm.core.runtime import PROPERTY_NAMES
from pipvm.engine import cases, compiled, generated_cases, local_names, steady, sums
from pipvm.engine.compiled import INDEXES, SMALL
from pipvm.isa.opcodes import OP
from pipvm.isa.operands import OPERANDS

# A region's words: the machine's constants and globals read once, in locals.
CONTEXT = cases.Context({'machine': 'self', 'consts': 'consts', 'globals_': 'globals_',
                         'PUSH': 'push', 'POP': 'pop'}, ['pass  # GOTO {0}'], None, None)
# (a comment, not a call: a conditional jump's test stays out of a `try`)
_GOTO = 'pass  # GOTO '
_MADE = {}              # source -> the function first made from it
INF = float('inf')      # (the machine's steps left with no limit: vm.Machine)
ROUNDS = 2 ** 30 - 1    # (steps a region counts at most in one int of one digit, with no limit)


def _rounds(machine, endless):
    """A region's count run out: the step limit, or with none (endless) the
    count begun again."""
    if not endless:
        raise StepLimit(machine.max_steps)
    return ROUNDS


def loops(instrs):
    """[(head, end)] of the loops in a list of loaded instructions: each
    head a JUMP goes back to, end the last such JUMP; the smallest first."""
    last = {}
    for j, (op, arg, _) in enumerate(instrs):
        if op == OP.JUMP and type(arg) is int and 0 <= arg <= j:
            last[arg] = j
    return sorted(last.items(), key=lambda loop: loop[1] - loop[0])


def holds(instrs, head, end):
    """Can a region hold the instructions head..end (each a block's or a JUMP)?"""
    return all(entry[0] == OP.JUMP or compiled._parts(entry) is not None
               for entry in instrs[head:end + 1])


def enter(site, index):
    """(The function of the region of the innermost loop around index that
    one can hold, the operand tuple it takes there), or None where there is
    none; made once per site (compiled._Site) and put in place at each of
    its entries."""
    if site.loops is None:
        site.loops = [loop for loop in loops(site.instrs) if holds(site.instrs, *loop)]
    around = [loop for loop in site.loops if loop[0] <= index <= loop[1]]
    if not around:
        return None
    # (a nest of `for` loops is made at once, from its outermost: its inner
    # loops are regions it calls, and no round of the outer runs cold
    # after the inner is hot)
    k = 0
    while (k + 1 < len(around) and compiled.for_operands(site.instrs[around[k][0]])
           and compiled.for_operands(site.instrs[around[k + 1][0]])):
        k += 1
    for loop in [around[k]] + around[:k] + around[k + 1:]:
        made = region(site, loop, index)
        if made is not None:
            fn, args = made
            if index in args:
                return fn, args[index]
            # (a `for` region enters only at its head: (fn, None) says
            # the index runs cold until the loop gets there)
            return (fn, None) if fn.head_only else None     # (else: its block)
    return None


def region(site, loop, index=None):
    """The region of loop (made now if not yet, and put in place), or None
    if it cannot be one."""
    made = site.made.get(loop)
    if made is None and loop not in site.failed:
        try:
            made = make(site, loop, {index} if index is not None else set())
        except ValueError:          # (a part the composition cannot place: blocks instead)
            site.failed.add(loop)
            return None
        site.made[loop] = made
        fn, args = made
        for k, arg in args.items():
            site.out[k] = (compiled.BLOCK, arg, fn)
    return made


def _parts(instrs, i):
    """(The parts, their operands with an `and`'s jump threaded, which of
    them are jump targets, which are a stored property's name) of loaded
    instruction i."""
    entry = instrs[i]
    parts, operands = compiled.threaded(compiled._parts(entry), compiled._operands(entry), instrs)
    kinds = [p.operands[k] if k < len(p.operands) else None
             for p in parts for k in range(len(p.names))]
    return parts, operands, kinds


def entries(site, head, end, entered):
    """The indexes of head..end control may enter: the head, and each
    entered index but a JUMP_IF_FALSE only threaded jumps name."""
    threaded, named = set(), set()
    for i, (ints, target) in enumerate(_named(site)):
        named |= ints
        if target is not None:
            if head <= i <= end:
                threaded.add(target)
            else:
                named.add(target)
    out = {k for k in entered if head <= k <= end} - (threaded - named)
    return sorted(out | {head})


def _named(site):
    """Each instruction's (the ints its operands name but an `and`'s
    threaded target, that target or None): found once per site (a region
    and each loop written in it look at all of them)."""
    if site.named is None:
        instrs, site.named = site.instrs, []
        for entry in instrs:
            arg, target = entry[1], None
            parts = compiled._parts(entry)
            if parts and parts[-1].code == OP.JUMP_IF_FALSE_OR_POP:
                last = arg[-1] if type(arg) is tuple else arg
                if compiled.threads_to(last, instrs):
                    target, arg = last, (arg[:-1] if type(arg) is tuple else ())
            site.named.append((compiled.ints_in(arg), target))
    return site.named




def _attributes(text, props):
    """text with each `getattr(obj, arg[k])` whose operand is a stored
    property's name (props: 'arg[k]' -> the name) as `obj.name`.  (String
    operations, not a pattern: regions are made during a game, and compiling
    patterns at their import cost more than a region saves in some.)"""
    for expr, name in props.items():
        tail = ', %s)' % expr
        start = text.find('getattr(')
        while start >= 0:
            end = text.find(')', start)
            obj = text[start + 8:end - len(tail) + 1]
            if text.startswith(tail, end - len(tail) + 1) and obj.isidentifier():
                text = text[:start] + '%s.%s' % (obj, name) + text[end + 1:]
            start = text.find('getattr(', start + 1)
    return text


def _folded(text):
    """text with each `if A < B:` of two integers (JUMP's test of its target
    against pc, both indexes here) decided: its block kept, dedented, where
    it holds, dropped where not (a step counted only where the jump goes
    back, with no test left to run each round)."""
    lines, out, i = text.split('\n'), [], 0
    while i < len(lines):
        line = lines[i]
        word = line.strip()
        indent = len(line) - len(line.lstrip())
        test = word[3:-1].split(' < ') if word.startswith('if ') and word.endswith(':') else ()
        j = i + 1
        while j < len(lines) and len(lines[j]) - len(lines[j].lstrip()) > indent:
            j += 1
        if (len(test) == 2 and all(t.isdigit() for t in test)
                and not (j < len(lines) and lines[j].strip().startswith(('else', 'elif')))):
            if int(test[0]) < int(test[1]):
                out += [x[:indent] + x[indent + 4:] for x in lines[i + 1:j]]
            i = j
            continue
        out.append(line)
        i += 1
    return '\n'.join(out)


_JUMPS = {}             # whether a JUMP goes back -> its text, with _TO and _PC in it
_TO, _PC = '900001', '900002'       # (integers no region's index reaches, neither in the other)


def _jump_text(target, pc):
    """JUMP's body in a region's words, at pc - 1 going to target, folded
    (_folded): composed once per direction, the two integers put in after
    (a region has several JUMPs; composing was a sixth of loops.pip's)."""
    back = target < pc
    text = _JUMPS.get(back)
    if text is None:
        names = dict(CONTEXT.names, target=_TO if back else _PC, pc=_PC if back else _TO)
        text = _JUMPS[back] = cases.expand(
            _folded(cases.substitute(cases.BODIES['JUMP'].body, names)), CONTEXT)
    return text.replace(_TO if back else _PC, str(target)).replace(_PC if back else _TO, str(pc))


def make(site, loop, entered):
    """(The function of the region over loop = (head, end), {entry index: the
    operand tuple it takes there}).  A loop inside that a region holds runs as
    its own region's function, called from here, or, a `for` left only at its
    end and not made yet, is written in its place (_Writer.loop)."""
    w = _Writer(site)
    lines, each = w.loop(loop, entered)
    head, end = loop
    # (the lines as one text, each pass below one call; the steps counted in a
    # local where nothing else reads the machine: written back when it ends and
    # while an inner region runs, None then, so an error there leaves its count)
    text = '\n'.join(lines + (['pop()', 'return %d' % each[1]] if each is not None else []))
    text = steady.untested(text, site.steady)
    steps = _own_steps(text)
    if steps:
        # (with no limit, the machine's count is a float, inf, whose
        # subtraction and test of an int CPython does not specialize: a
        # twentieth of loops.pip's instructions.  The local counts down
        # from ROUNDS instead, an int, begun again where it runs out; the
        # machine's stays inf)
        text = (text.replace('self.steps_left', 'steps')
                .replace(_SAVE, 'self.steps_left, steps = INF if endless_ else steps, None')
                .replace(_LOAD, 'steps = ROUNDS if endless_ else self.steps_left')
                .replace('raise StepLimit(self.max_steps)', 'steps = _rounds(self, endless_)'))
    elif _SAVE in text:
        text = '\n'.join(line for line in text.split('\n') if line.strip() not in (_SAVE, _LOAD))
    text, named = local_names.consts_named(text)
    text, slots = local_names.slots_named(text, site.items_shown)
    text = sums.written(local_names.copied(text))
    source = '\n'.join(['def region(self, stack, frame, arg):',
                        '    push, pop = stack.append, stack.pop',
                        '    consts, globals_ = self.consts, self.globals']
                       + ['    %s = consts[%s]' % ('k_' + k, k) for k in named]
                       + ['    l_%s = frame[%s]' % (k, k) for k in slots]
                       + ['    steps = self.steps_left',
                          '    if endless_ := steps == INF:',
                          '        steps = ROUNDS'] * steps
                       + ['    try:']
                       + ['        ' + text.replace('\n', '\n        ')]
                       + ['    except Fault as f:',
                          '        raise PipError(arg[1][f.part], f.message) from None']
                       + ['    finally:'] * bool(steps or slots)
                       + ['        if steps is not None:',
                          '            self.steps_left = INF if endless_ else steps'] * steps
                       + ['        frame[%s] = l_%s' % (k, k) for k in slots]) + '\n'
    fn = _MADE.get(source)
    if fn is None:
        space = dict(vars(generated_cases), PipError=PipError, INF=INF, ROUNDS=ROUNDS,
                     _rounds=_rounds)
        exec(compile(source, '<pipvm region %d to %d>' % loop, 'exec'), space)
        fn = _MADE[source] = space['region']
        fn.source, fn.loop, fn.head_only = source, loop, each is not None
    rest = (tuple(w.places),) + tuple(w.operands)
    starts = w.starts
    return fn, {k: (k,) + rest for k in ([head] if each is not None else starts)}


def _goes(text, pad, then):
    """text's lines, each `pass  # GOTO k` as then(k, its indent)."""
    out = []
    for line in text.split('\n'):
        if '# GOTO' not in line:        # (most lines: one test in C)
            out.append(pad + line)
            continue
        word = line.lstrip(' ')
        if not (word.startswith(_GOTO) and word[len(_GOTO):].isdigit()):
            raise ValueError('a jump to %s' % line.strip())
        out += then(int(word[len(_GOTO):]), pad + line[:len(line) - len(word)])
    return out


def _gone_to(runs):
    """The indexes the runs' lines set pc to."""
    return {int(word[5:]) for _, out in runs for line in out
            if 'pc = ' in line and (word := line.strip()).startswith('pc = ')
            and word[5:].isdigit()}


def _tested(lines, tests, target, goto):
    """lines with each `push(x)` right before `pc = k` then `continue`,
    where k is a JUMP_IF_FALSE of tests (an `or`'s value, kept for the
    `if`'s test, or the last operand's), as that test of x: goto its
    target(k) where x is false, else goto k + 1 (k pops x as it tests it:
    the same stack, the same place, no step counted either way)."""
    out, k = [], 0
    while k < len(lines):
        line = lines[k]
        if 'push(' not in line:         # (most lines: one test in C)
            out.append(line)
            k += 1
            continue
        word = line.lstrip(' ')
        pad = line[:len(line) - len(word)]
        if (word.startswith('push(') and word[5:-1].isidentifier() and k + 2 < len(lines)
                and lines[k + 1].startswith(pad + 'pc = ') and lines[k + 2] == pad + 'continue'):
            to = lines[k + 1][len(pad) + 5:]
            if to.isdigit() and int(to) in tests:
                name = word[5:-1]
                # (pushed first thing under `if x:` or `if not x:`, x is known)
                known = out[-1].strip() if out and out[-1].startswith(pad[:-4] + 'if ') \
                    and len(out[-1]) - len(out[-1].lstrip(' ')) == len(pad) - 4 else None
                if known == 'if %s:' % name:
                    out += goto(int(to) + 1, pad)
                elif known == 'if not %s:' % name:
                    out += goto(target(int(to)), pad)
                else:
                    out += ([pad + 'if not %s:' % name] + goto(target(int(to)), pad + '    ')
                            + goto(int(to) + 1, pad))
                k += 3
                continue
        out.append(line)
        k += 1
    return out


# Around an inner region's call: its steps written back, and read again
# (a comment where the region counts on the machine: then dropped).
_SAVE, _LOAD = '# SAVE STEPS', '# LOAD STEPS'


class _Writer:
    """A region's lines, its operands and its parts' positions: its loop's
    and those of the `for`s inside it written in place."""

    def __init__(self, site):
        self.site, self.operands, self.places, self.props = site, [], [], {}
        self.starts = None      # (the outermost loop's)

    def operand(self, value):
        self.operands.append(value)
        return 'arg[%d]' % (len(self.operands) + 1)

    def loop(self, loop, entered):
        """(The lines of loop's rounds, its `for`'s (slot, index after) or
        None): a `while True` over pc's tests, or a Python `for` over the
        iteration state whose rounds are that `while`."""
        site = self.site
        instrs, positions = site.instrs, site.positions
        head, end = loop
        inner = [l for l in site.loops if head <= l[0] and l[1] <= end and l != loop]
        inner = [l for l in inner
                 if not any(o != l and o[0] <= l[0] and l[1] <= o[1] for o in inner)]
        for a in inner:
            for b in inner:
                if a < b and b[0] <= a[1]:
                    raise ValueError('loops %s and %s cross' % (a, b))
        within = {k: l for l in inner for k in range(l[0], l[1] + 1)}
        starts = [k for k in entries(site, head, end, site.entered | entered) if k not in within]
        each = _for_head(instrs, head, end, within)
        if each is not None:    # (a `for`: its head is the Python for, the body runs from head + 1)
            starts = [head + 1] + [k for k in starts if k not in (head, head + 1)]
        if self.starts is None:
            self.starts = starts
        starts_in = starts
        # (after a lone JUMP_IF_FALSE a run of its own: a run that pushes
        # the value it tests goes on there or at its target, unpushed)
        tests = {k for k in starts if instrs[k][0] == OP.JUMP_IF_FALSE and k + 1 <= end
                 and k + 1 not in within}
        starts = sorted(set(starts) | {k + 1 for k in tests if instrs[k + 1][0] != OP.JUMP})
        inside = set(starts)
        operand, places, props, lines = self.operand, self.places, self.props, []

        def goto(target, pad, thread=True):
            """Go on at target: a run of the region, a loop inside, or out of it
            (the loop goes on there)."""
            if thread and target not in within and head <= target <= end \
                    and instrs[target][0] == OP.JUMP:
                # a jump to a JUMP: that JUMP's step (if it goes back), and its target
                return _jump(target, pad, lambda to, pad: goto(to, pad, False))
            if target == head and each is not None:
                return [pad + 'break']              # (the for's next item)
            if target in inside or target in within:
                return [pad + 'pc = %d' % target, pad + 'continue']
            return [pad + 'return %d' % target]

        def _jump(i, pad, then):
            return _goes(_jump_text(instrs[i][1], i + 1), pad, then)

        runs = []
        for start in starts:
            i, parts, exprs = start, [], []
            while (i <= end and instrs[i][0] != OP.JUMP and i not in within
                   and (i == start or i not in inside)):
                ps, ops, kinds = _parts(instrs, i)
                if len(ps) != len(positions[i]):
                    raise ValueError('%d parts at %d positions' % (len(ps), len(positions[i])))
                parts += ps
                for value, kind in zip(ops, kinds):
                    if kind is not None and OPERANDS[kind].is_target:
                        exprs.append(str(value))        # (an index the loader made)
                    elif kind in INDEXES and type(value) is int and 0 <= value < SMALL:
                        exprs.append(str(value))    # (a slot, count or index the verifier checked)
                    else:
                        exprs.append(operand(value))
                        if kind == 'prop' and value in PROPERTY_NAMES and value.isidentifier():
                            props[exprs[-1]] = value    # (the runtime's own name: obj.NAME)
                places += positions[i]
                i += 1
            out = []
            if parts:
                text = cases.compose(types.SimpleNamespace(parts=tuple(parts)), CONTEXT, exprs,
                                     own_parts=True, first_part=len(places) - len(parts),
                                     forwarded=False)
                text = _attributes(text, props)
                if 'self.playable(' in text:
                    # (imported here: a region with no filter, loops.pip's, need not
                    # pay for the module and its patterns, a twentieth of its game)
                    from pipvm.engine import filters
                    text = filters.direct_filters(text, site.pures, operand,
                                                  again=filters.plays_again(site.instrs))
                out = _goes(text, '', goto)
            if i <= end and instrs[i][0] == OP.JUMP and i not in within:
                out += _jump(i, '', goto)
            else:
                out += goto(i, '', False)
            runs.append((start, _tested(out, tests, lambda k: instrs[k][1], goto)))
        tail, called = [], False        # (the loops inside: written in place, or called)
        in_place = []                   # (the `for`s written in place: runs of their own)
        for l in inner:
            written = self.written(l, lambda after: goto(after, '    '))
            if written is not None:
                tail += ['elif pc == %d:' % l[0]] + written
                in_place.append((l[0], [x[4:] for x in written]))
                continue
            called = True
            made = region(site, l)
            if made is None:
                raise ValueError('no region for the loop %s' % (l,))
            fn, args = made
            if fn.head_only:    # (entered elsewhere, from outside it: the loop's blocks run)
                call = '    pc = %s(self, stack, frame, %s)' % (operand(fn), operand(args[l[0]]))
                tail += ['elif pc == %d:' % l[0], '    ' + _SAVE, call, '    ' + _LOAD]
                continue
            # (its function, and its operand tuples by entry, pc - its head)
            call, table = operand(fn), operand(tuple(args.get(k) for k in range(l[0], l[1] + 1)))
            tail += (['elif %d <= pc <= %d:' % l, '    ' + _SAVE]
                     + ['    pc = %s(self, stack, frame, %s[pc - %d])' % (call, table, l[0])]
                     + ['    ' + _LOAD])
        # (a run no jump goes to any more, where control cannot enter from
        # outside, left out: a JUMP_IF_FALSE every push to which _tested,
        # a JUMP every jump to which is threaded; all kept where a loop
        # inside is called, whose function may return any index)
        outer = each is None and self.starts is starts_in
        gone = set() if called else ({k for k, _ in runs} - _gone_to(runs + [(None, tail)])
                                     - (set(starts_in) if outer else set()))
        kept = [(start, out) for start, out in runs if start not in gone or start == head + 1]
        for start, out in kept:
            lines += ['%s pc == %d:' % ('elif' if lines else 'if', start)]
            lines += ['    ' + line for line in out]
        lines += tail
        lines += ['else:', '    return pc']
        if each is None:
            return ['pc = arg[0]', 'while True:'] + ['    ' + line for line in lines], None
        slot, after = each
        rounds = None if called else _fallen(sorted(kept + in_place), head + 1)
        if rounds is not None:
            return ['for frame[%d] in stack[-1]:' % slot] + ['    ' + x for x in rounds], each
        return ['for frame[%d] in stack[-1]:' % slot,
                '    pc = %d' % (head + 1),
                '    while True:'] + ['        ' + line for line in lines], each

    def written(self, loop, then):
        """The lines (indented under its head's test) of an inner `for` loop
        written in place, then(its index after) where it ends; None where
        it is made already, is no `for`, or leaves but at its end (a jump
        out returns from its own function to the region's tests: written
        in place, it would return from this one)."""
        if loop in self.site.made:
            return None
        mark = (len(self.operands), len(self.places), dict(self.props))
        try:
            lines, each = self.loop(loop, set())
        except ValueError:
            lines, each = None, None
        if each is None or any(line.lstrip().startswith('return ') and line.strip() != 'return pc'
                               for line in lines):
            del self.operands[mark[0]:], self.places[mark[1]:]
            self.props.clear()
            self.props.update(mark[2])
            return None
        return ['    ' + line for line in lines] + ['    pop()'] + then(each[1])


def _fallen(runs, first):
    """A `for` body's runs (start, lines) as one pass with no `while`: the
    first run, then each other under `if pc == start:` in order, a jump
    to a later run (`pc = k`, `continue`) setting pc and falling through
    to those tests (what followed it in its block under an `else:`), the
    next item (`break`) a `continue` of the `for`; None where a jump goes
    back or to no run of these (the `while` stays)."""
    starts = {start for start, _ in runs}
    if not runs or runs[0][0] != first:
        return None
    done, falls = [], []        # (falls: the runs fallen through to, as they were set)
    try:
        for start, lines in runs:
            ind = [len(x) - len(x.lstrip(' ')) for x in lines]
            done.append((start, falls,
                         _through(lines, ind, 0, len(lines), 0, start, starts, falls)[0]))
            falls = []
    except ValueError:
        return None
    # (where every run before falls through to this one alone, its test of
    # pc is always true: none is written (a round of loops.pip's `for s`
    # tested pc twice); where no run is tested, pc is set for nothing)
    out, pending, tested = [], set(), False
    for start, fell, body in done:
        if start == first or pending == {start}:
            out += body
        else:
            out += ['if pc == %d:' % start] + ['    ' + x for x in body]
            tested = True
        pending = {k for k in pending if k > start} | set(fell)
    if tested:
        return [x[:-len(_FELL)] if x.endswith(_FELL) else x for x in out]
    kept = []
    for x in out:
        if x.endswith(_FELL):
            pad = x[:len(x) - len(x.lstrip(' '))]
            if kept and kept[-1].startswith(pad) and kept[-1][len(pad)] != ' ':
                continue        # (a statement before it in its block)
            x = pad + 'pass'
        kept.append(x)
    return kept


_FELL = '  # (falls through)'


def _through(lines, ind, i, j, indent, start, starts, falls):
    """(lines[i:j], statements at indent, with their jumps as _fallen's,
    each `pc = k` so set marked _FELL and k added to falls; whether the
    last falls through with pc set: the rest of its block is then not
    run); ind: each line's indentation."""
    out, pad = [], ' ' * indent
    k = i
    while k < j:
        line = lines[k]
        word = line[indent:]
        end = k + 1
        while end < j and ind[end] > indent:
            end += 1
        if word.startswith('pc = ') and end < j and lines[end] == pad + 'continue':
            if not (word[5:].isdigit() and int(word[5:]) in starts and int(word[5:]) > start):
                raise ValueError('a jump back')
            falls.append(int(word[5:]))
            return out + [line + _FELL], True       # (what follows in its block is not run)
        if word == 'break':
            return out + [pad + 'continue'], False
        if word.startswith(('if ', 'elif ', 'else:')) and word.endswith(':') and end > k + 1:
            chain = [(line, k + 1, end)]
            while end < j and lines[end].startswith((pad + 'elif ', pad + 'else:')):
                k2 = end
                end += 1
                while end < j and ind[end] > indent:
                    end += 1
                chain.append((lines[k2], k2 + 1, end))
            done = [(head,) + _through(lines, ind, a, b, indent + 4, start, starts, falls)
                    for head, a, b in chain]
            if not chain[-1][0][indent:].startswith('else:'):
                done.append((pad + 'else:', ['%s    pass' % pad], False))
            staying = [d for d in done if not d[2]]
            if len(staying) == len(done):       # (no branch falls through)
                if end < j and any(_FELL in x for _, body, _ in done for x in body):
                    raise ValueError('a jump in a block in a branch: its path would run the rest')
                out += [x for head, body, _ in done[:len(chain)] for x in [head] + body]
                k = end
                continue
            if len(staying) > 1:
                raise ValueError('the rest in two branches')
            rest = ['    ' + x for x in lines[end:j]]
            after, fell_after = _through(rest, [x + 4 for x in ind[end:j]], 0, len(rest),
                                         indent + 4, start, starts, falls)
            for head, body, fell in done:
                out += [head] + (body if fell or not after else
                                 [x for x in body if x.strip() != 'pass'] + after)
            return out, fell_after
        block = lines[k:end]
        if not word.startswith(('for ', 'while ')) and any(     # (a loop's own jumps)
                x.strip() in ('continue', 'break') or x.strip().startswith('pc = ')
                for x in block[1:]):
            raise ValueError('a jump in a block of its own')
        out += block
        k = end
    return out, False


def _own_steps(text):
    """Can a region's text count the steps in a local?  Only where it
    reads nothing else of the machine (no call that may run code, which
    counts steps on the machine)."""
    for word in ('self.steps_left', 'self.max_steps', 'self.consts', 'self.globals'):
        text = text.replace(word, '')
    return 'self' not in text and 'steps' not in text


def _for_head(instrs, head, end, within):
    """(The local slot, the index after the loop) when the loop's head is a
    FOR_NEXT alone (`for x in list`): the region is a Python `for` over the
    iteration state on the stack (the same items, one next each, as
    FOR_NEXT's body takes them); None for any other loop.  Both are
    integers the verifier checked (a slot) and the loader made (a target)."""
    if head + 1 > end or head + 1 in within:
        return None
    return compiled.for_operands(instrs[head])
