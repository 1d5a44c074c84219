package unkeyedretry_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/unkeyedretry"
)

// TestRobustness runs the whole chain (retryscope, keys, remote, unkeyedretry) over a
// generated function with a thousand retry loops, each building and sending a POST, one in a
// hundred without a key, and over recursion and goto chains. It must finish without panicking
// and report exactly the planted findings.
func TestRobustness(t *testing.T) {
	if testing.Short() {
		t.Skip("generates large inputs")
	}
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("package huge\n\nimport (\n\t\"context\"\n\t\"net/http\"\n)\n\n")
	b.WriteString("func big(ctx context.Context, c *http.Client, key string) {\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "\tfor a := 0; a < 3; a++ {\n")
		fmt.Fprintf(&b, "\t\treq, _ := http.NewRequestWithContext(ctx, \"POST\", \"https://api.example.com/v1/r%d\", nil)", i)
		if i%100 == 0 {
			fmt.Fprintf(&b, " // want `POST /v1/r%d is retried without an idempotency key`\n", i)
		} else {
			fmt.Fprintf(&b, "\n\t\treq.Header.Set(\"Idempotency-Key\", key)\n")
		}
		fmt.Fprintf(&b, "\t\tif resp, err := c.Do(req); err == nil {\n\t\t\tresp.Body.Close()\n\t\t\tbreak\n\t\t}\n\t}\n")
	}
	b.WriteString("}\n\n")
	b.WriteString("func gotos(ctx context.Context, c *http.Client, req *http.Request) {\n\tn := 0\n")
	for i := range 200 {
		fmt.Fprintf(&b, "l%d:\n\tif _, err := c.Do(req); err != nil && n < 3 {\n\t\tn++\n\t\tgoto l%d\n\t}\n", i, i)
	}
	b.WriteString("}\n")
	p := filepath.Join(dir, "src", "huge", "huge.go")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, unkeyedretry.Analyzer, "huge")
}
