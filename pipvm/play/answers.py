"""Which option an answer typed at `Your choice?` names.

The original accepts only an option's exact text, and piped or scripted
input still does, so transcripts never change.  A person at a terminal (or
`--easy-answers`) may also type the option ignoring case and surrounding
blanks, the start of exactly one option (`q` for `Queen of Diamonds`), or
its number from 1 when no option is itself a number.
"""


def match(text, options, easy):
    """The index of the option `text` names, or None when it names none or
    more than one.  An exact match always wins (the first equal option, as
    the original); the easy forms are tried only when `easy`."""
    if text in options:
        return options.index(text)
    if not easy:
        return None
    typed = text.strip().casefold()
    if not typed:
        return None
    folded = [o.strip().casefold() for o in options]
    equal = _unique(options, [i for i, o in enumerate(folded) if o == typed])
    if equal is not None or any(o == typed for o in folded):
        return equal
    if _number(typed) and by_number(options):
        n = int(typed) if len(typed) < 10 else 0     # int() refuses thousands of digits
        return n - 1 if 1 <= n <= len(options) else None
    return _unique(options, [i for i, o in enumerate(folded) if o.startswith(typed)])


def _unique(options, indices):
    """The first of indices when they all name the same text (a hand may hold
    two equal cards, and choosing either is the same answer), else None."""
    if indices and len({options[i] for i in indices}) == 1:
        return indices[0]
    return None


def by_number(options):
    """Whether options may be answered by number: none of them is itself one
    (`How many players are playing?` offers 2, 3, 4: those are answered as
    written)."""
    return not any(_number(o.strip()) for o in options)


def _number(text):
    return text.isascii() and text.isdigit()     # not '²': a digit to isdigit, not to int
