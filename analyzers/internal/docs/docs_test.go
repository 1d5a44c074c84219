package docs

import "testing"

const src = `// Package x does things.
//
// # Analyzer foo
//
// foo: report foos
//
// Foos are bad.
//
// # Analyzer bar
//
// not a summary
package x
`

func TestExtract(t *testing.T) {
	got, err := Extract(src, "foo")
	if err != nil {
		t.Fatal(err)
	}
	if want := "report foos\n\nFoos are bad."; got != want {
		t.Errorf("Extract(foo) = %q, want %q", got, want)
	}
	if _, err := Extract(src, "bar"); err == nil {
		t.Error("Extract(bar): want error for a section without 'bar:' summary")
	}
	if _, err := Extract(src, "baz"); err == nil {
		t.Error("Extract(baz): want error for a missing section")
	}
	if _, err := Extract("package x", "foo"); err == nil {
		t.Error("Extract without doc comment: want error")
	}
}
