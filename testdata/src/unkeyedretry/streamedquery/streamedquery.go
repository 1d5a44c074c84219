// Package streamedquery runs analytics statements: a POST whose answer is a stream of rows,
// read piece by piece. Sending a statement again asks the question again; it creates nothing,
// so its retries need no key. A POST answered with a document (a saved view) creates one.
package streamedquery

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"time"
)

type Client struct {
	hc   *http.Client
	base string
}

// Query sends the statement again when the connection fails, and returns the rows it reads.
func (c *Client) Query(ctx context.Context, statement string) ([]json.RawMessage, error) {
	body, err := json.Marshal(map[string]string{"statement": statement})
	if err != nil {
		return nil, err
	}
	var resp *http.Response
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/v1/request", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err = c.hc.Do(req)
		if err == nil {
			break
		}
		var ne net.Error
		if !errors.As(err, &ne) || attempt == 3 {
			return nil, fmt.Errorf("query: %w", err)
		}
		time.Sleep(time.Duration(attempt+1)*100*time.Millisecond + rand.N(100*time.Millisecond))
	}
	defer resp.Body.Close()
	var rows []json.RawMessage
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		rows = append(rows, json.RawMessage(bytes.Clone(sc.Bytes())))
	}
	return rows, sc.Err()
}

type View struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// SaveView creates a view, and sends it again when the connection fails.
func (c *Client) SaveView(ctx context.Context, name, statement string) (*View, error) {
	body, err := json.Marshal(map[string]string{"name": name, "statement": statement})
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/v1/views", bytes.NewReader(body)) // related "streamedquery.go:67: retry loop" related "streamedquery.go:73: sent here" // want `POST /api/v1/views is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.hc.Do(req)
		if err != nil {
			var ne net.Error
			if !errors.As(err, &ne) || attempt == 3 {
				return nil, fmt.Errorf("save view: %w", err)
			}
			time.Sleep(time.Duration(attempt+1)*100*time.Millisecond + rand.N(100*time.Millisecond))
			continue
		}
		defer resp.Body.Close()
		var v View
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
			return nil, err
		}
		return &v, nil
	}
}
