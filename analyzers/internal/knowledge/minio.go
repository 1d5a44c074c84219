package knowledge

// minio-go v7: every request of a Client is attempted up to MaxRetry (10) times, with
// jittered backoff, bounded by the request's context.
var Minio = &Library{
	Name:     "minio/minio-go",
	Paths:    Versions("github.com/minio/minio-go", 6, 7),
	Clients:  []Entry{{Recv: "Client", Ctx: 0}},
	Defaults: Summary{*AtMost(10), WaitJittered, DeadlineNone},
}
