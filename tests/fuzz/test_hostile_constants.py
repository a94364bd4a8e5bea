"""The compiled tier's trust model (docs/pipc.md) against hostile
constants: programs whose strings are made of quotes, triple quotes,
backslashes, newlines' escapes, `__import__(...)`, comment marks and texts
of 100 KB.  The generated source (the blocks, the regions, and the
actions run as functions in play-out mode) must hold only the instruction table's text
and integers, whatever the constants; the program must play as on the
loop, watched (every message shown) and in playouts."""
import io
import random
import tokenize

from hypothesis import strategies as st
from hypothesis import given

from compiler.pip import frontend
from pipvm.engine import actions, compiled, regions
from pipvm.engine.vm import Image
from pipvm.game.game import Game
from pipvm.isa.instructions import INSTRUCTIONS, MACROS

from . import harness
from .budget import SEED, fuzz

REPLAY = 'replay with: PIPVM_FUZZ_SEED=%d python -m pytest tests/fuzz' % SEED

# Pieces of a constant, as the source writes them (a `{` would interpolate).
PIECES = ['\\"', "'", "'''", '\\"\\"\\"', '\\\\', '\\n', "__import__('os').system('false')",
          '#', ')', 'x', ' ', '\t', 'é', 'y' * 100_000]
TEXT = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map(''.join)

PROGRAM = '''Game "g" requires 2 players.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
String s.
Rule hostile(p, c, pile) = s != "%s" or c->rank == A.
Action say {
  s = "%s".
  message "%s{s}".
  if s == "%s" { message "%s". }
}
Number n = 0.
Action weigh {
  if s == "%s" { n += 1. }
  else { s = "%s". }
}
Action turn {
  play any from players->first to table.
  if canplay hostile from players->first to table { play hostile from players->first to table. }
  weigh().
  say().
  rotate players.
}
Action main {
  s = "x".
  deal 3 from standard to players.
  for r in [1; 2; 3] { turn(). }
  for k in [1; 2] { if s != "%s" { message "%s{k}". } }
  message s.
}
'''


def _tokens(text, kind):
    return {t.string for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type == kind}


TABLE = '\n'.join([op.body for op in INSTRUCTIONS if op.body] + list(MACROS.values()))
TABLE_STRINGS = _tokens(TABLE, tokenize.STRING)


def _sources(image):
    """Every function the compiled tier made for image: its blocks, its
    regions (made now, and put in place: they run from here on), its
    actions, its rules' (and their settled forms', made so far)."""
    actions.prepare(image)
    lazy = [compiled.lazy_of(fn) for loaded in image.codes
            for op, _, fn in loaded.instrs + loaded.quiet if compiled.lazy_of(fn)]
    out = [fn.made().source for fn in lazy]
    for fn in lazy:
        regions.enter(fn.site, fn.index)
    made = {id(f): f for fn in lazy for f, _ in fn.site.made.values()}
    assert made, REPLAY
    out += [f.source for f in made.values()]
    rules = [r for fast in image.pure if fast is not None
             for r in [fast] + (list(fast.shapes.by_tests.values()) if fast.shapes else [])]
    return out + [loaded.action.source for loaded in image.codes if loaded.action is not None] \
        + [f.source for r in rules for f in (r.fn, r.hand) if hasattr(f, 'source')]


def _watched(image, seed):
    """A game answered 0 at each decision, every message shown: its events and ending."""
    g = Game(image, seed=seed, players=2, names=['a', 'b'])
    while g.decision is not None:
        g.answer(0)
    e = g.ending
    return g.events, e and (e.kind, e.winner, str(e.error)), harness.snapshot(g.machine)


def _play_out(image, seed):
    g = Game(image, seed=seed, players=2, names=['a', 'b'], quiet=True)
    rng = random.Random(seed)
    g.play_out(rng)
    e = g.ending
    return g.history, e and (e.kind, e.winner, str(e.error)), rng.getstate(), \
        harness.snapshot(g.machine)


@fuzz
@given(st.lists(TEXT, min_size=9, max_size=9), st.integers(0, 2 ** 16))
def test_hostile_constants_reach_the_compiled_tier_only_by_index(texts, seed):
    program = harness.compile_checked(frontend.check_text(PROGRAM % tuple(texts)))
    image = Image(program, compiled=True)
    _play_out(image, seed)          # (a rule's settled forms are made as it runs)
    sources = _sources(image)
    assert len(sources) >= 3, REPLAY
    assert any('def hand_' in source for source in sources), REPLAY
    # (weigh, a small callee, written where turn calls it: pipvm/engine/inline.py)
    assert any('entered(frames, rec' in source for source in sources), REPLAY
    for source in sources:
        # the table's strings only; every number an index or an opcode
        assert _tokens(source, tokenize.STRING) <= TABLE_STRINGS, REPLAY
        assert '__import__' not in source and 'y' * 50 not in source, REPLAY
        assert all(int(n) < 1000 for n in _tokens(source, tokenize.NUMBER)), REPLAY
    # watched, every message shown: as on the loop (the regions in place)
    loop = _watched(Image(program), seed)
    assert _watched(image, seed) == loop, REPLAY
    # (the constants were shown as text: the two after the rule's always are)
    assert '__import__' in repr(loop) or not any('__import__' in t for t in texts[1:3]), REPLAY
    # and in a playout, where the actions run as functions
    assert _play_out(image, seed) == _play_out(Image(program), seed), REPLAY
