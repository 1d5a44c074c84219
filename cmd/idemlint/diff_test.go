package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The diff of every pair of small texts, applied as go vet's own diff is read, gives the new
// text back: the hunks' line numbers and counts are right.
func TestUnifiedRoundTrip(t *testing.T) {
	texts := []string{
		"",
		"a\n",
		"a\nb\nc\n",
		"a\nb\nc",
		"x\na\nb\nc\n",
		"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n",
		"1\n2\nnew\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n",
		"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\nchanged\n",
		"0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\nlast",
	}
	for _, old := range texts {
		for _, updated := range texts {
			d := unified("a/f", "b/f", old, updated)
			if old == updated {
				assert.Empty(t, d)
				continue
			}
			diffs, err := parseVetDiffs(d)
			require.NoError(t, err, d)
			require.Len(t, diffs, 1)
			got, err := diffs[0].apply(old)
			require.NoError(t, err, "%q -> %q:\n%s", old, updated, d)
			assert.Equal(t, updated, got, "%q -> %q:\n%s", old, updated, d)
			for _, l := range strings.Split(d, "\n") {
				if strings.HasPrefix(l, "@@ ") {
					assert.Regexp(t, `^@@ -\d+,\d+ \+\d+,\d+ @@$`, l)
				}
			}
		}
	}
}

// go vet's diff, whose new line numbers are wrong after the first hunk, is read by its old
// line numbers; a diff that does not match the file is refused.
func TestVetDiff(t *testing.T) {
	old := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	vet := `--- /src/f.go (old)
+++ /src/f.go (new)
@@ -1,3 +1,4 @@
 1
+1.5
 2
 3
@@ -9,3 +8,3 @@
 9
-10
+ten
 11
`
	diffs, err := parseVetDiffs(vet)
	require.NoError(t, err)
	require.Len(t, diffs, 1)
	assert.Equal(t, "/src/f.go", diffs[0].file)
	got, err := diffs[0].apply(old)
	require.NoError(t, err)
	assert.Equal(t, "1\n1.5\n2\n3\n4\n5\n6\n7\n8\n9\nten\n11\n12\n", got)
	assert.Equal(t, "--- a/f.go\n+++ b/f.go\n@@ -1,4 +1,5 @@\n 1\n+1.5\n 2\n 3\n 4\n@@ -7,6 +8,6 @@\n 7\n 8\n 9\n-10\n+ten\n 11\n 12\n",
		unified("a/f.go", "b/f.go", old, got))

	_, err = diffs[0].apply(strings.Replace(old, "10\n", "x\n", 1))
	assert.Error(t, err, "a diff that does not match the file")
}

// A tool process that failed on a dependency, analysed for its facts, is a failure of the run
// although go vet exits 0; a C compiler's warnings are not.
func TestDependencyFailures(t *testing.T) {
	stderr := "# example.com/m/cgo\ncgo.go:3: warning: unused variable 'x'\n" +
		"# example.com/dep/x509\nidemlint: in package x509 (\"example.com/dep/x509\"): internal error\n"
	warnings, failed := dependencyFailures(stderr, "idemlint")
	assert.Equal(t, "# example.com/m/cgo\ncgo.go:3: warning: unused variable 'x'\n", warnings)
	require.Len(t, failed, 1)
	assert.Equal(t, "example.com/dep/x509", failed[0].Pkg)
	assert.Contains(t, failed[0].Msg, "internal error")

	warnings, failed = dependencyFailures("", "idemlint")
	assert.Empty(t, warnings)
	assert.Empty(t, failed)
}
