"""The virtual machine: a dispatch loop over code decoded once at load time.

A game's whole state is data: the cards, players, globals and the chain of
action calls, each frame a list [code, pc, operand stack, local slots]
(bodies.CODE, PC, STACK, LOCALS).  The
loop runs until the game needs a decision (PLAY, ASK), the game ends, or an
error; it then returns, leaving everything needed to go on in `frames`.
Nothing outside is called from inside the loop: output is appended to
`events` and a decision is left in `pending` for whoever drives the game
(pipvm/game/game.py).  Rules and orderings cannot decide anything, so they run to
their value inside the instruction that needs it.  Operations that can fail
raise Fault; the loop turns it into a PipError at the position of the
failing instruction.
"""
from pipvm.engine import fusion, generated_cases, pure, quiet
from pipvm.engine.copier import Copier
from pipvm.engine.bodies import (CALLED, END, INVALID, LOUD, PAUSE, PAUSED,  # noqa: F401
                                 InvalidProgram, LOCALS, PC, STACK, move, new_frame)
from pipvm.engine.choices import (ACTION, CARD, SETS, ActionChoice, CardChoice,  # noqa: F401
                                  SetChoice)
from pipvm.isa import pipc
from pipvm.core import runtime
from pipvm.core.dialogue import played
from pipvm.core.errors import Fault, PipError, StepLimit
from pipvm.isa.opcodes import INSTRUCTIONS, OP, OPERANDS
from pipvm.core.runtime import Area, Card, area_of, card_sets, list_prop  # noqa: F401 (Area: tests)


class Loaded:
    """One code object decoded for the loop: (opcode, operand, handler) per
    instruction (an exact tuple, not a NamedTuple: CPython unpacks only exact
    tuples fast, and the loop unpacks one at every instruction; a NamedTuple
    took 2.5-3x as long, about 50 ns more each), with runs of instructions
    fused into superinstructions (pipvm/engine/fusion.py),
    operands decoded as their kind says (jump targets as instruction indexes,
    properties as attribute names), and each instruction's positions (one per
    fused part)."""
    __slots__ = ('code', 'instrs', 'quiet', 'parts', 'positions', 'offsets', 'frame_size',
                 'plain', 'action', 'loud_action')

    def __init__(self, code, fuse=True, program=None, card_consts=()):
        runs, rewrites = fusion.loaded(list(pipc.decoded(code.code)), fuse)
        index = {}
        for i, (_, parts) in enumerate(runs):
            index[parts[0].offset] = i
        self.code = code
        self.instrs = []
        for i, (op, parts) in enumerate(runs):
            args = [_load(kind, a, index) for ins in parts
                    for kind, a in zip(ins.op.operands, ins.args)]
            if op.code == OP.ASK or op.code == OP.ASK_FROM:
                args.append(i + 1)              # where its JUMPs begin (opcodes.ask_table)
            self.instrs.append((op.code, args[0] if len(args) == 1 else tuple(args),
                                HANDLERS.get(op.code)))
        for i, name in rewrites.items():
            self.instrs[i] = rewritten(name, self.instrs, i)
        # What runs when nobody reads the output (pipvm/engine/quiet.py): the same
        # indexes, so a frame can run either.
        variant = program is not None and quiet.variant(self.instrs, runs, code, program,
                                                        card_consts)
        self.quiet = ([(op, arg, HANDLERS.get(op) if handler is None else handler)
                       for op, arg, handler in variant] if variant else self.instrs)
        self.parts = [parts for _, parts in runs]     # the file's instructions each runs
        self.offsets = [parts[0].offset for _, parts in runs]
        self.positions = [tuple(code.position(ins.offset) for ins in parts) for _, parts in runs]
        self.frame_size = len(code.local_names)
        self.plain = None       # the compiled tier's: (instrs, quiet, positions) before its blocks
        self.action = None      # and the action as one function (pipvm/engine/actions.py)
        self.loud_action = None


# The load-time rewrites (fusion.rewrites): each by name, with its operand
# made from the loaded instructions and the index of the one it replaces.
REWRITES = {
    'RETURN': lambda instrs, i: (),             # a jump to a RETURN returns
    # a PLAY taking its CANPLAY's cards: the same rule
    'PLAY_AGAIN': lambda instrs, i: instrs[i][1],
    # a dealing loop's FOR_ITER: its FOR_NEXT's slot, the global, the end,
    # the property read of the item (or None: the item itself)
    'DEAL_EACH': lambda instrs, i: (instrs[i + 1][1][0], instrs[i + 3][1], instrs[i + 1][1][1],
                                    instrs[i + 2][1][1] if instrs[i + 2][0] != OP.LOAD_LOCAL
                                    else None),
}


def rewritten(name, instrs, i):
    """What the VM runs instead of instrs[i] for the rewrite `name`."""
    if name not in REWRITES:
        raise ValueError('no load-time rewrite %r' % name)
    code = getattr(OP, name)
    return (code, REWRITES[name](instrs, i), HANDLERS.get(code))


def _load(kind, arg, index):
    load = OPERANDS[kind].load
    return arg if load is None else load(arg, index)


class Image:
    """A validated program, decoded once; any number of games can run from it."""

    def __init__(self, program, fuse=True, compiled=False):
        self.program = program
        # Only constants naming cards differ from game to game (each has its deck).
        self.card_consts = [i for i, c in enumerate(program.consts)
                            if _resolve(c, range(52)) != c]
        card_consts = set(self.card_consts)
        # A constant that is a tuple of cards only (a deck) by its cards' places.
        self.card_tuples = {i: tuple(c.index for c in program.consts[i]) for i in card_consts
                            if type(program.consts[i]) is tuple
                            and all(type(c) is pipc.CardRef for c in program.consts[i])}
        self.codes = [Loaded(c, fuse, program, card_consts) for c in program.codes]
        self.compiled = compiled
        self.actions_ready = False      # (actions.prepare, at the first play-out)
        if compiled:        # the compiled tier: its blocks and regions (compiled.py, regions.py)
            from pipvm.engine import compiled as tier
            for loaded in self.codes:
                tier.compile_loaded(loaded, _regions)
        # Rules and orderings also as closures (pipvm/engine/pure.py), None where not.
        # (the compiled tier's as generated functions: pipvm/engine/rules.py)
        self.pure = [pure.translate(c, program, card_consts, compiled) for c in program.codes]

    def consts_for(self, deck):
        """The constant pool of a game with this deck."""
        consts = list(self.program.consts)
        tuples = self.card_tuples
        for i in self.card_consts:
            places = tuples.get(i)
            consts[i] = (_resolve(consts[i], deck) if places is None
                         else tuple(map(deck.__getitem__, places)))
        return consts


def invalid_at(loaded, pc, e):
    """A validated file's instruction before pc that still failed (e)."""
    c = loaded.code
    return InvalidProgram(None, 'invalid bytecode at offset %d of %s %s (%s)' % (
        loaded.offsets[pc - 1], c.kind, c.name, e))


def _regions(site, index):
    """regions.enter, imported at a game's first hot block, not at start-up
    (its module and the rewrites' patterns take a millisecond and a half)."""
    from pipvm.engine import regions
    return regions.enter(site, index)


def _resolve(const, deck):
    """A constant as a value of this game (card constants name its cards)."""
    kind = type(const)
    if kind is pipc.CardRef:
        return deck[const.index]
    if kind is tuple:
        return tuple(_resolve(c, deck) for c in const)
    return const


class Dealer:
    """Does a game's shuffles: with the game's generator, keeping its state
    before each shuffle, so that a replay can deal exactly the same
    (pipvm/game/determinize.py has dealers of its own)."""

    def shuffle(self, machine, items):
        rng = machine.rng
        state, idx = saved = rng.saved()
        rng.shuffle(items)
        # (the state saved: packed, an int, or a list that a shuffle that
        # draws leaves as it was, kept without a copy; a list the shuffle
        # still has, of fewer than two items, copied)
        if type(state) is list and rng.saved()[0] is state:
            saved = state[:], idx
        machine.shuffles.append(saved)


DEALER = Dealer()


class Machine:
    """One game's state, and the loop that runs its code.

    `pending` is the decision the game waits for, a CardChoice or an
    ActionChoice; `answer(i)` applies option i.  `events` receives the
    output as dialogue.Event records, or is None when nobody reads it
    (pipvm sim).  `dealer` does the shuffles (a Dealer)."""

    def __init__(self, image, rng, max_steps=None, events=None, dealer=DEALER):
        self.image, self.rng = image, rng
        self.program = image.program
        self.deck = runtime.new_deck()
        self.consts = image.consts_for(self.deck)
        self.globals = [None] * len(self.program.global_names)
        self.players, self.teams = [], None
        self.seated = []           # every player, by seat (`players` may leave some out: `out p.`)
        self.frames = []
        self.pending = None
        self.events = events
        self.canplay_found = None  # the cards the last CANPLAY found (PLAY_AGAIN's body)
        self.places = {}           # a constant ordering's places of cards (ordered), by ordering
        self.shuffles = []         # the generator's state before each SHUFFLE (see Dealer)
        self.dealer = dealer
        self.max_steps = max_steps
        self.steps_left = float('inf') if max_steps is None else max_steps
        self.auto = None           # (choose, log, noted, bits) while play_out answers by itself

    # --- the game -----------------------------------------------------------

    def start(self, players, teams=None, auto=None):
        """Seat the players, then run the initialisers and main up to the first
        decision; the same results as resume().  auto: (choose, log, noted,
        bits) to play the whole game out from its start, as play_out does
        from a decision (and returns); noted, if not None, a list that
        receives each decision's number of options and deciding seat, in
        turn (a simulation's statistics, kept without a call)."""
        self.players, self.teams = players, teams
        self.seated = list(players)
        codes = self.image.codes
        main = new_frame(codes[self.program.main])
        if auto is not None:
            return self._playing_out(auto, main)
        self.frames = [main, new_frame(codes[0])]
        return self.resume()

    def resume(self):
        """Run on from where the game stopped: PAUSED at a decision (see
        pending), or the end (None when main returns; GameOver for a winner;
        PipError and StepLimit as raised)."""
        frames = self.frames
        loaded, pc, stack, frame = frames[-1]
        result = self._run(loaded, pc, stack, frame, frames)
        return PAUSED if result is PAUSED else None

    def answer(self, choice):
        """Apply option `choice` of the pending decision, then resume()."""
        target = self._answered(self._apply, choice)
        if target is not None:
            self.frames[-1][PC] = target
        return self.resume()

    def play_out(self, choose, log, bits=None):
        """Answer the pending decision and every later one with choose(n), an
        option's index below n (a bot's random playout: rng.randrange), or,
        given bits (a random.Random's getrandbits, whose _randbelow choose
        is), with the draws choose would make, drawn where the answer is
        made (no call of choose's a decision), without
        stopping, until the game ends; log receives (index, label) of each
        answer, as game.Game.history.  The same game as answer(choose(n)) at
        each decision, without returning to the driver between them.  choose
        may not read pending (a decision answered where it stands makes
        none); the seat that decides is noted's last before it runs (start's
        auto: a simulation's table draws by it).  Returns or raises as
        resume()."""
        return self._playing_out((choose, log, None, bits), None)

    def _playing_out(self, auto, main):
        """play_out by auto, from the pending decision; or, given main's
        frame, from the start: the initialisers on the loop by themselves
        (they return where main starts, and cannot pause: a decision is
        answered where it stands), then main as the paused frames go on."""
        self.auto = auto
        direct = self.image.compiled and self.events is None
        if direct:
            from pipvm.engine import actions    # (cases.py's composing: not at start-up)
            actions.prepare(self.image)     # what the loop CALLs runs as functions
        try:
            if main is None:
                target = self._answered(self._answer_auto)
                if target is not None:
                    self.frames[-1][PC] = target
            else:
                self.frames = [new_frame(self.image.codes[0])]
                self.resume()
                self.frames = [main]
            if direct:              # the paused frames too, where they can
                return PAUSED if actions.resume(self) is PAUSED else None
            return self.resume()
        finally:
            self.auto = None

    def _answer_auto(self):
        """Answer the pending decision by self.auto (pending still set while
        choose runs: see play_out); where the frame goes on, as _apply."""
        choose, log, noted, bits = self.auto
        pending = self.pending
        kind = pending.kind
        if kind is CARD:
            player, options, dest = pending
        elif kind is ACTION:
            player, options, first, enabled, binds = pending
        else:
            player, options = pending.player, pending.labels
        n = len(options)
        if noted is not None:
            noted += n, player.seat
        if bits is None:
            choice = choose(n)
        else:               # (random.Random._randbelow_with_getrandbits, written out)
            choice = bits(k := n.bit_length())
            while choice >= n:
                choice = bits(k)
        if kind is CARD:
            # the commonest, as _apply's first case and play_card, without the calls
            card = options[choice]
            log.append((choice, card.name))
            self.pending = None
            if type(card) is Card:          # (move's first case: it equals only itself)
                player.hand.remove(card)
                dest.insert(0, card)
            else:
                move(card, player.hand, dest, 'Card is not in the hand')
            card.last_played_by = player
            if self.events is not None:
                self.events.append(played(player, card.name, area_of(dest, self.globals)))
            return None
        log.append((choice, options[choice]))
        if kind is ACTION:
            # _apply's case of a question, without the call
            self.pending = None
            if binds is not None and binds[choice] is not None:
                slot, item = binds[choice]
                self.frames[-1][LOCALS][slot] = item
            return first + enabled[choice]
        return self._apply(choice)

    def _apply(self, choice):
        """Apply option `choice` of the pending decision; the instruction the
        top frame goes on at (None: where it stopped)."""
        pending, self.pending = self.pending, None
        player = pending.player
        if pending.kind is CARD:
            self.play_card(player, pending.cards[choice], pending.dest)
            return None
        if pending.kind is SETS:
            chosen = pending.sets[choice]
            for card in chosen or ():
                self.play_card(player, card, pending.dest)
            self.frames[-1][STACK].append(chosen is None)
            return None
        if pending.binds is not None and pending.binds[choice] is not None:
            slot, item = pending.binds[choice]
            self.frames[-1][LOCALS][slot] = item
        return pending.first + pending.enabled[choice]

    def play_card(self, player, card, dest):
        # The options are cards of the hand the rule allowed when the game
        # stopped, and nothing has run since: the move cannot fail.
        move(card, player.hand, dest, 'Card is not in the hand')
        card.last_played_by = player
        if self.events is not None:
            # who may read the card: by where it lands (dialogue.played)
            self.events.append(played(player, card.name, area_of(dest, self.globals)))

    def evaluate(self, index, args):
        """The value of a rule or ordering for these arguments: by its
        closures if it has them; on the loop if not, or if they fail (the
        loop then raises the error where it happens)."""
        fast = self.image.pure[index]
        if fast is not None:
            try:
                return fast.call(self, args)
            except Exception:
                pass
        code = self.image.codes[index]
        return self._run(code, 0, [], list(args) + [None] * (code.frame_size - len(args)), None)

    # --- the loop -----------------------------------------------------------

    def _run(self, loaded, pc, stack, frame, frames):
        # The instructions the table marks inline are branches here, the
        # hottest first (cases.HOT), written from their bodies
        # (pipvm/isa/instructions.py) by pipvm/engine/cases.py.  The rest have
        # a handler, called first (one test instead of the whole chain),
        # which may return where to jump, PAUSE, CALLED or LOUD.  An action
        # runs in the top frame record of frames; a rule or ordering runs
        # with frames None (it ends with RETURN_VALUE and never calls).
        loud = self.events is not None
        instrs = loaded.instrs if loud else loaded.quiet
        push, pop = stack.append, stack.pop
        consts, globals_ = self.consts, self.globals
        try:
            while True:
                op, arg, handler = instrs[pc]
                pc += 1
                if handler is not None:
                    target = handler(self, stack, frame, arg)
                    if target is not None:
                        if target >= 0:
                            pc = target
                            continue
                        if target is PAUSE:
                            if self.auto is None:
                                frames[-1][PC] = pc
                                return PAUSED
                            # play_out: answer here and go on in the same frame
                            target = self._answer_auto()
                            if target is not None:
                                pc = target
                            instrs = loaded.instrs if loud else loaded.quiet
                            continue
                        if target is LOUD:      # a quiet instruction can't: run the code
                            pc -= 1
                            instrs = loaded.instrs
                            continue
                        # CALL pushed the callee's frame: run it.  (A compiled
                        # play-out comes to the loop only for a frame with no
                        # function, actions.resume, which no example has; its
                        # callees run here with it, as in any game.)
                        frames[-2][PC] = pc
                        loaded, pc, stack, frame = frames[-1]
                        instrs = loaded.instrs if loud else loaded.quiet
                        push, pop = stack.append, stack.pop
                # --- generated by pipvm/engine/cases.py from the bodies: do not edit ---
                elif op == 5:    # LOAD_LOCAL
                    if (value := frame[arg]) is None:
                        raise Fault('Undefined value', 0)
                    push(value)
                elif op == 3:    # LOAD_GLOBAL
                    if (value := globals_[arg]) is None:
                        raise Fault('Undefined value', 0)
                    push(value)
                elif op == 113:    # LOAD_GLOBAL_PROP
                    if (value0 := globals_[arg[0]]) is None:
                        raise Fault('Undefined value', 0)
                    if (value := getattr(value0, arg[1])) is None:
                        raise Fault('Undefined value', 1)
                    push(value)
                elif op == 4:    # STORE_GLOBAL
                    globals_[arg] = pop()
                elif op == 6:    # STORE_LOCAL
                    frame[arg] = pop()
                elif op == 1:    # CONST
                    push(consts[arg])
                elif op == 100:    # LOAD_LOCAL_PROP
                    if (value0 := frame[arg[0]]) is None:
                        raise Fault('Undefined value', 0)
                    if (value := getattr(value0, arg[1])) is None:
                        raise Fault('Undefined value', 1)
                    push(value)
                elif op == 56:    # FOR_NEXT
                    item = next(stack[-1], END)
                    if item is END:
                        pop()
                        pc = arg[1]
                    else:
                        frame[arg[0]] = item
                elif op == 50:    # JUMP
                    if arg < pc:
                        self.steps_left -= 1
                        if self.steps_left < 0:
                            raise StepLimit(self.max_steps)
                    pc = arg
                elif op == 51:    # JUMP_IF_FALSE
                    if not pop():
                        pc = arg
                elif op == 103:    # EQ_GLOBAL_JUMP_IF_FALSE
                    if (value0 := globals_[arg[0]]) is None:
                        raise Fault('Undefined value', 0)
                    if not (pop() == value0):
                        pc = arg[1]
                elif op == 203:    # QUIET_LOCALS
                    for slot in arg[0]:
                        # body: DEFINED_LOCAL slot=slot res=defined
                        # end of body
                        if not (frame[slot] is not None):
                            pc -= 1
                            instrs = loaded.instrs
                            break
                    else:
                        pc = arg[1]
                elif op == 58:    # RETURN
                    frames.pop()
                    if not frames:
                        return None
                    loaded, pc, stack, frame = frames[-1]
                    instrs = loaded.instrs if loud else loaded.quiet
                    push, pop = stack.append, stack.pop
                elif op == 10:    # LIST_PROP
                    stack[-1] = list_prop(stack[-1], arg, 0)
                elif op == 59:    # RETURN_VALUE
                    return pop()
                elif op == 114:    # LOAD_LOCAL_ITEM_PROP
                    if (value0 := frame[arg[0]]) is None:
                        raise Fault('Undefined value', 0)
                    if (value := getattr(list_prop(value0, arg[1], 1), arg[2])) is None:
                        raise Fault('Undefined value', 2)
                    push(value)
                elif op == 109:    # EQ_CONST_OR
                    value0 = consts[arg[0]]
                    res1 = stack[-1] == value0
                    if res1:
                        stack[-1] = res1
                        pc = arg[1]
                    else:
                        pop()
                elif op == 53:    # JUMP_IF_TRUE_OR_POP
                    if stack[-1]:
                        pc = arg
                    else:
                        pop()
                elif op == 8:    # LOAD_PROP
                    if (value := getattr(stack[-1], arg)) is None:
                        raise Fault('Undefined value', 0)
                    stack[-1] = value
                elif op == 102:    # EQ_GLOBAL
                    if (value0 := globals_[arg]) is None:
                        raise Fault('Undefined value', 0)
                    stack[-1] = stack[-1] == value0
                elif op == 106:    # EQ_RETURN
                    b = pop()
                    return pop() == b
                elif op == 92:    # GIVE
                    value = pop()
                    frames.pop()
                    loaded, pc, stack, frame = frames[-1]
                    instrs = loaded.instrs if loud else loaded.quiet
                    push, pop = stack.append, stack.pop
                    stack[-1] = value
                # --- end of generated code ---
        except Fault as f:
            raise PipError(loaded.positions[pc - 1][f.part], f.message) from None
        except INVALID as e:
            raise invalid_at(loaded, pc, e) from None

    tick = generated_cases.tick         # a step (TICK in pipvm/isa/instructions.py)

    def _answered(self, apply, *choice):
        """apply(*choice) for the pending decision, outside the loop: a value of
        the wrong kind it moves (a hand-made file's hand of Players) fails as
        invalid bytecode at the paused instruction, as inside the loop."""
        try:
            return apply(*choice)
        except INVALID as e:
            raise self.invalid(e) from None

    def invalid(self, e):
        """The error of the instruction the top frame paused at, whose
        decision still cannot be shown (e: what failed; the verifier checks
        no kinds: a hand-made file's hand may hold a Number)."""
        rec = self.frames[-1]
        return invalid_at(rec[0], rec[PC], e)

    def limit_steps(self, steps):
        """Give a game without a step limit one: `steps` steps from here."""
        if self.max_steps is None:
            self.max_steps = self.steps_left = steps

    def deal_anew(self, rng):
        """Shuffle from here on with rng, through the plain dealer."""
        self.rng, self.dealer = rng, DEALER

    def playable(self, rule, player, dest):
        """The cards of the player's hand the rule allows, in hand order."""
        fast = self.image.pure[rule]
        if fast is not None:
            try:
                # (Pure.filter's first case without its call: the compiled
                # tier's generated filter, as the whole actions call it)
                hand = fast.hand
                return (fast.filter if hand is None else hand)(self, player, dest)
            except Exception:
                pass            # the loop below raises the error where it happens
        code = self.image.codes[rule]
        run, pad = self._run, [None] * (code.frame_size - 3)     # (an aggregate's variable)
        return [card for card in list(player.hand)
                if run(code, 0, [], [player, card, dest] + pad, None)]

    def allowed_sets(self, rule, player, dest):
        """Extension: the sets of cards of one rank a rule for sets allows,
        in the order they are offered (runtime.card_sets), one at a time."""
        return (s for s in card_sets(player.hand) if self.evaluate(rule, (player, s, dest)))

    def ordered(self, ordering, cards):
        """The cards sorted stably by their first place in the ordering's
        result (a card not in it: after the rest)."""
        key = self.places.get(ordering)
        if key is None:
            key = _sort_key(self.evaluate(ordering, [cards]))
            fast = self.image.pure[ordering]
            if fast is not None and fast.constant:
                # a list of this game's cards whatever the state (Oh Hell's
                # suits in order): its places once per game
                self.places[ordering] = key
        try:
            return sorted(cards, key=key)
        except TypeError:           # (an unhashable item: not a card, after the rest)
            return _after_the_rest(cards, key.__self__)

    # --- copying ------------------------------------------------------------

    def fork(self, events=None):
        """An independent copy: given the same answers it plays exactly as this
        one (same output, state and random stream).  Objects shared within
        the game stay shared within the copy; nothing is shared between them."""
        other = Machine.__new__(Machine)
        other.__dict__.update(self.__dict__)
        other.dealer = DEALER                   # (not a replay's own: determinize.py)
        copy = Copier(self.deck, self.seated, self.teams)
        other.deck = copy.deck
        other.consts = self.image.consts_for(other.deck)
        other.globals = copy.all(self.globals)
        other.players = copy(self.players)
        other.seated = copy(self.seated)
        other.teams = copy(self.teams)
        other.frames = [[code, pc, copy.all(stack) if stack else [], copy.all(slots)]
                        for code, pc, stack, slots in self.frames]
        other.pending = None if self.pending is None else self.pending.copied(copy)
        other.rng = self.rng.copy()
        other.events = events
        other.shuffles = list(self.shuffles)
        other.canplay_found = None
        other.places = {}                       # (by the ids of this game's cards)
        return other


def _sort_key(result):
    """The sort key of a card by an ordering's result: its first place
    there (one not there: after the rest).  When the result holds only
    cards (as a compiled program's does), a dict by the card itself (a Card
    equals only itself) whose __getitem__ is the key, in C; else by id."""
    if set(map(type, result)) <= {Card}:
        places = _Places(zip(reversed(result), range(len(result) - 1, -1, -1)))
        places.last = len(result)
        return places.__getitem__
    first, last = {}, len(result)
    for i, card in enumerate(result):
        first.setdefault(id(card), i)
    return lambda card: first.get(id(card), last)


def _after_the_rest(items, places):
    """items sorted by places (_sort_key's), an unhashable one last."""
    return sorted(items, key=lambda v: places.last if type(v).__hash__ is None else places[v])


class _Places(dict):
    """A card's first place in an ordering's result; last if it is not there."""
    __slots__ = ('last',)

    def __missing__(self, card):
        return self.last


# Each instruction that is not inline has a handler, written from its body
# (generated_cases.HANDLERS).
HANDLERS = {op.code: generated_cases.HANDLERS[op.code] for op in INSTRUCTIONS if not op.inline}
INLINE = tuple(op.name for op in INSTRUCTIONS if op.inline)
