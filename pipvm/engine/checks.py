"""The quiet variant's checks (pipvm/engine/quiet.py): a message's operands
evaluated only for their failures, when nobody reads the output.

The operands' code is translated as a rule's is (pipvm/engine/expressions.py)
and each operand that can fail becomes a closure (pipvm/engine/pure.py's
_Builder); QUIET_MESSAGE and QUIET_LOOP run them (their bodies in
pipvm/isa/instructions.py).  A FORMAT's parts are evaluated and not
joined: joining fails only on a Number too long to show.
"""
from pipvm.core import plain

from pipvm.core import runtime
from pipvm.engine.bodies import SHOWN_BITS
from pipvm.engine.expressions import _EXPRESSION, _LOADS, Counted, _Refused, _Translator
from pipvm.engine.pure import _Builder, _is_const, _is_leaf


@plain.frozen
class Checks:
    """How to evaluate some operands only for their failures."""
    slots: tuple               # local slots that must be defined
    closures: tuple            # env -> None for the rest (env: the frame's locals, then the machine)


def operand_check(decoded, program, card_consts, nlocals, values):
    """For straight-line code that pushes the `values` operands of a message
    nobody reads: how to evaluate them only for their failures, as Checks,
    or None if the code is not plain expression code.  A FORMAT's parts are
    evaluated and not joined: joining fails only on a Number too long to show
    (docs/language.md), which each part that may be one is checked for."""
    t = _Translator(decoded, program, card_consts, nlocals)
    stack, dropped = (), ()
    try:
        for ins in decoded:
            after = t.straight(ins.op.name, ins.args, stack, dropped)
            if after is None:
                return None
            stack, dropped = after
    except _Refused:
        return None
    if len(stack) != values:
        return None
    trees, shown = [], []
    for tree in dropped + stack:
        if type(tree) is Counted and tree.op == 'format':
            trees += tree.parts
            shown += [p for p in tree.parts if not _is_leaf(p, *_CANNOT_FAIL)]
            if any(_is_const(p) and type(p.arg) is int and p.arg.bit_length() > SHOWN_BITS
                   for p in tree.parts):
                return None     # (a hand-made file's constant) the loud code fails there
        else:
            trees.append(tree)
    b = _Builder(nlocals)
    try:
        return Checks(tuple(t.arg for t in trees if _is_leaf(t, 'load_local')),
                      tuple(b.build(t) for t in trees if t not in shown
                            and not _is_leaf(t, 'load_local') and not _is_leaf(t, *_CANNOT_FAIL))
                      + ((_shows(tuple(p.arg for p in shown if _is_leaf(p, 'load_local')),
                                 tuple(b.build(p) for p in shown if not _is_leaf(p, 'load_local')),
                                 tuple(p.arg for p in shown if _is_leaf(p, 'load_global'))
                                 if all(_is_leaf(p, 'load_local', 'load_global') for p in shown)
                                 else None),)
                         if shown else ()))
    except RecursionError:
        return None


def _shows(slots, parts, globals_=None):
    """The check of a FORMAT's parts that may be Numbers too long to show:
    the locals' values, then the other parts', each shown if it may be one.
    globals_: the global slots the other parts read, when each is a global
    (it fails only where one is undefined or a Number too long: actions.py
    tests that first), else None."""
    def shows(env):
        for slot in slots:
            v = env[slot]
            if type(v) is int and v.bit_length() > SHOWN_BITS:
                runtime.to_str(v)
        for part in parts:
            v = part(env)
            if type(v) is int and v.bit_length() > SHOWN_BITS:
                runtime.to_str(v)
    shows.locals_only, shows.slots = not parts, slots   # (bodies.quiet_rounds, actions.py)
    shows.globals = globals_
    return shows


# The trees that cannot fail: loads the table says cannot, and the
# constants' own trees (Translator.load).
_CANNOT_FAIL = ({op.name.lower() for op in _EXPRESSION if op.name in _LOADS and not op.fails}
                | {'card_const', 'list'})
