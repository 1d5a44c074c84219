// Package sends exercises the remote model's HTTP sends: method, path and the call that made
// the request (checked by TestSends, not by -remote.report).
package sends

import (
	"bytes"
	"context"
	"fmt"
	"net/http"

	"github.com/go-resty/resty/v2"
	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

const base = "https://api.example.com"

func netHTTP(ctx context.Context, c *http.Client, body []byte, id string, post bool) { // want netHTTP:`passes the http.Client of parameter 1 to http.Client.Do at sends.go:23, without a deadline`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/charges", bytes.NewReader(body))
	c.Do(req) // want `.*`

	method := "PATCH"
	req2, _ := http.NewRequest(method, fmt.Sprintf("%s/v1/orders", base), nil)
	c.Do(req2) // want `.*`

	req3, _ := http.NewRequest("POST", base+"/v1/orders/"+id, nil)
	c.Do(req3) // want `.*`

	m := "GET"
	if post {
		m = "POST"
	}
	req4, _ := http.NewRequest(m, "https://api.example.com/", nil)
	c.Do(req4) // want `.*`

	http.Post("https://api.example.com/v1/refunds?expand=charge", "application/json", nil) // want `.*`
}

func retryable(ctx context.Context, c *retryablehttp.Client, body []byte) { // want retryable:`passes the retryablehttp.Client of parameter 1 to retryablehttp.Client.Post at sends.go:41, without a deadline`
	req, _ := retryablehttp.NewRequestWithContext(ctx, "POST", base+"/v1/charges", body)
	c.Do(req)                                            // want `.*`
	c.Post(base+"/v1/refunds", "application/json", body) // want `.*`
	retryablehttp.Get(base + "/v1/charges")
	hr, _ := http.NewRequest(http.MethodPatch, base+"/v1/orders", nil)
	wrapped, _ := retryablehttp.FromRequest(hr)
	c.Do(wrapped) // want `.*`
}

func restyCalls(c *resty.Client) { // want restyCalls:`passes the resty.Client of parameter 0 to resty.Request.Post at sends.go:49, without a deadline`
	c.R().SetBody("{}").Post(base + "/v1/charges") // want `HTTP call resty.Request.Post \(POST\): unknown \(client from parameter 0\)`
	c.R().Patch("/v1/orders")                      // want `resty.Request.Patch \(PATCH\)`
	c.R().Execute("delete", "/v1/orders")          // want `resty.Request.Execute \(DELETE\)`
	c.R().Get("/v1/orders")                        // want `resty.Request.Get \(GET\)`
}

// do sends a request it is given, with the client's headers.
func do(c *http.Client, req *http.Request) (*http.Response, error) { // want do:`passes the http.Client of parameter 0 and the context of parameter 1 to http.Client.Do at sends.go:58`
	req.Header.Set("User-Agent", "sends/1.0")
	return c.Do(req) // want `.*`
}

func viaHelper(ctx context.Context, c *http.Client) { // want viaHelper:`passes the http.Client of parameter 1 and the context of parameter 0 to http.Client.Do at sends.go:58`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/payouts", nil)
	do(c, req) // want `.*`
}

func sprintfHost(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60e9) // a minute
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("https://hooks.example.org:8443/v1/%s", id), nil)
	http.DefaultClient.Do(req) // want `.*`
}

// A client whose base URL is a field: its default is the one constant stored there.
type api struct {
	base string
	http *http.Client
}

func newAPI(c *http.Client) *api { return &api{base: "https://events.example.net/v2", http: c} }

func (a *api) withBase(base string) { a.base = base }

func (a *api) send(ctx context.Context) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/batch", nil)
	a.http.Do(req) // want `.*`
}
