"""Decisions answered where they stand in a whole action's function
(pipvm/engine/actions.py, play-out mode): the text a composed run's
`@SIGNAL PAUSE@` and `@SIGNAL CALLED@` lines become.

A card decision (PLAY's, PLAY_AGAIN's) and an ASK's question are
Machine._answer_auto's cases written out: the same policy call on the same
generator, so a playout draws what the loop's would; any other decision
calls _answer_auto itself.  Only the table's text and the run's own names
reach these lines (docs/pipc.md's trust model)."""
import re

from pipvm.isa.opcodes import OP

# SIGNAL(x) in a run: a decision answered here (a jump if the answer is an
# ASK's), a called action run as its function.
_SIGNALS = {
    'PAUSE': ['t_ = self._answer_auto()', 'if t_ is not None:', '    pc = t_', '    continue'],
    'CALLED': ['rec_ = frames[-1]', 'if len(frames) > DEEP:',
               '    ensure_depth(len(frames))', 'rec_[0].action(self, rec_)'],
}
# A card decision answered where it stands: Machine._answer_auto's card
# case written out (its call, and its test of the kind, left out); events
# are None in play-out mode on this tier.  A destination that is
# cards_of(x) (PLAY_AGAIN's) is bound to dest_ first, where it was made.
_CARD_PAUSE = re.compile(r'( *)self\.pending = card_choice\(\((\w+), (\w+), (\w+|cards_of\(\w+\))\)\)')
# Both cases first note the options and the seat, then draw ({0} the
# player, {1} the options): by bits_, when it is given, as Machine._answer_auto
# draws (random.Random's _randbelow written out: no call a draw).  No
# pending choice is made (the line that made it is dropped): a policy
# reads the deciding seat from noted_, not from it (Machine.play_out), and
# making it, setting it and clearing it were a twentieth of an answer.
_DRAW = ['if noted_ is not None:', '    noted_ += len({1}), {0}.seat',
         'if bits_ is None:', '    choice_ = choose_(len({1}))', 'else:',
         '    n_ = len({1})', '    choice_ = bits_(k_ := n_.bit_length())',
         '    while choice_ >= n_:', '        choice_ = bits_(k_)']
_CARD_ANSWER = _DRAW + ['card_ = {1}[choice_]', 'log_.append((choice_, card_.name))',
                        'if type(card_) is Card:',      # (bodies.move's Card path: in the hand)
                        '    hand_ = {0}.hand', '    del hand_[hand_.index(card_)]',
                        '    {2}.insert(0, card_)', '    card_.last_played_by = {0}',
                        'else:', '    self.play_card({0}, card_, {2})']
# An ASK's question answered where it stands: _answer_auto's question case
# written out (a question binds nothing; its answer jumps to the chosen
# question's JUMP).  The first question's JUMP is the instruction after the
# ASK (the loader's `first`, opcodes.ask_table): the run falls through to
# it, and it goes where it jumps without a trip through the test tree.
_ASK_PAUSE = re.compile(r' *self\.pending = action_choice\(\((\w+), (\w+), (\w+), (\w+), None\)\)')
_ASK_ANSWER = _DRAW + ['log_.append((choice_, {1}[choice_]))',
                       'if {3}[choice_]:', '    pc = {2} + {3}[choice_]', '    continue']
# A one-question ASK answered (its text after rewrites.inlined): its flag
# tested and its text listed, no flat or enabled list made; and once the
# answer has read its text (texts[choice_]: choice_ 0, or -1), the JUMP it
# takes is the one after the ASK, where the run falls through (no test).
_ONE_ASKED = re.compile('\n'.join(
    [r'^( *)flat = \[(\w+), (\w+)\]', r'\1player = (\w+)',
     r'\1' + re.escape('enabled, texts = (([0], [flat[0]]) if flat[1] else ([], []))'),
     r'\1if not enabled:', r"\1    raise Fault\('None of the questions can be asked'\)"]
    + [r'\1' + (re.escape(x.format('player', 'texts', 'FIRST', 'enabled'))
                .replace('FIRST', r'(?:A\[\d+\]|\d+)')) for x in _ASK_ANSWER]) + '$', re.M)
_ONE_ANSWER = ['if not {2}:', "    raise Fault('None of the questions can be asked')",
               'texts = [{1}]', 'player = {3}'] + [
    x.format('player', 'texts', None, None) for x in _ASK_ANSWER[:-3]]


def signal(lines, indent, kind):
    """Append to lines (the run's so far, its last the one that made the
    decision pending) what `@SIGNAL kind@` at indent stands for."""
    last = lines[-1] if lines and kind == 'PAUSE' else ''
    ask, card = _ASK_PAUSE.fullmatch(last), _CARD_PAUSE.fullmatch(last)
    if ask:
        lines.pop()
        player, texts, first, enabled = ask.groups()
        lines += [indent + x.format(player, texts, first, enabled) for x in _ASK_ANSWER]
    elif card:
        pad, player, cards, dest = card.groups()
        lines.pop()
        if not dest.isidentifier():
            lines.append(pad + 'dest_ = ' + dest)
            dest = 'dest_'
        lines += [indent + x.format(player, cards, dest) for x in _CARD_ANSWER]
    else:
        lines += [indent + x for x in _SIGNALS[kind]]


# An ASK's answer jumps to the chosen one of the n JUMPs that follow it
# (first + enabled[choice_]), which jumps to its question's code: each a
# pass through the function's test tree.  Where all n jump forward (no
# step counted) and nothing else could stand there, the answer goes
# straight to the question's code, by the JUMPs' targets (indexes the
# loader made) in a tuple.
_ASKED = re.compile(r'^( *)pc = (A\[(\d+)\]|\d+) \+ enabled\[choice_\]$', re.M)


def jumped(text, writer, indexes):
    """text (a composed run of writer's instructions at indexes) with an
    ASK's jump to its JUMPs made a jump to where they go."""
    instrs, operands = writer.instrs, writer.operands

    def table(m):
        asks = [instrs[i][1] for i in indexes if instrs[i][0] == OP.ASK]
        if len(asks) != 1 or type(asks[0]) is not tuple or len(asks[0]) != 2:
            return m.group(0)
        n, first = asks[0]
        named = operands[int(m.group(3))] if m.group(3) else int(m.group(2))
        if type(n) is not int or type(first) is not int or named != first or not (
                0 < n and 0 <= first and first + n <= len(instrs)):
            return m.group(0)
        jumps = [instrs[first + j] for j in range(n)]
        if not all(op == OP.JUMP and type(to) is int and first + j < to < len(instrs)
                   for j, (op, to, _) in enumerate(jumps)):
            return m.group(0)
        return '%spc = %r[enabled[choice_]]' % (m.group(1), tuple(to for _, to, _ in jumps))
    text = _ONE_ASKED.sub(lambda m: '\n'.join(m.group(1) + x.format(*m.groups())
                                              for x in _ONE_ANSWER), text)
    return _ASKED.sub(table, text)
