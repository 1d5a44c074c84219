package retryscope

import (
	"go/token"
	"math"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
)

// Tests of a response's status that the tests above them have decided: after
// `if resp.StatusCode <= 299 { break }`, the test `resp.StatusCode > 299 && resp.StatusCode !=
// 401` cannot be false on its first operand. A way round that only such a side leads to is
// never taken.

// decidedSide returns the successor of ifInstr (0: true, 1: false) that cannot be taken
// because the tests of the same response's status that dominate it, on the sides that lead
// here, leave the status in a range where the test always or never holds; -1 otherwise.
func decidedSide(ifInstr *ssa.If) int {
	cmp, ok := unNot(ifInstr.Cond).(*ssa.BinOp)
	if !ok {
		return -1
	}
	resp, op, n, ok := statusCompare(cmp)
	if !ok {
		return -1
	}
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	for above, side := range flow.TestsAbove(ifInstr.Block()) {
		c, ok := unNot(above.Cond).(*ssa.BinOp)
		if side < 0 || !ok {
			continue
		}
		r, aop, an, ok := statusCompare(c)
		if !ok || r != resp {
			continue
		}
		if (side == 0) != (countNots(above.Cond)%2 == 0) {
			aop = negate(aop) // the side where the comparison does not hold
		}
		lo, hi = narrow(lo, hi, aop, an)
	}
	if lo > hi {
		return -1 // no status reaches it: not this test's to say
	}
	holds, known := decide(op, n, lo, hi)
	if !known {
		return -1
	}
	condTrue := holds != (countNots(ifInstr.Cond)%2 == 1)
	if condTrue {
		return 1
	}
	return 0
}

// negate returns the comparison that holds where op does not.
func negate(op token.Token) token.Token {
	switch op {
	case token.EQL:
		return token.NEQ
	case token.NEQ:
		return token.EQL
	case token.LSS:
		return token.GEQ
	case token.GEQ:
		return token.LSS
	case token.LEQ:
		return token.GTR
	case token.GTR:
		return token.LEQ
	}
	return token.ILLEGAL
}

// narrow returns the range [lo, hi] cut to the values v for which `v op n` holds (a != that
// does not cut an end is kept as it was).
func narrow(lo, hi int64, op token.Token, n int64) (int64, int64) {
	switch op {
	case token.EQL:
		return max(lo, n), min(hi, n)
	case token.NEQ:
		if n == lo && lo < math.MaxInt64 {
			lo++
		}
		if n == hi && hi > math.MinInt64 {
			hi--
		}
	case token.LSS:
		if n > math.MinInt64 {
			hi = min(hi, n-1)
		}
	case token.LEQ:
		hi = min(hi, n)
	case token.GTR:
		if n < math.MaxInt64 {
			lo = max(lo, n+1)
		}
	case token.GEQ:
		lo = max(lo, n)
	}
	return lo, hi
}

// decide says whether `v op n` holds for every v in [lo, hi] (holds) or for none (!holds);
// known is false when it holds for some.
func decide(op token.Token, n, lo, hi int64) (holds, known bool) {
	switch op {
	case token.EQL:
		if lo == n && hi == n {
			return true, true
		}
		return false, n < lo || n > hi
	case token.NEQ:
		h, k := decide(token.EQL, n, lo, hi)
		return !h, k
	case token.LSS:
		return hi < n, hi < n || lo >= n
	case token.LEQ:
		return hi <= n, hi <= n || lo > n
	case token.GTR:
		return lo > n, lo > n || hi <= n
	case token.GEQ:
		return lo >= n, lo >= n || hi < n
	}
	return false, false
}

// afterFailureStatus reports whether block b, in loop l, lies on the side of a test in l that
// finds a response's status a server failure or a rate limit (== 503, >= 500, == 429): what
// follows is a wait after a failed answer, not after a success.
func afterFailureStatus(b *ssa.BasicBlock, l *loops.Loop) bool {
	for ifInstr, side := range flow.TestsAbove(b) {
		if side < 0 || !l.Contains(ifInstr.Block()) {
			continue
		}
		cmp, ok := unNot(ifInstr.Cond).(*ssa.BinOp)
		if !ok {
			continue
		}
		_, op, n, ok := statusCompare(cmp)
		if !ok {
			continue
		}
		if (side == 0) != (countNots(ifInstr.Cond)%2 == 0) {
			op = negate(op) // the comparison that holds on b's side
		}
		lo, hi := narrow(math.MinInt64, math.MaxInt64, op, n)
		if lo >= 500 && hi <= 599 || lo == 429 && hi == 429 || lo >= 500 && hi == math.MaxInt64 {
			return true
		}
	}
	return false
}
