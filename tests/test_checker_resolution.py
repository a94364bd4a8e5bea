"""The checked AST: slots, frames, types, and where we differ from the reference."""
import pytest

from compiler.ir import checked as c
from compiler.ir import types as T
from compiler.pip.frontend import check_text

from .util import error_text

HEAD = 'Game "g" requires 2 players.\n'


def check(body):
    return check_text(HEAD + body)


def diagnostic(body):
    return error_text(check, body)


def test_globals_get_slots_in_declaration_order():
    p = check('Number a = 1.\nArea pile labeled "Pile".\nDeck d.\nAction main { }\n')
    assert [(g.var.name, g.var.slot) for g in p.globals] == [('a', 0), ('pile', 1), ('d', 2)]
    assert isinstance(p.globals[1], c.AreaInit)
    assert p.globals[2].var.type == T.CARDS and p.globals[2].init is None


def test_every_let_and_for_gets_its_own_slot_even_with_repeated_names():
    p = check('Action main {\n'
              '  let x be 1.\n'
              '  if True { let x be 2. message "{x}". }\n'
              '  for x in standard { let y be x. }\n'
              '  for x in players { }\n'
              '}\n')
    main = p.actions[p.main]
    assert main.frame_size == 5
    let_outer, if_stmt, for1, for2 = main.body
    assert let_outer.var.slot == 0
    inner_let, msg = if_stmt.branches[0][1]
    assert inner_let.var.slot == 1
    assert msg.text.parts == ['', msg.text.parts[1], '']
    assert msg.text.parts[1].var is inner_let.var       # `{x}` is the inner x
    assert for1.var.slot == 2 and for1.var.type == T.CARD
    assert for1.body[0].var.slot == 3
    assert for1.body[0].value.ref.var is for1.var
    assert for2.var.slot == 4 and for2.var.type == T.PLAYER


def test_each_action_has_its_own_frame():
    p = check('Action helper { let a be 1. let b be 2. }\n'
              'Action main { helper(). let c be 3. }\n')
    helper, main = p.actions
    assert (helper.frame_size, main.frame_size) == (2, 1)
    assert main.body[0].action == 0 and p.main == 1


def test_rule_and_ordering_parameters_are_frame_slots():
    p = check('Rule r(who, card, pile) = card->rank == pile->top->rank and defined who.\n'
              'Ordering o(cards) = cards.\n'
              'Action main { order standard by o. }\n')
    rule, ordering = p.rules[0], p.orderings[0]
    assert (rule.frame_size, ordering.frame_size) == (3, 1)
    left = rule.body.left.left                # card->rank
    assert left.ref.obj.ref.var == c.Local(1, T.CARD, 'card')
    assert left.ref.prop == c.Field(T.CARD, 0, 'rank', T.RANK)
    assert ordering.body.ref.var == c.Local(0, T.CARDS, 'cards')


def test_properties_resolve_to_field_indices():
    p = check('Team t.\nNumber n = t->score.\nBoolean b = defined players->first->team.\n'
              'Action main { }\n')
    assert p.globals[1].init.ref.prop == c.Field(T.TEAM, 10, 'score', T.NUMBER)
    team = p.globals[2].init.ref
    assert team.prop == c.Field(T.PLAYER, 7, 'team', T.TEAM)
    assert team.obj.ref.prop == c.ListProp('first', T.PLAYER)
    assert team.obj.ref.obj.ref.var == c.Builtin('players', T.PLAYERS)


def test_expression_types():
    p = check('Card one = 2~H.\nDeck many = 2..4~H,S.\nDeck wild = %~H.\nRankList r = [2; A].\n'
              'Action main { }\n')
    one, many, wild, ranks = (g.init for g in p.globals)
    assert one.type == T.CARD and many.type == T.CARDS and wild.type == T.CARDS
    assert many.rank.type == T.RANKS and many.suit.type == T.SUITS
    assert ranks.type == T.RANKS        # the last item's type, as the reference


def test_deal_kinds():
    p = check('Action main {\n  deal 2 from standard to players.\n'
              '  deal all from standard to players->first.\n'
              '  deal A~C from standard to players->first.\n}\n')
    two, every, card = p.actions[0].body
    assert isinstance(two, c.DealCards) and two.count.value == 2
    assert isinstance(every, c.DealCards) and every.count is None
    assert isinstance(card, c.DealCard)


def test_team_game_counts():
    p = check_text('Game "g" requires 2 to 4 teams of 3.\nAction main { }\n')
    assert (p.counts, p.team_size) == ([2, 3, 4], 3)
    p = check_text('Game "g" requires 4 to 2 players.\nAction main { }\n')
    assert (p.counts, p.team_size) == ([4, 3, 2], 0)


def test_area_options_default_and_faceup_is_not_facedown():
    # Deliberate difference: the reference reports is_facedown True for faceup.
    p = check('Area a labeled "a".\nArea b labeled "b" is faceup, spreadout.\n'
              'Area d labeled "d" is facedown.\nAction main { }\n')
    a, b, d = p.globals
    assert (a.facedown, a.squaredup) == (True, True)
    assert (b.facedown, b.squaredup) == (False, False)
    assert (d.facedown, d.squaredup) == (True, True)


@pytest.mark.parametrize('stmt,col,message', [
    ('players = players.', 15, "Can't assign to a read-only variable"),
    ('teams = teams.', 15, "Can't assign to a read-only variable"),
    ('standard = standard.', 15, "Can't assign to a read-only variable"),
    ('standard->size = 3.', 25, "Can't assign read-only list properties"),
    ('standard->top = A~C.', 25, "Can't assign read-only list properties"),
    ('players->first->hand->size += 1.', 37, "Can't assign read-only list properties"),
])
def test_read_only_targets_are_reported_by_the_checker(stmt, col, message):
    # Deliberate difference: the reference fails at run time, same message and place.
    assert diagnostic('Action main { %s }\n' % stmt) == 'Error: Line 2, Col %d: %s' % (col, message)


def test_writable_list_variables_and_properties_are_fine():
    check('Deck d.\nAction main { d = standard. players->first->score += 2. '
          'players->first->hand = d. }\n')


@pytest.mark.parametrize('decl,found', [
    ('Area a labeled "a".\nNumber n = [a].', 'AreaList'),
    ('Number n = [].', 'EmptyList'),
])
def test_types_the_reference_cannot_name(decl, found):
    # Deliberate difference: the reference prints "Internal Error: Unexpected type".
    assert diagnostic(decl + '\nAction main { }\n').endswith(
        'Expected type Number but found type %s' % found)
