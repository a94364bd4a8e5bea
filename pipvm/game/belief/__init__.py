"""A seat's belief: worlds consistent with what it observed, carried from
decision to decision (docs/metrics.md, "Beliefs", says how it works).

The parts, each with its contract in its docstring: sight (the real game
as the seat saw it), particles (worlds and the deals that make them),
clues (what a first difference points to), trades (two cards exchanged in
a game and a deal), walk (hill-climbing and Metropolis moves), replay
(repairs of the cards played unseen), repairs (which repair runs, and the
last resorts), worlds (Belief itself: the step at each decision); budgets
holds the numbers they spend."""
from .budgets import FRESH, REPAIRS
from .worlds import Belief

__all__ = ['Belief', 'FRESH', 'REPAIRS']
