"""reads.reread's shortcut (pipvm/engine/reads.py): a run where no read
can be a copy is left as it is without reused's pass over it, and one with
a quiet test of a local goes through that pass
(tools/mutation-results/reads.tsv: the mutants these kill)."""
from pipvm.engine import reads


def _checked(name, expr, part):
    return ['if (%s := %s) is None:' % (name, expr),
            "    raise Fault('Undefined value', %d)" % part]


def test_a_run_of_no_read_again_is_left_without_reused(monkeypatch):
    called = []
    reused = reads.reused
    monkeypatch.setattr(reads, 'reused', lambda lines: (called.append(1), reused(lines))[1])
    text = '\n'.join(_checked('value0', 'frame[1]', 0) + _checked('value1', 'globals_[2]', 1)
                     + _checked('value2', 'value0.rank', 2) + ['frame[3] = value2'])
    assert reads.reread(text) == text and not called
    # (a slot read again: through reused)
    again = text + '\n' + '\n'.join(_checked('value4', 'frame[1]', 4))
    assert reads.reread(again).split('\n')[-1] == 'value4 = value0' and called


def test_a_run_with_a_quiet_test_of_a_local_goes_through_reused():
    # (DEFINED_LOCAL's body twice for one slot: the second is left out)
    defined = ['defined = frame[2] is not None', 'if not defined:',
               '    return LOUD_RUN(self, rec, %d)']
    text = [defined[0], defined[1], defined[2] % 5, defined[0], defined[1], defined[2] % 7,
            'x = 1']
    assert reads.reread('\n'.join(text)) == '\n'.join(text[:3] + text[-1:])
