package loops

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"
)

// Draining: the loop reads the results a pipeline still owes, goes round after each one and
// stops when none is left. A server error is a pipeResult like the others; only a broken
// connection stops the drain early. Nothing is retried.
type serverError struct{ code string }

func (e *serverError) Error() string { return "server: " + e.code }

type pipeResult struct {
	rows int
	tag  string
}

type pipeline struct {
	expected int
	conn     *wire
	err      error
}

type wire struct{ pending []pipeResult }

func (w *wire) close() {}

func (p *pipeline) getResults() (*pipeResult, error) {
	if p.conn == nil {
		return nil, errors.New("pipeline: connection closed")
	}
	if len(p.conn.pending) == 0 {
		return nil, nil
	}
	r := &p.conn.pending[0]
	p.conn.pending = p.conn.pending[1:]
	p.expected--
	if r.tag == "ERROR" {
		return nil, &serverError{code: "42P01"}
	}
	return r, nil
}

func (p *pipeline) owed() int { return p.expected }

func (p *pipeline) Close() error { // want Close:`takes the next item of its receiver`
	for p.owed() > 0 {
		res, err := p.getResults()
		if err != nil {
			p.err = err
			var se *serverError
			if !errors.As(err, &se) {
				p.conn.close()
				break
			}
			log.Printf("pipeline: %s", se.code)
		} else if res == nil {
			p.conn.close()
			if p.err == nil {
				p.err = errors.New("pipeline: no more results but some were expected")
			}
			break
		}
	}
	return p.err
}

// The same drain written with the test the other way round.
func (p *pipeline) drain(ctx context.Context) (rows int, err error) {
	for ctx.Err() == nil {
		res, err := p.getResults()
		if err != nil {
			log.Printf("drain: %v", err)
			continue
		}
		if res != nil {
			rows += res.rows
			continue
		}
		return rows, nil
	}
	return rows, ctx.Err()
}

// Waiting for a record to appear: a round that finds nothing goes round again, one that
// finds it returns it. A retry (of a lookup that failed or found nothing yet).
type registry struct{ entries map[string]*pipeResult }

func (r *registry) lookup(ctx context.Context, name string) (*pipeResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return r.entries[name], nil
}

func (r *registry) await(ctx context.Context, name string) (*pipeResult, error) { // want await:`retries: retry loop at drain.go:103, attempts=5`
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ { // want `retry loop: attempts=5 wait=fixed deadline=context`
		res, err := r.lookup(ctx, name)
		switch {
		case err != nil:
			lastErr = err
			log.Printf("lookup %s (attempt %d): %v", name, attempt+1, err)
		case res != nil:
			return res, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return nil, fmt.Errorf("%s did not appear: %w", name, lastErr)
}

// A retry whose call may answer nothing: leaving when it does is one exit among others, the
// loop still leaves on a pipeResult.
func (r *registry) fetch(ctx context.Context, name string) (*pipeResult, error) { // want fetch:`retries: retry loop at drain.go:124, attempts=3`
	for attempt := 1; ; attempt++ { // want `retry loop: attempts=3 wait=fixed deadline=context`
		res, err := r.lookup(ctx, name)
		if err == nil {
			if res == nil {
				return nil, errors.New("not found")
			}
			return res, nil
		}
		if attempt == 3 {
			return nil, err
		}
		time.Sleep(time.Second)
	}
}
