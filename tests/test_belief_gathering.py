"""clues.gathering by its contract: the groups of cards (ranks, suits) that the seat's first line
differing from the world's names, the zone that must hold them (the hands
of the players that line names, and the cards moved since), and the
groups the world's own line there named instead (`wrong`); None where
there is no difference, no line of the seat's there, no group or no zone."""
from types import SimpleNamespace

from pipvm.game.belief.clues import gathering, groups
from pipvm.game.belief.particles import Deal, Particle

SEVENS, NINES, KINGS = (groups([w])[0] for w in ('sevens', 'nines', 'kings'))


def world(seen, want, players=('Ada', 'Ben', 'Cleo'), pending=None):
    p = Particle(None, Deal(), 3)
    seated = [SimpleNamespace(name=n) for n in players]
    m = SimpleNamespace(players=seated, seated=seated, pending=pending)
    p.game = SimpleNamespace(machine=m)
    p.diff = (seen, want)        # (the world's observation, the seat's)
    return p


def line(text):
    return {'text': text}


NOW = {0: ('hand', 'Ben'), 1: ('hand', 'Cleo'), 2: ('hand', 'Ada'), 3: ('pile', 'Ben')}


def test_the_seats_line_names_the_groups_the_players_hands_and_the_worlds_line_the_wrong():
    start = [line('Ada asks Ben for kings.')]
    seen = {'log': start + [line('Cleo asks Ben for sevens.'), line('Ben asks for nines.')]}
    want = {'log': start + [line('Ben asks Cleo for nines.'), line('Ada draws.')]}
    named, zone, wrong = gathering(world(seen, want), NOW, {7})
    assert named == [NINES]
    assert zone == {0, 1, 7}                # Ben's and Cleo's hands, and the card moved
    assert wrong == SEVENS                  # the world's line at the difference, not the next


def test_a_line_without_text_names_nothing():
    seen = {'log': [line('Ada asks Ben for kings.')]}
    want = {'log': [{'card': 'x'}]}
    assert gathering(world(seen, want), NOW, {7}) is None


def test_no_difference_in_the_logs_is_no_gathering():
    same = [line('Ben asks Cleo for nines.')]
    assert gathering(world({'log': same}, {'log': same}), NOW, {7}) is None
    longer = {'log': same + [line('Cleo asks Ben for sevens.')]}
    assert gathering(world(longer, {'log': same}), NOW, {7}) is None


def test_a_particle_without_a_difference_has_no_gathering():
    p = world({}, {})
    p.diff = None
    assert gathering(p, NOW, {7}) is None


def test_a_real_answer_that_was_no_option_gathers_into_the_pending_players_hand():
    pending = SimpleNamespace(player=SimpleNamespace(name='Cleo'))
    named, zone, wrong = gathering(world({'log': []}, 'Sevens', pending=pending), NOW, set())
    assert named == [SEVENS] and zone == {1} and wrong == frozenset()


def test_a_line_naming_no_group_or_no_hand_gathers_nothing():
    seen = {'log': [line('Ada draws.')]}
    assert gathering(world(seen, {'log': [line('Ben asks Cleo for nines.')]}),
                      {3: ('pile', 'Ben')}, set()) is None
    assert gathering(world(seen, {'log': [line('Ben says hello.')]}), NOW, {7}) is None

