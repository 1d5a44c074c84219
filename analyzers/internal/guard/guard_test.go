package guard

import (
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestRun(t *testing.T) {
	pass := &analysis.Pass{Pkg: types.NewPackage("example.com/p", "p")}
	var nilMap map[string]int
	res, err := Run("nojitter", func(*analysis.Pass) (any, error) {
		nilMap["x"] = 1 // a nil map write: a runtime panic
		return 1, nil
	})(pass)
	if res != nil || err == nil {
		t.Fatalf("got %v, %v; want an error", res, err)
	}
	for _, want := range []string{"nojitter panicked on package example.com/p", "assignment to entry in nil map", "guard_test.go"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if res, err := Run("nojitter", func(*analysis.Pass) (any, error) { return 2, nil })(pass); res != 2 || err != nil {
		t.Errorf("a run that does not panic: %v, %v", res, err)
	}
}
