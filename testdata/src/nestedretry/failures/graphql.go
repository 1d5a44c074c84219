package failures

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// A GraphQL client on a self-retrying HTTP client: the server answers 200 with an error class
// in the body, which the client's own policy does not see. The outer loop goes round on a flag
// that the attempt sets only after the HTTP client returned a response: the inner layer did not
// give up, so nothing multiplies. An outer loop that goes round on the attempt's error does
// multiply: that error is what the HTTP client returns once it gave up.

type gqlError struct {
	Message    string `json:"message"`
	Extensions struct {
		ErrorClass string `json:"errorClass"`
	} `json:"extensions"`
}

type gqlResponse struct {
	Data   json.RawMessage `json:"data"`
	Errors []gqlError      `json:"errors"`
}

func (r *gqlResponse) retryable() bool {
	for _, e := range r.Errors {
		switch e.Extensions.ErrorClass {
		case "TIMEOUT", "INTERNAL_SERVER_ERROR", "SERVER_ERROR":
			return true
		}
	}
	return false
}

type errTooManyRounds struct{ last string }

func (e *errTooManyRounds) Error() string { return "giving up: " + e.last }

type graphClient struct {
	http     *retryablehttp.Client
	endpoint string
	apiKey   string
	rounds   int
}

// errorSink receives the errors an answer carries.
type errorSink interface {
	Error() string
	Add(gqlError)
}

type gqlErrors struct{ list []gqlError }

func (e *gqlErrors) Error() string  { return fmt.Sprint(e.list) }
func (e *gqlErrors) Add(g gqlError) { e.list = append(e.list, g) }

func newSink() errorSink { return &gqlErrors{} }

func (c *graphClient) attempt(query []byte, sink errorSink, n int) (*http.Response, *gqlResponse, bool, error) {
	req, err := retryablehttp.NewRequest(http.MethodPost, c.endpoint, bytes.NewReader(query))
	if err != nil {
		return nil, nil, false, err
	}
	req.Header.Set("Api-Key", c.apiKey)
	req.Header.Set("Content-Type", "application/json")
	if n > 0 {
		log.Printf("graphql: round %d", n+1)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, nil, false, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, false, err
	}
	var out gqlResponse
	if err := json.Unmarshal(body, &out); err != nil {
		return resp, nil, false, fmt.Errorf("graphql: decode: %w", err)
	}
	for _, e := range out.Errors {
		sink.Add(e)
	}
	if !out.retryable() {
		return resp, &out, false, nil
	}
	if n >= c.rounds {
		return resp, nil, false, &errTooManyRounds{last: out.Errors[0].Message}
	}
	time.Sleep(jitter(time.Second << n))
	return resp, &out, true, nil
}

// Query goes round only when an answer's error class asks for it: not reported.
func (c *graphClient) Query(query []byte) (json.RawMessage, error) {
	for n := 0; ; n++ {
		sink := newSink()
		_, out, again, err := c.attempt(query, sink, n)
		if tmr, ok := err.(*errTooManyRounds); ok {
			return nil, tmr
		}
		if again {
			continue
		}
		if err != nil {
			return nil, err
		}
		return out.Data, nil
	}
}

// QueryHard goes round on the attempt's error too, which the HTTP client returns once it gave
// up retrying: reported.
func (c *graphClient) QueryHard(query []byte) (json.RawMessage, error) {
	var err error
	for n := 0; n < 3; n++ {
		var out *gqlResponse
		var again bool
		_, out, again, err = c.attempt(query, newSink(), n) // related "graphql.go:126: outer retry loop" "graphql.go:78: inner self-retrying client call" // want `retries up to 3 times around graphClient\.attempt, which retries too: attempts multiply; keep one layer`
		if again || err != nil {
			time.Sleep(jitter(time.Second))
			continue
		}
		return out.Data, nil
	}
	return nil, err
}

// A tunnel's supervisor asks again, after a failure, for a work connection from a pool walk
// that tries each pooled connection once and closes the ones that fail: the walk tries
// another connection each round, it does not retry one. Not reported.

type pooledConn struct{ c net.Conn }

func (p *pooledConn) start(name string) error {
	_, err := p.c.Write([]byte(name))
	return err
}

func (p *pooledConn) Close() error { return p.c.Close() }

type tunnel struct {
	name  string
	pool  int
	take  func() (*pooledConn, error)
	close chan struct{}
}

func (t *tunnel) workConn() (*pooledConn, error) {
	var err error
	for i := 0; i < t.pool+1; i++ {
		pc, terr := t.take()
		if terr != nil {
			return nil, terr
		}
		if err = pc.start(t.name); err != nil {
			log.Printf("pooled connection %d: %v", i, err)
			pc.Close()
			continue
		}
		return pc, nil
	}
	return nil, err
}

func (t *tunnel) keep(serve func(*pooledConn)) {
	for attempt := 0; attempt < 10; attempt++ {
		pc, err := t.workConn()
		if err != nil {
			time.Sleep(jitter(time.Second))
			continue
		}
		serve(pc)
		return
	}
}
