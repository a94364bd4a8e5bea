"""The compiled tier's blocks in the quiet variant (pipvm/engine/compiled.py,
compile_loaded): the quiet code (play-out mode: messages nobody reads)
gets blocks of its own, where every index a quiet instruction's skip
lands on opens one, and elsewhere keeps its own instructions."""
import os

from pipvm.engine import compiled, vm
from pipvm.play import loader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _images(name):
    program = loader.load_program(os.path.join(ROOT, 'examples', name + '.pip'))
    return vm.Image(program, compiled=True), vm.Image(program)


def test_the_quiet_code_keeps_its_own_instructions_where_no_block_stands():
    image, plain = _images('euchre')
    differ = 0
    for loaded, uncompiled in zip(image.codes, plain.codes):
        assert len(loaded.quiet) == len(uncompiled.quiet)
        for mine, own in zip(loaded.quiet, uncompiled.quiet):
            if mine[0] != compiled.BLOCK:
                assert mine[0] == own[0], loaded.code.name
        differ += uncompiled.quiet is not uncompiled.instrs
    assert differ > 3           # (codes with messages: a quiet variant of their own)


def test_every_index_a_quiet_skip_lands_on_opens_a_block_where_one_can_stand():
    # (without its own block the code after a skipped message would run in
    # the loop one instruction at a time: every play-out the same, slower)
    image, plain = _images('euchre')
    opened = 0
    for loaded, uncompiled in zip(image.codes, plain.codes):
        quiet = uncompiled.quiet
        for op, arg, _ in quiet:
            if op not in compiled._QUIET:
                continue
            t = arg[-1]
            if compiled.blocks(quiet[t:t + compiled.MIN_BLOCK], set()):
                assert loaded.quiet[t][0] == compiled.BLOCK, (loaded.code.name, t)
                opened += 1
    assert opened > 3
