"""The extension 'several cards at once' (docs/language.md): `Rule R(p, cards,
pile) for sets = ...`, `play R from P to D [or pass { ... }]` and `canplay R
from P to D`, through every layer."""
import random

import pytest
from pygments.token import Keyword

from compiler.pip import frontend, parser
from compiler.errors import PipError, PipSyntaxError
from compiler.pip.highlight import PipLexer
from pipvm.engine.vm import Image
from pipvm.game.game import Game
from pipvm.isa import pipc
from tests.fuzz.harness import both
from tests.test_extensions import printed_refused_found

PAIRS = '''Game "Pairs" requires 2 players.
Deck d = [5~H; 5~S; 9~C; 5~D; 9~H; 9~S; 2~C; 2~D].
Area pile labeled "Pile" is faceup.
Area hidden labeled "Hidden" is facedown.
Number led = 2.
Number passes = 0.
Rule beats(p, cards, cl) for sets = cards->size >= led and (cl->size == 0 or cards->top->rank > cl->top->rank).
Rule any(p, cards, cl) for sets = cards->size == 1.
Action main {
  deal 4 from d to players.
  for p in players {
    play beats from p to pile or pass {
      passes += 1.
      message "{p} passed".
    }
  }
  play any from players->last to hidden.
  let n be pile->cards->size.
  message "{n} {passes}".
}
'''
NAMES = ['2', 'Ada', 'Ben']


def test_sets_and_passes_run_the_same_on_the_vm_and_the_reference():
    vm, ref = both(PAIRS, 1, NAMES + ['Five of Diamonds and Five of Spades', 'Pass', 0])
    assert vm == ref
    lines = vm.transcript.splitlines()
    ada = lines.index('Ada: Choose cards:')
    assert lines[ada + 1:ada + 4] == ['  Five of Diamonds and Five of Spades', '  Pass',
                                      'Your choice? Five of Diamonds and Five of Spades']
    assert lines[ada + 4:ada + 6] == ['Ada played Five of Diamonds.', 'Ada played Five of Spades.']
    ben = lines.index('Ben: Choose cards:')
    assert lines[ben + 1:ben + 3] == ['  Nine of Hearts and Nine of Clubs', '  Pass']
    assert 'Ben passed' in lines and lines[-2:] == ['2 1', 'No winner has been declared.']


def test_the_options_are_every_set_of_one_rank_the_rule_allows_in_hand_order():
    game = Game(frontend.compile_text(PAIRS), seed=1, players=2, names=['Ada', 'Ben'])
    d = game.decision
    assert d.kind == 'cards' and d.prompt == 'Ada: Choose cards:' and d.options[-1] == 'Pass'
    hand = [str(c) for c in game.players[0].hand]
    pairs = [o for o in d.options[:-1]]
    assert all(o.count(' and ') == 1 for o in pairs)           # led = 2: pairs only here
    for option in pairs:
        a, b = option.split(' and ')
        assert a.split(' of ')[0] == b.split(' of ')[0] and hand.index(a) < hand.index(b)


def test_a_set_choice_relabelled_names_its_cards_now_and_keeps_the_pass():
    # a belief's particle trades never-seen cards in place (each object takes
    # the other's identity), then relabels the waiting choice by the names
    game = Game(frontend.compile_text(PAIRS), seed=1, players=2, names=['Ada', 'Ben'])
    pending = game.machine.pending
    a, b = pending.sets[0]
    a.name, b.name = 'Ace of Clubs', 'Two of Clubs'
    labels = pending.relabelled().labels
    assert labels[0] == 'Ace of Clubs and Two of Clubs'
    assert labels[1:] == pending.labels[1:] and labels[-1] == 'Pass'


def test_no_set_and_no_pass_is_the_play_error_on_both():
    source = PAIRS.replace('Number led = 2.', 'Number led = 5.').replace(' or pass {', ' {')
    source = source.replace('play beats from p to pile {', 'play beats from p to pile.\n    if False {')
    vm, ref = both(source, 1, NAMES)
    assert vm == ref and vm.ending == 'Error: Line 12, Col 5: No cards match the given rule'


def test_canplay_with_a_rule_for_sets_is_whether_some_set_is_allowed():
    """canplay of a rule for sets: True iff play would offer a set (the
    pass aside), on the VM (CANPLAY_SET, also in a rule's closures) and the
    reference alike."""
    source = PAIRS.replace('  for p in players {\n', """  for p in players {
    for n in [1; 2; 3; 4] {
      led = n.
      let can be canplay beats from p to pile.
      let via be canplay pairable from p to pile.
      message "{p} {n} {can} {via}".
    }
    led = 2.
""").replace('Rule any(', 'Rule pairable(p, c, cl) = canplay beats from p to cl.\nRule any(')
    vm, ref = both(source, 1, NAMES + ['Five of Diamonds and Five of Spades', 'Pass', 0])
    assert vm == ref
    shown = [line for line in vm.transcript.splitlines() if line[-4:] in ('True', 'alse')]
    # Ada holds 5 5 9 2, Ben 9 9 5 2 of the deck: pairs, no triples
    assert shown == ['Ada 1 True True', 'Ada 2 True True', 'Ada 3 False False', 'Ada 4 False False',
                     'Ben 1 True True', 'Ben 2 True True', 'Ben 3 False False', 'Ben 4 False False']
    program = frontend.compile_text(source)
    code = {c.name: (i, c) for i, c in enumerate(program.codes)}
    for name in ('main', 'pairable'):
        assert 'CANPLAY_SET' in [i.op.name for i in pipc.decode(code[name][1].code)]
    assert Image(program).pure[code['pairable'][0]] is not None   # closures, not the loop


def test_a_face_down_set_is_hidden_from_the_others():
    game = Game(frontend.compile_text(PAIRS), seed=1, players=2, names=['Ada', 'Ben'])
    game.answer(game.decision.options.index('Pass'))
    game.answer(game.decision.options.index('Pass'))
    game.answer(0)                                       # Ben's single card, face down
    last = [e for e in game.events if e.kind == 'played'][-1]
    assert last.seen_by(0).text == 'Ben played a card face down.'
    assert last.seen_by(1).text.startswith('Ben played ') and 'face down' not in last.seen_by(1).text


# ('or pass' after a rule for one card is no longer an error: a single card
# or a pass, tests/test_ext_endings.py)
@pytest.mark.parametrize('change,error', [
    (('cards->size == 1.', 'cards->rank == 1.'), "Line 8, Col 42: Type CardList has no property named 'rank'"),
])
def test_checker_errors_are_positioned(change, error):
    source = PAIRS.replace(*change)
    with pytest.raises(PipError) as e:
        frontend.check_text(source)
    assert str(e.value) == 'Error: ' + error


@pytest.mark.parametrize('change,line', [
    (('for sets =', 'for set ='), 7),
    (('to hidden.', 'to hidden or skip.'), 17),
])
def test_other_words_are_the_2008_syntax_errors(change, line):
    with pytest.raises(PipSyntaxError) as e:
        parser.parse(PAIRS.replace(*change))
    assert str(e.value) == 'Error: syntax error on line %d' % line


def test_pass_and_sets_are_still_names_in_2008_programs():
    source = '''Game "N" requires 2 players.
Number pass = 1.
Number sets = 2.
Action main { pass += sets. message "{pass}". }
'''
    vm, ref = both(source, 1, NAMES)
    assert vm == ref and '3\n' in vm.transcript
    frontend.check_text(source, strict=True)


def test_printer_round_trips_and_strict_refuses():
    printed, refused, found = printed_refused_found(PAIRS)
    assert ') for sets = ' in printed and 'or pass {\n' in printed
    assert refused == ("Error: Line 7, Col 1: a rule for sets of cards ('for sets') is an "
                       "extension to 2008 Pip (refused by --strict)")
    assert found == ['SetRuleDecl', 'SetRuleDecl', 'PlayOrPass']


def test_highlighters_show_the_paired_words_as_keywords():
    tokens = [(t, v) for t, v in PipLexer().get_tokens(PAIRS)]
    assert (Keyword, 'sets') in tokens and (Keyword, 'pass') in tokens
    import json
    import os
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, 'editors', 'pip.tmLanguage.json'), encoding='utf-8') as f:
        assert {'include': '#paired'} in json.load(f)['patterns']


def test_forks_views_determinization_and_random_bots_play_it():
    rng = random.Random(2)
    program = frontend.compile_text(PAIRS)
    for seed in range(1, 8):
        game = Game(program, seed=seed, players=2, names=['Ada', 'Ben'])
        while game.decision is not None:
            d = game.decision
            assert game.view(d.seat)['decision']['options'] == list(d.options)
            for seat in (0, 1):
                world = game.determinize(seat, rng)
                if seat == d.seat:
                    assert world.decision.options == d.options
            choice = rng.randrange(len(d.options))
            other = game.fork()
            game.answer(choice)
            other.answer(choice)
            assert other.events == game.events
        assert game.ending.kind == 'no winner'


def test_bytecode_file_round_trip():
    from pipvm.isa import pipc
    program = frontend.compile_text(PAIRS)
    loaded = pipc.load(pipc.dump(program), 'g.pipc')
    a, b = (Game(p, seed=1, players=2, names=['Ada', 'Ben']) for p in (program, loaded))
    assert a.decision == b.decision


def test_a_rule_for_sets_may_count_on_both_engines():
    """An aggregate's item is a local after the rule's three arguments: the
    reference interpreter once gave it no slot (an IndexError, with a
    traceback) in a rule for sets."""
    source = PAIRS.replace('Rule any(p, cards, cl) for sets = cards->size == 1.',
                           'Rule any(p, cards, cl) for sets = (count x in cards where x->rank > 1) == 1.')
    vm, ref = both(source, 1, NAMES + ['Five of Diamonds and Five of Spades', 'Pass', 0])
    assert vm == ref and vm.ending == 'no winner' and 'Ben played ' in vm.transcript
