"""The edits of pipvm/engine/inline.py that its playouts let live
(tools/mutation-results/inline.tsv), each caught here by a direct test."""

from pipvm.engine import inline
from pipvm.engine.compiled import SMALL


def test_entered_pushes_the_record_right_above_the_function_s_own():
    # (an odd number of records above rec: a walk down by two steps over it)
    rec, above, record = ['rec'], ['callee'], ['record']
    frames = [rec, above]
    assert inline.entered(frames, rec, record) is record
    assert frames == [rec, record, above]
    frames = [['main'], ['caller'], rec, above, ['inner'], ['innermost']]
    inline.entered(frames, rec, record)
    assert frames.index(record) == 3


def _fn(body, head='', tail=''):
    """A stand-in for an action's function (what leaf reads of it): its
    source, the body's lines given, its line-to-unit map, operands and units."""
    source = '\n'.join(['def action(self, rec, pc=0, A=None, P=None):', '    frames = self.frames',
                        '    stack, frame = rec[2], rec[3]' + head, '    try:', '        while True:']
                       + ['            ' + x for x in body]
                       + ['    except Fault as f:', '        raise positioned(f, P, AT) from None' + tail])

    class Fn:
        plain = (source, {6: 0})
        __defaults__ = (0, ('operand',), ('unit',), None)
    return Fn


_BODY = ['frame[0] = A[0]', 'frames.pop()', 'return']


def test_a_leaf_s_frame_must_be_a_small_int():
    assert inline.leaf(_fn(_BODY), 0).size == 0
    assert inline.leaf(_fn(_BODY), SMALL - 1).size == SMALL - 1
    for size in (SMALL, -1, True, 2.0):
        assert inline.leaf(_fn(_BODY), size) is None, size


def test_a_leaf_s_body_is_at_most_max_lines():
    def body(n):
        return ['frame[0] = A[0]'] * (n - 1) + ['frames.pop()', 'return']
    leaf = inline.leaf(_fn(body(inline.MAX_LINES)), 1)
    assert len(leaf.lines) == inline.MAX_LINES
    assert inline.leaf(_fn(body(inline.MAX_LINES + 1)), 1) is None


def test_what_rules_a_leaf_out_counts_outside_its_body_too():
    assert inline.leaf(_fn(_BODY), 1) is not None
    assert inline.leaf(_fn(_BODY, head='  # LOUD_RUN'), 1) is None
    assert inline.leaf(_fn(_BODY, tail='  # H12(self)'), 1) is None
