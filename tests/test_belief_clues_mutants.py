"""clues.py's pure functions, pinned directly (mutation testing: the belief
suite reaches them only through whole games, minutes a mutant)."""
from pipvm.game.belief.clues import (
    BY_WORD, CARD_NAME, DECK_INDEX, NAMES, agreement, apart, closeness, first_difference,
    groups, held, leaves, related, shown_pairs, singular)


def _cards(*names):
    return frozenset(DECK_INDEX[n] for n in names)


def _rank(word):
    return frozenset(DECK_INDEX[n] for n in NAMES if n.startswith(word + ' of '))


def test_closeness_counts_the_log_prefix_and_the_agreeing_leaves():
    # log: the matching prefix (2), then one leaf of two in the hand, nothing else
    seen = {'log': ['a', 'b', 'x', 'd'], 'hand': ['Q', 'K'], 'pile': 3}
    want = {'log': ['a', 'b', 'c', 'd'], 'hand': ['Q', 'J'], 'pile': 4}
    assert closeness(seen, want) == 3
    # an observation agreeing in nothing scores 0, never the -1 of a refused answer
    assert closeness({'log': ['x'], 'hand': ['A']}, {'log': ['y'], 'hand': ['B']}) == 0
    assert closeness({}, {'log': ['y']}) == 0
    assert closeness({'log': ['a', 'b']}, {'log': ['a', 'b', 'c']}) == 2


def test_agreement_and_leaves():
    # pins agreement's walk (dicts by key of want, lists place by place) and leaves' count
    assert agreement({'a': 1, 'b': [1, 2]}, {'a': 1, 'b': [1, 3], 'c': 5}) == 2
    assert agreement((1, 2, 3), [1, 0, 3]) == 2
    assert agreement({'a': [1, (2, 3)]}, {'a': [1, (2, 3)], 'b': {'c': 4}}) == 3
    assert agreement(1, [1]) == 0 and agreement([1], {'a': 1}) == 0
    assert leaves({'a': [1, (2, 3)], 'b': {'c': 4}}) == 4
    assert leaves([]) == 0 and leaves(7) == 1
    assert agreement({'a': [1, 2]}, {'a': [1, 2]}) == 2


def test_first_difference_and_apart():
    # pins where two logs first differ and the multiset difference in order
    assert first_difference([1, 2, 3], [1, 2, 4]) == 2
    assert first_difference([1, 2], [1, 2, 3]) == 2 and first_difference([1, 2, 3], [1]) == 1
    assert first_difference([], []) == 0 and first_difference([5], [6]) == 0
    assert apart([1, 2, 2, 3], [2, 4]) == [1, 2, 3]
    assert apart([2, 1, 2], [2, 2]) == [1] and apart([], [1]) == []


def test_words_names_and_held():
    # pins the tables read from the deck's names and held's test
    assert len(NAMES) == 52 and len(set(NAMES)) == 52
    assert BY_WORD['ace'] == sorted(_rank('Ace')) and len(BY_WORD['clubs']) == 13
    assert singular('sixes') == 'six' and singular('kings') == 'king'
    assert singular('hearts') == 'hearts' and singular('tens') == 'ten'
    assert CARD_NAME.findall('the Ten of Clubs and the Two of Hearts.') == [
        'Ten of Clubs', 'Two of Hearts']
    assert groups(['Sevens and hearts', 'no words here']) == [
        _rank('Seven'), frozenset(BY_WORD['hearts'])]
    assert groups(['the Seven of Clubs']) == []
    where = {1: ('hand', 'Ann'), 2: ('stash', 'Ann'), 3: ('area', 0), 4: ('list', 'pile')}
    assert [held(where, i) for i in (1, 2, 3, 4, 5)] == [True, True, False, False, False]


def test_related_names_cards_ranks_and_the_line_before():
    # pins related: an answer not an option; the differing lines and the one before; other keys
    assert related(None) == frozenset()
    assert related(({'log': []}, 'Sevens')) == _rank('Seven')
    seen = {'log': [{'text': 'Ann asks Ben for kings.'}, {'text': 'Ben has none.'},
                    {'text': 'Ann draws.'}], 'hand': ['Ace of Clubs']}
    want = {'log': [{'text': 'Ann asks Ben for kings.'},
                    {'text': 'Ben hands over the Two of Clubs.'}, {}],
            'hand': ['Ace of Hearts'], 'turn': 'Ann'}
    assert related((seen, want)) == _rank('King') | _cards(
        'Two of Clubs', 'Ace of Clubs', 'Ace of Hearts')
    # a line two before the difference is not read
    seen2 = {'log': [{'text': 'queens'}, {'text': 'x'}, {'text': 'y'}]}
    want2 = {'log': [{'text': 'queens'}, {'text': 'x'}, {'text': 'Three of Clubs'}]}
    assert related((seen2, want2)) == _cards('Three of Clubs')
    # the first line differing: no line before it
    assert related(({'log': [{'text': 'a Jack of Clubs'}]}, {'log': [{}]})) == _cards(
        'Jack of Clubs')
    assert related(({'log': [{'text': 'y'}]}, {'log': [{'text': 'Five of Clubs'}]})) == _cards(
        'Five of Clubs')
    # the line after the difference is not read
    assert related(({'log': [{'text': 'y'}]}, {'log': [{}, {'text': 'Four of Clubs'}]})) == frozenset()
    assert related(({'log': [{}, {'text': 'Four of Clubs'}]}, {'log': [{'text': 'y'}]})) == frozenset()
    # keys that agree are not read
    assert related(({'log': [], 'table': 'Six of Clubs', 'n': 1},
                    {'log': [], 'table': 'Six of Clubs', 'n': 2})) == frozenset()


def test_shown_pairs_place_by_place():
    # pins shown_pairs: lists set apart, cards paired in order, lines by names, each Y once
    seen = {'hand': ['Queen of Hearts', 'Two of Clubs'],
            'log': [{'text': 'Ann plays the Ace of Clubs.'}]}
    want = {'hand': ['Two of Clubs', 'Queen of Clubs'],
            'log': [{'text': 'Ann plays the Ace of Hearts.'}]}
    assert shown_pairs((seen, want)) == [('Queen of Hearts', 'Queen of Clubs'),
                                         ('Ace of Clubs', 'Ace of Hearts')]
    # the same Y once; lines naming different numbers of cards pair nothing
    seen = {'a': ['Six of Clubs'], 'b': 'Six of Clubs', 'c': 'Ten of Clubs and Two of Clubs'}
    want = {'a': ['Six of Hearts'], 'b': 'Seven of Clubs', 'c': 'Ten of Hearts'}
    assert shown_pairs((seen, want)) == [('Six of Clubs', 'Six of Hearts')]
    # strings of different lengths in a list pair nothing; equal lengths pair in order
    assert shown_pairs(({'h': ['Ace of Clubs']}, {'h': ['Ace of Hearts', 'Two of Hearts']})) == []
    assert shown_pairs(({'h': ['Ace of Clubs', 'Two of Clubs']},
                        {'h': ['Ace of Hearts', 'Two of Hearts']})) == [
        ('Ace of Clubs', 'Ace of Hearts'), ('Two of Clubs', 'Two of Hearts')]
    assert shown_pairs(({'h': [['Ace of Clubs'], 1]}, {'h': [['Ace of Hearts']]})) == [
        ('Ace of Clubs', 'Ace of Hearts')]


def test_shown_pairs_walks_only_like_with_like():
    # pins shown_pairs' type tests: a dict against a non-dict, a list against a dict, pair nothing
    assert shown_pairs(({}, {'x': {'y': 'Ace of Clubs'}})) == []
    assert shown_pairs(({'x': ['Ace of Clubs']}, {'x': {'y': 'Ace of Hearts'}})) == []
    assert shown_pairs(({'x': {'y': 'Ace of Clubs'}}, {'x': ['Ace of Hearts']})) == []
    assert shown_pairs(({'x': ['Ace of Clubs']}, {'x': {'Ace of Hearts': 0}})) == []
    assert shown_pairs(({'x': {'Ace of Clubs': 0}}, {'x': ['Ace of Hearts']})) == []


def test_agreement_counts_only_want_s_leaves():
    # pins agreement's order (seen, want): a leaf only seen has (even None) counts nothing
    assert closeness({'x': {'a': None}}, {'x': {}}) == 0
    assert agreement({'x': {'a': None}}, {'x': {}}) == 0
    assert agreement([{'a': None}], [{}]) == 0
    assert closeness({'x': {}}, {'x': {'a': None}}) == 1      # (a missing key reads as None)


def test_related_without_a_log():
    # pins related's defaults for an observation without a log
    assert related(({}, {'hand': ['Ace of Clubs']})) == _cards('Ace of Clubs')
    assert related(({'hand': ['Ace of Hearts']}, {})) == _cards('Ace of Hearts')


from types import SimpleNamespace as NS  # noqa: E402

from pipvm.game.belief.clues import Clues, gathering  # noqa: E402


def _machine(pending='Ben'):
    deck = [object() for _ in range(6)]
    seated = [NS(name='Ann', hand=deck[0:2], stash=deck[2:3]), NS(name='Ben', hand=deck[3:4], stash=[]),
              NS(name='Cleo', hand=deck[4:5], stash=[])]
    return NS(deck=deck, seated=seated,
              pending=NS(player=NS(name=pending)) if pending else None)


def _p(diff, pending='Ben', score=(3, 2), matched=9):
    return NS(diff=diff, score=score, matched=matched, game=NS(machine=_machine(pending)))


def test_named_pairs():
    # pins named_pairs: both sides name cards; one side only (drawn snaps, else any movable)
    qh, qs, c2 = (DECK_INDEX[n] for n in ('Queen of Hearts', 'Queen of Spades', 'Two of Clubs'))
    movable = [qh, qs, c2]
    assert Clues.named_pairs(None, _p(None), movable, []) == []
    both = _p(({'hand': ['Queen of Hearts']}, {'hand': ['Queen of Spades']}))
    assert Clues.named_pairs(None, both, movable, [(qh, 40)]) == [(qh, qs)]
    assert Clues.named_pairs(None, both, [qh, c2], []) == [(qh, c2)]
    ours = _p(({'hand': ['Queen of Hearts']}, {'hand': []}))
    assert Clues.named_pairs(None, ours, movable, [(c2, 1), (qh, 40)]) == [(qh, 40)]
    assert sorted(Clues.named_pairs(None, ours, movable, [(c2, 1)])) == sorted([(qh, qs), (qh, c2)])
    theirs = _p(({'hand': []}, {'hand': ['Queen of Spades']}))
    assert sorted(Clues.named_pairs(None, theirs, movable, [])) == sorted([(qs, qh), (qs, c2)])
    assert Clues.named_pairs(None, theirs, movable, [(qs, 7)]) == [(qs, 7)]


def test_concerned():
    # pins concerned: the player who could not answer, else the names in the seat's differing line
    assert Clues.concerned(None, _p(None)) == set()
    assert Clues.concerned(None, _p(({}, 'Sevens'))) == {'Ben'}
    assert Clues.concerned(None, _p(({}, 'Sevens'), pending=None)) == set()
    seen = {'log': [{'text': 'x'}, {'text': 'Ann asks.'}]}
    want = {'log': [{'text': 'x'}, {'text': 'Cleo hands over 1 to Ann.'}]}
    assert Clues.concerned(None, _p((seen, want))) == {'Cleo', 'Ann'}
    assert Clues.concerned(None, _p((want, seen))) == {'Ann'}
    assert Clues.concerned(None, _p((want, {'log': want['log'][:1]}))) == set()
    assert Clues.concerned(None, _p(({}, {'log': [{'text': 'Ben'}]}))) == {'Ben'}
    assert Clues.concerned(None, _p((seen, {}))) == set()
    assert Clues.concerned(None, _p(({'log': []}, {'log': [{}]}))) == set()


def test_named_plays():
    # pins named_plays: the seat's names not in p's, at each unseen play from start before matched
    me = NS(unseen_plays={9, 2, 7, 5})
    p = _p(({'hand': ['Queen of Hearts']}, {'hand': ['Two of Clubs', 'Queen of Spades', 'Queen of Hearts']}),
           matched=9)
    assert Clues.named_plays(me, p, 5) == [(5, 'Queen of Spades'), (5, 'Two of Clubs'),
                                           (7, 'Queen of Spades'), (7, 'Two of Clubs')]
    assert Clues.named_plays(me, p, 8) == []
    assert Clues.named_plays(me, _p(None), 0) == []


def test_involved():
    # pins involved: the refused player; differing players and named ones; the seat alone: every hand
    me = NS(seat=0)
    assert Clues.involved(me, _p(None)) == frozenset()
    assert Clues.involved(me, _p(({}, 'Sevens'), score=(3, -1))) == {3}
    assert Clues.involved(me, _p(({}, 'Sevens'), score=(3, -1), pending=None)) == frozenset()
    seen = {'players': [{'name': 'Ann', 'seat': 0, 'n': 2}, {'name': 'Ben', 'seat': 1, 'n': 1}],
            'log': [{'text': 'x'}]}
    want = {'players': [{'name': 'Ann', 'seat': 0, 'n': 2}, {'name': 'Ben', 'seat': 1, 'n': 2}],
            'log': [{'text': 'Cleo draws.'}]}
    assert Clues.involved(me, _p((seen, want))) == {3, 4}
    assert Clues.involved(me, _p((want, seen))) == {3, 4}
    ann = {'players': [{'name': 'Ann', 'seat': 0, 'n': 3}, {'name': 'Ben', 'seat': 1, 'n': 1}]}
    assert Clues.involved(me, _p((seen, ann))) == {0, 1, 2, 3, 4}
    assert Clues.involved(NS(seat=1), _p((seen, ann))) == {0, 1, 2}
    assert Clues.involved(me, _p(({}, {}))) == {0, 1, 2, 3, 4}


def test_gathering():
    # pins gathering: the group a line names, the zone of the named (or refused) players' hands
    sevens, nines, tens = _rank('Seven'), _rank('Nine'), _rank('Ten')
    now = {1: ('hand', 'Ben'), 2: ('hand', 'Ann'), 3: ('stash', 'Ben'), 4: ('area', 'Ben')}
    assert gathering(_p(None), now, set()) is None
    assert gathering(_p(({}, 'Sevens')), now, {7}) == ([sevens], frozenset({1, 7}), frozenset())
    assert gathering(_p(({}, 'Sevens'), pending=None), now, {7}) == (
        [sevens], frozenset({7}), frozenset())
    assert gathering(_p(({}, 'Sevens'), pending=None), now, set()) is None
    assert gathering(_p(({}, 'Ben')), now, {7}) is None
    a = [{'text': 'Ann asks Ben.'}, {'text': 'Ben has no tens.'}]
    b = [{'text': 'Ann asks Ben.'}, {'text': 'Ben lays down a book: Nine.'}]
    assert gathering(_p(({'log': a}, {'log': b})), now, set()) == ([nines], frozenset({1}), tens)
    assert gathering(_p(({'log': b}, {'log': b[:1]})), now, set()) is None
    assert gathering(_p(({'log': a[:1]}, {'log': b})), now, set()) == (
        [nines], frozenset({1}), frozenset())
    assert gathering(_p(({}, {'log': [{'text': 'Sevens, Ann'}]})), now, set()) == (
        [sevens], frozenset({2}), frozenset())
    assert gathering(_p(({'log': b}, {})), now, set()) is None
    assert gathering(_p(({'log': []}, {'log': [{}]})), now, {7}) is None


def test_places():
    # pins places: each held card by hand or stash and owner, a global list's cards by its name
    from pipvm.core.runtime import Area, Card
    from pipvm.game.belief.clues import places
    m = _machine()
    m.deck = [Card(rank=r, suit=1) for r in range(6)]
    for q, (h, s) in zip(m.seated, ((0, 2), (3, 4), (4, 5))):
        q.hand, q.stash = m.deck[h:h + 1] + ([m.deck[1]] if q.name == 'Ann' else []), m.deck[s:s + 1]
    m.seated[1].stash, m.seated[2].stash = [], []
    m.deck.append(Card(rank=6, suit=1))
    m.globals = [m.deck[5:6], 3, Area('table', m.deck[6:7], False, False)]
    m.program = NS(global_names=['pile', 'n', 'table'])
    assert places(m) == {0: ('hand', 'Ann'), 1: ('hand', 'Ann'), 2: ('stash', 'Ann'),
                         3: ('hand', 'Ben'), 4: ('hand', 'Cleo'), 5: ('list', 'pile'),
                         6: ('area', 0)}
    assert [held(places(m), i) for i in range(7)] == [True] * 5 + [False] * 2


def test_shown_pairs_reads_only_two_lines():
    # pins shown_pairs' string test: a line against a number or None pairs nothing
    assert shown_pairs(({'x': 'Ace of Clubs', 'y': None}, {'x': 5, 'y': 'Two of Clubs'})) == []


def test_concerned_a_line_without_text_names_nobody():
    # pins concerned's empty text for a line without one (even a player named '!' is not named)
    p = _p(({'log': []}, {'log': [{}]}))
    p.game.machine.seated.append(NS(name='!', hand=[], stash=[]))
    assert Clues.concerned(None, p) == set()


def test_named_pairs_do_not_depend_on_the_order_of_movable():
    # pins named_pairs' set(movable): the same cards in another order give the same pairs, in order
    qh, qs, c2 = (DECK_INDEX[n] for n in ('Queen of Hearts', 'Queen of Spades', 'Two of Clubs'))
    ours = _p(({'hand': ['Queen of Hearts']}, {'hand': []}))
    assert Clues.named_pairs(None, ours, [qh, qs, c2], []) == Clues.named_pairs(None, ours, [c2, qs, qh], [])


def test_related_window_at_the_start_of_longer_logs():
    # pins related's window max(k - 1, 0):k + 1 where the first lines differ and more follow
    assert related(({'log': [{'text': 'a Jack of Clubs'}, {'text': 'x'}]}, {'log': [{}]})) == _cards(
        'Jack of Clubs')
    assert related(({'log': [{'text': 'y'}]}, {'log': [{'text': 'Five of Clubs'}, {}]})) == _cards(
        'Five of Clubs')


def test_gathering_reads_only_the_world_s_differing_line_for_wrong():
    # pins gathering's wrong: the groups of the world's line at the difference, not the line after
    now = {1: ('hand', 'Ben')}
    a = [{'text': 'Ann asks Ben.'}, {'text': 'Ben has no tens.'}, {'text': 'queens'}]
    b = [{'text': 'Ann asks Ben.'}, {'text': 'Ben lays down a book: Nine.'}]
    assert gathering(_p(({'log': a}, {'log': b})), now, set()) == (
        [_rank('Nine')], frozenset({1}), _rank('Ten'))
