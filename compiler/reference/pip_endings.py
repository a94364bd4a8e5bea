"""The reference's part for the endings beyond `winner X.` (extensions):
several winners, a loser, a ranking, the turn order, aces high -- written
again from docs/language.md, apart from the VM's pipvm/core/endings.py
(only the lines announcing them are shared).  A mixin of pip.Interpreter."""
from pipvm.core.dialogue import set_label, won_by
from pipvm.core.endings import lost_by, ranked
from pipvm.core.errors import GameOver, PipError
from pipvm.core.runtime import Player, Team


def fail(pos, message):
    raise PipError(pos, message)


class Endings:
    def stmt_Finish(self, s, frame):
        who = self.load(s.who, frame)
        items = list(who) if isinstance(who, list) else [who]
        if not items:
            fail(s.pos, "An empty list can't %s" % ('win', 'lose', 'be ranked')[s.how])
        names = [self.text(item, s.pos) for item in items]
        for item in items:
            if type(item) not in (Player, Team):
                fail(s.pos, 'Expected a player or a team')
        seats = [[p.seat for p in (item.members if type(item) is Team else [item])]
                 for item in items]
        if s.how == 0:
            raise GameOver(set_label(names), won_by(set_label(names)), [sum(seats, [])])
        if s.how == 1:
            raise GameOver(None, lost_by(set_label(names)), [sum(seats, [])], rest_first=True,
                           loser=set_label(names))
        raise GameOver(names[0], ranked(names), seats, loser=names[-1] if len(names) > 1 else None)

    def stmt_Turn(self, s, frame):
        player = self.load(s.who, frame)
        if player is None:
            fail(s.pos, 'Undefined value')
        if s.back:
            if player not in self.players:  # before the next seat round the table (not first)
                after = [p for p in self.players if p.seat > player.seat] or self.players
                at = self.players.index(min(after, key=lambda p: p.seat)) if after else 0
                self.players.insert(at or len(self.players), player)
        elif player in self.players:
            self.players.remove(player)

    def expr_AceHigh(self, e, frame):    # extension: `Aces high.`
        value = self.expr(e.expr, frame)
        return 14 if value == 1 else int(value)
