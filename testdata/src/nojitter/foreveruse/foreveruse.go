// Package foreveruse streams a step's log through foreverlib's client: the upload in Close
// hands it a context that is never done, so with the server down Close never returns.
package foreveruse

import (
	"context"
	"sync"
	"time"

	"nojitter/foreverlib"
)

type Writer struct {
	mu     sync.Mutex
	client *foreverlib.Client
	step   int64
	lines  []foreverlib.Line
}

func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, foreverlib.Line{Pos: len(w.lines), Text: string(p)})
	return len(p), nil
}

// Close uploads the remaining lines.
func (w *Writer) Close() error {
	w.mu.Lock()
	lines := w.lines
	w.lines = nil
	w.mu.Unlock()
	return w.client.Upload(context.Background(), w.step, lines) // want `foreverlib.Client.Upload retries until its context is done, and this one never is: it retries for ever`
}

// Sync uploads under the caller's context.
func (w *Writer) Sync(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.client.Upload(ctx, w.step, w.lines)
}

// Done marks the step done within a minute.
func (w *Writer) Done() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return w.client.Finish(ctx, w.step)
}
