"""fusion.py where the suite's games leave a mutant alive: loaded's default,
and deals_each's test of a dealing loop (the item read from the loop's own
local; a loop that ends its code object) (tools/mutation-results/fusion.tsv)."""
from compiler.codegen.assembler import Assembler
from compiler.pip import frontend
from pipvm.core import plain, runtime
from pipvm.core.rng import OCamlRandom
from pipvm.engine import fusion, vm
from pipvm.isa import pipc
from pipvm.isa.opcodes import DEAL_ALL, OP
from tests.fuzz import harness

HEAD = '''Game "Each" requires 3 players.
Deck deck = standard.
Area stock labeled "Stock" is facedown.
Action main {
  deal 4 from deck to players.
%s
  let n be stock->cards->size.
  message "{n}".
}
'''


def _program(body):
    return harness.compile_checked(frontend.check_text(HEAD % body))


def _main_ops(program):
    image = vm.Image(program)
    return [op for op, _, _ in image.codes[program.main].instrs]


def _played(program):
    """The messages and the cards left in each hand of program's game."""
    m = vm.Machine(vm.Image(program), OCamlRandom(1), events=[])
    players = [runtime.Player(name) for name in ('Ada', 'Ben', 'Cleo')]
    m.start(players)
    return [e.text for e in m.events], [len(p.hand) for p in players]


def test_loaded_fuses_and_rewrites_unless_told_not_to():
    # (loaded's default is fuse=True: the runs and rewrites of loaded(d, True))
    program = _program('  for p in players { deal all from p to stock. }')
    decoded = list(pipc.decoded(program.codes[program.main].code))
    runs, rewrites = fusion.loaded(decoded)
    assert (runs, rewrites) == fusion.loaded(decoded, True)
    assert 'DEAL_EACH' in rewrites.values() and len(runs) < len(decoded)
    assert fusion.loaded(decoded, False) == ([(ins.op, [ins]) for ins in decoded], {})


def test_a_loop_dealing_another_local_s_cards_is_no_deal_each():
    # (every other part of the shape holds: only the local read differs)
    other = _program('  let r be players->first.\n'
                     '  for p in players { deal all from r to stock. }')
    assert OP.DEAL_EACH not in _main_ops(other)
    # r's 4 cards dealt once, the others' kept
    assert _played(other) == (['4'], [0, 4, 4])
    own = _program('  for p in players { deal all from p to stock. }')
    assert _main_ops(own).count(OP.DEAL_EACH) == 1
    assert _played(own) == (['12'], [0, 0, 0])


def test_a_dealing_loop_last_in_its_code_whose_end_is_elsewhere_loads():
    # (a hand-made file: the loop's JUMP back is the code's last instruction,
    # its FOR_NEXT ending at a RETURN before it; no run after the loop to read)
    base = _program('')
    main = base.codes[base.main]
    code = Assembler()
    code.code += main.code[:8]          # (`deal 4 from deck to players.`)
    assert [ins.op.name for ins in pipc.decoded(bytes(code.code))][-1] == 'DEAL'
    over = code.emit('JUMP', 0)
    end = code.emit('RETURN')
    code.patch(over)
    code.emit('LOAD_BUILTIN', 0)
    code.emit('FOR_ITER')
    head = code.emit('FOR_NEXT', 0, end)
    code.emit('LOAD_LOCAL', 0)
    code.emit('LOAD_GLOBAL', 1)
    code.emit('DEAL', DEAL_ALL)
    code.emit('JUMP', head)
    program = plain.evolve(base, codes=tuple(
        plain.evolve(c, code=bytes(code.code), lines=[]) if c is main else c
        for c in base.codes))
    program = pipc.load(pipc.dump(program), '<hand-made>')      # (it verifies)
    decoded = list(pipc.decoded(program.codes[program.main].code))
    runs, rewrites = fusion.loaded(decoded)
    assert runs[-1][0].name == 'JUMP' and 'DEAL_EACH' not in rewrites.values()
    # played as written: every hand dealt to the stock, one a round
    m = vm.Machine(vm.Image(program), OCamlRandom(1), events=[])
    players = [runtime.Player(name) for name in ('Ada', 'Ben', 'Cleo')]
    m.start(players)
    assert [len(p.hand) for p in players] == [0, 0, 0]
    assert len(runtime.cards_of(m.globals[1])) == 12
