// Package retryscope is idemlint's shared model of retry: it finds the code of a package that
// runs once per attempt of one logical operation, summarises each such retry scope, and
// exports what importing packages need to know as facts. The checks (keyinloop, nojitter,
// nestedretry, unkeyedretry) never look for retries themselves; they ask this analyzer.
//
// # Analyzer retryscope
//
// retryscope: find retry scopes and summarise them for idemlint's checks
//
// A retry scope is one of:
//
//   - a hand-written loop (for with three clauses, for cond, for {}, range over an integer)
//     that tests the outcome of a call (its error against nil, or an *http.Response's
//     StatusCode), leaves the loop on success and goes round on failure;
//   - a "label: ... goto label" loop that does the same;
//   - a function that calls itself again after a failure;
//   - a function value passed to a retry helper: avast/retry-go, cenkalti/backoff v4 and v5,
//     sethvargo/go-retry, Kubernetes retry.RetryOnConflict, retry.OnError and
//     wait.ExponentialBackoff*, failsafe-go with a retry policy, gax-go Invoke, and this
//     project's runtime/retry; or to an in-house helper that the model infers;
//   - a call through a client that retries on its own: hashicorp/go-retryablehttp (and an
//     *http.Client from its StandardClient), resty with a retry count, AWS SDK for Go v2
//     service clients.
//
// Iteration is not retry: a range over a slice, map, channel or function, or a counted loop
// that indexes a collection with its counter, does one operation per element; a loop that
// never leaves on success (a ticker loop doing periodic work, a server's accept loop) does
// not retry either.
//
// Each scope is summarised: the bound on attempts (a constant, a run-time value, or none), the
// wait between attempts (none, fixed, growing, jittered), whether it observes an overall
// deadline (a context it checks or passes on, an elapsed-time check, a maximum duration), the
// call that decides whether to go round, and the calls it repeats.
//
// In-house helpers are inferred: a function that calls a func-typed parameter inside its own
// retry scope, or hands it to another helper, is a helper for that parameter. It gets a
// HelperFact, so calls to it in other packages are scopes too. Every function that retries,
// directly or through its callees, gets a RetriesFact.
//
// To teach the model a library, add an entry to the helper or client table in known.go; to
// name an in-house helper the model cannot infer, use
//
//	-retryscope.helpers=example.com/pkg.Retry:0,example.com/pkg.Client.Do:1
//
// where the number is the index of the retried function among the arguments. The
// -retryscope.report flag reports every scope found, which is how the model is tested.
package retryscope
