"""One opcode at a time: tiny programs built with the assembler, each
checking one instruction's effect on the stack and the game, or its error.

Each program is validated by the loader (pipc.load) first, as any .pipc
is, and then run on the VM with two seated players, Ann and Bob.  Its main
action leaves its results in globals g0, g1, ...; `run` returns them.
"""
import pytest

from compiler.codegen.assembler import Assembler
from pipvm.isa import pipc
from pipvm.isa.opcodes import OP
from pipvm.core.errors import GameOver, PipError
from pipvm.core.rng import OCamlRandom
from pipvm.core.runtime import RANKS, SUITS, Area, Player, new_deck
from pipvm.engine.vm import ACTION, CARD, PAUSED, Dealer, Image, Machine
from tests.fuzz.harness import both

C, H, S, D = SUITS
# The constant pool, by name (`K['7']` is the index of 7): Python's == would
# confuse 1 with True and 3 with the Rank Three as dict keys.
NAMED = [('0', 0), ('1', 1), ('2', 2), ('7', 7), ('-7', -7), ('hi', 'hi'), ('True', True),
         ('False', False), ('Three', RANKS[3]), ('Hearts', H), ('A~C', pipc.CardRef(0)),
         ('A~H', pipc.CardRef(13)), ('ranks A,2', (RANKS[1], RANKS[2])), ('suits C,H', (C, H)),
         ('T', 'T'), ('13', 13), ('3', 3), ('5', 5)]
CONSTS = [v for _, v in NAMED]
K = {name: i for i, (name, _) in enumerate(NAMED)}
GLOBALS = ['g0', 'g1', 'g2', 'g3']
# A rule (p, c, pile) allowing Hearts; an ordering (cards) that puts Hearts first.
RULE = [('LOAD_LOCAL', 1), ('LOAD_PROP', 1), ('CONST', K['Hearts']), ('EQ',), ('RETURN_VALUE',)]


def code(kind, name, local_names, instrs):
    """Assemble instrs; ('LABEL', L) marks a place, and a jump operand L
    (a string) is that place.  Instruction i is at line 1, column i + 1."""
    asm, labels, forward, column = Assembler(), {}, [], 0
    for op, *args in instrs:
        if op == 'LABEL':
            labels[args[0]] = asm.here()
            for at in [j for j, label in forward if label == args[0]]:
                asm.patch(at)
            continue
        column += 1
        at = asm.emit(op, *[labels.get(a, 0) if isinstance(a, str) else a for a in args],
                      pos=(1, column))
        forward += [(at, a) for a in args if isinstance(a, str) and a not in labels]
    return pipc.Code(kind, name, list(local_names), bytes(asm.code), asm.lines)


def program(main, locals_=('x', 'y')):
    init = code('init', 'globals', [], [('RETURN',)])
    helper = code('action', 'helper', [], [('CONST', K['7']), ('STORE_GLOBAL', 3), ('RETURN',)])
    rule = code('rule', 'hearts', ['p', 'c', 'pile'], RULE)
    ordering = code('ordering', 'hearts_first', ['cards'], [
        ('LIST_CONST', K['suits C,H']), ('POP',),
        ('CONST', K['Hearts']), ('WILD_RANK',), ('RETURN_VALUE',)])
    main = code('action', 'main', locals_, list(main) + [('RETURN',)])
    return validated([init, helper, rule, ordering, main], 4)


def validated(codes, main):
    """The program of these code objects (main: the index of main), validated
    as any file is."""
    p = pipc.Program('T', [2], 0, list(GLOBALS), list(CONSTS), codes, main)
    return pipc.load(pipc.dump(p), '<test>')


def seated():
    return [Player('Ann', seat=0), Player('Bob', seat=1)]


def machine(main, locals_=('x', 'y')):
    m = Machine(Image(program(main, locals_)), OCamlRandom(1), events=[])
    return m, seated()


def run(*main):
    """The globals after main runs (main must not stop at a decision)."""
    m, players = machine(main)
    assert m.start(players) is None
    return m.globals


def error(*main):
    """The Error: line main stops with."""
    m, players = machine(main)
    with pytest.raises(PipError) as e:
        m.start(players)
    return str(e.value)


# --- values and variables ------------------------------------------------------

def test_const_and_globals():
    assert run(('CONST', K['hi']), ('STORE_GLOBAL', 0))[0] == 'hi'
    assert error(('LOAD_GLOBAL', 1), ('POP',)) == 'Error: Line 1, Col 1: Undefined value'


def test_list_const_makes_a_new_list_each_time():
    g = run(('LIST_CONST', K['ranks A,2']), ('STORE_GLOBAL', 0),
            ('LIST_CONST', K['ranks A,2']), ('STORE_GLOBAL', 1))
    assert g[0] == [RANKS[1], RANKS[2]] and g[0] is not g[1]


def test_locals():
    assert run(('CONST', K['3']), ('STORE_LOCAL', 1), ('LOAD_LOCAL', 1), ('STORE_GLOBAL', 0))[0] == 3
    assert error(('CONST', K['3']), ('POP',), ('LOAD_LOCAL', 0), ('POP',)) == \
        'Error: Line 1, Col 3: Undefined value'


def test_builtins():
    g = run(('LOAD_BUILTIN', 0), ('STORE_GLOBAL', 0), ('LOAD_BUILTIN', 2), ('STORE_GLOBAL', 1),
            ('DEFINED_BUILTIN', 1), ('STORE_GLOBAL', 2))
    assert [p.name for p in g[0]] == ['Ann', 'Bob']
    assert len(g[1]) == 52 and str(g[1][0]) == 'Ace of Clubs'
    assert g[2] is False
    assert error(('LOAD_BUILTIN', 1), ('POP',)) == 'Error: Line 1, Col 1: Undefined value'


def test_properties():
    g = run(('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('STORE_GLOBAL', 0),
            ('CONST', K['7']), ('LOAD_GLOBAL', 0), ('STORE_PROP', 6),       # Player.score
            ('LOAD_GLOBAL', 0), ('LOAD_PROP', 6), ('STORE_GLOBAL', 1),
            ('LOAD_GLOBAL', 0), ('DEFINED_PROP', 7), ('STORE_GLOBAL', 2))  # Player.team
    assert g[0].name == 'Ann' and g[1] == 7 and g[2] is False
    assert error(('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('LOAD_PROP', 7), ('POP',)) == \
        'Error: Line 1, Col 3: Undefined value'


def test_list_properties():
    g = run(('LOAD_BUILTIN', 0), ('LIST_PROP', 0), ('STORE_GLOBAL', 0),
            ('LOAD_BUILTIN', 0), ('LIST_PROP', 2), ('STORE_GLOBAL', 1))
    assert g[0] == 2 and g[1].name == 'Bob'


def test_an_empty_list_has_no_first_item():
    assert error(('LOAD_BUILTIN', 2), ('DUP',), ('CONST', K['hi']), ('NEW_AREA', 0),
                 ('DEAL', 1), ('LIST_PROP', 1), ('POP',)) == \
        "Error: Line 1, Col 6: Can't get item from empty list"


# --- the stack ----------------------------------------------------------------

def test_stack_shuffling():
    g = run(('CONST', K['1']), ('CONST', K['2']), ('SWAP',), ('STORE_GLOBAL', 0), ('DUP',),
            ('STORE_GLOBAL', 1), ('CONST', K['3']), ('CONST', K['5']), ('DROP', 2),
            ('STORE_GLOBAL', 2))
    assert g[:3] == [1, 2, 2]


# --- operators -----------------------------------------------------------------

@pytest.mark.parametrize('op, a, b, result', [
    ('ADD', 7, 5, 12), ('SUB', 5, 7, -2), ('MUL', -7, 3, -21),
    ('DIV', 7, 2, 3), ('DIV', -7, 2, -3), ('DIV', 7, -2, -3), ('DIV', -7, -2, 3),
    ('EQ', 7, 7, True), ('NE', 7, 7, False), ('LT', -7, 2, True), ('LE', 2, 2, True),
    ('GT', -7, 2, False), ('GE', 2, 5, False),
])
def test_operators(op, a, b, result):
    # -2 is not a constant of its own: 0 - 2
    g = run(('CONST', K[str(a)]), ('CONST', K[str(b)] if b != -2 else K['2']),
            *([('CONST', K['0']), ('SWAP',), ('SUB',)] if b == -2 else []),
            (op,), ('STORE_GLOBAL', 0))
    assert g[0] == result and type(g[0]) is type(result)


def test_division_by_zero():
    assert error(('CONST', K['7']), ('CONST', K['0']), ('DIV',), ('POP',)) == \
        'Error: Line 1, Col 3: Division by zero'


def test_a_product_is_a_number_of_the_original_63_bits_at_most():
    from pipvm.core.errors import Fault
    from pipvm.core.runtime import LARGEST, multiply
    assert LARGEST == 2 ** 62 - 1
    assert multiply(LARGEST, 1) == LARGEST and multiply(LARGEST, -1) == -LARGEST
    assert multiply(-2 ** 31, 2 ** 31) == -2 ** 62         # the smallest
    # 2^62 + 1 = 5 * 922337203685477581: one past each end
    for a, b in ((2 ** 31, 2 ** 31), (-2 ** 31 - 1, 2 ** 31), (LARGEST, 2), (LARGEST + 1, 1),
                 (-5, 922337203685477581), (2 ** 62, 1)):
        with pytest.raises(Fault, match='^Number too large$'):
            multiply(a, b)
    assert multiply(3, -7) == -21 and multiply(0, LARGEST + 5) == 0


def test_a_number_beyond_what_python_shows_is_an_error_not_invalid_bytecode(monkeypatch):
    # sums stay exact, so x += x can pass the 4,300 digits Python shows (it
    # raised ValueError, reported as "invalid bytecode"); both engines agree
    from .fuzz import harness
    monkeypatch.setattr(harness, 'MAX_STEPS', 100_000)
    source = ('Game "Sum" requires 2 players.\nNumber x.\nNumber n.\nAction main {\n'
              '  x = 1.\n  n = 0.\n  forever {\n    x += x.\n    n += 1.\n'
              '    if n == 15000 { message "{x}". }\n    if n == 14000 { message "{n}". }\n  }\n}\n')
    vm_run, ref_run = harness.both(source, 1, [0, 'A', 'B'])
    assert vm_run.ending == ref_run.ending == 'Error: Line 10, Col 21: Number too large to show'
    assert vm_run.transcript == ref_run.transcript and vm_run.transcript.endswith('14000\n')


def test_not_and_in():
    g = run(('CONST', K['True']), ('NOT',), ('STORE_GLOBAL', 0),
            ('CONST', K['Three']), ('LOAD_BUILTIN', 2), ('IN',), ('STORE_GLOBAL', 1),
            ('CONST', K['T']), ('LOAD_BUILTIN', 0), ('IN',), ('STORE_GLOBAL', 2))
    assert g[:3] == [False, True, False]


def test_format_joins_values_as_they_print():
    g = run(('CONST', K['hi']), ('CONST', K['7']), ('CONST', K['Three']), ('CONST', K['Hearts']),
            ('CONST', K['A~H']), ('FORMAT', 5), ('STORE_GLOBAL', 0))
    assert g[0] == 'hi7ThreeHeartsAce of Hearts'


# --- cards and lists ---------------------------------------------------------------

def test_card_expressions():
    g = run(('CONST', K['Three']), ('CONST', K['Hearts']), ('MAKE_CARD',), ('STORE_GLOBAL', 0),
            ('LIST_CONST', K['ranks A,2']), ('LIST_CONST', K['suits C,H']), ('MAKE_CARDS',),
            ('STORE_GLOBAL', 1),
            ('CONST', K['5']), ('CONST', K['3']), ('RANGE',), ('STORE_GLOBAL', 2),
            ('CONST', K['Hearts']), ('WILD_RANK',), ('STORE_GLOBAL', 3))
    assert str(g[0]) == 'Three of Hearts'
    # ranks outer: A~C, A~H, 2~C, 2~H
    assert [str(c) for c in g[1]] == ['Ace of Clubs', 'Ace of Hearts', 'Two of Clubs',
                                      'Two of Hearts']
    assert g[2] == [RANKS[5], RANKS[4], RANKS[3]]
    assert len(g[3]) == 13 and all(c.suit is H for c in g[3])
    assert error(('CONST', K['0']), ('CONST', K['Hearts']), ('MAKE_CARD',), ('POP',)) == \
        "Error: Line 1, Col 3: The value 0 can't be a Rank"


def test_wild_suit_and_seq_and_build_list():
    g = run(('CONST', K['Three']), ('WILD_SUIT',), ('STORE_GLOBAL', 0),
            ('CONST', K['1']), ('LIST_CONST', K['ranks A,2']), ('SEQ',), ('STORE_GLOBAL', 1),
            ('CONST', K['7']), ('LIST_CONST', K['ranks A,2']), ('BUILD_LIST', 2), ('STORE_GLOBAL', 2))
    assert [str(c) for c in g[0]] == ['Three of Clubs', 'Three of Hearts', 'Three of Spades',
                                      'Three of Diamonds']
    assert g[1] == [1, RANKS[1], RANKS[2]]
    assert g[2] == [7, RANKS[1], RANKS[2]]


def test_new_area():
    g = run(('CONST', K['hi']), ('NEW_AREA', 3), ('STORE_GLOBAL', 0))
    assert type(g[0]) is Area and g[0].name == 'hi' and g[0].is_facedown and g[0].is_squaredup


# --- control --------------------------------------------------------------------------

@pytest.mark.parametrize('op, top, jumped', [
    ('JUMP_IF_FALSE', False, True), ('JUMP_IF_FALSE', True, False),
    ('JUMP_IF_FALSE_OR_POP', False, True), ('JUMP_IF_FALSE_OR_POP', True, False),
    ('JUMP_IF_TRUE_OR_POP', True, True), ('JUMP_IF_TRUE_OR_POP', False, False),
])
def test_conditional_jumps(op, top, jumped):
    # g0: whether the jump was taken; an _OR_POP jump keeps its value when it
    # jumps (g1), and pops it when not (then 'T' takes its place)
    keeps = op.endswith('_OR_POP')
    g = run(('CONST', K['hi']), ('CONST', K[str(top)]), (op, 'to'),
            *([('CONST', K['T'])] if keeps else []),
            ('CONST', K['False']), ('STORE_GLOBAL', 0), ('JUMP', 'end'),
            ('LABEL', 'to'), ('CONST', K['True']), ('STORE_GLOBAL', 0), ('LABEL', 'end'),
            *([('STORE_GLOBAL', 1)] if keeps else []), ('STORE_GLOBAL', 2))
    assert g[0] is jumped and g[2] == 'hi'
    if keeps:
        assert g[1] == (top if jumped else 'T')


def test_for_loops_visit_a_snapshot_of_the_list():
    g = run(('CONST', K['0']), ('STORE_GLOBAL', 1),
            ('LOAD_BUILTIN', 0), ('DUP',), ('STORE_GLOBAL', 2), ('FOR_ITER',),
            ('LABEL', 'next'), ('FOR_NEXT', 0, 'done'),
            ('LOAD_LOCAL', 0), ('STORE_GLOBAL', 0),
            ('LOAD_GLOBAL', 2), ('ROTATE',),                 # the loop's list changes: no matter
            ('LOAD_GLOBAL', 1), ('CONST', K['1']), ('ADD',), ('STORE_GLOBAL', 1),
            ('JUMP', 'next'), ('LABEL', 'done'))
    assert g[0].name == 'Bob' and g[1] == 2


def test_for_from_starts_at_the_start_and_wraps_around():
    g = run(('LOAD_BUILTIN', 0), ('LOAD_BUILTIN', 0), ('LIST_PROP', 2), ('FOR_ITER_FROM',),
            ('LABEL', 'next'), ('FOR_NEXT', 0, 'done'), ('LOAD_LOCAL', 0), ('STORE_GLOBAL', 0),
            ('JUMP', 'next'), ('LABEL', 'done'))
    assert g[0].name == 'Ann'                       # Bob, then Ann


def test_for_from_a_missing_start():
    assert error(('LOAD_BUILTIN', 0), ('CONST', K['7']), ('FOR_ITER_FROM',), ('POP',)) == \
        'Error: Line 1, Col 3: Starting element is not in list'


def test_call_runs_an_action_in_a_new_frame():
    assert run(('CALL', 1))[3] == 7


# --- the game ----------------------------------------------------------------------------

def test_messages_become_events():
    m, players = machine([('CONST', K['hi']), ('MESSAGE_ALL',),
                          ('CONST', K['T']), ('LOAD_BUILTIN', 0), ('MESSAGE',)])
    m.start(players)
    assert [(e.text, e.to) for e in m.events] == [('hi', None), ('Ann: T', 0), ('Bob: T', 1)]


def test_winner_ends_the_game():
    m, players = machine([('LOAD_BUILTIN', 0), ('LIST_PROP', 2), ('WINNER',)])
    with pytest.raises(GameOver) as e:
        m.start(players)
    assert e.value.winner == 'Bob'


def test_deal_round_robin_and_a_named_card():
    m, players = machine([('LOAD_BUILTIN', 2), ('STORE_GLOBAL', 0),
                          ('LOAD_GLOBAL', 0), ('LOAD_BUILTIN', 0), ('CONST', K['2']), ('DEAL', 2),
                          ('CONST', K['A~H']), ('LOAD_GLOBAL', 0), ('LOAD_BUILTIN', 0),
                          ('LIST_PROP', 1), ('DEAL_CARD',)])
    assert m.start(players) is None
    ann, bob = players
    # cards 1..4 of the deck: the first to the second player, each on top
    assert [str(c) for c in bob.hand] == ['Three of Clubs', 'Ace of Clubs']
    assert [str(c) for c in ann.hand] == ['Ace of Hearts', 'Four of Clubs', 'Two of Clubs']
    assert len(m.globals[0]) == 47
    assert error(('CONST', K['A~H']), ('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('LOAD_BUILTIN', 0),
                 ('LIST_PROP', 2), ('DEAL_CARD',)) == 'Error: Line 1, Col 6: Card is not in the source'


def test_play_stops_at_a_decision_of_the_cards_the_rule_allows():
    m, players = machine([('LOAD_BUILTIN', 2), ('LOAD_BUILTIN', 0), ('DEAL', 3),
                          ('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('CONST', K['hi']),
                          ('NEW_AREA', 0), ('DUP',), ('STORE_GLOBAL', 0), ('PLAY', 2)])
    assert m.start(players) is PAUSED
    kind, player, cards = m.pending.kind, m.pending.player, m.pending.cards
    assert kind is CARD and player.name == 'Ann'
    assert cards and all(c.suit is H for c in cards) and len(cards) < len(player.hand)
    m.answer(0)
    assert m.globals[0].cards == [cards[0]] and cards[0].last_played_by is player
    assert error(('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('CONST', K['hi']), ('NEW_AREA', 0),
                 ('PLAY', 2)) == 'Error: Line 1, Col 5: No cards match the given rule'


def test_canplay():
    g = run(('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('CONST', K['hi']), ('NEW_AREA', 0),
            ('CANPLAY', 2), ('STORE_GLOBAL', 0))
    assert g[0] is False


def test_ask_offers_the_enabled_questions():
    # ASK 2 is followed by its two JUMPs; the chosen one leads to its question's code.
    m, players = machine([('LOAD_BUILTIN', 0), ('LIST_PROP', 1),
                          ('CONST', K['hi']), ('CONST', K['True']),
                          ('CONST', K['T']), ('CONST', K['False']),
                          ('ASK', 2), ('JUMP', 'first'), ('JUMP', 'second'),
                          ('LABEL', 'first'), ('CONST', K['1']), ('STORE_GLOBAL', 0), ('JUMP', 'end'),
                          ('LABEL', 'second'), ('CONST', K['2']), ('STORE_GLOBAL', 0),
                          ('LABEL', 'end')])
    assert m.start(players) is PAUSED
    assert m.pending.kind is ACTION and m.pending.player.name == 'Ann'
    assert m.pending.labels == ['hi'] and m.pending.enabled == [0]
    assert m.answer(0) is None and m.globals[0] == 1


class _Failing(Dealer):
    def shuffle(self, machine, items):
        raise IndexError('no shuffle here')


def test_a_python_error_in_an_instruction_is_invalid_bytecode_at_its_offset():
    # (a damaged file, or a dealer of pipvm/game/determinize.py's that fails:
    # one line that says where, never a traceback)
    m = Machine(Image(program([('LOAD_BUILTIN', 0), ('SHUFFLE',)])), OCamlRandom(1), events=[],
                dealer=_Failing())
    with pytest.raises(PipError) as e:
        m.start(seated())
    assert str(e.value) == 'Error: invalid bytecode at offset 2 of action main (no shuffle here)'


def ops_of(main):
    """The opcodes main runs as, after fusion."""
    return [op for op, _, _ in Image(program(main)).codes[4].instrs]


def test_a_python_error_in_a_superinstruction_is_at_its_first_parts_offset():
    # LOAD_GLOBAL (offset 4) and LOAD_PROP run as one LOAD_GLOBAL_PROP; a
    # Number has no rank (a damaged file)
    main = [('CONST', K['7']), ('STORE_GLOBAL', 0), ('LOAD_GLOBAL', 0), ('LOAD_PROP', 0), ('POP',)]
    assert OP.LOAD_GLOBAL_PROP in ops_of(main)
    assert error(*main) == ("Error: invalid bytecode at offset 4 of action main "
                            "('int' object has no attribute 'rank')")


TEAM = 7        # Player.team: undefined in a game without teams
HAND = 4        # Player.hand: empty before a deal


@pytest.mark.parametrize('fused, main, column', [
    # the global, then its property
    ('LOAD_GLOBAL_PROP', [('LOAD_GLOBAL', 1), ('LOAD_PROP', TEAM), ('POP',)], 1),
    ('LOAD_GLOBAL_PROP', [('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('STORE_GLOBAL', 0),
                          ('LOAD_GLOBAL', 0), ('LOAD_PROP', TEAM), ('POP',)], 5),
    # a local nobody set (only a hand-made file has one), then its property
    ('LOAD_LOCAL_PROP', [('LOAD_LOCAL', 0), ('LOAD_PROP', TEAM), ('POP',)], 1),
    ('LOAD_LOCAL_PROP', [('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('STORE_LOCAL', 0),
                         ('LOAD_LOCAL', 0), ('LOAD_PROP', TEAM), ('POP',)], 5),
    ('LOAD_LOCAL_ITEM_PROP', [('LOAD_LOCAL', 0), ('LIST_PROP', 1), ('LOAD_PROP', TEAM),
                              ('POP',)], 1),
    ('LOAD_LOCAL_ITEM_PROP', [('LOAD_BUILTIN', 0), ('STORE_LOCAL', 0), ('LOAD_LOCAL', 0),
                              ('LIST_PROP', 1), ('LOAD_PROP', TEAM), ('POP',)], 5),
    # `if 7 == g`: the global compared
    ('EQ_GLOBAL_JUMP_IF_FALSE', [('CONST', K['7']), ('LOAD_GLOBAL', 0), ('EQ',),
                                 ('JUMP_IF_FALSE', 'x'), ('LABEL', 'x')], 2),
    # `y = x + 1` with x unset (only a hand-made file has one): the local, not the store
    ('STORE_LOCAL_ADD_CONST', [('LOAD_LOCAL', 0), ('CONST', K['1']), ('ADD',),
                               ('STORE_LOCAL', 1)], 1),
    ('LOAD_LOCAL_LIST_PROP', [('LOAD_LOCAL', 0), ('LIST_PROP', 1), ('POP',)], 1),
    # the global, then its property (a Team: only a hand-made file takes its first)
    ('LOAD_GLOBAL_PROP_LIST_PROP', [('LOAD_GLOBAL', 1), ('LOAD_PROP', HAND), ('LIST_PROP', 1),
                                    ('POP',)], 1),
    ('LOAD_GLOBAL_PROP_LIST_PROP', [('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('STORE_GLOBAL', 0),
                                    ('LOAD_GLOBAL', 0), ('LOAD_PROP', TEAM), ('LIST_PROP', 1),
                                    ('POP',)], 5),
])
def test_a_superinstruction_fails_at_the_part_that_fails(fused, main, column):
    # each part keeps its own position (here column = instruction), as the
    # plain instructions would report it
    assert getattr(OP, fused) in ops_of(main)
    assert error(*main) == 'Error: Line 1, Col %d: Undefined value' % column


@pytest.mark.parametrize('fused, main, players, column', [
    # a player's hand, empty before a deal: its first is the third part's error
    ('LOAD_GLOBAL_PROP_LIST_PROP', [('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('STORE_GLOBAL', 0),
                                    ('LOAD_GLOBAL', 0), ('LOAD_PROP', HAND), ('LIST_PROP', 1),
                                    ('POP',)], seated(), 6),
    # `players->first` with nobody seated (a hand-made file may offer 0 players)
    ('LOAD_BUILTIN_LIST_PROP', [('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('POP',)], [], 2),
])
def test_a_superinstructions_empty_list_is_at_the_part_that_takes_its_item(fused, main, players,
                                                                           column):
    assert getattr(OP, fused) in ops_of(main)
    m = Machine(Image(program(main)), OCamlRandom(1), events=[])
    with pytest.raises(PipError) as e:
        m.start(players)
    assert str(e.value) == "Error: Line 1, Col %d: Can't get item from empty list" % column


def test_a_builtin_list_property_of_the_deck():
    # LOAD_BUILTIN_LIST_PROP of `standard`: a new list of the 52 cards
    main = [('LOAD_BUILTIN', 2), ('LIST_PROP', 0), ('STORE_GLOBAL', 0),
            ('LOAD_BUILTIN', 2), ('LIST_PROP', 2), ('STORE_GLOBAL', 1)]
    assert OP.LOAD_BUILTIN_LIST_PROP in ops_of(main)
    g = run(*main)
    assert g[0] == 52 and str(g[1]) == 'King of Diamonds'


def test_a_message_of_a_value_that_is_no_string_is_invalid_bytecode():
    # only a damaged file gets here (the checker types a message's text)
    assert error(('CONST', K['7']), ('MESSAGE_ALL',)) == \
        'Error: invalid bytecode at offset 2 of action main (message of int)'


def test_a_new_area_takes_the_name_on_top_of_the_stack():
    # (the compiler makes each area with its name alone on the stack; a
    # hand-made file may have more under it)
    g = run(('CONST', K['7']), ('CONST', K['hi']), ('NEW_AREA', 0), ('STORE_GLOBAL', 0),
            ('STORE_GLOBAL', 1))
    assert g[0].name == 'hi' and g[1] == 7


def test_a_handler_may_jump_back_to_the_first_instruction():
    # g0 = 0 by the initialiser; main counts it to 3 in a loop whose test
    # (EQ_CONST_JUMP_IF_FALSE, a handler) jumps back to instruction 0
    init = code('init', 'globals', [], [('CONST', K['0']), ('STORE_GLOBAL', 0), ('RETURN',)])
    main = code('action', 'main', [], [
        ('LABEL', 'top'), ('LOAD_GLOBAL', 0), ('CONST', K['1']), ('ADD',), ('STORE_GLOBAL', 0),
        ('LOAD_GLOBAL', 0), ('CONST', K['3']), ('EQ',), ('JUMP_IF_FALSE', 'top'), ('RETURN',)])
    image = Image(validated([init, main], 1))
    assert (OP.EQ_CONST_JUMP_IF_FALSE, (K['3'], 0)) in [i[:2] for i in image.codes[1].instrs]
    m = Machine(image, OCamlRandom(1), events=[])
    assert m.start(seated()) is None
    assert m.globals[0] == 3


def test_ask_with_no_enabled_question():
    assert error(('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('CONST', K['hi']), ('CONST', K['False']),
                 ('ASK', 1), ('JUMP', 'q'), ('LABEL', 'q')) == \
        'Error: Line 1, Col 5: None of the questions can be asked'


def test_order_sorts_stably_by_the_ordering():
    g = run(('LIST_CONST', K['suits C,H']), ('POP',),
            ('CONST', K['A~C']), ('CONST', K['A~H']), ('CONST', K['A~C']), ('BUILD_LIST', 2),
            ('SWAP',), ('POP',), ('DUP',), ('ORDER', 3), ('STORE_GLOBAL', 0))
    assert [str(c) for c in g[0]] == ['Ace of Hearts', 'Ace of Clubs']


def test_rotate_and_shuffle():
    g = run(('LOAD_BUILTIN', 0), ('DUP',), ('ROTATE',), ('STORE_GLOBAL', 0),
            ('LOAD_BUILTIN', 2), ('DUP',), ('SHUFFLE',), ('STORE_GLOBAL', 1))
    assert [p.name for p in g[0]] == ['Bob', 'Ann']
    expected = new_deck()
    OCamlRandom(1).shuffle(expected)                # the game's generator, seed 1
    assert [str(c) for c in g[1]] == [str(c) for c in expected]
    assert [str(c) for c in g[1]] != [str(c) for c in new_deck()]


def test_a_value_that_is_no_cards_where_cards_are_expected():
    # only a damaged file gets here (the checker types a play's pile): cards_of's own error
    assert error(('LOAD_BUILTIN', 0), ('LIST_PROP', 1), ('CONST', K['3']), ('PLAY', 2)) == \
        'Error: Line 1, Col 4: Expected cards'


DEAL_TO_NOBODY = '''Game "Nobody" requires 2 players.
Deck stock = standard.
PlayerList nobody = [].
Action main {
  deal all from stock to nobody.
  deal 3 from stock to nobody.
  let n be stock->size.
  message "{n} left".
}
'''


def test_a_deal_to_an_empty_player_list_moves_nothing():
    # the original divides by zero; both engines leave the source as it was
    vm, ref = both(DEAL_TO_NOBODY, 1, ['2', 'A', 'B'])
    assert vm == ref
    assert vm.transcript.splitlines()[-2] == '52 left'


TWO_ORDERS = '''Game "Two orders" requires 2 players.
Deck d = [2~H; A~C; 3~H; K~C].
Ordering clubs(cl) = [A..K~C; A..K~H].
Ordering high(cl) = [K~%; 3~%; 2~%; A~%].
Action main {
  order d by clubs.
  for c in d { message "{c}". }
  order d by high.
  for c in d { message "{c}". }
  order d by clubs.
  for c in d { message "{c}". }
}
'''


def test_a_constant_orderings_places_are_kept_for_it_alone():
    # the places of an ordering whose list is a constant of the game are
    # computed once (Machine.ordered): the next ordering must not find them
    vm, ref = both(TWO_ORDERS, 1, ['2', 'A', 'B'])
    assert vm == ref
    lines = vm.transcript.splitlines()
    assert lines[-13:-1] == ['Ace of Clubs', 'King of Clubs', 'Two of Hearts', 'Three of Hearts',
                             'King of Clubs', 'Three of Hearts', 'Two of Hearts', 'Ace of Clubs',
                             'Ace of Clubs', 'King of Clubs', 'Two of Hearts', 'Three of Hearts']


def _by_first_place(cards, result):
    """ORDER's meaning written plainly: each card's first place in the
    result by identity, one not there after the rest, stably."""
    def place(card):
        return next((i for i, r in enumerate(result) if r is card), len(result))
    return sorted(cards, key=place)


@pytest.mark.parametrize('constant', [False, True])
def test_order_sorts_by_each_cards_first_place_by_identity(constant):
    # Machine.ordered's key: a dict by the card itself where the result
    # holds only cards, by id otherwise; an unhashable item after the rest
    import types
    deck, other = new_deck(), new_deck()
    rank = RANKS[5]
    results = [[deck[3], deck[1], deck[3], deck[7]], [], [deck[9], 5, deck[2], other[0]],
               [int(rank), deck[4], [deck[1]]]]
    for result in results:
        cards = [deck[7], deck[0], other[0], deck[3], deck[5], deck[1], rank, deck[9], deck[4]]
        m = types.SimpleNamespace(places={}, evaluate=lambda ordering, args: list(result),
                                  image=types.SimpleNamespace(pure=[types.SimpleNamespace(
                                      constant=constant)]))
        for _ in range(2):          # (the second from the kept key, if constant)
            assert Machine.ordered(m, 0, cards) == _by_first_place(cards, result), result
            assert Machine.ordered(m, 0, cards + [[deck[1]]]) == \
                _by_first_place(cards + [[deck[1]]], result)
        assert bool(m.places) == constant


def test_an_ordering_without_closures_orders_on_the_loop():
    # a backward jump: pure.translate refuses it, so the loop evaluates the
    # ordering (Hearts first) each time
    init = code('init', 'globals', [], [('RETURN',)])
    ordering = code('ordering', 'hearts_first', ['cards'], [
        ('LABEL', 'top'), ('CONST', K['True']), ('JUMP_IF_FALSE', 'top'),
        ('CONST', K['Hearts']), ('WILD_RANK',), ('RETURN_VALUE',)])
    main = code('action', 'main', [], [
        ('CONST', K['A~C']), ('CONST', K['A~H']), ('BUILD_LIST', 2), ('DUP',), ('ORDER', 1),
        ('DUP',), ('ORDER', 1), ('STORE_GLOBAL', 0), ('RETURN',)])
    image = Image(validated([init, ordering, main], 2))
    assert image.pure[1] is None
    m = Machine(image, OCamlRandom(1), events=[])
    assert m.start(seated()) is None
    assert [str(c) for c in m.globals[0]] == ['Ace of Hearts', 'Ace of Clubs']


AGGREGATE_THEN_UNDEFINED = '''Game "Counted" requires 2 players.
Deck deck = standard.
Area table labeled "Table" is faceup.
Rank g.
Rule r(p, c, pile) = (count x in p->hand where x->rank == c->rank) >= 1 and c->rank == g.
Action main {
  deal 2 from deck to players.
  play r from players->first to table.
}
'''


def test_a_rule_whose_closure_fails_runs_on_the_loop_with_room_for_its_aggregate():
    # the closure fails at g; the loop runs the rule again, in a frame with a
    # slot for the count's x, and fails at g too (not at x)
    vm, ref = both(AGGREGATE_THEN_UNDEFINED, 1, ['2', 'A', 'B'])
    assert vm == ref
    assert vm.ending == 'Error: Line 5, Col 88: Undefined value'
