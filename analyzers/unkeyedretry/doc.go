// Package unkeyedretry defines an analyzer that reports non-idempotent requests retried
// without an idempotency key.
//
// # Analyzer unkeyedretry
//
// unkeyedretry: report a POST or PATCH retried without an idempotency key
//
// A client that times out does not know whether its request took effect. A POST that charged
// the card before the connection dropped charges it again when it is retried, unless it
// carries an idempotency key that the server deduplicates on:
//
//	for attempt := 0; attempt < 3; attempt++ {
//		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/charges", body)
//		...
//		resp, err := client.Do(req) // a timeout here may hide a charge that happened
//		...
//	}
//
// The analyzer reports a retry scope (see the retryscope analyzer: hand-written loops, goto
// loops, retrying recursion, retry-library callbacks, ranges over retry iterators,
// self-retrying clients, and functions a framework runs again when they fail: Temporal and
// Cadence activities, handlers of redelivered messages) that repeats a non-idempotent request
// without an idempotency key:
//
//   - an HTTP POST or PATCH sent with net/http, go-retryablehttp or resty, the method known
//     from the function called (http.Post, Client.PostForm, resty's Request.Post) or from the
//     constant, or variable holding one, that the request is made with (http.NewRequest*,
//     retryablehttp.NewRequest*), also through the package's helpers (a NewRequest(ctx,
//     method, path, body) that makes the request, itself, in its retry callback or through
//     the package's function that builds it (req, err := c.newRequest(method, path, body)), a
//     request(ctx, method, path, body) that
//     hands the method it is given on to one, from its retry callback too, a
//     DoWithContext(ctx, req, out) that sends the request it is given); go-retryablehttp
//     clients and resty v2 clients with a retry
//     count retry such requests themselves (not when every retry condition they are given,
//     CheckRetry or resty's AddRetryCondition, holds only for a 429 or an answer that
//     turned the request away: resty's conditions replace its retry of a failed transport), also those sent by another package's function the
//     client is handed to (api.CallCreateSecret(c.http, req), its sends known by a fact). Requests that helpers of the package hand to one
//     such client are one cause: reported once, at the client's call, with each request as a
//     related position. A helper that decides by the request's method (compares it, looks it
//     up, asks a predicate: it may retry only GET and PUT) is not such a cause; one that
//     only logs it is. Likewise the methods that each send through one retrying client the
//     package keeps in a field or a package variable, or hands to such functions (an
//     interface field filled with a StandardClient, a seam for tests, counts as its one
//     concrete type): reported once,
//     where the client is made, the requests related. A client made anew by each function
//     is reported at each call, where the key belongs. Likewise the requests that the
//     package's calls hand, in their callbacks, to one retry helper of its own (a generated
//     SDK's doWithRetries(func() (*Response, error) { return POST(c, path, body) }, backoff)
//     at every operation): reported once, at the helper's retry loop, which retries whatever
//     its callers send; a helper called once is reported at that call;
//   - a POST or PATCH handed to another package's function that resends the request it is
//     handed in a retry scope of its own (a generated client's CallAPI(req), its request made
//     by that package's PrepareRequest(ctx, path, method, ...)): reported once per such
//     function, at the first request this package hands it, the others related;
//   - the RoundTrip of an http.RoundTripper whose retry scope resends the request it is given,
//     without looking at an idempotency key header (req.Header.Get("Idempotency-Key")), and
//     either without looking at the method or with tests of the method that let a POST go
//     round (idempotent := isIdempotent(req.Method) || req.GetBody != nil, then go round
//     while idempotent: each branch on the method is followed the way a POST takes it,
//     through comparisons with constants and the package's predicates; a test the walk
//     cannot evaluate, such as slices.Contains(list, req.Method), counts as holding the POST
//     back): the package's http.Client sends its POSTs through it, from callers the analysis
//     cannot see. Reported once, at the scope. net/http's own transport resends only requests
//     that are idempotent by method or carry a key;
//   - a gRPC method named with -unkeyedretry.grpc=pkg.Service/Method (the package optional,
//     the method * for all), matched against the generated stub's FullMethodName constant, or
//     its client type and method, or the method string of ClientConn.Invoke;
//   - a call of a function or method named with -unkeyedretry.funcs=pkg/path.Func or
//     pkg/path.Type.Method (a queue publish, an SDK call that creates something);
//   - a call of a function that sends such a request itself, unkeyed, with nothing retrying it
//     inside (in this package, or in another through a fact), also through an interface the
//     package declares (r.Caller.Call(ctx, url, body)) when one of the package's
//     implementations of it sends one and none sends a request that changes nothing.
//
// A scope that resends several such requests is one finding, at the first, with the others as
// related positions ("also resends a POST request without a key").
//
// A failover that sends the same request to the next peer of a list when one fails (a
// replicated store's client walking its nodes) is a retry scope too: a write the first node
// applied, whose answer was lost, is applied again by the next; unless it goes round only on
// answers that say the request was never processed (a 404 from an older API version).
//
// A request is keyed when an idempotency sink of the keys analyzer is set on it, on its body or
// on its context: a header such as Idempotency-Key, a struct field or JSON key named like one,
// gRPC metadata, a setter such as SetIdempotencyKey, or a function that sends one of its
// parameters or a key it makes, or a request helper that makes one when the caller gives
// none, on every call whose arguments pass its other tests (if method == http.MethodPost &&
// key == ""). A key made inside the scope is keyinloop's finding, not this
// one's: such a request is keyed here. A request handed to a function value (a hook or option
// the caller configured) may be keyed there, and is not judged.
//
// Not reported:
//
//   - code written for tests: _test.go files and test-support packages (rpctest in rpc/test,
//     testutil), which retry on purpose;
//   - GET, HEAD, PUT, DELETE and OPTIONS requests, and requests whose method is not known;
//   - a POST that asks rather than acts, its path ending in a segment that names a read
//     (base + "/v1/orders/search", "/check", "/validate", "/estimate", "/read", a verb and
//     its object such as "/list-objects", Elasticsearch's "/_count"; also when a generated
//     client fills in a path template with strings.Replace and parses it with url.Parse): the
//     body carries a question too large or too private for a URL; and a POST
//     the team marks as a read with -unkeyedretry.reads, by URL path pattern (/v1/flags,
//     /v1/*/evaluate) or by the function that sends it (pkg/path.Type.Method). The model does
//     not guess a read from how the response is used: a create's answer is decoded and read
//     like a query's, so only the path's words or the team can say a POST asks;
//   - a POST that a loop sends again after it was answered: a wait on the way round is
//     reached once the call returned no error (a status poll that also asks again on a
//     "result unclear" error), so the program itself repeats it as one repeats a query; only
//     for a call whose error is its whole verdict (an SDK method), not one that returns an
//     HTTP response, which succeeds with a 5xx too;
//   - an OAuth 2.0 token request (a form body with grant_type, RFC 6749, or a token exchange,
//     RFC 8693; the form may be built by a function of the package, or given to resty's
//     SetFormData or SetBody as a map, or marshalled from a struct with a field tagged
//     json:"grant_type", or "grantType" as some providers spell it; every request of
//     golang.org/x/oauth2, whose callers fill its form): a repeat mints another token and
//     changes nothing else;
//   - a call of a function of the package that sends its POST only on one side of a test of a
//     bool parameter, with the constant that takes the other side (newRequest calling
//     newRawRequest(api, false, params), which sends a GET unless post is true);
//   - a sign-in: a POST whose answer the package sends as a credential of its later requests
//     (the function that sends it decodes the answer into a value whose field, or a field
//     the function stores it in, is loaded on the way to a header the package sets, such
//     as Authorization or a vendor's auth-token, or to SetBasicAuth): a repeat mints another
//     session and changes nothing else. Headers that describe the content or make a request
//     conditional (If-Match with a version a create answered) carry no credential;
//   - a POST whose body is a GraphQL query document that names no mutation
//     ({"query":"query { ... }"}): it reads;
//   - a POST to a resource it names by an identifier that is the same on every attempt
//     (base + "/v1/payments/" + id + "/capture"): a state transition the server can apply
//     once, not a create (a PATCH is reported all the same). The identifier follows a
//     collection segment, and what comes after it names parts of that resource or an action,
//     never a collection (/machines/{id}/metadata/role, not /zones/{id}/records/bulk); the
//     path may be built by concatenation, fmt.Sprintf, path.Join, url.JoinPath or a url.URL's
//     Path, in the function that sends or spread over request helpers that each add a part
//     (sendMachines(app, "/"+id+"/lease") adding "/apps/"+app+"/machines"), a query left out;
//     a function of the package that sends such requests counts when each unkeyed POST it
//     sends is one, its identifier the caller's argument or something it reads, not a value
//     made up on every call (here or by the caller, in the scope);
//   - a create whose 409 Conflict answer the function that sends it takes as done: a test
//     singles out 409, of the response's status or of a status field of the type its error
//     was asserted to (if e, ok := err.(DriveError); ok && e.Status == 409 { return nil }),
//     and every return on that side hands back a nil error; or, when that function hands the
//     request's error back unchanged, every call of it in the package does so (a client's
//     CreateFolder whose callers take a 409 as "it exists"). The server refuses a second copy
//     of what the request makes (a folder of that name), so a repeat makes nothing; a 409
//     turned into an error of its own is no such answer;
//   - a request sent only where the server refused the credentials (every way to it takes
//     the 401 or 403 side of a test of a response's status): it logs in again (a new ticket
//     or token) before the refused request goes once more, and a loop around the function
//     that does it repeats the refused request, not the login;
//   - requests sent outside every retry scope, and a self-retrying client's calls in its own
//     package (retryablehttp's Post calling its Do: its callers decide);
//   - a scope whose way back to the next attempt, from the request, goes only through the side
//     of a test that holds only for errors proving the request never left the process, or
//     for the server turning it away unprocessed: resp.StatusCode == 429, 401 or 403,
//     errors.Is(err, syscall.ECONNREFUSED) (or ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL,
//     EHOSTDOWN), errors.As(err, &dnsErr) with a *net.DNSError, errors.As with an SDK's
//     rate-limit error (go-github's *RateLimitError, *AbuseRateLimitError), opErr.Op == "dial" of a
//     *net.OpError, this project's retry.IsRetryable, their combinations, and functions that
//     return only such tests (where they are handed the request's method, their returns for
//     a method other than POST and PATCH do not count: shouldRetry(resp, req.Method)
//     that retries a GET on 5xx and anything else on 429 holds a POST back); likewise retry-go's RetryIf, go-retryablehttp's CheckRetry and
//     the runtime's Policy.Classify when they are such tests. A test of the response for nil
//     (resp != nil && resp.StatusCode() != 429) takes only its non-nil side where the code
//     above used the response on every way there (resp.IsError()), or where the response is
//     resty's, which a request hands back even when it failed (status 0);
//   - a call that hands a function a value for a parameter the function names as an
//     idempotency key (SendWebhook(ctx, url, body, header, idempotencyKey string)), or a value
//     read from a field so named (delivery.IdempotencyKey): the function sends the key, under
//     a header name it may only know at run time; an empty constant is no key;
//   - a request made of a fresh unique value made before the attempts (in a function around
//     the retry callback, or outside the loop that retries): a batch marshalled once with its
//     message id, a client-chosen id in the URL; or a sequence number read there that the
//     function advances once per call (c.seq++ in a deferred function, atomic.AddUint64(&c.seq,
//     1), c.seq.Add(1)), kept in a package variable or a field of its receiver or a parameter,
//     and sent as data (not an index that picks a target). Every attempt sends the same
//     identifier, which
//     the receiver can deduplicate on; whether it does is the API's contract, and the client
//     has done its part;
//   - a request that speaks a write protocol whose receiver keeps one copy of what a retry
//     repeats, by a header the protocol defines: Prometheus remote write
//     (X-Prometheus-Remote-Write-Version, and VictoriaMetrics' variant), whose samples are
//     keyed by series and timestamp and whose senders are told to retry;
//   - a request whose body encodes a parameter of a struct type with a key field (by name or
//     JSON tag, IdempotencyKey `json:"idempotencyKey"`): the caller fills it in, as a Temporal
//     workflow does for its activity's input;
//   - a loop that leaves when the request cannot be sent or answered, and goes round only on
//     its judgement of an answer (an OAuth device flow's "authorization_pending"): each
//     request sent again was answered, its outcome known; so is one that goes round only on
//     an error whose whole text names no transient failure (err.Error() == "CAPTCHA not match.");
//   - a loop that, on every way round from a failure, waits as long as the failure's error says
//     (time.Sleep(rl.RetryAfter) after err.(*RateLimitedError), in the loop or in a handler of the
//     package it hands the error to): the server turned the request away and said when to come
//     back, so it had no effect (a fallback delay for other errors makes it a retry again);
//   - Kubernetes reconcilers: they run again after successes too, and avoid repeating a create
//     by looking at the state they observe, which the client cannot see;
//   - clients and helpers that hold such requests back or key them: this project's retry.Do
//     with its default classifier (it repeats a sent POST only when it is keyed) or a Policy
//     declared Idempotent by its author, its retryhttp.Transport, stripe-go's own retries (it
//     adds a key), resty v3 without SetRetryAllowNonIdempotent, Cloud Storage. A retry written
//     around such a client is reported: each of its calls makes a new key.
//
// The suggested fix, when the request is made in view (http.NewRequest*,
// retryablehttp.NewRequest*, resty's R()), makes a key once before the retry scope, with
// uuid.NewString when the file imports google/uuid, the runtime's idempotency.NewKey where the
// module requires the runtime, and crypto/rand.Text (Go 1.24) otherwise, and sets it on the
// request right after the request is made and its error checked:
//
//	idempotencyKey := rand.Text()
//	for attempt := 0; attempt < 3; attempt++ {
//		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/charges", body)
//		if err != nil {
//			return err
//		}
//		req.Header.Set("Idempotency-Key", idempotencyKey)
//		...
//	}
//
// Otherwise there is no fix, and the message says where the key must come from. In a function
// a framework runs again, the key cannot be made before the first run: the message names what
// to derive it from (the workflow and activity IDs, the message ID), and there is no fix.
package unkeyedretry
