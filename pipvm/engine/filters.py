"""A PLAY's and a CANPLAY's filter of a hand, called directly from the
compiled tier's functions (actions.py's whole actions, regions.py's
regions): the rule's generated filter (rules.py), or for a CANPLAY whose
cards nothing reads, its any-variant.  Apart from rules.py, which
pure.py calls to write a rule's functions: this module reads pure.py's
Pure (hand_written), and so sits above both."""
import re

from pipvm.engine.pure import hand_written
from pipvm.engine.rules import decided
from pipvm.isa.opcodes import OP


def any_variant(hand):
    """hand (a rule's generated filter)'s any-variant: whether the rule
    allows any card of the hand; None if hand is not generated."""
    write = getattr(hand, 'write_any', None)
    if write is None:
        return None
    if getattr(hand, 'any', None) is None:
        hand.any = write()
    return hand.any


# PLAY's and CANPLAY's filter of a hand in a body (its rule an index the verifier checked)
_PLAYABLE = re.compile(r'^( *)(\w+) = self\.playable\((\d+), (.*)\)$', re.M)


def direct_filters(text, pures, operand, mark='', again=True):
    """text (composed bodies) with each `x = self.playable(rule, ...)` a
    call of the rule's Pure.filter (Machine.playable's fast path without
    its call: the rule's generated filter, written now, as it would be at
    its first call), playable itself where that fails (it tries the filter
    again, then runs the loop, which fails where it would) or the rule has
    no Pure; pures: the image's; operand(value): the source that reads the
    value (the generated function's operands); mark: a note after the call
    of a generated filter (which runs no loop of the VM: steps.NO_STEPS);
    again: whether the code may read a CANPLAY's cards (plays_again)."""
    def direct(m):
        rule = int(m.group(3))
        if rule >= len(pures) or pures[rule] is None:
            return m.group(0)
        pure = hand_written(pures[rule])
        call = '%s(self, %s)' % (operand(pure.filter if pure.hand is None else pure.hand),
                                 m.group(4))
        call = '%s = %s%s' % (m.group(2), _decided(pure.hand, m.group(4), False) + call,
                              '' if pure.hand is None else mark)
        return _tried(m.group(1), call, m.group(0).lstrip())
    if 'self.playable(' not in text:
        return text
    if not again:
        text = _CANPLAY.sub(lambda m: _any(m, pures, operand, mark), text)
    return _PLAYABLE.sub(direct, text)


def plays_again(instrs):
    """Does the code (its loaded instructions) hold a PLAY_AGAIN, which
    takes the cards its CANPLAY found (machine.canplay_found)?  Without one,
    a CANPLAY's cards are only tested for emptiness (PLAY_AGAIN follows its
    own CANPLAY in the same code: fusion.plays_after_canplay)."""
    return any(op == OP.PLAY_AGAIN for op, _, _ in instrs)


# CANPLAY (its body, alone or fused with its jump) in a code that reads no
# CANPLAY's cards (plays_again): only whether the rule allows a card
_CANPLAY = re.compile(r'^( *)found = self\.playable\((\d+), (.*)\)\n\1self\.canplay_found = found\n'
                      r'\1(res\w*) = bool\(found\)$', re.M)


def _any(m, pures, operand, mark):
    """CANPLAY's call of the rule's generated filter's any-variant; where that
    fails (before any card held: the filter would fail there too), the
    loop's (which fails where it happens)."""
    rule = int(m.group(2))
    if rule >= len(pures) or pures[rule] is None:
        return m.group(0)
    fn = any_variant(hand_written(pures[rule]).hand)
    if fn is None:
        return m.group(0)
    res = m.group(4)
    return _tried(m.group(1), '%s = %s%s(self, %s)%s' % (
        res, _decided(fn, m.group(3), True), operand(fn), m.group(3), mark),
        '%s = bool(self.playable(%s, %s))' % (res, m.group(2), m.group(3)))


# A filter's arguments' source: its player a name
_PLAYER = re.compile(r'(\w+), ')


def _decided(hand, arguments, any_):
    """Where hand's first test decides the whole hand (rules._decided_first),
    that test and its answer before the call (`list(p.hand) if ... else `):
    the filter's own first lines, without its call; else ''."""
    first = getattr(hand, 'decided', None)
    player = _PLAYER.match(arguments)
    if first is None or player is None:
        return ''
    reads, test, when, kind = first
    tests = ['(rg%d_ := globals_[%d]) is not None' % (g, g) for g in reads]
    tests.append(test if when else '(not %s)' % test)
    return '%s if %s else ' % (decided(kind, any_, player.group(1) + '.hand'),
                               ' and '.join(tests))


def _tried(pad, call, fallback):
    """The lines at pad of a generated filter's call, and where it fails,
    the machine's own (which fails where the loop would)."""
    return '\n'.join([pad + 'try:', pad + '    ' + call, pad + 'except Exception:',
                      pad + '    ' + fallback])
