"""The load path: from a .pipc to the engine, a program is decoded once and
the walk goes down without coming back to a file it has left (issue 57).

The measure (walk, below).  While the loader runs, every `call` event that
sys.setprofile sees for a Python function defined in the project (pipvm/,
compiler/, disasm/) names the file the function is in.  Two kinds of event
are left out:

- calls into the bottom layers, pipvm/core/ and the instruction table
  (pipvm/isa/instructions.py, the tables opcodes.py derives from it and the
  operand kinds of operands.py) and the small helpers every layer shares:
  looking something up is not a step of the walk;
- everything from the first call into pipvm/engine/ on: there the validated
  program is handed to the engine, and the walk has arrived.

Consecutive events in one file are one *stay*; the walk is the list of
stays' files.  A stay *returns* when its file had an earlier stay and, at
the stay's first event, no frame of that file is on the call stack: the walk
had finished with the file (left it for good) and came back to it.  A call
down and back up (pipc.py calling overrides.Initial, which returns) is not a
return; the loader reading a file with pipc.py, going back to itself, and
entering pipc.py again to decode it is.
"""
import os
import sys
import threading

import pytest

from pipvm.isa import pipc
from pipvm.play import loader

from .test_sim import ROOT

PROJECT = tuple(os.path.join(ROOT, p) + os.sep for p in ('pipvm', 'compiler', 'disasm'))
LOOKUPS = (os.path.join(ROOT, 'pipvm', 'core') + os.sep,
           *(os.path.join(ROOT, 'pipvm', 'isa', name)
             for name in ('instructions.py', 'opcodes.py', 'operands.py')))
ENGINE = os.path.join(ROOT, 'pipvm', 'engine') + os.sep


def walk(run):
    """(stays, returns, calls) of run(): the files of the walk's stays (paths
    from the root), the stays that return to a file already left, and
    {(file, function name): calls} of every project call before the engine
    (threads' calls too, but a stay is measured on the main thread's stack)."""
    stays, returns, calls = [], [], {}
    done = False
    pipc._DECODED.clear()       # (a fresh process's: no code object decoded yet)

    def profile(frame, event, arg):
        nonlocal done
        if event != 'call' or done:
            return
        file = frame.f_code.co_filename
        if not file.startswith(PROJECT):
            return
        if file.startswith(ENGINE):
            done = True
            return
        name = os.path.relpath(file, ROOT)
        calls[name, frame.f_code.co_name] = calls.get((name, frame.f_code.co_name), 0) + 1
        if file.startswith(LOOKUPS) or (stays and stays[-1] == name):
            return
        if name in stays and not on_stack(frame.f_back, file):
            returns.append(name)
        stays.append(name)

    sys.setprofile(profile)
    threading.setprofile(profile)     # the front end runs in a thread with a deep stack
    try:
        result = run()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    return stays, returns, calls, result


def on_stack(frame, file):
    while frame is not None:
        if frame.f_code.co_filename == file:
            return True
        frame = frame.f_back
    return False


@pytest.fixture
def compiled(tmp_path):
    """A .pipc of each example game a test names."""
    def make(name):
        out = str(tmp_path / (name + '.pipc'))
        program = loader.load_program(os.path.join(ROOT, 'examples', name + '.pip'))
        pipc.write_file(out, pipc.dump(program))
        return out
    return make


@pytest.mark.parametrize('name,sets', [
    ('high_card', []),
    ('high_card', [('rounds', '2')]),
    ('cheat', [('word', 'a king'), ('called', 'true')]),
    ('go_fish_ext', []),
])
def test_the_walk_from_a_pipc_to_the_engine_returns_to_no_file_it_has_left(
        compiled, name, sets):
    path = compiled(name)
    stays, returns, calls, (program, _) = walk(lambda: loader.load_engine(path, sets=sets))
    assert returns == [], stays
    assert stays[:2] == ['pipvm/play/loader.py', 'pipvm/isa/pipc.py']
    assert ('pipvm/play/overrides.py' in stays) == bool(sets)
    # Decoded once: one decode per code object's bytes, and nothing written and read back.
    assert calls['pipvm/isa/pipc.py', 'decode'] == len({c.code for c in program.codes})
    assert calls['pipvm/isa/pipc.py', 'load'] == 1 and ('pipvm/isa/pipc.py', 'dump') not in calls
    if sets:                # the values are new constants, and the init code loads them
        n = len(program.consts)
        assert program.consts[n - len(sets):] == [{'2': 2, 'true': True}.get(v, v)
                                                  for _, v in sets]
        assert {i.args[0] for i in program.codes[0].decoded if i.op.name == 'CONST'} >= set(
            range(n - len(sets), n))


def test_a_walk_that_comes_back_to_a_file_is_caught(compiled):
    """The measure can fail: reading with pipc.py, then deciding in the loader,
    then decoding with pipc.py again (as the loader and overrides.py did)."""
    path = compiled('high_card')

    def back_and_forth():
        data = pipc.read_file(path)                 # pipvm/core/files.py: a lookup
        program = pipc.load(data, path)
        loader.is_bytecode(path, data)              # the loader, after pipc.py returned
        return pipc.decode(program.codes[0].code)   # pipc.py again, after it was left

    stays, returns, calls, _ = walk(back_and_forth)
    assert stays == ['pipvm/isa/pipc.py', 'pipvm/play/loader.py', 'pipvm/isa/pipc.py']
    assert returns == ['pipvm/isa/pipc.py']
    assert calls['pipvm/isa/pipc.py', 'decode'] == 1 + len({
        c.code for c in loader.load_program(path).codes})


def test_a_source_is_compiled_once_with_its_settings(compiled):
    """A .pip's --set goes into the checked program before code generation:
    one code generation, one load, and the values are the initialisers'."""
    path = os.path.join(ROOT, 'examples', 'high_card.pip')
    stays, returns, calls, (program, _) = walk(
        lambda: loader.load_engine(path, sets=[('rounds', '2')]))
    assert calls['compiler/codegen/generator.py', 'generate'] == 1
    assert calls['pipvm/isa/pipc.py', 'load'] == 1
    plain = loader.load_program(path)
    assert 2 in program.consts and program != plain
