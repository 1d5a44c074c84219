package idempotency

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Step runs one step of multi-step work and records its result as a recovery point, so that a
// retry of the operation (after a crash, a 5xx or a lost lease) resumes after the last finished
// step instead of repeating it: when the step was recorded by an earlier attempt, Step returns the
// recorded result without calling fn.
//
// The result is stored as JSON; Step always returns the decoded, recorded value (also on the
// first run), so that the work after the step sees the same value on every attempt. Step names
// must be unique within an operation, and steps cannot be nested.
//
// With a TxStore, fn's business writes made through CurrentTx(ctx) commit in one transaction with
// the recovery point: either both happen or neither. With other stores, fn's effects and the
// recovery point are separate writes; a crash between them repeats fn on the retry, so fn must be
// idempotent on its own (use DerivedKey for downstream calls).
//
// A step marks the operation as started (see MarkStarted). Outside an operation (ctx not from
// Do), Step simply calls fn.
func Step[T any](ctx context.Context, name string, fn func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	cur := phaseFrom(ctx)
	if cur == nil {
		return fn(ctx)
	}
	op := cur.op
	if cur.step != "" {
		return zero, fmt.Errorf("idempotency: step %q started inside step %q: steps cannot be nested", name, cur.step)
	}
	if op.final.holdsTx() {
		return zero, fmt.Errorf("step %q: %w", name, ErrStepAfterFinalTx)
	}
	op.mu.Lock()
	if op.ran[name] {
		op.mu.Unlock()
		return zero, fmt.Errorf("idempotency: step %q ran twice in one operation: step names must be unique", name)
	}
	if op.ran == nil {
		op.ran = make(map[string]bool)
	}
	op.ran[name] = true
	raw, done := op.steps[name]
	op.mu.Unlock()

	op.started.Store(true)
	if !done && op.fenced.Load() {
		// The lease is lost: whatever this step would do, its result could not be recorded.
		return zero, ErrFenced
	}
	if !done {
		var err error
		raw, err = op.runStep(ctx, name, func(ctx context.Context) (json.RawMessage, error) {
			v, err := fn(ctx)
			if err != nil {
				return nil, err
			}
			raw, err := json.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("idempotency: step %q: encoding the result: %w", name, err)
			}
			return raw, nil
		})
		if err != nil {
			return zero, err
		}
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return zero, fmt.Errorf("idempotency: step %q: decoding the recorded result: %w", name, err)
	}
	return v, nil
}

// runStep runs fn in its own phase and records its result.
func (op *operation) runStep(ctx context.Context, name string, fn func(context.Context) (json.RawMessage, error)) (json.RawMessage, error) {
	ph := &phase{op: op, step: name}
	handled := false
	defer func() {
		if handled {
			return
		}
		// fn failed or panicked: undo its transaction.
		if tx := ph.finish(); tx != nil {
			op.rollback(ctx, tx)
		}
	}()
	raw, err := fn(context.WithValue(ctx, phaseKey{}, ph))
	if err != nil {
		return nil, err
	}

	handled = true
	tx := ph.finish()
	cctx, cancel := op.r.storeContext(ctx)
	defer cancel()
	if tx == nil {
		err = op.store.SaveStep(cctx, op.lease, name, raw)
	} else {
		if err = tx.SaveStep(cctx, op.lease, name, raw); err == nil {
			err = tx.Commit(cctx)
		} else {
			tx.Rollback(cctx)
		}
		op.releaseRow()
	}
	if err != nil {
		if errors.Is(err, ErrFenced) {
			op.fenced.Store(true)
			return nil, err
		}
		return nil, &StoreError{Op: "save step " + name, Err: err}
	}

	op.mu.Lock()
	if op.steps == nil {
		op.steps = make(map[string]json.RawMessage)
	}
	op.steps[name] = raw
	op.mu.Unlock()
	return raw, nil
}

// MarkStarted records that the operation running in ctx has started executing: from now on a 4xx
// it returns is its outcome, stored and replayed, rather than a rejection of the request. Step and
// CurrentTx mark it too, so handlers whose effects are in steps or in the store's transaction need
// not call it. Before it, a 4xx (validation, say) releases the key, as Stripe and the IETF draft
// do for requests rejected before execution: the client may fix its request and keep its key.
// It returns ErrNoOperation outside an operation.
func MarkStarted(ctx context.Context) error {
	p := phaseFrom(ctx)
	if p == nil {
		return ErrNoOperation
	}
	p.op.started.Store(true)
	return nil
}

// CurrentTx returns the store transaction of the phase running in ctx (the current Step, or the
// operation's final phase), beginning it on first use. Business writes made through it commit
// together with the phase's record. Do not commit or roll it back yourself.
//
// It returns ErrNoOperation outside an operation and ErrNotTransactional when the store is not a
// TxStore. Store packages offer typed access (pgstore.Tx).
func CurrentTx(ctx context.Context) (StoreTx, error) {
	p := phaseFrom(ctx)
	if p == nil {
		return nil, ErrNoOperation
	}
	tx, err := p.currentTx(ctx)
	if err == nil {
		p.op.started.Store(true)
	}
	return tx, err
}

// OperationKey returns the scope and key of the operation running in ctx.
func OperationKey(ctx context.Context) (scope, key string, ok bool) {
	p := phaseFrom(ctx)
	if p == nil {
		return "", "", false
	}
	return p.op.lease.Scope, p.op.lease.Key, true
}

// DerivedKey returns the idempotency key for a downstream call made by the operation running in
// ctx: DeriveKey(d, purpose), where d is a digest of the operation's scope and key (32 hex
// characters). Every attempt of the operation derives the same key, and two tenants that chose the
// same key get different derived keys, so a downstream service never confuses them (and never
// learns the tenant). It returns ErrNoOperation outside an operation.
func DerivedKey(ctx context.Context, purpose string) (string, error) {
	scope, key, ok := OperationKey(ctx)
	if !ok {
		return "", ErrNoOperation
	}
	return DeriveKey(scopedKeyDigest(scope, key), purpose), nil
}
