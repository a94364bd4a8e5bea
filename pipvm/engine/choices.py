"""The decisions the loop stops at (a PAUSE in an instruction's body): what
the player chooses from, and what the answer does (Machine.answer)."""
import functools

from pipvm.core.plain import NamedTuple
from pipvm.core.dialogue import set_label
from pipvm.core.runtime import Player

# The kinds of decision the loop can stop at (returning PAUSED).
CARD, ACTION, SETS = 'card', 'action', 'cards'


class CardChoice(NamedTuple):
    """A PLAY waiting for the player to choose one of the cards (of their
    hand, in hand order) the rule allows; it moves to dest.  (A named tuple,
    as game.Decision: games make one per decision, by card_choice.)"""
    player: Player
    cards: list
    dest: list
    kind = CARD

    def copied(self, copy):
        return CardChoice(copy(self.player), copy(self.cards), copy(self.dest))


class ActionChoice(NamedTuple):
    """An ASK waiting for the player to choose one of the labels: question
    enabled[i] continues at the JUMP first + enabled[i].  binds (ASK_FROM's,
    else None): per label, None or the (local slot, item) of a question from
    a list, stored before its branch runs."""
    player: Player
    labels: list
    first: int
    enabled: list
    binds: list
    kind = ACTION

    def copied(self, copy):
        binds = self.binds and [b and (b[0], copy(b[1])) for b in self.binds]
        return ActionChoice(copy(self.player), list(self.labels), self.first, list(self.enabled),
                            binds)


class SetChoice(NamedTuple):
    """A PLAY_SET waiting for the player to choose one of the sets of cards
    (lists; None: the pass) by its label; the cards move to dest, then
    whether the player passed is pushed."""
    player: Player
    sets: list
    labels: list
    dest: list
    one: bool = False          # extension: single cards or a pass, headed "Choose a card:"
    kind = SETS

    def copied(self, copy):
        return SetChoice(copy(self.player), [copy(s) for s in self.sets], list(self.labels),
                         copy(self.dest), self.one)

    def relabelled(self):
        """The same choice labelled by its cards' names now (a belief's
        particle trades cards that were never seen: pipvm/game/belief/)."""
        labels = [label if s is None else set_label([card.name for card in s])
                  for s, label in zip(self.sets, self.labels)]     # (the pass keeps its own)
        return self._replace(labels=labels)


# Made as tuples are, in C (a NamedTuple's own constructor is Python code):
# card_choice((player, cards, dest)).
card_choice = functools.partial(tuple.__new__, CardChoice)
action_choice = functools.partial(tuple.__new__, ActionChoice)
