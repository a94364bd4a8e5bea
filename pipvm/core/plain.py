"""Classes of named fields, made as `attrs` makes them but without it: the
classes a run of a .pipc builds (the run-time objects, the instruction
table, a program's records) must not cost attrs' import and class building
(about 30 ms of CPU at start-up, half of its budget).

    @plain.frozen                   # immutable, ==, hashable, slots
    class Instr:
        offset: int
        args: tuple = ()
        tags: list = plain.field(factory=list, eq=False, repr=False)

    @plain.define(eq=False)         # mutable, slots; eq=False: compared by identity
    class Player: ...

The fields are the class's annotations in order (a base's first); a class
attribute gives a default.  Only `__init__` is generated (from the field
names alone, like collections.namedtuple, at the GENERATED_AT-th
instance: until then one __init__ sets the fields by name); `==`,
`hash` and `repr` read the fields in order, and a method the class
defines itself is kept.
`evolve(x, **changes)` is attrs.evolve; `fields(cls)` the field names of
a plain class (() for any other).

`class Event(plain.NamedTuple)` is typing.NamedTuple's class without
importing typing (3 ms): collections.namedtuple of the annotated fields,
defaults from the class, with the class's methods and attributes.
"""
import collections
import operator

_NOTHING = object()


class FrozenInstanceError(AttributeError):
    """An assignment to a field of a frozen instance."""


class _Field:
    __slots__ = ('default', 'factory', 'eq', 'repr')

    def __init__(self, default=_NOTHING, factory=None, eq=True, repr=True):
        self.default, self.factory, self.eq, self.repr = default, factory, eq, repr


def field(*, default=_NOTHING, factory=None, eq=True, repr=True):
    """A field's default (or factory, called for each instance) and whether
    it takes part in ==/hash and repr."""
    return _Field(default, factory, eq, repr)


def Factory(factory):
    """A default made afresh for each instance by factory()."""
    return _Field(factory=factory)


def fields(cls):
    """The field names of a plain class, in order; () for any other class."""
    return cls.__dict__.get('__plain_fields__', ()) if isinstance(cls, type) else ()


def evolve(inst, **changes):
    """A copy of inst with the fields in changes replaced."""
    cls = type(inst)
    values = {name: changes.pop(name) if name in changes else getattr(inst, name)
              for name in fields(cls)}
    if changes:
        raise TypeError('%s has no field %s' % (cls.__name__, ', '.join(changes)))
    return cls(**values)


def define(cls=None, *, eq=True, repr=True, slots=True, frozen=False):
    """The class made plain (see the module); used bare or with options."""
    def make(cls):
        return _make(cls, eq, repr, frozen)
    return make if cls is None else make(cls)


def frozen(cls=None, *, eq=True, repr=True):
    """define(frozen=True): assigning a field raises FrozenInstanceError."""
    return define(cls, eq=eq, repr=repr, frozen=True)


def _make(cls, eq, repr_, frozen):
    own = cls.__dict__.get('__annotations__', {})
    specs = {}
    for base in reversed(cls.__mro__[1:]):
        specs.update(base.__dict__.get('__plain_specs__', {}))
    for name in own:
        value = cls.__dict__.get(name, _NOTHING)
        specs[name] = value if type(value) is _Field else _Field(default=value)
    names = tuple(specs)
    body = {k: v for k, v in cls.__dict__.items()
            if k not in own and k not in ('__dict__', '__weakref__')}
    inherited = any('__weakref__' in b.__dict__ or '__plain_fields__' in b.__dict__
                    for b in cls.__mro__[1:-1])
    body['__slots__'] = tuple(own) + (() if inherited else ('__weakref__',))
    body['__plain_fields__'], body['__plain_specs__'] = names, specs
    body['__match_args__'] = names
    compared = operator.attrgetter(*[n for n in names if specs[n].eq] or ['__class__'])
    if eq and '__eq__' not in body:
        body['__eq__'] = lambda self, other: (
            compared(self) == compared(other) if other.__class__ is self.__class__
            else NotImplemented)
        if frozen:
            body['__hash__'] = lambda self: hash((self.__class__.__name__, compared(self)))
        elif '__hash__' not in body:
            body['__hash__'] = None
    if repr_ and '__repr__' not in body:
        shown = [n for n in names if specs[n].repr]
        body['__repr__'] = lambda self: '%s(%s)' % (self.__class__.__name__, ', '.join(
            '%s=%r' % (n, getattr(self, n)) for n in shown))
    if frozen:
        body['__setattr__'] = body['__delattr__'] = _refuse
        body['__setstate__'] = _setstate      # (pickle and copy set the fields)
    made = type(cls)(cls.__name__, cls.__bases__, body)
    made.__qualname__ = cls.__qualname__
    made.__init__ = _first_init(made, specs, frozen)
    return made


# Instances a class makes by its fields' names, one at a time, before its
# own __init__ is generated: compiling one costs about 0.1 ms, and a class
# made a few times a run (a game's players, its ending, the suits) never
# pays for it.
GENERATED_AT = 64


def _first_init(cls, specs, frozen):
    """cls's __init__ until its GENERATED_AT-th instance, which writes the
    real one: each sets the fields by name (a run makes only some of the
    classes it defines, and most of those a few times)."""
    names = tuple(specs)
    set_field = object.__setattr__ if frozen else setattr
    made = 0

    def __init__(self, *args, **kwargs):
        nonlocal made
        made += 1
        if made >= GENERATED_AT:
            cls.__init__ = init = _init(cls.__name__, specs, frozen)
            return init(self, *args, **kwargs)
        if len(args) > len(names):
            raise TypeError('__init__() takes %d positional arguments but %d were given'
                            % (len(names) + 1, len(args) + 1))
        values = dict(zip(names, args))
        for name, value in kwargs.items():
            if name not in specs:
                raise TypeError('__init__() got an unexpected keyword argument %r' % name)
            if name in values:
                raise TypeError('__init__() got multiple values for argument %r' % name)
            values[name] = value
        for name in names:
            value = values.get(name, _NOTHING)
            if value is _NOTHING:
                spec = specs[name]
                if spec.factory is not None:
                    value = spec.factory()
                elif spec.default is not _NOTHING:
                    value = spec.default
                else:
                    raise TypeError('__init__() missing 1 required positional argument: %r'
                                    % name)
            set_field(self, name, value)
    return __init__


def _refuse(self, *args):
    raise FrozenInstanceError("can't assign to a field of a frozen %s" % type(self).__name__)


def _setstate(self, state):
    if type(state) is tuple:        # (None, the slots' values): object.__getstate__'s
        state = state[1]
    for name, value in state.items():
        object.__setattr__(self, name, value)


def _init(name, specs, frozen):
    """__init__ for these fields, generated from their names alone (the
    defaults reach it as values, never as text)."""
    params, lines, space = [], [], {'_NOTHING': _NOTHING, '_set': object.__setattr__}
    for i, (field_name, spec) in enumerate(specs.items()):
        if spec.factory is not None:
            space['_f%d' % i] = spec.factory
            params.append('%s=_NOTHING' % field_name)
            lines.append('if %s is _NOTHING: %s = _f%d()' % (field_name, field_name, i))
        elif spec.default is not _NOTHING:
            space['_d%d' % i] = spec.default
            params.append('%s=_d%d' % (field_name, i))
        else:
            params.append(field_name)
        lines.append(('_set(self, %r, %s)' if frozen else 'self.%s = %s')
                     % (field_name, field_name))
    source = 'def __init__(self, %s):\n    %s\n' % (', '.join(params),
                                                    '\n    '.join(lines or ['pass']))
    exec(compile(source, '<plain %s.__init__>' % name, 'exec'), space)
    return space['__init__']


class _NamedTupleMeta(type):
    def __new__(cls, name, bases, body):
        if body.get('__module__') == __name__ and name == 'NamedTuple':
            return super().__new__(cls, name, bases, body)        # (the base itself)
        names = tuple(body.get('__annotations__', {}))
        defaults = [body[n] for n in names if n in body]
        made = collections.namedtuple(name, names, defaults=defaults, module=body['__module__'])
        for key, value in body.items():
            if key not in names and key not in ('__module__', '__qualname__'):
                setattr(made, key, value)
        made.__qualname__ = body.get('__qualname__', name)
        return made


class NamedTuple(metaclass=_NamedTupleMeta):
    """A base for `class X(plain.NamedTuple)`: the class made is a
    collections.namedtuple (see the module)."""
