package loops

import (
	"fmt"
	"log"
)

// A sync engine that, before downloading a file, tries to rename a local file with the same
// content into place: it takes the candidates one by one out of a bucket (a helper removes
// the one it returns) and tries the next when a rename fails. Each round works on another
// file, until none is left; it does not send the same request again.

type fileRecord struct {
	Name       string
	BlocksHash []byte
	Size       int64
}

type syncFS interface {
	Rename(from, to string) error
	Lstat(name string) (int64, error)
}

type puller struct {
	fs        syncFS
	deletions map[string]fileRecord
}

func takeCandidate(buckets map[string][]fileRecord, key string) (fileRecord, bool) {
	cands := buckets[key]
	if len(cands) == 0 {
		return fileRecord{}, false
	}
	buckets[key] = cands[1:]
	return cands[0], true
}

func (p *puller) renameInto(from fileRecord, to fileRecord) error {
	size, err := p.fs.Lstat(from.Name)
	if err != nil {
		return fmt.Errorf("stat %s: %w", from.Name, err)
	}
	if size != to.Size {
		return fmt.Errorf("%s changed since it was scanned", from.Name)
	}
	return p.fs.Rename(from.Name, to.Name)
}

// shortcut tries each candidate once: not reported.
func (p *puller) shortcut(buckets map[string][]fileRecord, want fileRecord) bool {
	key := string(want.BlocksHash)
	for cand, ok := takeCandidate(buckets, key); ok; cand, ok = takeCandidate(buckets, key) {
		if err := p.renameInto(cand, want); err != nil {
			log.Printf("rename shortcut for %s failed: %v", want.Name, err)
			continue
		}
		delete(p.deletions, cand.Name)
		return true
	}
	return false
}

// firstCandidate tries the first candidate again and again: reported.
func (p *puller) firstCandidate(buckets map[string][]fileRecord, want fileRecord) bool {
	cands := buckets[string(want.BlocksHash)]
	if len(cands) == 0 {
		return false
	}
	for { // related "candidates.go:69: retry loop" // want `retry loop goes round without waiting and never stops, so it hammers a failing dependency; add a jittered wait and a cap`
		if err := p.renameInto(cands[0], want); err != nil {
			log.Printf("rename %s: %v", want.Name, err)
			continue
		}
		return true
	}
}
