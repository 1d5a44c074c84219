// Package sinks: every place a value leaves as an idempotency key, and look-alikes that do not.
package sinks

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/go-resty/resty/v2"
	"github.com/google/uuid"
	"google.golang.org/grpc/metadata"
)

type jsonBody struct {
	Key string `json:"idempotency_key,omitempty"`
}

type formBody struct {
	Token string `form:"idempotency-token"`
}

type named struct {
	IdempotencyKey     string
	ClientRequestToken *string
	TraceID            string
}

type option func(*named)

// WithIdempotencyKey is an option setter.
func WithIdempotencyKey(k string) option { return func(n *named) { n.IdempotencyKey = k } } // want WithIdempotencyKey:`sends parameters \[0\] to field IdempotencyKey`

func headers(req *http.Request) { // want headers:`mints a key`
	req.Header.Set("Idempotency-Key", uuid.NewString())                      // want `uuid.NewString: sent as header "Idempotency-Key"`
	req.Header.Add("X-Idempotency-Key", "k-"+uuid.NewString())               // want `uuid.NewString: sent as header "X-Idempotency-Key"`
	req.Header["Idempotency-Token"] = []string{uuid.NewString()}             // want `uuid.NewString: sent as header "Idempotency-Token"`
	req.Header = http.Header{"Idempotency-Key": {fmt.Sprint(uuid.New())}}    // want `uuid.New: sent as header "Idempotency-Key"`
	req.Header.Set("X-Request-ID", uuid.NewString())                         // want `uuid.NewString: not sent as a key`
	req.Header.Set("Traceparent", fmt.Sprintf("00-%s-01", uuid.NewString())) // want `uuid.NewString: not sent as a key`
}

func bodies(send func(...any)) { // want bodies:`mints a key`
	send(
		jsonBody{Key: uuid.NewString()},                        // want `uuid.NewString: sent as field Key`
		&formBody{Token: uuid.NewString()},                     // want `uuid.NewString: sent as field Token`
		map[string]string{"idempotency_key": uuid.NewString()}, // want `uuid.NewString: sent as map key "idempotency_key"`
		url.Values{"client_token": {uuid.NewString()}},         // want `uuid.NewString: sent as map key "client_token"`
		named{TraceID: uuid.NewString()},                       // want `uuid.NewString: not sent as a key`
	)
}

func fields(n *named) { // want fields:`mints a key`
	n.IdempotencyKey = uuid.NewString() // want `uuid.NewString: sent as field IdempotencyKey`
	tok := uuid.NewString()             // want `uuid.NewString: sent as field ClientRequestToken`
	n.ClientRequestToken = &tok
	_ = WithIdempotencyKey(uuid.NewString()) // want `uuid.NewString: sent as WithIdempotencyKey`
}

func grpc(ctx context.Context) []context.Context { // want grpc:`mints a key` grpc:"generator: uuid.NewString"
	md := metadata.Pairs("idempotency-key", uuid.NewString()) // want `uuid.NewString: sent as gRPC metadata "idempotency-key"`
	md.Set("x-idempotency-key", uuid.NewString())             // want `uuid.NewString: sent as gRPC metadata "x-idempotency-key"`
	return []context.Context{
		metadata.NewOutgoingContext(ctx, md),
		metadata.AppendToOutgoingContext(ctx, "idempotency-key", uuid.NewString()), // want `uuid.NewString: sent as gRPC metadata "idempotency-key"`
		metadata.AppendToOutgoingContext(ctx, "x-request-id", uuid.NewString()),    // want `uuid.NewString: not sent as a key`
	}
}

func clients(ctx context.Context, rc *resty.Client, ec *ec2.Client) { // want clients:`mints a key`
	_, _ = rc.R().SetHeader("Idempotency-Key", uuid.NewString()).Post("https://api.example.com/v1/charges") // want `uuid.NewString: sent as header "Idempotency-Key"`
	_, _ = ec.RunInstances(ctx, &ec2.RunInstancesInput{ClientToken: aws.String(uuid.NewString())})          // want `uuid.NewString: sent as field ClientToken`
	_, _ = ec.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String("ami-" + uuid.NewString())})     // want `uuid.NewString: not sent as a key`
}

// putKey sends its parameter as the key; a value passed to it is sent too.
func putKey(req *http.Request, key string) { // want putKey:`sends parameters \[1\] to header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", key)
}

func throughHelper(req *http.Request) { // want throughHelper:`mints a key`
	putKey(req, uuid.NewString()) // want `uuid.NewString: sent as header "Idempotency-Key" via putKey`
}

// A request type with a named-parameter setter, as cloud SDKs send a client token
// (?clientToken=); other parameters are not sinks.
type cloudRequest struct{ params map[string]string }

func (r *cloudRequest) SetParam(key, value string) { r.params[key] = value }

func queryParams(r *cloudRequest) { // want queryParams:`mints a key`
	r.SetParam("clientToken", uuid.NewString()) // want `uuid.NewString: sent as query parameter "clientToken"`
	r.SetParam("requestId", uuid.NewString())   // want `uuid.NewString: not sent as a key`
}

// An SDK's method that hands the token to a function of the same name: named once.
type cloudClient struct{}

func CreateRecord(c *cloudClient, zone, token string) { // want CreateRecord:`sends parameters \[2\] to query parameter "clientToken"`
	r := &cloudRequest{}
	r.SetParam("clientToken", token)
}

func (c *cloudClient) CreateRecord(zone, token string) { CreateRecord(c, zone, token) } // want CreateRecord:`sends parameters \[1\] to query parameter "clientToken" via CreateRecord$`

func createRecord(c *cloudClient) { // want createRecord:`mints a key`
	c.CreateRecord("example.com", uuid.NewString()) // want `uuid.NewString: sent as query parameter "clientToken" via CreateRecord$`
}

// A read carries no key that matters: a GET request's header, a builder's query parameter
// after WithMethod("GET") (bce-sdk-go's GetEipBp sends a client token on a GET).
type builder struct{ method string }

func (b *builder) WithMethod(m string) *builder              { b.method = m; return b }
func (b *builder) WithQueryParamFilter(k, v string) *builder { return b }
func (b *builder) Do() error                                 { return nil }
func newBuilder() *builder                                   { return &builder{} }

func reads(ctx context.Context) { // want reads:`mints a key`
	get, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.example.com/v1/charges/1", nil)
	get.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid.NewString: not sent as a key`
	post, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/v1/charges", nil)
	post.Header.Set("Idempotency-Key", uuid.NewString())                                           // want `uuid.NewString: sent as header "Idempotency-Key"`
	_ = newBuilder().WithMethod("GET").WithQueryParamFilter("clientToken", uuid.NewString()).Do()  // want `uuid.NewString: not sent as a key`
	_ = newBuilder().WithMethod("POST").WithQueryParamFilter("clientToken", uuid.NewString()).Do() // want `uuid.NewString: sent as query parameter "clientToken"`
}

// The same with a request value whose method is set on it.
type sdkRequest struct{ method string }

func (r *sdkRequest) SetMethod(m string)         { r.method = m }
func (r *sdkRequest) SetParam(key, value string) {}

func sdkGet() { // want sdkGet:`mints a key`
	get := &sdkRequest{}
	get.SetMethod("GET")
	get.SetParam("clientToken", uuid.NewString()) // want `uuid.NewString: not sent as a key`
	post := &sdkRequest{}
	post.SetMethod("POST")
	post.SetParam("clientToken", uuid.NewString()) // want `uuid.NewString: sent as query parameter "clientToken"`
}
