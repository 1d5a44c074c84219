package flow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Stores indexes the values that a package's functions store into struct fields (by field,
// whatever the struct value) and package variables: a flow-insensitive view of what a field
// or variable may hold when it is loaded elsewhere.
type Stores struct {
	Fields  map[*types.Var][]ssa.Value
	Globals map[*ssa.Global][]ssa.Value
}

// IndexStores builds the Stores of funcs.
func IndexStores(funcs []*ssa.Function) *Stores {
	s := &Stores{Fields: make(map[*types.Var][]ssa.Value), Globals: make(map[*ssa.Global][]ssa.Value)}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				switch addr := st.Addr.(type) {
				case *ssa.FieldAddr:
					if fv := FieldVar(addr); fv != nil {
						s.Fields[fv] = append(s.Fields[fv], st.Val)
					}
				case *ssa.Global:
					s.Globals[addr] = append(s.Globals[addr], st.Val)
				}
			}
		}
	}
	return s
}

// Backward is flow.Backward that also goes from a load of a struct field or package variable
// to the values the package stores into it; on a nil *Stores it is flow.Backward.
func (s *Stores) Backward(v ssa.Value, limit int, visit func(ssa.Value) bool) {
	backward(v, limit, visit, s)
}

// Loaded returns the values the package stores into the struct field or package variable
// that v loads; nil when v is not such a load.
func (s *Stores) Loaded(v ssa.Value) []ssa.Value {
	if s == nil {
		return nil
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	switch addr := load.X.(type) {
	case *ssa.FieldAddr:
		if fv := FieldVar(addr); fv != nil {
			return s.Fields[fv]
		}
	case *ssa.Global:
		return s.Globals[addr]
	}
	return nil
}
