package knowledge

import (
	"slices"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// TestClientTypes checks that every client or dialer type can bound something: a field that
// carries its timeout or a sub-struct that does, a name for messages, and a setting to fix.
func TestClientTypes(t *testing.T) {
	for _, c := range append(slices.Clone(ClientTypes), HTTPTransport) {
		if c.Pkg == "" || c.Name == "" || c.Display == "" || c.Setting == "" {
			t.Errorf("%+v: want a package, a name, a display name and a setting", *c)
		}
		if len(c.Fields) == 0 && (c.SubField == "" || c.Sub == nil) && len(c.Setters) == 0 {
			t.Errorf("%s: no field, sub-struct or setter bounds its calls", c.Display)
		}
		if len(c.Setters)+len(c.Opaque) > 0 && !c.Chain {
			t.Errorf("%s: setters are followed through chains of them: want Chain", c.Display)
		}
		if (c.SubField == "") != (c.Sub == nil) {
			t.Errorf("%s: SubField and Sub go together", c.Display)
		}
		if !strings.HasSuffix(c.Display, "."+c.Name) {
			t.Errorf("%s: display name should end with the type's name %s", c.Display, c.Name)
		}
	}
	for id, k := range NoTimeoutConstructors {
		if k.Type == nil || !slices.Contains(ClientTypes, k.Type) {
			t.Errorf("%v: constructs a type the model does not know", id)
		}
		if !strings.HasSuffix(k.Name, "."+id.Name) {
			t.Errorf("%v: name %q should end with the function's name", id, k.Name)
		}
	}
	for id, c := range SendsThrough {
		if id.Recv == "" || !slices.Contains(ClientTypes, c) {
			t.Errorf("%v: want a method and a known client type", id)
		}
	}
	for id, i := range AddrArgs {
		if i < FromRequest || i > 2 {
			t.Errorf("%v: address argument %d out of range", id, i)
		}
	}
}

// TestSDKClients checks the SDK descriptions and what Covers matches.
func TestSDKClients(t *testing.T) {
	for _, c := range SDKClients {
		if len(c.Pkgs) == 0 {
			t.Errorf("%+v: no package", c)
		}
		if c.Options != "" && c.Options != "...func" && strings.ContainsAny(c.Options, ".*") {
			t.Errorf("%v: Options %q is a type-name suffix or ...func", c.Pkgs, c.Options)
		}
	}
	for _, tc := range []struct {
		id   flow.FuncID
		want bool
	}{
		{flow.FuncID{Pkg: "github.com/aws/aws-sdk-go-v2/service/s3", Recv: "Client", Name: "PutObject"}, true},
		{flow.FuncID{Pkg: "github.com/aws/aws-sdk-go-v2/service/s3", Recv: "ListObjectsV2Paginator", Name: "NextPage"}, true},
		{flow.FuncID{Pkg: "github.com/aws/aws-sdk-go-v2/service/s3", Recv: "ListObjectsV2Paginator", Name: "HasMorePages"}, false},
		{flow.FuncID{Pkg: "github.com/aws/aws-sdk-go/service/s3", Recv: "S3", Name: "WaitUntilBucketExists"}, false},
		{flow.FuncID{Pkg: "github.com/minio/minio-go/v7", Recv: "Client", Name: "PutObject"}, true},
		{flow.FuncID{Pkg: "github.com/minio/minio-go-extra", Recv: "Client", Name: "PutObject"}, false},
		{flow.FuncID{Pkg: "go.etcd.io/etcd/client/v3", Recv: "Client", Name: "Watch"}, false},
	} {
		got := slices.ContainsFunc(SDKClients, func(c SDKClient) bool { return c.Covers(tc.id) })
		if got != tc.want {
			t.Errorf("Covers(%v) = %v, want %v", tc.id, got, tc.want)
		}
	}
}

func TestSDKBuilders(t *testing.T) {
	for _, tc := range []struct {
		id   flow.FuncID
		want bool
	}{
		{flow.FuncID{Pkg: "go.etcd.io/etcd/client/v3", Recv: "Txn", Name: "Commit"}, true},
		{flow.FuncID{Pkg: "github.com/coreos/etcd/clientv3", Recv: "Txn", Name: "Commit"}, true},
		{flow.FuncID{Pkg: "go.etcd.io/etcd/client/v3", Recv: "Txn", Name: "If"}, false},
		{flow.FuncID{Pkg: "go.etcd.io/etcd/client/v3", Recv: "KV", Name: "Commit"}, false},
		{flow.FuncID{Pkg: "example.com/store", Recv: "Txn", Name: "Commit"}, false},
	} {
		if got := SDKBuilderSend(tc.id) != nil; got != tc.want {
			t.Errorf("SDKBuilderSend(%v) = %v, want %v", tc.id, got, tc.want)
		}
	}
}
