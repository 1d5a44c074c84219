// Package syntax finds the syntax that SSA instructions and model results come from: a call
// expression by the position of its opening parenthesis, the statement around a node, the file
// holding a position.
package syntax

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// Calls indexes a package's call expressions by the position of their opening parenthesis,
// which is the position of the SSA call instructions made from them.
type Calls struct {
	insp *inspector.Inspector
	byPo map[token.Pos]inspector.Cursor
}

// NewCalls returns an index over insp's files, built on first use.
func NewCalls(insp *inspector.Inspector) *Calls { return &Calls{insp: insp} }

// At returns the cursor of the call expression whose Lparen is lparen.
func (c *Calls) At(lparen token.Pos) (inspector.Cursor, bool) {
	if c.byPo == nil {
		c.byPo = make(map[token.Pos]inspector.Cursor)
		for cur := range c.insp.Root().Preorder((*ast.CallExpr)(nil)) {
			c.byPo[cur.Node().(*ast.CallExpr).Lparen] = cur
		}
	}
	cur, ok := c.byPo[lparen]
	return cur, ok
}

// EnclosingStmt returns the innermost statement around cur that stands in a statement list
// (a block or a case clause), where another statement can be inserted before it.
func EnclosingStmt(cur inspector.Cursor) (inspector.Cursor, bool) {
	for c := range cur.Enclosing() {
		if _, ok := c.Node().(ast.Stmt); !ok {
			continue
		}
		switch c.Parent().Node().(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return c, true
		}
	}
	return inspector.Cursor{}, false
}

// File returns the file of the pass that holds pos, or nil.
func File(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}
