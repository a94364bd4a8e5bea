"""The parser's LALR table made to act as ocamlyacc's."""


def default_reductions(table):
    """Give states ocamlyacc's default reductions, which SLY's are a subset of.

    Like byacc, ocamlyacc reduces without looking at the next token in any
    state whose only actions (besides precedence-made errors) reduce by one
    rule.  That overrides `%nonassoc` there: the original accepts
    `1..2..3~C`, and so must we.
    """
    for state, actions in table.lr_action.items():
        moves = {a for a in actions.values() if a is not None}
        if len(moves) == 1 and min(moves) < 0:
            table.defaulted_states[state] = moves.pop()
