// Package keyheader names the request headers that carry an idempotency key: one definition for
// the client (runtime/retry, runtime/retry/retryhttp) and the server (runtime/idempotency).
package keyheader

const (
	// Name is the header of the IETF Idempotency-Key draft: the one the client sends.
	Name = "Idempotency-Key"
	// Alt is the older spelling that net/http's transport also honours. A request that carries
	// it is keyed: the client adds no key of its own, and the server reads it.
	Alt = "X-Idempotency-Key"
)
