package knowledge

// stripe-go: every call that sends a *Params request goes through the backend, which retries
// network errors and 409/429/5xx MaxNetworkRetries times: 2 by default since v71 (3
// attempts), none before. It adds an idempotency key to the POSTs it retries.
var Stripe = &Library{
	Name:     "stripe/stripe-go",
	Paths:    []string{"github.com/stripe/stripe-go"},
	Prefix:   true,
	Clients:  []Entry{{Recv: "*", Ctx: -1}},
	Defaults: Summary{*AtMost(3), WaitJittered, DeadlineUnknown},
}
