package knowledge

import (
	"slices"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// An SDKClient describes the methods of an SDK's clients that send requests bounded only by
// the context they take first: the methods, of a receiver type in one of Pkgs (a path
// ending in "/" covers the packages below it), whose first parameter is a context.Context
// and whose last result is an error, and that match the rest of the description.
type SDKClient struct {
	Pkgs []string
	// Recv is the receiver type's name; with a leading "*", its suffix ("*Client"); empty,
	// any type of the package.
	Recv string
	// Names are the methods; empty, every method of the shape.
	Names []string
	// Input, when set, is the suffix of the name of a struct, a pointer to which is a
	// parameter (aws-sdk-go-v2's *GetObjectInput).
	Input string
	// Options, when set, is the suffix of the name of the struct the last parameter points
	// to (the Azure SDK's *UploadBufferOptions), or "...func" for a variadic func(*Options).
	Options string
	// NoClient is set when the receiver holds no HTTP client of its own (a credentials
	// cache): where it is made is not a cause, the context the call is given is.
	NoClient bool
	// Except, when set, is the prefix of the names of methods that are not listed (waiters).
	Except string
	// Headed are the methods whose request and answer carry no body to stream, which the SDK's
	// default transport bounds by its wait for response headers (HeadedBy), whatever the
	// context: a stalled server cannot hold them.
	Headed   []string
	HeadedBy string
}

// SDKClients: the SDKs' default HTTP clients have no Timeout (aws-sdk-go-v2's BuildableClient
// unless WithTimeout, Azure's azcore pipeline, minio-go's transport bounds only the wait for
// response headers), and their retries go on until the context ends (Cloud Storage) or for
// a count of attempts that each may hang.
var SDKClients = []SDKClient{
	// AWS SDK for Go v2: every operation of a service client, (ctx, *XInput, ...func(*Options)),
	// and the pages of its paginators. Waiters take a maximum wait and are not listed.
	{Pkgs: []string{"github.com/aws/aws-sdk-go-v2/service/"}, Recv: "Client", Input: "Input", Options: "...func"},
	{Pkgs: []string{"github.com/aws/aws-sdk-go-v2/service/"}, Recv: "*Paginator", Names: []string{"NextPage"}},
	// AWS SDK for Go v1: OpWithContext(ctx, *OpInput, ...request.Option) of every service
	// client (Op(input), without a context, sends with context.Background(): see
	// knowledge.SDKContextForm); waiters take a maximum wait and are not listed. A session's
	// default HTTP client is http.DefaultClient.
	{Pkgs: []string{"github.com/aws/aws-sdk-go/service/"}, Input: "Input", Options: "...func", Except: "WaitUntil"},
	// Cloud Storage: the methods of its handles and client that take a context. The gapic
	// clients of cloud.google.com/go give each method a default timeout, and are not listed.
	{Pkgs: []string{"cloud.google.com/go/storage"}},
	// minio-go v7 (and v6's ...WithContext methods). The methods that return a channel
	// (ListObjects, ListenBucketNotification) stream, and have no error to match.
	{Pkgs: []string{"github.com/minio/minio-go", "github.com/minio/minio-go/v6", "github.com/minio/minio-go/v7"}, Recv: "*Client",
		Headed:   []string{"BucketExists", "MakeBucket", "RemoveBucket", "StatObject", "RemoveObject", "GetBucketLocation", "GetBucketPolicy", "SetBucketPolicy", "GetBucketVersioning", "GetBucketTagging"},
		HeadedBy: "minio-go's default transport (ResponseHeaderTimeout 1 min)"},
	{Pkgs: []string{"github.com/minio/minio-go/v7"}, Recv: "Core"},
	// Azure SDK: the methods of every client, (ctx, ..., *XOptions), and azcore's pagers and
	// pollers.
	{Pkgs: []string{"github.com/Azure/azure-sdk-for-go/sdk/"}, Recv: "*Client", Options: "Options"},
	{Pkgs: []string{"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"}, Recv: "Pager", Names: []string{"NextPage"}},
	{Pkgs: []string{"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"}, Recv: "Poller", Names: []string{"PollUntilDone"}},
	// etcd's client (clientv3): key-value and lease requests are gRPC calls that only their
	// context bounds (the client's DialTimeout bounds the dial). Streams that live as long as
	// their context (Watch, KeepAlive) and the concurrency package's waits are not listed.
	{Pkgs: []string{"go.etcd.io/etcd/client/v3", "github.com/coreos/etcd/clientv3"}, Names: []string{
		"Get", "Put", "Delete", "Compact", "Do", "Grant", "Revoke", "TimeToLive", "Leases", "KeepAliveOnce",
		"MemberList", "MemberAdd", "MemberRemove", "MemberUpdate", "MemberPromote", "Status", "AlarmList", "HashKV"}},
	// aws-sdk-go-v2's credentials: a provider's Retrieve (and the cache's, when what it holds
	// has expired) asks STS, the instance metadata service or an SSO endpoint, through the
	// SDK's default client, which has no Timeout.
	{Pkgs: []string{"github.com/aws/aws-sdk-go-v2/aws"}, Recv: "CredentialsProvider", Names: []string{"Retrieve"}, NoClient: true},
	{Pkgs: []string{"github.com/aws/aws-sdk-go-v2/aws"}, Recv: "CredentialsCache", Names: []string{"Retrieve"}, NoClient: true},
	// Prometheus's HTTP API client (client_golang's api/prometheus/v1): every method of the
	// API interface asks the server through the api.Client it is made with, whose default
	// round tripper bounds the dial and the TLS handshake but not the wait for the answer; the
	// context alone bounds a query. (A Config.Client with a Timeout would; it is not read.)
	{Pkgs: []string{"github.com/prometheus/client_golang/api/prometheus/v1"}, Recv: "API", NoClient: true},
	// go-oidc: a verifier fetches the provider's signing keys when a token names a key it has
	// not seen (through the client the context carries, else http.DefaultClient) and waits
	// for that fetch until its context ends; the fetch itself is behind the KeySet interface.
	{Pkgs: []string{"github.com/coreos/go-oidc/v3/oidc"}, Recv: "IDTokenVerifier", Names: []string{"Verify"}},
}

// SDKPackage reports whether path is a package of an SDK's clients (SDKClients).
func SDKPackage(path string) bool {
	return slices.ContainsFunc(SDKClients, func(c SDKClient) bool { return c.has(path) })
}

func (c *SDKClient) has(path string) bool {
	return slices.ContainsFunc(c.Pkgs, func(p string) bool {
		if strings.HasSuffix(p, "/") {
			return strings.HasPrefix(path, p)
		}
		return path == p
	})
}

// Covers reports whether the method id is of a receiver and name that c describes.
func (c *SDKClient) Covers(id flow.FuncID) bool {
	if !c.has(id.Pkg) || len(c.Names) > 0 && !slices.Contains(c.Names, id.Name) || c.Except != "" && strings.HasPrefix(id.Name, c.Except) {
		return false
	}
	if suffix, ok := strings.CutPrefix(c.Recv, "*"); ok {
		return strings.HasSuffix(id.Recv, suffix)
	}
	return c.Recv == "" || id.Recv == c.Recv
}

// An SDKBuilder describes a request an SDK builds in steps: a client's method (Maker) takes
// the context first and returns the builder, the builder's methods that return it again add
// to it (If, Then, Else), and Send sends it, bounded only by the maker's context (etcd's
// KV.Txn(ctx).If(...).Then(...).Commit()).
type SDKBuilder struct {
	Pkgs    []string
	Builder string // the builder's type name
	Maker   string // the client's method that makes the builder
	Send    string // the builder's method that sends the request
}

// SDKBuilders are the SDKs' requests built in steps.
var SDKBuilders = []SDKBuilder{
	{Pkgs: []string{"go.etcd.io/etcd/client/v3", "github.com/coreos/etcd/clientv3"}, Builder: "Txn", Maker: "Txn", Send: "Commit"},
}

// SDKBuilderSend returns the builder whose sending method id is, or nil.
func SDKBuilderSend(id flow.FuncID) *SDKBuilder {
	for i := range SDKBuilders {
		if b := &SDKBuilders[i]; slices.Contains(b.Pkgs, id.Pkg) && id.Recv == b.Builder && id.Name == b.Send {
			return b
		}
	}
	return nil
}
