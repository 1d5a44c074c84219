package flow

import (
	"go/constant"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// IntConst returns the value of an integer constant, looking through conversions.
func IntConst(v ssa.Value) (int64, bool) {
	v = Unwrap(v)
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Value)
}

// IntConsts returns the constants an integer can hold, when it holds nothing else: a
// constant, a phi of such values (n := 3; if first { n++ }), or a sum, difference or product of
// them. Nil otherwise.
// With stores, a package variable that holds one constant (see Stores.Constant) is that
// constant.
func IntConsts(v ssa.Value, stores *Stores) []int64 { return intConsts(v, stores, 0) }

func intConsts(v ssa.Value, stores *Stores, depth int) []int64 {
	if depth > 4 {
		return nil
	}
	v = Unwrap(v)
	if c, ok := stores.Constant(v); ok {
		v = c
	}
	if k, ok := IntConst(v); ok {
		return []int64{k}
	}
	var out []int64
	add := func(k int64) bool {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
		return len(out) <= 8
	}
	switch x := v.(type) {
	case *ssa.Phi:
		for _, e := range x.Edges {
			ks := intConsts(e, stores, depth+1)
			if ks == nil {
				return nil
			}
			for _, k := range ks {
				if !add(k) {
					return nil
				}
			}
		}
	case *ssa.BinOp:
		xs, ys := intConsts(x.X, stores, depth+1), intConsts(x.Y, stores, depth+1)
		if xs == nil || ys == nil {
			return nil
		}
		for _, a := range xs {
			for _, b := range ys {
				k, ok := arith(x.Op, a, b)
				if !ok || !add(k) {
					return nil
				}
			}
		}
	}
	return out
}

// EvalInt computes an integer expression of constants and of the values env gives (a counter,
// a limit), through conversions, sums, differences and products.
func EvalInt(v ssa.Value, env map[ssa.Value]int64) (int64, bool) {
	v = Unwrap(v)
	if k, ok := env[v]; ok {
		return k, true
	}
	if k, ok := IntConst(v); ok {
		return k, true
	}
	if x, ok := v.(*ssa.BinOp); ok {
		a, okA := EvalInt(x.X, env)
		b, okB := EvalInt(x.Y, env)
		if okA && okB {
			return arith(x.Op, a, b)
		}
	}
	return 0, false
}

func arith(op token.Token, a, b int64) (int64, bool) {
	switch op {
	case token.ADD:
		return a + b, true
	case token.SUB:
		return a - b, true
	case token.MUL:
		return a * b, true
	}
	return 0, false
}

// FloatConst returns the value of a numeric constant, looking through conversions.
func FloatConst(v ssa.Value) (float64, bool) {
	v = Unwrap(v)
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil {
		return 0, false
	}
	switch c.Value.Kind() {
	case constant.Int, constant.Float:
		f, _ := constant.Float64Val(constant.ToFloat(c.Value))
		return f, true
	}
	return 0, false
}

// BoolConst returns the value of a boolean constant, looking through conversions.
func BoolConst(v ssa.Value) (bool, bool) {
	c, ok := Unwrap(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(c.Value), true
}

// StringConst returns the value of a string constant, looking through conversions.
func StringConst(v ssa.Value) (string, bool) {
	v = Unwrap(v)
	if call, ok := v.(*ssa.Call); ok && len(call.Call.Args) == 1 {
		// strings.ToUpper("Post"), as generated API clients spell a method: the same text.
		if fn, ok := call.Call.Value.(*ssa.Function); ok && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "strings" {
			if fold, known := stringFolds[fn.Name()]; known {
				if s, ok := StringConst(call.Call.Args[0]); ok {
					return fold(s), true
				}
			}
		}
	}
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Value), true
}

// stringFolds are the functions of package strings whose result on a constant is known here.
var stringFolds = map[string]func(string) string{
	"ToUpper": strings.ToUpper, "ToLower": strings.ToLower, "TrimSpace": strings.TrimSpace,
}

// Unwrap looks through conversions, interface boxing and type changes.
func Unwrap(v ssa.Value) ssa.Value {
	for range 16 {
		switch x := v.(type) {
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		default:
			return v
		}
	}
	return v
}

// IsNil reports whether v is the constant nil.
func IsNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// IsZero reports whether v is, looking through conversions, a zero constant: 0, 0.0, nil, "".
func IsZero(v ssa.Value) bool {
	c, ok := Unwrap(v).(*ssa.Const)
	if !ok {
		return false
	}
	if c.Value == nil {
		return true
	}
	switch c.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(c.Value) == 0
	case constant.String:
		return constant.StringVal(c.Value) == ""
	}
	return false
}

// InitValue returns the one value the package's initialiser stores into the package variable
// g (var ErrX = errors.New("..."), var re = regexp.MustCompile(...)); nil when it stores none or
// more than one. (A package variable has no referrers: its initialiser is a store in init.)
func InitValue(g *ssa.Global) ssa.Value {
	if g == nil || g.Pkg == nil || g.Pkg.Func("init") == nil {
		return nil
	}
	var found ssa.Value
	for _, b := range g.Pkg.Func("init").Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && st.Addr == g {
				if found != nil {
					return nil
				}
				found = st.Val
			}
		}
	}
	return found
}

// LoadedGlobal returns the package variable whose value v is (a load of it), or nil.
func LoadedGlobal(v ssa.Value) *ssa.Global {
	if ld, ok := Unwrap(v).(*ssa.UnOp); ok && ld.Op == token.MUL {
		g, _ := ld.X.(*ssa.Global)
		return g
	}
	return nil
}
