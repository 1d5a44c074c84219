package idempotency

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"
)

// Store keeps one record per (scope, key): the request fingerprint, the lease of the worker that
// processes it, the recovery points it has recorded and, once it is done, the final response.
//
// A Store is policy-free: it does what it is told (lease length, retention) and makes every
// transition atomic. All methods must be safe for concurrent use by many processes sharing the
// same backing data. Time comes from the store's own clock (injectable in the provided stores) so
// that the conformance suite in package storetest can test lease and key expiry without sleeping.
//
// Fencing: every successful Claim hands out a token that is greater than any token handed out
// before for that store (tokens are never reused, even after a record is deleted). Extend,
// SaveStep, Complete and Release only act when the record still carries the caller's token and is
// still in progress; otherwise they change nothing and return ErrFenced. A worker whose lease
// expired and was taken over can therefore never overwrite the result of the worker that took over.
type Store interface {
	// Claim takes the key for processing, atomically:
	//   - no record, or an expired one (past its retention window, and not held by a live lease:
	//     a record whose lease is live never expires): a fresh record is created, in progress,
	//     leased for req.Lease, expiring req.Retention after now -> Claimed;
	//   - a record with another fingerprint -> Mismatch;
	//   - a completed record -> Completed, with its Response;
	//   - an in-progress record whose lease is still running -> InProgress, with LockedUntil;
	//   - an in-progress record whose lease has ended (crashed or released worker) -> Claimed with
	//     a new, greater token; the recovery points recorded so far are returned in Steps.
	Claim(ctx context.Context, req ClaimRequest) (Claim, error)

	// Extend moves the end of the lease to now+d (a heartbeat from a live worker).
	Extend(ctx context.Context, lease Lease, d time.Duration) error

	// SaveStep records the result of a finished step of multi-step work (a recovery point). The
	// result is opaque bytes: it comes back exactly as given, whatever it holds.
	SaveStep(ctx context.Context, lease Lease, name string, result json.RawMessage) error

	// Complete stores the final response and marks the record completed. resp stays the
	// caller's: a store copies what it keeps. The response is kept
	// until the record expires, at least its retention window after the completion, and is
	// returned by every later Claim with the same fingerprint. Header values and bodies are bytes:
	// they come back exactly as given.
	Complete(ctx context.Context, lease Lease, resp Response) error

	// Release gives the key up without a result so that a retry starts cleanly: a record with no
	// recovery points is deleted (the key is as good as new); a record with recovery points keeps
	// them, and its fingerprint, with the lease ended, so that the next claim resumes at once.
	Release(ctx context.Context, lease Lease) error

	// Reap deletes the records whose retention window has passed and that no live lease holds,
	// and returns how many it deleted.
	Reap(ctx context.Context) (int, error)
}

// LocalStore is implemented by stores whose records live in this process's memory (memstore).
// Their calls never wait on I/O: Runner does not bound them with StoreTimeout, which saves making
// a context per store call. And a claim cannot outlive its worker (a crash of the process takes
// the store with it): Runner claims their keys for as long as the work runs (ClaimRequest.Lease is
// UntilReleased) and sends no heartbeats, unless renewal is disabled (Runner.Heartbeat < 0), which
// keeps a Lease that lapses.
type LocalStore interface {
	Store
	Local()
}

// UntilReleased is the Lease of a claim held until its worker completes or releases it (see
// LocalStore). A store adds it to the current time without overflowing.
const UntilReleased time.Duration = math.MaxInt64

// TxStore is implemented by stores that keep the idempotency records in the same database as the
// business data (pgstore). Business writes made through the transaction of a phase (see
// CurrentTx) commit or roll back together with that phase's record: a step and its recovery
// point, or the final writes and the stored response.
//
// A phase's transaction holds the key's record from its start to its end: BeginTx locks the
// record first thing, so that nothing changes it under the transaction (its snapshot, under
// REPEATABLE READ or SERIALIZABLE) and no other worker takes the key over meanwhile. Runner
// renews no lease while one of its transactions is open (a renewal would wait for the lock), and
// does not start a step while the final phase's transaction is open (the step's record would
// wait for it).
type TxStore interface {
	Store
	// BeginTx starts a transaction for work on the key that lease holds, and locks its record
	// until the transaction ends; it returns ErrFenced when the lease no longer holds the record.
	// The transaction is not bound to ctx beyond the call.
	BeginTx(ctx context.Context, lease Lease) (StoreTx, error)
}

// StoreTx is a store transaction: SaveStep and Complete as in Store, but taking effect only if
// the transaction commits.
type StoreTx interface {
	SaveStep(ctx context.Context, lease Lease, name string, result json.RawMessage) error
	Complete(ctx context.Context, lease Lease, resp Response) error
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
}

// ClaimRequest asks a Store for a key.
type ClaimRequest struct {
	Scope       string        // the tenant or user the key belongs to; keys never cross scopes
	Key         string        // the client's idempotency key
	Fingerprint string        // what the request asks for (see Fingerprint)
	Lease       time.Duration // how long the claim holds without a heartbeat
	Retention   time.Duration // how long the record is kept after it is created
}

// ClaimStatus is what a Claim found.
type ClaimStatus int

const (
	// Claimed: the caller holds the lease and must process the request.
	Claimed ClaimStatus = iota + 1
	// InProgress: another worker holds a live lease on the key.
	InProgress
	// Completed: the request was processed; Claim.Response is the stored response.
	Completed
	// Mismatch: the key was used for a request with a different fingerprint.
	Mismatch
)

func (s ClaimStatus) String() string {
	switch s {
	case Claimed:
		return "claimed"
	case InProgress:
		return "in progress"
	case Completed:
		return "completed"
	case Mismatch:
		return "mismatch"
	}
	return fmt.Sprintf("ClaimStatus(%d)", int(s))
}

// Claim is the result of Store.Claim.
type Claim struct {
	Status ClaimStatus
	// Lease identifies the claim (Claimed only).
	Lease Lease
	// Steps holds the recovery points recorded by earlier attempts (Claimed only; may be nil).
	Steps map[string]json.RawMessage
	// Response is the stored response (Completed only).
	Response *Response
	// LockedUntil is when the current lease ends (InProgress only).
	LockedUntil time.Time
}

// Lease identifies one worker's claim on a key. Token is the fencing token.
type Lease struct {
	Scope string
	Key   string
	Token int64
}

// Response is the outcome of an operation. It uses HTTP semantics for Status (2xx: success,
// 4xx: the request itself is at fault); transports other than HTTP map their outcomes onto it.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Clone returns a deep copy of r.
func (r Response) Clone() Response {
	c := Response{Status: r.Status, Header: r.Header.Clone()}
	if r.Body != nil {
		c.Body = append([]byte{}, r.Body...)
	}
	return c
}

var (
	// ErrInProgress: another worker holds a live lease on the key (HTTP 409). Errors returned by
	// Do for this case are *InProgressError.
	ErrInProgress = errors.New("idempotency: a request with this key is already in progress")
	// ErrMismatch: the key was used before for a different request (HTTP 422).
	ErrMismatch = errors.New("idempotency: the key was already used for a different request")
	// ErrFenced: the caller's lease was taken over by another worker (its fencing token is stale,
	// or the record is gone or completed); nothing was changed.
	ErrFenced = errors.New("idempotency: lease lost: another worker took over this key")
	// ErrStoreUnavailable: the store could not be reached or failed (HTTP 503). Errors returned by
	// Do for this case are *StoreError.
	ErrStoreUnavailable = errors.New("idempotency: store unavailable")
	// ErrNoOperation: the context does not belong to an operation run by Do.
	ErrNoOperation = errors.New("idempotency: no idempotent operation in this context")
	// ErrNotTransactional: the operation's store does not implement TxStore.
	ErrNotTransactional = errors.New("idempotency: the store does not support transactions")
	// ErrStepAfterFinalTx: a Step was started after the operation's final phase began its
	// transaction, which holds the key's record until the operation ends (see TxStore), so that
	// the step's recovery point could not be written. Begin the final phase's transaction after
	// the last step.
	ErrStepAfterFinalTx = errors.New("idempotency: a step cannot start once the final phase holds its transaction: begin that transaction after the last step")
)

// ErrResponseTooLarge: the response is larger than Runner.MaxResponseBytes, or than the store can
// hold. It was not stored and the key was released (a final phase's transaction rolled back).
// Errors returned by Do for this case are *ResponseTooLargeError, or wrap a store's error.
var ErrResponseTooLarge = errors.New("idempotency: the response is too large to store")

// ResponseTooLargeError is returned by Do when the response is larger than Runner.MaxResponseBytes.
type ResponseTooLargeError struct {
	Size  int64 // the response's bytes (body and recorded header), or as many as were buffered
	Limit int64 // Runner.MaxResponseBytes
}

func (e *ResponseTooLargeError) Error() string {
	return fmt.Sprintf("idempotency: the response (%d bytes or more) is larger than MaxResponseBytes (%d): it was not stored, and the key was released", e.Size, e.Limit)
}

func (e *ResponseTooLargeError) Is(target error) bool { return target == ErrResponseTooLarge }

// InProgressError is returned by Do when another worker holds the key.
type InProgressError struct {
	// RetryAfter is how long to wait before retrying with the same key: InProgressRetryAfter.
	RetryAfter time.Duration
	// LockedUntil is when the other worker's lease ends unless it is renewed: a crashed worker's
	// key may be taken over then. (For a LocalStore, whose claims are held until their work ends,
	// it is the latest time there is.)
	LockedUntil time.Time
}

func (e *InProgressError) Error() string        { return ErrInProgress.Error() }
func (e *InProgressError) Is(target error) bool { return target == ErrInProgress }

// StoreError is returned by Do when the store failed; Op names the store call.
type StoreError struct {
	Op  string
	Err error
}

func (e *StoreError) Error() string        { return fmt.Sprintf("idempotency: store %s: %v", e.Op, e.Err) }
func (e *StoreError) Unwrap() error        { return e.Err }
func (e *StoreError) Is(target error) bool { return target == ErrStoreUnavailable }
