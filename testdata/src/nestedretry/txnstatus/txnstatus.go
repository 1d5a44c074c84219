// Package txnstatus resolves the locks of a distributed transaction: it asks the node holding
// a transaction's primary key for the transaction's status. That request is retried while the
// node is busy (503); when the node answers that it has no record of the transaction yet (its
// secondary keys were written before the primary), the status query returns at once with
// notFoundErr, and the resolver asks again a little later.
package txnstatus

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/pkg/errors"
)

type notFoundErr struct{ txnID uint64 }

func (e notFoundErr) Error() string { return fmt.Sprintf("txn %d not found", e.txnID) }

type exhaustedErr struct{ attempts int }

func (e exhaustedErr) Error() string { return fmt.Sprintf("node busy after %d attempts", e.attempts) }

type Status struct {
	Committed bool   `json:"committed"`
	CommitTS  uint64 `json:"commit_ts"`
	TTL       uint64 `json:"ttl"`
}

type statusAnswer struct {
	Status   *Status `json:"status"`
	NotFound bool    `json:"not_found"`
}

type Resolver struct {
	hc   *http.Client
	node string
	log  *slog.Logger
}

func pause(attempt int) time.Duration {
	d := 50 * time.Millisecond << min(attempt, 5)
	return d/2 + rand.N(d/2)
}

// fetchStatus makes one status request.
func (r *Resolver) fetchStatus(ctx context.Context, q url.Values) (*statusAnswer, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.node+"/txn/status?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := r.hc.Do(req)
	if err != nil {
		return nil, errors.Wrap(err, "txn status")
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, errors.Errorf("txn status: node answered %s", resp.Status)
	}
	var ans statusAnswer
	if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil {
		return nil, errors.Wrap(err, "decode txn status")
	}
	return &ans, nil
}

// getStatus asks for a transaction's status, retrying while the request fails.
func (r *Resolver) getStatus(ctx context.Context, txnID uint64, rollbackIfMissing bool) (*Status, error) {
	q := url.Values{}
	q.Set("txn_id", strconv.FormatUint(txnID, 10))
	q.Set("rollback_if_missing", strconv.FormatBool(rollbackIfMissing))
	const maxAttempts = 5
	for attempt := 0; attempt < maxAttempts; attempt++ {
		ans, err := r.fetchStatus(ctx, q)
		if err != nil {
			r.log.Debug("txn status failed", "txn", txnID, "attempt", attempt, "err", err)
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(pause(attempt)):
			}
			continue
		}
		if ans.NotFound {
			return nil, notFoundErr{txnID: txnID}
		}
		return ans.Status, nil
	}
	return nil, errors.WithStack(exhaustedErr{attempts: maxAttempts})
}

// ---- Not reported: the outer loop goes round only on the answer "not found", which the
// status query returns at once: one request per round ----

func (r *Resolver) StatusOfLock(ctx context.Context, txnID uint64) (*Status, error) {
	rollback := false
	for round := 0; round < 10; round++ {
		st, err := r.getStatus(ctx, txnID, rollback)
		if err == nil {
			return st, nil
		}
		if _, ok := errors.Cause(err).(notFoundErr); !ok {
			return nil, err
		}
		r.log.Warn("txn not found yet", "txn", txnID, "round", round)
		if round >= 5 {
			rollback = true
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pause(round)):
		}
	}
	return nil, fmt.Errorf("txn %d: no status after 10 rounds", txnID)
}

// ---- Reported: the outer loop goes round when the status query gave up on a busy node,
// after its own five attempts ----

func (r *Resolver) StatusWhenIdle(ctx context.Context, txnID uint64) (*Status, error) {
	for round := 0; round < 3; round++ {
		st, err := r.getStatus(ctx, txnID, false) // related "txnstatus.go:131: outer retry loop" "txnstatus.go:82: inner retry loop" // want `retries up to 3 times around Resolver\.getStatus, which retries up to 5 times: up to 15 calls per request; keep one layer`
		if err == nil {
			return st, nil
		}
		var ex exhaustedErr
		if !errors.As(err, &ex) {
			return nil, err
		}
		r.log.Warn("node busy", "txn", txnID, "round", round)
		time.Sleep(pause(round + 3))
	}
	return nil, fmt.Errorf("txn %d: node busy", txnID)
}
