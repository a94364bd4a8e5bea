"""What tools/mutation.py mutates and what answers for each file: the mutants
of the target files (made deterministically with `ast`, applied to a file's
text) and, per file, the fuzz properties and suite tests run against them.

Both the runner (tools/mutation.py) and each mutant server
(tools/mutant_server.py) read it; neither imports the other's side.
"""
import ast
import collections
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

from fuzz_coverage import BELIEF, TARGETS  # noqa: E402  (one list of what the fuzzer answers for)


# Parts of the targets the differential fuzzer does not play through: it
# cannot see a fault there, other tests do.  qualified name prefix -> why
OUT_OF_SCOPE = {
    'pipvm/engine/vm.py': {
        'Machine.fork': 'copying a game: tests/fuzz/test_game_object.py tests it',
    },
}

# The fuzz properties that answer for each file (module of tests/fuzz,
# function), in the order they run against a mutant: the one that kills
# most, cheapest, first; the first failure stops the run.  The others cannot
# see a mutant of the file, or see it through these.
_VM = ('test_fuzz', 'test_vm_matches_reference')
_CLOSURES = ('test_pure', 'test_closures_match_the_loop')
_QUIET = ('test_game_object', 'test_a_quiet_game_plays_as_a_watched_one')
_UNSET = ('test_game_object', 'test_a_quiet_game_plays_as_a_watched_one_with_a_local_left_unset')
_FORK = ('test_game_object', 'test_a_fork_at_any_decision_plays_as_the_original')
_VIEWS = ('test_views', 'test_views_show_what_the_reference_table_lets_each_seat_see')
_WORLDS = ('test_views', 'test_determinization_as_bots_use_it')
_API = ('test_game_object', 'test_the_game_object_keeps_its_contract_with_drivers')
_SOLVE = ('test_relabel', 'test_relabel_solves_what_brute_force_solves')
_SOLVE_BUDGET = ('test_relabel', 'test_relabel_gives_up_within_its_budget')
_SEARCH = ('test_relabel', 'test_relabel_search_spends_what_its_order_and_checks_say')
_BELIEF = ('test_views', 'test_a_seats_belief_carried_through_a_game')
_PLAYOUTS = ('test_fuzz', 'test_playouts_on_the_compiled_tier_are_the_loop_s')
_HOSTILE = ('test_hostile_constants', 'test_hostile_constants_reach_the_compiled_tier_only_by_index')
PROPERTIES = {
    # (play_out's answers in the loop: _API; a hand-made file's unset local: _UNSET;
    # the shuffles a Dealer records and SetChoice.relabelled: _WORLDS)
    'pipvm/engine/vm.py': (_VM, _CLOSURES, _QUIET, _FORK, _API, _UNSET, _WORLDS),
    'pipvm/engine/copier.py': (_FORK, _API, _WORLDS),     # (a fork's copies)
    'pipvm/engine/generated_cases.py': (_VM, _CLOSURES, _QUIET, _FORK, _UNSET),
    'pipvm/engine/bodies.py': (_VM, _CLOSURES, _QUIET, _FORK),
    'pipvm/engine/fusion.py': (_VM, _QUIET),
    'pipvm/engine/pure.py': (_VM, _CLOSURES, _QUIET),
    'pipvm/engine/quiet.py': (_QUIET, _VM, _UNSET),
    # (_VM plays each program on the compiled tier too; _PLAYOUTS in play-out mode)
    'pipvm/engine/compiled.py': (_VM, _PLAYOUTS),
    # (actions.py runs only in play-out mode: _PLAYOUTS compares it with the
    # loop; _VM reaches it where a program's game is played out)
    'pipvm/engine/actions.py': (_PLAYOUTS, _VM),
    'pipvm/engine/fors.py': (_PLAYOUTS, _VM),       # (the loops of actions.py's functions)
    'pipvm/engine/answers.py': (_PLAYOUTS, _VM),    # (their decisions answered inline)
    'pipvm/engine/rules.py': (_VM, _PLAYOUTS),     # (the compiled tier's rules, run by both)
    # (the passes that write an action's function: _PLAYOUTS runs them all)
    **{part: (_PLAYOUTS, _VM) for part in ('pipvm/engine/inline.py', 'pipvm/engine/steps.py',
                                           'pipvm/engine/rewrites.py', 'pipvm/engine/reach.py',
                                           'pipvm/engine/reads.py', 'pipvm/engine/joins.py',
                                           'pipvm/engine/quiet_written.py', 'pipvm/engine/lines.py',
                                           'pipvm/engine/sizes.py', 'pipvm/engine/kinds.py',
                                           'pipvm/engine/steady.py')},
    # (_HOSTILE makes every loop's region and plays with them in place, as
    # the loop; _VM's games make one only where a block is hot: HOT calls)
    'pipvm/engine/regions.py': (_HOSTILE, _VM, _PLAYOUTS),
    'pipvm/engine/local_names.py': (_HOSTILE, _VM, _PLAYOUTS),     # (regions.py's passes)
    'pipvm/engine/sums.py': (_HOSTILE, _VM, _PLAYOUTS),     # (regions.py's and rewrites.py's)
    'pipvm/engine/cases.py': (_VM, _PLAYOUTS),      # (its composing, the tier's at run time)
    'pipvm/isa/instructions.py': (_VM, _PLAYOUTS),
    'pipvm/core/runtime.py': (_VM,),
    'compiler/codegen/generator.py': (_VM,),
    # (_VM plays the table through game.Game: the set-up questions, the endings)
    'pipvm/game/game.py': (_API, _VM, _FORK, _QUIET, _WORLDS, _VIEWS),
    'pipvm/game/view.py': (_VIEWS,),
    'pipvm/game/determinize.py': (_WORLDS, _VIEWS),
    **{part: (_WORLDS, _BELIEF) for part in BELIEF},
    'pipvm/game/relabel.py': (_SOLVE, _SOLVE_BUDGET, _SEARCH, _WORLDS, _BELIEF),
}

# The tests of the belief package's parts, one file per behaviour.
BELIEF_TESTS = sorted('tests/' + name for name in os.listdir(os.path.join(ROOT, 'tests'))
                      if name.startswith('test_belief_') and name.endswith('.py'))


# (minutes each: run after the belief's quicker unit tests)
_SLOW_BELIEF_TESTS = ['tests/test_belief_distribution.py']


def _own_first(part, tests):
    """tests with the belief part's own files (test_belief_PART*.py) first."""
    stem = 'tests/test_belief_' + os.path.basename(part)[:-3]
    own = [t for t in tests if t.startswith(stem)]
    return own + [t for t in tests if t not in own]


# The rest of the suite that answers for each file: run (with --suite) on the
# mutants the fuzz properties leave alive.
SUITE = {
    'pipvm/engine/vm.py': ['tests/test_vm.py', 'tests/test_run.py', 'tests/test_regressions.py',
                           'tests/test_fusion.py', 'tests/test_pipc.py', 'tests/test_game.py',
                           'tests/test_extensions.py', 'tests/test_ext_options.py',
                           'tests/test_ext_sets.py', 'tests/test_determinization.py',
                           'tests/test_quiet.py',
                           # (the play-out paths: a compiled action called from the loop)
                           'tests/test_compiled_playouts.py', 'tests/test_sim_playout.py',
                           # (_regions: a hot block's loop made a region)
                           'tests/test_regions.py',
                           # (_answer_auto: a playout from a pending decision of each kind)
                           'tests/test_play_out_pending.py',
                           'tests/test_loop_handlers.py'],
    # (test_copier_mutants: the paths no fork of the suite's games takes)
    'pipvm/engine/copier.py': ['tests/test_copier.py', 'tests/test_copier_mutants.py',
                               'tests/test_game.py', 'tests/test_determinization.py',
                               'tests/test_ext_sets.py', 'tests/test_ext_options.py'],
    # the handlers and closure factories run for every program, the
    # extensions' (aggregates, sets, options) for theirs
    # (test_generated_cases_mutants first: what the rest leaves alive)
    'pipvm/engine/generated_cases.py': ['tests/test_generated_cases_mutants.py',
                                        'tests/test_vm.py', 'tests/test_run.py',
                                        'tests/test_regressions.py', 'tests/test_fusion.py',
                                        'tests/test_shapes.py', 'tests/test_extensions.py',
                                        'tests/test_ext_sets.py', 'tests/test_game.py',
                                        'tests/test_loop_handlers.py', 'tests/test_deal_each.py'],
    # (test_deal: wild_suit's cards, by place in a dealt deck and card by card)
    'pipvm/engine/bodies.py': ['tests/test_vm.py', 'tests/test_run.py', 'tests/test_regressions.py',
                               'tests/test_extensions.py', 'tests/test_game.py', 'tests/test_deal.py'],
    # (test_fusion_mutants first: deals_each's dealing loops and loaded's default,
    # which no game of the rest tells apart)
    'pipvm/engine/fusion.py': ['tests/test_fusion_mutants.py', 'tests/test_fusion.py',
                               'tests/test_deal_each.py', 'tests/test_vm.py', 'tests/test_run.py'],
    # (test_pure_mutants first: the compiled tier's side of a Pure, which the rest never calls)
    'pipvm/engine/pure.py': ['tests/test_pure_mutants.py', 'tests/test_vm.py', 'tests/test_run.py',
                             'tests/test_regressions.py', 'tests/test_shapes.py'],
    # (test_quiet_mutants: hand-made code the compiler never writes)
    'pipvm/engine/quiet.py': ['tests/test_vm.py', 'tests/test_sim.py', 'tests/test_game.py',
                              'tests/test_quiet.py', 'tests/test_quiet_mutants.py'],
    # (test_regions: the hotness compiled.py gives a loop's blocks, in_for_nests;
    # test_compiled_quiet, _faults, _hot: the quiet variant's blocks, a block's errors, hotness)
    'pipvm/engine/compiled.py': ['tests/test_compiled_blocks.py', 'tests/test_compiled.py',
                                 'tests/test_run.py', 'tests/test_regions.py',
                                 'tests/test_compiled_quiet.py', 'tests/test_compiled_faults.py',
                                 'tests/test_compiled_hot.py', 'tests/test_compiled_mutants.py'],
    # the tests that play out (Game.play_out, a simulation's random seats, cut playouts)
    'pipvm/engine/actions.py': ['tests/test_actions_sweep.py',
                                'tests/test_compiled_playouts.py', 'tests/test_actions.py',
                                'tests/test_sim_playout.py',
                                'tests/test_cut_playouts.py', 'tests/test_game.py',
                                'tests/test_actions_mutants.py'],
    'pipvm/engine/fors.py': ['tests/test_actions_sweep.py', 'tests/test_loop_fors.py', 'tests/test_compiled_playouts.py',
                             'tests/test_reused_reads.py', 'tests/test_sim_playout.py',
                             'tests/test_fors_mutants.py'],
    'pipvm/engine/answers.py': ['tests/test_actions_sweep.py', 'tests/test_reused_reads.py', 'tests/test_compiled_playouts.py',
                                'tests/test_sim_playout.py', 'tests/test_ask_tables.py'],
    'pipvm/engine/rules.py': ['tests/test_rules.py', 'tests/test_rules_mutants.py', 'tests/test_compiled.py',
                              'tests/test_run.py'],
    'pipvm/engine/inline.py': ['tests/test_actions_sweep.py', 'tests/test_inline.py',
                               'tests/test_compiled_playouts.py', 'tests/test_actions.py',
                               'tests/test_inline_mutants.py'],
    'pipvm/engine/steps.py': ['tests/test_actions_sweep.py', 'tests/test_steps.py',
                              'tests/test_compiled_playouts.py', 'tests/test_actions.py'],
    'pipvm/engine/reach.py': ['tests/test_actions_sweep.py', 'tests/test_reach.py',
                              'tests/test_compiled_playouts.py', 'tests/test_actions.py',
                              'tests/test_reach_mutants.py'],
    'pipvm/engine/rewrites.py': ['tests/test_actions_sweep.py', 'tests/test_reused_reads.py',
                                 'tests/test_compiled_playouts.py', 'tests/test_actions.py',
                                 'tests/test_rewrites_mutants.py'],
    # (joins are made only where an action's budget of copies runs out: Oh Hell's bidding)
    'pipvm/engine/joins.py': ['tests/test_actions_sweep.py', 'tests/test_joins.py',
                              'tests/test_compiled_playouts.py', 'tests/test_actions.py',
                              'tests/test_joins_mutants.py'],
    'pipvm/engine/quiet_written.py': ['tests/test_actions_sweep.py', 'tests/test_compiled_quiet.py',
                                      'tests/test_compiled_playouts.py', 'tests/test_actions.py',
                                      'tests/test_actions_mutants.py', 'tests/test_kinds.py',
                                      'tests/test_quiet_written_mutants.py'],
    # (its callers: inline.py, reads.py, joins.py, actions.py)
    'pipvm/engine/lines.py': ['tests/test_actions_sweep.py', 'tests/test_inline_mutants.py',
                              'tests/test_reused_reads.py', 'tests/test_joins.py',
                              'tests/test_inline.py', 'tests/test_reads.py', 'tests/test_actions.py',
                              'tests/test_compiled_playouts.py', 'tests/test_lines_mutants.py'],
    'pipvm/engine/sizes.py': ['tests/test_actions_sweep.py', 'tests/test_sizes.py',
                              'tests/test_compiled_playouts.py', 'tests/test_actions.py',
                              'tests/test_sizes_mutants.py'],
    # (its answer picks the quiet loops actions._Writer writes: test_kinds reads them)
    'pipvm/engine/kinds.py': ['tests/test_kinds.py', 'tests/test_kinds_mutants.py',
                              'tests/test_actions_sweep.py',
                              'tests/test_compiled_quiet.py', 'tests/test_compiled_playouts.py',
                              'tests/test_actions.py'],
    'pipvm/engine/steady.py': ['tests/test_steady.py', 'tests/test_reused_reads.py',
                               'tests/test_actions_sweep.py', 'tests/test_compiled_playouts.py'],
    'pipvm/engine/reads.py': ['tests/test_actions_sweep.py', 'tests/test_reused_reads.py',
                              'tests/test_reads.py', 'tests/test_regions.py', 'tests/test_actions.py',
                              'tests/test_reads_mutants.py'],
    # the tests that make regions (compiled.HOT lowered) and run them
    'pipvm/engine/regions.py': ['tests/test_actions_sweep.py', 'tests/test_regions.py', 'tests/test_compiled.py',
                                'tests/test_compiled_blocks.py', 'tests/test_regions_mutants.py'],
    'pipvm/engine/sums.py': ['tests/test_sums.py', 'tests/test_rewrites_mutants.py',
                             'tests/test_regions.py', 'tests/test_compiled_playouts.py'],
    'pipvm/engine/local_names.py': ['tests/test_local_names.py', 'tests/test_regions.py',
                                    'tests/test_regions_mutants.py', 'tests/test_compiled.py',
                                    'tests/test_compiled_blocks.py'],
    # (test_cases.py regenerates the checked-in code with the mutant: any
    # change of what compose writes for the loop shows there)
    'pipvm/engine/cases.py': ['tests/test_compiled.py', 'tests/test_compiled_playouts.py',
                              'tests/test_cases.py', 'tests/test_run.py',
                              'tests/test_cases_mutants.py', 'tests/test_cases_swap.py'],
    # (test_cases regenerates the code from the table; test_instructions_mutants:
    # _op's and _fused's checks and the names and flags no generated line shows)
    'pipvm/isa/instructions.py': ['tests/test_cases.py', 'tests/test_effects.py',
                                  'tests/test_pipc.py', 'tests/test_instructions_mutants.py',
                                  'tests/test_compiled.py', 'tests/test_compiled_playouts.py'],
    'pipvm/core/runtime.py': ['tests/test_vm.py', 'tests/test_run.py', 'tests/test_regressions.py'],
    # (the corpus, the engines' table and the extensions' programs: what each statement compiles to)
    'compiler/codegen/generator.py': ['tests/test_vm.py', 'tests/test_run.py', 'tests/test_regressions.py',
                                      'tests/test_corpus.py', 'tests/test_engines.py',
                                      'tests/test_extensions.py', 'tests/test_ext_options.py',
                                      'tests/test_ext_sets.py', 'tests/test_ext_params.py',
                                      'tests/test_ext_endings.py', 'tests/test_ext_areas.py',
                                      'tests/test_ext_groups.py', 'tests/test_generator_mutants.py'],
    # (each test_*_mutants.py first: its quick tests kill what the rest leaves alive)
    'pipvm/game/game.py': ['tests/test_game_mutants.py', 'tests/test_game.py', 'tests/test_bots.py',
                           'tests/test_seats.py'],
    'pipvm/game/view.py': ['tests/test_view_mutants.py', 'tests/test_game.py', 'tests/test_bots.py',
                           'tests/test_web_api.py', 'tests/test_extensions.py'],
    'pipvm/game/determinize.py': ['tests/test_determinize_mutants.py', 'tests/test_game.py',
                                  'tests/test_bots.py', 'tests/test_determinization.py'],
    # (the package was split into BELIEF's modules: the test_belief_*.py files
    # written for them each play a Belief through most of them; a part's own
    # files first, test_belief_PART*.py, then the other quick ones, and the
    # pinned beliefs and the distribution last: they take minutes to reach
    # what they kill (walk.py's 114 mutants 3-10 s each after; repairs.py's
    # and replay.py's, whose own tests are named for behaviours, about 540 s
    # each with the pinned first))
    **{part: _own_first(part, [t for t in BELIEF_TESTS if t not in _SLOW_BELIEF_TESTS] +
                        ['tests/test_beliefs_pinned.py', 'tests/test_beliefs.py'] +
                        _SLOW_BELIEF_TESTS + ['tests/test_determinization.py', 'tests/test_game.py',
                                              'tests/test_bots.py', 'tests/test_bots_reuse.py'])
       for part in BELIEF},
    'pipvm/game/relabel.py': ['tests/test_relabel.py', 'tests/test_beliefs.py',
                              'tests/test_determinization.py',
                              'tests/test_ext_sets.py'],
}


# The suite tests that kill most of a file's mutants quickest: a sweep of
# every example on the whole compiled tier against the loop.  For these
# files the suite runs first (tools/mutation.py: --suite --suite-first by
# default), these of its tests before the others.
QUICK = {path: ['tests/test_actions_sweep.py'] for path in (
    'pipvm/engine/actions.py', 'pipvm/engine/fors.py', 'pipvm/engine/answers.py',
    'pipvm/engine/regions.py', 'pipvm/engine/inline.py', 'pipvm/engine/steps.py',
    'pipvm/engine/rewrites.py', 'pipvm/engine/reach.py', 'pipvm/engine/reads.py',
    'pipvm/engine/joins.py', 'pipvm/engine/quiet_written.py', 'pipvm/engine/lines.py',
    'pipvm/engine/sizes.py', 'pipvm/engine/kinds.py', 'pipvm/engine/steady.py',
    'pipvm/engine/local_names.py')}


TESTS_VARIABLE = 'PIPVM_MUTATION_TESTS'     # --tests, handed to the servers


def suite_tests(path):
    """The suite tests run on path's mutants: SUITE's, or those --tests named."""
    named = os.environ.get(TESTS_VARIABLE)
    return named.split('\n') if named else SUITE[path]

_SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
             ast.Mod: ast.FloorDiv, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd}
_SWAP_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
             ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
             ast.In: ast.NotIn, ast.NotIn: ast.In}


# --- making mutants -------------------------------------------------------------

def _docstrings(tree):
    """ids of the string constants that are docstrings (never mutated)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first))
                out.add(id(first.value))
    return out


def _scopes(tree):
    """{id(node): qualified name of its innermost function or class}."""
    out = {}

    def visit(node, name):
        for child in ast.iter_child_nodes(node):
            inner = name
            if isinstance(child, (ast.FunctionDef, ast.ClassDef)):
                inner = (name + '.' if name else '') + child.name
            out[id(child)] = inner
            visit(child, inner)
    visit(tree, '')
    return out


def _edits(node):
    """[(description, function that edits this node in place)] for one node."""
    out = []
    kind = type(node)
    if kind is ast.BinOp and type(node.op) in _SWAP_BIN:
        new = _SWAP_BIN[type(node.op)]
        out.append(('%s -> %s' % (type(node.op).__name__, new.__name__),
                    lambda n, new=new: setattr(n, 'op', new())))
    elif kind is ast.Compare:
        for i, op in enumerate(node.ops):
            if type(op) in _SWAP_CMP:
                new = _SWAP_CMP[type(op)]

                def swap(n, i=i, new=new):
                    n.ops[i] = new()
                out.append(('%s -> %s' % (type(op).__name__, new.__name__), swap))
    elif kind is ast.BoolOp:
        new = ast.Or if type(node.op) is ast.And else ast.And
        out.append(('%s -> %s' % (type(node.op).__name__, new.__name__),
                    lambda n, new=new: setattr(n, 'op', new())))
    elif kind is ast.UnaryOp and type(node.op) in (ast.Not, ast.USub):
        out.append(('drop %s' % type(node.op).__name__, 'unwrap'))
    elif kind is ast.Constant:
        v = node.value
        if type(v) is bool:
            out.append(('%r -> %r' % (v, not v), lambda n: setattr(n, 'value', not n.value)))
        elif type(v) is int:
            out.append(('%d -> %d' % (v, v + 1), lambda n: setattr(n, 'value', n.value + 1)))
            out.append(('%d -> %d' % (v, v - 1), lambda n: setattr(n, 'value', n.value - 1)))
        elif type(v) is str:
            out.append(('string %r changed' % v[:20], lambda n: setattr(n, 'value', n.value + '!')))
    elif kind is ast.Subscript:
        s = node.slice
        if isinstance(s, ast.Slice):
            for part in ('lower', 'upper'):
                if getattr(s, part) is not None and not isinstance(getattr(s, part), ast.Constant):
                    out.append(('slice %s + 1' % part,
                                lambda n, part=part: setattr(n.slice, part, _plus_one(getattr(n.slice, part)))))
        elif not isinstance(s, (ast.Constant, ast.Tuple)):
            out.append(('index + 1', lambda n: setattr(n, 'slice', _plus_one(n.slice))))
    elif kind is ast.Call and len(node.args) >= 2 and not any(
            isinstance(a, ast.Starred) for a in node.args[:2]):
        def swap_args(n):
            n.args[0], n.args[1] = n.args[1], n.args[0]
        out.append(('swap arguments 1 and 2', swap_args))
    return out


def _plus_one(expr):
    return ast.BinOp(expr, ast.Add(), ast.Constant(1))


def _statements(tree, docstrings):
    """Statements that can be removed: (parent body, index) for each."""
    for node in ast.walk(tree):
        for field in ('body', 'orelse', 'finalbody'):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            for i, stmt in enumerate(body):
                if (isinstance(stmt, ast.stmt) and id(stmt) not in docstrings
                        and not isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.Import,
                                                  ast.ImportFrom, ast.Pass, ast.Global))):
                    yield node, field, i, stmt


def mutants_of(path, text=None):
    """[mutant dict] for one file (its text: the tree's, or text, as at another
    commit), in a fixed order.  A mutant is named by its file, line, column and
    what it does; applying it re-parses the file and edits the node found by
    the same walk."""
    if text is None:
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            text = f.read()
    tree = ast.parse(text)
    docstrings = _docstrings(tree)
    scopes = _scopes(tree)
    wanted = TARGETS[path]
    skip = OUT_OF_SCOPE.get(path, {})

    def keep(node):
        name = scopes.get(id(node), '')
        if any(name == p or name.startswith(p + '.') for p in skip):
            return False
        return wanted is None or name.split('.')[0] in wanted

    out, named = [], collections.Counter()
    holder = _enclosing(tree)

    def add(node, what, how):
        s = holder.get(id(node), node)
        name = '%s:%d:%d:%s' % (path, node.lineno, node.col_offset, what)
        named[name] += 1
        if named[name] > 1:
            # (nodes that start at one place, `a + b + c`'s two additions, or
            # `a <= x <= b`'s two comparisons: each edit an id of its own, the
            # first keeping the plain one)
            name += ' (%d)' % named[name]
        out.append({'id': name,
                    'file': path, 'line': node.lineno, 'what': what, 'how': how,
                    'span': [s.lineno, s.end_lineno]})
    for k, node in enumerate(ast.walk(tree)):
        if id(node) in docstrings or not keep(node) or not hasattr(node, 'lineno'):
            continue
        for j, (what, _) in enumerate(_edits(node)):
            add(node, what, ('node', k, j))
    for _, _, _, stmt in _statements(tree, docstrings):
        if keep(stmt):
            add(stmt, 'remove `%s`' % ast.unparse(stmt).split('\n')[0][:40],
                ('stmt', stmt.lineno, stmt.col_offset))
    return out


def _enclosing(tree):
    """{id(node): the innermost statement holding it (itself, for a statement;
    for a `nonlocal` declaration, its function's def: it runs no line of its
    own, so a mutant removing it is reached wherever the function runs)}."""
    out = {}

    def visit(node, stmt):
        for child in ast.iter_child_nodes(node):
            inner = (stmt if isinstance(child, ast.Nonlocal)
                     else child if isinstance(child, ast.stmt) else stmt)
            out[id(child)] = inner
            visit(child, inner)
    visit(tree, None)
    return out


def apply(mutant, text):
    """The text of the file with the mutant applied (None if it changes nothing)."""
    tree = ast.parse(text)
    how = mutant['how']
    if how[0] == 'node':
        _, k, j = how
        node = list(ast.walk(tree))[k]
        _, edit = _edits(node)[j]
        if edit == 'unwrap':
            _replace(tree, node, node.operand)
        else:
            edit(node)
    else:
        _, line, col = how
        docstrings = _docstrings(tree)
        for parent, field, i, stmt in _statements(tree, docstrings):
            if (stmt.lineno, stmt.col_offset) == (line, col):
                getattr(parent, field)[i] = ast.Pass()
                break
    new = ast.unparse(ast.fix_missing_locations(tree))
    return None if new == ast.unparse(ast.parse(text)) else new


def _replace(tree, old, new):
    for node in ast.walk(tree):
        for field, value in ast.iter_fields(node):
            if value is old:
                setattr(node, field, new)
                return
            if isinstance(value, list):
                for i, v in enumerate(value):
                    if v is old:
                        value[i] = new
                        return


def all_mutants(only=None):
    out = []
    for path in TARGETS:
        if only is None or path in only:
            out += mutants_of(path)
    return out
