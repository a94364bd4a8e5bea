"""What the table is told of a card played, as the references decide it
themselves: the text is SEMANTICS.md's (`NAME played CARD.`, told to all),
and who may read the card is docs/api.md's rule, written here again rather
than taken from the VM's pipvm/core/dialogue.played, so that a fault in
either is a difference the fuzz properties see (tests/fuzz: property 2
compares each event's audience)."""
from pipvm.core.dialogue import Event


def play_event(player, card, area):
    """player (a Player) played card (its name) to a card list: area is the
    Area that list is the cards of, or None (a hand, a stash, a list in no
    area).  A card that lands in a faceup area is read by everyone; any
    other is read by its player, and the other seats read that a card was
    played (`face down`, into a facedown area)."""
    text = '%s played %s.' % (player.name, card)
    if area is not None and not area.is_facedown:
        return Event('played', text, None, card, player.seat)
    where = ' face down' if area is not None else ''
    return Event('played', text, player.seat, card, player.seat,
                 '%s played a card%s.' % (player.name, where))
