"""pipvm/core/plain.py: the classes a run builds without attrs behave as
attrs made them (==, hash, repr, frozen, defaults, evolve, copies)."""
import copy
import pickle

import pytest

from pipvm.core import plain


@plain.frozen
class Point:
    x: int
    y: int = 0
    tags: list = plain.field(factory=list, eq=False, repr=False)


@plain.define(eq=False)
class Box:
    name: str
    cards: list = plain.Factory(list)


@plain.define
class Pair:
    a: object
    b: object = None


def test_frozen_compares_hashes_and_shows_its_fields():
    p = Point(1, 2, ['t'])
    assert p == Point(1, 2) and p != Point(1, 3) and p != (1, 2)
    assert hash(p) == hash(Point(1, 2)) and len({p, Point(1, 2), Point(2, 1)}) == 2
    assert repr(p) == 'Point(x=1, y=2)'
    with pytest.raises(AttributeError):
        p.x = 5
    with pytest.raises(AttributeError):
        p.other = 1                     # slots: no field but its own
    assert Point.__match_args__ == ('x', 'y', 'tags')


def test_factories_make_a_fresh_default_for_each_instance():
    a, b = Box('a'), Box('a')
    assert a.cards == [] and a.cards is not b.cards
    assert Point(0).tags is not Point(0).tags
    assert a != b and a == a and hash(a) != hash(b)      # eq=False: by identity
    a.name = 'c'
    assert repr(a) == "Box(name='c', cards=[])"


def test_a_mutable_class_with_eq_is_unhashable():
    assert Pair(1) == Pair(1, None) and Pair(1) != Pair(1, 2)
    with pytest.raises(TypeError):
        hash(Pair(1))


def test_evolve_and_fields():
    p = Point(1, 2)
    assert plain.evolve(p, y=7) == Point(1, 7) and p.y == 2
    assert plain.fields(Point) == ('x', 'y', 'tags') and plain.fields(int) == ()
    with pytest.raises(TypeError, match='no field z'):
        plain.evolve(p, z=1)


def test_copies_and_pickles_of_frozen_and_mutable_instances():
    p = Point(1, 2, ['t'])
    for q in (copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert q == p and q.tags == ['t']
    b = Box('b', [1])
    b2 = pickle.loads(pickle.dumps(b))
    assert (b2.name, b2.cards) == ('b', [1])


def _late(decorate):
    @decorate
    class Late:
        a: int
        b: list = plain.Factory(list)
        c: str = 'c'
    return Late


def _made_and_refused(Late, n):
    """Three instances, and the four calls __init__ refuses (each a call)."""
    made = (Late(n), Late(n, [n], c='x'), Late(b=[1], a=n))
    for args, kwargs in (((), {}), ((1, [], 'c', 4), {}), ((1,), {'d': 2}), ((1,), {'a': 2})):
        with pytest.raises(TypeError):
            Late(*args, **kwargs)           # missing, one too many, no such field, twice
    return made


def test_init_is_written_at_the_generated_at_th_call_and_does_the_same_before():
    for decorate in (plain.define, plain.frozen):
        Late = _late(decorate)
        first = Late.__init__
        before = _made_and_refused(Late, 0)
        while Late.__init__ is first:
            Late(5)
        after = _made_and_refused(Late, 0)
        assert before == after == (Late(0, [], 'c'), Late(0, [0], 'x'), Late(0, [1], 'c'))
        # a factory's value is made afresh for each instance, both ways
        assert before[0].b is not Late(0).b and after[0].b is not Late(0).b
        # written at the GENERATED_AT-th call, not before
        Late = _late(decorate)
        first = Late.__init__
        for _ in range(plain.GENERATED_AT - 1):
            Late(1)
        assert Late.__init__ is first
        Late(1)
        assert Late.__init__ is not first
