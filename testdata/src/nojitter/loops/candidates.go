package loops

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
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
	for { // related "candidates.go:73: retry loop" // want `retry loop goes round without waiting and never stops, so it hammers a failing dependency; add a jittered wait and a cap`
		if err := p.renameInto(cands[0], want); err != nil {
			log.Printf("rename %s: %v", want.Name, err)
			continue
		}
		return true
	}
}

// A store reads the rows of one query through its driver's cursor: a row that fails to scan
// is skipped, and the next one read. Each round reads the next row; not a retry.

type driverRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

type spanRow struct {
	TraceID, SpanID string
	Duration        int64
}

func scanSpan(rows driverRows) (spanRow, error) {
	var r spanRow
	if err := rows.Scan(&r.TraceID, &r.SpanID, &r.Duration); err != nil {
		return spanRow{}, fmt.Errorf("scan span: %w", err)
	}
	return r, nil
}

func readSpans(rows driverRows) ([]spanRow, error) {
	defer rows.Close()
	var out []spanRow
	for rows.Next() {
		span, err := scanSpan(rows)
		if err != nil {
			log.Printf("skipping span: %v", err)
			continue
		}
		out = append(out, span)
	}
	return out, rows.Err()
}

// spans yields the spans of each trace, and an error for a row that fails to scan.
func spans(query func(id string) (driverRows, error), ids ...string) iter.Seq2[spanRow, error] {
	return func(yield func(spanRow, error) bool) {
		for _, id := range ids {
			rows, err := query(id)
			if err != nil {
				yield(spanRow{}, fmt.Errorf("query trace %s: %w", id, err))
				return
			}
			done := false
			for rows.Next() {
				span, err := scanSpan(rows)
				if err != nil {
					if !yield(spanRow{}, fmt.Errorf("trace %s: %w", id, err)) {
						done = true
						break
					}
					continue
				}
				if !yield(span, nil) {
					done = true
					break
				}
			}
			rows.Close()
			if done {
				return
			}
		}
	}
}

// A reader of a trace stream: it reads chunks until the stream ends, and returns at the first
// error. Each round takes the next chunk; not a retry.

type traceChunk struct{ Spans []spanRow }

type chunkStream interface {
	Recv() (*traceChunk, error)
}

func consumeChunks(stream chunkStream, yield func([]spanRow, error) bool) bool {
	handle := func(err error) bool {
		if err == nil {
			return true
		}
		yield(nil, fmt.Errorf("read trace stream: %w", err))
		return false
	}
	for chunk, err := stream.Recv(); !errors.Is(err, io.EOF); chunk, err = stream.Recv() {
		if !handle(err) {
			return false
		}
		if !yield(chunk.Spans, nil) {
			return false
		}
	}
	return true
}

// A signer that hashes every file a loader yields: the loader's cursor ends at io.EOF, and
// each file is read to its own io.EOF, which is no failure. Each round is about the round's
// file; not a retry.

type bundleFile interface {
	Path() string
	Read(w io.Writer, limit int64) (int64, error)
	Close() error
}

type dirLoader interface {
	NextFile() (bundleFile, error)
}

type fileDigest struct {
	Path string
	Sum  [32]byte
}

const maxBundleFile = 1 << 30

func digestFiles(loaders []dirLoader, sum func([]byte) [32]byte) ([]fileDigest, error) {
	var out []fileDigest
	for _, dl := range loaders {
		for {
			f, err := dl.NextFile()
			if err == io.EOF {
				break
			}
			if err != nil {
				return out, fmt.Errorf("bundle read failed: %w", err)
			}
			if f.Path() == "/.signatures.json" {
				continue
			}
			var buf bytes.Buffer
			n, err := f.Read(&buf, maxBundleFile+1)
			f.Close()
			if err != nil && err != io.EOF {
				return out, err
			} else if err == nil && n >= maxBundleFile {
				return out, fmt.Errorf("bundle file %s exceeds %d bytes", f.Path(), maxBundleFile)
			}
			out = append(out, fileDigest{Path: f.Path(), Sum: sum(buf.Bytes())})
		}
	}
	return out, nil
}
