// Package typeis holds the predicates on well-known types that idemlint's models share:
// typeis.Context(t), typeis.Error(t), typeis.Named(t, "net/http", "Client").
package typeis

import "go/types"

var errorType = types.Universe.Lookup("error").Type()

// Named reports whether t, or the type t points to, is the named type pkg.name (generic
// instances included).
func Named(t types.Type, pkg, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Origin().Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == pkg && obj.Name() == name
}

// HTTPHandler reports whether sig is an HTTP handler's: (http.ResponseWriter, *http.Request),
// with or without a receiver.
func HTTPHandler(sig *types.Signature) bool {
	p := sig.Params()
	if p.Len() != 2 {
		return false
	}
	_, ptr := p.At(1).Type().(*types.Pointer)
	return Named(p.At(0).Type(), "net/http", "ResponseWriter") && ptr && Named(p.At(1).Type(), "net/http", "Request")
}

// Context reports whether t is context.Context.
func Context(t types.Type) bool { return isNamedValue(t, "context", "Context") }

// EmbedsContext reports whether t, or the struct it points to, embeds a context.Context: its
// Deadline, Done and Err are that context's (a request's own context type), unlike a type
// that implements the interface with methods of its own.
func EmbedsContext(t types.Type) bool {
	return AnyField(t, func(f *types.Var) bool { return f.Embedded() && Context(f.Type()) })
}

// HoldsChan reports whether t, or the struct it points to, has a field of channel type (a
// request queued with the channel its answer comes back on).
func HoldsChan(t types.Type) bool {
	return AnyField(t, func(f *types.Var) bool {
		_, isChan := f.Type().Underlying().(*types.Chan)
		return isChan
	})
}

// AnyField reports whether t, or the struct it points to, is a struct with a field for which
// pred holds.
func AnyField(t types.Type, pred func(*types.Var) bool) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if pred(f) {
			return true
		}
	}
	return false
}

// Duration reports whether t is time.Duration.
func Duration(t types.Type) bool { return isNamedValue(t, "time", "Duration") }

// HTTPResponse reports whether t is net/http.Response or a pointer to it, also through a type
// defined as one (type Response *http.Response).
func HTTPResponse(t types.Type) bool {
	return Named(t, "net/http", "Response") || Named(t.Underlying(), "net/http", "Response") // type Response *http.Response
}

// Request reports whether t is an HTTP request (net/http's, or go-retryablehttp's, which wraps
// one) or a pointer to one.
func Request(t types.Type) bool {
	return Named(t, "net/http", "Request") || Named(t, "github.com/hashicorp/go-retryablehttp", "Request")
}

// Error reports whether t is the predeclared error type itself.
func Error(t types.Type) bool { return types.Identical(t, errorType) }

// ErrorLike reports whether t is an interface type that implements error (error itself, or a
// richer one such as net.Error), or a pointer to a named type that does (a package's own
// *CodeError returned as a function's error): a value of it can be compared with nil to test
// an outcome.
func ErrorLike(t types.Type) bool {
	iface := errorType.Underlying().(*types.Interface)
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		_, named := types.Unalias(p.Elem()).(*types.Named)
		return named && types.Implements(t, iface)
	}
	return types.IsInterface(t) && types.Implements(t, iface)
}

// ReturnsError reports whether sig's last result is error-like: the function can fail.
func ReturnsError(sig *types.Signature) bool {
	r := sig.Results()
	return r.Len() > 0 && ErrorLike(r.At(r.Len()-1).Type())
}

// Integer reports whether t's underlying type is an integer.
func Integer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// String reports whether t's underlying type is a string.
func String(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// Bool reports whether t's underlying type is a boolean.
func Bool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// TimeChan reports whether t is a channel of time.Time (a timer's or ticker's C).
func TimeChan(t types.Type) bool {
	ch, ok := t.Underlying().(*types.Chan)
	return ok && isNamedValue(ch.Elem(), "time", "Time")
}

// isNamedValue is Named without looking through a pointer.
func isNamedValue(t types.Type, pkg, name string) bool {
	if _, ok := t.(*types.Pointer); ok {
		return false
	}
	return Named(t, pkg, name)
}

// HoldsError reports whether t, or the struct it points to, has an error-typed field: an
// outcome that carries its error (a call's result struct tested with herr.IsNil()).
func HoldsError(t types.Type) bool {
	return AnyField(t, func(f *types.Var) bool { return Error(f.Type()) })
}
