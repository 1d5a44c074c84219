package knowledge

import (
	"strings"
	"testing"
	"unicode"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

func TestKeyTables(t *testing.T) {
	for _, n := range KeyNames {
		if strings.IndexFunc(n, func(r rune) bool { return !unicode.IsLower(r) && !unicode.IsDigit(r) }) >= 0 {
			t.Errorf("KeyNames: %q is not normalised (lower-case letters and digits)", n)
		}
	}
	seen := make(map[flow.FuncID]bool)
	for _, id := range KeyGenerators {
		if id.Pkg == "" || id.Name == "" || seen[id] {
			t.Errorf("KeyGenerators: %v is empty or listed twice", id)
		}
		seen[id] = true
	}
	for _, tc := range []struct {
		id   flow.FuncID
		want bool
	}{
		{flow.FuncID{Pkg: "math/rand/v2", Name: "Int64"}, true},
		{flow.FuncID{Pkg: "math/rand", Recv: "Rand", Name: "Intn"}, true},
		{flow.FuncID{Pkg: "math/rand/v2", Name: "NewPCG"}, false},
		{flow.FuncID{Pkg: "math/rand", Name: "Read"}, false},
		{flow.FuncID{Pkg: "example.com/rand", Name: "Int"}, false},
	} {
		if got := RandomNumber(tc.id); got != tc.want {
			t.Errorf("RandomNumber(%v) = %v, want %v", tc.id, got, tc.want)
		}
	}
}
