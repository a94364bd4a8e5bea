"""Joins: a forward jump of an action's function to where its own run goes
on (pipvm/engine/actions.py, play-out mode).

A value-making `and`/`or` (an ASK's `"Bid 1" if n >= 1 and not (hook
and total_bid + 1 == n)`, a `let x be a and b`) jumps forward past the
rest of its expression, to the join where both ways meet with the value
on the stack.  Written as any jump, that way went through the test tree
(`pc = k` then `continue`: Oh Hell's `bidding` passed it about ten times a
bid) or had the rest of the run written again where it jumps (doubling
with each jump, until the budget ran out).  Here the run splits at such a
join (its code starts there, taking its values from the stack, as the
tree's run of it would), the jump stays `pc = k` then `continue`, and
then `joined` makes the `if` whose block ends in that jump, followed by
the lines that fall through to the join's code, an `if`/`else`: the jump
goes on at the join's code by falling out of its block, and the code
between is the `else`'s.  The code at the join is the run from there, as
the tree's is, so either way runs the same instructions; `pc` is read
only by the tree; the `if` and the lines between are those of straight
instructions before the join (nothing quiet, no loop, no tree between).

The split costs the way that falls through a push and a pop, where a jump
written again cost nothing at run time: a function is written with joins
only where its budget of copies ran out, at the joins its runs then went
to through the tree (Oh Hell's `bidding`: 257 -> 205 Python instructions
an answer, its machine instructions 2.6% fewer; Euchre's none but where
they paid)."""
from pipvm.engine import compiled, fors
from pipvm.engine.lines import indent_of
from pipvm.isa.opcodes import BY_CODE, OP


class Joining:
    """actions._Writer's jumps to a join its run reaches: left `pc = k`
    then `continue` for `joined` (not written again where they jump)."""

    def jump(self, target, indent, unit, first, in_try):
        if (not self.open and target in self.joins and first < target
                and all(self.straight[j] for j in range(first, target))):
            return False
        return super().jump(target, indent, unit, first, in_try)


def points(instrs, straight):
    """The joins of instrs: each forward target of a jump that may fall
    through, where every instruction from the jump to it is straight (a
    run writes them in one composition or one after another), but an
    `and`'s threaded past (compiled.threaded: no jump goes there)."""
    out = set()
    for j, (op, arg, _) in enumerate(instrs):
        if straight[j] and BY_CODE[op].branch is not None:
            ands = (BY_CODE[op].parts or (BY_CODE[op],))[-1].code == OP.JUMP_IF_FALSE_OR_POP
            out.update(t for t in fors.targets(op, arg)
                       if j < t < len(instrs) and all(straight[j:t])
                       and not (ands and compiled.threads_to(t, instrs)))
    return out


def wanted(instrs, straight, lines):
    """The joins of instrs a function's lines (written without joins, its
    budget of copies spent) go to through the test tree: where a join pays
    (a join a copy reached costs the fall-through a push and a pop)."""
    tree = {int(text.lstrip()[5:]) for text, _ in lines
            if text.lstrip().startswith('pc = ') and text.lstrip()[5:].isdigit()}
    return points(instrs, straight) & tree


def joined(lines, firsts, straight):
    """lines ((text, unit) pairs of a function's body) with each `if`
    whose block ends in `pc = k` then `continue`, followed (past an `else`
    block of its own) by lines that fall through to the first line of a
    unit starting at k (firsts: unit -> its first instruction's index), at
    the `if`'s indentation, made an `if`/`else` that goes on there; where
    the `if` and the lines between are those of straight instructions
    before k (nothing quiet, no loop, no tree between)."""
    out, k = list(lines), 0
    while k + 1 < len(out):
        text = out[k][0]
        word = text.lstrip()
        pad = text[:len(text) - len(word)]
        if not (word.startswith('pc = ') and word[5:].isdigit()
                and out[k + 1][0] == pad + 'continue'):
            k += 1
            continue
        made = _join(out, k, int(word[5:]), len(pad) - 4, firsts, straight)
        if made is None:
            k += 1
            continue
        out, k = made
    return out


def _before(unit, target, firsts, straight):
    """Is unit's code that of straight instructions before target?"""
    return unit is not None and firsts[unit] < target and all(straight[firsts[unit]:target])


def _join(lines, k, target, indent, firsts, straight):
    """(lines rewritten, where to look on) for the jump at line k, or None."""
    if k + 2 < len(lines) and indent_of(lines[k + 2][0]) > indent and lines[k + 2][0].strip():
        return None                     # (not the end of its block)
    head = k - 1
    while head >= 0 and (not lines[head][0].strip() or indent_of(lines[head][0]) > indent):
        head -= 1
    if head < 0 or indent_of(lines[head][0]) != indent:
        return None
    word = lines[head][0].strip()
    if not (word.startswith('if ') and word.endswith(':')) or not _before(
            lines[head][1], target, firsts, straight):
        return None
    # (no loop around it: there `continue` is the loop's, and falling out of its body goes round)
    level, j = indent, head
    while level > 8 and j > 0:          # (none can be a loop's at 8 or less: the tree's own)
        j -= 1
        text = lines[j][0]
        if text.strip() and indent_of(text) < level:
            level = indent_of(text)
            if level > 8 and text.strip().startswith(('for ', 'while ')):
                return None
    pad = ' ' * indent
    j = k + 2
    other = []                          # (the `if`'s own else block)
    if j < len(lines) and lines[j][0] == pad + 'else:':
        j += 1
        while j < len(lines) and (not lines[j][0].strip() or indent_of(lines[j][0]) > indent):
            other.append(lines[j])
            j += 1
    start = j
    if j < len(lines) and lines[j][0].startswith(pad + 'elif '):
        return None                     # (its chain goes on)
    while j < len(lines):
        text, unit = lines[j]
        if text.strip():
            n = indent_of(text)
            if n == indent and unit is not None and firsts[unit] == target and (
                    lines[j - 1][1] != unit):
                break
            if n < indent or not _before(unit, target, firsts, straight):
                return None
        j += 1
    else:
        return None
    unit = lines[head][1]               # (the lines made here are the `if`'s)
    block = lines[head + 1:k] or [(pad + '    pass', unit)]
    between = other + [('    ' + t if t.strip() else t, u) for t, u in lines[start:j]]
    if between:
        block += [(pad + 'else:', unit)] + between
    return lines[:head + 1] + block + lines[j:], head
