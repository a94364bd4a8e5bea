"""steady.steady: the globals a program sets once to a new Area or the
deck's list before any action runs, and the properties no instruction
sets; reads.reused reads them with no test that cannot fail, and takes a
steady Area's or a list's cards with no test of kind."""
import os
from types import SimpleNamespace

from compiler.pip import frontend
from pipvm.core import plain, runtime
from pipvm.engine import actions, reads, steady
from pipvm.engine.steady import AREA, DEFINED, LIST
from pipvm.engine.vm import Image
from pipvm.isa import pipc
from pipvm.isa.opcodes import BY_NAME
from pipvm.play import loader
from tests.fuzz import harness
from tests.test_compiled_playouts import ROOT, _play_outs
from tests.test_reused_reads import READ, _listed, _reused

PROPERTIES = {'.rank': DEFINED, '.suit': DEFINED, '.hand': LIST, '.stash': LIST,
              '.score': DEFINED, '.members': LIST, '.cards': DEFINED,
              '.is_facedown': DEFINED, '.is_squaredup': DEFINED}

GAME = '''Game "g" requires 2 players.
Deck stock = standard.
Number n = 3.
Number m.
Area pile labeled "Pile" is faceup.
Area out labeled "Out" is faceup.
Rule any(p, c, cl) = True.
Action main {
  shuffle stock.
  deal 2 from stock to players.
  play any from players->first to pile.
  deal all from pile to out.
  let c be out->cards->top.
  n = c->rank.
  winner players->first.
}
'''


def _program(text=GAME):
    return harness.compile_checked(frontend.check_text(text))


def _slot(program, name):
    return 'globals_[%d]' % program.global_names.index(name)


def _prefixed(program, k, instrs):
    """program with instrs ((name, args) each) put first in code object k."""
    code = b''.join(pipc.encode_instr(BY_NAME[name], args) for name, args in instrs)
    codes = list(program.codes)
    codes[k] = plain.evolve(codes[k], code=code + codes[k].code)
    return plain.evolve(program, codes=tuple(codes))


def test_oh_hell_s_areas_its_stock_and_the_properties_it_never_sets():
    program = loader.load_program(os.path.join(ROOT, 'examples', 'oh_hell.pip'))
    found = steady.steady(program)
    assert {k: v for k, v in found.items() if k.startswith('globals_')} == {
        _slot(program, 'stock'): LIST, _slot(program, 'upcard'): AREA,
        _slot(program, 'trick'): AREA}
    # (it adds to the players' scores: `score` is set)
    assert {k: v for k, v in found.items() if k.startswith('.')} == {
        k: v for k, v in PROPERTIES.items() if k != '.score'}


def test_a_global_named_but_to_read_it_or_stored_after_what_may_jump_is_not_steady():
    program = _program()
    pile, stock, main = _slot(program, 'pile'), _slot(program, 'stock'), program.main
    assert {k: v for k, v in steady.steady(program).items() if k.startswith('globals_')} == {
        stock: LIST, pile: AREA, _slot(program, 'out'): AREA}
    assert steady.steady(program).items() >= PROPERTIES.items()
    g = program.global_names.index('pile')
    # read in an action: still steady; stored there, or in the first code again: not
    read = _prefixed(program, main, [('LOAD_GLOBAL', (g,)), ('POP', ()), ('DEFINED_GLOBAL', (g,)),
                                     ('POP', ())])
    assert pile in steady.steady(read)
    for k in (main, 0):
        again = _prefixed(program, k, [('LOAD_GLOBAL', (g,)), ('STORE_GLOBAL', (g,))])
        assert pile not in steady.steady(again) and stock in steady.steady(again)
    # an instruction before the stores that is not sure to go on: none is steady
    for first in [('POP', ())], [('JUMP', (3,))]:
        ahead = _prefixed(program, 0, [('CONST', (0,))] + first)
        assert not any(k.startswith('globals_') for k in steady.steady(ahead))
    # `Number n = 3`: a constant, not an Area, before its store
    assert _slot(program, 'n') not in steady.steady(program)


# every instruction that may stand before the stores (written out: a
# mutant of the set shows here)
ON = {'CONST', 'LIST_CONST', 'LOAD_GLOBAL', 'STORE_GLOBAL', 'LOAD_BUILTIN', 'NEW_AREA',
      'BUILD_LIST', 'DEFINED_GLOBAL'}


def test_what_may_stand_before_the_stores_and_what_is_stored():
    program = _program()
    m = program.global_names.index('m')
    areas = {k for k, v in steady.steady(program).items() if k.startswith('globals_')}
    for name in sorted(ON):
        ahead = _prefixed(program, 0, [(name, (m if 'GLOBAL' in name else 1,))])
        assert {k for k in steady.steady(ahead) if k.startswith('globals_')} == areas, name
    # only a STORE_GLOBAL right after NEW_AREA or LOAD_BUILTIN standard
    # makes one steady (m, never stored but here)
    for before in ([('CONST', (0,)), ('NEW_AREA', (0,))], [('LOAD_BUILTIN', (2,))]):
        made = _prefixed(program, 0, before + [('STORE_GLOBAL', (m,))])
        assert _slot(program, 'm') in steady.steady(made)
        read = _prefixed(program, 0, before + [('LOAD_GLOBAL', (m,))])
        assert _slot(program, 'm') not in steady.steady(read)
    for before in [('CONST', (2,))], [('LOAD_BUILTIN', (0,))], [('LIST_CONST', (2,))]:
        made = _prefixed(program, 0, before + [('STORE_GLOBAL', (m,))])
        assert _slot(program, 'm') not in steady.steady(made), before


def test_a_property_set_anywhere_is_not_steady_and_a_read_or_test_keeps_it():
    program = _program()
    rank = runtime.PROPERTY_NAMES.index('rank')
    kept = _prefixed(program, program.main, [('CONST', (0,)), ('LOAD_PROP', (rank,)),
                                             ('DEFINED_PROP', (rank,)), ('POP', ())])
    assert '.rank' in steady.steady(kept)
    stored = _prefixed(program, program.main, [('CONST', (0,)), ('CONST', (0,)),
                                               ('STORE_PROP', (rank,))])
    assert '.rank' not in steady.steady(stored) and '.suit' in steady.steady(stored)
    # Team's `score` is another number with the same name: either is `score`
    team_score = [k for k, (owner, name, _) in enumerate(runtime.PROPERTIES)
                  if (owner, name) == ('Team', 'score')][0]
    stored = _prefixed(program, program.main, [('CONST', (0,)), ('CONST', (0,)),
                                               ('STORE_PROP', (team_score,))])
    assert '.score' not in steady.steady(stored)
    # a code object that fails to decode: nothing is known
    bad = plain.evolve(program, codes=(program.codes[0], plain.evolve(
        program.codes[1], code=b'\xff')) + tuple(program.codes[2:]))
    assert steady.steady(bad) == {}


def test_a_steady_read_is_untested_and_its_cards_taken_without_a_test_of_kind():
    known = {'globals_[8]': AREA, 'globals_[9]': LIST, '.hand': LIST, '.rank': DEFINED}
    call = 'found = A[5](self, p, %s)  # (no steps)'

    def reused(lines):
        return [t for t, _ in reads.reused([(x, k) for k, x in enumerate(lines)], known)]
    assert reused(READ + [call % _listed('value0')]) == [
        'value0 = globals_[8]', call % 'value0.cards']
    # after a call that may store anything: a steady global is what it was
    assert reused(READ + ['x = f(1)', call % _listed('value0')])[-1] == call % _listed('value0')
    lst = ['if (value2 := globals_[9]) is None:', "    raise Fault('Undefined value', 2)"]
    assert reused(lst + [call % _listed('value2')]) == ['value2 = globals_[9]',
                                                          call % 'value2']
    hand = ['if (value0 := frame[0]) is None:', "    raise Fault('Undefined value', 0)",
            'if (value1 := value0.hand) is None:',
            "    raise Fault('Undefined value', 1)", 'dest = value1', 'd = %s' % _listed('dest')]
    assert reused(hand) == hand[:2] + ['value1 = value0.hand', 'dest = value1', 'd = dest']
    rank = ['if (value3 := value0.rank) is None:', "    raise Fault('Undefined value', 3)"]
    assert reused(rank) == ['value3 = value0.rank']
    # a property not steady, and any read without them, keeps its test
    suit = ['if (value3 := value0.suit) is None:', "    raise Fault('Undefined value', 3)"]
    assert reused(suit) == suit and _reused(READ + rank) == READ + rank


def test_the_functions_leave_the_tests_out_and_play_as_the_loop_does():
    program = _program()
    pile = _slot(program, 'pile')

    def main_source(p):
        image = Image(p, compiled=True)
        actions.prepare(image)
        return image.codes[p.main].action.source
    assert 'if (value' not in ''.join(line for line in main_source(program).split('\n')
                                       if pile in line)
    g = program.global_names.index('pile')
    again = _prefixed(program, program.main, [('LOAD_GLOBAL', (g,)), ('STORE_GLOBAL', (g,))])
    assert any(line.strip().startswith('if (value') for line in main_source(again).split('\n')
               if pile in line)
    for p in (program, again):
        loop, tier = _play_outs(p, n=2)
        assert loop == tier


def test_the_answers_are_kept_by_the_program_s_codes_and_the_keeping_is_bounded():
    program = _program()
    assert steady.steady(program) is steady.steady(plain.evolve(program))
    steady._OF.clear()
    for n in range(66):
        steady.steady(SimpleNamespace(codes=[SimpleNamespace(code=bytes([255, n]))]))
        assert len(steady._OF) == (n + 1 if n < 65 else 1)     # (65 kept, then a fresh start)


def test_a_region_reads_a_card_s_rank_and_suit_untested_where_no_code_sets_them(monkeypatch):
    from pipvm.engine import compiled
    from pipvm.engine.vm import Image as VMImage
    from tests.test_regions import _play, _regions
    monkeypatch.setattr(compiled, 'HOT', 3)
    with open(os.path.join(ROOT, 'benchmarks', 'programs', 'loops.pip')) as f:
        text = f.read()
    program = _program(text)
    # (a rank stored by an action never called: one may be undefined all the same)
    stored = _program(text + 'Action never {\n  let c be A~C.\n  c->rank = 5.\n}\n')
    for p, tested in ((program, False), (stored, True)):
        image = VMImage(p, compiled=True)
        assert _play(image) == _play(VMImage(p))
        source = '\n'.join(fn.source for fn in _regions(image).values())
        assert ('.rank) is None:' in source) is tested and '.suit) is None:' not in source
        assert ' = value5.rank' in source or tested
    assert steady.untested("if (v := x.rank) is None:\n    raise Fault('Undefined value', 3)\n"
                           "else:\n    y = 1", {'.rank': DEFINED}).startswith('if (v')
