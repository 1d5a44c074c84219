package remote

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Kind says what kind of remote call a call is.
type Kind uint8

const (
	HTTP Kind = iota + 1 // an HTTP request sent with net/http
	Dial                 // a connection being opened: net, crypto/tls, a blocking gRPC dial
	GRPC                 // a gRPC call: generated stubs, ClientConn.Invoke and NewStream
	SQL                  // a database/sql query, statement or transaction
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
	Kind  Kind
	// Name is how messages name the call: "http.Get", "http.Client.Do", "sql.DB.Query",
	// "GreeterClient.SayHello". For a call through a function that passes its context on
	// (Via != ""), it names the remote call inside that function.
	Name string
	// Method is the HTTP method when the model can tell it ("GET", "POST"), for HTTP calls.
	Method string
	// Stream marks a streaming gRPC call (NewStream, server or client streaming stubs): such
	// calls are long-lived by design and usually carry no deadline.
	Stream bool
	// Via is set when the call is not itself remote but reaches a remote call (Name, at
	// ViaPos) through a function that passes one of its parameters' context to it, or that
	// takes no context itself, with nothing else bounding it (a ParamFact): Via names that
	// function, and Instead its form that takes a context, when it has one.
	Via     string
	ViaPos  string // "client.go:30"
	Instead string
	// Loopback is set when the call goes to this machine, by a constant URL or address
	// ("http://localhost:8080/ping", "127.0.0.1:" + port): a readiness poll of a server the
	// program starts, test scaffolding.
	Loopback bool
	// Contract is set when nothing bounds the call but the function it is in has no context
	// to give it, by contract: a method implementing an interface of another package whose
	// method has no context ("implements database.Driver.Lock"), or the context-free form
	// of an API ("the context-free form of QueryxContext", a wrapper's Query calling Query).
	// The line to change is the interface or the API's callers, not this call; the callers
	// of a context-free form are checked through its ParamFact.
	Contract string
	// Timeout says what bounds the call.
	Timeout Timeout
}

// Pos returns the position of the call (its left parenthesis).
func (c *Call) Pos() token.Pos { return c.Instr.Pos() }

// Timeout says what bounds a remote call, and when nothing does, why.
type Timeout struct {
	Status Status
	// By names what bounds a Bounded call: "client Timeout", "context.WithTimeout".
	By string
	// Context is where the call's context comes from when it has no deadline: a call of
	// context.Background or TODO, an http.NewRequest (which gives the request none). For a
	// call that takes no context at all (http.Get, sql.DB.Query, net.Dial) it is NoContext.
	Context Source
	// NoContext is set for calls that take no context at all.
	NoContext bool
	// Client is the http.Client, net.Dialer or tls.Dialer the call goes through, when the model
	// knows where it is built and that it has no timeout.
	Client *Origin
	// Param is, for an Unknown status that only depends on the caller, the index among the
	// function's SSA parameters (the receiver first) of the parameter whose context decides;
	// -1 otherwise.
	Param int
	// Request is set when the context that decides is an *http.Request's: the parameter
	// Param's, or, for a call Via a function, the argument's.
	Request bool
}

// A Source is where a value lacking a bound comes from.
type Source struct {
	What string    // "context.Background()", "context.TODO()", "http.NewRequest"
	Pos  token.Pos // the call that makes it
}

// OriginKind says how a client or dialer without a timeout is built.
type OriginKind uint8

const (
	Local       OriginKind = iota + 1 // a composite literal, new(T) or a local variable of the type
	ZeroVar                           // a package-level variable of the type (not a pointer), never assigned
	ZeroField                         // a struct field of the type (not a pointer), never assigned
	Default                           // http.DefaultClient
	Constructor                       // a library function known to return one without a timeout
)

// An Origin is where a client or dialer without a timeout is built.
type Origin struct {
	Kind OriginKind
	// Type is "http.Client", "net.Dialer" or "tls.Dialer".
	Type string
	// Pos is the composite literal's left brace, new's parenthesis, the local or package
	// variable's or field's name, the constructor call.
	Pos token.Pos
	// Alloc is the allocation of a Local origin.
	Alloc *ssa.Alloc
	// Name is the constructor's or variable's name ("http.DefaultClient",
	// "cleanhttp.DefaultClient", the field name).
	Name string
}
