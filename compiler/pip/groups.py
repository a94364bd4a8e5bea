"""The checker's part for areas as values (an extension): a list of areas
declared at once, `Area cols[7] labeled "Column" is faceup.`, a list of
groups that grows as cards are dealt to `new melds`, a list's item by its
place, `(item 2 of melds)`, and `Area` and `Area[]` as a parameter's type.
A mixin of the Checker, as calls.py is.

A group is an area made while the game runs, always in the list declared
for it, so what a seat sees of its cards is what its declaration's options
say, as for any area (the views take the game's areas from its globals)."""
from compiler.ir import checked as c
from compiler.ir import types as T
from . import extensions
from .checks import area_options, expect, expect_list, fail
from .printer import ref as ref_text

MAX_FAMILY = 52        # more areas than cards would be a slip


class Groups:
    def decl_AreaFamily(self, d):
        """An AreaList global of d.count new areas, labeled "LABEL 1" ... "LABEL n",
        each with the options given (so each is shown or hidden as one area is);
        a list of groups (d.count None) is empty until `new` adds one so."""
        if d.count is not None and not 1 <= d.count <= MAX_FAMILY:
            fail(d.pos, 'A list of areas has 1 to %d areas, not %d' % (MAX_FAMILY, d.count))
        label = self.string(d.label)
        facedown, squaredup = area_options(d.options)
        self.new_global(d.name, T.ListOf(T.AREA),
                        c.AreaInit(None, label, facedown, squaredup, d.pos, d.count or 0,
                                   grows=d.count is None))

    def new_group(self, r):
        """(checked NewGroup, Area): `new melds`, a deal's destination."""
        target, _ = self.ref(r.groups)
        var = target.var if isinstance(target, c.VarRef) else None
        init = self.program.globals[var.slot] if isinstance(var, c.Global) else None
        if not (isinstance(init, c.AreaInit) and init.grows):
            fail(target.pos, "A new group goes in a list of groups declared as "
                 "'Area NAME[] labeled ...', not in '%s'" % ref_text(r.groups))
        return c.NewGroup(var, init.label, init.facedown, init.squaredup, T.AREA, r.pos), T.AREA

    def expr_Item(self, e):
        """`(item K of L)`: L's K-th item, from 1 (out of range: a run-time error)."""
        items, t, p = self.expr(e.items)
        elem = expect_list(t, p)
        if elem == T.EMPTY:
            fail(p, "An empty list has no items")
        index, ti, pi = self.expr(e.index)
        expect(T.NUMBER, ti, pi)
        return c.Item(index, items, elem, e.pos), elem, e.pos

    def no_list_of_areas(self, d, t):
        """A global list of areas is declared only as one (the views show each
        declared area once)."""
        if t == T.ListOf(T.AREA):
            fail(d.pos, "A list of areas is declared as 'Area %s[N] labeled ...' "
                 "or 'Area %s[] labeled ...'" % (d.name, d.name))

    def area_in_string(self, pos):
        """An area in a string shows its label (`{s}` for "Stack 3"); 2008 Pip
        cannot convert it."""
        if self.strict:
            extensions.refused(pos, "an area in a string ('{...}')")


def fixed_areas(target):
    """A list of areas declared at once keeps its areas in their order: the
    table shows them so (the views take the game's areas from its globals)."""
    if isinstance(target, c.VarRef) and isinstance(target.var, c.Global) \
            and target.var.type == T.ListOf(T.AREA):
        fail(target.pos, "A list of areas declared at once can't be changed ('%s')"
             % target.var.name)
