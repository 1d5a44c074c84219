// Package usephraselib is a service's translation adapter over phraselib, whose calls take no
// context and go through the library's own client, which has no Timeout.
package usephraselib

import (
	"context"
	"fmt"
	"log"

	"notimeout/phraselib"
)

type Translation struct {
	Source      string
	Destination string
	Original    string
	Translated  string
}

type Adapter struct {
	conf phraselib.Config
}

func NewAdapter() *Adapter {
	return &Adapter{conf: phraselib.Config{UserAgent: "svc/2"}}
}

// Translate is given its caller's deadline, and cannot hand it on; the library is of this
// project, and its client, reported where it is made, is the line to change (not reported
// here; from another module it is, see testdata/mod/depclient).
func (a *Adapter) Translate(ctx context.Context, t Translation) (Translation, error) {
	if err := ctx.Err(); err != nil {
		return Translation{}, fmt.Errorf("translate: %w", err)
	}
	tr := phraselib.New(a.conf)
	res, err := tr.Translate(t.Original, t.Source, t.Destination)
	if err != nil {
		return Translation{}, fmt.Errorf("translate: %w", err)
	}
	t.Translated = res.Text
	return t, nil
}

// Warm has no context to lose; the library's client, reported where it is made, is the
// line to change (not reported here).
func Warm(words []string) {
	tr := phraselib.New(phraselib.Config{})
	for _, w := range words {
		if _, err := tr.Translate(w, "auto", "en"); err != nil {
			log.Printf("warm %q: %v", w, err)
		}
	}
}
