// Package adapter is a service's translation adapter over phraselib, whose calls take no
// context and go through the library's own client, which has no Timeout.
package adapter

import (
	"context"
	"fmt"
	"log"

	"example.com/phraselib"
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
	return &Adapter{conf: phraselib.Config{Host: "phrases.internal"}}
}

// Translate is given its caller's deadline, and cannot hand it on: nothing bounds the
// library's call.
func (a *Adapter) Translate(ctx context.Context, t Translation) (Translation, error) {
	if err := ctx.Err(); err != nil {
		return Translation{}, fmt.Errorf("translate: %w", err)
	}
	tr := phraselib.New(a.conf)
	res, err := tr.Translate(t.Original, t.Source, t.Destination) // related "phraselib.go:29: Translator.Translate calls Client.Do without a context" "adapter.go:50: Translator.Translate takes no context either" "adapter.go:59: Translator.Detect takes no context either" // want `Translator\.Translate and 2 more calls can hang: no context, and Translator's client has no Timeout`
	if err != nil {
		return Translation{}, fmt.Errorf("translate: %w", err)
	}
	t.Translated = res.Text
	return t, nil
}

// Warm has no context to lose, and the library's client is in another module, whose
// findings a run on this one does not show: its call is reported, with every other call of
// the library's context-free API in this package, as one finding (one cause: the API, or
// the client it builds), at Translate's call above.
func Warm(words []string) {
	tr := phraselib.New(phraselib.Config{})
	for _, w := range words {
		if _, err := tr.Translate(w, "auto", "en"); err != nil {
			log.Printf("warm %q: %v", w, err)
		}
	}
}

// Language asks the same library's other context-free method: part of that finding.
func Language(text string) string {
	tr := phraselib.New(phraselib.Config{})
	lang, err := tr.Detect(text)
	if err != nil {
		return "und"
	}
	return lang
}
