"""What a client may send: every request is checked here before it touches
a game.  A server trusts no client, so each problem is a one-line reason."""
import json

from pipvm.records.record import is_latin1

MAX_BODY = 4096                # bytes
MAX_NAME = 40                  # characters in a player's name


class BadRequest(Exception):
    """400: the request is malformed (the message says how, in one line)."""


class Conflict(Exception):
    """409: a well-formed answer to a decision this seat cannot answer now."""


class NotFound(Exception):
    """404: what the request names does not exist (a table, a seat)."""


def parse_answer(body):
    """(decision id, 'choice' or 'text', value) from a POST /answer body."""
    if len(body) > MAX_BODY:
        raise BadRequest('the body is over %d bytes' % MAX_BODY)
    try:
        obj = json.loads(body.decode('utf-8'), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest('the body is not JSON') from None
    if type(obj) is not dict:
        raise BadRequest('the body must be a JSON object')
    keys = set(obj)
    if keys not in ({'decision', 'choice'}, {'decision', 'text'}):
        raise BadRequest('the body must hold "decision" and either "choice" or "text", '
                         'and nothing else')
    decision = obj['decision']
    if type(decision) is not int or decision < 0:
        raise BadRequest('"decision" must be a whole number of at least 0')
    if 'choice' in obj:
        if type(obj['choice']) is not int:
            raise BadRequest('"choice" must be a whole number')
        return decision, 'choice', obj['choice']
    return decision, 'text', check_name(obj['text'])


def check_name(text, field='text'):
    """A player's name, trimmed: 1 to 40 printable characters that the game
    can print (field: the body's key it came in, named when it is no string)."""
    if type(text) is not str:
        raise BadRequest('"%s" must be a string' % field)
    text = text.strip()
    if not 1 <= len(text) <= MAX_NAME:
        raise BadRequest('a name must be 1 to %d characters, not counting spaces round it'
                         % MAX_NAME)
    if not text.isprintable() or not is_latin1(text):
        raise BadRequest('a name must be printable Latin-1 characters (the game prints '
                         'no others)')
    return text


def check_against(decision, seat, decision_id, field, value):
    """Whether this seat's answer fits the decision the game waits for:
    Conflict if it is not the seat's or not the current one, BadRequest if
    it does not fit its kind or options."""
    if decision is None or seat is None or decision.seat != seat:
        raise Conflict('this seat does not face a decision now')
    if decision_id != decision.id:
        raise Conflict('decision %d is not the current one (%d)' % (decision_id, decision.id))
    if decision.kind == 'name':
        if field != 'text':
            raise BadRequest('a name decision takes "text"')
        return value
    if field != 'choice':
        raise BadRequest('%s %s decision takes "choice"'
                         % ('an' if decision.kind[0] in 'aeiou' else 'a', decision.kind))
    if not 0 <= value < len(decision.options):
        raise BadRequest('"choice" must be from 0 to %d' % (len(decision.options) - 1))
    return value


def _no_constant(name):
    raise ValueError(name)     # NaN, Infinity: not JSON
