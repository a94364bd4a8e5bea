"""The checker's part for rules with parameters (extension, issue 55):
`Rule covers(p, c, pile, Card attack) = ...`, played as `play covers(x)
from p to table.` (and `canplay covers(x) from ...`).  A rule's own
parameters are hidden globals, `RULE.NAME`: a play stores its arguments
there, then plays as any rule does, so the engines need nothing new.  A
rule or ordering may not give a rule arguments (its evaluation would store
them).  A mixin of checker.Checker."""
from compiler.ir import checked as c
from compiler.ir import types as T

from .checks import RULE, expect, expect_unique, fail


class RuleParams:
    def decl_ParamRuleDecl(self, d):
        extra = {}
        for param in d.extra:
            expect_unique(extra, param.name, param.pos, 'Parameter')
            if param.name in d.params:
                fail(param.pos, 'Duplicate Parameter: %s' % param.name)
            var = c.Global(len(self.program.globals), T.NAMED[param.type],
                           '%s.%s' % (d.name, param.name))
            self.program.globals.append(c.VarInit(var, None, param.pos))
            extra[param.name] = var
        if d.sets:
            self.set_rules.add(len(self.program.rules))
        self.rule_params[d.name] = list(extra.values())
        self.rule_decl(d, (T.PLAYER, T.CARDS if d.sets else T.CARD, T.CARDS), extra)

    def rule_args(self, name, args, pos):
        """[(hidden global, checked argument)] of a play of rule `name`, or
        None for a rule without parameters played without arguments."""
        params = self.rule_params.get(name)
        if args is None and params is None:
            return None
        if params is None:
            fail(pos, "Rule '%s' has no parameters" % name)
        if len(args or ()) != len(params):
            fail(pos, "Rule '%s' takes %d argument%s, not %d" % (
                name, len(params), '' if len(params) == 1 else 's', len(args or ())))
        if self.frame.gives is RULE:
            fail(pos, "A rule or ordering can't give a rule its arguments")
        binds = []
        for var, arg in zip(params, args):
            x, t, p = self.expr(arg)
            expect(var.type, t, p)
            binds.append((var, x))
        return binds
