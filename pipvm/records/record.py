"""The record of a game (`pipvm run --record FILE.json`): what it was played
with and every answer given, in order.  docs/record.md describes the format.

A record may come from anyone: `read` checks every field and turns any
problem into one `Error: FILE: ...` line; nothing in it is evaluated.
Seats and options count from 1 in the file, as on the command line and in
the menus, and from 0 here, as in the game.
"""
import json
import os
import re
from typing import NamedTuple

import attrs

from pipvm.core.errors import PipError
from pipvm.isa.pipc import read_file, write_file

FORMAT = 'pipvm record'
VERSION = 1
KEYS = ('format', 'version', 'game', 'fingerprint', 'seed', 'players', 'max_steps',
        'numbered', 'bots', 'seats', 'names', 'answers')
OPTIONAL_KEYS = ('set',)
NAME, CHOICE, REFUSED = 'name', 'choice', 'refused'
_SEAT_KIND = re.compile(r'random|first|human|(mc|ismcts)(:[1-9][0-9]{0,8})?(:cut|:deep)?|script:.+', re.S)
_FINGERPRINT = re.compile(r'[0-9a-f]{64}')


class Answer(NamedTuple):
    """One line a seat gave: a name, an accepted choice, or a refused line."""
    seat: int                  # from 0
    kind: str                  # NAME, CHOICE or REFUSED
    text: str                  # the line as typed (or echoed by a bot)
    option: int = None         # CHOICE: the index of the option it chose

    def to_json(self):
        seat = self.seat + 1
        if self.kind == CHOICE:
            return {'seat': seat, 'choice': self.option + 1, 'answer': self.text}
        return {'seat': seat, self.kind: self.text}


@attrs.define
class Record:
    game: str                  # the game's path, relative to the record's folder
    fingerprint: str           # loader.fingerprint of its compiled program
    seed: int
    players: int = None        # --players
    max_steps: int = None      # --max-steps
    numbered: bool = False     # --numbered: the menus people saw were numbered
    bots: str = 'human'        # who sits where --seat does not say (a seat kind)
    seats: dict = attrs.field(factory=dict)      # seat from 0 -> seat kind
    answers: list = attrs.field(factory=list)    # of Answer
    sets: dict = attrs.field(factory=dict)       # --set NAME=VALUE: the variant played

    @property
    def names(self):
        """The players' names by seat (from 0), as far as they were answered."""
        return {a.seat: a.text for a in self.answers if a.kind == NAME}

    def to_json(self):
        return {'format': FORMAT, 'version': VERSION, 'game': self.game,
                'fingerprint': self.fingerprint, 'seed': self.seed, 'players': self.players,
                'max_steps': self.max_steps, 'numbered': self.numbered, 'bots': self.bots,
                'seats': {str(n + 1): kind for n, kind in sorted(self.seats.items())},
                'names': {str(n + 1): name for n, name in sorted(self.names.items())},
                'answers': [a.to_json() for a in self.answers],
                **({'set': dict(self.sets)} if self.sets else {})}


def relative(path, record_path):
    """path as the record stores it: relative to the record's folder, so the
    two can move together."""
    folder = os.path.dirname(os.path.abspath(record_path))
    try:
        return os.path.relpath(os.path.abspath(path), folder)
    except ValueError:                      # another drive
        return os.path.abspath(path)


def resolve(stored, record_path):
    """The path a record's stored path names."""
    return os.path.join(os.path.dirname(os.path.abspath(record_path)), stored)


def dumps(record):
    """The file's text: the settings a line each, then an answer a line."""
    obj = record.to_json()
    answers = obj.pop('answers')
    lines = ['  %s: %s,' % (json.dumps(k), json.dumps(v)) for k, v in obj.items()]
    body = ',\n'.join('    ' + json.dumps(a) for a in answers)
    return '{\n%s\n  "answers": [%s]\n}\n' % (
        '\n'.join(lines), '\n' + body + '\n  ' if answers else '')


def write(path, record):
    """Replace the file atomically (a temporary file beside it, fsync, rename):
    a crash or Ctrl-C leaves the old record or the new one, never half."""
    write_file(path, dumps(record).encode('ascii'))


class RecordError(PipError):
    """`Error: FILE: problem`."""

    def __init__(self, path, problem):
        super().__init__(None, '%s: %s' % (path, problem))


def read(path):
    """The Record in path, every field checked; RecordError if it is not one."""
    data = read_file(path)
    try:
        obj = json.loads(data.decode('utf-8'))
    except (ValueError, RecursionError) as e:    # bad UTF-8 or JSON, huge numbers
        raise RecordError(path, 'not valid JSON, or truncated (%s)' % _short(e)) from None
    try:
        return _record(obj)
    except _Bad as e:
        raise RecordError(path, e.args[0]) from None


class _Bad(Exception):
    pass


def _short(e):
    return str(e).splitlines()[0][:100]


def _record(obj):
    if type(obj) is not dict or obj.get('format') != FORMAT:
        raise _Bad('not a pipvm record (no "format": "%s")' % FORMAT)
    version = obj.get('version')
    if version != VERSION or type(version) is not int:
        raise _Bad('format version %s is not supported (this pipvm reads version %d)'
                   % (json.dumps(version), VERSION))
    for key in KEYS:
        if key not in obj:
            raise _Bad('missing "%s"' % key)
    for key in obj:
        if key not in KEYS + OPTIONAL_KEYS:
            raise _Bad('unknown key %s' % json.dumps(key))
    game = _text(obj['game'], '"game"')
    if not game or '\0' in game:
        raise _Bad('"game" must be a file name')
    fingerprint = obj['fingerprint']
    if type(fingerprint) is not str or not _FINGERPRINT.fullmatch(fingerprint):
        raise _Bad('"fingerprint" must be 64 hexadecimal digits')
    record = Record(game, fingerprint, _int(obj['seed'], '"seed"', None),
                    _optional(obj['players'], '"players"'),
                    _optional(obj['max_steps'], '"max_steps"'),
                    _typed(obj['numbered'], bool, '"numbered"'), _seat_kind(obj['bots'], '"bots"'))
    for key, kind in _typed(obj['seats'], dict, '"seats"').items():
        seat = _seat_key(key, 'seats')          # (first: the message of a kind names it)
        record.seats[seat] = _seat_kind(kind, 'seat "%s"' % key)
    record.answers = [_answer(a, i + 1)
                      for i, a in enumerate(_typed(obj['answers'], list, '"answers"'))]
    record.sets = {_text(k, '"set" name'): _text(v, '"set" value of %s' % json.dumps(k))
                   for k, v in _typed(obj.get('set', {}), dict, '"set"').items()}
    names = {_seat_key(k, 'names'): _text(v, 'name "%s"' % k)
             for k, v in _typed(obj['names'], dict, '"names"').items()}
    if names != record.names:
        raise _Bad('"names" differ from the names answered')
    return record


def _answer(obj, number):
    where = 'answer %d' % number
    keys = set(_typed(obj, dict, where))
    for kind, fields in ((NAME, {NAME}), (REFUSED, {REFUSED}), (CHOICE, {CHOICE, 'answer'})):
        if keys == {'seat'} | fields:
            break
    else:
        raise _Bad(where + ' must hold "seat" and "name", "refused", or "choice" and "answer"')
    seat = _int(obj['seat'], where + ' "seat"', 1) - 1
    if kind != CHOICE:
        return Answer(seat, kind, _text(obj[kind], '%s "%s"' % (where, kind)))
    return Answer(seat, CHOICE, _text(obj['answer'], where + ' "answer"'),
                  _int(obj['choice'], where + ' "choice"', 1) - 1)


def _int(value, what, least):
    if type(value) is not int or (least is not None and value < least):
        raise _Bad('%s must be a whole number%s' % (
            what, '' if least is None else ' of at least %d' % least))
    return value


def _optional(value, what):
    return None if value is None else _int(value, what, 1)


def _text(value, what):
    """A line of Latin-1 text (what a terminal line reads as)."""
    if type(value) is not str or '\n' in value or not value.isascii() and not is_latin1(value):
        raise _Bad('%s must be one line of Latin-1 text' % what)
    return value


def is_latin1(text):
    try:
        text.encode('latin-1')
    except UnicodeEncodeError:
        return False
    return True


def _typed(value, kind, what):
    """value, if a JSON value of kind (bool, dict or list)."""
    if type(value) is not kind:
        raise _Bad('%s must be %s' % (what, _KIND_WORDS[kind]))
    return value


_KIND_WORDS = {bool: 'true or false', dict: 'an object', list: 'a list'}


def _seat_key(key, what):
    if not (key.isascii() and key.isdigit()) or key != str(int(key)) or key == '0' or len(key) > 6:
        raise _Bad('"%s" keys must be seat numbers from 1, not %s' % (what, json.dumps(key)))
    return int(key) - 1


def _seat_kind(value, what):
    if type(value) is not str or not _SEAT_KIND.fullmatch(value) or '\0' in value:
        raise _Bad('%s must be random, first, mc[:N], ismcts[:N], human or script:FILE' % what)
    return value
