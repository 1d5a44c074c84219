// Package etcdcampaign runs a leader election over etcd: a candidate puts its key under a
// lease if no other candidate holds it, in one transaction. The transaction is sent by
// Commit, bounded by the context given to Txn when it was made.
package etcdcampaign

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Election is one candidate's view of an election.
type Election struct {
	client *clientv3.Client
	key    string
	id     string
	ttl    time.Duration
	ctx    context.Context
	cancel context.CancelFunc
	log    *slog.Logger
}

// New starts a candidate; its context lives until Close.
func New(c *clientv3.Client, key, id string, ttl time.Duration, log *slog.Logger) *Election {
	ctx, cancel := context.WithCancel(context.Background())
	return &Election{client: c, key: key, id: id, ttl: ttl, ctx: ctx, cancel: cancel, log: log}
}

// Close stops the candidate.
func (e *Election) Close() { e.cancel() }

// ---- Reported: the transaction is made with a context that never times out ----

// campaign puts the candidate's key unless the key exists already.
func (e *Election) campaign(lease clientv3.LeaseID) (bool, error) {
	resp, err := e.client.Txn(e.ctx). // related "etcdcampaign.go:28: context.Background() has no deadline" "etcdcampaign.go:75: Txn.Commit gets context.Background() too" // want `Txn\.Commit and 1 more call get contexts without a deadline, so a stalled server hangs them; use context\.WithTimeout`
		If(clientv3.Compare(clientv3.CreateRevision(e.key), "=", 0)).
		Then(clientv3.OpPut(e.key, e.id, clientv3.WithLease(lease))).
		Else(clientv3.OpGet(e.key)).
		Commit()
	if err != nil {
		return false, fmt.Errorf("campaign for %s: %w", e.key, err)
	}
	e.log.Debug("campaign", "key", e.key, "won", resp.Succeeded)
	return resp.Succeeded, nil
}

// ---- Not reported: the transaction's context has a deadline (campaign's finding counts 1
// more call, refresh's, not this one) ----

// resign deletes the candidate's key if it still holds it.
func (e *Election) resign(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, e.ttl)
	defer cancel()
	txn := e.client.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(e.key), ">", 0))
	txn = txn.Then(clientv3.OpPut(e.key, ""))
	if _, err := txn.Commit(); err != nil {
		return fmt.Errorf("resign %s: %w", e.key, err)
	}
	return nil
}

// refresh re-puts the candidate's value, with its lease when it has one, in a transaction
// built on two paths from a context that never times out: the same cause as campaign's.
func (e *Election) refresh(lease clientv3.LeaseID) error {
	txn := e.client.Txn(e.ctx).If(clientv3.Compare(clientv3.CreateRevision(e.key), ">", 0))
	if lease != 0 {
		txn = txn.Then(clientv3.OpPut(e.key, e.id, clientv3.WithLease(lease)))
	} else {
		txn = txn.Then(clientv3.OpPut(e.key, e.id))
	}
	resp, err := txn.Commit() // counted in campaign's finding: the same context
	if err != nil {
		return fmt.Errorf("refresh %s: %w", e.key, err)
	}
	if !resp.Succeeded {
		return fmt.Errorf("refresh %s: key gone", e.key)
	}
	return nil
}
