package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// loopCandidates are the loop statements and labels of one function's syntax.
type loopCandidates struct {
	loops  []ast.Stmt // *ast.ForStmt, *ast.RangeStmt over an integer
	labels map[string]*ast.LabeledStmt
	gotos  map[string][]*ast.BranchStmt
	parent map[ast.Stmt]*ast.LabeledStmt // label of a labelled loop
}

// loopNodes collects the loops, labels and gotos of a function body, not descending into
// nested function literals (they are functions of their own).
func loopNodes(pass *analysis.Pass, syntax ast.Node) *loopCandidates {
	c := &loopCandidates{
		labels: make(map[string]*ast.LabeledStmt),
		gotos:  make(map[string][]*ast.BranchStmt),
		parent: make(map[ast.Stmt]*ast.LabeledStmt),
	}
	var body ast.Node
	switch s := syntax.(type) {
	case *ast.FuncDecl:
		body = s.Body
	case *ast.FuncLit:
		body = s.Body
	}
	if body == nil || reflect.ValueOf(body).IsNil() {
		return c
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			c.loops = append(c.loops, n)
		case *ast.RangeStmt:
			// Ranges over integers, over a ticker's channel (each tick an attempt), over a
			// list of delays (for _, d := range backoffs: an attempt, then the next delay),
			// and over a list or map of targets (for _, peer := range peers: the same request
			// to each, until one answers; see failsOver).
			// Also a range over a channel a function of the package returns: a retry timer's,
			// when it is one (see rangesOverTimer).
			if t := pass.TypesInfo.TypeOf(n.X); t != nil && (typeis.Integer(t) || typeis.TimeChan(t) || delayList(t) || collection(t) || ownChanCall(pass, n.X)) {
				c.loops = append(c.loops, n)
			}
		case *ast.LabeledStmt:
			c.labels[n.Label.Name] = n
			if inner, ok := n.Stmt.(*ast.ForStmt); ok {
				c.parent[inner] = n
			}
			if inner, ok := n.Stmt.(*ast.RangeStmt); ok {
				c.parent[inner] = n
			}
		case *ast.BranchStmt:
			if n.Tok == token.GOTO && n.Label != nil {
				c.gotos[n.Label.Name] = append(c.gotos[n.Label.Name], n)
			}
		}
		return true
	})
	return c
}

// loopSyntax returns the statement that gave rise to natural loop l: a for loop or a range
// over an integer (when the loop's header is one of theirs), or a labelled statement that a
// goto jumps back to. Range loops over collections, channels and functions give nil: they
// iterate.
func (st *state) loopSyntax(fn *ssa.Function, l *loops.Loop, c *loopCandidates, taken map[ast.Node]bool) ast.Node {
	comment := l.Header.Comment
	switch {
	case strings.HasPrefix(comment, "for.") || strings.HasPrefix(comment, "rangeint.") || strings.HasPrefix(comment, "rangechan.") || strings.HasPrefix(comment, "rangeindex."):
	default:
		if ls := c.labels[comment]; ls != nil && len(c.gotos[comment]) > 0 {
			return ls
		}
		return nil
	}
	lo, hi := loopSpan(fn, l)
	if !lo.IsValid() {
		return nil
	}
	var best ast.Stmt
	for _, n := range c.loops {
		if taken[n] || n.Pos() > lo || hi >= n.End() {
			continue
		}
		if best == nil || n.Pos() > best.Pos() {
			best = n
		}
	}
	if _, isRange := best.(*ast.RangeStmt); best == nil || strings.HasPrefix(comment, "rangeindex.") && !isRange {
		return nil // (a range over items inside a for loop is not that for loop)
	}
	return best
}

// loopSpan returns the first and last positions of the instructions of loop l (NoPos when
// none has one).
func loopSpan(fn *ssa.Function, l *loops.Loop) (lo, hi token.Pos) {
	for _, b := range l.Blocks(fn) {
		for _, instr := range b.Instrs {
			p := instr.Pos()
			if _, isPhi := instr.(*ssa.Phi); isPhi || !p.IsValid() {
				// A phi's position is its variable's declaration, maybe before the loop.
				continue
			}
			if !lo.IsValid() || p < lo {
				lo = p
			}
			if p > hi {
				hi = p
			}
		}
	}
	return lo, hi
}

// setLoopSyntax fills in a loop scope's syntax.
func (st *state) setLoopSyntax(s *Scope, node ast.Node, c *loopCandidates) {
	s.Node, s.Body = node, node
	switch n := node.(type) {
	case *ast.ForStmt:
		s.Kind, s.Stmt, s.From, s.To = Loop, n, n.Pos(), n.End()
		if n.Init != nil {
			s.From = n.Init.End()
		}
		if ls := c.parent[n]; ls != nil {
			s.Stmt = ls
		}
	case *ast.RangeStmt:
		s.Kind, s.Stmt, s.From, s.To = Loop, n, n.Body.Pos(), n.End()
		if ls := c.parent[n]; ls != nil {
			s.Stmt = ls
		}
	case *ast.LabeledStmt:
		s.Kind, s.Stmt, s.From, s.To = Goto, n, n.Pos(), n.End()
		for _, g := range c.gotos[n.Label.Name] {
			s.To = max(s.To, g.End())
		}
	}
}

// collection reports whether t is a slice, an array (or a pointer to one) or a map.
func collection(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch t.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map:
		return true
	}
	return false
}

// ownChanCall reports whether x is a call of a function or method of the package being
// analysed that returns a channel.
func ownChanCall(pass *analysis.Pass, x ast.Expr) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() != pass.Pkg {
		return false
	}
	res := fn.Signature().Results()
	if res.Len() != 1 {
		return false
	}
	_, isChan := res.At(0).Type().Underlying().(*types.Chan)
	return isChan
}
