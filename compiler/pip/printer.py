"""Print an AST back as Pip source, in the reference's `--print-ast` format.

Blocks indent two spaces a level; every operand of a binary operator, of
`not` and of `->` is parenthesised; player counts are listed with `or`.
Printing the printed program again gives the same text.
"""
from . import ast

_ESCAPES = {'\\': '\\\\', '\n': '\\n', '\t': '\\t', '"': '\\"', '{': '\\{', '}': '\\}'}


def string(parts):
    out = []
    for part in parts:
        if isinstance(part, ast.StrRef):
            out.append('{' + ref(part.ref) + '}')
        else:
            out.append(''.join(_ESCAPES.get(c, c) for c in part.text))
    return '"' + ''.join(out) + '"'


def rank(value):
    return ast.RANK_LETTERS.get(value, str(value))


def paren(e):
    return '(' + expr(e) + ')'


def expr(e):
    t = type(e)
    if t is ast.Binary:
        return paren(e.left) + ' ' + e.op + ' ' + paren(e.right)
    if t is ast.RefExpr:
        return ref(e.ref)
    if t is ast.NumLit:
        return str(e.value)
    if t is ast.Not:
        return 'not ' + paren(e.expr)
    if t is ast.Defined:
        return 'defined ' + ref(e.ref)
    if t is ast.CanPlay:
        return 'canplay %s from %s to %s' % (rule(e), ref(e.player), ref(e.dest))
    if t is ast.CardExpr:
        return expr(e.rank) + '~' + expr(e.suit)
    if t is ast.RangeExpr:
        return expr(e.low) + '..' + expr(e.high)
    if t is ast.SeqExpr:
        return expr(e.left) + ',' + expr(e.right)
    if t is ast.WildRank:
        return '%~' + expr(e.suit)
    if t is ast.WildSuit:
        return expr(e.rank) + '~%'
    if t is ast.WildCard:
        return '%~%'
    if t is ast.ListExpr:
        return '[' + '; '.join(expr(i) for i in e.items) + ']'
    if t is ast.BoolLit:
        return 'True' if e.value else 'False'
    if t is ast.StringLit:
        return string(e.parts)
    if t is ast.RankLit:
        return rank(e.value)
    if t is ast.SuitLit:
        return e.value
    if t is ast.Aggregate:
        body = e.body if e.how == 'by' else expr(e.body)
        return '(%s %s in %s %s %s)' % (e.word, e.name, expr(e.items), e.how, body)
    if t is ast.Call:
        return call(e.name, e.args)
    if t is ast.Item:
        return '(item %s of %s)' % (expr(e.index), expr(e.items))
    raise TypeError('not an expression: %r' % (e,))


def call(name, args):
    return '%s(%s)' % (name, '; '.join(expr(a) for a in args))


def ref(r):
    t = type(r)
    if t is ast.Id:
        return r.name
    if t is ast.Prop:
        return paren(r.obj) + '->' + r.name
    if t is ast.Players:
        return 'players'
    if t is ast.Teams:
        return 'teams'
    if t is ast.Standard:
        return 'standard'
    if t is ast.NewGroup:
        return 'new ' + ref(r.groups)
    raise TypeError('not a reference: %r' % (r,))


def dtype(name):
    """A declared type's name as written (the extension `Area[]` for an AreaList)."""
    return 'Area[]' if name == 'AreaList' else name


def rule(s):
    """A play's rule, with its arguments (extension) if it has them."""
    return s.rule if s.args is None else call(s.rule, s.args)


def block(stmts, ind, out):
    out.append('{\n')
    for s in stmts:
        stmt(s, ind + 2, out)
    out.append(' ' * ind + '}\n')


def stmt(s, ind, out):
    out.append(' ' * ind)
    t = type(s)
    if t is ast.Ask:
        out.append('ask ' + ref(s.player) + ' {\n')
        for q in s.questions:
            out.append(' ' * (ind + 2))
            if type(q) is ast.ListQuestion:
                out.append('for %s in %s ' % (q.name, expr(q.items)))
            out.append(string(q.text) + ' ')
            if q.cond is not None:
                out.append('if ' + expr(q.cond) + ' ')
            block(q.body, ind + 2, out)
        out.append(' ' * ind + '}\n')
    elif t is ast.Assign:
        out.append('%s = %s.\n' % (ref(s.target), expr(s.value)))
    elif t is ast.Compound:
        out.append('%s %s= %s.\n' % (ref(s.target), s.op, expr(s.value)))
    elif t is ast.Deal:
        count = 'all' if s.count is None else expr(s.count)
        out.append('deal %s from %s to %s.\n' % (count, ref(s.source), ref(s.dest)))
    elif t is ast.Forever:
        out.append('forever ')
        block(s.body, ind, out)
    elif t is ast.For:
        out.append('for %s in %s' % (s.name, expr(s.items)))
        if s.start is not None:
            out.append(' starting at ' + expr(s.start))
        out.append(' ')
        block(s.body, ind, out)
    elif t is ast.If:
        for i, (cond, body) in enumerate(s.branches):
            if i:
                out.append(' ' * ind + ('else ' if cond is None else 'elseif %s ' % expr(cond)))
            else:
                out.append('if %s ' % expr(cond))
            block(body, ind, out)
    elif t is ast.Invoke:
        out.append(call(s.name, s.args or []) + '.\n')
    elif t is ast.Give:
        out.append('give %s.\n' % expr(s.value))
    elif t is ast.Label:
        out.append('label %s.\n' % s.name)
    elif t is ast.Let:
        out.append('let %s be %s.\n' % (s.name, expr(s.value)))
    elif t is ast.Message:
        to = '' if s.to is None else ref(s.to) + ' '
        out.append('message %s%s.\n' % (to, expr(s.text)))
    elif t is ast.Order:
        out.append('order %s by %s.\n' % (ref(s.target), s.ordering))
    elif t is ast.Play:
        out.append('play %s from %s to %s.\n' % (rule(s), ref(s.player), ref(s.dest)))
    elif t is ast.PlayOrPass:
        word = 'pass' if s.label is None else string(s.label)
        out.append('play %s from %s to %s or %s ' % (rule(s), ref(s.player), ref(s.dest), word))
        block(s.passing, ind, out)
    elif t is ast.Rotate:
        out.append('rotate %s.\n' % ref(s.target))
    elif t is ast.Shuffle:
        out.append('shuffle %s.\n' % ref(s.target))
    elif t is ast.Skip:
        out.append('skip to %s.\n' % s.name)
    elif t is ast.LoopExit:
        out.append(s.word + '.\n')
    elif t is ast.Winner:
        out.append('winner %s.\n' % ref(s.who))
    elif t is ast.Ending:
        out.append('%s %s.\n' % (s.word, ref(s.who)))
    else:
        raise TypeError('not a statement: %r' % (s,))


def decl(d, out):
    t = type(d)
    if t is ast.AreaDecl:
        opts = ' is ' + ', '.join(word for word, _ in d.options) if d.options else ''
        out.append('Area %s labeled %s%s.\n' % (d.name, string(d.label), opts))
    elif t is ast.AreaFamily:
        opts = ' is ' + ', '.join(word for word, _ in d.options) if d.options else ''
        count = '' if d.count is None else d.count
        out.append('Area %s[%s] labeled %s%s.\n' % (d.name, count, string(d.label), opts))
    elif t is ast.ActionDecl:
        out.append('Action %s ' % d.name)
        block(d.body, 0, out)
    elif t is ast.ParamActionDecl:
        params = ', '.join('%s %s' % (dtype(param.type), param.name) for param in d.params)
        gives = '' if d.gives is None else 'gives %s ' % dtype(d.gives)
        out.append('Action %s(%s) %s' % (d.name, params, gives))
        block(d.body, 0, out)
    elif t is ast.ParamRuleDecl:
        params = ', '.join(d.params + ['%s %s' % (dtype(x.type), x.name) for x in d.extra])
        sets = ' for sets' if d.sets else ''
        out.append('Rule %s(%s)%s = %s.\n' % (d.name, params, sets, expr(d.body)))
    elif t is ast.RuleDecl or t is ast.SetRuleDecl:
        sets = ' for sets' if t is ast.SetRuleDecl else ''
        out.append('Rule %s(%s)%s = %s.\n' % (d.name, ', '.join(d.params), sets, expr(d.body)))
    elif t is ast.OrderingDecl:
        out.append('Ordering %s(%s) = %s.\n' % (d.name, d.param, expr(d.body)))
    elif t is ast.VarDecl:
        init = '' if d.init is None else ' = ' + expr(d.init)
        out.append('%s %s%s.\n' % (dtype(d.type), d.name, init))
    elif t is ast.RankOrder:
        out.append('Aces %s.\n' % ('high' if d.high else 'low'))
    elif t is ast.OwnDecl:
        init = '' if d.init is None else ' = ' + expr(d.init)
        out.append('%s %s for each %s%s.\n' % (dtype(d.type), d.name, d.owner, init))
    else:
        raise TypeError('not a declaration: %r' % (d,))


def count(c):
    counts = ' or '.join(str(n) for n in c.counts)
    if isinstance(c, ast.TeamCount):
        return '%s teams of %d' % (counts, c.size)
    return counts + ' players'


def game(g):
    out = ['Game %s requires %s.\n' % (string(g.name), count(g.count))]
    for d in g.decls:
        decl(d, out)
    return ''.join(out)
