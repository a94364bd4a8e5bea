"""Rules and orderings as a hand-made .pipc may hold them: the compiler's
code rewritten, instruction by instruction, into other code that computes
the same value (a keeping jump as DUP and JUMP_IF_FALSE, a binary
operation's operands swapped twice, a value duplicated and one copy popped,
a comparison's operands swapped and the comparison mirrored, a branch
whose two sides join at once).  The compiler writes DUP, SWAP,
POP, JUMP and JUMP_IF_FALSE only in statements, so only such a file makes
pure.py translate them in an expression; property 1d plays the rewritten
program, which must play as the original, its closures giving the loop's
values."""

from compiler.codegen.assembler import Assembler
from pipvm.core import plain
from pipvm.isa import pipc
from pipvm.isa.opcodes import OPERANDS


def _is_value(op):
    """An instruction of an expression that pushes one value and changes nothing."""
    return op.pure and op.pushes == 1 and not callable(op.pops) and op.name not in (
        'DUP', 'FOR_NEXT', 'FOR_ITER', 'AGG_START')     # (an aggregate's layout is the compiler's)


MIRROR = {'LT': 'GT', 'GT': 'LT', 'LE': 'GE', 'GE': 'LE', 'EQ': 'EQ', 'NE': 'NE'}


def rewrite(code, choose):
    """code (a rule or ordering) rewritten; choose(n) picks one of n ways
    for each instruction (0: as it is)."""
    decoded = pipc.decode(code.code)
    asm, at, jumps, joins = Assembler(), {}, [], 1

    def emit(name, *args, target=None, pos=None):
        offset = asm.emit(name, *args, pos=pos)
        if target is not None:
            jumps.append((offset, target))
        return offset

    for ins in decoded:
        at[ins.offset] = asm.here()
        pos = code.position(ins.offset)
        name, args = ins.op.name, list(ins.args)
        targets = [k for k, kind in enumerate(ins.op.operands) if OPERANDS[kind].is_target]
        way = choose(3)
        if name == 'JUMP_IF_TRUE_OR_POP' and way:
            # DUP; JUMP_IF_FALSE no; JUMP target; no: POP
            emit('DUP', pos=pos)
            no = emit('JUMP_IF_FALSE', 0, pos=pos)
            emit('JUMP', 0, target=args[0], pos=pos)
            asm.patch(no)
            emit('POP', pos=pos)
        elif name == 'JUMP_IF_FALSE_OR_POP' and way:
            # DUP; JUMP_IF_FALSE target; POP
            emit('DUP', pos=pos)
            emit('JUMP_IF_FALSE', 0, target=args[0], pos=pos)
            emit('POP', pos=pos)
        elif name in MIRROR and way:
            emit('SWAP', pos=pos)       # a < b as b > a
            emit(MIRROR[name], pos=pos)
        elif ins.op.pure and ins.op.pops == 2 and ins.op.pushes == 1 and way == 1 and not targets:
            emit('SWAP', pos=pos)
            emit('SWAP', pos=pos)
            emit(name, *args, pos=pos)
        elif _is_value(ins.op) and way and not targets:
            emit(name, *args, pos=pos)
            if way == 1 or joins == 0:
                # (a join doubles the code pure.py translates after it: one)
                emit('DUP', pos=pos)
                emit('POP', pos=pos)
            else:
                # DUP; JUMP_IF_FALSE join; JUMP join; join: (both sides: nothing)
                joins -= 1
                emit('DUP', pos=pos)
                a = emit('JUMP_IF_FALSE', 0, pos=pos)
                b = emit('JUMP', 0, pos=pos)
                asm.patch(a)
                asm.patch(b)
                emit('DUP', pos=pos)
                emit('SWAP', pos=pos)
                emit('DROP', 1, pos=pos)
        else:
            offset = emit(name, *args, pos=pos)
            for k in targets:
                jumps.append((offset, args[k]))
    for offset, target in jumps:
        asm.patch(offset, at[target])
    return plain.evolve(code, code=bytes(asm.code), lines=asm.lines)


def rewritten(program, choose):
    """The program with every rule and ordering rewritten, validated as any
    file is (pipc.load)."""
    codes = [rewrite(c, choose) if c.kind in ('rule', 'ordering') else c for c in program.codes]
    return pipc.load(pipc.dump(plain.evolve(program, codes=codes)), '<rewritten>')
