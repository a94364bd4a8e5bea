"""Hypothesis strategies for small RECYCLE programs (seed 001), for the
differential property of tests/fuzz/test_recycle_fuzz.py: the VM running the
lowered program against RECYCLE's reference interpreter.

A program deals a small deck to two or three players, then runs a stage
whose end is a turn counter, or an `all` of one (so it always ends), and whose turns draw from
actions, conditions, aggregates and choices over the locations it names;
the scoring is max or min of an Integer.  Programs may end in a run-time
error (the top of an empty location): both engines must report the same.
"""
from hypothesis import strategies as st

RANKS = ('ACE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE', 'TEN',
         'JACK', 'QUEEN', 'KING')
SUITS = ('CLUBS', 'HEARTS', 'SPADES', 'DIAMONDS')
GAME_LOCS = ('(game vloc PILE)', '(game iloc STOCK)', '(game hloc SPARE)')
PLAYER_LOCS = ('((current player) iloc HAND)', '((current player) vloc SHOWN)',
               '((current player) hloc HIDDEN)', '((next player) vloc SHOWN)')
STOS = ('((current player) sto SCORE)', '(game sto COUNT)', '((current player) sto BONUS)',
        '((previous player) sto SCORE)')


def locs():
    return st.sampled_from(GAME_LOCS + PLAYER_LOCS)


@st.composite
def integers(draw, depth=0):
    leaves = [st.integers(0, 9).map(str), st.sampled_from(STOS),
              locs().map(lambda l: '(size %s)' % l),
              st.just("(sum (game vloc PILE) using 'VALUE)")]
    if depth < 2:
        sub = integers(depth + 1)
        leaves.append(st.tuples(st.sampled_from(['+', '-', '*', '//', 'mod']), sub, sub).map(
            lambda t: '(%s %s %s)' % t if t[0] not in ('//', 'mod') else
            '(%s %s (+ 1 (* %s 0)))' % t))
        leaves.append(st.just("(all player 'P (size ('P vloc SHOWN)))"))
    return draw(st.one_of(leaves))


@st.composite
def conditions(draw, depth=0):
    i = integers(1)
    leaves = [st.tuples(st.sampled_from(['==', '!=', '<', '<=', '>', '>=']), i, i).map(
        lambda t: '(%s %s %s)' % t),
        st.tuples(st.sampled_from(['RANK', 'SUIT']), locs(), st.sampled_from(RANKS[:4] + SUITS)).map(
            lambda t: '(== (cardatt %s (top %s)) %s)' % t),
        st.just("(any player 'P (> (size ('P vloc SHOWN)) 1))"),
        st.just("(all player 'P (< (size ('P iloc HAND)) 3))")]
    if depth < 1:
        c = conditions(depth + 1)
        leaves.append(st.tuples(st.sampled_from(['and', 'or']), c, c).map(lambda t: '(%s %s %s)' % t))
        leaves.append(c.map(lambda x: '(not %s)' % x))
    return draw(st.one_of(leaves))


@st.composite
def actions(draw, depth=0):
    src, dst = draw(locs()), draw(locs())
    options = [
        '(move (top %s) (%s %s))' % (src, draw(st.sampled_from(['top', 'bottom'])), dst),
        '(%s %s %s)' % (draw(st.sampled_from(['set', 'inc', 'dec'])), draw(st.sampled_from(STOS)),
                        draw(integers(1))),
        '(repeat %d (move (top %s) (top %s)))' % (draw(st.integers(0, 3)), src, dst),
        '(shuffle %s)' % src,
        '(remember (top %s) (top (game mem SEEN)))' % src,
        '(turn pass)',
        '(cycle %s %s)' % (draw(st.sampled_from(['next', 'next', 'current'])),
                           draw(st.sampled_from(['current', 'previous', 'next', '(0 player)']))),
        # the map put again, its points changed (a card scores by the put run last)
        "(put points 'VALUE (((RANK (ACE)) %d) ((SUIT (HEARTS)) %d)))" % (
            draw(st.integers(0, 11)), draw(st.integers(0, 3))),
        "(move (max %s using 'VALUE) (top (game vloc PILE)))" % src,
        # the owner found beside the max, or by a search when a player has a memory
        "(cycle next (owner (max (union (all player 'P ('P vloc SHOWN))) using 'VALUE)))",
        '(remember (top %s) (top ((current player) mem KEPT)))' % src,
    ]
    if depth < 1:
        options += [
            '(%s %s)' % (draw(conditions()), draw(actions(depth + 1))),
            "(all player 'P (move (top %s) (top ('P vloc SHOWN))))" % draw(st.sampled_from(GAME_LOCS)),
            '(choice (%s))' % ' '.join(draw(st.lists(options_(depth + 1), min_size=1, max_size=3))),
            # every option a card of the hand onto the pile: one play (plays.py)
            '(choice (%s))' % ' '.join(draw(st.lists(options_(depth + 1, True), min_size=1, max_size=3))),
            # as Agram's trick: plays, then a lead doing more whose condition excludes SHARED's
            "(choice (%s (%s (any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc PILE))) %s))))))"
            % (' '.join(draw(st.lists(options_(depth + 1, True), min_size=1, max_size=2))),
               draw(st.sampled_from([APART, '(== (size (game mem SEEN)) 2)'])), draw(actions(depth + 1))),
            # Agram's whole trick: discarding begins with following's condition, whose
            # rule reads the lead's suit (plays._guarded_together), then the lead
            "(choice (((and %s %s) (any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))"
            " (any (filter ((current player) iloc HAND) 'C (== (cardatt SUIT 'C) %s)) 'C"
            " (%s (move 'C (top (game vloc PILE)))))"
            " (%s (any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc PILE))) %s))))))"
            % (SHARED, draw(st.one_of(conditions(), st.just(NO_FOLLOW))), LED, SHARED, APART,
               draw(actions(depth + 1))),
        ]
    return draw(st.sampled_from(options))


SHARED = '(== (size (game mem SEEN)) 1)'     # a condition two options may both begin with
APART = '(== (size (game mem SEEN)) 0)'      # one SHARED excludes (plays.which_option)
LED = '(cardatt SUIT (top (game mem SEEN)))'
NO_FOLLOW = "(== (size (filter ((current player) iloc HAND) 'D (== (cardatt SUIT 'D) %s))) 0)" % LED


@st.composite
def options_(draw, depth, plays_only=False):
    """An option of a choice; plays_only: a card of the hand onto the pile."""
    kind = draw(st.sampled_from((0, 1, 4, 4) if plays_only else (0, 1, 2, 3, 4)))
    if kind == 0:
        dest = '(game vloc PILE)' if plays_only else draw(locs())
        return "(any ((current player) iloc HAND) 'C (move 'C (top %s)))" % dest
    if kind == 1:
        # the suit of a constant or of another card (read once before a play:
        # plays.read_once), and maybe a condition inside the any
        # naming no card (plays._lifted), as Agram's follow
        other = draw(st.sampled_from(list(SUITS) + ['(cardatt SUIT (top %s))' % draw(st.sampled_from(
            GAME_LOCS + ('(game mem SEEN)',)))]))
        play = "(do ((move 'C (top (game vloc PILE))) %s))" % draw(actions(depth))
        if draw(st.booleans()):
            play = '(%s %s)' % (draw(st.one_of(conditions(), st.just(SHARED))), play)
        return "(any (filter ((current player) iloc HAND) 'C (== (cardatt SUIT 'C) %s)) 'C %s)" \
            % (other, play)
    if kind == 4:
        # a play under a condition, as Agram's lead
        # conditions beginning with another option's: read from its flag (plays.flags)
        cond = draw(st.one_of(conditions(), st.just(SHARED), st.just(APART),
                              conditions().map(lambda x: '(and %s %s)' % (SHARED, x))))
        # and maybe more than the play, as Agram's lead remembers the card
        play = "(move 'C (top (game vloc PILE)))"
        if draw(st.booleans()):
            play = '(do (%s %s))' % (play, draw(actions(depth)))
        return "(%s (any ((current player) iloc HAND) 'C %s))" % (cond, play)
    if kind == 2:
        return '(%s %s)' % (draw(conditions()), draw(actions(depth)))
    return draw(actions(depth))


@st.composite
def recycle_programs(draw):
    players = draw(st.integers(2, 3))
    ranks = draw(st.lists(st.sampled_from(RANKS), min_size=3, max_size=8, unique=True))
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=2, max_size=4, unique=True))
    turns = draw(st.integers(1, 6))
    # an end that is an `all` stops at the first player it fails for
    end = draw(st.sampled_from(['(>= (game sto TURNS) %d)', "(all player 'P (>= (game sto TURNS) %d))"])) % turns
    body = ' '.join(draw(st.lists(actions(), min_size=1, max_size=4)))
    scoring = draw(st.sampled_from(['max', 'min']))
    return (';; Fuzzed\n(game\n (setup\n  (create players %d)\n'
            '  (create deck (game iloc STOCK) (deck (RANK (%s)) (SUIT (%s)))))\n'
            " (do ((shuffle (game iloc STOCK)) (put points 'VALUE (((RANK (ACE)) 11) ((SUIT (HEARTS)) 0)))\n"
            "      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))\n"
            ' (stage player (end %s)\n'
            '  (do ((inc (game sto TURNS) 1)\n'
            '       (inc ((current player) sto SCORE) (* (game sto TURNS) (size ((current player) iloc HAND))))\n'
            '       %s)))\n'
            ' (scoring %s ((current player) sto SCORE)))\n') % (
        players, ', '.join(ranks), ', '.join(suits), end, body, scoring)
