package remote

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// This file is the one place that knows which calls leave the process and how each gets a
// bound. How to teach the model a new client library:
//
//  1. If the library's calls take a context.Context and nothing else can bound them (like
//     database/sql's ...Context methods), add a rule whose eval is ctxArg(i).
//  2. If a client or dialer struct carries the timeout (like http.Client.Timeout), describe the
//     struct as an objType (the fields that bound it) and evaluate the call with w.obj on the
//     receiver, combined with either() and the request's or call's context.
//  3. If a constructor of the library returns a client known to have no timeout, add it to
//     noTimeoutConstructors.
//  4. If an SDK's client methods send requests that only the context they take first bounds
//     (its default HTTP client has no Timeout), describe them in sdkClients: by package,
//     receiver and signature, so that every service client of the SDK is known at once.
//  5. If a function only passes a context through (adds values, cancellation, a span), add it
//     to ctxWrappers so that the walk goes on through it; functions not listed there stop the
//     walk with "unknown", which keeps the checks quiet.
//
// Add a test case for each new rule in testdata/src/remote (the -remote.report output) and,
// when it changes what notimeout reports, in testdata/src/notimeout.

const (
	httpPkg = "net/http"
	netPkg  = "net"
	tlsPkg  = "crypto/tls"
	smtpPkg = "net/smtp"
	wsPkg   = "golang.org/x/net/websocket"
	// RedigoPkgs are redigo's paths: its dials bound the connect (30 s by default), and a
	// read timeout only when DialReadTimeout is given, so commands on the connection wait
	// for a stalled server for good.
	redigoPkg    = "github.com/gomodule/redigo/redis"
	redigoOldPkg = "github.com/garyburd/redigo/redis"
	mailPkg      = "gopkg.in/mail.v2"
	sshPkg       = "golang.org/x/crypto/ssh"
	sqlPkg       = "database/sql"
	sqlxPkg      = "github.com/jmoiron/sqlx"
	grpcPkg      = "google.golang.org/grpc"
	ctxPkg       = "context"
)

// remotePkgs are the packages whose presence among a package's (transitive) imports makes it
// worth analysing.
var remotePkgs = []string{httpPkg, netPkg, tlsPkg, sqlPkg, grpcPkg}

// An objType is a struct that carries a timeout for the calls made through it.
type objType struct {
	pkg, name string   // the named struct type
	display   string   // "http.Client"
	fields    []string // fields whose non-zero value bounds the calls
	// subField holds a value of type sub that bounds the calls (tls.Dialer.NetDialer); nil, a
	// zero one.
	subField string
	sub      *objType
	setting  string // the field a timeout is set in, for messages: "Timeout", "HTTPClient.Timeout"
}

var (
	httpClient = &objType{pkg: httpPkg, name: "Client", display: "http.Client", fields: []string{"Timeout"}, setting: "Timeout"}
	netDialer  = &objType{pkg: netPkg, name: "Dialer", display: "net.Dialer", fields: []string{"Timeout", "Deadline"}, setting: "Timeout"}
	tlsDialer  = &objType{pkg: tlsPkg, name: "Dialer", display: "tls.Dialer", subField: "NetDialer", sub: netDialer, setting: "Timeout"}
	// go-retryablehttp sends each attempt through its HTTPClient (cleanhttp's pooled client,
	// without a Timeout, when nil).
	retryableClient = &objType{pkg: retryablehttpPkg, name: "Client", display: "retryablehttp.Client", subField: "HTTPClient", sub: httpClient, setting: "HTTPClient.Timeout"}
	// gopkg.in/mail.v2 dials SMTP with its Dialer's Timeout (NewDialer sets 10 s; a literal
	// leaves it zero: no timeout).
	mailDialer = &objType{pkg: mailPkg, name: "Dialer", display: "mail.Dialer", fields: []string{"Timeout"}, setting: "Timeout"}
	// x/crypto/ssh dials with its ClientConfig's Timeout (zero: none).
	sshConfig = &objType{pkg: sshPkg, name: "ClientConfig", display: "ssh.ClientConfig", fields: []string{"Timeout"}, setting: "Timeout"}
)

var objTypes = []*objType{httpClient, netDialer, tlsDialer, retryableClient, mailDialer, sshConfig}

// httpTransport is the transport an http.Client sends through: a ResponseHeaderTimeout bounds
// the wait for a stalled server's answer (the body's reading is the caller's, as streaming
// downloads want), so a client whose transport sets one is bounded. Not a client type itself.
var httpTransport = &objType{pkg: httpPkg, name: "Transport", display: "http.Transport", fields: []string{"ResponseHeaderTimeout"}, setting: "ResponseHeaderTimeout"}

// A constructor is a library function known to return a client without a timeout.
type constructor struct {
	name string
	t    *objType
}

// noTimeoutConstructors are library functions that return a client without a timeout.
var noTimeoutConstructors = map[flow.FuncID]constructor{
	{Pkg: "github.com/hashicorp/go-cleanhttp", Name: "DefaultClient"}:       {"cleanhttp.DefaultClient", httpClient},
	{Pkg: "github.com/hashicorp/go-cleanhttp", Name: "DefaultPooledClient"}: {"cleanhttp.DefaultPooledClient", httpClient},
	{Pkg: "oras.land/oras-go/v2/registry/remote/retry", Name: "NewClient"}:  {"retry.NewClient", httpClient},
	{Pkg: retryablehttpPkg, Name: "NewClient"}:                              {"retryablehttp.NewClient", retryableClient},
}

// timeoutConstructors are library functions that return a client or dialer with a timeout of
// their own, by what bounds it.
var timeoutConstructors = map[flow.FuncID]string{
	{Pkg: mailPkg, Name: "NewDialer"}: "mail.NewDialer's 10 s Timeout",
}

// sendsThrough are methods that return an *http.Client sending its requests through their
// receiver, a client of another type, whose settings bound them.
var sendsThrough = map[flow.FuncID]*objType{
	{Pkg: retryablehttpPkg, Recv: "Client", Name: "StandardClient"}: retryableClient,
}

// noTimeoutVars are package variables of libraries that hold an *http.Client without a
// Timeout, as http.DefaultClient does.
var noTimeoutVars = map[flow.FuncID]string{
	{Pkg: "oras.land/oras-go/v2/registry/remote/retry", Name: "DefaultClient"}: "retry.DefaultClient",
}

// An sdkClient describes the methods of an SDK's clients that send requests bounded only by
// the context they take first: the methods, of a receiver type in one of pkgs (a path
// ending in "/" covers the packages below it), whose first parameter is a context.Context
// and whose last result is an error, and that match the rest of the description.
type sdkClient struct {
	pkgs []string
	// recv is the receiver type's name; with a leading "*", its suffix ("*Client"); empty,
	// any type of the package.
	recv string
	// names are the methods; empty, every method of the shape.
	names []string
	// input, when set, is the suffix of the name of a struct, a pointer to which is a
	// parameter (aws-sdk-go-v2's *GetObjectInput).
	input string
	// options, when set, is the suffix of the name of the struct the last parameter points
	// to (the Azure SDK's *UploadBufferOptions), or "...func" for a variadic func(*Options).
	options string
	// noClient is set when the receiver holds no HTTP client of its own (a credentials
	// cache): where it is made is not a cause, the context the call is given is.
	noClient bool
	// except, when set, is the prefix of the names of methods that are not listed (waiters).
	except string
}

// sdkClients: the SDKs' default HTTP clients have no Timeout (aws-sdk-go-v2's BuildableClient
// unless WithTimeout, Azure's azcore pipeline, minio-go's transport bounds only the wait for
// response headers), and their retries go on until the context ends (Cloud Storage) or for
// a count of attempts that each may hang.
var sdkClients = []sdkClient{
	// AWS SDK for Go v2: every operation of a service client, (ctx, *XInput, ...func(*Options)),
	// and the pages of its paginators. Waiters take a maximum wait and are not listed.
	{pkgs: []string{"github.com/aws/aws-sdk-go-v2/service/"}, recv: "Client", input: "Input", options: "...func"},
	{pkgs: []string{"github.com/aws/aws-sdk-go-v2/service/"}, recv: "*Paginator", names: []string{"NextPage"}},
	// AWS SDK for Go v1: OpWithContext(ctx, *OpInput, ...request.Option) of every service
	// client (Op(input), without a context, sends with context.Background(): see
	// knowledge.SDKContextForm); waiters take a maximum wait and are not listed. A session's
	// default HTTP client is http.DefaultClient.
	{pkgs: []string{"github.com/aws/aws-sdk-go/service/"}, input: "Input", options: "...func", except: "WaitUntil"},
	// Cloud Storage: the methods of its handles and client that take a context. The gapic
	// clients of cloud.google.com/go give each method a default timeout, and are not listed.
	{pkgs: []string{"cloud.google.com/go/storage"}},
	// minio-go v7 (and v6's ...WithContext methods). The methods that return a channel
	// (ListObjects, ListenBucketNotification) stream, and have no error to match.
	{pkgs: []string{"github.com/minio/minio-go", "github.com/minio/minio-go/v6", "github.com/minio/minio-go/v7"}, recv: "*Client"},
	{pkgs: []string{"github.com/minio/minio-go/v7"}, recv: "Core"},
	// Azure SDK: the methods of every client, (ctx, ..., *XOptions), and azcore's pagers and
	// pollers.
	{pkgs: []string{"github.com/Azure/azure-sdk-for-go/sdk/"}, recv: "*Client", options: "Options"},
	{pkgs: []string{"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"}, recv: "Pager", names: []string{"NextPage"}},
	{pkgs: []string{"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"}, recv: "Poller", names: []string{"PollUntilDone"}},
	// etcd's client (clientv3): key-value and lease requests are gRPC calls that only their
	// context bounds (the client's DialTimeout bounds the dial). Streams that live as long as
	// their context (Watch, KeepAlive) and the concurrency package's waits are not listed.
	{pkgs: []string{"go.etcd.io/etcd/client/v3", "github.com/coreos/etcd/clientv3"}, names: []string{
		"Get", "Put", "Delete", "Compact", "Do", "Grant", "Revoke", "TimeToLive", "Leases", "KeepAliveOnce",
		"MemberList", "MemberAdd", "MemberRemove", "MemberUpdate", "MemberPromote", "Status", "AlarmList", "HashKV"}},
	// aws-sdk-go-v2's credentials: a provider's Retrieve (and the cache's, when what it holds
	// has expired) asks STS, the instance metadata service or an SSO endpoint, through the
	// SDK's default client, which has no Timeout.
	{pkgs: []string{"github.com/aws/aws-sdk-go-v2/aws"}, recv: "CredentialsProvider", names: []string{"Retrieve"}, noClient: true},
	{pkgs: []string{"github.com/aws/aws-sdk-go-v2/aws"}, recv: "CredentialsCache", names: []string{"Retrieve"}, noClient: true},
	// go-oidc: a verifier fetches the provider's signing keys when a token names a key it has
	// not seen (through the client the context carries, else http.DefaultClient) and waits
	// for that fetch until its context ends; the fetch itself is behind the KeySet interface.
	{pkgs: []string{"github.com/coreos/go-oidc/v3/oidc"}, recv: "IDTokenVerifier", names: []string{"Verify"}},
}

// sdkCall reports whether fn is a method of an SDK's client that sends requests bounded only
// by its context (its first argument).
func sdkCall(fn *types.Func) bool { return sdkClientOf(fn) != nil }

// sdkClientOf returns the description of the SDK client whose method fn is, or nil.
func sdkClientOf(fn *types.Func) *sdkClient {
	id := flow.ID(fn)
	if id.Recv == "" {
		return nil
	}
	sig := fn.Signature()
	params, results := sig.Params(), sig.Results()
	for i := range sdkClients {
		c := &sdkClients[i]
		if !c.covers(id) {
			continue
		}
		if params.Len() == 0 || !typeis.Context(params.At(0).Type()) || results.Len() == 0 || !typeis.Error(results.At(results.Len()-1).Type()) {
			continue
		}
		if c.input != "" && !slices.ContainsFunc(slices.Collect(params.Variables()), func(p *types.Var) bool { return pointsTo(p.Type(), c.input) }) {
			continue
		}
		switch last := params.At(params.Len() - 1).Type(); {
		case c.options == "...func":
			if s, isSlice := last.(*types.Slice); !sig.Variadic() || !isSlice || !isFunc(s.Elem()) {
				continue
			}
		case c.options != "" && !pointsTo(last, c.options):
			continue
		}
		return c
	}
	return nil
}

// covers reports whether the method id is of a receiver and name that c describes.
func (c *sdkClient) covers(id flow.FuncID) bool {
	in := slices.ContainsFunc(c.pkgs, func(p string) bool {
		if strings.HasSuffix(p, "/") {
			return strings.HasPrefix(id.Pkg, p)
		}
		return id.Pkg == p
	})
	if !in || len(c.names) > 0 && !slices.Contains(c.names, id.Name) || c.except != "" && strings.HasPrefix(id.Name, c.except) {
		return false
	}
	if suffix, ok := strings.CutPrefix(c.recv, "*"); ok {
		return strings.HasSuffix(id.Recv, suffix)
	}
	return c.recv == "" || id.Recv == c.recv
}

// pointsTo reports whether t is a pointer to a named type whose name ends with suffix.
func pointsTo(t types.Type, suffix string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && strings.HasSuffix(n.Obj().Name(), suffix)
}

func isFunc(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// ctxWrappers are functions that return a context derived from one of their arguments (by
// index, receiver excluded) without adding a deadline: the walk goes on through that argument.
var ctxWrappers = map[flow.FuncID]int{
	{Pkg: ctxPkg, Name: "WithCancel"}:                                             0,
	{Pkg: ctxPkg, Name: "WithCancelCause"}:                                        0,
	{Pkg: ctxPkg, Name: "WithValue"}:                                              0,
	{Pkg: "os/signal", Name: "NotifyContext"}:                                     0,
	{Pkg: grpcPkg + "/metadata", Name: "AppendToOutgoingContext"}:                 0,
	{Pkg: grpcPkg + "/metadata", Name: "NewOutgoingContext"}:                      0,
	{Pkg: "golang.org/x/sync/errgroup", Name: "WithContext"}:                      0,
	{Pkg: "go.opentelemetry.io/otel/trace", Name: "ContextWithSpan"}:              0,
	{Pkg: "go.opentelemetry.io/otel/trace", Recv: "Tracer", Name: "Start"}:        0,
	{Pkg: "go.opentelemetry.io/otel/baggage", Name: "ContextWithBaggage"}:         0,
	{Pkg: "go.opentelemetry.io/otel/trace", Name: "ContextWithSpanContext"}:       0,
	{Pkg: "go.opentelemetry.io/otel/trace", Name: "ContextWithRemoteSpanContext"}: 0,
}

// deadlineMakers are the functions whose context has a deadline.
var deadlineMakers = map[string]bool{
	"WithTimeout": true, "WithDeadline": true, "WithTimeoutCause": true, "WithDeadlineCause": true,
}

// MakesDeadline reports whether id is one of context's functions whose context has a deadline
// (see deadlineMakers).
func MakesDeadline(id flow.FuncID) bool {
	return id.Pkg == "context" && id.Recv == "" && deadlineMakers[id.Name]
}

// addrArgs says which argument (receiver excluded) of a remote call names where it goes, so
// that calls to this machine written as constants ("http://localhost:8080") can be told
// apart; fromRequest means the request's URL (argument 0).
const fromRequest = -1

var addrArgs = map[flow.FuncID]int{
	{Pkg: httpPkg, Name: "Get"}: 0, {Pkg: httpPkg, Name: "Head"}: 0, {Pkg: httpPkg, Name: "Post"}: 0, {Pkg: httpPkg, Name: "PostForm"}: 0,
	{Pkg: httpPkg, Recv: "Client", Name: "Get"}: 0, {Pkg: httpPkg, Recv: "Client", Name: "Head"}: 0,
	{Pkg: httpPkg, Recv: "Client", Name: "Post"}: 0, {Pkg: httpPkg, Recv: "Client", Name: "PostForm"}: 0,
	{Pkg: httpPkg, Recv: "Client", Name: "Do"}: fromRequest, {Pkg: httpPkg, Recv: "Transport", Name: "RoundTrip"}: fromRequest,
	{Pkg: httpPkg, Recv: "RoundTripper", Name: "RoundTrip"}: fromRequest,
	{Pkg: netPkg, Name: "Dial"}:                             1, {Pkg: netPkg, Name: "DialTimeout"}: 1,
	{Pkg: netPkg, Recv: "Dialer", Name: "Dial"}: 1, {Pkg: netPkg, Recv: "Dialer", Name: "DialContext"}: 2,
	{Pkg: tlsPkg, Name: "Dial"}: 1, {Pkg: tlsPkg, Name: "DialWithDialer"}: 2,
	{Pkg: smtpPkg, Name: "Dial"}: 0, {Pkg: smtpPkg, Name: "SendMail"}: 0, {Pkg: wsPkg, Name: "Dial"}: 0,
	{Pkg: tlsPkg, Recv: "Dialer", Name: "Dial"}: 1, {Pkg: tlsPkg, Recv: "Dialer", Name: "DialContext"}: 2,
	{Pkg: grpcPkg, Name: "Dial"}: 0, {Pkg: grpcPkg, Name: "DialContext"}: 1,
}

// A rule says that calls of one function or method leave the process, and how they are bounded.
type rule struct {
	kind   Kind
	name   string // for messages
	method string // the HTTP method a package function or client method fixes
	// eval says what bounds one call; ok false means this call does not leave the process
	// after all (net.Dial of a UDP socket, a non-blocking gRPC dial).
	eval func(w *walker, s *flow.Site) (v verdict, ok bool)
}

var rules = map[flow.FuncID]rule{}

func init() {
	add := func(pkg, recv, name string, kind Kind, method string, eval func(w *walker, s *flow.Site) (verdict, bool)) {
		display := shortPkg(pkg) + "."
		if recv != "" {
			display += recv + "."
		}
		rules[flow.FuncID{Pkg: pkg, Recv: recv, Name: name}] = rule{kind: kind, name: display + name, method: method, eval: eval}
	}

	// net/http. The package functions use http.DefaultClient and a request without a context.
	for name, method := range map[string]string{"Get": "GET", "Head": "HEAD", "Post": "POST", "PostForm": "POST"} {
		add(httpPkg, "", name, HTTP, method, func(w *walker, s *flow.Site) (verdict, bool) {
			return either(w.defaultClient(), noContext()), true
		})
		add(httpPkg, "Client", name, HTTP, method, func(w *walker, s *flow.Site) (verdict, bool) {
			return either(w.obj(s.Recv, nil, httpClient), noContext()), true
		})
	}
	add(httpPkg, "Client", "Do", HTTP, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Recv, nil, httpClient), w.req(s.Arg(0), nil)), true
	})
	// go-retryablehttp: every attempt goes through the client's HTTPClient.
	for name, method := range map[string]string{"Get": "GET", "Head": "HEAD", "Post": "POST", "PostForm": "POST"} {
		add(retryablehttpPkg, "Client", name, HTTP, method, func(w *walker, s *flow.Site) (verdict, bool) {
			return either(w.obj(s.Recv, nil, retryableClient), noContext()), true
		})
	}
	add(retryablehttpPkg, "Client", "Do", HTTP, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Recv, nil, retryableClient), w.req(s.Arg(0), nil)), true
	})
	roundTrip := func(w *walker, s *flow.Site) (verdict, bool) { return w.req(s.Arg(0), nil), true }
	add(httpPkg, "Transport", "RoundTrip", HTTP, "", roundTrip)
	add(httpPkg, "RoundTripper", "RoundTrip", HTTP, "", roundTrip)

	// net and crypto/tls.
	add(netPkg, "", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return noContext(), w.connects(s.Arg(0), s.Arg(1))
	})
	add(netPkg, "", "DialTCP", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return noContext(), w.connects(nil, s.Arg(2))
	})
	add(netPkg, "", "DialTimeout", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		if d, ok := flow.IntConst(s.Arg(2)); ok && d <= 0 {
			return noContext(), w.connects(s.Arg(0), s.Arg(1)) // a zero timeout is none
		}
		return boundedFor("net.DialTimeout", s.Arg(2)), w.connects(s.Arg(0), s.Arg(1))
	})
	add(netPkg, "Dialer", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Recv, nil, netDialer), noContext()), w.connects(s.Arg(0), s.Arg(1))
	})
	add(netPkg, "Dialer", "DialContext", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Recv, nil, netDialer), w.ctx(s.Arg(0), nil)), w.connects(s.Arg(1), s.Arg(2))
	})
	// x/net/websocket's Dial dials with a zero net.Dialer and then shakes hands, with no
	// deadline on either (DialConfig takes a Config whose Dialer may have one).
	add(wsPkg, "", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return noContext(), true
	})
	for _, pkg := range []string{redigoPkg, redigoOldPkg} {
		for name, opts := range map[string]int{"Dial": 2, "DialContext": 3, "DialURL": 1, "DialURLContext": 2} {
			add(pkg, "", name, Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
				return w.redigoDial(s.Variadic(opts)), true
			})
		}
	}
	// net/smtp dials with net.Dial: no timeout, and none can be given.
	add(smtpPkg, "", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return noContext(), w.connects(nil, s.Arg(0))
	})
	add(smtpPkg, "", "SendMail", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return noContext(), w.connects(nil, s.Arg(0))
	})
	add(sshPkg, "", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Arg(2), nil, sshConfig), noContext()), w.connects(s.Arg(0), s.Arg(1))
	})
	for _, name := range []string{"Dial", "DialAndSend"} {
		add(mailPkg, "Dialer", name, Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
			return either(w.obj(s.Recv, nil, mailDialer), noContext()), true
		})
	}
	add(tlsPkg, "", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return noContext(), w.connects(nil, s.Arg(1))
	})
	add(tlsPkg, "", "DialWithDialer", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Arg(0), nil, netDialer), noContext()), w.connects(nil, s.Arg(2))
	})
	add(tlsPkg, "Dialer", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Recv, nil, tlsDialer), noContext()), w.connects(nil, s.Arg(1))
	})
	add(tlsPkg, "Dialer", "DialContext", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return either(w.obj(s.Recv, nil, tlsDialer), w.ctx(s.Arg(0), nil)), w.connects(nil, s.Arg(2))
	})

	// gRPC dials block only with WithBlock (or WithReturnConnectionError); NewClient never
	// blocks. Calls are recognised by their signature (see grpcCall).
	add(grpcPkg, "", "Dial", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return w.grpcDial(s.Variadic(1), noContext())
	})
	add(grpcPkg, "", "DialContext", Dial, "", func(w *walker, s *flow.Site) (verdict, bool) {
		return w.grpcDial(s.Variadic(2), w.ctx(s.Arg(0), nil))
	})

	// database/sql: the methods without a context have none at all; the ...Context forms
	// (and BeginTx) are bounded by their context.
	noCtx := func(w *walker, s *flow.Site) (verdict, bool) { return noContext(), true }
	ctxArg := func(w *walker, s *flow.Site) (verdict, bool) { return w.ctx(s.Arg(0), nil), true }
	for _, recv := range []string{"DB", "Conn", "Tx", "Stmt"} {
		for _, name := range []string{"Query", "QueryRow", "Exec"} {
			if recv == "Conn" {
				continue // sql.Conn has only the context forms
			}
			add(sqlPkg, recv, name, SQL, "", noCtx)
		}
		for _, name := range []string{"QueryContext", "QueryRowContext", "ExecContext"} {
			add(sqlPkg, recv, name, SQL, "", ctxArg)
		}
		if recv != "Stmt" {
			add(sqlPkg, recv, "PrepareContext", SQL, "", ctxArg)
			if recv != "Conn" {
				add(sqlPkg, recv, "Prepare", SQL, "", noCtx)
			}
		}
	}
	add(sqlPkg, "DB", "Begin", SQL, "", noCtx)
	add(sqlPkg, "DB", "BeginTx", SQL, "", ctxArg)
	add(sqlPkg, "Conn", "BeginTx", SQL, "", ctxArg)

	// sqlx: its own query methods, alike (DB and Tx embed database/sql's, whose methods are
	// the rules above), and the package functions taking a Queryer or Execer.
	for _, recv := range []string{"DB", "Tx", ""} {
		for _, name := range []string{"Get", "Select", "Queryx", "QueryRowx", "NamedExec", "NamedQuery", "MustExec", "Preparex", "PrepareNamed"} {
			if recv == "" && name == "QueryRowx" {
				continue
			}
			add(sqlxPkg, recv, name, SQL, "", noCtx)
			add(sqlxPkg, recv, name+"Context", SQL, "", ctxArg)
		}
	}
	add(sqlxPkg, "DB", "Beginx", SQL, "", noCtx)
	add(sqlxPkg, "DB", "MustBegin", SQL, "", noCtx)
	add(sqlxPkg, "DB", "BeginTxx", SQL, "", ctxArg)
	add(sqlxPkg, "DB", "MustBeginTx", SQL, "", ctxArg)
}

// grpcCall reports whether fn has the signature of a gRPC client call: a context first, a
// variadic ...grpc.CallOption last, and an error last among the results. Generated stubs,
// ClientConnInterface.Invoke and NewStream all have it. A call returning an interface (a
// stream) is a streaming call.
func grpcCall(fn *types.Func) (stream, ok bool) {
	sig, isSig := fn.Type().(*types.Signature)
	if !isSig || !sig.Variadic() {
		return false, false
	}
	params, results := sig.Params(), sig.Results()
	if params.Len() < 2 || !typeis.Context(params.At(0).Type()) {
		return false, false
	}
	last, isSlice := params.At(params.Len() - 1).Type().(*types.Slice)
	if !isSlice || !typeis.Named(last.Elem(), grpcPkg, "CallOption") {
		return false, false
	}
	if results.Len() == 0 || !typeis.Error(results.At(results.Len()-1).Type()) {
		return false, false
	}
	if results.Len() == 2 {
		_, stream = results.At(0).Type().Underlying().(*types.Interface)
	}
	return stream, true
}

// pluginConn reports whether the gRPC stub recv was made from a connection hashicorp/go-plugin
// hands out (knowledge.PluginPkg): the *grpc.ClientConn parameter of a function that is also
// handed the plugin's *GRPCBroker (a GRPCPlugin's GRPCClient), or GRPCBroker.Dial's. The RPC
// goes to a process on this machine.
func (st *state) pluginConn(recv ssa.Value) bool {
	if recv == nil {
		return false
	}
	found := false
	st.stores.Backward(recv, 64, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Parameter:
			if typeis.Named(x.Type(), grpcPkg, "ClientConn") {
				found = slices.ContainsFunc(x.Parent().Params, func(p *ssa.Parameter) bool {
					return typeis.Named(p.Type(), knowledge.PluginPkg, "GRPCBroker")
				})
			}
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			found = id.Pkg == knowledge.PluginPkg && id.Recv == "GRPCBroker" && id.Name == "Dial"
		}
		return !found
	})
	return found
}

// connectCall reports whether fn has the signature of a Connect client call (see
// knowledge.ConnectPackage): (ctx, *connect.Request[T]) and (*connect.Response[U], error) for
// a unary call (generated client methods, Client.CallUnary), or a
// *connect.ServerStreamForClient[U] for a server stream.
func connectCall(fn *types.Func) (stream, ok bool) {
	sig, isSig := fn.Type().(*types.Signature)
	if !isSig || sig.Recv() == nil || sig.Params().Len() != 2 || sig.Results().Len() != 2 {
		return false, false
	}
	params, results := sig.Params(), sig.Results()
	if !typeis.Context(params.At(0).Type()) || !typeis.Error(results.At(1).Type()) || !connectType(params.At(1).Type(), "Request") {
		return false, false
	}
	switch {
	case connectType(results.At(0).Type(), "Response"):
		return false, true
	case connectType(results.At(0).Type(), "ServerStreamForClient"):
		return true, true
	}
	return false, false
}

// connectType reports whether t is a pointer to Connect's generic type name.
func connectType(t types.Type, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Name() == name && knowledge.ConnectPackage(n.Obj().Pkg().Path())
}

// connects reports whether dialing addr on network makes a connection with a peer that can
// stall. UDP, IP and Unix sockets (when network is a constant naming one) do not wait for a
// peer; neither does a connection to the address of a listener the program holds
// (ln.Addr()), which the kernel accepts at once.
func (w *walker) connects(network, addr ssa.Value) bool {
	if s, ok := flow.StringConst(network); ok {
		for _, p := range []string{"udp", "ip", "unix"} {
			if strings.HasPrefix(s, p) {
				return false
			}
		}
	}
	return addr == nil || !w.listenerAddr(addr, 0)
}

// listenerAddr reports whether the address v is computed from a listener's Addr(), in the
// function or through the struct fields, package variables and functions of the package it
// comes from, when every value these hold or return is one (a harness keeping the address of
// the server it started).
func (w *walker) listenerAddr(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	all := func(vals []ssa.Value) bool {
		for _, x := range vals {
			if !w.listenerAddr(x, depth+1) {
				return false
			}
		}
		return len(vals) > 0
	}
	self := false
	flow.Backward(v, 64, func(v ssa.Value) bool {
		if self {
			return false
		}
		switch x := v.(type) {
		case *ssa.Call:
			id := flow.ID(flow.Callee(x.Common()))
			if id.Pkg == netPkg && id.Name == "Addr" && strings.HasSuffix(id.Recv, "Listener") {
				self = true
			} else if fn := x.Common().StaticCallee(); fn != nil && fn.Pkg == w.st.pkg {
				self = all(slices.Collect(returned(fn, 0)))
			}
		case *ssa.UnOp:
			self = all(w.st.stores.Loaded(x))
		}
		return !self
	})
	return self
}

// pkgNames are the names of the packages whose name is not their path's last element.
var pkgNames = map[string]string{retryablehttpPkg: "retryablehttp"}

func shortPkg(path string) string {
	if name, ok := pkgNames[path]; ok {
		return name
	}
	if i := strings.LastIndex(path, "/"); i >= 0 {
		return path[i+1:]
	}
	return path
}
