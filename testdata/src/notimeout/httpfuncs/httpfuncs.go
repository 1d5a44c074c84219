// Package httpfuncs: net/http package functions, http.DefaultClient and clients from elsewhere.
package httpfuncs

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/hashicorp/go-cleanhttp"
)

// ---- Reported ----

func get(u string) (*http.Response, error) {
	return http.Get(u) // want `http.Get uses http.DefaultClient, which has no timeout: a stalled server blocks this call forever; use an http.Client with a Timeout, or a request made with http.NewRequestWithContext and a deadline`
}

func head(u string) {
	http.Head(u) // want `http.Head uses http.DefaultClient`
}

func post(u string) {
	http.Post(u, "application/json", nil) // want `http.Post uses http.DefaultClient`
}

func postForm(u string) {
	http.PostForm(u, url.Values{"a": {"b"}}) // want `http.PostForm uses http.DefaultClient`
}

func defaultClientNewRequest(u string) {
	req, _ := http.NewRequest("GET", u, nil)
	http.DefaultClient.Do(req) // want `http.Client.Do sends a request made by http.NewRequest \(line 32\), which gives it no context, through http.DefaultClient, which has no timeout: a stalled server blocks this call forever`
}

func defaultClientBackground(u string) {
	req, _ := http.NewRequestWithContext(context.Background(), "GET", u, nil)
	http.DefaultClient.Do(req) // want `http.Client.Do sends a request whose context comes from context.Background\(\) \(line 37\) and has no deadline, through http.DefaultClient`
}

func defaultClientGet(u string) {
	http.DefaultClient.Get(u) // want `http.Client.Get sends a request without a context, through http.DefaultClient, which has no timeout`
}

func withContextTODO(u string) {
	req, _ := http.NewRequest("GET", u, nil)
	req = req.WithContext(context.TODO())
	http.DefaultClient.Do(req) // want `context.TODO\(\) \(line 47\)`
}

func cancelOnly(u string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	http.DefaultClient.Do(req) // want `context.Background\(\) \(line 52\) and has no deadline`
}

// The wrong context: a deadline is made, but the request uses its parent.
func wrongContext(u string) {
	ctx := context.Background()
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_ = tctx
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	http.DefaultClient.Do(req) // want `context.Background\(\) \(line 60\) and has no deadline`
}

func cleanClient(u string) {
	c := cleanhttp.DefaultClient()
	c.Get(u) // want `http.Client.Get sends a request without a context, through the http.Client returned by cleanhttp.DefaultClient at line 69, which has no timeout`
}

func transport(u string) {
	req, _ := http.NewRequest("GET", u, nil)
	http.DefaultTransport.RoundTrip(req) // want `http.RoundTripper.RoundTrip sends a request made by http.NewRequest \(line 74\), which gives it no context: a stalled server blocks this call forever`
}

// ---- Not reported ----

func deadlineRequest(u string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	http.DefaultClient.Do(req)
}

func deadlineViaWithContext(u string) {
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Second))
	defer cancel()
	req, _ := http.NewRequest("GET", u, nil)
	http.DefaultClient.Do(req.WithContext(ctx))
}

func deadlineCause(u string) {
	ctx, cancel := context.WithTimeoutCause(context.Background(), time.Second, nil)
	defer cancel()
	req, _ := http.NewRequestWithContext(context.WithValue(ctx, "k", "v"), "GET", u, nil)
	http.DefaultClient.Do(req)
}

func contextFromCaller(ctx context.Context, u string) {
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	http.DefaultClient.Do(req)
}

func requestFromCaller(req *http.Request) {
	http.DefaultClient.Do(req)
}

func handler(w http.ResponseWriter, r *http.Request) {
	out, _ := http.NewRequestWithContext(r.Context(), "GET", "https://example.com", nil)
	http.DefaultClient.Do(out)
}

func clientFromCaller(c *http.Client, u string) {
	c.Get(u)
}

type service struct {
	ctx context.Context
}

func (s *service) fieldContext(u string) {
	req, _ := http.NewRequestWithContext(s.ctx, "GET", u, nil)
	http.DefaultClient.Do(req)
}

// Some path has a deadline: the check gives it the benefit of the doubt.
func deadlineOnOnePath(u string, slow bool) {
	ctx := context.Background()
	if !slow {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Second)
		defer cancel()
	}
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	http.DefaultClient.Do(req)
}

// A context captured by a closure is treated as handled.
func closureContext(u string) {
	ctx := context.Background()
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
		http.DefaultClient.Do(req)
	}()
}

// Calls to this machine, by constant address: readiness polls of a server the program
// starts, test scaffolding.
func waitForServer(port string) {
	for {
		if _, err := http.Get("http://localhost:" + port + "/ping"); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

func localRequest() {
	req, _ := http.NewRequest("GET", "http://127.0.0.1:9000/healthz", nil)
	http.DefaultClient.Do(req)
}
