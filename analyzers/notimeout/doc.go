// Package notimeout defines an analyzer that reports calls leaving the process that nothing
// bounds in time.
//
// # Analyzer notimeout
//
// notimeout: report remote calls with no timeout and no deadline, which a stalled peer blocks forever
//
// A client that waits without a bound for a server that stopped answering holds its
// goroutine, its connection and whatever its caller holds, forever; retries never start, and
// one slow dependency becomes an outage. Every call that leaves the process needs a timeout
// or a deadline. The analyzer reports, using the remote analyzer's model:
//
//   - net/http: http.Get, Head, Post and PostForm, which use http.DefaultClient (no timeout)
//     and a request without a context; a request sent through a client without a Timeout
//     when the request's context has no deadline in reach (context.Background or TODO, or
//     http.NewRequest, which gives it no context). Clients are followed to where they are
//     built: a composite literal, new(http.Client), http.DefaultClient, a package variable,
//     a factory function the package keeps in an unexported field (c := *http.DefaultClient;
//     return &c), a struct field the package assigns or leaves zero, a constructor of the same
//     package or, through a fact, of another, with what the constructor and its caller set on it; a
//     go-retryablehttp client (and its StandardClient) is bounded by its HTTPClient's Timeout.
//     A resty v2 request (c.R()...Get(url)) is bounded by its client's SetTimeout, the
//     http.Client resty.NewWithClient wraps, or the context SetContext gives it; resty.New
//     makes a client without a timeout, and a client whose transport or http.Client is
//     handed over (SetTransport, GetClient) is not judged. Several calls without a deadline
//     through one client a library constructor made here (resty.New(),
//     cleanhttp.DefaultClient()) are one finding, at the constructor's call; for resty.New the
//     fix adds SetTimeout with the -notimeout.default duration (30s unless set) to it.
//     A library's default client whose Transport (or, for a retryablehttp.Client, its
//     HTTPClient's) is an http.Transport with a ResponseHeaderTimeout is not reported as a default without a Timeout (its requests carry
//     their callers' contexts; reading the body is the caller's); a request without any context
//     sent through it is, at the call. A client whose transport (a literal, or what a function
//     of the package returns by default) dials through functions that set a deadline on each
//     connection they dial (net.DialTimeout, then conn.SetDeadline) is bounded by it.
//     A default client used when the caller gives none (if opts.Client == nil { c =
//     http.DefaultClient }) is reported when it has no Timeout, naming that path.
//     Another package's exported variable that its package makes without a Timeout and never
//     changes (a module's shared httputil.DefaultClient; a test's stand-in does not count) is
//     followed like http.DefaultClient: a request with no deadline at all sent through it is
//     reported where it is sent; a fallback to it for requests that carry their callers'
//     contexts is not this package's default, and is not reported;
//     A client handed to a function (of this package, or of another through a fact) that
//     sends such a request through it is reported where it is built, as if the request were
//     sent there;
//   - net.Dial and DialTCP, tls.Dial, smtp.Dial and SendMail, x/net/websocket's Dial, and
//     net.Dialer and tls.Dialer without a Timeout, dialing without a context or with one that
//     has no deadline; redigo's dials without DialReadTimeout (its commands then wait for a
//     stalled server for good); x/crypto/ssh's Dial with a ClientConfig whose Timeout is unset;
//   - gRPC: calls through generated stubs or a ClientConn with a context that has no deadline;
//     grpc.Dial with WithBlock and no timeout, and DialContext with WithBlock and a context
//     without a deadline;
//   - database/sql: Query, QueryRow, Exec, Prepare and Begin of sql.DB, Tx and Stmt (no
//     context at all), and their ...Context forms with a context that has no deadline;
//     likewise sqlx's own methods and functions (Get, Select, Queryx, NamedExec, Beginx...);
//   - cloud and storage SDKs, whose default HTTP clients have no timeout: calls through an
//     aws-sdk-go-v2 service client or paginator, Cloud Storage, minio-go or an Azure SDK
//     client with a context that has no deadline, and aws-sdk-go (v1) operations without a
//     context (Op next to OpWithContext) on a session whose HTTP client is the default, reported
//     at the client they go through (a client a test stores into the same field is not one
//     users run, and does not split them); etcd's key-value and lease calls, and its
//     transactions (Txn(ctx)...Commit(), bounded by the context given to Txn); oras-go's retry.NewClient and
//     retry.DefaultClient, http.Clients without a Timeout;
//   - a call of a function, of this package or another, that passes the context it is given to
//     such a remote call with nothing else bounding it, directly or through any number of
//     wrappers (CreateWidget -> doPost -> doRequest -> Client.Do), when the context given has
//     no deadline.
//
// A context has a deadline "in reach" when context.WithTimeout, WithDeadline,
// WithTimeoutCause or WithDeadlineCause is on its way to the call, within the function and
// through helpers of the same package. A context received as a parameter, or from r.Context()
// of a request received as one, is the caller's responsibility: it is not reported here, and
// the caller is checked where it makes the context. Contexts, requests and clients kept in
// struct fields or package variables by another package, or captured by closures, are treated
// as handled rather than guessed at.
//
// Not reported (each a case in the tests, most found on real code):
//
//   - calls in _test.go files, in generated files, and in packages written for tests: named
//     like a test helper (apmtest, testutil, testsuite) or a benchmark harness (bench,
//     benchmarks, nats-bench for a command), commands in a directory named like a test
//     harness (rdma-test, loadtest, e2e, wait-for), packages in a directory of the module
//     named test or tests (test/helper), or importing testing, testify, gomock, ginkgo or
//     gotest.tools in their non-test files;
//   - the caller of a function that runs a loop until its context ends (a service's Run(ctx)
//     selecting on ctx.Done() between rounds), for the calls made in that loop: the context
//     is the loop's lifetime, which a deadline would end as a whole, not bound a round;
//   - calls to this machine by a constant address (a readiness poll of
//     http://localhost:8080/ping, a dial of "127.0.0.1:"+port), and dials of the address of a
//     listener the program holds (ln.Addr(), also kept in a struct field that holds nothing
//     else);
//   - streaming gRPC calls (long-lived by design); grpc.NewClient, which never blocks;
//     net.Dial of UDP, IP and Unix sockets, which do not wait for a peer, and of the network
//     a caller names (a parameter, or a closure's variable bound to one) when the package's
//     calls of that function name such networks, or it has none and other packages call it
//     (the caller knows whether its network waits for a peer); gRPC calls over a
//     connection hashicorp/go-plugin hands out (a plugin subprocess on this machine); unary
//     gRPC calls over a connection dialled with an interceptor that gives each call a
//     deadline (go-grpc-middleware's retry interceptor with WithPerRetryTimeout and WithMax,
//     its timeout interceptor), traced to every dial that reaches the call;
//   - database/sql calls in a package using an embedded database (SQLite, ql, DuckDB); with a
//     server backend beside it, those of the files that import the embedded driver;
//   - in a cloud or storage SDK's own package, calls of its client's methods (its
//     implementation: the requests they send are what is judged there), unless a function
//     handed a context calls one with context.Background() (its caller's deadline is dropped);
//   - calls that have no context to use by contract: inside the context-free form of an API
//     (sqlx's Queryx next to QueryxContext, a wrapper's Exec calling Exec), whose callers are
//     reported instead, and inside methods implementing a context-less method of another
//     module's interface (and helpers called only from them), where the interface decides
//     (not a dial: net.DialTimeout or a Dialer's Timeout bounds it without a context; nor a
//     call given a context.Background() the method makes, when it or a function of the package
//     it calls gives other calls deadlines: it bounds its calls itself, and left this one out);
//   - clients whose Timeout is set to anything but a zero constant, even a variable, or
//     written out as Timeout: 0 (no timeout on purpose, for streaming), or set to zero after
//     they are made (c.Timeout = 0, rc.HTTPClient.Timeout = 0) when every request sent
//     through them carries its caller's context; clients passed to a
//     function that could set their Timeout (that sets it, stores the client, or is not
//     known to only use it; a generic function's instance is read by its generic body); what
//     a _test.go file does to a client (handing its transport to a mock) does not count;
//     database/sql's Ping.
//
// An http.Transport's own timeouts (dial, TLS handshake, response header) do not bound
// reading the body, so they do not count; but a call whose request has no body or one in
// memory (written at once) and whose answer is not read as a stream waits, once a stalled
// server is past the header, on one that has answered: a ResponseHeaderTimeout bounds it, and
// it is not reported. The transport is followed into a function of another package that makes
// it (a shared NewDeadlineTransport) through that function's fact, into a RoundTripper of the
// program's own that wraps one (a logging struct embedding *http.Transport), and, for a client
// handed to a function that sends through it, into that function's fact.
//
// Where it reports: a request sent through an http.Client that the package builds (a
// composite literal, new(http.Client), a zero variable or field) is reported once, at the
// client, naming the first call that sends a request without a deadline and how many
// others do: that is the line that must change, and adding a Timeout there fixes every call.
//
// A library's default client is reported the same way: a package that is not a command and
// builds an http.Client (or a go-retryablehttp client) without a Timeout (a composite literal,
// new, a copy of http.DefaultClient, a zero field, a constructor's result), through which it
// sends requests with its caller's context, gets one finding at the client, "by default"
// (users may replace it through an option or a field, but the default is what most of them
// run): a library's callers are unknown, so their contexts guarantee nothing (but an
// unexported function whose every call in the package gives it a deadline has no other
// callers, and is not reported; nor is an internal package, whose callers are all in its
// module: each caller is judged for the context it hands in, as for any function that
// passes its parameter's context on). So is
// http.DefaultClient named as the fallback when the caller gives no client (through an option,
// a field or the context). Its callers are then not reported for the context.Background() they
// pass, unless they built it with a client of their own, the library is another module (whose
// finding a run on this one does not show), or they drop a context they were given; a
// request made without any context is still reported where it is made, and so is one sent with
// a detached context a struct field keeps (ctx: context.WithoutCancel(ctx)).
//
// A library function that takes no context and sends through the client its package keeps,
// built without a Timeout (a translator's Translate(text, src, dest) through the client its
// New made), cannot be bounded by its callers at all. Within the library's module its client's
// finding covers every such call; a call of it from another module, whose run does not show
// that finding, is reported: "Translator.Translate sends through a client with no Timeout and
// takes no context, so a stalled server hangs this call". The calls of one such type's
// methods in a package are one cause (the API, or the client it was built with) and one
// finding, at the first, the others related: "Bucket.List and 7 more calls can hang: no
// context, and Bucket's client has no Timeout".
//
// A package whose API sends its callers' requests through a client they may give (NewClient(url,
// httpClient), a default used when they give none) and whose exported functions make and
// return clients without a Timeout for them to give it (an auth transport's Client method:
// NewClient(url, tp.Client())) is reported once for those functions, at the first client,
// the others related: "BasicAuthTransport.Client returns an http.Client with no Timeout". A
// caller that gives the API such a client, or nil for its default, is then not reported for
// the context.Background() it passes (an example program: the SDK's finding is the cause); one
// that gives a client it makes itself without a Timeout is, at the call.
//
// A function that keeps the context it is given for requests made later (a token source:
// x/oauth2's Config.TokenSource and Client, clientcredentials' too) is reported where it is
// given one without a deadline: "keeps a context without a deadline for its later calls".
// A deadline is no fix there (it would end the source); a context carrying an *http.Client
// with a Timeout (context.WithValue(ctx, oauth2.HTTPClient, client)) bounds those requests,
// and any made with that context.
//
// Calls of a cloud SDK's client (AWS, Cloud Storage, minio, Azure) made with
// context.Background() or TODO from functions that have no context of their own are reported
// once per client, where the package makes it (sqs.NewFromConfig(cfg), followed through the
// package's helpers, fields and variables, and from a paginator or handle to its client): the
// client's HTTP client without an overall timeout is the one cause. When the client is made
// from an aws.Config that config.LoadDefaultConfig loaded with no HTTP client (no
// config.WithHTTPClient option, no HTTPClient field set), the cause is one level up: the
// configuration is reported once, at the load, with the calls of every client made from it in
// the package; a configuration that exported functions hand out is reported there "by
// default", and the packages that make clients from it are not reported again. A
// configuration given an HTTP client (or an option function of the program's own, which may
// give one) sends through the client it was given: nothing is reported. A function that was
// given a context and passes context.Background() instead is reported at the call.
//
// Database calls without a context are one finding per function that has a context at hand,
// and one for all the functions of the package that have none (a storage layer written
// without contexts), a library's context-free forms (sqlx's Stmt.Get) with database/sql's.
// Likewise the calls of one function that each get context.Background() or TODO (and no
// client without a timeout) are one finding, at the first: the function has no context to
// give them; and those of the methods of one type that have no context at hand (a data layer
// written without contexts), for remote calls of one kind, are one finding for the type. Requests made without a context (http.NewRequest) by several functions of the
// package that have none at hand (an API written without contexts: Head(url), Get(url),
// PostJSON(url, v)) are one finding, at the first, the others related; a function that has
// its caller's context and makes its request without it is reported at its call.
//
// A database call on a transaction or connection on which the function set the server's
// statement timeout before it (SET statement_timeout, SET SESSION max_execution_time; maybe in
// a helper handed the same transaction) is bounded by the server, whatever its context.
//
// Everything else is reported at the call. The message names the call, why nothing bounds it
// and what a stalled peer does to it; the places involved (where the client or dialer is
// built, where the context or request is made, the function that passes its context on, the
// calls through a client) are the diagnostic's related positions.
//
// The suggested fix, for an http.Client composite literal without a Timeout field, adds
//
//	Timeout: 30 * time.Second,
//
// to it, importing "time" when needed; the duration is the -notimeout.default flag (for
// example -notimeout.default=10s). http.Get and the other package functions have no automatic
// fix: the message says what to use instead.
package notimeout
