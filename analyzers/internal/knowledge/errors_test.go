package knowledge

import (
	"go/ast"
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
