package iters

import (
	"context"
	"errors"
	"io"
	"iter"
	"log"
)

// A resultStream hands out the result sets of a query, one per call, io.EOF after the last.
type resultStream interface {
	NextResultSet(ctx context.Context) (resultSet, error)
}

type resultSet interface {
	NextRow(ctx context.Context) ([]any, error)
}

var errClosed = errors.New("stream closed")

func isEOF(err error) bool { return errors.Is(err, io.EOF) }

// resultSets yields each result set, and the first error with it, then stops. Not reported:
// every way round follows a result set handed out.
func resultSets(ctx context.Context, r resultStream) iter.Seq2[resultSet, error] {
	return func(yield func(resultSet, error) bool) {
		for {
			rs, err := r.NextResultSet(ctx)
			if err != nil {
				if isEOF(err) {
					return
				}
			}
			more := yield(rs, err)
			if !more || err != nil {
				return
			}
		}
	}
}

// rows yields each row of a set, through a closure that keeps the yield. Not reported.
func rows(ctx context.Context, rs resultSet) iter.Seq2[[]any, error] {
	return func(yield func([]any, error) bool) {
		next := func() bool {
			row, err := rs.NextRow(ctx)
			if err != nil && isEOF(err) {
				return false
			}
			return yield(row, err) && err == nil
		}
		for next() {
		}
	}
}

// resultSetsSkipping asks for the next result set again at once after any error but the end:
// a stream that fails keeps failing, and the loop asks without pause.
func resultSetsSkipping(ctx context.Context, r resultStream) iter.Seq[resultSet] {
	return func(yield func(resultSet) bool) {
		for { // related "results.go:62: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
			rs, err := r.NextResultSet(ctx)
			if err != nil {
				if isEOF(err) || errors.Is(err, errClosed) {
					return
				}
				log.Printf("next result set: %v", err)
				continue
			}
			if !yield(rs) {
				return
			}
		}
	}
}
