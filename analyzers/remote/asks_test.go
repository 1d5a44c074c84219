package remote_test

import (
	"testing"

	"github.com/idemlint/idemlint/analyzers/remote"
)

// A POST asks when its path's last segment names a read, alone or as the verb of a
// verb-object segment; a create, an action or a verb-object of another verb does not.
func TestAsks(t *testing.T) {
	for last, want := range map[string]bool{
		"check": true, "_search": true, "read": true, "list-objects": true, "list_users": true,
		"listUsers": true, "dry-run": true, "get": true, "expand": true, "batch-check": false,
		"stores": false, "write": false, "capture": false, "create-user": false, "checkout": false,
		"listing": false, "": false,
	} {
		if got := (&remote.Send{Last: last}).Asks(); got != want {
			t.Errorf("Send{Last: %q}.Asks() = %v, want %v", last, got, want)
		}
	}
}
