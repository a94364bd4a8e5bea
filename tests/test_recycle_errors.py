"""Every error of the RECYCLE front end is one positioned line, `Error: Line L,
Col C: MESSAGE` as Pip's errors are (compiler/errors.py): one case per
error, and mangled examples that must fail with such a line, never a
traceback."""
import random
import re

import pytest

from compiler.errors import PipError
from compiler.recycle import frontend

from .test_recycle import example, game_of

CASES = {
    'illegal character': game_of('(do ((inc (game sto X) 1#)))'),
    'mixed case word': game_of('(do ((inc (game sto Score) 1)))'),
    'lower-case variable': game_of("(do ((all player 'p (inc ('p sto X) 1))))"),
    'unclosed': game_of('(do ((inc (game sto X) 1))').rstrip()[:-1],
    'stray close': game_of('(do ((inc (game sto X) 1))))'),
    'no game': '(setup)',
    'two forms': game_of('') + '(game)',
    'no setup': '(game (scoring max 1))',
    'no scoring': '(game (setup (create players 2) (create deck (game iloc S) (deck (RANK (ACE)) (SUIT (HEARTS))))))',
    'scoring word': game_of('', scoring='(scoring most 1)'),
    'no players': '(game (setup (create deck (game iloc S) (deck (RANK (ACE)) (SUIT (HEARTS))))) (scoring max 1))',
    'no deck': '(game (setup (create players 2)) (scoring max 1))',
    'create what': game_of('').replace('(create players 2)', '(create people 2)'),
    'deck shape': game_of('', deck='(RANK ACE)'),
    'deck no suit': game_of('', deck='(RANK (ACE, TWO))'),
    'deck twice': game_of('', deck='(RANK (ACE, ACE)) (SUIT (HEARTS))'),
    'deck in player': game_of('').replace('(game iloc STOCK)', '((0 player) iloc STOCK)'),
    'players not constant': game_of('').replace('(create players 2)', '(create players (game sto N))'),
    'teams seats': game_of('').replace('(create players 2)', '(create players 4) (create teams (0, 1) (2, 3))'),
    'teams missing seat': game_of('').replace('(create players 2)', '(create players 4) (create teams (0, 2) (1))'),
    'flow part': game_of('(move (top (game iloc STOCK)) (top (game vloc P)))'),
    'stage end': game_of('(stage player (== 1 1))'),
    'do list': game_of('(do (inc (game sto X) 1))'),
    'unknown action': game_of('(do ((deal (game iloc STOCK))))'),
    'unknown expr': game_of('(do ((inc (game sto X) (count 1))))'),
    'unknown variable': game_of("(do ((inc ('P sto X) 1)))"),
    'type mismatch': game_of('(do ((inc (game sto X) (game vloc PILE))))'),
    'compare types': game_of('(do (((== 1 (top (game iloc STOCK))) (inc (game sto X) 1))))'),
    'order strings': game_of('(do (((< HEARTS SPADES) (inc (game sto X) 1))))'),
    'no such key': game_of("(do (((== (cardatt COLOR (top (game iloc STOCK))) RED) (inc (game sto X) 1))))"),
    'current outside stage': game_of('(do ((inc ((current player) sto X) 1)))'),
    'choice outside stage': game_of("(do ((choice ((turn pass)))))"),
    'no teams': game_of('(stage team (end (== 1 1)))'),
    'second iloc': game_of("(do ((move (top (game iloc STOCK)) (top ((0 player) iloc SECOND))) (move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))))"),
    'move from mem': game_of("(do ((remember (top (game iloc STOCK)) (top (game mem M))) (move (top (game mem M)) (top (game vloc P)))))"),
    'move to mem': game_of("(do ((move (top (game iloc STOCK)) (top (game mem M)))))"),
    'remember to location': game_of("(do ((remember (top (game iloc STOCK)) (top (game vloc P)))))"),
    'forget location': game_of("(do ((forget (top (game iloc STOCK)))))"),
    'move unknown place': game_of("(do ((put points 'P (((RANK (ACE)) 1))) (move (max (union (game iloc STOCK) (game vloc X)) using 'P) (top (game vloc P)))))"),
    'destination': game_of("(do ((move (top (game iloc STOCK)) (game vloc P))))"),
    'points first': game_of("(do ((move (max (game iloc STOCK) using 'P) (top (game vloc P)))))"),
    'points as value': game_of("(do ((put points 'P (((RANK (ACE)) 1))) (inc (game sto X) 'P)))"),
    'hoist in choice': game_of("(stage player (end (== 1 1)) (choice (((== (owner (top (game iloc STOCK))) (current player)) (turn pass)))))"),
    'index card': game_of("(do ((move (2 (game iloc STOCK)) (top (game vloc P)))))"),
    'tuples': game_of("(do ((put points 'P (((RANK (ACE)) 1))) (inc (game sto X) (size (top (tuples 2 (game iloc STOCK) using 'P))))))"),
    'shuffle mem': game_of("(do ((shuffle (game mem M))))"),
    'set target': game_of("(do ((set 3 4)))"),
    'cycle word': game_of("(stage player (end (== 1 1)) (do ((cycle after current))))"),
    'repeat all shape': game_of("(do ((repeat all (shuffle (game iloc STOCK)))))"),
    'declare twice': game_of('', declares="(declare 2 'N) (declare 3 'N)"),
    'declare constant': game_of('', declares="(declare (game sto X) 'N)"),
    'nested any': game_of("(stage player (end (== 1 1)) (choice ((any ((current player) iloc HAND) 'C (any player 'P (move 'C (top ('P vloc T))))))))"),
    'turn': game_of("(stage player (end (== 1 1)) (do ((turn skip))))"),
    'range': game_of("(do ((all (range 0 3) 'I (inc (game sto X) 'I))))"),
}

EXPECTED = {
    'illegal character':
        "Error: Line 5, Col 26: Illegal character: '#'",
    'mixed case word':
        'Error: Line 5, Col 22: A word is all lower case (a name) or all upper case (a String); found Score',
    'lower-case variable':
        "Error: Line 5, Col 19: A Variable is a quote and an upper-case word, as 'P; found 'p",
    'unclosed':
        "Error: Line 6, Col 44: Unexpected end of file: a '(' is not closed",
    'stray close':
        "Error: Line 6, Col 44: Unexpected ')'",
    'no game':
        'Error: Line 1, Col 1: Expected (game ...)',
    'two forms':
        'Error: Line 7, Col 1: Nothing may follow the (game ...) form',
    'no setup':
        'Error: Line 1, Col 7: Expected (setup ...) after the declarations',
    'no scoring':
        'Error: Line 1, Col 1: Expected (scoring max|min INTEGER) last in the game',
    'scoring word':
        'Error: Line 6, Col 11: Expected max or min after scoring',
    'no players':
        'Error: Line 1, Col 7: The setup needs (create players INTEGER)',
    'no deck':
        'Error: Line 1, Col 7: The setup needs at least one (create deck LOCATION (deck ...))',
    'create what':
        'Error: Line 3, Col 17: Expected players, teams or deck after create',
    'deck shape':
        'Error: Line 4, Col 46: Expected (VALUE, ...) or (VALUE (KEY (VALUE, ...))) in a deck',
    'deck no suit':
        'Error: Line 4, Col 3: Each card needs a RANK (ACE, TWO, ... KING) and a SUIT (CLUBS, HEARTS, SPADES, DIAMONDS): the VM plays with the 52 cards of a standard deck; found (RANK ACE)',
    'deck twice':
        'Error: Line 4, Col 3: This deck makes the Ace of Hearts a second time: a game has one of each of the 52 cards',
    'deck in player':
        'Error: Line 4, Col 16: A deck is created in a location of the game, as (game iloc STOCK)',
    'players not constant':
        'Error: Line 3, Col 25: The number of players is a constant from 1 to 64',
    'teams seats':
        'Error: Line 3, Col 28: Teams sit alternately, each of the same size, as (0, 2) (1, 3): the VM seats teams so',
    'teams missing seat':
        'Error: Line 3, Col 28: The teams must seat each of the 4 players (0 to 3) once',
    'flow part':
        'Error: Line 5, Col 2: Expected (do ...), (choice ...) or (stage ...)',
    'stage end':
        'Error: Line 5, Col 16: Expected (end CONDITION) after stage player',
    'do list':
        'Error: Line 5, Col 2: Expected (do (ACTION ...)): its actions in one list',
    'unknown action':
        'Error: Line 5, Col 7: Expected an action; found (deal ...)',
    'unknown expr':
        'Error: Line 5, Col 25: Expected an expression; found (count ...)',
    'unknown variable':
        "Error: Line 5, Col 13: Unknown variable 'P",
    'type mismatch':
        'Error: Line 5, Col 25: Expected Integer; found CardCollection',
    'compare types':
        'Error: Line 5, Col 8: Cannot compare Integer with Card',
    'order strings':
        'Error: Line 5, Col 8: < compares Integers only',
    'no such key':
        'Error: Line 5, Col 21: No card of this game has the key COLOR',
    'current outside stage':
        'Error: Line 5, Col 13: (current player) is only known inside a stage player',
    'choice outside stage':
        'Error: Line 5, Col 7: A choice is made by (current player): it goes inside a stage player',
    'no teams':
        'Error: Line 5, Col 2: This game has no teams of more than one player: (create teams ...) with two or more players a team',
    'second iloc':
        "Error: Line 5, Col 104: A player's only iloc is its hand: the VM has no second location that only its owner sees (docs/recycle.md)",
    'move from mem':
        'Error: Line 5, Col 67: A card in a memory (mem) is a copy: forget it, do not move it',
    'move to mem':
        'Error: Line 5, Col 37: move puts a card in a location that is not a memory',
    'remember to location':
        'Error: Line 5, Col 41: remember puts a card in a memory (mem)',
    'forget location':
        'Error: Line 5, Col 15: forget forgets a card in a memory (mem)',
    'move unknown place':
        'Error: Line 5, Col 48: Cannot tell which location this card is in: move a card of a location, (top LOCATION) or a variable over one',
    'destination':
        'Error: Line 5, Col 37: The second card of move is (top LOCATION) or (bottom LOCATION)',
    'points first':
        "Error: Line 5, Col 42: 'P is not a points map: (put points 'P ...) comes first",
    'points as value':
        "Error: Line 5, Col 60: 'P is a points map: it goes after using",
    'hoist in choice':
        "Error: Line 5, Col 45: (owner CARD) is computed by statements, which cannot go here (a choice's condition): compute it first with (let ...)",
    'index card':
        'Error: Line 5, Col 13: (N COLLECTION), a card by its place, is not supported yet: use top or bottom',
    'tuples':
        'Error: Line 5, Col 71: tuples is not supported yet (docs/recycle.md, "Not yet")',
    'shuffle mem':
        'Error: Line 5, Col 16: shuffle shuffles a location (not a memory)',
    'set target':
        'Error: Line 5, Col 12: Expected a storage, as (game sto NAME), to set',
    'cycle word':
        'Error: Line 5, Col 43: Expected next or current after cycle',
    'repeat all shape':
        'Error: Line 5, Col 19: repeat all repeats a (move CARD CARD)',
    'declare twice':
        "Error: Line 2, Col 33: 'N is declared twice",
    'declare constant':
        'Error: Line 2, Col 16: A declaration gives a constant: an Integer, a String or Strings',
    'nested any':
        'Error: Line 5, Col 77: A choice of any inside a choice of any is not supported yet',
    'turn':
        'Error: Line 5, Col 36: Expected (turn pass)',
    'range':
        'Error: Line 5, Col 12: Expected (range LOW .. HIGH)',
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_error(name):
    with pytest.raises(PipError) as e:
        frontend.compile_text(CASES[name])
    assert str(e.value) == EXPECTED[name]
    assert '\n' not in str(e.value)


def test_every_case_has_its_message():
    assert set(CASES) == set(EXPECTED)


def test_check_text_fails_as_compile_text_does():
    with pytest.raises(PipError) as e:
        frontend.check_text(CASES['deck twice'])
    assert str(e.value) == EXPECTED['deck twice']


@pytest.mark.parametrize('name', ['agram', 'gops', 'crazy_eights'])
def test_mangled_programs_fail_with_one_positioned_line(name):
    """Tokens deleted, repeated or swapped: a program, or an Error line."""
    text = example(name)
    tokens = re.findall(r"\(|\)|,|'?[A-Za-z0-9_]+|[^\s()]+|\s+", text)
    failed = 0
    for seed in range(150):
        rng = random.Random(seed)
        toks = list(tokens)
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(1, len(toks))
            op = rng.random()
            if op < 0.4:
                del toks[k]
            elif op < 0.7:
                toks.insert(k, rng.choice(toks))
            else:
                toks[k], toks[k - 1] = toks[k - 1], toks[k]
        try:
            frontend.compile_text(''.join(toks))
        except PipError as e:
            failed += 1
            assert re.fullmatch(r'Error: Line \d+, Col \d+: [^\n]+', str(e)), str(e)
    assert failed > 50
