"""The engines that play a program, by the names `--engine` takes, and which
one plays when none is named: the one fact every command, the loader, the
cluster's workers and the game object (the web table, the bots' worlds)
read.

- compiled: the VM with its compiled tier (pipvm/engine/compiled.py, and
  actions.py in a bot's playouts): the default;
- loop: the VM's dispatch loop alone, the design card's;
- reference: the language's reference interpreter, which walks the checked
  syntax tree (a source only).
"""
COMPILED, LOOP, REFERENCE = 'compiled', 'loop', 'reference'
NAMES = (COMPILED, LOOP, REFERENCE)
DEFAULT = COMPILED

# `vm` named the loop while it was the default: scripts and `sim --json`
# reports written then say it.  (A record never stored its engine.)
ALIASES = {'vm': LOOP}


def named(text):
    """The engine TEXT names (an alias as the engine it stands for), or ValueError."""
    name = ALIASES.get(text, text)
    if name not in NAMES:
        raise ValueError('expected %s or %s, not %r' % (', '.join(NAMES[:-1]), NAMES[-1], text))
    return name


def compiled(name):
    """Whether the VM runs the compiled tier for engine `name` (a name or an alias)."""
    return named(name) == COMPILED
