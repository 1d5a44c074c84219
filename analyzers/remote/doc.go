// Package remote is idemlint's shared model of the calls that leave the process: which calls
// talk to another process over the network, what kind each is (HTTP, dial, gRPC, SQL, with
// the HTTP method when it is known), and what bounds how long each can take. The checks
// (notimeout, and the checks that need to know whether a retried call is an HTTP POST) ask
// this analyzer rather than recognising calls themselves.
//
// # Analyzer remote
//
// remote: find the calls that leave the process and what bounds them, for idemlint's checks
//
// Remote calls:
//
//   - net/http: http.Get, Head, Post and PostForm (which use http.DefaultClient and a request
//     without a context), the same methods of *http.Client, Client.Do, and RoundTrip of an
//     http.Transport or http.RoundTripper; also a call of a function value that starts as a
//     client's Do and that only decorators the caller may configure wrap (handler :=
//     cfg.HTTPClient.Do; for ... { handler = applyMiddleware(mw[i], handler) }; handler(req)):
//     with none configured, it is that Do;
//   - net.Dial, DialTCP, DialTimeout and net.Dialer's Dial and DialContext, for networks that
//     connect to a peer (not UDP, IP or Unix sockets); tls.Dial, DialWithDialer and
//     tls.Dialer's Dial and DialContext;
//   - gRPC: any call whose callee takes a context first and ...grpc.CallOption last
//     (generated client stubs, ClientConnInterface.Invoke and NewStream; a call returning a
//     stream is marked streaming); grpc.Dial and DialContext when an option (WithBlock,
//     WithReturnConnectionError) makes them wait for the server;
//   - database/sql: Query, QueryRow, Exec, Prepare and Begin of sql.DB, sql.Tx and sql.Stmt,
//     which take no context, and their ...Context forms, BeginTx, and sql.Conn's methods;
//   - SDK clients that send requests bounded only by the context they take first (their
//     default HTTP clients have no Timeout): every operation of an aws-sdk-go-v2 service
//     client, (ctx, *XInput, ...func(*Options)), and its paginators' NextPage; every
//     operation of an aws-sdk-go (v1) service client, OpWithContext(ctx, *OpInput, ...Option),
//     and Op(*OpInput), which takes no context (unknown where the package gives an aws.Config
//     an HTTPClient; also called through an interface of the package whose field holds only
//     such clients, a seam for tests); the methods of
//     Cloud Storage's client and handles; minio-go's Client and Core; the methods of every
//     Azure SDK client, (ctx, ..., *XOptions), and azcore's Pager.NextPage and
//     Poller.PollUntilDone;
//   - a call of a function that passes its context to one of the above with nothing else
//     bounding it (see the parameter facts below): the call is remote "via" that function.
//
// What bounds them, found by following SSA values backward from the call:
//
//   - a context: context.WithTimeout, WithDeadline, WithTimeoutCause or WithDeadlineCause
//     anywhere on the way bounds it; context.Background and TODO do not, and neither do
//     wrappers that only add values or cancellation (WithCancel, WithValue,
//     signal.NotifyContext, gRPC metadata, errgroup), unless a timer calls the cancel function
//     WithCancel returns (time.AfterFunc(d, cancel), or a goroutine started there that waits on
//     time.After, NewTimer or Tick and calls it); but a context.WithValue that carries an
//     *http.Client with a Timeout is bounded by it (x/oauth2's HTTPClient key, go-oidc: the
//     libraries that take a client from the context send through it); context.WithoutCancel drops its
//     parent's deadline, so it has none whatever the parent's; r.Context() is the context of the
//     request r. A context that comes from a parameter is the caller's: the status is
//     unknown, and the parameter is recorded. A context read from an unexported struct field
//     is what the package's production code stores there (ctx: context.WithoutCancel(ctx) in
//     a constructor has no deadline; ctx: ctx, a parameter of the constructor, is kept: the
//     constructor's callers decide, and its parameter fact says it keeps its context for a
//     later call, as x/oauth2's TokenSource and Client do, and x/oauth2/google's
//     DefaultTokenSource, FindDefaultCredentials and CredentialsFromJSON, which the model
//     knows from a table (knowledge.KeptContext): their code picks the source by the
//     credentials file's type); one captured by a closure is what is bound (or stored
//     in the captured variable) where the closure is made; from package variables it is
//     unknown too (treated as handled);
//   - a request: http.NewRequest gives it no context; NewRequestWithContext, WithContext and
//     Clone give it theirs; likewise go-retryablehttp's NewRequest, NewRequestWithContext,
//     FromRequest and WithContext; a resty v2 request has the context SetContext gives it,
//     in its chain of setters or as a statement of its own, and none otherwise;
//   - an http.Client: its Timeout field, set to anything but a zero constant. The client is
//     followed to where it is built: a composite literal or new(http.Client), a local or
//     package variable, http.DefaultClient (no timeout unless the package changes it),
//     cleanhttp's DefaultClient, oras-go's retry.NewClient and retry.DefaultClient (an
//     http.Client on its retrying transport), a constructor of the same package (through its
//     return statements, with what it sets on the client), a function of another package
//     whose result fact says it builds one without a timeout, the values the package stores
//     into a struct field, or the zero value of a struct field or variable of type
//     http.Client that nothing assigns; what the caller sets on a constructor's result counts
//     too. A go-retryablehttp client (its Do, Get, Head, Post and PostForm, and the
//     http.Client its StandardClient returns) is bounded by its HTTPClient's Timeout, which
//     retryablehttp.NewClient leaves unset. A resty v2 client is followed through its
//     chain of setters (each returns the client) to resty.New, which leaves it without a
//     timeout, or NewWithClient, bounded by the http.Client it wraps; SetTimeout bounds it,
//     SetTransport and GetClient leave it unknown. A client that is the caller's when given and a
//     default without a timeout otherwise (if opts.Client == nil { c = http.DefaultClient },
//     a literal an option may replace, a client the caller may put in the context and the
//     package takes out with ctx.Value(key).(*http.Client)) is that default, marked
//     Fallback: the default path is real. A client from a parameter is the caller's
//     (unless the function sets a timeout on it), like a context: see the parameter facts below. A client
//     from another package's variable or function, or passed to a function that could set
//     its Timeout, is unknown; a function that only uses it (of this package, by its body; of
//     another, by its parameter fact) does not make it so;
//   - a net.Dialer: its Timeout or Deadline field; a tls.Dialer: its NetDialer;
//   - a gRPC dial: grpc.WithTimeout among its options, or its context;
//   - a unary gRPC call: also an interceptor on its connection that gives every call a
//     deadline (knowledge.InterceptorOf), on every dial the package shows reaching the stub
//     (through variables, fields, the package's functions and, by a fact, a variable another
//     package sets only from its Init(conn) parameter). Call.Retrier names such a connection's
//     retry interceptor when every dial has one that makes more than one attempt.
//
// Functions of the same package are entered through their results (a helper that builds the
// request or the context), with their parameters mapped to the call's arguments.
//
// A function that passes the context of one of its parameters (a context.Context, or an
// *http.Request's) to a remote call that nothing else bounds gets a parameter fact, so that its
// callers, in this package or in others, are checked where they make the context. So does a
// function that sends a request without a deadline through the client or dialer of one of
// its parameters, without setting its timeout: its callers are checked where they build the
// client they hand it (client := &http.Client{}; fetch(client, url)). A function
// that passes its context to such a function (of this package or, through its fact, of
// another) gets one too, to any depth: an SDK's CreateWidget -> doPost -> doRequest ->
// Client.Do chain marks all three, each naming the remote call at the bottom.
//
// A function that returns a client or dialer it builds without a timeout (a composite
// literal, a library constructor's, not one it also keeps) gets a result fact, so that callers
// in other packages follow the client to it.
//
// Some calls have no context to use by contract, and the model says so (Call.Contract) when
// nothing bounds them for want of one:
//
//   - in the context-free form of an API: an exported function or method without a context
//     parameter that only passes what it is given on to the call (a wrapper's Query(q, args...)
//     calling sql.DB.Query(q, args...), sqlx's Beginx calling Begin), or that has a sibling
//     taking one (Loads next to LoadsContext); its name is no evidence either way.
//     Such a function gets a parameter fact entry without a parameter, so that its callers are
//     the remote calls, with no context;
//   - in a method that implements a method without a context of an interface declared in
//     another module (a migration tool's database driver: Lock() error), or in an
//     unexported function called only from such methods: the interface decides. An
//     interface of the module itself is no contract: its maintainers can give it a context.
//
// HTTP sends (Result.Sends): the requests sent through net/http (the calls above), through
// go-retryablehttp (Client.Do, Get, Head, Post, PostForm and the package functions) and through
// resty (Request.Get, Post, Put, Patch, Delete, Head, Options, Execute), with the HTTP method
// when the called function or the constants the request is made with say it (http.NewRequest,
// retryablehttp.NewRequest and FromRequest, a variable holding the same constant on every
// path), the URL's path when it is constant (also base + "/v1/charges" and
// fmt.Sprintf("%s/v1/charges", base)), and the call that made the request.
//
// Calls to this machine by a constant address (http://localhost:8080, "127.0.0.1:"+port,
// ":9090", net.JoinHostPort("localhost", p)) or by the Addr of an http.Server (where this
// process listens: a readiness poll of the server it started) are marked Loopback, and so
// are the calls of a Docker Engine API client (knowledge.LocalDaemon), which reach the daemon
// of this machine and stay local for Reach. A dial of the address of a
// listener the program holds (ln.Addr(), in the function or kept in struct fields, package
// variables or function results that hold nothing else) is not a remote call: the kernel
// accepts it at once. database/sql calls (and sqlx's, through its facts) in a package that
// imports the driver of an embedded database (SQLite, ql, DuckDB) are not remote calls at
// all; in a package that also imports a database server's driver (SQLite beside MySQL), only
// those in a file that imports the embedded driver and no server's.
//
// A dial in an http.Transport's dial hook (DialContext, Dial, DialTLS, DialTLSContext) runs for
// the transport's requests in the transport's own goroutine: it is bounded by the request it
// dials for, which is checked where it is sent.
//
// Reach (Result.Reach) says whether a call may leave the process, itself or through what it
// calls. A call of another package's interface method may go anywhere, unless every value its
// receiver can hold is in view: a parameter of a function only this package calls (waitFor(reg)
// after reg := registry.NewMemoryRegistry()), an unexported field the package fills, made from
// a concrete type or by a constructor whose fact says where its value's methods go (an
// exported function returning one concrete type behind an interface gets that fact). So does
// a call of a function value loaded from an unexported field into which the package stores only
// functions, method values and function literals (p.alloc = mmapAlloc, or a closure): it goes
// where they go. A caller's function copied from its options (db.openFile = opts.OpenFile, then
// os.OpenFile when it is nil) is left aside: the package's default is what most callers run.
// Likewise an unexported interface field that the package fills with a value of its own making
// when the caller gives none (c.client = kinesis.NewFromConfig(cfg), beside a WithClient
// option) reaches what that default reaches when it leaves the process. The implementations of
// an unexported interface of the package are its production types: a test's stand-in (a mock
// of the SDK client) is not one.
//
// Packages of the standard library are not analysed, and a package that imports none of
// net/http, net, crypto/tls, database/sql or google.golang.org/grpc, directly or not, is
// skipped at once.
//
// How to teach the model a new client library is described at the top of known.go, the one
// file that holds what the model knows about libraries. The -remote.report flag reports every
// remote call found and what bounds it, which is how the model is tested.
package remote
