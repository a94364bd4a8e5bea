"""Determinization's distribution, and a seat determinized at several of its
decisions, on a small game with fixed seeds (so the statistics are
deterministic).  The generated games of tests/fuzz/test_views.py check what
every sample keeps; these check how the rest is dealt."""
import collections
import random

from compiler.codegen import generator as codegen
from compiler.pip import frontend
from pipvm.core.rng import OCamlRandom
from pipvm.game.determinize import Recorded, real_trace
from pipvm.game.game import Game

from .fuzz.harness import NotingDealer
from .privacy import CARD_NAMES        # by deck index

SMALL = '''Game "Small" requires 2 players.
Deck stock = [A~S; 2~S; 3~S; 4~S; 5~S].
Area pile labeled "pile" is faceup.
Rule any(p, c, d) = True.
Action main {
  shuffle stock.
  deal 2 from stock to players.
  forever {
    play any from players->first to pile.
    play any from players->last to pile.
  }
}
'''
SAMPLES = 600
CRITICAL_2DF = 13.82           # chi-square, 2 degrees of freedom, p = 0.001


def small_game(seed=3):
    return Game(codegen.generate(frontend.check_text(SMALL)), seed=seed, players=2,
                names=['Ann', 'Bob'])


def chi_square(counts, expected):
    return sum((counts[k] - expected) ** 2 / expected for k in counts)


def test_an_unseen_card_is_equally_likely_in_every_consistent_place():
    game = small_game()
    ann, bob = game.players
    unseen = [str(c) for c in bob.hand] + [str(c) for c in game.machine.globals[0]]
    assert len(unseen) == 3 and game.decision.seat == 0
    rng = random.Random(1)
    in_stock = collections.Counter({c: 0 for c in unseen})
    for _ in range(SAMPLES):
        sample = game.determinize(0, rng)
        assert [str(c) for c in sample.players[0].hand] == [str(c) for c in ann.hand]
        (left,) = sample.machine.globals[0]
        in_stock[str(left)] += 1
    assert set(in_stock) == set(unseen)
    assert chi_square(in_stock, SAMPLES / 3) < CRITICAL_2DF, in_stock


def test_a_seat_is_determinized_again_at_its_next_decision():
    """Ann's second decision (after both played a card face up): two cards
    are still hidden from her, Bob's last and the stock's, each equally
    likely in either place."""
    game = small_game()
    game.determinize(0, random.Random(0))         # her first decision, kept in the cache
    game.answer(0)
    game.answer(0)
    assert game.decision.seat == 0 and len(game.machine.globals[1].cards) == 2
    bob_card = str(game.players[1].hand[0])
    (bottom,) = map(str, game.machine.globals[0])
    rng = random.Random(2)
    with_bob = collections.Counter()
    for _ in range(SAMPLES):
        sample = game.determinize(0, rng)
        assert sample.view(0) == game.view(0)
        assert [str(c) for c in sample.machine.globals[1].cards] == \
            [str(c) for c in game.machine.globals[1].cards]      # both played face up
        with_bob[str(sample.players[1].hand[0])] += 1
    assert set(with_bob) == {bob_card, bottom}
    # binomial, p = 1/2: more than 3.3 standard deviations off fails (p < 0.001)
    assert abs(with_bob[bob_card] - SAMPLES / 2) < 3.3 * (SAMPLES / 4) ** 0.5, with_bob


def test_a_sample_keeps_what_the_seat_was_told_before_its_first_decision():
    """A message before Ann's first decision tells her a fact about a card
    she has not seen (the stock's is high: seed 1 deals her the 3 and the 5,
    so it is the 4, not the ace or the 2); a message after it tells her
    nothing.  Every sample must tell her the same: her first observation
    compares every event before it, not only the last."""
    told = SMALL.replace('  forever {', '  let high be stock->top->rank > 3.\n'
                         '  message "{high}".\n  message "Play.".\n  forever {')
    game = Game(codegen.generate(frontend.check_text(told)), seed=1, players=2,
                names=['Ann', 'Bob'])
    assert [str(c) for c in game.players[0].hand] == ['Three of Spades', 'Five of Spades']
    assert [e.text for e in game.events[-2:]] == ['True', 'Play.']
    rng = random.Random(1)
    for _ in range(40):
        sample = game.determinize(0, rng)
        assert sample.view(0) == game.view(0)
        assert [str(c) for c in sample.machine.globals[0]] == ['Four of Spades']


BLIND = '''Game "Blind" requires 2 players.
Deck stock = [A~S; 2~S; 3~S; 4~S].
Area pile labeled "pile" is facedown.
Rule any(p, c, d) = True.
Action main {
  deal 2 from stock to players.
  play any from players->last to pile.
  play any from players->first to pile.
}
'''


def test_a_card_played_out_of_sight_stays_hidden_in_a_game_without_shuffles():
    """Nothing is dealt at random, so Ann knows Bob holds the 3 and the ace;
    which one he played face down she cannot know, and her samples must not
    tell her (they were the real game: a fork, whenever nothing was shuffled)."""
    game = Game(codegen.generate(frontend.check_text(BLIND)), seed=1, players=2,
                names=['Ann', 'Bob'])
    game.answer(0)
    assert not game.machine.shuffles and game.decision.seat == 0
    rng = random.Random(0)
    played = collections.Counter()
    for _ in range(40):
        sample = game.determinize(0, rng)
        assert sample.view(0) == game.view(0)
        played[str(sample.machine.globals[1].cards[0])] += 1
    assert set(played) == {'Three of Spades', 'Ace of Spades'}, played


COVERED = '''Game "Covered" requires 2 players.
Deck stock = [A~S; 2~S; 3~S; 4~S; 5~S; 6~S].
Area pile labeled "pile" is faceup, squaredup.
Rule any(p, c, d) = True.
Action main {
  shuffle stock.
  deal 2 from stock to players.
  play any from players->last to pile.
  deal 1 from stock to pile.
  play any from players->first to pile.
}
'''


def test_a_card_named_when_played_is_seen_though_covered_before_the_next_decision():
    """Bob plays the 4 face up and the stock's 2 covers it before Ann's
    decision: she never sees it face up at a decision, but was told of it,
    so determinization counts it as seen and never moves it (no generated game covers
    a played card before the next decision)."""
    game = Game(codegen.generate(frontend.check_text(COVERED)), seed=1, players=2,
                names=['Ann', 'Bob'])
    game.answer(0)
    deck = [str(c) for c in game.machine.deck]
    seen = {deck[i] for i in real_trace(game, 0)[1]}
    assert [str(c) for c in game.machine.globals[1].cards] == ['Two of Spades', 'Four of Spades']
    assert seen == {'Ace of Spades', 'Six of Spades', 'Two of Spades', 'Four of Spades'}


TWICE = '''Game "Twice" requires 2 players.
Deck stock = [A~S; 2~S; 3~S; 4~S; 5~S].
Area pile labeled "pile" is faceup, spreadout.
Rule any(p, c, d) = True.
Action main {
  forever {
    shuffle stock.
    deal 2 from stock to players.
    play any from players->first to pile.
    play any from players->last to pile.
    play any from players->first to pile.
    play any from players->last to pile.
    deal all from pile to stock.
  }
}
'''


def test_a_card_seen_before_a_shuffle_is_hidden_again_after_it():
    """The four cards played face up in the first deal go back into the
    stock and are shuffled again: at Ann's first decision of the second
    deal, Bob's two cards and the stock's one are any three of the five but
    her own, each equally likely the stock's, in the samples and in a
    thinking bot's worlds alike.  (Both used to keep every card the seat
    had ever seen where the real shuffle put it: the stock's card was the
    real one every time, and a Euchre bot read the deal of every hand after
    the first; determinize.Sightings.)"""
    from pipvm.game.belief import Belief
    game = Game(codegen.generate(frontend.check_text(TWICE)), seed=3, players=2,
                names=['Ann', 'Bob'])
    rng = random.Random(1)
    while len(game.machine.shuffles) < 2:
        game.answer(rng.randrange(len(game.decision.options)))
    assert game.decision.seat == 0
    mine = {str(c) for c in game.players[0].hand}
    hidden = {str(c) for c in game.machine.globals[0]} | {str(c) for c in game.players[1].hand}
    assert len(hidden) == 3 and not hidden & mine
    # what the second deal keeps where the real shuffle put it: her own cards
    # only, not those she saw face up (spread out) at the decisions before it
    # (Sightings' clocks of decisions and of the events between them in order)
    pinned = real_trace(game, 0)[3]
    assert [sorted(CARD_NAMES[i] for i in p) for p in pinned[1:]] == [sorted(mine)]
    for world in (lambda s: game.determinize(0, random.Random(s)),
                  lambda s: Belief(0, 4, random.Random(s)).worlds(game, 1)[0]):
        in_stock = collections.Counter({c: 0 for c in hidden})
        for s in range(SAMPLES // 2):
            w = world(s)
            assert {str(c) for c in w.players[0].hand} == mine
            (left,) = w.machine.globals[0]
            in_stock[str(left)] += 1
        assert set(in_stock) == hidden
        assert chi_square(in_stock, SAMPLES / 6) < CRITICAL_2DF, in_stock
    # and at the next decision, her cards and the one she played since (an
    # event before the shuffle read again now would pin the cards it named)
    game.answer(0)
    since = mine | {str(c) for c in game.machine.globals[1].cards}
    assert len(since) == 2 and game.decision is not None
    assert sorted(CARD_NAMES[i] for i in real_trace(game, 0)[3][1]) == sorted(since)


SEATS = '''Game "Seats" requires 2 players.
Deck stock = [A~S; 2~S; 3~S].
Area pile labeled "pile" is faceup.
Rule any(p, c, d) = True.
Action main {
  shuffle stock.
  shuffle players.
  deal 1 from stock to players.
  play any from players->first to pile.
  play any from players->last to pile.
}
'''


def test_a_game_that_shuffles_its_players_is_determinized():
    """A shuffle of the players is a shuffle too, of no cards.  The beliefs
    noted each shuffle's cards by deck index, and a player has none: every
    world of such a game ended in an error at that shuffle, so a thinking
    bot never had one; and the new record of the real shuffles' orders
    failed the same way in every replay (found by the fuzz properties at
    seed 1)."""
    from pipvm.game.belief import Belief
    game = Game(codegen.generate(frontend.check_text(SEATS)), seed=2, players=2,
                names=['Ann', 'Bob'])
    seat = game.decision.seat
    assert len(game.machine.shuffles) == 2
    assert game.determinize(seat, random.Random(1)).view(seat) == game.view(seat)
    worlds = Belief(seat, 4, random.Random(1)).worlds(game, 4, quiet=False)
    assert worlds and all(w.view(seat) == game.view(seat) for w in worlds)


def test_fresh_deals_alone_find_a_world_at_every_decision_of_the_small_game():
    """Without the belief's repairs (repair=False), determinize's own fresh
    deals must succeed here: nothing the seats observe can refuse a deal of
    the cards they have not seen, so a replay compared against the wrong
    observation (the trace read from another decision) would show."""
    game = small_game(seed=5)
    rng = random.Random(4)
    decisions = 0
    while game.decision is not None:
        for seat in (0, 1):
            sample = game.determinize(seat, rng, repair=False)
            assert sample.view(seat) == game.view(seat)
        game.answer(0)
        decisions += 1
    assert decisions == 4          # two cards each, then the game ends


# the small game with a sixth card, shuffled again whenever the Ace is on top
EXTRA = SMALL.replace('5~S]', '5~S; 6~S]').replace(
    '  forever {\n', '  forever {\n    if stock->top->rank == A { shuffle stock. }\n')


def test_a_sample_may_shuffle_where_the_real_game_did_not():
    """Seed 2 deals Ann the Six and the Four; the stock's top (the Three in
    the real game, so no second shuffle) is any of the four cards she has
    not seen.  A sample whose top is the Ace shuffles again, which she
    cannot see: it must be one of her worlds (a quarter of them), not
    refused because the real game has no such shuffle to draw again."""
    game = Game(codegen.generate(frontend.check_text(EXTRA)), seed=2, players=2,
                names=['Ann', 'Bob'])
    assert len(game.machine.shuffles) == 1 and game.decision.seat == 0
    rng = random.Random(3)
    extra = sum(len(game.determinize(0, rng, repair=False).machine.shuffles) == 2
                for _ in range(SAMPLES))
    # binomial, p = 1/4: more than 3.3 standard deviations off fails (p < 0.001)
    assert abs(extra - SAMPLES / 4) < 3.3 * (SAMPLES * 3 / 16) ** 0.5, extra


def test_fresh_deals_alone_replay_a_card_played_face_down():
    """Bob's card played face down is any of his, played again at random in
    each sample: fresh deals alone (repair=False) find Ann a world at her
    next decision, and the card under the pile is not always the real one."""
    game = Game(codegen.generate(frontend.check_text(SMALL.replace('is faceup', 'is facedown'))),
                seed=3, players=2, names=['Ann', 'Bob'])
    game.answer(0)
    game.answer(0)
    assert game.decision.seat == 0
    real = str(game.machine.globals[1].cards[0])        # Bob's, face down on top
    rng = random.Random(5)
    played = collections.Counter(
        str(game.determinize(0, rng, repair=False).machine.globals[1].cards[0]) for _ in range(40))
    assert len(played) > 1 and real in played, played


SPELLED = '''Game "Spelled" requires 2 players.
Deck stock = standard.
Area pile labeled "pile" is faceup.
Rule any(p, c, d) = True.
Action main {
  shuffle stock.
  deal 3 from stock to players.
  let other be players->last.
  let mine be players->first->hand->top.
  let told be "{mine}".
  message "The Queen of Spades and {other} are wild.".
  let me be players->first.
  message me "You hold the {told}.".
  play any from players->first to pile.
  winner players->first.
}
'''


def test_a_card_spelled_by_a_name_or_a_literal_is_not_seen():
    """The cards a seat was told of are those a message's `{x}` parts show
    (Event.shows), never read back from the text: the other player is
    called Two of Hearts and a literal names the Queen of Spades, and the
    seat knows neither's place.  Counted as seen, each would stay where the
    real shuffle put it in every sample: the real deal, leaked."""
    game = Game(codegen.generate(frontend.check_text(SPELLED)), seed=1, players=2,
                names=['Ann', 'Two of Hearts'])
    hand = [str(c) for c in game.players[0].hand]
    assert not {'Two of Hearts', 'Queen of Spades'} & set(hand)
    told = [e for e in game.events if e.seen_by(0) is not None and 'You hold' in e.text]
    assert [e.shows for e in told] == [(hand[0],)]       # through a String made of a card
    trace = real_trace(game, 0)
    assert sorted(CARD_NAMES[i] for i in trace[1]) == sorted(hand)
    assert [sorted(CARD_NAMES[i] for i in p) for p in trace[3]] == [sorted(hand)]
    places = collections.Counter(
        next((p.name for p in s.players if any(str(c) == 'Two of Hearts' for c in p.hand)), 'stock')
        for s in (game.determinize(0, random.Random(k)) for k in range(20)))
    assert len(places) > 1, places      # (the other's hand: 3 in 49)


def test_a_replay_of_the_real_game_records_each_shuffles_order():
    # (a belief deals a hand anew only where a particle's shuffle had the
    # cards in the real game's order: Belief.redealt reads these)
    noting = NotingDealer()
    game = Game(codegen.generate(frontend.check_text(TWICE)), seed=3, players=2,
                names=['Ann', 'Bob'], dealer=noting)
    rng = random.Random(1)
    while len(game.machine.shuffles) < 3:
        game.answer(rng.randrange(len(game.decision.options)))
    again = game.replayed(OCamlRandom(0), Recorded(game))
    for choice, _ in game.history:
        again.answer(choice)
    assert again.machine.dealer.orders == noting.orders and len(noting.orders) == 3
    assert again.machine.dealer.clocks == noting.clocks == [4, 8, 12]   # (the banner; 4 plays)


NAMED_TWICE = '''Game "Twice" requires 2 players.
Deck stock = [A~S; 2~S; 3~S; 4~S; 5~S; 6~S].
Area pile labeled "pile" is facedown.
Action main {
  shuffle stock.
  deal 2 from stock to players.
  let p be players->first.
  ask p {
    for c in p->hand "Hide {c}, the {c}" { deal c from p->hand to pile. }
    "Pass" { message "passed". }
  }
  ask players->last { "Done" { message "done". } }
}
'''


def test_a_card_named_twice_in_a_blind_ask_stays_hidden():
    # Ada hides a card face down; Bob's worlds must put any card he does not
    # see there, though her ask's label names it twice (Blind masks every
    # mention: found by determinize.py's mutation testing)
    game = Game(codegen.generate(frontend.check_text(NAMED_TWICE)), seed=1, players=2,
                names=['Ada', 'Bob'])
    assert game.decision.seat == 0 and game.decision.options[1] == \
        'Hide Six of Spades, the Six of Spades'
    game.answer(1)
    assert game.decision.seat == 1 and 'Six' not in str(game.view(1))
    unseen = {str(c) for c in game.players[0].hand} | {str(c) for c in game.machine.globals[0]}
    unseen.add('Six of Spades')
    put = set()
    for i in range(20):
        (card,) = game.determinize(1, random.Random(i)).machine.globals[1].cards
        put.add(str(card))
    assert put == unseen and len(unseen) == 4, put       # (masked once: always Six of Spades)
