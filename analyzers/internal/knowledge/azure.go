package knowledge

// Azure SDK for Go: every client's pipeline retries a request up to Retry.MaxRetries times (3
// by default: 4 attempts; -1: none) with jittered exponential backoff, bounded by the
// request's context. The options are given to the client's constructor.
var Azure = &Library{
	Name:     "Azure SDK for Go clients",
	Paths:    []string{"github.com/Azure/azure-sdk-for-go/sdk/"},
	Prefix:   true,
	Clients:  []Entry{{Recv: "*", Config: []int{-1}, Ctx: 0}},
	Defaults: Summary{*AtMost(4), WaitJittered, DeadlineNone},
	Settings: map[string]Option{
		"RetryOptions.MaxRetries": {Layer: 1, Attempts: AttemptsOf(1).ZeroMeans(AtMost(4)).NegativeMeans(Once)},
	},
}

// AzureRetryingLinks are the azservicebus types, made by a Client, whose calls retry under
// the Client's RetryOptions too.
var AzureRetryingLinks = map[string]bool{"Sender": true, "Receiver": true, "SessionReceiver": true}
