package edit

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// The expressions that fixes write: with idemlint's runtime where the user's module already
// requires it, with the standard library otherwise, so that a fix always builds in the module
// as it is (the runtime is not on the public module proxy; a fix importing it would not).

const (
	retryPath       = RuntimeModule + "/runtime/retry"
	idempotencyPath = RuntimeModule + "/runtime/idempotency"
	uuidPath        = "github.com/google/uuid"
)

// Writer writes those expressions in one file of the package under analysis.
type Writer struct {
	pass    *analysis.Pass
	file    *ast.File
	Runtime bool // the package can import the runtime (HasRuntime)
}

// NewWriter returns a Writer for file.
func NewWriter(pass *analysis.Pass, file *ast.File) *Writer {
	return &Writer{pass: pass, file: file, Runtime: HasRuntime(pass)}
}

func (w *Writer) importAt(path string, names []string, at ...token.Pos) (string, []analysis.TextEdit) {
	return Import(w.pass.TypesInfo, w.pass.Pkg, w.file, path, names, at...)
}

// Jitter returns d, a wait's duration argument, with full jitter (a random duration in [0, d)):
// retry.FullJitter(d), or with math/rand/v2, rand.N(d) for a positive constant and
// time.Duration(rand.Float64() * float64(d)) otherwise (rand.N panics on a wait of zero).
// Before Go 1.22 it uses math/rand, seeded at random since Go 1.20.
func (w *Writer) Jitter(d ast.Expr) (string, []analysis.TextEdit, bool) {
	text, ok := Source(w.pass, d)
	if !ok {
		return "", nil, false
	}
	at := d.Pos()
	if w.Runtime {
		name, edits := w.importAt(retryPath, nil, at)
		return name + ".FullJitter(" + text + ")", edits, true
	}
	randPath, names := "math/rand/v2", []string{"rand", "randv2", "mathrand"}
	if !GoAtLeast(w.pass, w.file, "go1.22") {
		randPath, names = "math/rand", []string{"rand", "mathrand"}
	}
	rnd, edits := w.importAt(randPath, names, at)
	tv := w.pass.TypesInfo.Types[d]
	if randPath == "math/rand/v2" && tv.Value != nil && constant.Sign(tv.Value) > 0 {
		if untyped(w.pass.TypesInfo, d) {
			tm, more := w.importAt("time", nil, at)
			return rnd + ".N(" + tm + ".Duration(" + text + "))", append(edits, more...), true
		}
		return rnd + ".N(" + text + ")", edits, true
	}
	tm, more := w.importAt("time", nil, at)
	return tm + ".Duration(" + rnd + ".Float64() * float64(" + text + "))", append(edits, more...), true
}

// NewKey returns an expression that makes a new idempotency key, valid at every position of
// at: uuid.NewString() where the file already imports google/uuid under a name that means it
// there, the runtime's idempotency.NewKey(), or crypto/rand's Text() (Go 1.24; rand.Text()
// where the file imports it as rand, crand.Text() where the fix imports it). It returns false
// when none of them can be written.
func (w *Writer) NewKey(at ...token.Pos) (string, []analysis.TextEdit, bool) {
	for _, spec := range w.file.Imports {
		if p, err := strconv.Unquote(spec.Path.Value); err != nil || p != uuidPath {
			continue
		}
		if pn := importedAs(w.pass.TypesInfo, spec); pn != nil && pn.Name() != "_" && pn.Name() != "." && resolvesTo(w.pass.Pkg, pn.Name(), pn, at) {
			return pn.Name() + ".NewString()", nil, true
		}
	}
	if w.Runtime {
		name, edits := w.importAt(idempotencyPath, nil, at...)
		return name + ".NewKey()", edits, true
	}
	if !GoAtLeast(w.pass, w.file, "go1.24") {
		return "", nil, false
	}
	// A new import of crypto/rand is crand: the jitter fix of another finding in the same file
	// may import math/rand/v2 as rand, and fixes applied together must not clash.
	name, edits := w.importAt("crypto/rand", []string{"crand", "cryptorand"}, at...)
	return name + ".Text()", edits, true
}

// DeriveKey returns the key for purpose derived from identity, a string expression to be
// written at at in place of a child of parent: the runtime's idempotency.DeriveKey(identity,
// purpose), or the same value written out, identity + ":" + purpose, so that moving to the
// runtime later keeps every key.
func (w *Writer) DeriveKey(identity, purpose string, at token.Pos, parent ast.Node) (string, []analysis.TextEdit) {
	if w.Runtime {
		name, edits := w.importAt(idempotencyPath, nil, at)
		return name + ".DeriveKey(" + identity + ", " + strconv.Quote(purpose) + ")", edits
	}
	return Operand(parent, identity+" + "+strconv.Quote(":"+purpose)), nil
}

// untyped reports whether the constant expression e is untyped as written (go/types records
// the type it is converted to): its operands are literals and untyped constants.
func untyped(info *types.Info, e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ok = ok && untypedConst(info.Uses[n.Sel])
			return false
		case *ast.Ident:
			ok = ok && untypedConst(info.Uses[n])
		case *ast.CallExpr: // a conversion or a builtin (len of an array) types it
			ok = false
		}
		return ok
	})
	return ok
}

func untypedConst(obj types.Object) bool {
	c, ok := obj.(*types.Const)
	if !ok {
		return false
	}
	b, ok := c.Type().(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}
