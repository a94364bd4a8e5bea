"""The extensions pipvm adds to 2008 Pip, and `--strict`, which refuses them.

One table names every extension by the syntax-tree node that only it makes;
`refuse` finds the first one in a program (in source order) so an author can
write for the original interpreter.
"""
import attrs

from . import ast
from .errors import PipError

# node type -> how the error names it (given the node)
EXTENSIONS = {
    ast.LoopExit: lambda node: "'%s.'" % node.word,
    ast.OwnDecl: lambda node: "'for each %s'" % node.owner,
}


def found(tree):
    """Every extension node in a syntax tree, in source order."""
    hits = []

    def walk(x):
        if type(x) in EXTENSIONS:
            hits.append(x)
        if attrs.has(type(x)):
            for field in attrs.fields(type(x)):
                walk(getattr(x, field.name))
        elif isinstance(x, (list, tuple)):
            for item in x:
                walk(item)
    walk(tree)
    return sorted(hits, key=lambda node: node.pos)


def refuse(tree):
    """PipError at the first extension in tree, if it has one."""
    hits = found(tree)
    if hits:
        node = hits[0]
        raise PipError(node.pos, '%s is an extension to 2008 Pip (refused by --strict)'
                       % EXTENSIONS[type(node)](node))
