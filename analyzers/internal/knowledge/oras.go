package knowledge

// oras-go v2: an http.Client made by retry.NewClient, retry.DefaultClient, or one whose
// Transport is a retry.Transport retries a request up to 5 times (DefaultPolicy: 6 attempts)
// with jittered exponential backoff.
var ORASTransport = &Library{
	Name:     "net/http over oras-go retry.Transport",
	Paths:    []string{"net/http"},
	Clients:  []Entry{{Recv: "Client", Names: []string{"Do", "Get", "Head", "Post", "PostForm"}, Config: []int{-1}, Ctx: -1}},
	Defaults: Summary{*AtMost(6), WaitJittered, DeadlineUnknown},
}

const ORASRetryPath = "oras.land/oras-go/v2/registry/remote/retry"
