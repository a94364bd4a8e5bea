"""The Pip grammar (SLY), a rule-for-rule port of the original ocamlyacc grammar.

Rule order and the precedence table are the original's, so conflicts resolve
the same way (shift over reduce; the earlier rule in a reduce/reduce
conflict).  Each alternative is its own method so that SLY ranks them in the
order written.  `pos n` in the original is the start of the n-th symbol.
"""
from sly import Parser

from . import ast, lalr, syntax_hints, tables
from ..errors import PipSyntaxError
from .lexer import PipLexer, Positions
from . import tokens as token_stream
from .tokens import GIVES, Quiet
from .extension_words import (AGGREGATES, OWNERS, PASS, SETS, AreaListWord,  # noqa: F401
                              ExtensionWords)


LOOP_EXITS = ('break', 'continue')
NAME_THEN_DOT = ('expected "=" (or "+=", "-=", "*=", "/=") to give it a value, '
                 'or "()" to call an action')


class PipParser(ExtensionWords, Parser):
    tokens = PipLexer.tokens | token_stream.RETAGGED   # (a name, not a word: SLY's class body)
    log = Quiet()
    track_positions = False     # positions travel in the token values
    # the LALR tables as kept in generated_tables.py, unless the grammar changed (tables.py)
    _Parser__build_lrtables = classmethod(tables.load_or_build)

    precedence = (
        ('left', 'OR'),
        ('left', 'AND'),
        ('nonassoc', 'NOT'),
        ('nonassoc', 'EQ', 'NOTEQ', 'LT', 'LTEQ', 'GT', 'GTEQ', 'IN'),
        ('left', 'PLUS', 'MINUS'),
        ('left', 'TIMES', 'DIVIDE'),
        ('left', 'COMMA'),
        ('nonassoc', 'DOTDOT'),
        ('left', 'ARROW'),
    )

    # --- the game -----------------------------------------------------------

    @_('gameheading decls')
    def game(self, p):
        name, count, start = p.gameheading
        return ast.Game(name, count, p.decls, start)

    @_('GAME STRINGLIT REQUIRES count DOT')
    def gameheading(self, p):
        return p.STRINGLIT.value, p.count, p.GAME.pos

    @_('playernum PLAYERS')
    def count(self, p):
        return ast.PlayerCount(p.playernum[0], p.playernum[1])

    @_('playernum TEAMS OF NUMLIT')
    def count(self, p):
        return ast.TeamCount(p.playernum[0], p.NUMLIT.value, p.playernum[1])

    @_('NUMLIT TO NUMLIT')
    def playernum(self, p):
        low, high = p.NUMLIT0.value, p.NUMLIT1.value
        step = 1 if high >= low else -1
        return list(range(low, high + step, step)), p.NUMLIT0.pos

    @_('playernumlist')
    def playernum(self, p):
        return p.playernumlist

    @_('NUMLIT')
    def playernumlist(self, p):
        return [p.NUMLIT.value], p.NUMLIT.pos

    @_('playernumlist OR NUMLIT')
    def playernumlist(self, p):
        p.playernumlist[0].append(p.NUMLIT.value)
        return p.playernumlist

    # --- declarations -------------------------------------------------------

    @_('')
    def decls(self, p):
        return []

    @_('decls decl')
    def decls(self, p):
        p.decls.append(p.decl)
        return p.decls

    @_('vardecl', 'areadecl', 'actiondecl', 'ruledecl', 'orderdecl', 'owndecl', 'paramactiondecl')
    def decl(self, p):
        return p[0]

    @_('ACES ID DOT')                       # extension: `Aces high.` (tokens.py)
    def decl(self, p):
        return ast.RankOrder(p.ID.value == 'high', p.ACES.pos)

    @_('dtype ID DOT')
    def vardecl(self, p):
        return ast.VarDecl(p.dtype.value, p.ID.value, None, p.dtype.pos)

    @_('dtype ID ASSIGN expr DOT')
    def vardecl(self, p):
        return ast.VarDecl(p.dtype.value, p.ID.value, p.expr, p.dtype.pos)

    # Extension: a value for each player (or team), `Number bid for each
    # player = 0.`; `each`, `player` and `team` are words only here.
    @_('dtype ID FOR ID ID DOT')
    def owndecl(self, p):
        return self.own_decl(p, None)

    @_('dtype ID FOR ID ID ASSIGN expr DOT')
    def owndecl(self, p):
        return self.own_decl(p, p.expr)

    @_('AREA ID LABELED STRINGLIT DOT')
    def areadecl(self, p):
        return ast.AreaDecl(p.ID.value, p.STRINGLIT.value, [], p.AREA.pos)

    @_('AREA ID LABELED STRINGLIT IS areaopts DOT')
    def areadecl(self, p):
        return ast.AreaDecl(p.ID.value, p.STRINGLIT.value, p.areaopts, p.AREA.pos)

    # Extension: a list of areas in one declaration, `Area cols[7] labeled "Column".`,
    # or a list of groups, `Area melds[] labeled "Meld".` (groups.py).
    @_('AREA ID LSQUARE NUMLIT RSQUARE LABELED STRINGLIT DOT',
       'AREA ID LSQUARE NUMLIT RSQUARE LABELED STRINGLIT IS areaopts DOT',
       'AREA ID LSQUARE RSQUARE LABELED STRINGLIT DOT',
       'AREA ID LSQUARE RSQUARE LABELED STRINGLIT IS areaopts DOT')
    def areadecl(self, p):
        count = p[3].value if type(p[3].value) is int else None     # (None: `[]`)
        opts = p[len(p) - 2] if type(p[len(p) - 2]) is list else []
        return ast.AreaFamily(p.ID.value, count, p.STRINGLIT.value, opts, p.AREA.pos)

    @_('areaopt')
    def areaopts(self, p):
        return [p.areaopt]

    @_('areaopts COMMA areaopt')
    def areaopts(self, p):
        p.areaopts.append(p.areaopt)
        return p.areaopts

    @_('FACEDOWN', 'FACEUP', 'SQUAREDUP', 'SPREADOUT')
    def areaopt(self, p):
        return p[0].value, p[0].pos

    @_('ACTION ID block')
    def actiondecl(self, p):
        return ast.ActionDecl(p.ID.value, p.block, p.ACTION.pos)

    # Extension: an action with parameters, and a result (`gives` is a word only here).
    @_('ACTION ID LPAREN paramsopt RPAREN block')
    def paramactiondecl(self, p):
        return ast.ParamActionDecl(p.ID.value, p.paramsopt, None, p.block, p.ACTION.pos)

    @_('ACTION ID LPAREN paramsopt RPAREN ID dtype block')
    def paramactiondecl(self, p):
        if p.ID1.value != GIVES:
            self.refuse(p.ID1, '"%s"' % p.ID1.value, 'expected "{" (or "gives TYPE")')
        return ast.ParamActionDecl(p.ID0.value, p.paramsopt, p.dtype.value, p.block,
                                   p.ACTION.pos)

    @_('')
    def paramsopt(self, p):
        return []

    @_('params')
    def paramsopt(self, p):
        return p.params

    @_('dtype ID')
    def params(self, p):
        return [ast.Param(p.dtype.value, p.ID.value, p.ID.pos)]

    @_('params COMMA dtype ID')
    def params(self, p):
        p.params.append(ast.Param(p.dtype.value, p.ID.value, p.ID.pos))
        return p.params

    @_('RULE ID LPAREN ID COMMA ID COMMA ID RPAREN ASSIGN expr DOT')
    def ruledecl(self, p):
        return ast.RuleDecl(p.ID0.value, [p.ID1.value, p.ID2.value, p.ID3.value], p.expr, p.RULE.pos)

    # Extension: a rule's own parameters, typed as an action's, after its three.
    @_('RULE ID LPAREN ID COMMA ID COMMA ID COMMA params RPAREN ASSIGN expr DOT')
    def ruledecl(self, p):
        return ast.ParamRuleDecl(p.ID0.value, [p.ID1.value, p.ID2.value, p.ID3.value], p.params,
                                 p.expr, False, p.RULE.pos)

    @_('RULE ID LPAREN ID COMMA ID COMMA ID COMMA params RPAREN FOR ID ASSIGN expr DOT')
    def ruledecl(self, p):
        if p.ID4.value != SETS:
            self.refuse(p.FOR, '"for"', 'expected "=" (or "for sets": a rule over sets of cards)')
        return ast.ParamRuleDecl(p.ID0.value, [p.ID1.value, p.ID2.value, p.ID3.value], p.params,
                                 p.expr, True, p.RULE.pos)

    # Extension: a rule over sets of cards, for `play` of several cards at once.
    @_('RULE ID LPAREN ID COMMA ID COMMA ID RPAREN FOR ID ASSIGN expr DOT')
    def ruledecl(self, p):
        if p.ID4.value != SETS:           # what a 2008 parser says of `) for`
            self.refuse(p.FOR, '"for"', 'expected "=" (or "for sets": a rule over sets of cards)')
        return ast.SetRuleDecl(p.ID0.value, [p.ID1.value, p.ID2.value, p.ID3.value], p.expr,
                               p.RULE.pos)

    @_('ORDERING ID LPAREN ID RPAREN ASSIGN expr DOT')
    def orderdecl(self, p):
        return ast.OrderingDecl(p.ID0.value, p.ID1.value, p.expr, p.ORDERING.pos)

    # --- statements ---------------------------------------------------------

    @_('LCURLY stmts RCURLY')
    def block(self, p):
        return p.stmts

    @_('')
    def stmts(self, p):
        return []

    @_('stmts stmt')
    def stmts(self, p):
        p.stmts.append(p.stmt)
        return p.stmts

    @_('askstmt', 'assignstmt', 'compoundstmt', 'dealstmt', 'foreverstmt', 'forstmt',
       'ifstmt', 'invokestmt', 'labelstmt', 'letstmt', 'messagestmt', 'orderstmt',
       'playstmt', 'rotatestmt', 'shufflestmt', 'skipstmt', 'winnerstmt', 'loopexitstmt',
       'givestmt')
    def stmt(self, p):
        return p[0]

    @_('ASK ref questionblock')
    def askstmt(self, p):
        return ast.Ask(p.ref, p.questionblock, p.ASK.pos)

    @_('LCURLY questions RCURLY')
    def questionblock(self, p):
        return p.questions

    @_('question')
    def questions(self, p):
        return [p.question]

    @_('questions question')
    def questions(self, p):
        p.questions.append(p.question)
        return p.questions

    @_('STRINGLIT block')
    def question(self, p):
        return ast.Question(p.STRINGLIT.value, None, p.block, p.STRINGLIT.pos)

    @_('STRINGLIT IF expr block')
    def question(self, p):
        return ast.Question(p.STRINGLIT.value, p.expr, p.block, p.STRINGLIT.pos)

    # Extension: options from a list, one per item, the item bound in its
    # branch (and in its text and condition).
    @_('listquestion')
    def question(self, p):
        return p.listquestion

    @_('FOR ID IN expr STRINGLIT block')
    def listquestion(self, p):
        return ast.ListQuestion(p.ID.value, p.expr, p.STRINGLIT.value, None, p.block, p.FOR.pos)

    @_('FOR ID IN expr STRINGLIT IF expr block')
    def listquestion(self, p):
        return ast.ListQuestion(p.ID.value, p.expr0, p.STRINGLIT.value, p.expr1, p.block,
                                p.FOR.pos)

    @_('ref ASSIGN expr DOT')
    def assignstmt(self, p):
        return ast.Assign(p.ref, p.expr, ast.ref_start(p.ref))

    @_('ref PLUSEQ expr DOT', 'ref MINUSEQ expr DOT', 'ref TIMESEQ expr DOT', 'ref DIVIDEEQ expr DOT')
    def compoundstmt(self, p):
        return ast.Compound(p.ref, p[1].value[0], p.expr, ast.ref_start(p.ref))

    @_('DEAL ALL FROM ref TO ref DOT')
    def dealstmt(self, p):
        return ast.Deal(None, p.ref0, p.ref1, p.DEAL.pos)

    @_('DEAL expr FROM ref TO ref DOT')
    def dealstmt(self, p):
        return ast.Deal(p.expr, p.ref0, p.ref1, p.DEAL.pos)

    # Extension: `deal ... to new melds.`, to a new group (`new`: a word only here).
    @_('DEAL ALL FROM ref TO ID ref DOT', 'DEAL expr FROM ref TO ID ref DOT')
    def dealstmt(self, p):
        return self.new_group_deal(p)

    @_('FOREVER block')
    def foreverstmt(self, p):
        return ast.Forever(p.block, p.FOREVER.pos)

    @_('FOR ID IN expr block')
    def forstmt(self, p):
        return ast.For(p.ID.value, p.expr, None, p.block, p.FOR.pos)

    @_('FOR ID IN expr STARTING AT expr block')
    def forstmt(self, p):
        return ast.For(p.ID.value, p.expr0, p.expr1, p.block, p.FOR.pos)

    @_('IF expr block elseifs elseopt')
    def ifstmt(self, p):
        return ast.If([(p.expr, p.block)] + p.elseifs + p.elseopt, p.IF.pos)

    @_('')
    def elseifs(self, p):
        return []

    @_('elseifs ELSEIF expr block')
    def elseifs(self, p):
        p.elseifs.append((p.expr, p.block))
        return p.elseifs

    @_('')
    def elseopt(self, p):
        return []

    @_('ELSE block')
    def elseopt(self, p):
        return [(None, p.block)]

    @_('ID LPAREN RPAREN DOT')
    def invokestmt(self, p):
        return ast.Invoke(p.ID.value, p.ID.pos)

    # Extension: a call with arguments, separated by ";" as a list's items
    # are (a comma already joins ranks and suits: `A, K~S`).
    @_('ID LPAREN args RPAREN DOT')
    def invokestmt(self, p):
        return ast.Invoke(p.ID.value, p.ID.pos, p.args)

    @_('GIVE expr DOT')
    def givestmt(self, p):
        return ast.Give(p.expr, p.GIVE.pos)

    @_('expr')
    def args(self, p):
        return [p.expr]

    @_('args SEMI expr')
    def args(self, p):
        p.args.append(p.expr)
        return p.args

    @_('LABEL ID DOT')
    def labelstmt(self, p):
        return ast.Label(p.ID.value, p.LABEL.pos)

    @_('LET ID BE expr DOT')
    def letstmt(self, p):
        return ast.Let(p.ID.value, p.expr, p.LET.pos)

    @_('MESSAGE expr DOT')
    def messagestmt(self, p):
        return ast.Message(None, p.expr, p.MESSAGE.pos)

    @_('MESSAGE ref expr DOT')
    def messagestmt(self, p):
        return ast.Message(p.ref, p.expr, p.MESSAGE.pos)

    @_('ORDER ref BY ID DOT')
    def orderstmt(self, p):
        return ast.Order(p.ref, p.ID.value, p.ORDER.pos)

    @_('PLAY rulename FROM ref TO ref DOT')
    def playstmt(self, p):
        return ast.Play(p.rulename[0], p.ref0, p.ref1, p.PLAY.pos, p.rulename[1])

    @_('ID')
    def rulename(self, p):
        return p.ID.value, None

    @_('CALLNAME LPAREN args RPAREN')       # extension: a rule's arguments
    def rulename(self, p):
        return p.CALLNAME.value, p.args

    # Extension: several cards at once, or a pass (`pass` is a word only here).
    @_('PLAY rulename FROM ref TO ref OR ID DOT')
    def playstmt(self, p):
        self.passing(p)
        return ast.PlayOrPass(p.rulename[0], p.ref0, p.ref1, [], p.PLAY.pos, None, p.rulename[1])

    @_('PLAY rulename FROM ref TO ref OR ID block')
    def playstmt(self, p):
        self.passing(p)
        return ast.PlayOrPass(p.rulename[0], p.ref0, p.ref1, p.block, p.PLAY.pos, None,
                              p.rulename[1])

    # Extension: the pass labelled in the author's words, `or "Take"`.
    @_('PLAY rulename FROM ref TO ref OR STRINGLIT DOT')
    def playstmt(self, p):
        return ast.PlayOrPass(p.rulename[0], p.ref0, p.ref1, [], p.PLAY.pos, p.STRINGLIT.value,
                              p.rulename[1])

    @_('PLAY rulename FROM ref TO ref OR STRINGLIT block')
    def playstmt(self, p):
        return ast.PlayOrPass(p.rulename[0], p.ref0, p.ref1, p.block, p.PLAY.pos,
                              p.STRINGLIT.value, p.rulename[1])

    @_('ROTATE ref DOT')
    def rotatestmt(self, p):
        return ast.Rotate(p.ref, p.ROTATE.pos)

    @_('SHUFFLE ref DOT')
    def shufflestmt(self, p):
        return ast.Shuffle(p.ref, p.SHUFFLE.pos)

    @_('SKIP TO ID DOT')
    def skipstmt(self, p):
        return ast.Skip(p.ID.value, p.SKIP.pos)

    # Extension: `break.` and `continue.` are words only here, so 2008
    # programs may still name variables `break` or `continue`.
    @_('ID DOT')
    def loopexitstmt(self, p):
        if p.ID.value not in LOOP_EXITS:       # what a 2008 parser says of `x.`
            self.refuse(p.DOT, '"."', NAME_THEN_DOT)
        return ast.LoopExit(p.ID.value, p.ID.pos)

    @_('WINNER ref DOT', 'ENDWORD ref DOT')    # extension: `loser p.`, `out p.` (tokens.py)
    def winnerstmt(self, p):
        word, pos = p[0].value, p[0].pos
        return ast.Winner(p.ref, pos) if word == 'winner' else ast.Ending(word, p.ref, pos)

    # --- declarable types ---------------------------------------------------

    @_('BOOLEAN', 'CARD', 'CARDLIST', 'DECK', 'NUMBER', 'PLAYER', 'PLAYERLIST',
       'RANK', 'RANKLIST', 'STRING', 'SUIT', 'SUITLIST', 'TEAM', 'TEAMLIST',
       'AREA')     # (`Area`: a parameter's type; a declaration `Area x` is an area's)
    def dtype(self, p):
        return p[0]

    @_('AREA LSQUARE RSQUARE')      # extension: `Area[]`, an AreaList
    def dtype(self, p):
        return AreaListWord('AreaList', p.AREA.pos)

    # --- expressions --------------------------------------------------------

    @_('LPAREN expr RPAREN')
    def expr(self, p):
        return p.expr

    @_('expr PLUS expr')
    def expr(self, p):
        return ast.Binary(p.expr0, '+', p.expr1, p.PLUS.pos)

    @_('expr MINUS expr')
    def expr(self, p):
        return ast.Binary(p.expr0, '-', p.expr1, p.MINUS.pos)

    @_('expr TIMES expr')
    def expr(self, p):
        return ast.Binary(p.expr0, '*', p.expr1, p.TIMES.pos)

    @_('expr DIVIDE expr')
    def expr(self, p):
        return ast.Binary(p.expr0, '/', p.expr1, p.DIVIDE.pos)

    @_('expr EQ expr')
    def expr(self, p):
        return ast.Binary(p.expr0, '==', p.expr1, p.EQ.pos)

    @_('expr NOTEQ expr')
    def expr(self, p):
        return ast.Binary(p.expr0, '!=', p.expr1, p.NOTEQ.pos)

    @_('expr LT expr')
    def expr(self, p):
        return ast.Binary(p.expr0, '<', p.expr1, p.LT.pos)

    @_('expr LTEQ expr')
    def expr(self, p):
        return ast.Binary(p.expr0, '<=', p.expr1, p.LTEQ.pos)

    @_('expr GT expr')
    def expr(self, p):
        return ast.Binary(p.expr0, '>', p.expr1, p.GT.pos)

    @_('expr GTEQ expr')
    def expr(self, p):
        return ast.Binary(p.expr0, '>=', p.expr1, p.GTEQ.pos)

    @_('expr AND expr')
    def expr(self, p):
        return ast.Binary(p.expr0, 'and', p.expr1, p.AND.pos)

    @_('expr OR expr')
    def expr(self, p):
        return ast.Binary(p.expr0, 'or', p.expr1, p.OR.pos)

    @_('NOT expr')
    def expr(self, p):
        return ast.Not(p.expr, p.NOT.pos)

    @_('expr IN expr')
    def expr(self, p):
        return ast.Binary(p.expr0, 'in', p.expr1, p.IN.pos)

    @_('DEFINED ref')
    def expr(self, p):
        return ast.Defined(p.ref, p.DEFINED.pos)

    @_('CANPLAY rulename FROM ref TO ref')
    def expr(self, p):
        return ast.CanPlay(p.rulename[0], p.ref0, p.ref1, p.CANPLAY.pos, p.rulename[1])

    @_('rankexpr TILDE suitexpr')
    def expr(self, p):
        return ast.CardExpr(p.rankexpr, p.suitexpr, p.TILDE.pos)

    @_('PERCENT TILDE suitexpr')
    def expr(self, p):
        return ast.WildRank(p.suitexpr, p.PERCENT.pos, p.TILDE.pos)

    @_('rankexpr TILDE PERCENT')
    def expr(self, p):
        return ast.WildSuit(p.rankexpr, p.TILDE.pos, p.PERCENT.pos)

    @_('PERCENT TILDE PERCENT')
    def expr(self, p):
        return ast.WildCard(p.PERCENT0.pos, p.TILDE.pos, p.PERCENT1.pos)

    @_('list')
    def expr(self, p):
        items, start = p.list
        return ast.ListExpr(items, start)

    @_('ref')
    def expr(self, p):
        return ast.RefExpr(p.ref, ast.ref_start(p.ref))

    @_('lit')
    def expr(self, p):
        return p.lit

    # Extension: aggregates, in parentheses, which say where the condition
    # ends and keep 2008's `message p x.` read as it was.  `count`, `sum`,
    # `max`, `min` and `where` are words only here (`of` and `by` are keywords).
    @_('LPAREN ID ID IN expr ID expr RPAREN')
    def expr(self, p):
        return self.aggregate(p, p.ID2, p.expr1, AGGREGATES['where'])

    @_('LPAREN ID ID IN expr OF expr RPAREN')
    def expr(self, p):
        return self.aggregate(p, p.OF, p.expr1, AGGREGATES['of'])

    @_('LPAREN ID ID IN expr BY ID RPAREN')
    def expr(self, p):
        return self.aggregate(p, p.BY, p.ID2.value, AGGREGATES['by'])

    # Extension: `(item 2 of melds)`; the place a number or a name (`in` stays the aggregates')
    @_('LPAREN ID ref OF expr RPAREN', 'LPAREN ID NUMLIT OF expr RPAREN')
    def expr(self, p):
        return self.item(p)

    # Extension: an action's result.
    @_('CALLNAME LPAREN RPAREN')
    def expr(self, p):
        return ast.Call(p.CALLNAME.value, [], p.CALLNAME.pos)

    @_('CALLNAME LPAREN args RPAREN')
    def expr(self, p):
        return ast.Call(p.CALLNAME.value, p.args, p.CALLNAME.pos)

    @_('rankexpr DOTDOT rankexpr')
    def rankexpr(self, p):
        return ast.RangeExpr(p.rankexpr0, p.rankexpr1, p.DOTDOT.pos)

    @_('rankexpr COMMA rankexpr')
    def rankexpr(self, p):
        return ast.SeqExpr(p.rankexpr0, p.rankexpr1, p.COMMA.pos)

    @_('ref')
    def rankexpr(self, p):
        return ast.RefExpr(p.ref, ast.ref_start(p.ref))

    @_('ranklit')
    def rankexpr(self, p):
        return p.ranklit

    @_('NUMLIT')
    def rankexpr(self, p):
        return ast.NumLit(p.NUMLIT.value, p.NUMLIT.pos)

    @_('suitexpr COMMA suitexpr')
    def suitexpr(self, p):
        return ast.SeqExpr(p.suitexpr0, p.suitexpr1, p.COMMA.pos)

    @_('ref')
    def suitexpr(self, p):
        return ast.RefExpr(p.ref, ast.ref_start(p.ref))

    @_('suitlit')
    def suitexpr(self, p):
        return p.suitlit

    @_('LSQUARE listitemsopt RSQUARE')
    def list(self, p):
        return p.listitemsopt, p.LSQUARE.pos

    @_('')
    def listitemsopt(self, p):
        return []

    @_('listitems')
    def listitemsopt(self, p):
        return p.listitems

    @_('expr')
    def listitems(self, p):
        return [p.expr]

    @_('listitems SEMI expr')
    def listitems(self, p):
        p.listitems.append(p.expr)
        return p.listitems

    @_('ID')
    def ref(self, p):
        return ast.Id(p.ID.value, p.ID.pos)

    @_('ref ARROW ID')
    def ref(self, p):
        start = ast.ref_start(p.ref)
        return ast.Prop(ast.RefExpr(p.ref, start), p.ID.value, p.ID.pos, start)

    @_('LPAREN expr RPAREN ARROW ID')
    def ref(self, p):
        return ast.Prop(p.expr, p.ID.value, p.ID.pos, p.LPAREN.pos)

    @_('builtin')
    def ref(self, p):
        return p.builtin

    @_('PLAYERS')
    def builtin(self, p):
        return ast.Players(p.PLAYERS.pos)

    @_('TEAMS')
    def builtin(self, p):
        return ast.Teams(p.TEAMS.pos)

    @_('STANDARD')
    def builtin(self, p):
        return ast.Standard(p.STANDARD.pos)

    # --- literals -----------------------------------------------------------

    @_('ranklit', 'suitlit')
    def lit(self, p):
        return p[0]

    @_('STRINGLIT')
    def lit(self, p):
        return ast.StringLit(p.STRINGLIT.value, p.STRINGLIT.pos)

    @_('NUMLIT')
    def lit(self, p):
        return ast.NumLit(p.NUMLIT.value, p.NUMLIT.pos)

    @_('TRUE')
    def lit(self, p):
        return ast.BoolLit(True, p.TRUE.pos)

    @_('FALSE')
    def lit(self, p):
        return ast.BoolLit(False, p.FALSE.pos)

    @_('ACE', 'KING', 'QUEEN', 'JACK')
    def ranklit(self, p):
        return ast.RankLit({'A': 1, 'K': 13, 'Q': 12, 'J': 11}[p[0].value], p[0].pos)

    @_('CLUBS', 'HEARTS', 'SPADES', 'DIAMONDS')
    def suitlit(self, p):
        return ast.SuitLit(p[0].value, p[0].pos)

    def error(self, tok):
        end = len(self.text) if tok is None else tok.value.end
        pos, found, advice = syntax_hints.explain(type(self), self.text, self.statestack,
                                                  self.symstack, tok, self.previous)
        raise PipSyntaxError(Positions(self.text).line_at_end(end), tok and tok.value, pos,
                             found, advice)


lalr.default_reductions(PipParser._lrtable)


def parse(text):
    """Parse Pip source (a str, one character per byte) into an ast.Game."""
    parser = PipParser()
    parser.text = text
    parser.previous = None          # the token before the parser's look-ahead

    def seen(tok):                  # the token the parser has just taken
        parser.previous = tok
    return parser.parse(token_stream.stream(text, seen))
