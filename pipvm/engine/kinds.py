"""Whether no list a program can make holds a value a message cannot show
(undefined, or a Number: one may be too long to show), so that the
compiled tier's quiet loops need not test their items for one
(actions._Writer.quiet's QUIET_FOR: the test is a pass over the list at
each round of a loop whose messages are dropped; Crazy Eights' look at the
hand, `for c in p->hand { message "  {c}". }`, a tenth of a game's CPU).

The verifier checks no kinds: a hand-made program may deal from a list of
Numbers.  So the answer is yes only for a program made of the instructions
below, which make lists of Cards, Players and Teams alone (the deck, the
players, the teams, an Area's empty list) and only move, reorder or read
the items of lists (a deal, a play, a card moved only from a list that
holds it), and whose constants hold no list (a CONST of one could be
iterated).  Every list such a program's games hold is then one of those or
made of their items; a Text iterated gives Texts.
"""
from pipvm.isa import pipc

_KEEP = frozenset({
    'CONST', 'LOAD_GLOBAL', 'STORE_GLOBAL', 'LOAD_LOCAL', 'STORE_LOCAL', 'LOAD_BUILTIN',
    'LOAD_PROP', 'LIST_PROP', 'DEFINED_GLOBAL', 'DEFINED_LOCAL', 'DEFINED_PROP', 'POP', 'DUP',
    'SWAP', 'DROP', 'EQ', 'NE', 'NOT', 'FORMAT', 'NEW_AREA', 'JUMP', 'JUMP_IF_FALSE',
    'JUMP_IF_FALSE_OR_POP', 'JUMP_IF_TRUE_OR_POP', 'FOR_ITER', 'FOR_NEXT', 'CALL', 'RETURN',
    'RETURN_VALUE', 'ASK', 'MESSAGE', 'MESSAGE_ALL', 'WINNER', 'DEAL', 'DEAL_CARD', 'PLAY',
    'CANPLAY', 'ROTATE', 'SHUFFLE'})
_SHOWN = {}             # the program's codes and constants -> the answer


def items_shown(program):
    """Can no list of program's games hold None or a Number (see above)?"""
    key = (tuple(code.code for code in program.codes), tuple(map(type, program.consts)))
    shown = _SHOWN.get(key)
    if shown is None:
        try:
            ops = {i.op.name for code in program.codes for i in pipc.decode(code.code)}
        except pipc.BadCode:
            ops = {None}
        if len(_SHOWN) > 64:
            _SHOWN.clear()
        shown = _SHOWN[key] = ops <= _KEEP and tuple not in key[1] and list not in key[1]
    return shown
