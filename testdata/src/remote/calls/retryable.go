package calls

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// go-retryablehttp: each attempt goes through the client's HTTPClient.
func retryable(ctx context.Context) {
	rc := retryablehttp.NewClient()
	req, _ := retryablehttp.NewRequest("POST", "https://example.com", nil)
	rc.Do(req)                              // want `HTTP call retryablehttp.Client.Do \(POST\): unbounded \(the retryablehttp.Client returned by retryablehttp.NewClient at line 13; context from retryablehttp.NewRequest\)`
	rc.StandardClient().Do(&http.Request{}) // want `HTTP call http.Client.Do: unbounded \(the retryablehttp.Client returned by retryablehttp.NewClient at line 13; context from an http.Request literal\)`
	rc.Get("https://example.com")           // want `HTTP call retryablehttp.Client.Get \(GET\): unbounded`

	timed := retryablehttp.NewClient()
	timed.HTTPClient.Timeout = time.Second
	timed.Do(req) // want `HTTP call retryablehttp.Client.Do \(POST\): bounded by retryablehttp.Client.HTTPClient \(http.Client.Timeout\)`

	hc := retryablehttp.NewClient().StandardClient()
	hc.Timeout = time.Minute
	hc.Get("https://example.com") // want `HTTP call http.Client.Get \(GET\): bounded by http.Client.Timeout`
}
