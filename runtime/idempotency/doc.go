// Package idempotency makes non-idempotent operations safe to retry: a client sends the same
// Idempotency-Key with every attempt of one logical operation, and the server applies the effect
// once and returns the same result to every attempt.
//
// # Behaviour
//
//	Situation                                  Response
//	new key                                    process; store the request fingerprint and the final response
//	same key, same payload, completed          replay the stored status, representation headers (Content-Type,
//	                                           Content-Encoding, ..., see DefaultRecordHeaders) and body, byte for
//	                                           byte, with Idempotent-Replayed: true; no side effects
//	same key, same payload, in progress        409 Conflict, Retry-After: 1 (InProgressRetryAfter)
//	same key, different payload                422 Unprocessable Content
//	key required but missing, or malformed     400 Bad Request
//	tenant empty, not text, or too long        400 Bad Request
//	body too large                             413 Content Too Large
//	store unavailable                          503 Service Unavailable; the key is not consumed
//	rejected before execution (a 4xx before    the response, not stored: the client may fix the request and
//	any step or MarkStarted, as validation)    keep its key
//	the client goes away mid-request           the work goes on to its outcome, which is stored for the retry
//
// Error responses are RFC 9457 application/problem+json, with a machine-readable "code" (see
// Problem). Methods are matched without regard to case.
//
// Keys are scoped by a tenant function: a key is only ever looked up within its tenant, so one
// tenant can never replay another's response. The fingerprint (see Fingerprint) is SHA-256 over
// the method, the route and the canonical JSON body (key order and whitespace do not matter).
//
// Only final business outcomes are stored: 2xx, and deterministic 4xx once the work has started
// executing (see DefaultStorable and MarkStarted). A 5xx, a 429, a panic, an error, a rejection
// before execution or a rolled-back transaction releases the key for a clean retry; a 5xx is never
// replayed.
//
// The retry client of runtime/retry/retryhttp speaks the same protocol: it sends one key on every
// attempt, and retries the in-progress 409 (a 409 with Retry-After) until the stored result comes.
//
// # Leases and fencing
//
// A claim on a key is a lease. While the work runs, a heartbeat renews it (Runner.Heartbeat).
// When a worker crashes, its lease ends and the next retry takes the key over and resumes. A
// LocalStore (memstore), whose records die with the process, holds a claim until its work ends
// instead, with no heartbeat. Every
// claim gets a fencing token greater than all before it; a worker whose lease was taken over
// cannot store its result, record a step or release the key (ErrFenced), and with a TxStore its
// business writes roll back. Records expire after a retention window (24 h by default, counted
// from completion when that is later, at least MinRetentionLeases leases); a record whose lease is
// live never expires. Reap, or RunReaper, deletes expired records.
//
// # Multi-step work
//
// Step records the result of each finished step (a recovery point), so that a retry resumes after
// the last finished step instead of repeating it. Downstream calls use DerivedKey(ctx, "charge"),
// the same on every attempt, so that the downstream service deduplicates them too:
//
//	payment, err := idempotency.Step(ctx, "record", func(ctx context.Context) (Payment, error) {
//		return repo.Create(ctx, in) // with pgstore: through pgstore.Tx(ctx), committed with the step
//	})
//	...
//	charge, err := idempotency.Step(ctx, "charge", func(ctx context.Context) (Charge, error) {
//		key, err := idempotency.DerivedKey(ctx, "charge")
//		...
//		return provider.Charge(ctx, key, payment.Amount)
//	})
//
// # Layers
//
// Runner.Do (and Do) is the transport-agnostic core: claim, run, store or release. Middleware
// adapts it to net/http; queue consumers and gRPC handlers call Do with their own key and
// fingerprint. A Store keeps the records: memstore (in memory, one process) and pgstore
// (PostgreSQL, with business writes in the same transaction). Package storetest is the
// conformance suite every store passes.
//
// See README.md in this directory for a guide, the design choices and benchmark numbers.
package idempotency
