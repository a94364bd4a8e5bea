"""Who won a game, by seat and team: one answer for sim's report and the bots' rewards.

`Ending.winner` is the name as announced: a player's name, or a team's
(`Team (Ada, Cleo)`).  Seats and teams are found by seat, never by place in
`players` or `teams`, which a game may rotate.
"""
from pipvm.core.runtime import to_str


def find(winner, players, teams):
    """(the winning Player or None, the winning Team or None); a player's win
    in a team game is their team's win."""
    player = next((p for p in players if p.name == winner), None)
    for team in teams or ():
        if to_str(team) == winner or player in team.members:
            return player, team
    return player, None


def places(winner, players, teams):
    """(seat, team number) of the winner; team numbers as dialogue.team_seats."""
    player, team = find(winner, players, teams)
    seat = None if player is None else player.seat
    return seat, None if team is None else team.members[0].seat % len(teams)


def rewards(game):
    """Each seat's reward for a finished game: 1 to each winning seat (every
    member of a winning team), 0 to the others; a game without a winner (or
    one stopped by an error or the step limit) gives every seat 1/seats, a
    draw, but a one-seat game's seat 0: a patience not won is lost (as a
    draw it would pay as much as a win, and a thinking bot could not tell
    them apart).  An ending that places the seats (extension: a loser, several winners, a
    ranking) gives the best place 1, the worst 0 and the places between
    their share: a loser's seat 0, every other seat 1; every seat in one
    place (all of them losers, say) is no one ahead: 1/seats each."""
    n = game.seats
    ending = game.ending
    places = getattr(ending, 'places', None)
    held = sorted(set(places)) if places is not None else ()
    if len(held) > 1:           # by rank among the places held: a place no seat holds counts for none
        return [1.0 - held.index(p) / (len(held) - 1) for p in places]
    if ending.kind == 'winner':
        player, team = find(ending.winner, game.players, game.teams)
        won = [p.seat for p in team.members] if team else [player.seat] if player else []
        if won:
            out = [0.0] * n
            for s in won:
                out[s] = 1.0
            return out
    return [1.0 / n] * n if n > 1 else [0.0]
