// Package loops finds the natural loops of an SSA function's control-flow graph and answers
// questions about them: which blocks belong, where control can leave, whether it can go round.
package loops

import (
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"golang.org/x/tools/go/ssa"
)

// A Loop is a natural loop of a function's control-flow graph: a header block that dominates
// every block of the loop, and the blocks from which control can return to the header without
// leaving the loop.
type Loop struct {
	Header  *ssa.BasicBlock
	Latches []*ssa.BasicBlock // blocks with an edge back to the header
	in      []bool            // indexed by BasicBlock.Index
	Parent  *Loop             // innermost enclosing loop, if any
}

// Contains reports whether b belongs to the loop.
func (l *Loop) Contains(b *ssa.BasicBlock) bool {
	return b != nil && b.Index < len(l.in) && l.in[b.Index]
}

// EveryRound reports whether every way round the loop passes through b (or passed it before
// the loop): b dominates each latch.
func (l *Loop) EveryRound(b *ssa.BasicBlock) bool {
	if len(l.Latches) == 0 {
		return false
	}
	for _, latch := range l.Latches {
		if !b.Dominates(latch) {
			return false
		}
	}
	return true
}

// Blocks returns the loop's blocks in index order.
func (l *Loop) Blocks(fn *ssa.Function) []*ssa.BasicBlock {
	var bs []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		if l.Contains(b) {
			bs = append(bs, b)
		}
	}
	return bs
}

// Of returns the natural loops of fn, outermost first. Back edges to one header form one
// loop. Functions without bodies have none.
func Of(fn *ssa.Function) []*Loop {
	if len(fn.Blocks) == 0 {
		return nil
	}
	byHeader := make(map[*ssa.BasicBlock]*Loop)
	var loops []*Loop
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			if !s.Dominates(b) {
				continue
			}
			l := byHeader[s]
			if l == nil {
				l = &Loop{Header: s, in: make([]bool, len(fn.Blocks))}
				l.in[s.Index] = true
				byHeader[s] = l
				loops = append(loops, l)
			}
			l.Latches = append(l.Latches, b)
			// Everything that reaches the latch without passing the header.
			stack := []*ssa.BasicBlock{b}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if l.in[x.Index] {
					continue
				}
				l.in[x.Index] = true
				stack = append(stack, x.Preds...)
			}
		}
	}
	// Nesting: the parent of l is the smallest other loop containing l's header.
	for _, l := range loops {
		for _, m := range loops {
			if m != l && m.Contains(l.Header) && (l.Parent == nil || l.Parent.size() > m.size()) {
				l.Parent = m
			}
		}
	}
	// Outermost first: a loop's parent precedes it.
	sorted := make([]*Loop, 0, len(loops))
	seen := make(map[*Loop]bool)
	var add func(l *Loop)
	add = func(l *Loop) {
		if seen[l] {
			return
		}
		seen[l] = true
		if l.Parent != nil {
			add(l.Parent)
		}
		sorted = append(sorted, l)
	}
	for _, l := range loops {
		add(l)
	}
	return sorted
}

func (l *Loop) size() int {
	n := 0
	for _, in := range l.in {
		if in {
			n++
		}
	}
	return n
}

// CanExit reports whether control can leave the loop from b without first returning to the
// header. A block outside the loop has left it already.
func (l *Loop) CanExit(b *ssa.BasicBlock) bool {
	if b == l.Header {
		return false
	}
	return l.search(b, func(x *ssa.BasicBlock) bool { return !l.Contains(x) })
}

// CanRepeat reports whether control can go from b back to the loop's header while staying
// inside the loop.
func (l *Loop) CanRepeat(b *ssa.BasicBlock) bool {
	return l.CanRepeatAvoiding(b, func(Edge) bool { return false })
}

// CanRepeatAvoiding is CanRepeat without taking the edges for which skip holds.
func (l *Loop) CanRepeatAvoiding(b *ssa.BasicBlock, skip func(Edge) bool) bool {
	if !l.Contains(b) {
		return false
	}
	for x := range flow.Forward([]*ssa.BasicBlock{b}, func(from, to *ssa.BasicBlock) bool {
		return from != l.Header && l.Contains(to) && !skip(Edge{from, to})
	}) {
		if x == l.Header {
			return true
		}
	}
	return false
}

// WayRound returns the blocks of the loop that control can reach from b before it comes back
// to the header (b included, the header not): the way round from b.
func (l *Loop) WayRound(b *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	blocks := make(map[*ssa.BasicBlock]bool)
	if !l.Contains(b) || b == l.Header {
		return blocks
	}
	for x := range flow.Forward([]*ssa.BasicBlock{b}, func(from, to *ssa.BasicBlock) bool {
		return l.Contains(to) && to != l.Header
	}) {
		blocks[x] = true
	}
	return blocks
}

// An Edge is a control-flow edge.
type Edge struct{ From, To *ssa.BasicBlock }

// ExitEdges returns the edges that leave the loop and that control can reach from b without
// returning to the header and without taking an edge for which skip holds. When b is outside
// the loop, the edge from -> b is the exit.
func (l *Loop) ExitEdges(from, b *ssa.BasicBlock, skip func(Edge) bool) map[Edge]bool {
	exits := make(map[Edge]bool)
	if !l.Contains(b) {
		exits[Edge{from, b}] = true
		return exits
	}
	seen := make(map[*ssa.BasicBlock]bool)
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] || x == l.Header {
			continue
		}
		seen[x] = true
		for _, s := range x.Succs {
			e := Edge{x, s}
			switch {
			case skip != nil && skip(e):
			case !l.Contains(s):
				exits[e] = true
			default:
				stack = append(stack, s)
			}
		}
	}
	return exits
}

// search walks forward from b, not passing through the header, until found holds.
func (l *Loop) search(b *ssa.BasicBlock, found func(*ssa.BasicBlock) bool) bool {
	for x := range flow.Forward([]*ssa.BasicBlock{b}, func(from, _ *ssa.BasicBlock) bool { return from != l.Header || from == b }) {
		if found(x) {
			return true
		}
	}
	return false
}
