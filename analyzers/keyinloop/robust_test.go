package keyinloop_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/keyinloop"
)

// TestRobustness runs the whole chain (retryscope, keys, keyinloop) over generated code that
// stresses it: a huge function with thousands of retry loops, deeply nested loops, long goto
// chains, and cgo. It must finish without panicking and report exactly the planted findings.
func TestRobustness(t *testing.T) {
	if testing.Short() {
		t.Skip("generates large inputs")
	}
	dir := t.TempDir()
	write := func(path, src string) {
		p := filepath.Join(dir, "src", path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	var b strings.Builder
	b.WriteString("package huge\n\nimport (\n\t\"crypto/rand\"\n\t\"net/http\"\n)\n\nfunc do(r *http.Request) error { return nil }\n\n")
	// One function, 2000 retry loops; one in a hundred makes its key inside.
	b.WriteString("func big(r *http.Request) {\n\tkey := rand.Text()\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "\tfor a := 0; a < 3; a++ {\n")
		if i%100 == 0 {
			fmt.Fprintf(&b, "\t\tr.Header.Set(\"Idempotency-Key\", rand.Text()) // want `rand.Text makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated`\n")
		} else {
			fmt.Fprintf(&b, "\t\tr.Header.Set(\"Idempotency-Key\", key)\n")
		}
		fmt.Fprintf(&b, "\t\tif err := do(r); err == nil {\n\t\t\tbreak\n\t\t}\n\t}\n")
	}
	b.WriteString("}\n\n")
	// 150 nested loops, the innermost a retry loop making a key.
	b.WriteString("func deep(r *http.Request, n int) {\n")
	for i := range 150 {
		fmt.Fprintf(&b, "%sfor i%d := 0; i%d < n; i%d++ {\n", strings.Repeat("\t", i+1), i, i, i)
	}
	in := strings.Repeat("\t", 151)
	fmt.Fprintf(&b, "%sr.Header.Set(\"Idempotency-Key\", rand.Text()) // want `rand.Text makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated`\n%sif err := do(r); err == nil {\n%s\tbreak\n%s}\n", in, in, in, in)
	for i := 149; i >= 0; i-- {
		fmt.Fprintf(&b, "%s}\n", strings.Repeat("\t", i+1))
	}
	b.WriteString("}\n\n")
	// A long chain of labels and gotos.
	b.WriteString("func gotos(r *http.Request) {\n\tn := 0\n")
	for i := range 300 {
		fmt.Fprintf(&b, "l%d:\n\tif err := do(r); err != nil && n < 3 {\n\t\tn++\n\t\tgoto l%d\n\t}\n", i, i)
	}
	b.WriteString("}\n")
	write("huge/huge.go", b.String())

	write("withcgo/cgo.go", `package withcgo

// #include <stdlib.h>
import "C"

import (
	"crypto/rand"
	"net/http"
)

func Free(p *C.char) { C.free(nil) }

func do(r *http.Request) error { return nil }

func Send(r *http.Request) {
	for a := 0; a < 3; a++ {
		r.Header.Set("Idempotency-Key", rand.Text()) // want `+"`rand.Text makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated`"+`
		if err := do(r); err == nil {
			return
		}
	}
}
`)
	analysistest.Run(t, dir, keyinloop.Analyzer, "huge", "withcgo")
}
