"""What pipvm/game/view.py's mutants showed its suite did not pin: the
`targets` of a decision (which card or area each option names, a card only
where the seat sees it) as view(), decision() and option_targets() give them."""
from compiler.pip import frontend
from pipvm.game import view
from pipvm.game.game import Game
from tests.test_ext_areas import TAKE

# An ask whose options name no card and no area.
PLAIN = '''Game "Plain" requires 2 players.
Deck deck = standard.
Action main {
  deal 2 from deck to players.
  ask players->first { "Yes" { } "No" { } }
}
'''


def game_of(source):
    return Game(frontend.compile_text(source), seed=1, players=2, names=['Ada', 'Ben'])


def test_targets_follow_the_options_a_card_only_where_the_seat_sees_it():
    # pins option_targets: a card of its hand or a faceup area, an area, else None, by option
    game = game_of(TAKE)
    m = game.machine
    mine = [str(c) for c in m.players[0].hand]
    on_table = [str(c) for c in m.globals[1][0].cards]
    expected = ([None, None] + [{'card': c} for c in mine + on_table] + [None]
                + [{'area': 'Stack 1'}, {'area': 'Stack 2'}, None])
    assert view.option_targets(m, 0) == expected
    d = view.decision(game, 0)
    assert d['targets'] == expected and len(d['options']) == len(expected)
    assert view.view(game, 0)['decision'] == d


def test_only_the_deciding_seat_is_given_the_decision():
    # pins decision(): None for another seat and for a spectator, the action's decision for its seat
    game = game_of(TAKE)
    assert game.decision.seat == 0 and game.decision.kind == 'action'
    assert view.decision(game, 1) is None and view.decision(game, None) is None
    assert view.view(game, 1)['decision'] is None
    assert view.view(game, 0)['turn'] == {'seat': 0, 'kind': 'action', 'player': game.decision.player}


def test_a_decision_whose_options_name_nothing_has_no_targets():
    # pins that `targets` is left out (not None) when no option names a card or an area
    game = game_of(PLAIN)
    assert view.option_targets(game.machine, 0) is None
    d = view.decision(game, 0)
    assert d is not None and 'targets' not in d and len(d['options']) == 2


def test_a_view_holds_each_part_under_its_name():
    # pins view()'s keys and the turn's and the lists' own keys, each part where it belongs
    game = game_of(TAKE)
    v = view.view(game, 0)
    assert list(v) == ['game', 'seat', 'players', 'teams', 'areas', 'lists', 'log', 'turn',
                       'decision', 'ending']
    assert v['game'] == game.program.name and v['seat'] == 0 and v['teams'] is None
    assert v['ending'] is None and v['lists'] == [{'name': 'deck', 'size': 52 - 6}]
    assert [p['seat'] for p in v['players']] == [0, 1]
    assert [a['name'] for a in v['areas']] == ['Stack 1', 'Stack 2', 'Hidden']
    assert 'log' not in view.view(game, 0, log=False)


def test_a_seat_sees_its_own_hand_only():
    # pins hand() and the `hand` of players: its own seat's names, not another's, not a spectator's
    game = game_of(TAKE)
    hands = [[str(c) for c in p.hand] for p in game.machine.players]
    assert hands[0] != hands[1]
    for seat in (0, 1):
        assert view.hand(game, seat) == hands[seat]
        players = view.view(game, seat)['players']
        assert players[seat]['hand'] == hands[seat] and 'hand' not in players[1 - seat]
    assert view.hand(game, None) is None and view.hand(game, 2) is None
    assert all('hand' not in p for p in view.view(game, None)['players'])


def test_a_recycle_location_held_for_each_player_is_not_a_value():
    # pins _values' leaving out an own of type Area (RECYCLE's per-player locations)
    from tests.test_recycle import NAMES, compiled, game_of as recycle_game
    text = recycle_game('''(do ((shuffle (game iloc STOCK))
        (move (top (game iloc STOCK)) (top ((0 player) vloc SHOWN)))))
      (stage player (end (== (size ((current player) vloc SHOWN)) 0))
        (choice ((any ((current player) vloc SHOWN) 'C (move 'C (top (game vloc TABLE)))))))''')
    program = compiled(text)
    assert [(kind, t) for kind, _, t in program.owns] == [('Player', 'Area')]
    game = Game(program, seed=2, players=2, names=NAMES[:2])
    assert [p['values'] for p in view.view(game, 0)['players']] == [{}, {}]


KEPT = '''Game "Kept" requires 2 players.
Deck stock = standard.
Number kept for each player.
Action main {
  deal 2 from stock to players.
  ask players->first { "go" { } }
}
'''


def test_a_card_list_held_for_each_player_is_not_a_value():
    # pins _values' leaving out an own of type CardList (Pip refuses one; a .pipc file may hold one)
    from pipvm.isa import pipc
    program = frontend.compile_text(KEPT)
    program.owns = [('Player', 'kept', 'CardList')]
    program = pipc.load(pipc.dump(program), 'kept.pipc')
    game = Game(program, seed=1, players=2, names=['Ada', 'Ben'])
    for p in game.machine.players:
        p.own[0] = list(p.hand)
    assert [p['values'] for p in view.view(game, 0)['players']] == [{}, {}]
