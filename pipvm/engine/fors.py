"""Loops over a list in an action's function (pipvm/engine/actions.py,
play-out mode) written as Python `for`s: which loops can be (loops), and
the writer's part that writes them (Writing, a base of actions._Writer).

A loop's round on the loop's instructions is FOR_NEXT's `next` on the
iteration state, its test for the end and a trip from the back JUMP
through the function's tree of starts; as a `for` over that same iterator
it is CPython's own FOR_ITER, the body's code straight after it."""
import re

from pipvm.engine import rewrites
from pipvm.engine.compiled import for_operands
from pipvm.isa.opcodes import ASKS, BY_CODE, OP
from pipvm.isa.operands import OPERANDS

_JUMP = re.compile(r'( *)pc = (\d+)')
# The quiet instructions (pipvm/engine/quiet.py): each goes on at its last
# operand (where its statement or loop ends), or hands over to the loud code.
QUIET = frozenset({OP.QUIET_LOCALS, OP.QUIET_MESSAGE, OP.QUIET_LOOP, OP.QUIET_FOR})


class NoFor(Exception):
    """A loop's body cannot stand in a Python `for` (Writing.loop)."""


class Open:
    """A loop being written as a `for`: its FOR_NEXT, its end (FOR_NEXT's
    target; its back JUMP just before), the targets its `break`s set."""

    def __init__(self, head, end):
        self.head, self.end, self.breaks = head, end, {}


def targets(op, arg):
    """The instruction indexes op (with its loaded operand arg) may jump to."""
    if op in QUIET:
        return [arg[-1]] if type(arg) is tuple and type(arg[-1]) is int else []
    parts = BY_CODE[op].parts or (BY_CODE[op],)
    kinds = [k for p in parts for k in p.operands]
    args = [arg] if len(kinds) == 1 else list(arg) if type(arg) is tuple else []
    return [a for a, k in zip(args, kinds) if OPERANDS[k].is_target and type(a) is int]


def loops(instrs):
    """{head: end} of the loops of instrs a Python `for` can run: a FOR_NEXT
    at head whose target, end, follows the JUMP back to it; nothing outside
    enters its body, and its body leaves the iteration state on the stack
    as it found it, its own code dropping it only right before a JUMP out
    (a `skip` or `break`: the `for` is left where the loop is).  A decision
    whose answer jumps (an ASK's) keeps the loop as it was."""
    found = {}
    n = len(instrs)
    for h, instr in enumerate(instrs):
        pair = for_operands(instr)
        if pair is None:
            continue
        end = pair[1]
        if not (h + 1 < end <= n and instrs[end - 1][0] == OP.JUMP and instrs[end - 1][1] == h):
            continue
        if not any(h < t < end for i, (o, a, _) in enumerate(instrs)
                   if not h < i < end for t in targets(o, a)) and _keeps_state(instrs, h, end):
            found[h] = end
    return found


def _keeps_state(instrs, h, end):
    """Does every path through the loop's body from h + 1 keep the
    iteration state (below the depth it starts at, 0) until it goes back
    to h, or leave the loop, a DROP right before a JUMP out taking it?"""
    depth, work = {h + 1: 0}, [h + 1]
    while work:
        j = work.pop()
        op, arg, _ = instrs[j]
        record = BY_CODE[op]
        if record.name in ASKS:
            return False
        parts = record.parts or (record,)
        n = sum(len(p.operands) for p in parts)
        pops = record.stack_pops((arg,) if n == 1 else arg if type(arg) is tuple else ())
        if pops > depth[j]:
            nxt = instrs[j + 1] if j + 1 < end else None
            if op == OP.DROP and nxt is not None and nxt[0] == OP.JUMP and not h <= nxt[1] < end:
                continue
            return False
        after = depth[j] - pops + record.pushes
        if op in QUIET:            # (LOUD returns: its `after` only)
            nexts = [(t, after) for t in targets(op, arg)]
        else:
            nexts = [] if record.ends else [(j + 1, after)]
            nexts += [(t, depth[j] + record.branch) for t in targets(op, arg)[-1:]
                      if record.branch is not None]
        for t, d in nexts:
            if t == h and d != 0:
                return False
            if h < t < end:
                if t not in depth:
                    depth[t] = d
                    work.append(t)
                elif depth[t] != d:
                    return False
    return True


class Writing:
    """actions._Writer's jumps and loops: a jump is the run it goes to, or
    `pc = k` then `continue` (the tree of starts); where a loop's body
    stands in a `for`, a jump in it is `continue`, `break` or its run."""

    def leave(self, text, indent, unit, first):
        """Emit text, each jump in it (`pc = k` then `continue`) written as
        self.jump writes it: k's run written where it jumps (forward, past
        first, where the text's run starts, outside a `try`, while the
        function's budget lasts: no trip through the test tree), or within
        a loop written as a `for` its own statement."""
        lines = text.split('\n')
        k = 0
        while k < len(lines):
            m = _JUMP.fullmatch(lines[k])
            if (m and k + 1 < len(lines) and lines[k + 1] == m.group(1) + 'continue'
                    and self.jump(int(m.group(2)), indent + len(m.group(1)), unit, first,
                                  rewrites.in_try(lines, k))):
                k += 2
                continue
            if self.open and lines[k].strip() == 'continue':
                raise NoFor        # (a jump to a computed place: a decision's answer)
            self.lines.append((' ' * indent + lines[k], unit))
            self.budget -= self.copying > 0
            k += 1

    def jump(self, target, indent, unit, first, in_try):
        """Write a jump to target as its run (forward, within the budget),
        or, within a `for`, as `continue` to its head or `break` out of it
        (its pc set: the code after the `for` goes there); False to leave
        it `pc = target` then `continue` (the test tree)."""
        inner = self.open[-1] if self.open else None
        if inner is not None and target == inner.head:
            self.emit('continue', indent, unit)     # (the back JUMP's step counted before)
            return True
        if inner is not None and not inner.head < target < inner.end:
            self.emit('pc = %d\nbreak' % target, indent, unit)
            inner.breaks.setdefault(target, None)
            return True
        if target > first and self.budget > 0 and not in_try:
            self.copying += 1
            self.run(target, indent)
            self.copying -= 1
            return True
        if inner is not None:
            raise NoFor            # (back into its body, or over the budget)
        return False

    def loop(self, h, indent):
        """The loop whose FOR_NEXT is h as a Python `for` over the iteration
        state FOR_ITER left on the stack (the same iterator: where the loud
        code goes on, or a frame resumes, it is as far on as the loop's
        would be), the loop's local its target, its body written inside;
        or, where the body cannot stand in a `for` (a decision's answer
        jumps, a join over the budget), FOR_NEXT's code as before.  Each
        round counts its step at the back JUMP, as the loop does."""
        slot, end = self.instrs[h][1]
        mark = (len(self.lines), len(self.units), self.budget, self.copying, len(self.open))
        inner = Open(h, end)
        u = self.new_unit([h])
        self.emit('for frame[%d] in stack[-1]:' % slot, indent, u)
        self.open.append(inner)
        try:
            self.run(h + 1, indent + 4)
            self.open.pop()
            # (exhausted: FOR_NEXT's POP and its jump to the loop's end)
            self.emit('else:', indent, u)
            self.leave('pop()\npc = %d\ncontinue' % end, indent + 4, u, h)
            # a `break` set pc: each target's jump in the code around this `for`
            breaks = list(inner.breaks)
            for k, target in enumerate(breaks):
                pad = indent
                if len(breaks) > 1:
                    self.emit(('if' if k == 0 else 'elif') + ' pc == %d:' % target, indent, u)
                    pad += 4
                self.leave('pc = %d\ncontinue' % target, pad, u, h)
            return True
        except NoFor:
            del self.lines[mark[0]:], self.units[mark[1]:], self.open[mark[4]:]
            self.budget, self.copying = mark[2], mark[3]
            self.unwritten.add(h)
            return False
