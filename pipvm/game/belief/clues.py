"""What a first difference points to: the clues every repair follows.

Pure functions of observations and machines: where each card is (places),
the cards a difference names (related), the cards it shows where the
world's observation shows others (shown_pairs), the group of cards it
needs at once (gathering), and how close an observation comes to the
seat's (closeness: the score repairs climb).  Clues (a part of Belief)
adds those that need the seat: the cards of the players a difference
concerns (involved, concerned), and the trades and plays it names
(named_pairs, named_plays).  None of them changes a game or draws from
an rng."""
import re

from pipvm.game.determinize import DECK_INDEX, deck_indexes
from pipvm.game.view import areas, card_lists


NAMES = list(DECK_INDEX)          # (in deck order: the dict was built so)
CARD_NAME = re.compile('|'.join(map(re.escape, sorted(DECK_INDEX, key=len, reverse=True))))
BY_WORD = {}           # a rank's or suit's word -> the cards that have it
for _i, _name in enumerate(NAMES):
    for _w in _name.lower().split(' of '):
        BY_WORD.setdefault(_w, []).append(_i)
_BY_WORD_PLURAL = {w + ('es' if w.endswith('x') else 's'): w for w in BY_WORD
                   if not w.endswith('s')}      # (a suit's word is plural already)
WORD = re.compile(r'[A-Za-z]+')


class Clues:
    """The clues that need the seat (a part of Belief: uses seat and
    unseen_plays)."""

    def named_pairs(self, p, movable, snaps):
        """Where p's observation named one card and the seat's another (its
        hand shows the Queen of Spades, p's the Queen of Hearts): those two
        trading places is the likeliest repair.  Pairs of movable cards."""
        if p.diff is None:
            return []
        mine, real = (set(CARD_NAME.findall(repr(v))) for v in p.diff)
        movable = set(movable)
        index = DECK_INDEX
        # (sorted: a set's order changes with the hash seed, the choice must not)
        ours = sorted(index[n] for n in mine - real if index[n] in movable)
        theirs = sorted(index[n] for n in real - mine if index[n] in movable)
        if not (ours and theirs):       # one side names a card: where the real
            ours = ours or theirs       # draws put it, else with any
            drawn = [pair for pair in snaps if pair[0] in ours]
            if drawn:
                return drawn
            theirs = [i for i in movable if i not in ours]
        return [(a, b) for a in ours for b in theirs]

    def concerned(self, p):
        """The names of the players p's first difference concerns: the one
        whose answer it could not give, else those the seat's first
        differing line names ("Cleo hands over 1.")."""
        if p.diff is None:
            return set()
        m = p.game.machine
        seen, want = p.diff
        if not isinstance(want, dict):
            return {m.pending.player.name} if m.pending is not None else set()
        a, b = seen.get('log') or [], want.get('log') or []
        k = first_difference(a, b)
        if k >= len(b):
            return set()
        return {q.name for q in m.seated if q.name in (b[k].get('text') or '')}

    def named_plays(self, p, start):
        """Where the seat's observation names a card that p's does not, and a
        card was played unseen from history position start on: that play
        having been this card is the likeliest repair (Cheat's challenge turns
        over a card the seat knew was in the player's hand: it went there
        with a pile, so no trade of unseen cards can put it right).
        (position, card name) pairs; a play whose card is not in the
        player's hand there is played at random, as before."""
        if p.diff is None:
            return []
        mine, real = (set(CARD_NAME.findall(repr(v))) for v in p.diff)
        named = sorted(real - mine)
        return [(h, n) for h in sorted(self.unseen_plays) if start <= h < p.matched
                for n in named]

    def involved(self, p):
        """The cards (deck indexes) of the players p's first difference
        concerns, where p's game stopped: the player whose answer it could
        not give, or those whose view differs or whom the news there names."""
        m = p.game.machine
        if p.diff is None:
            return frozenset()
        names = set()
        if p.score[1] == -1:
            if m.pending is not None:
                names.add(m.pending.player.name)
        else:
            seen, want = p.diff
            for a, b in zip(seen.get('players') or (), want.get('players') or ()):
                if a != b:
                    names.add(b['name'])
            texts = [e.get('text') or '' for e in (seen.get('log') or []) + (want.get('log') or [])]
            names.update(q.name for q in m.seated if any(q.name in t for t in texts))
            # a difference that names nobody but the seat, whose hand it sees
            # ("A: The rank is Ten.", a hidden card's rank told to it): the
            # cards of every hand, not the stock's, which nobody sees
            me = {b['name'] for b in want.get('players') or () if b.get('seat') == self.seat}
            if not names - me:
                names = {q.name for q in m.seated}
        index = deck_indexes(m)
        return frozenset(index[id(c)] for q in m.seated if q.name in names
                         for c in q.hand + q.stash)


def places(m):
    """Where each card is (deck index -> a player's hand or stash, an area,
    a global card list)."""
    index = deck_indexes(m)
    out = {}
    for q in m.seated:
        for where, cards in (('hand', q.hand), ('stash', q.stash)):
            out.update((index[id(c)], (where, q.name)) for c in cards)
    for k, a in enumerate(areas(m)):
        out.update((index[id(c)], ('area', k)) for c in a.cards)
    for name, cards in card_lists(m):
        out.update((index[id(c)], ('list', name)) for c in cards if id(c) in index)
    return out


def held(where, i):
    """Is card i (a deck index) in a player's hand or stash, by where (a
    result of places)?"""
    return where.get(i, ('',))[0] in ('hand', 'stash')


def related(diff):
    """The cards (deck indexes) that a first difference names, by name or by
    their rank's or suit's word in the first lines that differ and the line
    before them ("asks P0 for kings", "a book of four: Six", an answer
    "Sevens" that was not an option): a repair moves those first."""
    if diff is None:
        return frozenset()
    seen, want = diff
    if not isinstance(want, dict):          # an answer that was not an option
        texts = [str(want)]
    else:
        a, b = seen.get('log') or [], want.get('log') or []
        k = first_difference(a, b)
        texts = [e.get('text') or '' for e in a[max(k - 1, 0):k + 1] + b[max(k - 1, 0):k + 1]]
        texts += [repr(v) for key, v in want.items() if key != 'log' and seen.get(key) != v]
        texts += [repr(v) for key, v in seen.items() if key != 'log' and want.get(key) != v]
    out = set()
    for t in texts:
        for name in CARD_NAME.findall(t):
            out.add(DECK_INDEX[name])
        for word in WORD.findall(CARD_NAME.sub(' ', t)):
            out.update(BY_WORD.get(singular(word.lower()), ()))
    return frozenset(out)


def shown_pairs(diff):
    """(Y, X) for each card the world's observation shows as Y where the
    seat's shows X, place by place, each Y once: in a list, what the two
    have in common is set aside and the rest paired in order (a card the
    seat took into its hand shifts the rest: the hand, the lines listing
    it), cards one for one and lines by the card names in them in order."""
    out, ys = [], set()

    def walk(a, b):
        if a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for k, v in b.items():
                walk(a.get(k), v)
        elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            a, b = apart(a, b), apart(b, a)
            if len(a) == len(b) or not all(isinstance(v, str) for v in a + b):
                for u, v in zip(a, b):
                    walk(u, v)
        elif isinstance(a, str) and isinstance(b, str):
            xs, zs = CARD_NAME.findall(a), CARD_NAME.findall(b)
            if len(xs) == len(zs):
                for y, x in zip(xs, zs):
                    if y != x and y not in ys:
                        ys.add(y)
                        out.append((y, x))
    walk(*diff)
    return out


def apart(a, b):
    """The items of list a that are not in b (as multisets), in a's order."""
    common = {}
    for v in b:
        common[repr(v)] = common.get(repr(v), 0) + 1
    out = []
    for v in a:
        k = repr(v)
        if common.get(k):
            common[k] -= 1
        else:
            out.append(v)
    return out


def first_difference(a, b):
    """Where two logs first differ (the shorter one's length if one is the
    other's start)."""
    return next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def gathering(p, now, moved):
    """Where p's first difference needs a whole group of cards at once: a
    rank (or suit) the seat's first differing line names, or the real answer
    that was not an option ("Ben lays down a book of four: Nine": every nine
    in Ben's hand and the card he drew; "Sevens": a seven in the asker's
    hand), and the zone that must hold them (the cards of the players the
    line names, or of the player who could not answer, at the decision
    before the difference, now, and the cards moved since).  (the groups
    the line names, the zone), as deck indexes, or None."""
    if p.diff is None:
        return None
    seen, want = p.diff
    m = p.game.machine
    if not isinstance(want, dict):
        texts, wrong = [str(want)], frozenset()
        names = {m.pending.player.name} if m.pending is not None else set()
    else:
        a, b = seen.get('log') or [], want.get('log') or []
        k = first_difference(a, b)
        if k >= len(b):
            return None
        texts = [b[k].get('text') or '']
        names = {q.name for q in m.seated if q.name in texts[0]}
        wrong = frozenset().union(*groups([e.get('text') or '' for e in a[k:k + 1]]))
    named = groups(texts)
    zone = {i for i, where in now.items() if where[0] == 'hand' and where[1] in names} | moved
    if not named or not zone:
        return None
    return named, frozenset(zone), wrong


def groups(texts):
    """The cards of each rank or suit the texts name by its word."""
    words = (singular(w.lower()) for t in texts for w in WORD.findall(CARD_NAME.sub(' ', t)))
    return [frozenset(BY_WORD[w]) for w in words if w in BY_WORD]


def singular(word):
    return _BY_WORD_PLURAL.get(word, word)


def closeness(seen, want):
    """How much of an observation agrees (the log: how long a prefix; the
    rest: how many of its leaves), so that the repairs' hill-climbing feels
    each card put right: a hand wrong in one card of five scores above one
    wrong in all (Cheat's pile taken up shows many once-hidden cards at once)."""
    n = 0
    for key, v in want.items():
        if key == 'log':
            log = seen.get('log', [])
            for a, b in zip(log, v):
                if a != b:
                    break
                n += 1
        else:
            n += agreement(seen.get(key), v)
    return n


def agreement(seen, want):
    """How many leaves of want seen has the same, place by place."""
    if seen == want:
        return leaves(want)
    if isinstance(want, dict) and isinstance(seen, dict):
        return sum(agreement(seen.get(k), v) for k, v in want.items())
    if isinstance(want, (list, tuple)) and isinstance(seen, (list, tuple)):
        return sum(agreement(a, b) for a, b in zip(seen, want))
    return 0


def leaves(x):
    if isinstance(x, dict):
        return sum(map(leaves, x.values()))
    if isinstance(x, (list, tuple)):
        return sum(map(leaves, x))
    return 1
