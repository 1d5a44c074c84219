package loops

import (
	"errors"
	"fmt"
)

// A loop that goes round only to try a new input, and leaves when the input is the one that
// failed last time: it chases a moving target (the first entry of a log that another
// goroutine truncates), never sending the same request twice. Not a retry.

var errNoEntry = errors.New("entry not found")

// Entry is one log entry.
type Entry struct {
	Index uint64
	Data  []byte
}

// EntryStore keeps a log; its implementations may be remote.
type EntryStore interface {
	FirstIndex() (uint64, error)
	GetEntry(index uint64, into *Entry) error
}

// oldestEntry reads the first entry; a truncation between FirstIndex and GetEntry makes the
// read fail, and the next round asks for the new first index.
func oldestEntry(s EntryStore) (Entry, error) {
	var e Entry
	var lastFailed uint64
	var lastErr error
	for {
		first, err := s.FirstIndex()
		if err != nil {
			return e, fmt.Errorf("first index: %w", err)
		}
		if first == 0 {
			return e, errNoEntry
		}
		if first == lastFailed {
			return e, lastErr // the same index failed already: give up
		}
		if err := s.GetEntry(first, &e); err == nil {
			return e, nil
		} else {
			lastFailed, lastErr = first, err
		}
	}
}

// newestEntry reads the last entry again and again until it succeeds: a retry without a wait.
func newestEntry(s EntryStore, last uint64) (Entry, error) {
	var e Entry
	for attempt := 0; attempt < 5; attempt++ { // related "moving.go:54: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		if err := s.GetEntry(last, &e); err == nil {
			return e, nil
		}
	}
	return e, errNoEntry
}
