// Package keys is idemlint's shared model of idempotency keys: which calls make a fresh
// unique value (a generator), which places carry an idempotency key to a server (a sink), and
// how values flow from one to the other through SSA. keyinloop and unkeyedretry consult it.
//
// # Analyzer keys
//
// keys: find idempotency-key generators and sinks, and the flows between them
//
// Generators: google/uuid New, NewString, NewRandom, NewV7 and NewUUID; gofrs/uuid and
// satori/go.uuid NewV1/NewV4/NewV6/NewV7; rs/xid; segmentio/ksuid; oklog/ulid; crypto/rand
// Text and Int; math/rand and math/rand/v2; time.Now; calls that fill a buffer with random
// bytes (crypto/rand.Read, io.ReadFull or io.ReadAtLeast of rand.Reader, rand.Reader.Read,
// math/rand's Read and (*Rand).Read, math/rand/v2's (*ChaCha8).Read), whose fresh value is
// the buffer (an array sliced with raw[:] counts as a whole);
// this project's runtime key constructor; any function given with -keys.generators; and any
// function of the analysed code that returns a value made by a generator (inferred, and
// exported as a fact).
//
// Sinks, matched by name with case and punctuation ignored (Idempotency-Key, idempotency_key
// and IdempotencyKey are one name): an HTTP header set with Header.Set/Add, a header map
// write, resty's SetHeader; a query parameter set by name (SetParam, SetQueryParam,
// WithQueryParam, as cloud SDKs send ?clientToken=); a struct field (by field name or json tag), a map key, gRPC
// metadata (metadata.Pairs, AppendToOutgoingContext, MD.Set/Append); setters and options such
// as stripe-go's Params.SetIdempotencyKey or WithIdempotencyKey. The names are
// idempotency-key, x-idempotency-key, idempotency-token, client-token,
// client-request-token and Standard Webhooks' webhook-id (svix-id, X-Webhook-Id), a vendor's
// prefixed form of the first and third (K6-Idempotency-Key, Acme-Idempotency-Token), plus those
// given with -keys.names. Per-attempt values sent to other
// names (X-Request-ID, trace headers) are not sinks, nor are headers and query parameters of a
// request built with a read method (GET, HEAD, OPTIONS: net/http's NewRequest with that
// constant, a builder given it by WithMethod or SetMethod), which has no effect to repeat.
//
// Flow: a value reaches a sink through conversions, formatting and other calls (a call's result
// is derived from its arguments; copy and the hex, base64 and base32 Encode functions write
// it into their destination buffer), concatenation, local variables, struct fields (field by
// field), slices, maps, closures, and the parameters of functions that send them to a sink
// (inferred, and exported as a fact). A function that makes a key and sends it on
// every call, without first checking for an existing one, gets a MintsFact.
//
// Filling in a missing key: a generator that runs only when the key's own destination is empty
// makes the key once. The test must read the place the value is kept: the variable it is
// assigned to (a phi merging it with the variable's old value), the struct field it is stored
// into (or the pointer to it, compared with nil), the header or metadata entry it is set under
// (read back with Get or Values, or looked up in the map, also as the ok of a comma-ok
// lookup), or the field a setter fills; len(...) == 0 of those counts too. Places are compared
// by structure (root value, fields, loads, entry name), not by instruction. A test of anything
// else, an error, a response, another header, field or variable, guards nothing about the key.
//
// The -keys.report flag reports every generator call with where its value goes, which is how
// the model is tested.
package keys
