package knowledge

import (
	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Clients and dialers: which struct carries the timeout of the calls made through it, which
// library functions and variables make one without a timeout, and which argument of a
// remote call names where it goes. The remote model reads these tables (remote/known.go holds
// the rules that evaluate each call).

// A ClientType is a struct that carries a timeout for the calls made through it.
type ClientType struct {
	Pkg, Name string   // the named struct type
	Display   string   // "http.Client"
	Fields    []string // fields whose non-zero value bounds the calls
	// SubField holds a value of type sub that bounds the calls (tls.Dialer.NetDialer); nil, a
	// zero one.
	SubField string
	Sub      *ClientType
	Setting  string // the field a timeout is set in, for messages: "Timeout", "HTTPClient.Timeout"
	// Setters are methods whose argument, unless a zero constant, is the timeout (resty's
	// SetTimeout); Opaque, methods that hand over a part whose bound the model does not
	// follow (resty's SetTransport, or GetClient, whose *http.Client a caller may change).
	Setters, Opaque []string
	// Hooks are methods that install a function run on every request before it is sent
	// (resty's OnBeforeRequest): one that gives the request a context leaves the bound to it.
	Hooks []string
	// Chain is set when the type's methods that return the type return the value they are
	// called on, or a copy of it (a builder's setters, resty's Clone).
	Chain bool
}

var (
	HTTPClient = &ClientType{Pkg: HTTPPath, Name: "Client", Display: "http.Client", Fields: []string{"Timeout"}, Setting: "Timeout"}
	NetDialer  = &ClientType{Pkg: NetPath, Name: "Dialer", Display: "net.Dialer", Fields: []string{"Timeout", "Deadline"}, Setting: "Timeout"}
	TLSDialer  = &ClientType{Pkg: TLSPath, Name: "Dialer", Display: "tls.Dialer", SubField: "NetDialer", Sub: NetDialer, Setting: "Timeout"}
	// go-retryablehttp sends each attempt through its HTTPClient (cleanhttp's pooled client,
	// without a Timeout, when nil).
	RetryableHTTPClient = &ClientType{Pkg: RetryableHTTPPath, Name: "Client", Display: "retryablehttp.Client", SubField: "HTTPClient", Sub: HTTPClient, Setting: "HTTPClient.Timeout"}
	// gopkg.in/mail.v2 dials SMTP with its Dialer's Timeout (NewDialer sets 10 s; a literal
	// leaves it zero: no timeout).
	MailDialer = &ClientType{Pkg: MailPath, Name: "Dialer", Display: "mail.Dialer", Fields: []string{"Timeout"}, Setting: "Timeout"}
	// x/crypto/ssh dials with its ClientConfig's Timeout (zero: none).
	SSHClientConfig = &ClientType{Pkg: SSHPath, Name: "ClientConfig", Display: "ssh.ClientConfig", Fields: []string{"Timeout"}, Setting: "Timeout"}
	// resty v2 sends through its *http.Client, which New makes without a Timeout (its
	// transport bounds the dial and the TLS handshake, not the wait for an answer);
	// SetTimeout sets one. (resty.dev/v3's defaults are not modelled.)
	RestyClient = &ClientType{Pkg: RestyPaths[0], Name: "Client", Display: "resty.Client", Setting: "timeout (SetTimeout)",
		Setters: []string{"SetTimeout"}, Opaque: []string{"SetTransport", "GetClient"}, Hooks: []string{"OnBeforeRequest", "SetPreRequestHook"}, Chain: true}
)

var ClientTypes = []*ClientType{HTTPClient, NetDialer, TLSDialer, RetryableHTTPClient, MailDialer, SSHClientConfig, RestyClient}

// HTTPTransport is the transport an http.Client sends through: a ResponseHeaderTimeout bounds
// the wait for a stalled server's answer (the body's reading is the caller's, as streaming
// downloads want), so a client whose transport sets one is bounded. Not a client type itself.
var HTTPTransport = &ClientType{Pkg: HTTPPath, Name: "Transport", Display: "http.Transport", Fields: []string{"ResponseHeaderTimeout"}, Setting: "ResponseHeaderTimeout"}

// A Constructor is a library function known to return a client without a timeout.
type Constructor struct {
	Name string
	Type *ClientType
}

// NoTimeoutConstructors are library functions that return a client without a timeout.
var NoTimeoutConstructors = map[flow.FuncID]Constructor{
	{Pkg: "github.com/hashicorp/go-cleanhttp", Name: "DefaultClient"}:       {"cleanhttp.DefaultClient", HTTPClient},
	{Pkg: "github.com/hashicorp/go-cleanhttp", Name: "DefaultPooledClient"}: {"cleanhttp.DefaultPooledClient", HTTPClient},
	{Pkg: "oras.land/oras-go/v2/registry/remote/retry", Name: "NewClient"}:  {"retry.NewClient", HTTPClient},
	{Pkg: RetryableHTTPPath, Name: "NewClient"}:                             {"retryablehttp.NewClient", RetryableHTTPClient},
	{Pkg: RestyPaths[0], Name: "New"}:                                       {"resty.New", RestyClient},
	{Pkg: RestyPaths[0], Name: "NewWithLocalAddr"}:                          {"resty.NewWithLocalAddr", RestyClient},
}

// Wraps are library functions that return a client of another type sending through the
// *http.Client they are given (argument 0), whose Timeout bounds it.
var Wraps = map[flow.FuncID]*ClientType{
	{Pkg: RestyPaths[0], Name: "NewWithClient"}: RestyClient,
}

// TimeoutConstructors are library functions that return a client or dialer with a timeout of
// their own, by what bounds it.
var TimeoutConstructors = map[flow.FuncID]string{
	{Pkg: MailPath, Name: "NewDialer"}: "mail.NewDialer's 10 s Timeout",
}

// SendsThrough are methods that return an *http.Client sending its requests through their
// receiver, a client of another type, whose settings bound them.
var SendsThrough = map[flow.FuncID]*ClientType{
	{Pkg: RetryableHTTPPath, Recv: "Client", Name: "StandardClient"}: RetryableHTTPClient,
}

// NoTimeoutVars are package variables of libraries that hold an *http.Client without a
// Timeout, as http.DefaultClient does.
var NoTimeoutVars = map[flow.FuncID]string{
	{Pkg: "oras.land/oras-go/v2/registry/remote/retry", Name: "DefaultClient"}: "retry.DefaultClient",
}

// AddrArgs says which argument (receiver excluded) of a remote call names where it goes, so
// that calls to this machine written as constants ("http://localhost:8080") can be told
// apart; FromRequest means the request's URL (argument 0).
const FromRequest = -1

var AddrArgs = map[flow.FuncID]int{
	{Pkg: HTTPPath, Name: "Get"}: 0, {Pkg: HTTPPath, Name: "Head"}: 0, {Pkg: HTTPPath, Name: "Post"}: 0, {Pkg: HTTPPath, Name: "PostForm"}: 0,
	{Pkg: HTTPPath, Recv: "Client", Name: "Get"}: 0, {Pkg: HTTPPath, Recv: "Client", Name: "Head"}: 0,
	{Pkg: HTTPPath, Recv: "Client", Name: "Post"}: 0, {Pkg: HTTPPath, Recv: "Client", Name: "PostForm"}: 0,
	{Pkg: HTTPPath, Recv: "Client", Name: "Do"}: FromRequest, {Pkg: HTTPPath, Recv: "Transport", Name: "RoundTrip"}: FromRequest,
	{Pkg: HTTPPath, Recv: "RoundTripper", Name: "RoundTrip"}: FromRequest,
	{Pkg: NetPath, Name: "Dial"}:                             1, {Pkg: NetPath, Name: "DialTimeout"}: 1,
	{Pkg: NetPath, Recv: "Dialer", Name: "Dial"}: 1, {Pkg: NetPath, Recv: "Dialer", Name: "DialContext"}: 2,
	{Pkg: TLSPath, Name: "Dial"}: 1, {Pkg: TLSPath, Name: "DialWithDialer"}: 2,
	{Pkg: SMTPPath, Name: "Dial"}: 0, {Pkg: SMTPPath, Name: "SendMail"}: 0, {Pkg: WebSocketPath, Name: "Dial"}: 0,
	{Pkg: TLSPath, Recv: "Dialer", Name: "Dial"}: 1, {Pkg: TLSPath, Recv: "Dialer", Name: "DialContext"}: 2,
	{Pkg: GRPCPath, Name: "Dial"}: 0, {Pkg: GRPCPath, Name: "DialContext"}: 1,
}
