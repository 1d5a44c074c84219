// Package keyinloop defines an analyzer that reports idempotency keys made inside a retry
// scope.
//
// # Analyzer keyinloop
//
// keyinloop: report idempotency keys created inside a retry loop or retry callback
//
// A client that retries must send the same idempotency key on every attempt: the key names
// one logical operation, and the server applies the operation once per key. A key made
// inside the retry loop, or inside the function a retry helper calls, is new on every
// attempt, so the server sees unrelated requests and cannot deduplicate them:
//
//	for attempt := 0; attempt < 3; attempt++ {
//		req.Header.Set("Idempotency-Key", uuid.NewString()) // new key per attempt
//		resp, err := client.Do(req)
//		...
//	}
//
// The analyzer reports a call that makes a fresh unique value (google/uuid, gofrs/uuid, xid,
// ksuid, ulid, crypto/rand, math/rand, time.Now, or a function wrapping one) inside a retry
// scope (see the retryscope analyzer) when that value flows, through conversions, formatting,
// concatenation, variables, struct fields or maps, into an idempotency sink: an
// Idempotency-Key header, a struct field or JSON key named like an idempotency key or client
// token, gRPC metadata, or a setter such as stripe-go's SetIdempotencyKey (see the keys
// analyzer for the lists and the flags that extend them). It also reports a call, inside a
// retry scope, of a function that makes and sends a new key on every call.
//
// It does not report keys made before the scope, keys derived from values that do not change
// between attempts (a hash of an order id), keys made only when their own destination is
// still empty (if key == "" { key = uuid.NewString() }, if req.Header.Get("Idempotency-Key")
// == "", if p.IdempotencyKey == nil), or per-attempt values sent under other names
// (X-Request-ID, trace headers). A test of anything else, such as the err != nil check after
// building the request, does not make a key once: such keys are reported.
//
// The suggested fix moves the statement that makes the key to just before the retry scope,
// or, when the key is made inline, creates it in a new variable there; it is offered only
// when everything the statement uses is available before the scope:
//
//	key := uuid.NewString()
//	for attempt := 0; attempt < 3; attempt++ {
//		req.Header.Set("Idempotency-Key", key)
//		...
//	}
//
// A scope that a framework runs again (a Temporal or Cadence activity, the handler of a
// message that a broker delivers again, a Kubernetes reconciler, see retryscope) has no
// statement before its first run. There the fix derives the key from what stays the same
// across runs, where a variable holding it is in view: the identity and the key's purpose,
//
//	req.Header.Set("Idempotency-Key",
//		activity.GetInfo(ctx).WorkflowExecution.ID+"/"+activity.GetInfo(ctx).ActivityID+":ChargeCard")
//
// which is the value this project's idempotency.DeriveKey(identity, "ChargeCard") returns;
// the fix writes that call where the module already requires the runtime.
//
// from the message ID for Pub/Sub and SQS, the topic, partition and offset for Kafka, the
// task ID for asynq, the UID and generation of the object a reconciler fetched. Where none
// can be written (a JetStream sequence, a RabbitMQ message ID the publisher may leave empty,
// a context the code has replaced), the message says what to derive the key from. A key that
// an activity only returns to its workflow (which records it once) is not reported. A
// function of another package that makes and sends a new key on every call is reported
// where this package registers it with a framework. Test code (_test.go files, test-support
// packages), which asks again with a new key on purpose, is not checked, as nojitter and
// nestedretry do not check it.
package keyinloop
