// Package usephraselib calls phraselib, a library of the same project whose calls take no
// context and go through its own client without a Timeout: that client, reported where
// phraselib makes it, is the line to change, so the calls here are not reported (from another
// module they are: testdata/mod/depclient).
package usephraselib

import (
	"context"
	"log"

	"notimeout/phraselib"
)

// Warm has a context and cannot hand it on (not reported).
func Warm(ctx context.Context, words []string) {
	tr := phraselib.New(phraselib.Config{})
	for _, w := range words {
		if ctx.Err() != nil {
			return
		}
		if _, err := tr.Translate(w, "auto", "en"); err != nil {
			log.Printf("warm %q: %v", w, err)
		}
	}
}
