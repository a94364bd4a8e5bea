"""The extensions pipvm adds to 2008 Pip, and `--strict`, which refuses them.

One table names every extension by the syntax-tree node that only it makes;
`refuse` finds the first one in a program (in source order) so an author can
write for the original interpreter.
"""
from pipvm.core import plain

from . import ast
from ..errors import PipError

# node type -> how the error names it (given the node)
EXTENSIONS = {
    ast.LoopExit: lambda node: "'%s.'" % node.word,
    ast.ListQuestion: lambda node: "an ask's options from a list ('for %s in')" % node.name,
    ast.SetRuleDecl: lambda node: "a rule for sets of cards ('for sets')",
    ast.PlayOrPass: lambda node: "'or pass'" if node.label is None else "'or \"...\"'",
    ast.OwnDecl: lambda node: "'for each %s'" % node.owner,
    ast.Aggregate: lambda node: "'(%s ... %s ...)'" % (node.word, node.how),
    ast.ParamActionDecl: lambda node: "an action with parameters ('Action %s(...)')" % node.name,
    ast.Call: lambda node: "a call in an expression ('%s(...)')" % node.name,
    ast.Invoke: lambda node: "a call with arguments ('%s(...).')" % node.name,
    ast.Give: lambda node: "'give'",
    ast.ParamRuleDecl: lambda node: "a rule with parameters ('Rule %s(..., TYPE x)')" % node.name,
    ast.Ending: lambda node: "'%s'" % node.word,
    ast.RankOrder: lambda node: "'Aces %s.'" % ('high' if node.high else 'low'),
    ast.AreaFamily: lambda node: ("a list of areas ('Area %s[%d]')" % (node.name, node.count)
                                  if node.count is not None
                                  else "a list of groups ('Area %s[]')" % node.name),
    ast.NewGroup: lambda node: "a new group ('new %s')" % node.groups.name,
    ast.Item: lambda node: "'(item ... of ...)'",
}


def found(tree):
    """Every extension node in a syntax tree, in source order."""
    hits = []

    def walk(x):
        if type(x) in EXTENSIONS and (type(x) is not ast.Invoke or x.args is not None):
            hits.append(x)
        if plain.fields(type(x)):
            for name in plain.fields(type(x)):
                walk(getattr(x, name))
        elif isinstance(x, (list, tuple)):
            for item in x:
                walk(item)
    walk(tree)
    return sorted(hits, key=lambda node: node.pos)


def refuse(tree, named=()):
    """PipError at the first extension in tree, in source order, if it has
    one; named: [(position, what)] of those only names tell (a Rank word),
    which the checker finds."""
    hits = [(node.pos, EXTENSIONS[type(node)](node)) for node in found(tree)] + list(named)
    if hits:
        refused(*min(hits, key=lambda hit: hit[0]))


def refused(pos, what):
    raise PipError(pos, '%s is an extension to 2008 Pip (refused by --strict)' % what)
