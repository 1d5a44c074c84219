package remote

import (
	"go/token"
	"go/types"
	"slices"
	"strings"
	"time"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"golang.org/x/tools/go/ssa"
)

// Kind says what kind of remote call a call is.
type Kind uint8

const (
	HTTP Kind = iota + 1 // an HTTP request sent with net/http
	Dial                 // a connection being opened: net, crypto/tls, a blocking gRPC dial
	GRPC                 // an RPC: gRPC's generated stubs, ClientConn.Invoke and NewStream; Connect's clients
	SQL                  // a database/sql query, statement or transaction
	// SDK: a call through the client of a cloud or storage SDK (AWS SDK for Go v2, Cloud
	// Storage, minio-go, the Azure SDK) that sends requests its context alone bounds.
	SDK
)

func (k Kind) String() string {
	switch k {
	case HTTP:
		return "HTTP"
	case Dial:
		return "dial"
	case GRPC:
		return "gRPC"
	case SQL:
		return "SQL"
	case SDK:
		return "SDK"
	}
	return "unknown"
}

// Status says whether something bounds how long a remote call can take.
type Status uint8

const (
	// Unknown: the bound depends on values the model does not follow (a client stored by
	// another package, a context received from the caller, a value captured by a closure).
	// Checks treat it as handled.
	Unknown Status = iota
	// Bounded: a timeout or a deadline applies (a client Timeout, a dialer Timeout, a context
	// made by context.WithTimeout or WithDeadline on the way to the call).
	Bounded
	// Unbounded: nothing bounds the call; a stalled peer blocks it forever.
	Unbounded
)

func (s Status) String() string {
	switch s {
	case Bounded:
		return "bounded"
	case Unbounded:
		return "unbounded"
	}
	return "unknown"
}

// A Call is a call that leaves the process.
type Call struct {
	Instr ssa.CallInstruction
	// Func is the function or method called: the remote call itself or, for a call Via a
	// function, that function. Checks name it with flow.Name.
	Func *types.Func
	Kind Kind
	// Name is how the -remote.report names the remote call: "http.Get", "http.Client.Do",
	// "sql.DB.Query", "GreeterClient.SayHello"; for a call Via a function, the remote call
	// inside it.
	Name string
	// Method is the HTTP method when the model can tell it ("GET", "POST"), for HTTP calls.
	Method string
	// Stream marks a streaming gRPC call (NewStream, server or client streaming stubs): such
	// calls are long-lived by design and usually carry no deadline.
	Stream bool
	// Retrier is, for a unary gRPC call, the constructor call of the interceptor that retries
	// it (knowledge.InterceptorOf), on every connection the package shows reaching it; its
	// options say how.
	Retrier *ssa.Call
	// Streams marks an HTTP call whose response body the function reads in a loop after it
	// (a bufio.Scanner's Scan, a json.Decoder's Decode, Read): a stream, which lives as long
	// as the server sends and which a client Timeout would cut.
	Streams bool
	// Session marks a dial whose connection the function reads in a loop after it: a session
	// that lasts until the connection fails or closes, whose return is the connection's end.
	Session bool
	// Via is set when the call is not itself remote but reaches a remote call through a
	// function (Func) that passes one of its parameters' context to it, or that takes no
	// context itself, with nothing else bounding it: the entry of that function's paramFact.
	Via *Passed
	// Loopback is set when the call goes to this machine, by a constant URL or address
	// ("http://localhost:8080/ping", "127.0.0.1:" + port): a readiness poll of a server the
	// program starts, test scaffolding.
	Loopback bool
	// Daemon is set when the call goes to a daemon of this machine (a Docker Engine API
	// client, knowledge.LocalDaemon), also one that has the daemon reach a registry (a pull,
	// which is not Loopback: its attempts reach the registry): how long it takes is the
	// daemon's work, as long as the image is large, not a hang of the program's own socket.
	Daemon bool
	// Contract is set when nothing bounds the call but the function it is in has no context
	// to give it, by contract. The line to change is the interface or the API's callers, not
	// this call; the callers of a context-free form are checked through its paramFact.
	Contract Contract
	// Timeout says what bounds the call.
	Timeout Timeout
	// AtOnce is set, for an HTTP call, when its request's body is in memory: written at
	// once, so a transport's wait for the answer's header starts when it is sent.
	AtOnce bool
}

// Pos returns the position of the call (its left parenthesis).
func (c *Call) Pos() token.Pos { return c.Instr.Pos() }

// ReadsStream reports whether the call reads a response as a stream, itself (Streams) or in
// the function it calls (Via): its return is also the stream's end, a disconnect.
func (c *Call) ReadsStream() bool { return c.Streams || c.Via != nil && c.Via.Streams }

// byTransport returns t, or, when nothing else bounds the HTTP call c but its client's
// transport has a ResponseHeaderTimeout (Origin.Transport), that timeout: it bounds the wait
// for a stalled server once the request, held in memory, is written (c.AtOnce). A body read
// whole after the header (a JSON answer) comes from a server that has answered; only a stream
// read as it comes (c.ReadsStream) lives on the server's pace.
func (t Timeout) byTransport(c *Call) Timeout {
	by := ""
	if t.Client != nil {
		by = t.Client.Transport
	}
	if by == "" && c.Via != nil {
		by = c.Via.Transport // the client of the function called
	}
	if t.Status == Unbounded && by != "" && c.AtOnce && !c.ReadsStream() {
		return Timeout{Status: Bounded, By: by, Param: -1}
	}
	return t
}

// Timeout says what bounds a remote call, and when nothing does, why.
type Timeout struct {
	Status Status
	// By names what bounds a Bounded call: "http.Client.Timeout", "context.WithTimeout".
	By string
	// Limit is, for a Bounded call, the bound when a constant gives it (a client's Timeout of
	// 10 * time.Second, context.WithTimeout(ctx, time.Minute)); 0 otherwise.
	Limit time.Duration
	// Context is, when nothing bounds the call, where its context comes from, or that it
	// takes none.
	Context Source
	// Client is the http.Client, net.Dialer or tls.Dialer the call goes through, when the model
	// knows where it is built and that it has no timeout: for an Unbounded call, and for an
	// Unknown one whose context is the caller's (Param), which then alone bounds the call.
	Client *Origin
	// Others are the other clients or dialers without a timeout that reach the call on other
	// paths (the same send helper given two clients made without one): each is its own line
	// to change.
	Others []*Origin
	// Param is, for an Unknown status that only depends on the caller, the index among the
	// function's SSA parameters (the receiver first) of the parameter whose context decides;
	// -1 otherwise.
	Param int
	// CallersBound is set when the call is in an unexported function (or a literal inside one)
	// whose every call in the package gives it a deadline: no other caller can reach it, so the
	// library's unknown callers are not its callers.
	CallersBound bool
	// Request is set when the context that decides is the one of parameter Param, an
	// *http.Request. (For a call Via a function, Via.Request says whether the function takes a
	// request or a context.)
	Request bool
	// ParamClient is set, for an Unknown status that only depends on the caller, when what
	// decides is the client or dialer of parameter Param, of this type ("http.Client"): the
	// request sent through it has no deadline, and Context says why.
	ParamClient string
	// with is set, with ParamClient, when the request's context, of another parameter, also
	// bounds the call: both are the caller's (DoWithClient(req, client)).
	with *With
	// kept is set, for an Unknown status, when the call's context is one that function keeps
	// (stores in a field of what it returns) from its parameter keptParam: the call is made
	// later, bounded only by what that function's caller gave it.
	kept      *ssa.Function
	keptParam int
	// captured is set with kept when kept is not a function that keeps the context but one
	// that the function literal making the call is made in, whose context it captured.
	captured bool
}

// Owned reports whether a call that only its caller's context bounds (Status Unknown, Param
// set, or a context a function of the package keeps) goes through an HTTP client without a timeout that pkg builds as its default: a
// composite literal, new(T), a copy of http.DefaultClient, a zero variable or field, or a
// constructor's result, in a package that is not a command. Such a library's callers are
// unknown, so their contexts guarantee nothing: notimeout reports the client once, where it is
// made, and the callers of the functions that send through it are not the cause
// (Passed.Owned); unless every caller of the unexported function it is in bounds it
// (CallersBound). Dialers are not owned: the system's connect timeout bounds a dial.
func (t Timeout) Owned(pkg *types.Package) bool {
	if t.Status != Unknown || t.Param < 0 && t.kept == nil {
		return false
	}
	return t.ownClient(pkg)
}

// internal reports whether path is an internal package (a path element "internal"): only
// packages of its own module can import it, so its callers are in view, and the contexts
// they hand it are judged there (paramFact), not guessed at its client.
func internal(path string) bool {
	return slices.Contains(strings.Split(path, "/"), "internal")
}

// ownClient reports whether the client t sends through is one package pkg builds without a
// timeout as its default (see Owned), whatever the context.
func (t Timeout) ownClient(pkg *types.Package) bool {
	if t.Client == nil || t.CallersBound || pkg.Name() == "main" || internal(pkg.Path()) {
		return false
	}
	if t.Client.Type != knowledge.HTTPClient.Display && t.Client.Type != knowledge.RetryableHTTPClient.Display && t.Client.Type != knowledge.RestyClient.Display {
		return false
	}
	switch t.Client.Kind {
	case Local, ZeroVar, ZeroField, Constructor:
		return t.Client.Pos.IsValid()
	case Default:
		// http.DefaultClient named as the fallback when the caller gives no client: the
		// package chose it, and its users run it unless they know to replace it.
		return (t.Client.Fallback || t.Client.Held) && t.Client.Pos.IsValid() && !t.Client.Shared
	}
	return false
}

// SourceKind says where the context of a call without a deadline comes from.
type SourceKind uint8

const (
	NoContext      SourceKind = iota + 1 // the call takes no context at all (http.Get, sql.DB.Query, net.Dial)
	Background                           // context.Background()
	TODO                                 // context.TODO()
	WithoutCancel                        // context.WithoutCancel, which drops its parent's deadline
	NewRequest                           // http.NewRequest, which gives the request no context
	TestRequest                          // httptest.NewRequest, likewise
	RequestLiteral                       // an http.Request composite literal, likewise
)

// String names the source as code: "context.Background()", "http.NewRequest".
func (k SourceKind) String() string {
	switch k {
	case NoContext:
		return "no context"
	case Background:
		return "context.Background()"
	case TODO:
		return "context.TODO()"
	case WithoutCancel:
		return "context.WithoutCancel"
	case NewRequest:
		return "http.NewRequest"
	case TestRequest:
		return "httptest.NewRequest"
	case RequestLiteral:
		return "an http.Request literal"
	}
	return ""
}

// Contextless reports whether the call has no context at all: it takes none, or its request
// is made without one.
func (k SourceKind) Contextless() bool {
	return k == NoContext || k == NewRequest || k == TestRequest || k == RequestLiteral
}

// A Source is where the context of a call without a deadline comes from.
type Source struct {
	Kind SourceKind // zero: the model does not know
	Pos  token.Pos  // the call or literal that makes it; NoPos for NoContext
	// Name names a library's form of the kind: "retryablehttp.NewRequest" for NewRequest.
	Name string
}

// String names the source as code: "context.Background()", "retryablehttp.NewRequest".
func (s Source) String() string {
	if s.Name != "" {
		return s.Name
	}
	return s.Kind.String()
}

// ContractKind says why a function has no context to give its remote calls.
type ContractKind uint8

const (
	// ContextFree: the function is the context-free form of an API: exported, it only passes
	// what it is given on to the call (a wrapper's Query(q, args...) calling sql.DB.Query),
	// or it has a sibling that takes a context (Loads next to LoadsContext). Contract.Name is
	// the call's method or that sibling.
	ContextFree ContractKind = iota + 1
	// Implements: the function implements a method without a context of an interface declared
	// in another package. Contract.Name is that method: "database.Driver.Lock".
	Implements
	// CalledFrom: an unexported function called only from functions so bound. Contract.Name
	// is the first such caller.
	CalledFrom
)

// A Contract says why a function has no context to give; the zero Contract: it could have one.
type Contract struct {
	Kind ContractKind
	Name string
}

// OriginKind says how a client or dialer without a timeout is built.
type OriginKind uint8

const (
	Local       OriginKind = iota + 1 // a composite literal, new(T) or a local variable of the type
	ZeroVar                           // a package-level variable of the type (not a pointer), never assigned
	ZeroField                         // a struct field of the type (not a pointer), never assigned
	Default                           // http.DefaultClient
	Constructor                       // a library function known to return one without a timeout
	Inside                            // one the called library function makes for itself, out of the caller's reach
)

// An Origin is where a client or dialer without a timeout is built.
type Origin struct {
	Kind OriginKind
	// Type is "http.Client", "net.Dialer", "tls.Dialer" or "retryablehttp.Client".
	Type string
	// Field is where its timeout would be set: "Timeout", "HTTPClient.Timeout".
	Field string
	// Pos is the composite literal's left brace, new's parenthesis, the local or package
	// variable's or field's name, the constructor call, where http.DefaultClient is named (or
	// NoPos).
	Pos token.Pos
	// Alloc is the allocation of a Local origin.
	Alloc *ssa.Alloc
	// CopyOf names what a Local origin is a copy of: "http.DefaultClient" for
	// c := *http.DefaultClient.
	CopyOf string
	// Name is the constructor's or variable's name ("http.DefaultClient",
	// "cleanhttp.DefaultClient", the field name).
	Name string
	// Fallback is set when the client is a default, used unless the caller gives one
	// (if opts.Client == nil { c = http.DefaultClient }); Given is where the caller's comes
	// in: a parameter, an option's field.
	Fallback bool
	Given    token.Pos
	// Config is, for a Constructor origin, the SDK configuration loaded without an HTTP client
	// that the client is made from, when the model knows it.
	Config *Config
	// Transport names the ResponseHeaderTimeout of the http.Transport the client sends through
	// ("http.Transport.ResponseHeaderTimeout"), when it has one: a stalled server cannot hold a
	// request that carries its caller's context before the answer, though the client has no
	// Timeout; a request written without a context (or a large body) still can hang.
	Transport string
	// Unset is where the client's timeout is set from a setting that is zero unless the
	// package's users set it (Timeout: c.Timeout), and UnsetFrom names that setting.
	Unset     token.Pos
	UnsetFrom string
	// Zeroed is where the package sets the client's timeout to a zero constant after making it
	// (c.Timeout = 0, rc.HTTPClient.Timeout = 0): no timeout on purpose, the deadlines left to
	// the contexts, as Timeout: 0 written in a literal says.
	Zeroed token.Pos
	// Unix is set when the client's transport dials only Unix domain sockets (its DialContext
	// or Dial is a function that dials "unix"): it talks to a process on this machine.
	Unix bool
	// Shared is set for a Default that is another package's variable its package made
	// without a timeout (varFact: a module's httputil.DefaultClient): a fallback to it is
	// not this package's default to report, whose cause is one line elsewhere; calls that
	// give it no deadline at all are.
	Shared bool
	// Held is set for a Default that an unexported field of the package holds (on every
	// path, or on some while others hold a client that is bounded), and that no caller's
	// client replaces: the package's own choice, as much its default as one named as a
	// fallback.
	Held bool
}
