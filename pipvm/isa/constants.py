"""The values a .pipc constant pool holds beyond the run-time ones (cards,
as CardRef), and how `pipvm dis` shows a constant.  Both the opcode table
(a `const` operand's text) and the file format (pipc.py) use them."""
from pipvm.core import plain
from pipvm.core import runtime


@plain.frozen
class CardRef:
    """A card constant: the card created at this place in deck order."""
    index: int


def show_const(value):
    """A constant as `pipvm dis` shows it."""
    kind = type(value)
    if kind is tuple:
        return '[%s]' % '; '.join(show_const(v) for v in value)
    if kind is str:
        return '"%s"' % value
    if kind is runtime.Rank:
        return runtime.RANK_NAMES[value]
    if kind is CardRef:
        return runtime.CARD_NAMES[value.index + 1]
    return runtime.to_str(value)
