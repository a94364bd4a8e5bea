"""What holds in every game of a program while its actions run, from its
instructions alone (the verifier checks no kinds), for the compiled tier to
leave out tests that cannot fail: in the play-out functions (reads.reused,
which also takes a steady Area's or list's cards with no test of kind:
2-3% of Euchre's and Oh Hell's playout answers) and in the regions
(untested, below: loops.pip's card ranks and suits).

A steady global: set once, before any action can run, to a new Area or a
new list of the deck's cards, and never again (Euchre's and Oh Hell's
`trick` and `upcard`, Oh Hell's `stock = standard`): while an action runs
it holds that value (a fork's copy of it), never undefined, its kind known.
The first code object (which runs first and alone sets the globals up)
stores it right after NEW_AREA or LOAD_BUILTIN standard, every
instruction before that store goes on to the next (no jump, call, return
or question: the store runs, before any action), and no other instruction
of the program names it but to read it (LOAD_GLOBAL, DEFINED_GLOBAL).

A steady property: one that every object having it is made with defined
(a card's rank and suit, a hand, a stash, a score, a team's members, an
Area's cards and flags), when no STORE_PROP of the program sets it: it
stays defined (copies and trades keep it), and a list where it was one.
"""
import re

from pipvm.core import runtime
from pipvm.isa import pipc

_READS = frozenset({'LOAD_GLOBAL', 'DEFINED_GLOBAL'})
# what control may pass on the way to the store (no jump, call, question, end)
_ON = frozenset({'CONST', 'LIST_CONST', 'LOAD_GLOBAL', 'STORE_GLOBAL', 'LOAD_BUILTIN',
                 'NEW_AREA', 'BUILD_LIST', 'DEFINED_GLOBAL'})
AREA, LIST, DEFINED = ' Area', ' list', ' defined'     # (reads.py's kinds of a value)
# the properties every object that has them is made with, and their kinds
_MADE_WITH = {'rank': DEFINED, 'suit': DEFINED, 'hand': LIST, 'stash': LIST, 'score': DEFINED,
              'members': LIST, 'cards': DEFINED, 'is_facedown': DEFINED,
              'is_squaredup': DEFINED}


_OF = {}                # the program's codes -> its answer (shared: read it only)


def steady(program):
    """{'globals_[g]': AREA or LIST, '.prop': LIST or DEFINED} of program's
    steady globals and properties (above)."""
    key = tuple(code.code for code in program.codes)
    known = _OF.get(key)
    if known is None:
        if len(_OF) > 64:
            _OF.clear()
        known = _OF[key] = _steady(key)
    return known


def _steady(codes):
    try:
        codes = [pipc.decoded(code) for code in codes]
    except pipc.BadCode:
        return {}
    made, named, stored = {}, set(), set()
    init = codes[0]
    for i, ins in enumerate(init):
        if ins.op.name == 'STORE_GLOBAL' and i and ins.args[0] not in made:
            before = init[i - 1]
            if before.op.name == 'NEW_AREA':
                made[ins.args[0]] = (i, AREA)
            elif before.op.name == 'LOAD_BUILTIN' and before.args[0] == 2:
                made[ins.args[0]] = (i, LIST)
        if ins.op.name not in _ON:
            break
    for k, instrs in enumerate(codes):
        for i, ins in enumerate(instrs):
            if ins.op.name in _READS:
                continue
            for kind, arg in zip(ins.op.operands, ins.args):
                if kind == 'prop' and ins.op.name not in ('LOAD_PROP', 'DEFINED_PROP'):
                    stored.add(runtime.PROPERTY_NAMES[arg])
                elif kind == 'global' and (k, i) != (0, made.get(arg, (None,))[0]):
                    named.add(arg)
    out = {'globals_[%d]' % g: kind for g, (_, kind) in made.items() if g not in named}
    out.update(('.' + name, kind) for name, kind in _MADE_WITH.items() if name not in stored)
    return out


def key(read):
    """What a read (`globals_[g]`, `NAME.prop`) is in steady's answer."""
    _, dot, prop = read.rpartition('.')
    return '.' + prop if dot else read


# a read tested defined, its test's two lines (no `else` after them)
_CHECKED = re.compile(r"^( *)if \((\w+) := (globals_\[\d+\]|\w+\.\w+)\) is None:\n"
                      r"\1    raise Fault\('Undefined value', \d+\)$(?!\n\1(?:else|elif))", re.M)


def untested(text, known):
    """text with each test of a read that known (steady's) says is never
    undefined left out: the read alone (a region's: its code has no facts
    to carry, as reads.reused's functions do)."""
    if 'is None:' not in text:
        return text
    return _CHECKED.sub(lambda m: '%s%s = %s' % m.group(1, 2, 3) if key(m.group(3)) in known
                        else m.group(0), text)
