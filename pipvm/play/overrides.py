"""`--set NAME=VALUE`: play a variant of a game without editing its file.

NAME is a global `Number`, `Boolean`, `String`, `Rank` or `Suit` the program
declares.  Its declaration's initial value is replaced by VALUE, as if the
file read `Number NAME = VALUE.`: the original initialiser is not evaluated,
and every later use of NAME, including the initialisers of globals declared
after it, sees VALUE.  Actions may still change it as the game goes on.

The value is checked against the declared type (from the checked program, or
the global types a version-2 .pipc holds), and every problem is one `Error:`
line naming the setting, before anything runs.  The variant is made once,
before anything is compiled or decoded twice: a source's checked program gets
the values as literals before code generation (its language's with_values),
and a .pipc's initialiser code gets them as constants while pipc.load
validates it (pipc.with_initial, through Initial).  So the VM, the reference
engine, the cluster workers (which receive the variant's .pipc bytes) and the
record's fingerprint all see the variant and nothing else.
"""
from pipvm.core import plain
from pipvm.core.errors import PipError
from pipvm.core.language import Declarations
from pipvm.core.runtime import RANK_NAMES, RANKS, SUITS

SETTABLE = ('Number', 'Boolean', 'String', 'Rank', 'Suit')


@plain.frozen
class Setting:
    name: str
    slot: int
    type: str
    value: object              # int, bool, str, Rank or Suit

    @property
    def text(self):
        """The value as --set takes it back, and as Pip shows it."""
        return self.value if type(self.value) is str else repr(self.value)

    def option(self):
        return '%s=%s' % (self.name, self.text)


def split(text):
    """'NAME=VALUE' as (NAME, VALUE); the argparse type of --set."""
    name, eq, value = text.partition('=')
    if not eq or not name.strip():
        import argparse
        raise argparse.ArgumentTypeError('expected NAME=VALUE, not %r' % text)
    return name.strip(), value


def _parse(type_, text):
    """The value text means for a declared type, or None."""
    t = text.strip()
    if type_ == 'String':
        try:
            text.encode('latin-1')
        except UnicodeEncodeError:
            return None
        return text
    if type_ == 'Boolean':
        return {'true': True, 'false': False}.get(t.lower())
    if type_ == 'Suit':
        return next((s for s in SUITS if t.lower() in (s.letter.lower(), s.name.lower())), None)
    if type_ == 'Rank':        # as in Pip: Q is a Rank, 7 a Number used as one
        if t in [str(n) for n in range(1, 14)]:
            return int(t)
        n = _RANK_LETTERS.get(t.upper()) or next(
            (n for n in range(1, 14) if t.lower() == RANK_NAMES[n].lower()), None)
        return None if n is None else RANKS[n]
    sign = t[:1] in '+-' and t[:1]
    digits = t[1:] if sign else t
    if digits.isascii() and digits.isdigit() and len(digits) <= _MAX_DIGITS:
        return -int(digits) if sign == '-' else int(digits)
    return None


_MAX_DIGITS = 4300             # Python's limit on converting text to an int
_RANK_LETTERS = {'A': 1, 'J': 11, 'Q': 12, 'K': 13}      # as in a card, Q~S
_EXPECTED = {'Number': 'a whole number', 'Boolean': 'True or False',
             'String': 'Latin-1 text', 'Rank': 'A, 2 to 10, J, Q, K or a rank name',
             'Suit': 'C, H, S, D or a suit name'}


def resolve(declared, sets, path):
    """The Settings of [(name, value text)] for a program's Declarations."""
    out, seen = [], set()
    names = [name for name, _ in declared.globals]
    for name, text in sets:
        where = '--set %s=%s' % (name, text)
        if name in seen:
            raise PipError(None, '%s: %s is set twice' % (where, name))
        seen.add(name)
        kind = next((k for n, k in declared.codes if n == name), None)
        if name not in names and kind is None:
            raise PipError(None, "%s: %s declares no global '%s'" % (where, path, name))
        slot = names.index(name) if kind is None else None
        type_ = kind or declared.globals[slot][1]
        if type_ not in SETTABLE:
            raise PipError(None, "%s: '%s' is a%s %s; only a %s can be set" % (
                where, name, 'n' if type_[0] in 'AEIOUaeiou' else '', type_,
                ', '.join(SETTABLE[:-1]) + ' or ' + SETTABLE[-1]))
        value = _parse(type_, text)
        if value is None:
            raise PipError(None, "%s: '%s' is a %s, so the value must be %s" % (
                where, name, type_, _EXPECTED[type_]))
        out.append(Setting(name, slot, type_, value))
    return out


def values(settings):
    """{global slot: value} of the settings, in their order."""
    return {s.slot: s.value for s in settings}


@plain.define
class Initial:
    """pipc.load's `initial` for a .pipc: the settings of sets, resolved
    against the program's declarations once it is validated (kept in
    .settings)."""
    sets: list
    path: str
    settings: list = plain.Factory(list)

    def __call__(self, program):
        if program.global_types is None:
            raise PipError(None, '--set: %s has no global types (compiled by an older pipvm); '
                                 'compile it again' % self.path)
        declared = Declarations(list(zip(program.global_names, program.global_types)),
                                [(c.name, c.kind) for c in program.codes[1:]])
        self.settings = resolve(declared, self.sets, self.path)
        return values(self.settings)


def describe(settings):
    """The settings as plain data, for reports and records: {name: value text}."""
    return {s.name: s.text for s in settings}


def options(settings):
    """The --set options that make this variant again."""
    return [a for s in settings for a in ('--set', s.option())]
