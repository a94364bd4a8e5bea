"""Whether no list a program can make holds a value a message cannot show
(undefined, or a Number: one may be too long to show), so that the
compiled tier's quiet loops need not test their items for one
(actions._Writer.quiet's QUIET_FOR: the test is a pass over the list at
each round of a loop whose messages are dropped; Crazy Eights' look at the
hand, `for c in p->hand { message "  {c}". }`, a tenth of a game's CPU;
Euchre's and Oh Hell's, 3-5% of a playout answer's).

The verifier checks no kinds: a hand-made program may deal from a list of
Numbers.  So the answer is yes only for a program made of the instructions
below, which make lists of Cards, Players and Teams alone (the deck, the
players, the teams, an Area's empty list, a list literal of those:
`[players]`) and only move, reorder or read the items of lists (a deal, a
play, a card moved only from a list that holds it), or make values that
are no list and put none in one (Numbers, Booleans, Strings, a property's
value); whose list constants hold no Number (`[1; 2; 3]`: or only a
`for` iterates it, whose items go to a local, never into a list) and no
list; and whose other constants hold no list (a CONST of one could be
iterated).  Every list such a program's games hold is then one of those or
made of their items; a Text iterated gives Texts.
"""
from pipvm.isa import pipc
from pipvm.isa.operands import OPERANDS

_KEEP = frozenset({
    'CONST', 'LOAD_GLOBAL', 'STORE_GLOBAL', 'LOAD_LOCAL', 'STORE_LOCAL', 'LOAD_BUILTIN',
    'LOAD_PROP', 'LIST_PROP', 'DEFINED_GLOBAL', 'DEFINED_LOCAL', 'DEFINED_PROP', 'POP', 'DUP',
    'SWAP', 'DROP', 'EQ', 'NE', 'NOT', 'FORMAT', 'NEW_AREA', 'JUMP', 'JUMP_IF_FALSE',
    'JUMP_IF_FALSE_OR_POP', 'JUMP_IF_TRUE_OR_POP', 'FOR_ITER', 'FOR_NEXT', 'CALL', 'RETURN',
    'RETURN_VALUE', 'ASK', 'MESSAGE', 'MESSAGE_ALL', 'WINNER', 'DEAL', 'DEAL_CARD', 'PLAY',
    'CANPLAY', 'ROTATE', 'SHUFFLE',
    # a Number or a Boolean from their operands (an int and a list fail to
    # add; MUL's product of one fails its range test), the same items
    # sorted (ORDER) or a rotated copy's iteration state (FOR_ITER_FROM),
    # cards of the deck (WILD_*), a property set to a value (setattr: no
    # list's item; the value a list only if one of these made it)
    'ADD', 'SUB', 'MUL', 'DIV', 'LT', 'LE', 'GT', 'GE', 'IN', 'ORDER', 'FOR_ITER_FROM',
    'WILD_SUIT', 'WILD_RANK', 'STORE_PROP'})
_LISTS = (tuple, list)
_UNSHOWN = (type(None), int)
_SHOWN = {}             # the program's codes and constants' kinds -> the answer


def _kind(value):
    """A constant's type, with its items' for a list (what the answer reads)."""
    return (type(value), tuple(map(type, value))) if type(value) in _LISTS else type(value)


def items_shown(program):
    """Can no list of program's games hold None or a Number (see above)?"""
    key = (tuple(code.code for code in program.codes), tuple(map(_kind, program.consts)))
    shown = _SHOWN.get(key)
    if shown is None:
        try:
            shown = all(_shown(pipc.decoded(code.code), key[1]) for code in program.codes)
        except pipc.BadCode:
            shown = False
        if len(_SHOWN) > 64:
            _SHOWN.clear()
        _SHOWN[key] = shown
    return shown


def _shown(instrs, consts):
    """Does one code object (its instructions) keep every list shown?"""
    targets = {arg for ins in instrs for kind, arg in zip(ins.op.operands, ins.args)
               if OPERANDS[kind].is_target}
    for i, ins in enumerate(instrs):
        name = ins.op.name
        if name in ('CONST', 'LIST_CONST'):
            if not 0 <= ins.args[0] < len(consts):
                return False
            kind = consts[ins.args[0]]      # (_kind's: a tuple for a list)
            if type(kind) is not tuple:
                continue                    # (LIST_CONST of a Text gives Texts)
            if name == 'CONST' or any(item in _LISTS for item in kind[1]):
                return False                # (a list pushed whole, or a list's items)
            if any(item in _UNSHOWN for item in kind[1]) and (
                    i + 1 == len(instrs) or instrs[i + 1].op.name != 'FOR_ITER'):
                return False
        elif name == 'BUILD_LIST':
            # the items of the players, the teams or the deck, pushed just
            # before it by instructions that control enters only in order
            window = instrs[i - ins.args[0]:i]
            if len(window) != ins.args[0] or any(
                    w.op.name != 'LOAD_BUILTIN' for w in window) or any(
                    w.offset in targets for w in (*window[1:], ins)):
                return False
        elif name not in _KEEP:
            return False
    return True
