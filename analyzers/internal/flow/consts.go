package flow

import (
	"go/constant"

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
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Value), true
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
