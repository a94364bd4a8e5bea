"""The compiled tier (pipvm/engine/compiled.py, `--engine compiled`): its
blocks run the bodies of the one table as generated functions.  The
goldens of tests/test_run.py run on it too; these check what it makes:
that the generated source holds nothing of the program (the trust model:
only the table's text and the operand tuple's subscripts), that a block is
made once per opcode sequence, and that hostile constants reach the
blocks only as values."""
import io
import os
import re
import tokenize

from compiler.pip import frontend
from pipvm.engine import compiled, vm
from pipvm.isa.instructions import INSTRUCTIONS, MACROS
from pipvm.play import loader
from tests.fuzz import harness

from .util import transcript

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _tokens(text, kind):
    return {t.string for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type == kind}


def _table_text():
    return '\n'.join([op.body for op in INSTRUCTIONS if op.body] + list(MACROS.values()))


def _blocks(program):
    image = vm.Image(program, compiled=True)
    # the loud code's blocks, then the quiet variant's own (sim, playouts)
    # (a block's function is made at its first call: made() makes it now)
    return [((op, arg, compiled.lazy_of(fn).made() if compiled.lazy_of(fn) else fn), loaded)
            for loaded in image.codes
            for op, arg, fn in loaded.instrs + [e for e in loaded.quiet
                                                 if e not in loaded.instrs]
            if op == compiled.BLOCK]


def test_a_block_s_source_holds_only_the_table_s_text():
    strings = _tokens(_table_text(), tokenize.STRING)
    numbers = _tokens(_table_text(), tokenize.NUMBER)
    seen = 0
    for name in ('crazy_eights', 'euchre', 'oh_hell', 'go_fish_ext', 'president_sets'):
        program = loader.load_program(os.path.join(ROOT, 'examples', name + '.pip'))
        for (_, arg, fn), _ in _blocks(program):
            source = fn.source
            assert _tokens(source, tokenize.STRING) <= strings, source
            extra = _tokens(re.sub(r'arg\[\d+\]', 'arg', source), tokenize.NUMBER) - numbers
            assert all(int(n) < len(fn.ops) for n in extra), source     # (its parts' indexes)
            seen += 1
    assert seen > 50


def test_a_block_s_function_is_made_when_it_is_hot(monkeypatch):
    monkeypatch.setattr(compiled, 'HOT', 3)
    program = loader.load_program(os.path.join(ROOT, 'examples', 'high_card.pip'))
    compiled._MADE.clear()
    image = vm.Image(program, compiled=True)
    lazy = [fn for loaded in image.codes for op, _, fn in loaded.instrs if op == compiled.BLOCK]
    assert lazy and all(compiled.lazy_of(fn) for fn in lazy) and not compiled._MADE
    loader.vm_engine(program, engine='compiled')      # (a second image: nothing made yet)
    assert not compiled._MADE
    transcript(['run', '--engine', 'compiled', '--players', '2', '--bots', 'random', '--seed',
                '1', os.path.join(ROOT, 'examples', 'high_card.pip')], b'')
    game = __import__('pipvm.game.game', fromlist=['Game']).Game(image, seed=1, players=2,
                                                                  names=['a', 'b'])
    while game.decision is not None:
        game.answer(0)
    ran = [fn for loaded in image.codes for op, _, fn in loaded.instrs if op == compiled.BLOCK]
    assert compiled._MADE and any(not compiled.lazy_of(fn) for fn in ran)
    # a block called fewer than HOT times has no function of its own yet
    cold = [compiled.lazy_of(fn) for fn in ran if compiled.lazy_of(fn)]
    assert cold and all(0 <= fn.calls < compiled.HOT for fn in cold)
    assert all(fn.key not in compiled._MADE for fn in cold if fn.calls == 0)


def test_a_block_is_made_once_per_opcode_sequence():
    program = loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip'))
    blocks = _blocks(program)
    fns = {id(fn) for (_, _, fn), _ in blocks}
    assert len(fns) < len(blocks)       # blocks of the same opcodes, other operands: one function
    before = dict(compiled._MADE)
    _blocks(program)
    assert compiled._MADE == before


HOSTILE = ['"', "'''", '\\\\', '__import__(\'os\').system(\'false\')', '{0}', '\\n'.join('x')]


def test_hostile_constants_reach_a_block_only_as_values(tmp_path):
    texts = [t.replace('"', '\\"') for t in HOSTILE] + ['y' * 100_000]
    lines = ['Game "g" requires 2 players.', 'Action main {']
    lines += ['  let t%d be "%s".' % (i, t) for i, t in enumerate(texts)]
    lines += ['  message "{t%d}".' % i for i in range(len(texts))]
    lines += ['}']
    source = tmp_path / 'hostile.pip'
    source.write_text('\n'.join(lines) + '\n')
    try:
        program = harness.compile_checked(frontend.check_text(source.read_text()))
    except Exception:
        # the lexer refuses some: keep what it takes, one at a time
        texts = [t for t in texts if _compiles(t)]
        lines = ['Game "g" requires 2 players.', 'Action main {']
        lines += ['  let t%d be "%s".' % (i, t) for i, t in enumerate(texts)]
        lines += ['  message "{t%d}".' % i for i in range(len(texts))] + ['}']
        source.write_text('\n'.join(lines) + '\n')
        program = harness.compile_checked(frontend.check_text(source.read_text()))
    assert len(texts) >= 4
    for (_, arg, fn), _ in _blocks(program):
        assert not any(t in fn.source for t in ('__import__', 'y' * 100, "'''"))
    vm_run = transcript(['run', '--players', '2', '--bots', 'random', '--seed', '1',
                         str(source)], b'')
    compiled_run = transcript(['run', '--engine', 'compiled', '--players', '2', '--bots',
                               'random', '--seed', '1', str(source)], b'')
    assert compiled_run == vm_run and b'y' * 1000 in vm_run


def _compiles(text):
    try:
        frontend.check_text('Game "g" requires 2 players.\nAction main {\n  let t be "%s".\n}\n'
                            % text)
        return True
    except Exception:
        return False


def test_a_fault_in_a_later_part_of_a_block_is_at_its_own_instruction(tmp_path):
    # the block's parts after the first give a Fault raised without a part
    # (runtime.divide's) their own: the error names the division's line
    source = tmp_path / 'div.pip'
    source.write_text('Game "g" requires 2 players.\nNumber z = 0.\nAction main {\n'
                      '  let a be 1.\n  let b be a + 2.\n  let c be b / z.\n}\n')
    program = harness.compile_checked(frontend.check_text(source.read_text()))
    assert any(len(loaded.positions[i]) > 2 for (_, _, _), loaded in _blocks(program)
               for i in range(len(loaded.instrs)))
    runs = [transcript(['run', '--engine', e, '--players', '2', '--bots', 'random', '--seed', '1',
                        str(source)], b'')
            for e in ('loop', 'compiled')]
    assert runs[0] == runs[1] and b'Division by zero' in runs[0] and b'Line 6' in runs[0]


def test_a_block_passes_values_between_its_instructions_in_locals():
    # `i = i + 1` as LOAD_LOCAL CONST ADD STORE_LOCAL: nothing pushed or popped
    by_name = {op.name: op.code for op in INSTRUCTIONS}
    fn = compiled.function(tuple(by_name[n] for n in ('LOAD_LOCAL', 'CONST', 'ADD',
                                                       'STORE_LOCAL')))
    body = fn.source.split('\n', 1)[1]
    assert 'stack' not in body and 'return arg[0]' in body
    frame = [41]
    machine = type('M', (), {'consts': [1]})()
    assert fn(machine, [], frame, (7, 0, 0, 0)) == 7 and frame == [42]


def test_dis_shows_the_blocks_beside_the_bytecode():
    import subprocess
    import sys
    p = subprocess.run([sys.executable, '-m', 'pipvm', 'dis', '--compiled',
                        os.path.join(ROOT, 'examples', 'high_card.pip')],
                       capture_output=True, timeout=120)
    text = p.stdout.decode()
    assert p.returncode == 0 and p.stderr == b''
    assert re.search(r'block of \d+ instructions, 0 to \d+:\n +def block\(self, stack, frame, '
                     r'arg\):', text)
    assert re.search(r'\n +\d+ +\d+ \| STORE_GLOBAL \d+ \(deck\)', text)
    # and the loops that run as one function once hot: loops.pip's two, the
    # inner `for` written in the outer's function
    p = subprocess.run([sys.executable, '-m', 'pipvm', 'dis', '--compiled',
                        os.path.join(ROOT, 'benchmarks', 'programs', 'loops.pip')],
                       capture_output=True, timeout=120)
    text = p.stdout.decode()
    assert p.returncode == 0 and p.stderr == b''
    assert re.search(r'region of the loop 9 to 38 \(once a block in it is hot\):\n +def region'
                     r'\(self, stack, frame, arg\):', text)
    assert 'region of the loop 12 to 37' not in text
    assert 'for l_2 in stack[-1]:' in text      # (its slot a Python local)
    # a load-time rewrite in a block: deal.pip's dealing loops, DEAL_EACH
    p = subprocess.run([sys.executable, '-m', 'pipvm', 'dis', '--compiled',
                        os.path.join(ROOT, 'benchmarks', 'programs', 'deal.pip')],
                       capture_output=True, timeout=120)
    text = p.stdout.decode()
    assert p.returncode == 0 and p.stderr == b''
    assert re.search(r'\n +8 +32 \| DEAL_EACH \(rewritten from FOR_ITER\)\n', text)
    assert 'if deal_each(' in text
    # and its deals from the deck to the players, superinstructions (their
    # DEAL's operands in locals: nothing pushed)
    assert re.search(r'\n +5 +19 \| LOAD_GLOBAL\+SHUFFLE 0 \(deck\)\n', text)
    assert re.search(r'\n +6 +22 \| LOAD_GLOBAL\+LOAD_BUILTIN\+CONST\+DEAL 0 \(deck\), players, '
                     r'2 \(13\), to players\n', text)
    assert re.search(r'\n +15 +58 \| LOAD_GLOBAL\+LOAD_BUILTIN\+DEAL 0 \(deck\), players, all, '
                     r'to players\n', text)


LOOPS = '''Game "g" requires 2 players.
Number total = 0.
Action main {
  let n be 0.
  for p in players {
    p->score = n.
    total += 1.
  }
  forever {
    if n >= 5 { skip to done. }
    n += 1.
    if n > 2 { total = total * 2. }
  }
  label done.
  message "{total} {n}".
}
'''


def test_a_loop_body_runs_as_one_block_with_its_jump_and_step_count(tmp_path):
    # `for` whose body ends in JUMP back to its FOR_NEXT: one function
    # counting each round; conditional jumps inside blocks leave them
    source = tmp_path / 'loops.pip'
    source.write_text(LOOPS)
    program = harness.compile_checked(frontend.check_text(LOOPS))
    fns = [fn for (_, _, fn), _ in _blocks(program)]
    # (the `for`, headed by its FOR_NEXT: a Python `for` over the iteration state)
    assert any(fn.source.startswith('def block(self, stack, frame, arg):\n    for frame[arg[1]] '
                                    'in stack[-1]:\n') and 'next(' not in fn.source
               and 'StepLimit' in fn.source
               and fn.source.endswith('\n    stack.pop()\n    return arg[2]\n') for fn in fns)
    assert any(re.search(r"\n +if not [^\n]+:\n +return arg\[\d+\]\n", fn.source)
               and 'JUMP_IF_FALSE' in [op.name for op in fn.ops[:-2]] for fn in fns)
    for steps in ('', '2', '3', '5', '6'):
        extra = ['--max-steps', steps] if steps else []
        runs = [transcript(['run', '--engine', e, '--players', '2', '--bots', 'random',
                            '--seed', '1'] + extra + [str(source)], b'')
                for e in ('loop', 'compiled')]
        assert runs[0] == runs[1], steps
        # the whole game, or a stop at the limit inside the `for` or the `forever`
        assert (b'stopped after %s steps' % steps.encode() if steps else b'\n16 5\n') in runs[0]


def test_the_quiet_variant_s_blocks_begin_where_its_messages_are_skipped_to():
    # a quiet instruction jumps past its messages; its target inside a block
    # must open a block of its own, or the code after the messages would run
    # in the loop one instruction at a time
    program = loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip'))
    image, plain = vm.Image(program, compiled=True), vm.Image(program)
    targets = starts = 0
    for loaded, uncompiled in zip(image.codes, plain.codes):
        quiet = loaded.quiet
        spans = [(i, arg[0]) for i, (op, arg, _) in enumerate(quiet) if op == compiled.BLOCK]
        for op, arg, _ in quiet:
            if op in compiled._QUIET:
                targets += 1
                t = arg[-1]
                can = compiled.blocks(uncompiled.quiet[t:t + compiled.MIN_BLOCK], set())
                assert quiet[t][0] == compiled.BLOCK or not can, (loaded.code.name, t)
                starts += any(s == arg[-1] for s, _ in spans)
    assert targets > 10 and starts > 5
