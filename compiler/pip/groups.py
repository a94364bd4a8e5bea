"""The checker's part for areas as values (an extension): a list of areas
declared at once, `Area cols[7] labeled "Column" is faceup.`, and `Area` as
a parameter's type.  A mixin of the Checker, as calls.py is."""
from compiler.ir import checked as c
from compiler.ir import types as T
from . import extensions
from .checks import area_options, fail

MAX_FAMILY = 52        # more areas than cards would be a slip


class Groups:
    def decl_AreaFamily(self, d):
        """An AreaList global of d.count new areas, labeled "LABEL 1" ... "LABEL n",
        each with the options given (so each is shown or hidden as one area is)."""
        if not 1 <= d.count <= MAX_FAMILY:
            fail(d.pos, 'A list of areas has 1 to %d areas, not %d' % (MAX_FAMILY, d.count))
        label = self.string(d.label)
        facedown, squaredup = area_options(d.options)
        self.new_global(d.name, T.ListOf(T.AREA),
                        c.AreaInit(None, label, facedown, squaredup, d.pos, d.count))


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
