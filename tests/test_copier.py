"""The fork's copier (pipvm/engine/copier.py): the players and teams it is
given are made before any field is copied, and whatever it is not given (a
player not seated, an area, a list of numbers, a hostile program's value
where a hand belongs) is copied where it is met, as the rest."""
from pipvm.core.runtime import Area, Player, Team, new_deck
from pipvm.engine.copier import Copier


def table():
    """A deck, two seated players in one team (a card played by each), an area."""
    deck = new_deck()
    a, b = Player('A', hand=deck[:3], seat=0), Player('B', hand=deck[3:5], seat=1)
    team = Team([a, b], stash=[deck[9]])
    a.team = b.team = team
    deck[9].last_played_by, deck[10].last_played_by = a, b
    return deck, [a, b], [team]


def test_the_players_and_teams_given_are_copied_before_any_list():
    deck, players, teams = table()
    copy = Copier(deck, players, teams)
    a, b = (copy.objs[p] for p in players)
    team = copy.objs[teams[0]]
    assert type(a) is Player and a is not players[0] and a.name == 'A' and a.seat == 0
    assert a.team is b.team is team and team.members == [a, b]
    assert a.hand == copy.deck[:3] and b.hand == copy.deck[3:5]
    assert copy.deck[9].last_played_by is a and copy.deck[10].last_played_by is b
    assert team.stash == [copy.deck[9]] and team.stash is copy(teams[0].stash)
    # a list of them is their copies (one map, in C), each list copied once
    assert copy(players) == [a, b] and copy(players) is copy(players)
    assert copy(players[0].hand) is a.hand


def test_what_the_copier_is_not_given_is_copied_where_it_is_met():
    deck, players, teams = table()
    stranger = Player('C', hand=[deck[20]], seat=2)     # (not seated)
    area = Area('pile', [deck[30]], False, True)
    numbers = [1, 'two', None]
    mixed = [deck[7], players[0], stranger, area, numbers, 5]
    mixed.append(mixed)                                 # (a list that holds itself)
    copy = Copier(deck, players, teams)
    new = copy(mixed)
    assert new[0] is copy.deck[7] and new[1] is copy.objs[players[0]]
    assert type(new[2]) is Player and new[2] is not stranger and new[2].hand == [copy.deck[20]]
    assert type(new[3]) is Area and new[3].cards == [copy.deck[30]] and new[3].is_squaredup
    assert new[4] == numbers and new[4] is not numbers and new[5] == 5
    assert new[6] is new
    assert copy(stranger) is new[2] and copy(area) is new[3]


def test_a_field_holding_another_kind_is_copied_as_any_value():
    # (the verifier checks no kinds: a hand-made program may store a number
    # where a hand belongs, a list where a team or a player does)
    deck, players, teams = table()
    players[1].hand, players[1].stash, players[1].team = 7, None, [teams[0]]
    deck[10].last_played_by = [players[1]]
    copy = Copier(deck, players, teams)
    b = copy.objs[players[1]]
    assert (b.hand, b.stash) == (7, None)
    assert b.team == [copy.objs[teams[0]]] and copy.deck[10].last_played_by == [b]


def test_without_players_or_teams_given_every_object_is_copied_where_it_is_met():
    deck, players, teams = table()
    copy = Copier(deck)
    a = copy(players[0])
    assert type(a) is Player and a is not players[0] and a.team.members[0] is a
    assert copy.deck[9].last_played_by is a
