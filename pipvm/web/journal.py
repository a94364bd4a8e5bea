"""`pipvm serve --record/--resume`: every answer written to a JSON file as it
is given, so a crash loses nothing that was answered.

The file has the shape of `pipvm run --record`'s records ("format": "pipvm
record", seats and options counting from 1).  Until pipvm/record.py (branch
`records`) is merged, writing and reading are done here; `save` and `load`
are the two functions to switch to it.  A record may come from anyone:
`load` checks every field it uses and says what is wrong in one line.
"""
import json
import os

from ..errors import PipError
from ..pipc import read_file, write_file

FORMAT, VERSION = 'pipvm record', 1


def save(path, setup, history):
    """Write the record atomically.  setup: game (path), fingerprint, seed,
    players, bots, seats ({seat from 0: kind}); history: (seat, decision
    kind, choice or name, label) of every answer, in order."""
    answers, names = [], {}
    for seat, kind, choice, label in history:
        if kind == 'name':
            names[str(seat + 1)] = choice
            answers.append({'seat': seat + 1, 'name': choice})
        else:
            answers.append({'seat': seat + 1, 'choice': choice + 1, 'answer': label})
    folder = os.path.dirname(os.path.abspath(path))
    obj = {'format': FORMAT, 'version': VERSION,
           'game': os.path.relpath(os.path.abspath(setup['game']), folder),
           'fingerprint': setup['fingerprint'], 'seed': setup['seed'],
           'players': setup['players'], 'max_steps': None, 'bots': setup['bots'],
           'seats': {str(n + 1): k for n, k in sorted(setup['seats'].items())},
           'names': names, 'answers': answers}
    write_file(path, json.dumps(obj, indent=1).encode('ascii'))


def load(path):
    """(setup, answers) from a record; answers: (seat from 0, choice from 0 or
    None, name or None).  One-line PipError when it is not a record."""
    def bad(problem):
        return PipError(None, '%s: %s' % (path, problem))
    try:
        obj = json.loads(read_file(path).decode('utf-8'))
    except (ValueError, RecursionError):
        raise bad('not valid JSON, or truncated') from None
    if type(obj) is not dict or obj.get('format') != FORMAT or obj.get('version') != VERSION:
        raise bad('not a pipvm record (version %d)' % VERSION)
    fields = {'game': str, 'fingerprint': str, 'seed': int, 'bots': str, 'seats': dict,
              'answers': list}
    for key, kind in fields.items():
        if type(obj.get(key)) is not kind:
            raise bad('"%s" is missing or not a %s' % (key, kind.__name__))
    players = obj.get('players')
    if players is not None and (type(players) is not int or players < 1):
        raise bad('"players" must be null or a whole number of at least 1')
    seats = {}
    for key, kind in obj['seats'].items():
        if not key.isascii() or not key.isdigit() or int(key) < 1 or type(kind) is not str:
            raise bad('"seats" must map seat numbers from 1 to seat kinds')
        seats[int(key) - 1] = kind
    answers = [_answer(a, i + 1, bad) for i, a in enumerate(obj['answers'])]
    game = os.path.join(os.path.dirname(os.path.abspath(path)), obj['game'])
    setup = {'game': game, 'fingerprint': obj['fingerprint'], 'seed': obj['seed'],
             'players': players, 'bots': obj['bots'], 'seats': seats}
    return setup, answers


def _answer(a, number, bad):
    if type(a) is not dict or type(a.get('seat')) is not int or a['seat'] < 1:
        raise bad('answer %d must be an object with a "seat" from 1' % number)
    if set(a) == {'seat', 'name'} and type(a['name']) is str:
        return a['seat'] - 1, None, a['name']
    if set(a) == {'seat', 'choice', 'answer'} and type(a['choice']) is int and a['choice'] >= 1:
        return a['seat'] - 1, a['choice'] - 1, None
    raise bad('answer %d must hold "name", or "choice" (from 1) and "answer"' % number)
