// Package bench measures the runtime against the libraries that services use today, side by
// side, in one run:
//
//   - retry loops: runtime/retry.Do against cenkalti/backoff v5, avast/retry-go v4,
//     sethvargo/go-retry, failsafe-go and aws-sdk-go-v2's standard retryer (success, success on
//     the third attempt, success under a 3 s overall bound);
//
//   - retrying HTTP clients: runtime/retry/retryhttp.Transport against go-retryablehttp and
//     failsafe-go's failsafehttp, as RoundTrippers over an in-memory transport;
//
//   - the idempotency middleware on the memory store against the bare handler it wraps.
//
//     cd bench && go test -run '^$' -bench . -benchmem -count 6 | tee new.txt && benchstat new.txt
//
// Besides ns/op, each benchmark reports cpu-ns/op, the process's CPU time per operation: on a
// shared machine it varies much less than wall time. It is a module of its own so that the main
// module never depends on those libraries.
package bench
