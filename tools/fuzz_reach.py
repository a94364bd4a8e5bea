"""What share of generated programs reaches each tier of the VM, and each
situation issue 23 found the generator never made.

    python tools/fuzz_reach.py [--seed 1] [--examples 200] [--edges]

(--edges: only the generator's edge values of issue 58, each counted as
drawn and as reached, its mark shown by the watched game; no coverage.)

Draws the cases of tests/fuzz/programs.py (the same strategy, seed and
budget as one fuzz property; no shrinking), plays each on the VM as a
watched game and as a game nobody watches, and counts the programs that
execute each tier, by line coverage with one coverage context per program:

- loop: Machine._run, the dispatch loop;
- handlers: a handler (op_NAME, an operator's) of a plain opcode;
- superinstructions: a fused opcode's handler or inline branch;
- rewrites: PLAY_AGAIN, the PLAY that takes its CANPLAY's cards (the other
  rewrite, a JUMP to a RETURN run as RETURN, looks like any RETURN);
- closures: a rule or ordering run by pipvm/engine/pure.py's closures;
- quiet: the quiet variant's instructions (their handlers, bodies.quiet_rounds
  and the loop's inline ones), in the game nobody watches.

The situations are counted by wrapping the VM's methods (see SITUATIONS).
Last, for each handler of generated_cases.py (the engine core), the
programs that run it and those that run it with a value under its operands
(in a loop, or inside a larger expression): a handler that only ever sees
its own operands cannot tell `stack[-1]` from `stack[0]`.
Needs the `dev` extra (coverage).  docs/fuzzing.md keeps the last figures.
"""
import argparse
import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from fuzz_coverage import functions  # noqa: E402  (tools/, beside this file)

VM, PURE, QUIET = ('pipvm/engine/vm.py', 'pipvm/engine/pure.py', 'pipvm/engine/bodies.py')
GEN = 'pipvm/engine/generated_cases.py'     # handlers and closure factories made from the bodies

SITUATIONS = {
    'play': 'a PLAY or PLAY_AGAIN',
    'canplay': 'a CANPLAY (as a value or fused with its jump)',
    'canplay_value_one': 'canplay as a value with exactly one playable card',
    'play_after_canplay_same': 'PLAY_AGAIN (play right after canplay, same rule)',
    'play_after_canplay_other': 'a PLAY right after canplay with another rule',
    'play_after_canplay_operands': 'a PLAY right after canplay, same rule, another player or '
                                   'destination',
    'closure_pile_2': 'a rule run by closures on a pile of 2 or more cards',
    'closure_pile_1': 'a rule run by closures on a pile of 1 card',
    'closure_pile_0': 'a rule run by closures on an empty pile',
    'two_terms': "a card matching two terms of an `or` in the one-closure rule path",
    'order_twice': 'an ordering that lists a card twice',
    'wrap': 'a `starting at` loop that starts past its first item',
    'quiet_fails': 'a quiet message whose operands fail (handed to the loud code)',
    'quiet_loop_hands_back': 'a message-only loop that hands back to the loud code',
    'squared_up_2': 'a decision while a squared-up faceup area holds 2+ cards',
    'settled': 'a rule settled for the values of its tests of globals (pure.Shapes)',
    'settled_two': 'a rule settled two ways in one game (its globals changed)',
    'aggregate_closure': "an aggregate run by a rule's closure",
    'aggregate_closure_max_min': "a max or min run by a rule's closure",
}


def spans(path):
    """{qualified function name: (first line, last line)}."""
    return {name: (first, last) for first, last, name in functions(path)}


def inline_branches(codes):
    """Lines of the dispatch loop's inline branches (`elif op == CODE:`) for
    these opcode numbers."""
    with open(os.path.join(ROOT, VM), encoding='utf-8') as f:
        tree = ast.parse(f.read())
    lines = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
                and isinstance(node.test.left, ast.Name) and node.test.left.id == 'op'
                and isinstance(node.test.comparators[0], ast.Constant)
                and node.test.comparators[0].value in codes):
            for stmt in node.body:
                lines.update(range(stmt.lineno, stmt.end_lineno + 1))
    return lines


def tiers():
    """{tier: {file: lines}}, from the instruction table: a handler is a
    Machine method (vm.py) or a generated function (generated_cases.py)."""
    from pipvm.isa.opcodes import INSTRUCTIONS
    fused = {op.name for op in INSTRUCTIONS if op.parts}
    quiet_ops = {op.name for op in INSTRUCTIONS if op.name.startswith('QUIET_')}
    vm, gen, pure, quiet = spans(VM), spans(GEN), spans(PURE), spans(QUIET)

    def lines(table, names):
        out = set()
        for n in names:
            a, b = table[n]
            out.update(range(a + 1, b + 1))
        return out

    def handlers(keep):
        return {VM: lines(vm, [n for n in vm if n.startswith('Machine.op_')
                               and keep(n[len('Machine.op_'):])]),
                GEN: lines(gen, [n for n in gen if n.startswith('op_') and keep(n[len('op_'):])])}

    def inline(keep):
        return inline_branches({op.code for op in INSTRUCTIONS if op.inline and keep(op.name)})
    plain = handlers(lambda n: n not in fused and n not in quiet_ops and n != 'PLAY_AGAIN'
                     and not n.endswith('_quiet'))
    plain[VM] |= inline(lambda n: n not in fused and n not in quiet_ops)
    super_ = handlers(lambda n: n in fused)
    super_[VM] |= inline(lambda n: n in fused)
    return {
        'loop': {VM: lines(vm, ['Machine._run'])},
        'handlers': plain,
        'superinstructions': super_,
        'rewrites': {GEN: lines(gen, ['op_PLAY_AGAIN'])},
        # (the closure factories run at load, for every program: not counted)
        'closures': {PURE: lines(pure, ['Pure.call', 'Pure.filter'])},
        'quiet': {GEN: lines(gen, [n for n in gen if n.endswith('_quiet')
                                   or n[len('op_'):] in quiet_ops]),
                  QUIET: lines(quiet, ['quiet_rounds']), VM: inline(lambda n: n in quiet_ops)},
    }


class Situations:
    """Wraps the VM's methods to note the situations each program reaches."""

    def __init__(self):
        self.seen = set()

    def install(self):
        from pipvm.engine import generated_cases, pure, vm
        from pipvm.engine.bodies import LOUD
        from pipvm.isa import opcodes
        M, seen = vm.Machine, self.seen
        patches = []

        def replace(owner, name, old, new):
            patches.append((owner, name, old))
            setattr(owner, name, new)
            for code, handler in list(vm.HANDLERS.items()):   # the loop's table holds them too
                if handler is old:
                    vm.HANDLERS[code] = new
        self.install_depths(replace)     # first: the wrappers below call these

        def wrap(owner, name, after):
            if not hasattr(owner, name):        # a handler made from the bodies
                owner = generated_cases
            old = getattr(owner, name)

            def new(*args):
                result = old(*args)
                after(result, *args)
                return result
            replace(owner, name, old, new)

        def wrap_before(owner, name, before):
            if not hasattr(owner, name):
                owner = generated_cases
            old = getattr(owner, name)

            def new(*args):
                before(*args)
                return old(*args)
            replace(owner, name, old, new)

        def canplay(_, m, stack, frame, rule):
            seen.add('canplay')
            m._reach_rule = rule
            if len(m.canplay_found) == 1:
                seen.add('canplay_value_one')
        wrap(M, 'op_CANPLAY', canplay)

        def canplay_jump(_, m, stack, frame, arg):
            seen.add('canplay')
            m._reach_rule = arg[0]
        wrap(M, 'op_CANPLAY_JUMP_IF_FALSE', canplay_jump)

        def play(_, m, stack, frame, rule):
            seen.add('play')
            if getattr(m, '_reach_rule', rule) != rule and m.canplay_found is not None:
                seen.add('play_after_canplay_other')
        wrap(M, 'op_PLAY', play)

        # the operands (player, destination) of the last CANPLAY and of the
        # first PLAY after it, by identity
        def canplay_operands(m, stack, frame, arg):
            m._reach_operands = (arg if type(arg) is int else arg[0], id(stack[-2]), id(stack[-1]))
        wrap_before(M, 'op_CANPLAY', canplay_operands)
        wrap_before(M, 'op_CANPLAY_JUMP_IF_FALSE', canplay_operands)

        def play_operands(m, stack, frame, rule):
            last, m._reach_operands = getattr(m, '_reach_operands', None), None
            if last and last[0] == rule and last[1:] != (id(stack[-2]), id(stack[-1])):
                seen.add('play_after_canplay_operands')
        wrap_before(M, 'op_PLAY', play_operands)

        def play_again(_, m, stack, frame, rule):
            seen.update(['play', 'play_after_canplay_same'])
        wrap(M, 'op_PLAY_AGAIN', play_again)
        old_evaluate = M.evaluate

        def evaluate(m, index, args):
            result = old_evaluate(m, index, args)
            if m.program.codes[index].kind == 'ordering' and len(set(map(id, result))) < len(result):
                seen.add('order_twice')
            return result
        patches.append((M, 'evaluate', old_evaluate))
        M.evaluate = evaluate

        def for_from(m, stack, frame, arg):
            lst, start = stack[-2], stack[-1]
            if lst and lst[0] != start and start in lst:
                seen.add('wrap')
        wrap_before(M, 'op_FOR_ITER_FROM', for_from)

        def filtered(_, fast, m, player, dest):
            seen.add('closure_pile_%d' % min(len(dest), 2))
            if fast.by_card is not None:
                try:
                    tests = fast.by_card([player, None, dest] + fast.pad + [m])
                except Exception:
                    return
                for card in player.hand:
                    if sum(getattr(card, prop) == value for prop, value in tests) >= 2:
                        seen.add('two_terms')
        wrap(pure.Pure, 'filter', filtered)

        def settled(rule, shapes, env):
            if rule is not None:
                seen.add('settled')
                if len(shapes.by_tests) >= 2:
                    seen.add('settled_two')
        wrap(pure.Shapes, 'rule', settled)

        def aggregate(closure, agg):
            def counted(env):
                seen.add('aggregate_closure')
                if agg >= opcodes.AGG_MAX:
                    seen.add('aggregate_closure_max_min')
                return closure(env)
            return counted
        old_aggregate = pure._Builder.b_Aggregate
        patches.append((pure._Builder, 'b_Aggregate', old_aggregate))
        pure._Builder.b_Aggregate = lambda builder, t: aggregate(old_aggregate(builder, t), t.agg)

        def quiet_message(result, *args):
            if result is LOUD:
                seen.add('quiet_fails')
        wrap(M, 'op_QUIET_MESSAGE', quiet_message)

        def quiet_loop(result, *args):
            if result is LOUD:
                seen.add('quiet_loop_hands_back')
        wrap(M, 'op_QUIET_LOOP', quiet_loop)
        self.patches = patches

    def install_depths(self, replace):
        """Note each generated handler's run, and whether a value lay under its operands."""
        from pipvm.engine import generated_cases
        from pipvm.isa.opcodes import BY_CODE
        self.depths = set()
        for code, old in list(generated_cases.HANDLERS.items()):
            op = BY_CODE[code]

            def new(m, stack, frame, arg, old=old, op=op):
                try:
                    pops = op.stack_pops((arg,))
                except TypeError:       # a fused operand tuple: its first part counts
                    pops = op.stack_pops(arg)
                self.depths.add((op.name, len(stack) > max(pops, 1)))
                return old(m, stack, frame, arg)
            replace(generated_cases, 'op_' + op.name, old, new)

    def decision(self, game):
        for a in game.machine.globals:
            if type(a).__name__ == 'Area' and a.is_squaredup and not a.is_facedown \
                    and len(a.cards) >= 2:
                self.seen.add('squared_up_2')


def each_case(seed, examples):
    """A function called once with each of the fuzz generator's first
    `examples` cases at `seed` (generation only: nothing is shrunk or kept)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed
    from tests.fuzz.programs import cases

    def wrap(fn):
        return settings(max_examples=examples, deadline=None, database=None,
                        phases=[Phase.generate], suppress_health_check=list(HealthCheck))(
            hseed(seed)(given(cases())(fn)))
    return wrap


def measure(seed, examples):
    import coverage
    cov = coverage.Coverage(data_file=None, include=[os.path.join(ROOT, p) for p in (VM, GEN, PURE, QUIET)])
    cov.start()
    from compiler.pip import frontend
    from pipvm.core.rng import OCamlRandom
    from pipvm.game.game import Game
    from tests.fuzz import harness
    from tests.fuzz.test_game_object import feed
    sit = Situations()
    sit.install()
    per_case = []

    @each_case(seed, examples)
    def run(case):
        k = len(per_case)
        cov.switch_context('case%d' % k)
        sit.seen.clear()
        sit.depths.clear()
        program = harness.compile_checked(frontend.check_text(case.source))
        for quiet in (False, True):
            game = Game(program, rng=OCamlRandom(case.seed), max_steps=harness.MAX_STEPS,
                        quiet=quiet)
            answers = list(case.answers)
            while answers and game.decision is not None:
                sit.decision(game)
                answers = feed(game, answers[:1]) + answers[1:]
        per_case.append((set(sit.seen), set(sit.depths)))
    run()
    cov.stop()
    data = cov.get_data()
    reached = {}
    for tier, files in tiers().items():
        hit = set()
        for path, lines in files.items():
            by_line = data.contexts_by_lineno(os.path.join(ROOT, path))
            for line in lines:
                hit.update(by_line.get(line, ()))
        reached[tier] = len({c for c in hit if c.startswith('case')})
    situations = {s: sum(s in seen for seen, _ in per_case) for s in SITUATIONS}
    depths = {}
    for _, ran in per_case:
        for name in {n for n, _ in ran}:
            depths.setdefault(name, [0, 0])[0] += 1
        for name in {n for n, deep in ran if deep}:
            depths[name][1] += 1
    return len(per_case), reached, situations, depths


def measure_edges(seed, examples):
    """{edge: (programs that draw it, programs whose watched game reaches it)}:
    the generator's edge values (programs.Builder.edges), each reached when
    its mark `~edge NAME` is shown (the statements after it then run)."""
    from compiler.pip import frontend
    from tests.fuzz import harness
    from tests.fuzz.programs import Builder
    counts = {e: [0, 0] for e in Builder.EDGES}
    total = []

    @each_case(seed, examples)
    def run(case):
        total.append(1)
        shown = harness.run(harness.vm_engine(frontend.check_text(case.source)),
                            case.seed, case.answers).transcript
        for e in Builder.EDGES:
            mark = '~edge %s' % e
            counts[e][0] += mark in case.source
            counts[e][1] += mark in shown
    run()
    return len(total), counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--examples', type=int, default=200)
    ap.add_argument('--edges', action='store_true',
                    help="only the generator's edge values (issue 58): drawn and reached")
    args = ap.parse_args()
    if args.edges:
        n, counts = measure_edges(args.seed, args.examples)
        print('%d programs, seed %d\n' % (n, args.seed))
        print('| edge | programs that draw it | reach it |\n| --- | --- | --- |')
        for e, (drawn, reached) in counts.items():
            print('| %s | %d (%.0f%%) | %d (%.0f%%) |' % (e, drawn, 100.0 * drawn / n,
                                                        reached, 100.0 * reached / n))
        return
    n, reached, situations, depths = measure(args.seed, args.examples)
    print('%d programs, seed %d\n' % (n, args.seed))
    print('| tier | programs that execute it |\n| --- | --- |')
    for tier, k in reached.items():
        print('| %s | %d (%.0f%%) |' % (tier, k, 100.0 * k / n))
    print('\n| situation | programs |\n| --- | --- |')
    for s, k in situations.items():
        print('| %s | %d (%.0f%%) |' % (SITUATIONS[s], k, 100.0 * k / n))
    from pipvm.engine import generated_cases
    print('\ngenerated handlers run: %d of %d; with a value under their operands: %d'
          % (len(depths), len(generated_cases.HANDLERS), sum(d > 0 for _, d in depths.values())))
    print('| handler | programs that run it | with a value under its operands |\n| --- | --- | --- |')
    for name, (k, d) in sorted(depths.items()):
        print('| %s | %d | %d |' % (name, k, d))
    from pipvm.isa.opcodes import BY_CODE
    print('never run:', ' '.join(sorted({BY_CODE[c].name for c in generated_cases.HANDLERS}
                                        - set(depths))))


if __name__ == '__main__':
    main()
