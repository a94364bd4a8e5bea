"""Extension: actions with parameters and results, checked (the checker's
part for them: signatures known before any body, so that actions may call
themselves and each other; calls in statements and expressions; `give`)."""
from compiler.ir import checked as c
from compiler.ir import types as T

from . import ast, syntax_hints
from ..errors import PipError
from .checks import RULE, Body, expect, expect_unique, fail, written


class Calls:
    """The Checker's methods for calls and results (a mixin of checker.Checker)."""

    def call(self, name, args, pos):
        """(action index, checked arguments, result type) of a call: an action
        with parameters may be called anywhere (itself too); a 2008 action
        only once declared, as before."""
        if self.frame is self.init_frame or not isinstance(self.frame, Body) \
                or self.frame.gives is RULE:
            fail(pos, "Only an action can call an action ('%s')" % name)
        if name in self.signatures:
            index, types, gives = self.signatures[name]
        elif name in self.actions:
            index, types, gives = self.actions[name], [], None
        else:
            error = PipError(pos, "Unknown action '%s'" % name)
            error.hint = syntax_hints.unknown_call_hint(
                name, written(args[0]) if len(args) == 1 else None)
            raise error
        if len(args) != len(types):
            fail(pos, "Action '%s' takes %d argument%s but is given %d"
                 % (name, len(types), '' if len(types) == 1 else 's', len(args)))
        out = []
        for arg, want in zip(args, types):
            x, t, p = self.expr(arg)
            expect(want, t, p)
            out.append(x)
        return index, out, gives

    def expr_Call(self, e):
        index, args, gives = self.call(e.name, e.args, e.pos)
        if gives is None:
            fail(e.pos, "Action '%s' gives no result (declare it 'Action %s(...) gives TYPE')"
                 % (e.name, e.name))
        return c.Call(index, args, gives, e.pos), gives, e.pos

    def stmt_Give(self, s, body):
        if body.gives is None:
            fail(s.pos, "'give' ends an action that gives a result "
                        "(Action NAME(...) gives TYPE { ... })")
        value, t, p = self.expr(s.value)
        expect(body.gives, t, p)
        return c.Give(value, s.pos)

    def decl_ParamActionDecl(self, d):
        if d.name == 'main':
            fail(d.pos, "Action 'main' takes no parameters and gives no result")
        gives = None if d.gives is None else T.NAMED[d.gives]
        body = self.frame = Body(gives)
        scope = {}
        for param in d.params:
            expect_unique(scope, param.name, param.pos, 'Variable')
            scope[param.name] = body.new_local(param.name, T.NAMED[param.type])
        self.scopes.append(scope)
        try:
            stmts = self.block(d.body, body)
        finally:
            self.scopes.pop()
            self.frame = self.init_frame
        if body.skips:
            name = min(body.skips)
            fail(body.skips[name], "Can't find label '%s'" % name)
        if gives is not None and not ends_with_give(stmts):
            fail(d.pos, "Action '%s' can end without a result: end it with 'give VALUE.' "
                        "(or an if/else whose every branch does)" % d.name)
        expect_unique(self.actions, d.name, d.pos, 'Action')
        self.actions[d.name] = len(self.program.actions)
        self.program.actions.append(c.Action(d.name, body.locals, stmts, d.pos,
                                             list(scope.values()), gives))

    def signature_pass(self, decls):
        """Extension: the actions with parameters, known before any body is
        checked, so that they may call themselves and each other."""
        index = 0
        for d in decls:
            if isinstance(d, ast.ParamActionDecl) and d.name not in self.signatures:
                types = [T.NAMED[param.type] for param in d.params]
                gives = None if d.gives is None else T.NAMED[d.gives]
                self.signatures[d.name] = (index, types, gives)
            index += isinstance(d, (ast.ActionDecl, ast.ParamActionDecl))


def ends_with_give(stmts):
    """Whether a block cannot end without `give` (its last statement gives, or
    is an if/else every branch of which does)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, c.Give):
        return True
    return (isinstance(last, c.If) and last.branches[-1][0] is None
            and all(ends_with_give(block) for _, block in last.branches))
