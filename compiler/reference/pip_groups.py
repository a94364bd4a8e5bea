"""The reference's part for lists of groups (an extension): a new group made
by a deal, `deal ... to new melds.`, and a list's item by its place, `(item K
of L)` -- written again from docs/language.md ("Lists of groups"), apart
from the VM's NEW_GROUP and LIST_ITEM.  A mixin of pip.Interpreter."""
from pipvm.core.errors import PipError
from pipvm.core.runtime import Area


class Groups:
    def new_group(self, ref, frame):
        """`new melds`: a new area labeled "LABEL n", n the list's new size,
        with the list's options, added at the list's end before the deal."""
        groups = self.globals[ref.var.slot]
        label = '%s %d' % (self.string(ref.label, frame), len(groups) + 1)
        groups.append(Area(label, [], ref.facedown, ref.squaredup))
        return groups[-1]

    def expr_Item(self, e, frame):
        """`(item K of L)`: L's K-th item, from 1."""
        items = self.expr(e.items, frame)
        k = int(self.expr(e.index, frame))       # (a Number, or a Rank used as one)
        if not 0 < k <= len(items):
            raise PipError(e.pos, 'No item at that place: the list has %d items' % len(items))
        return items[k - 1]
