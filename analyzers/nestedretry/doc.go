// Package nestedretry defines an analyzer that reports a retry layer around another one.
//
// # Analyzer nestedretry
//
// nestedretry: report a retry layer wrapped around another retry layer
//
// Attempts multiply across layers: three layers of three attempts make 27 calls to a
// dependency that is already struggling, and the layers' waits and deadlines stop meaning
// what each was written to mean. Retry at one layer.
//
// It reports a retry scope (see the retryscope analyzer) that reaches another retry layer:
//
//   - directly: a retry loop or a library retry inside another one's body, or a call of a
//     self-retrying client there (go-retryablehttp, resty with a retry count, AWS SDK for Go
//     v2 service clients, stripe-go, minio-go, Cloud Storage, Azure SDK clients, an
//     http.Client over retryablehttp's, oras-go's or this project's transport, a gRPC stub
//     over a connection whose go-grpc-middleware retry interceptor has WithMax above one). Cloud
//     Storage retries an object's upload, Delete or Update only when it is idempotent: under
//     a precondition (If, Generation) on the handle, or with a RetryAlways policy; without
//     one it sends them once, and is no inner layer;
//   - through the functions it calls, in this package or, through a fact on the function
//     ("retries internally, up to N attempts"), in another: a client package that retries
//     inside, wrapped in another retry by the service that uses it;
//   - through an interface, where the program wires the layers together: a package retries
//     the calls of a value handed in (a driver, a storage client: an interface not of the
//     standard library, or an http.RoundTripper) and another hands it one whose method
//     retries on its own. Reported at the call or store that hands the value over
//     (portable.NewTopic(&topic{...}), r.Client = s3Client), in the package that sees the
//     concrete type; not when the value's verdict method (IsRetryable) always says no, or
//     accepts none of the failures its own layer retries. The value is followed to each
//     concrete type a function of the package may return for it (the store, or a read-only
//     view of it), and through a layer of another package that forwards each method to an
//     implementation it holds in a field its constructor fills (sharded.New(&davImpl{...})
//     inside the value: davImpl's method is the inner layer).
//
// The finding is at the call or statement that enters the inner layer, with the outer scope
// and, in this package, the inner one as related positions. The message names the inner layer
// and, when both counts are known, the amplification, and the failures that multiply when
// they are not all: "retries up to 4 times around Upload, which retries up to 5 times: up to
// 20 calls per request on transient failures; keep one layer".
//
// Attempts multiply only for the failures both layers retry (retryscope's RetriesOn and
// RetrySet): an outer loop that goes round on a 404 ("not there yet") or on its own error
// ("lock held") around a layer that retries transport errors, 5xx and 429 sends one call per
// round for that answer, and is not reported (so is one that goes round only on an
// aws-sdk-go-v2 modeled client fault, ResourceNotFoundException, which the SDK's retryer
// never retries: knowledge.UnretriedAPIError, or one whose code a predicate compares as
// text, apiErr.ErrorCode() == "ResourceInUseException"); nor is an inner helper that goes
// round only on the program's error variables its predicate names (ErrNotFound, while a
// listing catches up) under an outer layer whose predicate turns each of them down, nor two
// layers that each go round only on errors they name, by variable or by a phrase of the
// error's text, when no name of one is a name of the other (an outer build retry on errors
// whose text says "inconsistent graph state", around a driver that connects again only on its
// ErrNotRunning, made by errors.New("driver not running"): the phrase is looked for in the
// variable's message; a variable whose message is not known meets every name). The
// outer loop's tests of the answer on its way round count together (if resp != nil &&
// resp.StatusCode >= 400 && resp.StatusCode <= 499 { return }: it goes round on transport
// failures and 5xx, not on the 401 a client under it retries). A layer retries only where
// the program's configuration lets it: an inner function whose attempts come from a setting that defaults to
// zero (its package never stores a non-zero constant there) counts only in a package that sets
// it, or calls the option that does. Retries of local work (a lock file) are no layer, nor
// are retries behind a function that logs their failure and returns none (a zone transfer that
// notifies its followers after it succeeded, each notice retried three times, and only logs a
// failed notice): the outer layer never goes round on that failure. Nor is a loop nested in
// the outer one's body that comes back to it only once its call succeeded (a reconnect loop
// that returns when it gives up, and breaks out when it reconnected): the outer loop resumes
// after it, it never retries its failure. An inner layer without an attempt cap (Cloud
// Storage's retries, which go on until the context ends; a loop of the package that never
// gives up) returns a failure it retries only when its context ends, after which the outer
// layer's next attempts with the same context fail at once: it is reported only when each
// outer attempt gets a context of its own with a deadline (context.WithTimeout in the loop or
// in the callback), which ends the inner retries and starts them again.
//
// The retries inside gRPC (transparent ones, of a call the server never saw, and those of a
// service config's retry policy, which is off unless set) and inside the Google API client
// (each chunk of a resumable upload of large media) are no layer: a stub's or a generated
// call's Do is one attempt.
//
// Not reported: an inner layer that is switched off (one attempt: RetryMax 0,
// Attempts(1), aws.NopRetryer, or a constant argument whose test on every way round leaves
// the callee's loop: reconnect(ctx, true) where single ends it), or that the program switches off on some path (if ownBackoff {
// c.RetryMax = 0 } else { c.RetryMax = n }): it ties the layers to its configuration, which
// the model does not follow; a loop that iterates rather than retries (a worker handling
// one job per turn, a paginator); a library callback and the library's own loop, which are
// one layer; two retry scopes one after the other; a poll that waits for a state around a
// call that retries its failures; an inner walk over targets that tries each pooled
// connection or backend once (it closes or marks the one that failed); a loop that leaves when the retrying call fails and goes
// round for another reason (a long poll reconnecting when its stream ends); a framework's
// own delivery loop as the inner layer (Pub/Sub's Receive reconnecting its stream); tests and
// test-support packages, which retry on purpose while they wait for what they start.
//
// There is no automatic fix: which layer to keep is a design choice.
package nestedretry
