"""A whole action's steps counted in a local (pipvm/engine/actions.py,
play-out mode).

TICK counts a step on the machine (`self.steps_left -= 1`, a load and a
store of an attribute, then a load for its test): a tenth of an action's
own code in a playout.  In a function the count can live in the local
steps_ instead, as a region's does (regions.py), where nothing else
reads or counts it: the function loads it on entry and writes it back
when it leaves, however it leaves (a `finally`), and around each call
that may run code counting on the machine (a called action, a handler,
the loud code, a rule's loop) it writes it back before and loads it
after.  While such a call runs, steps_ is None (the machine holds the
count), so that an error raised inside it leaves the callee's count: the
`finally` writes back only a count the function holds, and a handler of
the function's own (`except`) takes the machine's again if the call
failed.

A call known not to count steps keeps the local: the builtins and
helpers in SAFE, the list methods in SAFE_METHODS, and a rule's generated
filter of a hand, whose call the writer marks with NO_STEPS (pure
Python over the hand: no loop of the VM).  A call in a place the
write-back cannot follow (a loop's head, an `elif`) leaves the function
counting on the machine, as before."""
import functools
import re

STEPS = 'self.steps_left'
LOCAL = 'steps_'
NO_STEPS = '  # (no steps)'         # the writer's mark on a generated filter's call
SAVE = 'self.steps_left, steps_ = steps_, None'
LOAD = 'steps_ = self.steps_left'
# (an `except` of the function's own: the count is the machine's if a call failed)
AGAIN = 'steps_ = self.steps_left if steps_ is None else steps_'
PROLOGUE = '    ' + LOAD
TAIL = ['    finally:', '        if steps_ is not None:', '            self.steps_left = steps_']

# Calls that never run the program's code (no step counted): builtins,
# bodies' and runtime's helpers, the decisions' draws and records.
SAFE = frozenset({
    'Fault', 'StepLimit', 'GameOver', 'TypeError', 'len', 'type', 'int', 'bool', 'iter', 'list',
    'tuple', 'map', 'isinstance', 'next', 'getattr', 'setattr', 'push', 'pop', 'cards_of',
    'list_prop', 'to_str', 'deal', 'contains', 'card_choice', 'action_choice', 'questions_enabled',
    'bits_', 'choose_', 'entered', 'positioned', 'invalid', 'ensure_depth', 'joined', 'shown',
    'Event', 'addressees', 'build_list', 'card_of', 'wild_suit', 'wild_rank', 'Area'})
SAFE_METHODS = frozenset({'append', 'pop', 'index', 'insert', 'bit_length', 'isdisjoint', 'get'})
# (a callee's whole name: `frame[2].bit_length` is a method of a local's
# value, whose test guards a message's check at each round)
_CALL = re.compile(r'([A-Za-z_]\w*(?:\.\w+|\[[^\[\]]*\])*)\(')
_RUNTIME = re.compile(r'runtime\.\w+$')


@functools.lru_cache(maxsize=4096)
def counts(text):
    """May a line's calls count steps on the machine (or read its count)?
    (Cached by text: a function's lines repeat, `raise Fault(...)`.)"""
    if text.endswith(NO_STEPS):
        text = text[:-len(NO_STEPS)]
        # (the marked call itself, `x = A[k](self, ...)`, is the filter's)
        text = re.sub(r'A\[\d+\]\(self, ', '(', text, count=1)
    for name in set(_CALL.findall(text)) - SAFE:
        if _RUNTIME.match(name):
            continue
        head, _, method = name.rpartition('.')
        if head and head != 'self' and not head.startswith(('self.', 'A[')) and method in SAFE_METHODS:
            continue
        return True
    return False


def local(lines):
    """lines ((text, unit) of a function's body) counting the steps in
    steps_, or None where they count none or a call stands where its
    write-back cannot follow."""
    if not any(STEPS in text for text, _ in lines):
        return None
    out, due = [], []           # due: the indents of `if`s whose block ends in a load
    for k, (text, unit) in enumerate(lines):
        word = text.strip()
        indent = len(text) - len(word)
        while due and word and indent <= due[-1]:
            if indent == due[-1] and word.startswith(('elif', 'else')):
                return None
            out.append((' ' * due.pop() + LOAD, None))
        pad = ' ' * indent
        if counts(word):
            if STEPS in text:
                return None
            code = word.split('  # ', 1)[0]     # (a writer's note after the code)
            if code.startswith('return '):
                out += [(pad + SAVE, None), (text, unit)]
            elif code.startswith('if ') and code.endswith(':'):
                out += [(pad + SAVE, None), (text, unit), (pad + '    ' + LOAD, None)]
                due.append(indent)
            elif code.endswith(':') or code.startswith(('elif ', 'while ', 'for ', 'with ')):
                return None
            else:
                out += [(pad + SAVE, None), (text, unit), (pad + LOAD, None)]
            continue
        out.append((text.replace(STEPS, LOCAL), unit))
        if word.startswith('except') and word.endswith(':') and not _raises(lines, k + 1, indent):
            out.append((pad + '    ' + AGAIN, None))
    out += [(' ' * i + LOAD, None) for i in reversed(due)]
    return out


def _raises(lines, k, indent):
    """Does the block from line k (inside an `except` at indent) only raise
    again, with no call that may count (the count stays where it is)?"""
    while k < len(lines):
        text = lines[k][0]
        word = text.strip()
        if word and len(text) - len(word) <= indent:
            return False
        if word.startswith('raise'):
            return not counts(word)
        if STEPS in text or counts(word) or word.endswith(':'):
            return False
        k += 1
    return False
