// Package rowstream is an analytics client whose answers are rows streamed to the caller: the
// client has no Timeout on purpose (it would cut a long read), and each request carries its
// caller's context. Query hands the open body to the rows it returns; Count reads its answer
// whole, where a default Timeout is what bounds a stalled server.
package rowstream

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
)

type Client struct {
	cli  *http.Client
	base string
}

func New(base string) *Client {
	return &Client{cli: &http.Client{Transport: http.DefaultTransport}, base: base} // related "rowstream.go:114: Client.Count sends a request with its caller's context through it" related "rowstream.go:91: Client.Query reads a stream through it, which a Timeout would cut" // want `this http\.Client has no Timeout, so Client\.Count can hang; it also streams: give each request a deadline`
}

var (
	mu      sync.Mutex
	tracked []io.ReadCloser
)

// track registers the response's body for leak checks in tests, and hands it back.
func track(resp *http.Response) *http.Response {
	mu.Lock()
	tracked = append(tracked, resp.Body)
	mu.Unlock()
	return resp
}

type rowReader struct {
	body io.ReadCloser
	dec  *json.Decoder
	err  error
}

func newRowReader(body io.ReadCloser, attr string) (*rowReader, error) {
	dec := json.NewDecoder(body)
	for {
		tok, err := dec.Token()
		if err != nil {
			body.Close()
			return nil, fmt.Errorf("rows: %w", err)
		}
		if key, ok := tok.(string); ok && key == attr {
			break
		}
	}
	return &rowReader{body: body, dec: dec}, nil
}

// Next returns the next row, or nil at the end.
func (r *rowReader) Next() json.RawMessage {
	if r.err != nil || !r.dec.More() {
		return nil
	}
	var row json.RawMessage
	if r.err = r.dec.Decode(&row); r.err != nil {
		return nil
	}
	return row
}

func (r *rowReader) Close() error { return r.body.Close() }

// Rows is what Query returns: the caller reads them after Query returns.
type Rows struct {
	reader *rowReader
	status int
}

// Query sends a statement and hands back its rows, read as the server streams them.
func (c *Client) Query(ctx context.Context, statement string) (*Rows, error) {
	body, err := json.Marshal(map[string]string{"statement": statement})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/v1/request", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.cli.Do(req) //nolint:bodyclose // handed to the rows
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	resp = track(resp)
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return nil, fmt.Errorf("query: %s: %s", resp.Status, msg)
	}
	rr, err := newRowReader(resp.Body, "results")
	if err != nil {
		return nil, err
	}
	return &Rows{reader: rr, status: resp.StatusCode}, nil
}

// Count reads its answer whole.
func (c *Client) Count(ctx context.Context, dataset string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/api/v1/datasets/"+dataset+"/count", nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.cli.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var out struct {
		Count int `json:"count"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return 0, err
	}
	return out.Count, nil
}
