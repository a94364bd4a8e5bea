"""The compiled tier's rules and orderings as generated functions
(pipvm/engine/rules.py): the same cards and values as pure.py's closures,
the loop's errors, only the table's text in their source."""
import copy
import io
import itertools
import os
import pickle
import re
import random
import tokenize

from compiler.pip import frontend
from pipvm.core.errors import PipError
from pipvm.core.runtime import PROPERTY_NAMES, RANKS, SUITS, new_deck
from pipvm.engine import actions, filters, pure, vm
from pipvm.engine import rules as rules_module
from pipvm.engine.expressions import Binary, If, Leaf, Unary
from pipvm.game.game import Game
from pipvm.isa import pipc
from pipvm.isa.instructions import INSTRUCTIONS, MACROS
from pipvm.play import loader
from tests import test_shapes
from tests.fuzz import hand_made, harness

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = ('crazy_eights', 'euchre', 'oh_hell', 'go_fish_ext', 'president_sets', 'spades')


def _strings(text):
    return {t.string for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type == tokenize.STRING}


def _filtered(fast, machine, player, dest):
    try:
        return [c.name for c in fast.filter(machine, player, dest)]
    except Exception as e:          # (the caller then runs the loop, which raises it)
        return type(e)


def test_a_rule_s_generated_filter_allows_the_closures_cards():
    table = _strings('\n'.join([op.body for op in INSTRUCTIONS if op.body]
                               + list(MACROS.values())))
    compared = generated = 0
    for name in GAMES:
        program = loader.load_program(os.path.join(ROOT, 'examples', name + '.pip'))
        closures, tier, rules = _closures_tier_rules(program)
        for k in rules:
            for f in (pure.written(tier.pure[k]).fn, tier.pure[k].hand):
                if hasattr(f, 'source'):
                    generated += 1
                    assert _strings(f.source) <= table, f.source
        for m in _machines(tier, seed=3, decisions=60):
            for k in rules:
                for player in m.players:
                    for dest in [player.hand] + [v.cards for v in m.globals
                                                 if type(v) is vm.Area]:
                        got = _filtered(tier.pure[k], m, player, dest)
                        assert got == _filtered(closures.pure[k], m, player, dest), (name, k)
                        compared += 1
    assert generated > 10 and compared > 1000


def _closures_tier_rules(program):
    """The program's images on the closures and on the tier, and its rules
    the tier has a Pure for."""
    closures, tier = vm.Image(program), vm.Image(program, compiled=True)
    rules = [k for k, c in enumerate(program.codes) if c.kind == 'rule'
             and tier.pure[k] is not None]
    return closures, tier, rules


def _machines(image, seed, decisions):
    """The machine at each of a quiet game's first decisions, answered at random."""
    program = image.program
    players = program.counts[0] * (program.team_size or 1)
    g = Game(image, seed=seed, players=players, names=['P%d' % i for i in range(players)],
             quiet=True)
    rng = random.Random(seed)
    for _ in range(decisions):
        if g.decision is None:
            return
        yield g.machine
        g.answer(rng.randrange(len(g.decision.options)))


def _ending(program, compiled):
    g = Game(vm.Image(program, compiled=compiled), seed=1, players=2, names=['a', 'b'])
    while g.decision is not None:
        g.answer(0)
    return g.events, str(g.ending.error)


def test_a_generated_rule_that_fails_gives_the_loop_s_error():
    # `x` is undefined when the rule reads it for a card that is not an ace:
    # the generated filter fails and the loop raises the error at its place
    program = harness.compile_checked(frontend.check_text(
        'Game "g" requires 2 players.\nArea table labeled "Table" is faceup.\nNumber x.\n'
        'Rule r(p, c, pile) =\n  c->rank == A or c->rank == x.\n'
        'Action main {\n  deal 5 from standard to players.\n'
        '  play r from players->first to table.\n}\n'))
    image = vm.Image(program, compiled=True)
    assert any(hasattr(pure.written(fast).hand, 'source') for fast in image.pure
               if fast is not None)
    # (the filter without the global's checks is there, for when it is defined)
    assert any('if g' in getattr(pure.written(fast).hand, 'source', '') for fast in image.pure
               if fast)
    loop = _ending(program, False)
    assert 'Undefined value' in loop[1] and 'Line 5' in loop[1]
    assert _ending(program, True) == loop


def _hoisting(rule, globals_=''):
    """A program whose rule r(p, c, pile) is rule (after the declarations
    globals_), played from the first player's hand to an empty table."""
    return harness.compile_checked(frontend.check_text(
        'Game "g" requires 2 players.\nArea table labeled "Table" is faceup.\n' + globals_
        + 'Rule r(p, c, pile) =\n  %s.\n' % rule + 'Action main {\n  deal 5 from standard to players.\n'
        '  play r from players->first to table.\n}\n'))


def test_a_filter_computes_the_card_free_part_once_and_fails_where_the_loop_does():
    # `pile->top->suit` does not read the card: computed once before the
    # cards' loop; on the empty table it fails, and the error is the loop's,
    # at its place, when a card reaches it
    program = _hoisting('c->rank == A or c->suit == pile->top->suit')
    image = vm.Image(program, compiled=True)
    sources = [getattr(pure.written(fast).hand, 'source', '') for fast in image.pure if fast]
    assert any('    h1 = ' in s and 'is h1' in s for s in sources), sources
    loop = _ending(program, False)
    assert "Can't get item from empty list" in loop[1] and 'Line 4' in loop[1]
    assert _ending(program, True) == loop


def test_a_card_free_part_no_card_reaches_is_no_error():
    # the first test holds for every card: the loop never reads the empty
    # table's top card, so neither may the filter fail for it
    program = _hoisting('c->rank == c->rank or c->suit == pile->top->suit')
    loop = _ending(program, False)
    assert loop[1] == 'None' and loop == _ending(program, True)
    with_cards = _hoisting('c->rank == c->rank or c->suit == p->hand->top->suit')
    assert _ending(with_cards, True) == _ending(with_cards, False)


def _written_alike(globals_, rule, *shown):
    """The one rule of a small game (rule: its text) is written as a
    generated filter whose source shows each of shown, and gives the
    closures' cards (never an error) at 20 deals; the game ends alike."""
    program = _hoisting(rule, globals_)
    closures, tier = vm.Image(program), vm.Image(program, compiled=True)
    written = [k for k, fast in enumerate(tier.pure)
               if fast is not None and hasattr(pure.written(fast).hand, 'source')]
    assert len(written) == 1, written
    k = written[0]
    for text in shown:
        assert text in tier.pure[k].hand.source, tier.pure[k].hand.source
    assert hasattr(tier.pure[k].fn, 'source')          # (its value, as canplay reads it)
    for seed in range(20):
        m = Game(tier, seed=seed, players=2, names=['a', 'b'], quiet=True).machine
        for player in m.players:
            got = _filtered(tier.pure[k], m, player, player.hand)
            assert type(got) is list and got == _filtered(closures.pure[k], m, player, player.hand)
            for card in player.hand:
                args = [player, card, player.hand]
                assert _value(tier.pure[k], m, args) == _value(closures.pure[k], m, args)
    assert _ending(program, True) == _ending(program, False)


def _read_once(rule, reads):
    """The rule's generated filter reads card.rank `reads` times in its
    loop, and allows the closures' cards, called itself, at 20 shuffled deals."""
    program = harness.compile_checked(frontend.check_text(
        'Game "g" requires 2 players.\nDeck d = standard.\nArea table labeled "Table" is faceup.\n'
        'Rule r(p, c, pile) =\n  %s.\n' % rule + 'Action main {\n  shuffle d.\n'
        '  deal 9 from d to players.\n  play r from players->first to table.\n}\n'))
    closures, tier = vm.Image(program), vm.Image(program, compiled=True)
    (k,) = [k for k, fast in enumerate(tier.pure)
            if fast is not None and hasattr(pure.written(fast).hand, 'source')]
    source = tier.pure[k].hand.source
    loop = [line for line in source.splitlines() if line.lstrip().startswith('if (')][0]
    assert loop.count('card.rank') == reads, source
    for seed in range(20):
        m = Game(tier, seed=seed, players=2, names=['a', 'b'], quiet=True).machine
        for player in m.players:
            got = [c.name for c in tier.pure[k].hand(m, player, player.hand)]
            assert got == _filtered(closures.pure[k], m, player, player.hand), source


def test_a_filter_reads_a_card_s_property_once_where_every_path_has_read_it():
    # c->rank, read first on every path, is read once: the second test
    # compares the first read's local
    _read_once('c->rank == A or c->suit == H or c->rank == K', 1)
    # read first where it may not be (the right of an `and`), it is read
    # again after it: the last card's value would allow wrong cards
    _read_once('(c->suit == H and c->rank == A) or c->rank == K', 2)


def _value(fast, machine, args):
    try:
        return fast.call(machine, args)
    except Exception as e:          # (the caller then runs the loop, which raises it)
        return type(e)


def test_a_rule_with_an_aggregate_is_written_around_the_aggregate_s_closure():
    # the aggregate is no one expression: the written rule calls its
    # closure (A[k](env)) and writes the rest inline
    _written_alike('', 'c->rank == A or c->rank == (max d in p->hand of d->rank)', '](env)', ' == ')


def test_a_rule_reading_the_machine_is_written_with_the_machine_from_its_environment():
    # MAKE_CARD's body reads `machine` (its deck): the rule's `m`
    _written_alike('Rank chosen = K.\n', 'c == chosen~H or c->rank == A', 'card_of(m.deck, ')


def test_a_hand_made_rule_s_branches_are_written_as_the_closures_take_them():
    # a hand-made .pipc may hold JUMP_IF_FALSE, DUP, POP and SWAP in a rule
    # (tests/fuzz/hand_made.py rewrites the compiler's code so): the branch
    # is an If node, written as Python's conditional expression, and the
    # generated filter gives the closures' cards in every state of a game
    branched = compared = 0
    for name in ('crazy_eights', 'euchre', 'spades'):
        program = hand_made.rewritten(
            loader.load_program(os.path.join(ROOT, 'examples', name + '.pip')),
            random.Random(1).randrange)
        closures, tier, rules = _closures_tier_rules(program)
        for k in rules:
            tree = tier.pure[k].fn.__self__.tree        # (_Unwritten's, before it is written)
            if any(type(t) is If for t in rules_module._nodes(tree)):
                branched += hasattr(pure.written(tier.pure[k]).hand, 'source')
        for m in _machines(tier, seed=5, decisions=40):
            for k in rules:
                for player in m.players:
                    got = _filtered(tier.pure[k], m, player, player.hand)
                    assert got == _filtered(closures.pure[k], m, player, player.hand), (name, k)
                    compared += 1
    assert branched >= 3 and compared > 300


def test_a_rule_the_writer_refuses_runs_as_its_closures():
    # an aggregate whose `where` holds an `or` keeps a value in a scratch
    # slot inside the aggregate's closure, which a generated function
    # cannot read: neither the rule's value nor its filter is written, and
    # the rule plays as its closures (no error where they give cards)
    program = _hoisting('(count x in p->hand where x->suit == H or x->rank == A) > 1 '
                        'or c->rank == A')
    closures, tier = vm.Image(program), vm.Image(program, compiled=True)
    (k,) = [k for k, fast in enumerate(tier.pure) if fast is not None]
    fast = pure.written(tier.pure[k])
    assert fast.hand is None and not hasattr(fast.fn, 'source')
    for seed in range(10):
        m = Game(tier, seed=seed, players=2, names=['a', 'b'], quiet=True).machine
        for player in m.players:
            got = _filtered(tier.pure[k], m, player, player.hand)
            assert type(got) is list and got == _filtered(closures.pure[k], m, player, player.hand)
    assert _ending(program, True) == _ending(program, False)


def test_a_rule_with_a_card_constant_reads_it_from_the_machine_s_constants():
    # a card is read by index from the machine's consts (the verifier
    # checked the index), as CONST's body reads it, never written as text
    _written_alike('', 'c == 3~C or c->rank == A', '(card == (consts[')


def test_a_rule_asking_whether_a_property_is_defined_reads_it_by_its_name():
    # DEFINED_PROP's operand is a property's number, written as the
    # runtime's name (card.last_played_by), as LOAD_PROP's: the card's
    # last player is undefined until it is played
    _written_alike('', 'defined c->last_played_by or c->rank == A', '.last_played_by is not None')



def test_an_ordering_s_generated_function_gives_the_closures_cards():
    # tests/data/run/order.pip's orderings: a rank-and-suit pattern, a
    # constant list of cards and an empty one (LIST_CONST's value, read by
    # index as a new list, as the closures make one); each written, each
    # giving the closures' cards
    program = loader.load_program(os.path.join(ROOT, 'tests', 'data', 'run', 'order.pip'))
    closures, tier = vm.Image(program), vm.Image(program, compiled=True)
    orderings = [k for k, c in enumerate(program.codes) if c.kind == 'ordering']
    sources = [getattr(pure.written(tier.pure[k]).fn, 'source', None) for k in orderings]
    assert len(orderings) == 3 and None not in sources, sources
    assert sum('list(A[' in s for s in sources) == 2, sources
    m = Game(tier, seed=1, players=2, names=['a', 'b'], quiet=True).machine
    for k in orderings:
        got = _value(tier.pure[k], m, [m.players[0].hand])
        assert type(got) is list and got == _value(closures.pure[k], m, [m.players[0].hand])


def test_a_rule_reading_a_constant_and_a_global_reads_both_from_the_machine_at_once():
    _written_alike('Rank chosen = K.\n', 'c == 3~C or c->rank == chosen', '(card == (consts[',
                   '    consts, globals_ = m.consts, m.globals\n')


def test_a_filter_reads_a_defined_global_without_its_check():
    # the global is read once; where it is defined, the filter compares the
    # cards with it unchecked, and the checked form is left for where it is not
    program = _hoisting('c->rank == A or c->rank == x', 'Number x.\n')
    image = vm.Image(program, compiled=True)
    (source,) = [pure.written(fast).hand.source for fast in image.pure if fast]
    defined, _, undefined = source.partition('\n    out = []\n    for card in cards:\n        if')
    assert '    if g1 is not None:\n' in defined and ' == g1)' in defined, source
    assert ':= g1)' not in defined and ':= g1) is not None' in undefined, source


def test_a_card_free_comparison_with_a_constant_is_computed_once_whole():
    # `pile->top->rank == K` reads no card: the comparison, constant and
    # all, is hoisted, and the cards' loop tests only its local
    program = _hoisting('c->rank == A or pile->top->rank == K')
    image = vm.Image(program, compiled=True)
    (source,) = [pure.written(fast).hand.source for fast in image.pure if fast]
    hoisted = [line.split(' = ')[0].strip() for line in source.split('\n')
               if re.match(r' +h\d+ = .*\)\.rank\) is A\[\d+\]\)$', line)]
    assert len(hoisted) == 1 and ' or %s):\n' % hoisted[0] in source, source
    assert _ending(program, True) == _ending(program, False)


def _hand_filter(program):
    """(the closures' image, the compiled tier's, the index of the one rule
    whose hand filter is written as source)."""
    closures, tier = vm.Image(program), vm.Image(program, compiled=True)
    (k,) = [k for k, fast in enumerate(tier.pure)
            if fast is not None and hasattr(pure.written(fast).hand, 'source')]
    return closures, tier, k


def _born(assign):
    """A program whose rule reads the card's rank and suit, with assign
    (a statement) after the deal; its filter's source and its born_properties."""
    program = harness.compile_checked(frontend.check_text(
        'Game "g" requires 2 players.\nDeck d = standard.\nArea table labeled "Table" is faceup.\n'
        'Rule r(p, c, pile) =\n  c->rank == A or c->suit == H or c->rank == K.\n'
        'Action main {\n  shuffle d.\n  deal 9 from d to players.\n  %s\n'
        '  play r from players->first to table.\n}\n' % assign))
    closures, tier, k = _hand_filter(program)
    for seed in range(10):
        m = Game(tier, seed=seed, players=2, names=['a', 'b'], quiet=True).machine
        for player in m.players:
            assert (_filtered(tier.pure[k], m, player, player.hand)
                    == _filtered(closures.pure[k], m, player, player.hand))
    assert _ending(program, True) == _ending(program, False)
    return tier.pure[k].hand.source, rules_module.born_properties(program)


def test_a_card_s_rank_and_suit_are_read_unchecked_unless_the_program_stores_them():
    # no STORE_PROP of a rank or suit: every card's are as the deck made them, never None
    source, born = _born('message "dealt".')
    assert born == {0, 1}
    assert 'card.rank)' in source and 'card.suit)' in source and 'is not None' not in source
    # the rank kept in a local for its second read; the suit, read once, not
    assert re.search(r'\(v\d+ := card\.rank\)', source) and ':= card.suit' not in source, source
    # a program that assigns a rank: its reads keep their checks, the suit's not
    source, born = _born('players->first->hand->top->rank = 5.')
    assert born == {1}
    assert re.search(r'\(v\d+ := card\.rank\) is not None', source), source
    assert 'card.suit)' in source
    assert rules_module.born_properties(None) == rules_module.born_properties(True) == set()


def test_a_born_suit_is_compared_by_identity_a_stored_one_by_equality():
    # a Suit equals only itself: a card's suit where no code stores it is
    # one (and a Suit constant), so `==` and `!=` on it are `is`, `is not`
    source, _ = _born('message "dealt".')
    assert re.search(r'\(card\.suit\) is (h\d+|A\[\d+\])\)', source), source
    # a stored suit may be any value, checked, and still equals H only if it is H
    source, born = _born('players->first->hand->top->suit = S.')
    assert born == {0} and re.search(r':= card\.suit\) is not None else .*\) is A\[', source)
    suit = PROPERTY_NAMES.index('suit')
    card_suit = Unary('LOAD_PROP', suit, Leaf('load_local', 1))
    w = rules_module._Writer(3, None, card=1, born=frozenset({suit}))
    for tree, text in ((Binary('NE', Leaf('load_global', 2), card_suit), ') is not (v'),
                       (Binary('EQ', Leaf('load_global', 2), Leaf('const', SUITS[3])), ') is A['),
                       (Binary('EQ', Leaf('load_global', 2), Leaf('const', RANKS[3])), ') == A['),
                       (Binary('EQ', Leaf('load_global', 2), Leaf('load_global', 3)), ') == (')):
        assert text in w.top(tree).text, (tree, w.top(tree).text)
    assert ') == (' in rules_module._Writer(3, None, card=1).top(
        Binary('EQ', card_suit, Leaf('load_global', 2))).text     # (stored: any value)


def test_a_born_rank_is_compared_by_identity_with_a_rank_or_a_number_it_equals():
    # each rank is one object (RANKS): a card's rank where no code stores it
    # is one, so `==` and `!=` of two such ranks, or of one and a Number
    # constant 1..13 (read as the Rank it equals), are `is`, `is not`
    source, _ = _born('message "dealt".')
    assert re.search(r'\(v\d+ := card\.rank\) is (h\d+|A\[\d+\])\)', source), source
    # a stored rank may be any Number: `==`
    source, born = _born('players->first->hand->top->rank = 5.')
    assert born == {1} and not re.search(r'v\d+ is ', source), source
    assert re.search(r'v\d+ == (h\d|A\[)', source), source
    rank = PROPERTY_NAMES.index('rank')
    card_rank = Unary('LOAD_PROP', rank, Leaf('load_local', 1))
    top_rank = Unary('LOAD_PROP', rank, Unary('LIST_PROP', 1, Leaf('load_local', 2)))
    w = rules_module._Writer(3, None, card=1, born=frozenset({rank}))
    for tree, text in ((Binary('EQ', card_rank, top_rank), ') is ('),
                       (Binary('NE', Leaf('const', 8), card_rank), '] is not (v'),
                       (Binary('EQ', card_rank, Leaf('const', RANKS[3])), ') is A['),
                       (Binary('EQ', card_rank, Leaf('const', 14)), ') == A['),
                       (Binary('EQ', card_rank, Leaf('const', True)), ') == A['),
                       (Binary('EQ', card_rank, Leaf('load_global', 2)), ') == ('),
                       (Binary('LT', card_rank, top_rank), ') < (')):
        assert text in w.top(tree).text, (tree, w.top(tree).text)
    assert any(v is RANKS[8] for v in w.operands) and 8 not in [v for v in w.operands if type(v) is int]
    # what the filter allows: the closures' cards, a Number and the rank
    # it equals hoisted apart (equal trees in Python, not for `is`)
    for rule in ('c->rank == 8 or c->rank != pile->top->rank', 'c->rank == 14 or 13 == c->rank',
                 'c->rank + 1 == pile->top->rank or c->rank == A'):
        program = harness.compile_checked(frontend.check_text(
            'Game "g" requires 2 players.\nDeck d = standard.\n'
            'Area table labeled "Table" is faceup.\nRule r(p, c, pile) =\n  %s.\n'
            'Action main {\n  shuffle d.\n  deal 20 from d to players.\n  deal 1 from d to table.\n'
            '  play r from players->first to table.\n}\n' % rule))
        closures, tier, k = _hand_filter(program)
        for seed in range(30):
            m = Game(tier, seed=seed, players=2, names=['a', 'b'], quiet=True).machine
            table = [v.cards for v in m.globals if type(v) is vm.Area]
            got = _filtered(tier.pure[k], m, m.players[0], table[0])
            assert got == _filtered(closures.pure[k], m, m.players[0], table[0]), (rule, seed)
        assert _ending(program, True) == _ending(program, False), rule


def test_a_rank_stays_its_one_object_through_pickle_and_copy():
    # (the compiled rules compare ranks by identity)
    deck = new_deck()
    for copied in (pickle.loads(pickle.dumps(deck)), copy.deepcopy(deck), copy.copy(RANKS[1:])):
        assert all(a.rank is b.rank for a, b in zip(deck, copied)) if copied[0] is not RANKS[1] \
            else list(copied) == list(RANKS[1:])
    assert all(pickle.loads(pickle.dumps(r, k)) is r for r in RANKS[1:] for k in range(6))
    assert copy.deepcopy(RANKS[5]) is RANKS[5] and repr(pickle.loads(pickle.dumps(RANKS[12]))) == 'Queen'


def test_a_rule_with_conditions_on_globals_is_filtered_by_its_generated_filter():
    # on the tier, Pure.filter calls the rule's generated filter (its
    # conditions on globals hoisted) rather than Shapes' settled rules:
    # the loop's cards, or a failure, whatever the globals hold
    program = pipc.load(pipc.dump(frontend.compile_text(test_shapes.SOURCE)), 'x')
    game = Game(vm.Image(program, compiled=True), seed=3, players=2, names=['A', 'B'])
    m = game.machine
    player, dest = m.players[0], [m.players[1].hand[0]]
    slots = [program.global_names.index(g) for g in ('must', 'led', 'trump', 'n')]
    values = [[None, False, True], [None] + list(SUITS[:2]), [None] + list(SUITS[:2]),
              [None, 1, 5]]
    compared = 0
    for name in ('follows', 'legal', 'kept', 'nested', 'suited'):
        rule = test_shapes.rule_index(game, name)
        fast = pure.written(m.image.pure[rule])
        assert fast.shapes is not None and hasattr(fast.hand, 'source'), name
        for combination in itertools.product(*values):
            for s, v in zip(slots, combination):
                m.globals[s] = v
            try:
                want = test_shapes.by_loop(m, rule, player, dest)
            except PipError:
                want = Exception
            try:
                got = fast.filter(m, player, dest)
            except Exception:
                got = Exception
            assert got == want, (name, combination)
            compared += want is not Exception
            try:                    # (a CANPLAY's: whether the loop finds any)
                got = filters.any_variant(fast.hand)(m, player, dest)
            except Exception:
                got = Exception
            assert got == (want if want is Exception else bool(want)), (name, combination)
        assert not fast.shapes.by_tests and not fast.shapes.by_globals, name
    assert compared > 60


def test_a_card_free_test_inside_a_rule_is_decided_once_for_the_hand():
    # `(led == trump and ...) or (led != trump and ...)`: whether led is
    # trump is tested once, before the cards' loops, each loop testing only
    # its side; `led != trump and ...` where it is false: no card, no loop
    # (test_a_rule_with_conditions_on_globals_... compares them with the loop)
    program = pipc.load(pipc.dump(frontend.compile_text(test_shapes.SOURCE)), 'x')
    game = Game(vm.Image(program, compiled=True), seed=3, players=2, names=['A', 'B'])
    fast = pure.written(game.machine.image.pure[test_shapes.rule_index(game, 'legal')])
    source = fast.hand.source
    split = re.search(r'^( +)(s\d+) = (h\d+)\n\1if \2:\n', source, re.M)
    assert split, source
    pad, kept, test = split.groups()
    loops = re.findall(r'^%s    for card in cards:\n +if (.*):$' % pad, source, re.M)
    assert len(loops) == 2, source      # (led is trump, and led is not)
    assert not [loop for loop in loops if re.search(r'\b(%s|%s)\b' % (kept, test), loop)], source
    assert re.search(r'^%sif h\d+:\n(%s    .*\n)+%sreturn \[\]$' % (pad, pad, pad), source, re.M), source


SHORT = '''Game "g" requires 2 players.
Deck d = standard.
Area pile labeled "Pile".
Boolean must.
Suit led.
Rule either(p, c, cl) = not must or c->suit == led.
Rule both(p, c, cl) = must and c->suit == led.
Action main { shuffle d. deal 8 from d to players. play either from players->first to pile. }
'''


def test_a_card_free_first_operand_of_or_and_decides_the_whole_hand_at_once():
    # `not must or ...`: when true, the whole hand without the cards' loop;
    # `must and ...`: when false, none; else the rest, card by card
    program = pipc.load(pipc.dump(frontend.compile_text(SHORT)), 'x')
    game = Game(vm.Image(program, compiled=True), seed=3, players=2, names=['A', 'B'])
    m = game.machine
    player = m.players[0]
    must, led = (program.global_names.index(g) for g in ('must', 'led'))
    for name, short, any_short in (('either', 'return list(cards)', 'return bool(cards)'),
                                   ('both', 'return []', 'return False')):
        rule = test_shapes.rule_index(game, name)
        fast = pure.written(m.image.pure[rule])
        assert short in fast.hand.source, fast.hand.source
        # (the any-variant writes its own: whether there is a card)
        any_ = filters.any_variant(fast.hand)
        assert any_short in any_.source and 'list(' not in any_.source, any_.source
        for value, suit in itertools.product((None, False, True), (None,) + SUITS):
            m.globals[must], m.globals[led] = value, suit
            try:
                want = test_shapes.by_loop(m, rule, player, [])
            except PipError:
                want = Exception
            try:
                got = fast.hand(m, player, [])
            except Exception:
                got = Exception
            assert got == want, (name, value, suit)
            if value is False:          # (the first operand decides)
                assert got is not player.hand and got == (player.hand if name == 'either' else [])
                assert any_(m, player, []) is (name == 'either')


def test_a_first_test_of_globals_that_decides_the_hand_is_the_caller_s():
    # Euchre's `not must_follow or ...`: at a trick's lead the whole hand,
    # which the action's call of the filter decides itself, without the
    # call (the filter's own first lines); a test that reads a constant (an
    # operand of the rule's) or may fail, or a kept value's, is the filter's
    euchre = Game(vm.Image(loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip')),
                           compiled=True), seed=1, players=4, names='ABCD')
    m = euchre.machine
    must = euchre.program.global_names.index('must_follow')
    rule = test_shapes.rule_index(euchre, 'legal')
    hand = pure.written(m.image.pure[rule]).hand
    assert hand.decided == ([must], '(not rg%d_)' % must, True, 'all')
    assert filters.any_variant(hand).decided == hand.decided
    is_led = pure.written(m.image.pure[test_shapes.rule_index(euchre, 'is_led')]).hand
    assert is_led.decided is None               # (`led == trump` kept for the rest)
    calls = []

    def filtered(machine, player, dest):
        calls.append(player)
        return ['the filter']
    line = filters.direct_filters('cards = self.playable(%d, p, to)' % rule, m.image.pure,
                                  lambda value: 'F')
    player = m.players[0]
    for value, want in ((False, list(player.hand)), (True, ['the filter']),
                        (None, ['the filter'])):
        space = {'globals_': list(m.globals), 'p': player, 'to': [], 'F': filtered, 'self': m}
        space['globals_'][must] = value
        exec(line, space)
        assert space['cards'] == want and space['cards'] is not player.hand, (value, line)
    assert calls == [player, player]
    for rule, decided in (('x > 3 or c->suit == H', None), ('c->suit == H and b', None),
                          ('not b or c->rank == 10', 'all'), ('b and c->rank == 10', 'none'),
                          ('b == (x == 2) or c->rank == 10', None)):
        image = vm.Image(_canplay(rule), compiled=True)
        (fast,) = [fast for fast in image.pure if fast is not None]
        got = pure.written(fast).hand.decided
        assert (got and got[3]) == decided, (rule, got)


def _canplay(rule, more=''):
    """A program setting b to whether the first player's hand (Ten, Eight,
    Six, Four, Two of Clubs, unshuffled) holds a card rule allows; more:
    its other actions."""
    return harness.compile_checked(frontend.check_text(
        'Game "g" requires 2 players.\nArea table labeled "Table" is faceup.\nNumber x.\n'
        'Boolean b.\nRule r(p, c, pile) =\n  %s.\n' % rule + 'Action main {\n'
        '  deal 5 from standard to players.\n  b = canplay r from players->first to table.\n}\n'
        + more))


def _any_of(image):
    (fast,) = [fast for fast in image.pure if fast is not None]
    return filters.any_variant(pure.written(fast).hand)


def test_canplay_asks_the_rule_s_any_variant_which_stops_at_the_first_card():
    # CANPLAY alone tests its cards only for emptiness: the action calls the
    # rule's any-variant, which returns at the first card allowed (a card the
    # whole filter would then read, here not a card at all, is not read)
    euchre = vm.Image(loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip')),
                      compiled=True)
    actions.prepare(euchre)
    (trick,) = [c.action for c in euchre.codes if c.code.name == 'play_trick']
    is_led = test_shapes.rule_index(Game(euchre, seed=1, players=4, names='ABCD'), 'is_led')
    assert euchre.pure[is_led].hand.any in trick.__defaults__[1]
    assert 'return True' in euchre.pure[is_led].hand.any.source
    program = _canplay('c->rank == 10 or c->suit == H')
    game = Game(vm.Image(program, compiled=True), seed=1, players=2, names=['a', 'b'])
    m = game.machine
    player = m.players[0]
    any_ = _any_of(m.image)
    assert any_(m, player, []) is True
    player.hand.append(object())
    assert any_(m, player, []) is True
    del player.hand[0]
    try:
        any_(m, player, [])
    except AttributeError:          # (no card allowed before it: it is read)
        pass
    else:
        raise AssertionError('the any-variant did not read a card after the first')


def test_canplay_s_rule_failing_on_a_later_card_fails_as_the_loop_does():
    # the Ten is allowed; the Eight reads the undefined x: the loop fails
    # there, so the any-variant (whose test may fail) may not stop at the Ten
    program = _canplay('c->rank == 10 or c->rank == x')
    image = vm.Image(program, compiled=True)
    game = Game(image, seed=1, players=2, names=['a', 'b'])
    m = game.machine
    try:
        _any_of(image)(m, m.players[0], [])
    except Exception as e:
        assert 'Undefined value' in str(e)
    else:
        raise AssertionError('the any-variant stopped before the failing card')
    loop = _ending(program, False)
    assert 'Undefined value' in loop[1] and 'Line 6' in loop[1]
    assert _ending(program, True) == loop
    # (a rule that cannot fail: both engines agree)
    defined = _canplay('c->rank == 10 or c->rank == c->rank')
    assert _ending(defined, True) == _ending(defined, False)


def test_canplay_s_rule_comparing_two_numbers_stops_at_the_first_card():
    # `<`, `>`, `+` raise on a Suit or a list (the verifier checks no
    # kinds: a global may hold one): the any-variant stops at the first card
    # allowed where both sides are Numbers (an integer, the card's own rank
    # where no code stores it), not past a comparison with a global
    for rule, stops in (('c->rank > 9 or c->suit == H', True),
                        ('c->rank - 1 == 9 or c->rank + 1 >= 14', True),
                        ('c->rank > x or c->suit == H', False)):
        image = vm.Image(_canplay(rule), compiled=True)
        game = Game(image, seed=1, players=2, names=['a', 'b'])
        m = game.machine
        any_ = _any_of(image)
        assert ('return True' in any_.source) is stops, (rule, any_.source)
        if stops:
            m.players[0].hand.append(object())      # (after the Ten: not read)
            assert any_(m, m.players[0], []) is True
    # a rank some code stores may be undefined: the loop fails at the Eight
    image = vm.Image(_canplay('c->rank > 9 or c->suit == H',
                              'Action unused { players->first->hand->top->rank = 5. }\n'),
                     compiled=True)
    m = Game(image, seed=1, players=2, names=['a', 'b']).machine
    m.players[0].hand[1].rank = None
    try:
        _any_of(image)(m, m.players[0], [])
    except Exception as e:
        assert 'Undefined value' in str(e)
    else:
        raise AssertionError('the any-variant stopped before an undefined rank')


def test_only_integers_and_the_card_s_born_rank_are_known_numbers():
    # (what an any-variant may compare: a Suit constant in a hand-made
    # program, a global, another card's rank or a stored one is not)
    rank = PROPERTY_NAMES.index('rank')
    born = rules_module._Writer(3, None, card=1, born=frozenset({rank}))
    card_rank = Unary('LOAD_PROP', rank, Leaf('load_local', 1))
    for tree, number in ((Leaf('const', 5), True), (Leaf('const', RANKS[10]), True),
                         (Leaf('const', SUITS[0]), False), (Leaf('load_global', 2), False),
                         (card_rank, True), (Unary('LOAD_PROP', rank, Leaf('load_local', 0)), False),
                         (Binary('ADD', card_rank, Leaf('const', 1)), True),
                         (Binary('SUB', Leaf('const', 1), Leaf('load_global', 2)), False),
                         (Binary('LT', card_rank, Leaf('const', 1)), False)):
        assert born.number(tree) is number, tree
    assert not rules_module._Writer(3, None, card=1).number(card_rank)     # (stored somewhere)


def test_a_filter_s_test_knows_from_its_parts_whether_it_may_fail():
    # (the any-variant stops at the first card allowed only where the test
    # cannot fail: each part the writer writes says whether it may, a
    # comparison of known Numbers not, whatever its text)
    rank, suit = PROPERTY_NAMES.index('rank'), PROPERTY_NAMES.index('suit')
    born = frozenset({rank, suit})
    card_rank = Unary('LOAD_PROP', rank, Leaf('load_local', 1))
    card_suit = Unary('LOAD_PROP', suit, Leaf('load_local', 1))
    hearts = Binary('EQ', card_suit, Leaf('const', SUITS[1]))
    above = Binary('GT', card_rank, Leaf('const', 9))
    cases = (
        (hearts, born, True), (hearts, frozenset(), False),     # (a stored suit is checked)
        (Unary('NOT', None, hearts), born, True), (above, born, True), (above, frozenset(), False),
        (Binary('GE', Binary('ADD', card_rank, Leaf('const', 1)), Leaf('const', 14)), born, True),
        (Binary('GT', card_rank, Leaf('load_global', 2)), born, False),
        (Binary('GT', card_rank, Leaf('const', SUITS[0])), born, False),
        (Binary('EQ', card_suit, Leaf('load_global', 2)), born, False),   # (checked)
        (If(hearts, above, Binary('EQ', card_rank, Leaf('const', 1))), born, True),
        (If(hearts, above, Binary('LT', card_rank, Leaf('load_global', 2))), born, False),
        (Unary('DEFINED_PROP', rank, Leaf('load_local', 1)), frozenset(), True),
        (Unary('DEFINED_PROP', rank, Leaf('load_global', 2)), frozenset(), False),
        (Unary('LOAD_PROP', rank, Leaf('load_global', 2)), born, False),
        (Unary('LIST_PROP', 1, Leaf('load_global', 2)), born, False))
    for tree, born_, safe in cases:
        w = rules_module._Writer(3, None, card=1, born=born_)
        test = w.top(tree)
        assert test.safe is safe, (tree, test.text)
        assert w.top(hearts).safe is (born_ == born)        # (each test on its own)
    # a global tested defined before the loop is a local there; a part
    # computed before the loop (hoisted) is one too, whatever it reads
    w = rules_module._Writer(3, None, card=1, born=born)
    eq_global = Binary('EQ', card_suit, Leaf('load_global', 2))
    assert not w.top(eq_global).safe
    w.defined = True
    assert w.top(eq_global).safe
    w = rules_module._Writer(3, None, card=1, born=born)
    w.hoisting = True
    top_rank = Unary('LOAD_PROP', rank, Unary('LIST_PROP', 1, Leaf('load_global', 2)))
    assert w.top(Binary('EQ', card_rank, top_rank)).safe


def test_a_canplay_whose_cards_a_play_takes_calls_the_whole_filter():
    # Sevens' `if canplay ... { play ... }`: the PLAY (PLAY_AGAIN) takes the
    # cards its CANPLAY found, so that CANPLAY keeps the whole filter
    sevens = vm.Image(loader.load_program(os.path.join(ROOT, 'examples', 'sevens.pip')),
                      compiled=True)
    actions.prepare(sevens)
    (turn,) = [c for c in sevens.codes if c.code.name == 'turn']
    assert filters.plays_again(turn.plain[1])
    hands = {id(fast.hand) for fast in sevens.pure if fast is not None}
    operands = turn.action.__defaults__[1]
    assert 'self.canplay_found = found' in turn.action.source
    assert any(id(a) in hands for a in operands)
    assert not any(getattr(a, '__name__', '') == 'hand_' and id(a) not in hands for a in operands)
