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
	return http.Get(u) // want `http\.Get uses http\.DefaultClient \(no timeout\), so a stalled server hangs this call; use a client with a Timeout`
}

func head(u string) {
	http.Head(u) // want `http\.Head uses http\.DefaultClient \(no timeout\), so a stalled server hangs this call; use a client with a Timeout`
}

func post(u string) {
	http.Post(u, "application/json", nil) // want `http\.Post uses http\.DefaultClient \(no timeout\), so a stalled server hangs this call; use a client with a Timeout`
}

func postForm(u string) {
	http.PostForm(u, url.Values{"a": {"b"}}) // want `http\.PostForm uses http\.DefaultClient \(no timeout\), so a stalled server hangs this call; use a client with a Timeout`
}

func defaultClientNewRequest(u string) {
	req, _ := http.NewRequest("GET", u, nil)
	http.DefaultClient.Do(req) // related "httpfuncs.go:32: http.NewRequest gives the request no context" // want `http\.DefaultClient has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
}

func defaultClientBackground(u string) {
	req, _ := http.NewRequestWithContext(context.Background(), "GET", u, nil)
	http.DefaultClient.Do(req) // related "httpfuncs.go:37: context.Background() has no deadline" // want `http\.DefaultClient has no Timeout and the request's context has no deadline, so a stalled server hangs this call`
}

func defaultClientGet(u string) {
	http.DefaultClient.Get(u) // want `http\.DefaultClient has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
}

func withContextTODO(u string) {
	req, _ := http.NewRequest("GET", u, nil)
	req = req.WithContext(context.TODO())
	http.DefaultClient.Do(req) // related "httpfuncs.go:47: context.TODO() has no deadline" // want `http\.DefaultClient has no Timeout and the request's context has no deadline, so a stalled server hangs this call`
}

func cancelOnly(u string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	http.DefaultClient.Do(req) // related "httpfuncs.go:52: context.Background() has no deadline" // want `http\.DefaultClient has no Timeout and the request's context has no deadline, so a stalled server hangs this call`
}

// The wrong context: a deadline is made, but the request uses its parent.
func wrongContext(u string) {
	ctx := context.Background()
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_ = tctx
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	http.DefaultClient.Do(req) // related "httpfuncs.go:60: context.Background() has no deadline" // want `http\.DefaultClient has no Timeout and the request's context has no deadline, so a stalled server hangs this call`
}

func cleanClient(u string) {
	c := cleanhttp.DefaultClient()
	c.Get(u) // related "httpfuncs.go:69: cleanhttp.DefaultClient returns an http.Client without a Timeout" // want `this http\.Client has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
}

func transport(u string) {
	req, _ := http.NewRequest("GET", u, nil)
	http.DefaultTransport.RoundTrip(req) // related "httpfuncs.go:74: http.NewRequest gives the request no context" // want `RoundTripper\.RoundTrip's request has no context, so a stalled server hangs this call`
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

// A context captured by a closure is what was bound where the closure was made: here one
// without a deadline. Reported.
func closureContext(u string) {
	ctx := context.Background()
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
		http.DefaultClient.Do(req) // related "httpfuncs.go:143: context.Background() has no deadline" // want `http\.DefaultClient has no Timeout and the request's context has no deadline, so a stalled server hangs this call`
	}()
}

// The same with a deadline: not reported.
func closureDeadline(u string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	go func() {
		defer cancel()
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
