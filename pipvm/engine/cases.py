"""Writes pipvm/engine/generated_cases.py from the instruction table and
its bodies (pipvm/isa/instructions.py), as CPython's Tools/cases_generator
writes generated_cases.c.h from bytecodes.c.  Run `python -m
pipvm.engine.cases` after changing it;
tests/test_cases.py fails while the checked-in module differs.

One body is written into three contexts, each of which names the machine,
the stack, a jump and a step in its own way (CONTEXTS): a branch of the
VM's loop, a handler function, a closure over an environment list (rules,
orderings, the quiet variant's checks).  A superinstruction is its parts'
bodies in order (compose): a value one part leaves for the next is a
Python local, never pushed; a part's input the parts before did not leave
comes from the stack, peeked rather than popped when an output will take
its place.
"""
import collections
import functools
import os
import re
import sys
import textwrap

from pipvm.core import plain
from pipvm.isa.instructions import INSTRUCTIONS, MACRO_PARAMS, MACROS
from pipvm.isa.operands import DEAL_ALL, DEAL_TO_PLAYERS

OUT = os.path.join(os.path.dirname(__file__), 'generated_cases.py')
# The instructions with a body, by name (a superinstruction is its parts').
BODIES = {op.name: op for op in INSTRUCTIONS if op.body is not None}
# Their bodies when nobody reads the output, where the table gives one
# (`quiet`): the quiet variant's handlers (QUIET_HANDLERS) are written from
# these, a superinstruction's from its parts' (the others' own bodies).
QUIET_BODIES = {op.name: plain.evolve(op, body=op.quiet) for op in INSTRUCTIONS
                if op.quiet is not None}

# The order of the loop's inline branches, hottest first (each test costs
# every instruction after it: `benchmarks/engines.py --opcodes` counts
# them).  The table's `inline` flag says which; this says in what order.
HOT = ('LOAD_LOCAL', 'LOAD_GLOBAL', 'LOAD_GLOBAL_PROP', 'STORE_GLOBAL', 'STORE_LOCAL', 'CONST',
       'LOAD_LOCAL_PROP', 'FOR_NEXT', 'JUMP', 'JUMP_IF_FALSE', 'EQ_GLOBAL_JUMP_IF_FALSE',
       'QUIET_LOCALS', 'RETURN', 'LIST_PROP', 'RETURN_VALUE', 'LOAD_LOCAL_ITEM_PROP',
       'EQ_CONST_OR', 'JUMP_IF_TRUE_OR_POP', 'LOAD_PROP', 'EQ_GLOBAL', 'EQ_RETURN', 'GIVE')


class Context:
    """How one place names what a body uses."""

    def __init__(self, names, jump, loud, ret, real_stack=True, signal=None):
        self.names, self.jump, self.loud, self.ret = names, jump, loud, ret
        self.real_stack, self.signal = real_stack, signal


# The statement macros each context writes in its own way, by its template.
TEMPLATES = {'JUMP': 'jump', 'LOUD': 'loud', 'RETURN': 'ret', 'SIGNAL': 'signal'}


CONTEXTS = {
    'loop': Context({'machine': 'self', 'PUSH': 'push', 'POP': 'pop'},
                    ['pc = {0}'], ['pc -= 1', 'instrs = loaded.instrs'], ['return {0}']),
    'handler': Context({'machine': 'self', 'consts': 'self.consts', 'globals_': 'self.globals',
                        'PUSH': 'stack.append', 'POP': 'stack.pop'},
                       ['return {0}'], ['return LOUD'], None, signal=['return {0}']),
    'closure': Context({'machine': 'env[m]', 'consts': 'env[m].consts',
                        'globals_': 'env[m].globals', 'frame': 'env'},
                       None, None, ['return {0}'], real_stack=False),
}


def substitute(text, names):
    """text with each NAME token in names replaced (strings and comments untouched)."""
    lines = text.split('\n')
    hits = [t for t in _name_tokens(text) if t.string in names]
    for t in reversed(hits):
        row, col = t.start
        line = lines[row - 1]
        lines[row - 1] = line[:col] + names[t.string] + line[t.end[1]:]
    return '\n'.join(lines)


# Tokenizing is most of the time composing takes (the compiled tier composes
# at run time): each text is tokenized once, its NAME tokens found by one
# regular expression that passes over comments, strings and numbers as
# tokenize does, at a tenth of its cost (tokenize's were 5 ms of a run's
# start-up; tests/test_startup.py compares the two on every body, macro
# and generated function).
_NAME_OR_NOT = re.compile('|'.join([
    r'#[^\n]*',                                                     # a comment
    r'[rRbBuUfF]{0,2}(?:' + '|'.join([                              # a string
        r"'''(?:[^\\]|\\.)*?'''", r'"""(?:[^\\]|\\.)*?"""',
        r"'(?:[^'\\\n]|\\.)*'", r'"(?:[^"\\\n]|\\.)*"']) + ')',
    r'\d[\w.]*',                                                    # a number
    r'([^\W\d]\w*)']), re.DOTALL)                                   # a name
Name = collections.namedtuple('Name', 'string start end')   # (tokenize.TokenInfo's fields)


@functools.lru_cache(maxsize=4096)
def _name_tokens(text):
    """The NAME tokens of text, with their (row, column) start and end."""
    out = []
    for m in _NAME_OR_NOT.finditer(text):
        name = m.group(1)
        if name:
            start = m.start()
            row = text.count('\n', 0, start) + 1
            col = start - text.rfind('\n', 0, start) - 1
            out.append(Name(name, (row, col), (row, col + len(name))))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _words(text):
    return frozenset(t.string for t in _name_tokens(text))


def expand(text, ctx):
    """The statement macros in ctx's words: JUMP(x), LOUD(), RETURN(x),
    SIGNAL(x) by ctx's templates, and those the table writes out (MACROS:
    TICK(n), PAUSE(choice), CALL(code), EMIT(event))."""
    for call in _MACRO_CALLS:
        if call in text:
            break
    else:
        return text             # (most bodies: composing calls this for every part)
    out = []
    for line in text.split('\n'):
        stripped = line.strip()
        indent = line[:len(line) - len(line.lstrip())]
        macro = stripped.split('(', 1)[0]
        if stripped.endswith(')') and (macro in MACRO_PARAMS or macro in TEMPLATES):
            arg = stripped[len(macro) + 1:-1]
            if macro in MACRO_PARAMS:
                param, default = MACRO_PARAMS[macro]
                names = dict(ctx.names, **{param: arg or default})
                lines = expand(substitute(MACROS[macro], names), ctx).split('\n')
            else:
                template = getattr(ctx, TEMPLATES[macro])
                if template is None:
                    raise ValueError('%s in a context that has none' % macro)
                lines = [t.format(arg) for t in template]
            out += [indent + x for x in lines]
        else:
            out.append(line)
    return '\n'.join(out)


_MACRO_CALLS = tuple('%s(' % m for m in list(MACRO_PARAMS) + list(TEMPLATES))


def compose(op, ctx, operand_exprs, inputs=None, own_parts=False, leaving=('JUMP',),
            quiet=False, first_part=0, forwarded=True):
    """The statements that run instruction op (its parts in turn) in ctx,
    its operands given as expressions (quiet: from the parts' bodies when
    nobody reads the output, QUIET_BODIES, where they have one).  In a closure, `inputs` are the
    names holding the values it takes (deepest first); it returns the last
    output.  own_parts: a part after the first that can fail gives a
    Fault raised without a part its own (the compiled tier's blocks).
    leaving: the words of a body that may leave the run (what the parts
    before left goes on the stack first).  first_part: the number of its
    first part (a compiled region numbers the parts of all its runs).
    forwarded: with forward's rewriting (a region, composed while a game
    runs, leaves it out: CPython runs the two forms alike)."""
    parts = op.parts or (op,)
    # (a part not in the table is its own body: deal_body's DEAL, a block's)
    bodies = [(quiet and QUIET_BODIES.get(p.name)) or BODIES.get(p.name, p) for p in parts]
    if getattr(op, 'deals_all', None) is not None:      # (its DEAL's count there or not)
        bodies[-1] = deal_body(DEAL_ALL if op.deals_all else 0, False)
    lines = []
    pending = []                # values left for the next part: [name, peek id or None]
    # peek id -> 'pop' when made; 'top' once flush or _keeps gives its slot to a later output
    peeks = {}
    taken = list(inputs or ())
    ops = iter(operand_exprs)

    def emit(text, names):
        lines.append(expand(substitute(with_bodies(text, ctx), dict(ctx.names, **names)), ctx))

    def flush(keep=0):
        """Push the values left for the next part but the top `keep`."""
        for name, peek in pending[:len(pending) - keep]:
            if peek is not None:
                peeks[peek] = 'top'
                lines.append('stack[-1] = %s' % name)
            else:
                lines.append('%s(%s)' % (ctx.names['PUSH'], name))
        del pending[:len(pending) - keep]

    for index, body in enumerate(bodies):
        last = index == len(bodies) - 1
        part = first_part + index
        names = {'PART': str(part)}
        if ctx.real_stack and pending and _words(body.body) & set(leaving):
            # it may leave: what the parts before left under its inputs goes first
            flush(0 if body.counted or body.stack else min(len(body.inputs), len(pending)))
        for operand in body.names:
            names[operand] = next(ops)
        if body.stack or body.counted:
            if not ctx.real_stack and body.stack:
                raise ValueError('%s uses the stack: no closure' % body.name)
            flush()
        if body.counted and not body.stack:
            if ctx.real_stack:
                n = names[body.counted]
                lines.append('values = stack[-%s:]' % n)
                lines.append('del stack[-%s:]' % n)
            else:
                lines.append('values = [f(env) for f in %s]' % taken.pop())
        # the inputs, from the top: left by the parts before, else the stack
        real, inherit = [], None
        fixed = () if body.counted or body.stack else body.inputs     # (a stack body's: its own)
        text = body.body
        if body.name == 'FOR_ITER' and pending and index and bodies[index - 1].name in _FRESH:
            text = _UNCOPIED       # (its list is the new one the part before made)
        if body.keeps:
            text = _keeps(text, body.inputs[0], pending, peeks, ctx)
            if not pending:             # its input is on the stack: it stays there
                lines.append('%s = stack[-1]' % body.inputs[0])
                fixed = ()
        if not last:                    # outputs left for the next part: names of their own
            names.update((o, '%s%d' % (o, index)) for o in body.outputs if o not in body.inputs)
        renamed = []        # (input, the name it comes in), assigned at once
        for name in reversed(fixed):
            if pending:
                src, peek = pending.pop()
                if peek is not None:
                    inherit = peek
                if src != name:
                    if src not in _words(body.body):    # no clash: use it by its name
                        names[name] = src
                    else:
                        renamed.append((name, src))
            else:
                real.append(name)
        if renamed:     # (`b, a = a, b` after a SWAP: `b = a` then `a = b` gave both the old a)
            lines.append('%s = %s' % tuple(', '.join(x) for x in zip(*renamed)))
        if real and inherit is not None:
            inherit = None      # (its slot stays 'pop': it goes before the stack is read)
        if ctx.real_stack:
            for k, name in enumerate(real):
                if k == len(real) - 1 and body.outputs and inherit is None:
                    inherit = len(peeks)
                    peeks[inherit] = 'pop'
                    lines.append('%s = @PEEK%d@' % (name, inherit))
                else:
                    lines.append('%s = %s()' % (name, ctx.names['POP']))
        else:
            for name in reversed(real):
                lines.append('%s = %s(env)' % (name, taken.pop(0)))
        if text != 'pass':
            emit(text, names)
            if (own_parts and part and 'PART' not in _words(body.body)
                    and _may_fault(lines[-1])):
                # a Fault raised without its part (runtime.divide's, ...) is this part's
                # (a body naming PART gives its own; one that calls nothing, its
                # macros written out, raises none: a conditional jump's test; a
                # context's @SIGNAL@ marker may call)
                lines[-1] = 'try:\n%s\nexcept Fault as e:\n    e.part = e.part or %d\n    raise' % (
                    _indent(lines[-1], 4), part)
        outs = [] if body.stack else [names.get(o, o) for o in body.outputs]
        for k, name in enumerate(outs):
            pending.append([name, inherit if k == 0 else None])
    if ctx.real_stack:
        flush()
    elif pending:
        lines.append('return %s' % pending[-1][0])
    text = '\n'.join(lines)
    for peek, how in peeks.items():
        text = text.replace('@PEEK%d@' % peek, 'stack[-1]' if how == 'top'
                            else '%s()' % ctx.names['POP'])
    return forward(text) if forwarded else text


def deal_body(mode, to_players=True):
    """DEAL's body for a mode (a block's DEAL, compiled.function, or a superinstruction's
    ending in DEAL, the table's deals_all): its operands inputs, not POP()'s
    (they pass in locals), `count is None` and (to_players) whether it goes
    to players constants of the mode (an integer the verifier checked)."""
    op = _DEAL_BODIES.get((mode, to_players))
    if op is None:
        deal, lines = BODIES['DEAL'], BODIES['DEAL'].body.split('\n')
        assert lines[:3] == ['count = None if mode & DEAL_ALL else int(POP())', 'dest = POP()',
                             'source = cards_of(POP())'] and 'POP()' not in '\n'.join(lines[3:])
        every = mode & DEAL_ALL
        body = '\n'.join(['count = None' if every else 'count = int(count)',
                          'source = cards_of(source)'] + lines[3:])
        if to_players:      # (the compiler drops the branch not taken)
            body = body.replace('mode & DEAL_TO_PLAYERS', str(mode & DEAL_TO_PLAYERS))
        body = body.replace('count is None', str(bool(every)))
        inputs = ('source', 'dest') + ((), ('count',))[not every]
        op = _DEAL_BODIES[mode, to_players] = plain.evolve(
            deal, name='DEAL %d' % mode if to_players else 'DEAL', body=body, inputs=inputs,
            pops=len(inputs), stack=False)
    return op


_DEAL_BODIES = {}       # (mode, to_players) -> deal_body (made once)
# A FOR_ITER's snapshot of its list left out where the part before made that
# list, which nothing else holds (`for s in [C; D; H; S]`: a copy a round of
# loops.pip's `for c`)
_FRESH = {'LIST_CONST'}
_UNCOPIED = BODIES['FOR_ITER'].body.replace('iter(list(lst))', 'iter(lst)')
assert _UNCOPIED != BODIES['FOR_ITER'].body


# Calls that raise no Fault: the stack's own (a KEEP() that pushes), and
# builtins no Pip value defines a hook of (ADD's `int(a)`, FOR_ITER's
# `iter(list(lst))`: a try each in loops.pip's region, compiled for nothing).
_SAFE_CALLS = re.compile(r'\b(?:push|pop|stack\.append|stack\.pop|int|iter|list|len|bool)\(')


def _may_fault(text):
    """Can text raise a Fault: does it call anything but the stack's
    methods (or stand for a context's @SIGNAL@, which may)?"""
    return '(' in _SAFE_CALLS.sub('', text) or '@' in text


def forward(text):
    """text with each local that is assigned a value without side effects
    and used once, in the next statement of the same block, replaced by
    that value (what the hand writes: `push(consts[arg])`, not `value =
    consts[arg]` then `push(value)`)."""
    lines = text.split('\n')
    # the names' counts in the whole text (one pass: the compiled tier
    # composes while a game runs), kept as lines change (a block's text
    # counted anew at each candidate made composing quadratic)
    total = _names(text)
    i = 0
    while i < len(lines) - 1:
        line = lines[i]
        name, eq, expr = line.strip().partition(' = ')
        if not (eq and name.isidentifier() and total[name] == 2):
            i += 1              # (the cheap tests first: most lines are no candidate)
            continue
        j = i + 1
        while j < len(lines) - 1 and lines[j].strip().startswith('#'):
            j += 1                      # (past a `# body:` block's comments)
        after = lines[j]
        indent = len(line) - len(line.lstrip())
        if (len(after) - len(after.lstrip()) == indent and _line_names(after)[name] == 1
                and not _side_effects(expr, after)):
            col = next(t.start[1] for t in _name_tokens(after) if t.string == name)
            whole = after.strip() in ('%s' % name,) or _bare(after, col, len(name))
            value = expr if whole or _atom(expr) else '(%s)' % expr
            lines[j] = after[:col] + value + after[col + len(name):]
            total.subtract(_line_names(line))
            total.subtract(_line_names(after))
            total.update(_line_names(lines[j]))
            del lines[i]
            continue
        i += 1
    return '\n'.join(lines)


def _names(text):
    """The NAME tokens of text, counted (findall: no positions to make)."""
    total = collections.Counter(_NAME_OR_NOT.findall(text))
    del total['']                       # (the comments, strings and numbers)
    return total


@functools.lru_cache(maxsize=8192)
def _line_names(line):
    return _names(line)


def _count(text, name):
    return sum(_line_names(line)[name] for line in text.split('\n'))


def _side_effects(expr, after):
    """Could moving expr into the statement after change what either reads?
    A pop can move into a statement that does not touch the stack; a call
    that changes the game cannot move."""
    if any(w in expr for w in ('next(', 'playable(', '.emit(')):
        return True
    stacky = ('stack', 'pop', 'push', 'POP', 'PUSH')
    return 'pop(' in expr.lower() and any(_count(after, w) for w in stacky)


def _atom(expr):
    """Can expr stand anywhere without parentheses (a name, call, subscript)?"""
    depth = 0
    for ch in expr:
        depth += ch in '([{'
        depth -= ch in ')]}'
        if depth == 0 and ch == ' ':
            return False
    return True


def _bare(line, col, n):
    """Does the name at col stand alone: all of an assignment's right side,
    a call's only argument, or an `if`'s condition?"""
    before, rest = line[:col].rstrip(), line[col + n:].strip()
    return ((before.endswith(' =') and rest == '')
            or (before.endswith('(') and rest == ')')
            or (before.strip() in ('if', 'return') and rest in (':', '')))


def _keeps(text, name, pending, peeks, ctx):
    """A `keeps` body's KEEP() and DROP(), for where its input is: on the
    stack (nothing to keep, pop to drop), in the stack slot of a value a
    part before peeked (write it there to keep, pop to drop), or only in a
    local (push to keep, nothing to drop)."""
    if not pending:
        keep, drop = 'pass', '%s()' % ctx.names['POP']
    elif pending[-1][1] is not None:
        peeks[pending[-1][1]] = 'top'
        src = pending[-1][0]
        keep, drop = 'stack[-1] = %s' % src, '%s()' % ctx.names['POP']
        pending[-1][1] = None           # (this part takes it)
    else:
        keep, drop = '%s(%s)' % (ctx.names['PUSH'], pending[-1][0]), 'pass'
    out = []
    for line in text.split('\n'):
        word = line.strip()
        if word in ('KEEP()', 'DROP()'):
            line = line[:len(line) - len(line.lstrip())] + (keep if word == 'KEEP()' else drop)
            if word == 'KEEP()' and keep == 'pass':
                continue                # (a JUMP follows it)
        out.append(line)
    return '\n'.join(out)


def operand_exprs(op, arg='arg'):
    """The operand as the VM gives it: one value, or a tuple of them (a
    load-time instruction's are the VM's own: its body names them)."""
    n = sum(len(p.names) for p in op.parts) if op.parts else len(op.names)
    return [arg] if n == 1 else ['%s[%d]' % (arg, i) for i in range(n)]


# The words of a body a compiled block cannot hold (it pauses, calls, runs
# the loud code, hands back or returns: the loop's own business).
BLOCK_SIGNALS = frozenset({'PAUSE', 'CALL', 'LOUD', 'SIGNAL', 'RETURN'})


def derived(op):
    """Does the instruction run from bodies (all its parts have one)?"""
    return all(p.name in BODIES for p in (op.parts or (op,)))


def loop_only(op):
    return any(BODIES[p.name].loop_only for p in (op.parts or (op,)))


def has_quiet(op):
    """Does the instruction (a part of it) run otherwise when nobody reads the output?"""
    return any(p.name in QUIET_BODIES for p in (op.parts or (op,)))


def _indent(text, n):
    return textwrap.indent(text, ' ' * n)


HEADER = '''"""GENERATED by pipvm/engine/cases.py from the instruction table,
pipvm/isa/instructions.py: do not edit (`python -m pipvm.engine.cases`).

The handlers, tick and the closure factories of pure.py, each operation's
body as the table writes it once (the loop's inline branches are in vm.py)."""
from pipvm.core import runtime
from pipvm.core.dialogue import PASS, Event, set_label
from pipvm.core.endings import bring_back, finish, take_out
from pipvm.core.errors import Fault, GameOver, StepLimit
from pipvm.core.runtime import Area, as_rank, cards_of, items, joined, list_prop, shown, to_str
from pipvm.engine.bodies import (CALLED, END, LOUD, PAUSE, SHOWN_BITS, addressees,  # noqa: F401
                                 build_list, card_of, contains, deal, deal_each, fault,
                                 make_cards, move, questions_enabled, quiet_rounds, wild_rank,
                                 wild_suit)
from pipvm.engine.choices import SetChoice, action_choice, card_choice
from pipvm.isa.opcodes import (AGG_MAX, AREA_FACEDOWN, AREA_SQUAREDUP, DEAL_ALL,
                               DEAL_TO_PLAYERS, PLAY_PASS)
'''

# The loop's inline branches stand in vm.py's Machine._run between these
# lines (as Argument Clinic's output stands in CPython's C files), so that
# the loop is read where it runs; this rewrites what is between them.
BEGIN = '# --- generated by pipvm/engine/cases.py from the bodies: do not edit ---'
END = '# --- end of generated code ---'
VM = os.path.join(os.path.dirname(__file__), 'vm.py')


def inline_cases(indent):
    """The loop's branches for the inline instructions, hottest first."""
    by_name = {op.name: op for op in INSTRUCTIONS}
    inline = [op.name for op in INSTRUCTIONS if op.inline]
    assert sorted(inline) == sorted(HOT), 'cases.HOT must order exactly the inline instructions'
    out = []
    for name in HOT:
        op = by_name[name]
        if not derived(op):
            raise ValueError('inline %s has no body' % name)
        out.append(' ' * indent + 'elif op == %d:    # %s\n' % (op.code, name))
        out.append(_indent(compose(op, CONTEXTS['loop'], operand_exprs(op)), indent + 4) + '\n')
    return ''.join(out)


def with_loop(vm_text):
    """vm.py's text with the loop's generated branches made anew."""
    start = vm_text.index(BEGIN)
    line_start = vm_text.rindex('\n', 0, start) + 1
    indent = start - line_start
    end = vm_text.index(END, start)
    end_line = vm_text.rindex('\n', 0, end) + 1
    return vm_text[:start + len(BEGIN)] + '\n' + inline_cases(indent) + vm_text[end_line:]


def generate():
    """The text of generated_cases.py."""
    by_name = {op.name: op for op in INSTRUCTIONS}
    out = [HEADER]
    # tick: a step counted against --max-steps
    out.append('\n\ndef tick(self, n=1):\n    """Count n steps; StepLimit past the limit."""\n')
    out.append(_indent(expand('TICK(n)', CONTEXTS['handler']), 4) + '\n')
    # the handlers
    handlers = []
    for op in INSTRUCTIONS:
        if op.inline or not derived(op) or loop_only(op):
            continue
        handlers.append(op)
        out.append('\n\ndef op_%s(self, stack, frame, arg):    # %d\n' % (op.name, op.code))
        # (a superinstruction's last DEAL's Fault is its part's: its position)
        out.append(_indent(_short_handler(op) or compose(
            op, CONTEXTS['handler'], operand_exprs(op),
            own_parts=op.deals_all is not None), 4) + '\n')
    out.append('\n\nHANDLERS = {\n')
    out += ['    %d: op_%s,\n' % (op.code, op.name) for op in handlers]
    out.append('}\n')
    # the inline instructions a compiled block may begin with, as handlers:
    # a cold block runs its first instruction by its handler (compiled._Lazy;
    # composing and compiling one at run time cost some 0.2 ms an opcode)
    firsts = [op for op in INSTRUCTIONS if op.inline and derived(op) and not loop_only(op)
              and not any(_words(BODIES[p.name].body) & BLOCK_SIGNALS for p in (op.parts or (op,)))]
    for op in firsts:
        out.append('\n\ndef op_%s(self, stack, frame, arg):    # %d\n' % (op.name, op.code))
        out.append(_indent(compose(op, CONTEXTS['handler'], operand_exprs(op)), 4) + '\n')
    out.append('\n\nINLINE_HANDLERS = {\n')
    out += ['    %d: op_%s,\n' % (op.code, op.name) for op in firsts]
    out.append('}\n')
    # the quiet variant's handlers, where an instruction's quiet body differs
    quiet = [op for op in handlers if has_quiet(op)]
    assert not any(op.inline and has_quiet(op) for op in INSTRUCTIONS), 'a quiet body inline'
    for op in quiet:
        out.append('\n\ndef op_%s_quiet(self, stack, frame, arg):    # %d\n' % (op.name, op.code))
        out.append(_indent(compose(op, CONTEXTS['handler'], operand_exprs(op), quiet=True), 4)
                   + '\n')
    out.append('\n\nQUIET_HANDLERS = {\n')
    out += ['    %d: op_%s_quiet,\n' % (op.code, op.name) for op in quiet]
    out.append('}\n')
    # the closure factories: one per pure instruction with a body
    factories = []
    for op in INSTRUCTIONS:
        body = BODIES.get(op.name)
        if op.parts or not op.pure or body is None or body.stack or len(body.outputs) != 1:
            continue
        factories.append(op)
        out.append(_factory(op.name, op))
    # the compositions pure.py builds: a local's property, a local list's item's
    for name in ('LOAD_LOCAL_PROP', 'LOAD_LOCAL_ITEM_PROP'):
        out.append(_factory(name, by_name[name]))
        factories.append(by_name[name])
    out.append('\n\nCLOSURES = {\n')
    out += ["    '%s': closure_%s,\n" % (op.name, op.name) for op in factories]
    out.append('}\n')
    return ''.join(out)


def _factory(name, op):
    """closure_NAME(m, operands..., input closures...) -> env -> value."""
    body = BODIES[op.name] if not op.parts else None
    operands = ['o%d' % i for i in range(len(op.operands))]
    if body is not None and body.counted:
        inputs = ['fs']
    else:
        first = BODIES[(op.parts or (op,))[0].name]
        inputs = ['f%d' % i for i in range(len(first.inputs))]
    params = ', '.join(['m'] + operands + inputs)
    short = _one_expression(body, operands, inputs)
    if short is None:
        short = _checked(body, operands, inputs)
    if short is not None:
        return '\n\ndef closure_%s(%s):\n    return lambda env: %s\n' % (name, params, short)
    text = compose(op, CONTEXTS['closure'], operands, inputs)
    fn = name.lower() + '_'             # its name shows in `pipvm dis --loaded`
    return ('\n\ndef closure_%s(%s):\n    def %s(env):\n%s\n    return %s\n'
            % (name, params, fn, _indent(text, 8), fn))


# A body can also stand inside hand-written code (pure.py's shapes of
# rule, the quiet variant's checks), between the lines
#     # body: NAME word=expr ...
#     # end of body
# with its inputs, outputs and operands named by the words; this rewrites
# what is between them (Argument Clinic's way, as for the loop).
INCLUDE, INCLUDE_END = '# body: ', '# end of body'
INCLUDING = [os.path.join(os.path.dirname(__file__), name) for name in ('pure.py', 'bodies.py')]


def with_bodies(text, ctx=CONTEXTS['closure']):
    """text with each `# body:` block made anew from the body it names, in
    ctx's words (a closure's, for hand-written code)."""
    if INCLUDE not in text:
        return text             # (most bodies: composing calls this for every part)
    out, lines = [], iter(text.split('\n'))
    for line in lines:
        out.append(line)
        stripped = line.strip()
        if not stripped.startswith(INCLUDE):
            continue
        name, *words = stripped[len(INCLUDE):].split()
        names = dict(ctx.names, PART='0', **dict(w.split('=') for w in words))
        if name in MACROS:              # a statement macro (TICK n=...)
            text = MACROS[name]
        else:
            body = BODIES[name]
            assert set(body.inputs + body.outputs + body.names) <= set(names), line
            text = body.body
        indent = len(line) - len(line.lstrip())
        out.append(_indent(expand(substitute(text, names), ctx), indent))
        for rest in lines:
            if rest.strip() == INCLUDE_END:
                out.append(rest)
                break
        else:
            raise ValueError('no %r after %r' % (INCLUDE_END, line))
    return '\n'.join(out)


def _one_expression(body, operands, inputs, context='closure'):
    """A body `out = EXPR` that uses each input once, in stack order, as one
    expression in context, each input replaced by the expression in inputs
    (a closure's: f0 as f0(env)); None for other bodies."""
    if body is None or body.counted or '\n' in body.body:
        return None
    out, _, expr = body.body.partition(' = ')
    if (out,) != body.outputs or 'PART' in _words(expr):
        return None
    used = [t.string for t in _name_tokens(expr) if t.string in body.inputs]
    if used != list(body.inputs):
        return None
    call = '%s(env)' if context == 'closure' else '%s'
    names = dict(CONTEXTS[context].names, **dict(zip(body.names, operands)),
                 **{i: call % f for i, f in zip(body.inputs, inputs)})
    return substitute(expr, names)


def _checked(body, operands, inputs):
    """A body `if (out := EXPR) is None: raise Fault(...)` (a read whose
    None is an error) as one closure expression, `out if (out := EXPR) is
    not None else fault(...)`: the same test, without a function of its
    own; None for other bodies."""
    if body is None or body.counted:
        return None
    test, _, fail = body.body.partition('\n')
    out, _, expr = test[len('if ('):-len(') is None:')].partition(' := ')
    if not (test.startswith('if (') and test.endswith(') is None:') and (out,) == body.outputs
            and fail.strip().startswith('raise Fault(') and '\n' not in fail):
        return None
    read = _one_expression(plain.evolve(body, body='%s = %s' % (out, expr)), operands, inputs)
    names = dict(CONTEXTS['closure'].names, PART='0', **dict(zip(body.names, operands)))
    # (the `else` under the `(` of `    return lambda env: (`, _factory's line)
    return '(%s if (%s := %s) is not None\n%selse %s)' % (
        out, out, read, ' ' * 24, substitute('f' + fail.strip()[len('raise F'):], names))


def outputs():
    """{path: its text as the bodies make it}: generated_cases.py, vm.py
    with its loop's branches, and the files with `# body:` blocks."""
    with open(VM, encoding='utf-8') as f:
        vm_text = f.read()
    made = {OUT: generate(), VM: with_loop(vm_text)}
    for path in INCLUDING:
        with open(path, encoding='utf-8') as f:
            made[path] = with_bodies(f.read())
    return made


def _short_handler(op):
    """A one-expression body (_one_expression) as a handler: the inputs
    above the deepest popped, the result in the deepest's place."""
    body = None if op.parts else BODIES[op.name]
    ins = body.inputs if body is not None else ()
    deepest = ['stack[-1]'] if ins else []
    expr = _one_expression(body, operand_exprs(op), deepest + list(ins[1:]), 'handler')
    if expr is None:
        return None
    pops = ['%s = stack.pop()' % name for name in reversed(ins[1:])]
    return '\n'.join(pops + ['stack[-1] = %s' % expr if ins else 'stack.append(%s)' % expr])


def main(argv=None):
    for path, text in outputs().items():
        with open(path, encoding='utf-8') as f:
            if f.read() == text:
                continue
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        print('wrote', os.path.relpath(path))


if __name__ == '__main__':
    sys.exit(main())
