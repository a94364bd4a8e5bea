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


def test_init_is_written_at_the_first_instance():
    @plain.define
    class Late:
        a: int
        b: list = plain.Factory(list)

    first = Late.__init__
    with pytest.raises(TypeError):
        Late()                          # (a missing field: the written __init__ says so)
    assert Late.__init__ is not first
    assert Late(1) == Late(1, []) and Late(a=2).b == []
