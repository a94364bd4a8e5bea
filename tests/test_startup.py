"""Start-up of `pipvm run GAME.pipc` (issue 60): what a run imports, and the
shortcuts that keep it short, each checked against what it stands for."""
import glob
import io
import os
import subprocess
import sys
import tokenize

import pytest

from pipvm.engine import cases, compiled, pure, vm
from pipvm.isa.instructions import INSTRUCTIONS, MACROS
from pipvm.play import loader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = sorted(glob.glob(os.path.join(ROOT, 'examples', '*.pip')))


# What a run of a .pipc must not import before its first question: the
# front ends, the tools it does not run, and the costly modules the run
# path was freed of (attrs 25 ms, inspect 7, tempfile 5, typing 3, hashlib 3,
# tokenize, shutil 2; CPU at start-up).
NOT_ON_THE_RUN_PATH = (
    'sly', 'compiler', 'disasm', 'pysat', 'attr', 'attrs', 'typing', 'inspect', 'tokenize',
    'hashlib', 'tempfile', 'shutil', 'ast', 'dis', 'json', 'subprocess', 'asyncio',
    'importlib.metadata', 'pipvm.design', 'pipvm.web', 'pipvm.records', 'pipvm.game.belief',
    'pipvm.game.view', 'pipvm.game.determinize', 'pipvm.play.bots', 'pipvm.play.languages')


@pytest.mark.parametrize('game', ['euchre', 'crazy_eights'])
def test_a_pipc_reaches_its_first_question_importing_only_what_it_runs(tmp_path, game):
    pipc = str(tmp_path / (game + '.pipc'))
    subprocess.run([sys.executable, '-m', 'pipvm', 'compile',
                    os.path.join(ROOT, 'examples', game + '.pip'), '-o', pipc],
                   check=True, cwd=ROOT)
    p = subprocess.run([sys.executable, '-X', 'importtime', '-m', 'pipvm', 'run', pipc,
                        '--seed', '1'], stdin=subprocess.DEVNULL, capture_output=True, cwd=ROOT)
    assert p.stdout.endswith(b'Your choice? ') and p.returncode == 1
    assert p.stderr.decode().splitlines()[-1].startswith('Error: input ended while waiting')
    imported = [line.rsplit('|', 1)[1].strip() for line in p.stderr.decode().splitlines()
                if line.startswith('import time:') and '|' in line]
    assert 'pipvm.cli' in imported and 'pipvm.engine.compiled' in imported
    bad = [m for m in imported if any(m == n or m.startswith(n + '.')
                                      for n in NOT_ON_THE_RUN_PATH)]
    assert bad == []


def _tokenized(text):
    """The NAME tokens as tokenize finds them (what cases._name_tokens stands for)."""
    return [(t.string, t.start, t.end) for t in
            tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.NAME]


def _generated_texts():
    """Every body and macro, and the functions the compiled tier writes for the examples."""
    texts = [op.body for op in INSTRUCTIONS if op.body] + list(MACROS.values())
    for path in GAMES:
        image = vm.Image(loader.load_program(path), compiled=True)
        for loaded in image.codes:
            texts += [(compiled.lazy_of(fn) or fn).source for op, _, fn in
                      loaded.instrs + loaded.quiet if op == compiled.BLOCK]
        texts += [f.source for fast in map(pure.written, image.pure) if fast is not None
                  for f in (fast.fn, fast.hand) if hasattr(f, 'source')]
    return texts


def test_the_name_scanner_finds_what_tokenize_finds():
    texts = _generated_texts()
    assert len(texts) > 300
    for path in glob.glob(os.path.join(ROOT, 'pipvm', 'engine', '*.py')):
        with open(path) as f:
            texts.append(f.read())      # (comments, docstrings, f-strings, numbers: all of them)
    for text in texts:
        assert [tuple(t) for t in cases._name_tokens(text)] == _tokenized(text), text[:200]


@pytest.mark.parametrize('text', [
    "x = 'a b' + \"c\" # d e\ny", "r'\\'' + rb\"q\" + f'{z}' + w", "'''a\nb''' + c\n",
    '0x1F + 1e5 + 2.5j + _x1 + ünï', 'a.b(c)[d]  # trailing', "value = 'value' # value",
    "x = f('a value', \"it's\", 1e5, 0x1f, .5j)  # value"])
def test_the_name_scanner_on_tricky_texts(text):
    assert [tuple(t) for t in cases._name_tokens(text)] == _tokenized(text)


def _rules(image):
    return [k for k, c in enumerate(image.program.codes)
            if c.kind == 'rule' and image.pure[k] is not None]


def _unwritten(fast):
    return type(getattr(fast.fn, '__self__', None)) is pure._Unwritten


def _filters(program, pure_of, rounds=25):
    """Each rule's cards (by pure_of(rule).filter) for each player and area,
    decision by decision of a game played on the closures."""
    from pipvm.game.game import Game
    image = vm.Image(program)
    players = program.counts[0] * (program.team_size or 1)
    g = Game(image, seed=3, players=players, names=['P%d' % i for i in range(players)],
             quiet=True)
    out = []
    for i in range(rounds):
        if g.decision is None:
            break
        m = g.machine
        for k in _rules(image):
            for player in m.players:
                for dest in [player.hand] + [v.cards for v in m.globals if type(v) is vm.Area]:
                    try:
                        out.append([c.name for c in pure_of(k).filter(m, player, dest)])
                    except Exception as e:      # (a rule read before its globals are set)
                        out.append(type(e).__name__)
        g.answer(i % len(g.decision.options) if g.decision.options else 'P')
    return out


def test_the_compiled_tier_writes_a_rule_at_its_first_call():
    program = loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip'))
    image = vm.Image(program, compiled=True)
    rules = _rules(image)
    assert rules and all(_unwritten(image.pure[k]) for k in rules)
    closures = vm.Image(program).pure
    assert _filters(program, image.pure.__getitem__) == _filters(program, closures.__getitem__)
    assert all(hasattr(image.pure[k].hand, 'source') for k in rules)
    # (each function at its own first call: filtering hands writes no value's)
    assert all(_unwritten(image.pure[k]) for k in rules)
    assert not any(_unwritten(pure.written(image.pure[k])) for k in rules)


def test_a_rule_the_tier_cannot_write_runs_its_closures(monkeypatch):
    from pipvm.engine import rules
    monkeypatch.setattr(rules, 'hand_function', lambda *a: None)
    monkeypatch.setattr(rules, 'value_function', lambda *a: None)
    program = loader.load_program(os.path.join(ROOT, 'examples', 'crazy_eights.pip'))
    closures = vm.Image(program).pure
    # each filter the first call of a rule not yet written
    assert (_filters(program, lambda k: vm.Image(program, compiled=True).pure[k])
            == _filters(program, closures.__getitem__))
    written = [pure.written(vm.Image(program, compiled=True).pure[k])
               for k in _rules(vm.Image(program))]
    assert all(w.hand is None and not hasattr(w.fn, 'source') for w in written)


def test_the_kept_parse_tables_are_the_ones_sly_builds():
    from compiler.pip import generated_tables as kept, tables
    from compiler.pip.parser import PipParser
    action, goto, defaulted, grammar = tables.built(PipParser)
    redo = 'run python tools/make_parse_tables.py'
    assert kept.SIGNATURE == tables.signature(grammar) == tables.signature(PipParser._grammar), redo
    assert (kept.ACTION, kept.GOTO, kept.DEFAULTED) == (action, goto, defaulted), redo
    assert type(PipParser._lrtable) is tables.Tables        # (the parser reads the kept ones)


def test_a_grammar_the_tables_were_not_made_from_gets_its_own():
    from sly import Lexer, Parser
    from compiler.pip import tables

    class Sums(Lexer):
        tokens = {'NUM', 'PLUS'}
        ignore = ' '
        NUM = r'\d+'
        PLUS = r'\+'

    class Sum(Parser):
        tokens = Sums.tokens
        _Parser__build_lrtables = classmethod(tables.load_or_build)

        @_('expr PLUS NUM')             # noqa: F821 (SLY's class body gives `_`)
        def expr(self, p):
            return p.expr + int(p.NUM)

        @_('NUM')                       # noqa: F821
        def expr(self, p):              # noqa: F811
            return int(p.NUM)

    assert type(Sum._lrtable) is not tables.Tables
    assert Sum().parse(Sums().tokenize('1 + 2 + 39')) == 42
