package knowledge

import (
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// modeled type-checks a package at path declaring, for each name, an error type with the
// methods of an aws-sdk-go-v2 modeled error (or, with plain, only Error).
func modeled(t *testing.T, path string, plain bool, names ...string) *types.Package {
	t.Helper()
	src := "package types\ntype Fault int\n"
	for _, n := range names {
		src += "type " + n + " struct{ Message *string }\n"
		src += "func (e *" + n + ") Error() string { return \"\" }\n"
		if !plain {
			src += "func (e *" + n + ") ErrorCode() string { return \"" + n + "\" }\n"
			src += "func (e *" + n + ") ErrorFault() Fault { return 1 }\n"
		}
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "types.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check(path, fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

func TestUnretriedAPIError(t *testing.T) {
	aws := modeled(t, "github.com/aws/aws-sdk-go-v2/service/kinesis/types", false,
		"ResourceNotFoundException", "ResourceInUseException", "NoSuchBucket",
		"ProvisionedThroughputExceededException", "LimitExceededException",
		"InternalFailureException", "ServiceUnavailableException", "KMSInternalException")
	for _, tc := range []struct {
		name                string
		unretried, notFound bool
	}{
		{"ResourceNotFoundException", true, true},
		{"NoSuchBucket", true, true},
		{"ResourceInUseException", true, false},
		{"ProvisionedThroughputExceededException", false, false}, // a throttle: retried
		{"LimitExceededException", false, false},
		{"InternalFailureException", false, false}, // server faults: retried on their 5xx
		{"ServiceUnavailableException", false, false},
		{"KMSInternalException", false, false},
	} {
		typ := aws.Scope().Lookup(tc.name).Type()
		for _, v := range []types.Type{typ, types.NewPointer(typ)} {
			if u, nf := UnretriedAPIError(v); u != tc.unretried || nf != tc.notFound {
				t.Errorf("UnretriedAPIError(%s) = %v, %v; want %v, %v", v, u, nf, tc.unretried, tc.notFound)
			}
		}
	}
	// Not a service's types package, or not a modeled error: not known.
	other := modeled(t, "example.com/billing/types", false, "ResourceNotFoundException")
	plain := modeled(t, "github.com/aws/aws-sdk-go-v2/service/s3/types", true, "NotFound")
	for _, pkg := range []*types.Package{other, plain} {
		for _, name := range pkg.Scope().Names() {
			if u, _ := UnretriedAPIError(pkg.Scope().Lookup(name).Type()); u {
				t.Errorf("UnretriedAPIError(%s.%s) = true, want false", pkg.Path(), name)
			}
		}
	}
}

func TestLocalErrno(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "errnos.go", `package p
import "syscall"
var inUse, refused, exists = syscall.EADDRINUSE, syscall.ECONNREFUSED, syscall.EEXIST
`, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: make(map[ast.Expr]types.TypeAndValue)}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"EADDRINUSE": true, "ECONNREFUSED": false, "EEXIST": true}
	for expr, tv := range info.Types {
		sel, ok := expr.(*ast.SelectorExpr)
		if !ok || tv.Value == nil {
			continue
		}
		if got := LocalErrno(tv.Type, tv.Value); got != want[sel.Sel.Name] {
			t.Errorf("LocalErrno(syscall.%s) = %v, want %v", sel.Sel.Name, got, want[sel.Sel.Name])
		}
		delete(want, sel.Sel.Name)
	}
	if len(want) > 0 {
		t.Errorf("constants not seen: %v", want)
	}
	if LocalErrno(types.Typ[types.Int], constant.MakeInt64(98)) {
		t.Error("an int constant is not an errno")
	}
}

func TestPendingAPIError(t *testing.T) {
	oidc := modeled(t, "github.com/aws/aws-sdk-go-v2/service/ssooidc/types", false,
		"AuthorizationPendingException", "SlowDownException", "AccessDeniedException", "ExpiredTokenException")
	other := modeled(t, "github.com/aws/aws-sdk-go-v2/service/sso/types", false, "AuthorizationPendingException")
	for _, tc := range []struct {
		pkg     *types.Package
		name    string
		pending bool
	}{
		{oidc, "AuthorizationPendingException", true},
		{oidc, "SlowDownException", true},
		{oidc, "AccessDeniedException", false}, // the user refused: the flow ends
		{oidc, "ExpiredTokenException", false},
		{other, "AuthorizationPendingException", false}, // by package, not by name
	} {
		typ := tc.pkg.Scope().Lookup(tc.name).Type()
		for _, v := range []types.Type{typ, types.NewPointer(typ)} {
			if got := PendingAPIError(v); got != tc.pending {
				t.Errorf("PendingAPIError(%s) = %v, want %v", v, got, tc.pending)
			}
		}
	}
}
