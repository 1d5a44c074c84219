package knowledge

const RetryableHTTPPath = "github.com/hashicorp/go-retryablehttp"

// hashicorp/go-retryablehttp: a Client retries requests (POST included) up to RetryMax
// retries (default 4: 5 attempts) with DefaultBackoff, exponential without jitter;
// LinearJitterBackoff jitters. The package's Get/Post/... use a default client.
var RetryableHTTP = &Library{
	CapHint: "set RetryMax", DeadlineHint: "use NewRequestWithContext(%s, ...)",
	Name:  "hashicorp/go-retryablehttp",
	Paths: []string{RetryableHTTPPath},
	Clients: []Entry{
		{Recv: "Client", Names: []string{"Do", "Get", "Head", "Post", "PostForm"}, Config: []int{-1}, Ctx: -1},
		{Recv: "", Names: []string{"Get", "Head", "Post", "PostForm"}, Ctx: -1},
	},
	Defaults: Summary{*AtMost(5), WaitBackoff, DeadlineUnknown},
	Settings: retryableHTTPSettings,
	Made:     []string{"NewClient", "Client{}"},
}

var retryableHTTPSettings = map[string]Option{
	"NewClient":         {Layer: 0}, // where the client is made
	"Client{}":          {Layer: 0},
	"Client.RetryMax":   {Layer: 1, Attempts: AttemptsOf(1).NegativeMeans(Once)},
	"Client.CheckRetry": {Layer: 1}, // which failures it retries (see Resends)
	// A literal's zero RetryWaitMin and RetryWaitMax make the library's backoffs wait 0
	// (but for a Retry-After), and its zero RetryMax sends once (retryscope's hook).
	"Client.RetryWaitMin": {Layer: 1},
	"Client.RetryWaitMax": {Layer: 1},
	"Client.Backoff": {Layer: 1, WaitBy: map[string]WaitKind{
		"LinearJitterBackoff": WaitJittered, "RateLimitLinearJitterBackoff": WaitJittered, "DefaultBackoff": WaitBackoff,
	}, Jitter: &JitterFix{Kind: FixValue, Text: "{pkg}.LinearJitterBackoff", LibraryValue: true}},
}

// An *http.Client made by retryablehttp's StandardClient retries in its transport, as the
// retryablehttp client it was made from.
var RetryableHTTPStandard = &Library{
	Name:     "net/http over go-retryablehttp",
	Paths:    []string{"net/http"},
	Clients:  []Entry{{Recv: "Client", Names: []string{"Do", "Get", "Head", "Post", "PostForm"}, Config: []int{-1}, Ctx: -1}},
	Defaults: Summary{*AtMost(5), WaitBackoff, DeadlineUnknown},
}
