package knowledge

// Google Cloud Storage: idempotent operations are retried with jittered backoff until the
// context ends; Retryer(WithMaxAttempts(n)) caps them. An object's upload (NewWriter), Delete
// and Update are idempotent, and retried by the default policy, only under preconditions
// (If, Generation) on the handle; Retryer(WithPolicy(RetryAlways)) retries them regardless.
var CloudStorage = &Library{
	Name:     "cloud.google.com/go/storage",
	Paths:    []string{"cloud.google.com/go/storage"},
	Clients:  []Entry{{Recv: "ObjectHandle", Config: []int{-1}, Ctx: 0}, {Recv: "BucketHandle", Config: []int{-1}, Ctx: 0}},
	Defaults: Summary{Bound{Kind: BoundNone}, WaitJittered, DeadlineNone},
	Settings: map[string]Option{"WithMaxAttempts": {Layer: 1, Arg: 0, Attempts: AttemptsOf(0)}},
}
