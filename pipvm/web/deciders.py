"""The seats the server plays itself: a seat kind -> a decider, a function
(game, decision) -> the answer (an option's index, or a name's text).

Any seat kind that can answer a Decision sits at a served table: a new kind
adds an entry to DECIDERS.  A decider may take its time: the server calls it
off the event loop and applies its answer only if the decision still stands.
"""
from pipvm.core.errors import PipError
from pipvm.game.game import COUNT, NAME
from pipvm.play.seats import THINKING, bot_name, thinker


def _random(seat):
    # From the game's own generator, as `pipvm run` does: a seed fixes the game.
    return lambda game, d: bot_name(seat) if d.kind is NAME else game.rng.int(len(d.options))


def _first(seat):
    return lambda game, d: bot_name(seat) if d.kind is NAME else 0


def _thinking(spec, seat, start):
    # mc or ismcts (pipvm/play/bots.py): through the seat's view and determinizations
    # only, its generator seeded as `pipvm run` seeds it (seats.thinker, from start),
    # and how many play picked at random from it, as seats.ThinkingBot.pick does:
    # a record made here replays in `pipvm replay`.
    bot = thinker(spec.kind, spec.iterations, seat, start, spec.cut)

    def decide(game, d):
        if d.kind is NAME:
            return bot_name(seat)
        if d.kind is COUNT:
            return bot.rng.randrange(len(d.options))
        return bot.choose(game, d)
    return decide


DECIDERS = {'random': _random, 'first': _first}


def decider(spec, seat, start):
    """The decider for a seat's SeatSpec, or None for a person.  start: the
    game's generator before its first draw (a thinking bot's seed)."""
    if spec.kind == 'human':
        return None
    if spec.kind in THINKING:
        return _thinking(spec, seat, start)
    if spec.kind not in DECIDERS:
        raise PipError(None, "seat %d: pipvm serve seats a person or a bot (%s), not '%s'"
                       % (seat + 1, ', '.join(sorted(DECIDERS) + list(THINKING)), spec))
    return DECIDERS[spec.kind](seat)
